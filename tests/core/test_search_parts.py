"""The compiled parts of core's search (simlab.core.search), each on its own: the rollout streams' reseeding, a
seat's reward, the tree's tables and UCB1, the halving, the final choice (shared compiled functions, called
directly), and the game-bound templates — determinize-and-reseed, the candidates' ranking, a race round, a
descent and its backup — on Pig's copies. The whole bot's behaviour (determinism, no peeking, forced wins)
is tests/core/test_search.py's."""

from __future__ import annotations

import numpy as np
import pytest

from simlab.core import search
from simlab.core.loop import KIND_SEARCH
from simlab.core.search import T_ACTION, T_AVAIL, T_FIRST, T_MOVER, T_PARENT, T_SIBLING, T_VIRTUAL, T_VISITS, T_WINS

SPEC = "ismcts:iterations=24,candidates=0"


@pytest.fixture(scope="module")
def pig():
    from tests.examples.pig.game import GAME

    return GAME


def bound(game, name: str):
    """The game's own compiled copy of the search template ``name`` (from its search loop's namespace)."""
    return game.kernel.for_kinds([KIND_SEARCH]).policy.py_func.__globals__[name]


def decision(game, seed: int = 1):
    """A state of ``game`` with at least two legal actions, its legal actions and the seats' bot streams."""
    state = game.new_state(game.make_config(), seed)
    while len(state.legal_actions()) < 2:
        state.apply(state.legal_actions()[0])
    buf = np.zeros(game.kernel.max_actions, dtype=np.int32)
    n = game.kernel.legal(state.record, state.cfg, buf)
    return state, buf, n, game.bot_states(seed, state.config.players)


# ==============================================================================================
# one declaration binds every template
# ==============================================================================================
def test_the_engine_binds_every_declared_template_per_game_and_the_plain_loop_none(pig):
    for template in search.TEMPLATES:
        copy = bound(pig, template.__name__)
        assert copy.py_func.__qualname__ == f"{pig.name}.search.{template.__name__}"
        assert copy.py_func.__code__ is template.__code__
        assert (copy.targetoptions.get("inline") == "always") is (template in search.INLINED)
    assert set(search.INLINED) == set(search.TEMPLATES) - {search.search_decide}  # one compiled search per game
    for shared in search.SHARED:
        assert bound(pig, shared.__name__) is shared  # no game's names in it: one compiled function for all
    plain = pig.kernel.policy.py_func.__globals__
    assert not {t.__name__ for t in search.TEMPLATES if t.__name__ != "search_decide"} & set(plain)
    assert plain["search_decide"] is search.search_unbound


# ==============================================================================================
# shared compiled parts
# ==============================================================================================
def test_keep_better_half_sorts_by_total_stably_and_keeps_the_upper_half():
    alive = np.arange(5)
    total = np.array([1.0, 3.0, 3.0, 0.0, 2.0])
    assert search.keep_better_half(alive, total, 5) == 3
    assert alive.tolist() == [1, 2, 4, 0, 3]  # 1 before 2: a tie keeps the rollout bot's order
    alive = np.array([3, 0, 2, 1])
    assert search.keep_better_half(alive, total, 2) == 1  # only the first n_alive take part
    assert alive.tolist() == [0, 3, 2, 1]


def test_reseed_gives_each_rollout_stream_a_fresh_state_from_mine_in_seat_order():
    mine = np.array([12345], np.uint64)
    roll = np.zeros(3, np.uint64)
    search.reseed(roll, mine)
    expected, draw = [], np.array([12345], np.uint64)
    for _ in range(3):
        expected.append(int(search.fresh_state(draw)))
    assert roll.tolist() == expected and mine[0] == draw[0] and 0 not in expected


def test_seat_reward_is_the_win_share_mixed_with_the_rank_by_rank_weight():
    share = np.array([0.5, 0.5, 0.0])
    rank = np.array([1, 1, 3], np.int8)
    assert search.seat_reward(share, rank, 0, 0.0, 3) == 0.5  # the win share alone
    assert search.seat_reward(share, rank, 0, 0.5, 3) == 0.5 * 0.5 + 0.5 * (3 - 1) / 2.0
    assert search.seat_reward(share, rank, 2, 1.0, 3) == 0.0  # last: nothing
    assert search.seat_reward(np.array([1.0]), np.array([1], np.int8), 0, 0.5, 1) == 1.0  # alone: the share


