"""Core's search bot (simlab.core.search): spec strings, determinism, copy integrity, no cheating, forced
wins and bit-identical runs on any number of workers, for every registered game and Pig."""

from __future__ import annotations

from itertools import cycle, islice

import numpy as np
import pytest

import simlab
from simlab.core.bots import BotRegistry, CompiledBot, heuristic
from simlab.core.checks import checks_for
from simlab.core.errors import BotSpecError
from simlab.core.loop import KIND_SEARCH
from simlab.core.search import P_C, P_CANDIDATES, P_DEPTH, P_ITERATIONS, P_ROLLOUT_KIND, ROLLOUT_OFFSET

GAMES = simlab.available_games()
SMALL = "ismcts:iterations=24,candidates=0"  # enough to exercise the tree, cheap enough for many decisions
HALVING = "ismcts:iterations=24,candidates=3"  # the rollout-improvement root: two rounds of halving
ROOTS = pytest.mark.parametrize("spec", [SMALL, HALVING], ids=["tree", "halving"])


@pytest.fixture(scope="module", params=[*GAMES, "pig"])
def game(request):
    if request.param == "pig":
        from tests.examples.pig.game import GAME

        return GAME
    return simlab.get_game(request.param)


def heuristic_names(game) -> list[str]:
    return [n for n in game.bots.names() if n != "random"]


# ==============================================================================================
# spec strings and the registry
# ==============================================================================================
def test_every_game_offers_the_search_bot_apart_from_its_playing_bots(game):
    assert game.bots.search_names() == ["race", "ismcts"]
    assert "ismcts" not in game.bots.names()  # default lineups and mixes do not pick it up
    bot = game.bots.make("ismcts")
    assert isinstance(bot, CompiledBot) and bot.kind == KIND_SEARCH and bot.name == "ismcts"
    named = game.bots.rollout if isinstance(game.bots, BotRegistry) else None
    default = named or heuristic_names(game)[0]
    assert game.bots.default_rollout() == default
    rollout = game.bots.make(default)
    assert bot.params[P_ITERATIONS] == 64 and bot.params[P_C] == pytest.approx(0.7)
    assert bot.params[P_CANDIDATES] == 4  # the default root races the rollout bot's 4 best actions
    assert bot.params[P_ROLLOUT_KIND] == rollout.kind  # default rollout: the game's named one, else its first
    assert np.array_equal(bot.params[ROLLOUT_OFFSET:], rollout.params)
    same = game.bots.make(f"ismcts:rollout={default}")
    assert np.array_equal(same.params, bot.params)
    rnd = game.bots.make("ismcts:iterations=50,rollout=random,c=1.5")
    assert rnd.params[P_ITERATIONS] == 50 and rnd.params[P_C] == 1.5 and rnd.params[P_ROLLOUT_KIND] == 0


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("ismcts:depth=3.5", "depth must be a whole number"),
        ("ismcts:deep=3", "no parameter 'deep'"),
        ("ismcts:iterations=ten", "must be a number"),
        ("ismcts:iterations=2.5", "whole number"),
        ("ismcts:iterations=0,candidates=0", "time budget"),
        ("ismcts:c=-1", ">= 0"),
        ("ismcts:rollout=nobody", "rollout='nobody' is not a compiled bot"),
        ("ismcts:rollout=ismcts", "not a compiled bot"),
        ("ismcts:iterations", "key=value"),
        ("ismcts:candidates=2.5", "candidates must be a whole number"),
        ("ismcts:seconds=1", "add candidates=0"),
    ],
)
def test_a_bad_search_spec_is_a_clear_error(spec, message):
    from tests.examples.pig.game import GAME

    with pytest.raises(BotSpecError, match=message):
        GAME.bots.make(spec)


def test_the_plain_loop_leaves_the_search_out_and_binds_it_on_demand(game):
    """A game nobody searches never compiles the search: its kernel's loop has a stand-in that refuses a
    search bot, and ``for_kinds`` gives the loop with the search compiled in (once per process)."""
    kernel = game.kernel
    assert kernel.for_kinds([0, 1]) is kernel
    searching = kernel.for_kinds([KIND_SEARCH, 1])
    assert searching is kernel.for_kinds([1, KIND_SEARCH]) and searching is not kernel
    assert searching.policy.py_func.__qualname__ == f"{game.name}.search.policy"
    assert kernel.policy.py_func.__globals__["search_decide"].py_func.__name__ == "search_unbound"
    state = game.new_state(game.make_config(), 1)
    while len(state.legal_actions()) < 2:
        state.apply(state.legal_actions()[0])
    bot = game.bots.make(SMALL)
    buf = np.zeros(kernel.max_actions, dtype=np.int32)
    n = kernel.legal(state.record, state.cfg, buf)
    rng = game.bot_states(1, state.config.players)
    with pytest.raises(ValueError, match="compiled without the search"):
        kernel.policy(bot.kind, bot.params, state.record, state.cfg, buf, n, rng, state.current_player)