def test_a_new_tree_holds_the_root_alone_and_add_child_links_children_newest_first():
    links, stats = search.new_tree(4)
    assert links.shape == (5, 4) and stats.shape == (4, 4) and not stats.any()
    assert links[T_FIRST, 0] == -1 and links[T_SIBLING, 0] == -1
    search.add_child(links, stats, 0, 1, 7, 0, 0.0, 0.5)
    search.add_child(links, stats, 0, 2, 9, 1, 2.0, 0.5)
    assert links[T_FIRST, 0] == 2 and links[T_SIBLING, 2] == 1 and links[T_SIBLING, 1] == -1
    assert links[T_PARENT, 2] == 0 and links[T_ACTION, 2] == 9 and links[T_MOVER, 2] == 1
    assert links[T_FIRST, 2] == -1
    # the prior: virtual visits at an even share, counted apart so the final choice can leave them out
    assert stats[T_VISITS, 2] == 2.0 and stats[T_VIRTUAL, 2] == 2.0 and stats[T_WINS, 2] == 1.0
    assert stats[T_AVAIL, 1] == 1.0 and stats[T_VISITS, 1] == 0.0


def small_tree():
    """A root with three children: action 4 (2 wins / 4 visits), 5 (3 / 4) and 6 (0 / 1)."""
    links, stats = search.new_tree(8)
    for child, (action, wins, visits) in enumerate([(4, 2.0, 4.0), (5, 3.0, 4.0), (6, 0.0, 1.0)], start=1):
        search.add_child(links, stats, 0, child, action, 0, 0.0, 0.5)
        stats[T_WINS, child], stats[T_VISITS, child] = wins, visits
    stats[T_VISITS, 0] = 9.0
    return links, stats


def test_ucb_child_scores_only_the_children_legal_here_and_marks_them_tried():
    links, stats = small_tree()
    mark = np.zeros(16, np.int64)
    mark[[4, 5, 9]] = 3  # 6 is not legal in this determinization, 9 is legal and untried
    best, tried = search.ucb_child(links, stats, 0, mark, 3, 0.0)  # c = 0: the best mean
    assert (links[T_ACTION, best], tried) == (5, 2)
    assert mark[4] == -3 and mark[5] == -3 and mark[9] == 3 and mark[6] == 0
    assert stats[T_AVAIL, 1] == 2.0 and stats[T_AVAIL, 2] == 2.0 and stats[T_AVAIL, 3] == 1.0
    assert search.untried_action(np.array([4, 5, 9], np.int32), 3, mark, 3, 0) == 9
    assert search.untried_action(np.array([4, 5, 9], np.int32), 3, mark, 3, 1) == -1
    mark[[4, 5, 6]] = 4
    best, tried = search.ucb_child(links, stats, 0, mark, 4, 10.0)  # a large c: the least visited
    assert (links[T_ACTION, best], tried) == (6, 3)
    mark[:] = 0
    assert search.ucb_child(links, stats, 0, mark, 5, 0.7) == (-1, 0)


def test_most_visited_counts_real_visits_and_breaks_ties_by_mean_then_prior_then_action_id():
    links, stats = small_tree()
    mark = np.zeros(16, np.int64)
    buf = np.array([4, 5, 6], np.int32)
    assert search.most_visited(links, stats, buf, 3, mark, 1, 0.5) == 5  # 4 and 5 tie on visits: 5's mean
    assert search.most_visited(links, stats, buf[[0, 2]], 2, mark, 2, 0.5) == 4  # 5 not legal here
    stats[T_WINS, 1] = 3.0
    assert search.most_visited(links, stats, buf, 3, mark, 3, 0.5) == 4  # a full tie: the smaller id
    stats[T_VIRTUAL, 2] = 2.0  # 5 was the rollout bot's choice: its virtual visits and wins left out
    stats[T_VISITS, 2] += 2.0
    stats[T_WINS, 2] += 1.0
    assert search.most_visited(links, stats, buf, 3, mark, 4, 0.5) == 5
    assert search.most_visited(links, stats, np.array([8], np.int32), 1, mark, 5, 0.5) == -1


# ==============================================================================================
# templates, on Pig's copies
# ==============================================================================================
def test_determinize_sample_copies_reseeds_and_drops_forced_outcomes_from_the_seats_stream_only(pig):
    state, _, _, rng = decision(pig)
    before = state.record.copy()
    work = np.empty_like(state.record)
    seat = state.current_player
    mine = rng[seat : seat + 1].copy()
    bound(pig, "determinize_sample")(work, state.record, state.cfg, seat, mine)
    assert state.record.tobytes() == before.tobytes()
    assert work[0]["rng"][0] != before[0]["rng"][0] and work[0]["forced_i"] == work[0]["forced_n"]
    assert mine[0] != rng[seat]  # it drew from the stream it was given
    again = np.empty_like(state.record)
    bound(pig, "determinize_sample")(again, state.record, state.cfg, seat, rng[seat : seat + 1].copy())
    assert again.tobytes() == work.tobytes()


def test_race_candidates_are_the_rollout_bots_distinct_choices_best_first(pig):
    state, buf, n, rng = decision(pig)
    bot = pig.bots.make("ismcts:iterations=8,candidates=4")
    roll = rng.copy()
    cand = np.empty(min(4, n), np.int32)
    k = bound(pig, "race_candidates")(bot.params, state.record, state.cfg, buf, n, roll, state.current_player, cand)
    assert k == min(4, n) and len(set(cand[:k].tolist())) == k and set(cand[:k].tolist()) <= set(buf[:n].tolist())
    rollout = pig.bots.make(pig.bots.default_rollout())
    first = pig.kernel.policy(
        rollout.kind, rollout.params, state.record, state.cfg, buf, n, rng.copy(), state.current_player
    )
    assert cand[0] == first  # the bot's own choice heads the ranking


def test_a_race_round_adds_one_reward_per_sample_to_every_survivor_and_changes_no_state(pig):
    state, buf, _, rng = decision(pig)
    bot = pig.bots.make("ismcts:iterations=8,candidates=2")
    cand = buf[:2].copy()
    total = np.zeros(2)
    base, work = np.empty_like(state.record), np.empty_like(state.record)
    before = state.record.tobytes()
    seat, players = state.current_player, rng.shape[0]
    mine = rng[seat : seat + 1]
    roll = np.empty(players, np.uint64)
    alive = np.arange(2)
    bound(pig, "race_round")(
        bot.params, state.record, state.cfg, seat, players, mine, cand, alive, 2, total, 5, base, work, roll
    )
    assert state.record.tobytes() == before
    assert ((total >= 0) & (total <= 5)).all()  # five win shares each, every one in [0, 1]
    assert total.sum() > 0  # someone won some playout


def test_descend_adds_one_node_per_iteration_and_backup_counts_every_visit(pig):
    state, buf, n, rng = decision(pig)
    bot = pig.bots.make(SPEC)
    seat = state.current_player
    mine = rng[seat : seat + 1]
    links, stats = search.new_tree(8)
    work = np.empty_like(state.record)
    sbuf = np.empty(pig.kernel.max_actions, np.int32)
    mark = np.zeros(pig.kernel.max_actions, np.int64)
    roll = np.empty(rng.shape[0], np.uint64)
    nodes, stamp = 1, 0
    for it in range(1, 6):
        bound(pig, "determinize_sample")(work, state.record, state.cfg, seat, mine)
        node, nodes, stamp = bound(pig, "descend")(
            bot.params, links, stats, nodes, 8, work, state.cfg, sbuf, mark, stamp, mine, roll, 0.5
        )
        assert nodes == it + 1 and node == it  # each iteration expands exactly one new node
        bound(pig, "play_out")(work, state.cfg, sbuf, roll, 0, bot.params[search.ROLLOUT_OFFSET :], 0)
        bound(pig, "backup")(links, stats, node, work, 0.0, rng.shape[0])
        assert stats[T_VISITS, 0] == it and stats[T_VISITS, node] == 1.0
        assert 0.0 <= stats[T_WINS, node] <= 1.0  # one win share
    children = []
    ch = links[T_FIRST, 0]
    while ch >= 0:
        children.append(ch)
        ch = links[T_SIBLING, ch]
    below_root = sum(stats[T_VISITS, c] for c in children)
    assert below_root == 5  # every iteration's visit passed through exactly one root child
    assert set(links[T_ACTION, children].tolist()) <= set(buf[:n].tolist())