def test_a_game_without_a_compiled_determinize_refuses_the_search_bot():
    """A game that declares no determinize hook (registered or not): the spec fails with what to add and where."""
    from tests.examples.pig.game import PigGame

    class NoDeterminize(PigGame):
        hooks = ("score_now",)

    with pytest.raises(BotSpecError, match=r"offer no compiled\s+determinize\(st, cf, seat, rng\) hook"):
        NoDeterminize().bots.make("ismcts:iterations=5")


def test_depth_needs_a_game_that_can_score_a_position_where_it_stands():
    """``depth`` cuts playouts short with the rules' ``score_now`` (or the bots' ``estimate_now``): a game that
    declares ``determinize`` but neither refuses the spec, saying what is missing; one with it takes it."""
    from tests.examples.pig.game import PigGame

    class NoScoreNow(PigGame):
        hooks = ("determinize",)

    game = NoScoreNow()
    with pytest.raises(BotSpecError, match=r"declares no compiled score_now\(st, cf\)"):
        game.bots.make("ismcts:depth=20")
    game.bots.make("ismcts")  # no depth: no score_now needed
    bot = simlab.get_game("merchant_of_venus").bots.make("ismcts:depth=20")
    assert bot.params[P_DEPTH] == 20 and simlab.get_game("merchant_of_venus").kernel.cuttable


def test_a_game_names_its_own_search_defaults_and_a_spec_overrides_them():
    """Massilia and Merchant of Venus cut their playouts by default (their ladders measured the cut search
    stronger and cheaper: docs/search.md); Roma and Pantheon play them to the end. A spec's own value wins,
    and a game default the spec grammar would refuse is refused when the registry is built."""
    depth = {name: simlab.get_game(name).bots.make("ismcts").params[P_DEPTH] for name in GAMES}
    assert depth == {"massilia": 67, "merchant_of_venus": 120, "pantheon": 0, "roma": 0}
    assert simlab.get_game("massilia").bots.make("ismcts:depth=0").params[P_DEPTH] == 0
    assert simlab.get_game("massilia").bots.search_defaults()["depth"] == 67
    for bad, message in (({"deep": 3}, "no parameter 'deep'"), ({"depth": -1}, "finite number >= 0")):
        with pytest.raises(BotSpecError, match=message):
            BotRegistry("example", [], search_defaults=bad)


def test_a_depth_cut_scores_the_position_where_the_playout_stops():
    """Pig, 60 banked against 62 with 5 on the turn: full random playouts say roll on (5 points barely matter
    with 40 to go), a one-decision cut-off says hold (holding leads 65 to 62 where the playout stops; rolling
    may bust first). So the default root rolls without ``depth`` and holds with ``depth=1``, in every seed."""
    from tests.examples.pig.game import GAME

    def choices(spec: str) -> list[int]:
        bot = GAME.bots.make(spec)
        out = []
        for seed in range(6):
            state = GAME.new_state(GAME.make_config(), seed)
            state.record[0]["banked"][:2] = (60, 62)
            state.record[0]["turn_total"] = 5
            state.record[0]["decisions"] = 1
            out.append(decide(GAME, state, bot, GAME.bot_states(seed, 2)))
        return out

    assert choices("ismcts:iterations=200,rollout=random,candidates=2") == [0] * 6  # A_ROLL
    assert choices("ismcts:iterations=200,rollout=random,candidates=2,depth=1") == [1] * 6  # A_HOLD


def test_score_now_ends_the_game_where_it_stands(game):
    """Each game's ``score_now``, and what its search scores a cut-short playout with (``cut_scoring``: its
    bots' ``estimate_now`` where they define one), on mid-game positions: the game is over, the win shares sum
    to 1, a better rank never holds a lower score (among seats alike eliminated or not), and only the scored
    copy changes."""
    rules = __import__(game.rules_module, fromlist=["score_now"])
    scorers = {rules.score_now, game.kernel.cut_scoring}
    for _, state in sampled(game, every=10)[:20]:
        for scorer in scorers:
            before = state.record.tobytes()
            ended = state.clone()
            scorer(ended.record, ended.cfg)
            assert state.record.tobytes() == before
            assert ended.is_terminal() and ended.current_player == -1
            w = ended.record[0]
            n = state.config.players
            assert w["share"][:n].sum() == pytest.approx(1.0)
            out = w["eliminated"][:n] if "eliminated" in w.dtype.names else np.zeros(n)  # ranked last first
            for p in range(n):
                for q in range(n):
                    if w["rank"][p] < w["rank"][q] and out[p] == out[q]:
                        assert w["score"][p] >= w["score"][q], (game.name, w["score"][:n], w["rank"][:n])


def test_a_cut_playout_is_scored_by_the_bots_estimate_where_they_define_one():
    """Merchant of Venus's bots define ``estimate_now`` (an unsold good is worth nothing at the game's end, but
    a good deal in mid-game), so its search scores cut-short playouts with it; the other games with their
    rules' ``score_now``."""
    for name in GAMES:
        game = simlab.get_game(name)
        rules = __import__(game.rules_module, fromlist=["score_now"])
        bots = __import__(game.policy.partition(":")[0], fromlist=["heuristic_policy"])
        expected = getattr(bots, "estimate_now", rules.score_now)
        assert game.kernel.cut_scoring is expected, name
    mov = __import__("simlab.games.merchant_of_venus.bots", fromlist=["estimate_now"])
    assert simlab.get_game("merchant_of_venus").kernel.cut_scoring is mov.estimate_now


@pytest.mark.parametrize("spec", ["ismcts:iterations=12,candidates=0,depth=5", "ismcts:iterations=12,depth=5"])
def test_a_cut_search_decides_legally_leaves_the_state_and_replays(spec):
    """Every game whose rules define score_now, both roots with a depth cut-off: a legal action, the state
    searched from unchanged, the same decision from the same bot stream."""
    cuttable = [g for g in (simlab.get_game(name) for name in GAMES) if g.kernel.cuttable]
    assert cuttable
    for game in cuttable:
        bot = game.bots.make(spec)
        for seed, state in sampled(game)[:12]:
            before = state.record.tobytes()
            legal = state.legal_actions()
            rng = game.bot_states(seed, state.config.players)
            first = decide(game, state, bot, rng.copy())
            assert first in legal and state.record.tobytes() == before
            assert decide(game, state, bot, rng.copy()) == first


def test_a_game_names_its_search_rollout_and_it_must_be_a_heuristic():
    """Pantheon's first heuristic (builder) is not its strongest (devout: docs/games/pantheon.md), so it names
    devout as the search bot's rollout; a name that is not one of the game's heuristics is refused."""
    assert simlab.get_game("pantheon").bots.default_rollout() == "devout"
    assert BotRegistry("x", [heuristic("a", "first", {}), heuristic("b", "second", {})]).default_rollout() == "a"
    assert BotRegistry("x", []).default_rollout() == "random"
    with pytest.raises(BotSpecError, match="not one of its heuristics"):
        BotRegistry("x", [heuristic("a", "first", {})], rollout="random")
    with pytest.raises(BotSpecError, match="not one of its heuristics"):
        BotRegistry("x", [heuristic("a", "first", {})], rollout="nobody")


def test_the_registered_games_rules_define_determinize(game):
    assert game.kernel.searchable


# ==============================================================================================
# determinism, copy integrity
# ==============================================================================================
@pytest.mark.parametrize(
    "spec", ["ismcts:iterations=4,candidates=0", "ismcts:iterations=6,candidates=3"], ids=["tree", "halving"]
)
def test_same_seed_same_game_with_search_in_every_seat(game, spec):
    config = game.make_config(players=game.min_players)  # the fewest seats: the shortest whole games
    n = config.players
    specs = [spec] * n
    a = game.play(config, 3, game.make_bots(specs, n))
    b = game.play(config, 3, game.make_bots(specs, n))
    assert a.history == b.history and a.record.tobytes() == b.record.tobytes()
    batch = game.play_batch(config, [3], game.make_bots(specs, n))
    assert batch[0].tobytes() == a.record[0].tobytes(), "play_batch differs from play"
    assert game.play(config, 4, game.make_bots(specs, n)).history != a.history


#: the decisions with a choice of each sampled game, by (game, seed): the games are played once per process
_PLAYED: dict[tuple[str, int], list] = {}


def _decisions_with_a_choice(game, seed: int) -> list:
    key = (game.name, seed)
    if key not in _PLAYED:
        config = game.make_config()
        # heuristic seats only: a whole game with a search seat costs seconds (Merchant of Venus: ~10 s), and
        # the tests search from these states themselves
        bots = game.make_bots(list(islice(cycle(game.bots.names()), config.players)), config.players)
        states = []

        def grab(state, action):
            if len(state.legal_actions()) > 1:
                states.append(state.clone())

        game.play(config, 700 + seed, bots, on_action=grab)
        _PLAYED[key] = states
    return _PLAYED[key]


def sampled(game, seeds=range(2), every=5):
    """Clones of every ``every``-th decision with a choice of games between the game's heuristics."""
    return [(seed, state.clone()) for seed in seeds for state in _decisions_with_a_choice(game, seed)[::every]]


def decide(game, state, bot, bot_rng) -> int:
    kernel = game.kernel.for_kinds([bot.kind])
    buf = np.zeros(kernel.max_actions, dtype=np.int32)
    n = kernel.legal(state.record, state.cfg, buf)
    seat = state.current_player
    return int(kernel.policy(bot.kind, bot.params, state.record, state.cfg, buf, n, bot_rng, seat))


@ROOTS
def test_the_search_never_changes_the_state_it_searches_from(game, spec):
    bot = game.bots.make(spec)
    kernel = game.kernel.for_kinds([bot.kind])
    checked = 0
    for seed, state in sampled(game)[:40]:
        before = state.record.tobytes()
        buf = np.zeros(kernel.max_actions, dtype=np.int32)
        n = kernel.legal(state.record, state.cfg, buf)
        legal = buf[:n].copy()
        rng = game.bot_states(seed, state.config.players)
        a = int(kernel.policy(bot.kind, bot.params, state.record, state.cfg, buf, n, rng, state.current_player))
        assert state.record.tobytes() == before, "the search changed the state it searched from"
        assert np.array_equal(buf[:n], legal), "the search overwrote the caller's legal actions"
        assert a in legal
        checked += 1
    assert checked >= 10


# ==============================================================================================
# hidden information
# ==============================================================================================
def test_compiled_determinize_resamples_only_what_the_seat_cannot_see(game):
    """The compiled determinize meets the game's checks (public fields kept, what a view must keep) and
    depends only on what the seat sees: the original and a re-randomized copy give the same view."""
    rules = __import__(game.rules_module, fromlist=["determinize"])
    checks = checks_for(game)
    rng = np.random.default_rng(5)
    resampled = 0
    states = [s for _, s in sampled(game, every=3)]
    for state in states:
        seat = state.current_player
        det = state.clone()
        word = np.array([12345 + resampled], dtype=np.uint64)
        rules.determinize(det.record, det.cfg, seat, word)
        a, b = state.record[0], det.record[0]
        hidden = set(checks.hidden_fields(a, seat))
        for field in a.dtype.names:
            if field not in hidden:
                assert np.array_equal(a[field], b[field]), f"determinize changed public field {field}"
        checks.determinized(state, det, seat)
        resampled += checks.resampled(state, det, seat)
        other = state.determinize(seat, rng)  # what the seat cannot see, re-randomized
        twin = other.clone()
        rules.determinize(twin.record, twin.cfg, seat, np.array([12345 + resampled], dtype=np.uint64))
        again = state.clone()
        rules.determinize(again.record, again.cfg, seat, np.array([12345 + resampled], dtype=np.uint64))
        for field in hidden - {"deck"}:
            assert np.array_equal(again.record[0][field], twin.record[0][field]), f"{field} leaks into the view"
        dn = int(a["deck_n"]) if "deck_n" in a.dtype.names else 0
        if "deck" in hidden:
            assert np.array_equal(again.record[0]["deck"][:dn], twin.record[0]["deck"][:dn]), "deck order leaks"
        det.apply(det.legal_actions()[0])  # a full state: it plays on
    if game.name != "pig":  # Pig hides nothing
        assert resampled > len(states) // 2


@ROOTS
def test_the_search_ignores_what_its_seat_cannot_see(game, spec):
    """The no-cheating check of the compiled bots, run on the search: the same decision on a copy whose
    hidden part (other hands, deck order, face-down cards) is re-drawn, given the same bot stream."""
    bot = game.bots.make(spec)
    rng = np.random.default_rng(11)
    checked = 0
    for seed, state in sampled(game, seeds=range(3), every=4)[:60]:
        seat = state.current_player
        bot_rng = game.bot_states(seed, state.config.players)
        mine = decide(game, state.clone(), bot, bot_rng.copy())
        det = state.determinize(seat, rng)
        theirs = decide(game, det, bot, bot_rng.copy())
        assert mine == theirs, (
            f"the search (seat {seat}) decides differently at '{state.decision_name()}' when unseen information "
            f"changes: {state.describe(mine)} vs {state.describe(theirs)}"
        )
        checked += 1
    assert checked >= 20


# ==============================================================================================
# forced wins
# ==============================================================================================
def test_pig_holds_to_win_and_rolls_when_holding_cannot():
    from tests.examples.pig.game import GAME

    tree = GAME.bots.make("ismcts:iterations=200,rollout=random,candidates=0")
    # the halving root looks one action ahead of its rollout bot: it must take the win in hand, but whether
    # to roll on at 50 against 99 is beyond one step over random playouts (the tree searches deeper)
    halving = GAME.bots.make("ismcts:iterations=200,rollout=random,candidates=2")
    for seed in range(5):
        state = GAME.new_state(GAME.make_config(), seed)
        state.record[0]["banked"][:2] = (95, 99)
        state.record[0]["turn_total"] = 6
        state.record[0]["decisions"] = 1
        assert decide(GAME, state, halving, GAME.bot_states(seed, 2)) == 1  # A_HOLD
    _pig_holds_to_win(GAME, tree)


def _pig_holds_to_win(GAME, bot):
    for seed in range(5):
        state = GAME.new_state(GAME.make_config(), seed)
        s = state.record[0]
        s["banked"][:2] = (95, 99)
        s["turn_total"] = 6  # holding wins now; rolling risks a bust and the opponent's win
        state.record[0]["decisions"] = 1
        assert decide(GAME, state, bot, GAME.bot_states(seed, 2)) == 1  # A_HOLD
        s["banked"][:2] = (50, 99)
        s["turn_total"] = 6  # holding hands the opponent (at 99) a near-certain win: roll on
        assert decide(GAME, state, bot, GAME.bot_states(seed, 2)) == 0  # A_ROLL


#: the opponent's discs all hold a card (buildings that take no VP), so ending the turn costs it nothing
FULL_BOARD = {1: "Turris", 2: "Templum", 3: "Basilica", 4: "Machina", 5: "Mercatus", 6: "Aesculapinum"}


def test_roma_takes_the_last_vp_with_mercator():
    """Roma: a 6 among the dice, the Mercator on disc 6, the opponent at 2 VP. Only activating the Mercator
    with the 6 and buying both VP wins; any other play loses, since the seat (1 VP, no cards in hand, five
    empty discs) pays the empty-disc penalty at the start of its next turn."""
    from simlab.games.roma.game import GAME
    from simlab.games.roma.position import position

    def won(spec: str, seed: int) -> bool:
        state = position(
            0,
            boards={0: {6: "Mercator"}, 1: FULL_BOARD},
            hands={0: []},
            dice=(6, 2, 1),
            money=(10, 0),
            vp=(1, 2),
            seed=seed,
        )
        bots = GAME.make_bots([spec, "builder"], 2)
        bot_rng = GAME.bot_states(seed, 2)
        while not state.is_terminal() and state.current_player == 0:
            state.apply(decide(GAME, state, bots[0], bot_rng))
        s = state.record[0]
        return state.is_terminal() and s["share"][0] == 1.0 and list(s["vp"]) == [3, 0]

    assert all(won("ismcts", seed) for seed in range(4))  # the default: the rollout-improvement root
    assert all(won("ismcts:candidates=0,iterations=200", seed) for seed in range(4))  # the tree
    assert not all(won("random", seed) for seed in range(12)), "the position must not be won by any play"


# ==============================================================================================
# runs
# ==============================================================================================
SCENARIO = """\
description = "a search seat, two ways"
game = "roma"
players = 2
games = 6
seed = 9
chunk_size = 2
lineup = ["ismcts:iterations=16", "builder"]

[variants.original]
preset = "original"
"""


def test_a_run_with_a_search_seat_is_bit_identical_on_one_and_two_workers(tmp_path):
    from simlab.run.reader import load_results
    from simlab.run.runner import run_scenario

    path = tmp_path / "search.toml"
    path.write_text(SCENARIO)
    frames = []
    for jobs in (1, 2):
        folder = run_scenario(path, jobs=jobs, out=tmp_path / f"j{jobs}", progress=False)
        frames.append(load_results(folder).sort("variant", "game", "seat").collect())
    assert frames[0].height == 12
    assert frames[0].equals(frames[1])


def test_simlab_bots_lists_the_search_bot_and_points_to_its_figures():
    from click.testing import CliRunner

    from simlab.cli import cli

    result = CliRunner().invoke(cli, ["bots", GAMES[0]])
    assert result.exit_code == 0
    assert "ismcts" in result.output and "docs/search.md" in result.output
    assert "iterations=64" in result.output and "candidates=4" in result.output and "rollout" in result.output
