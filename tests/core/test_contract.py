"""The game contract, checked for every registered game (DESIGN.md "The game contract", Style item 11).

Random games with invariants after every action, copy integrity (every legal action applied to a
clone leaves the original byte-identical), illegal actions refused without side effects, determinism
(same seed and bots: same history and record; ``play_batch`` equals ``play``), outcomes, hidden
information (``determinize``) and bots that do not peek at what their seat cannot see.

Game-specific checks come from the game itself: its ``checks`` module (``simlab/games/<game>/checks.py``,
found by ``simlab.core.checks.checks_for``) supplies the invariants and what a seat may not see; a game
without one still gets every generic check.
"""

from __future__ import annotations

from itertools import cycle, islice

import numpy as np
import pytest

from simlab import available_games, get_game
from simlab.core.checks import checks_for
from simlab.core.errors import IllegalActionError

GAMES = available_games()


def check(game, state) -> None:
    checks_for(game).invariants(state.record[0], state.config)


# ==============================================================================================
# helpers
# ==============================================================================================
def configs(game):
    """Every player count, presets in turn."""
    presets = game.presets()
    out = []
    for i, players in enumerate(range(game.min_players, game.max_players + 1)):
        for j in range(len(presets)):
            out.append(game.make_config(preset=presets[(i + j) % len(presets)], players=players))
    return out


def random_playout(game, config, seed, on_state=None):
    """Uniformly random legal actions through the Python API; ``on_state(state)`` before each action."""
    state = game.new_state(config, seed)
    rng = np.random.default_rng(seed)
    while not state.is_terminal():
        if on_state is not None:
            on_state(state)
        legal = state.legal_actions()
        state.apply(legal[int(rng.integers(len(legal)))])
    return state


def sampled_states(game, n_games, every, seed0=1000, min_states=800, max_states=1000):
    """Clones of every ``every``-th decision of a few random games (all configs in turn); a game with short
    games plays more of them, until it has ``min_states`` states; one with long games (Pantheon: 2,300) keeps
    ``max_states`` of them, evenly spaced, so every stage of every game is still there."""
    out = []
    for i, config in enumerate(cycle(configs(game))):
        if i >= n_games and len(out) >= min_states:
            break
        k = 0

        def grab(state):
            nonlocal k
            if k % every == 0:
                out.append(state.clone())
            k += 1

        random_playout(game, config, seed0 + i, grab)
    if len(out) > max_states:
        out = [out[round(j * (len(out) - 1) / (max_states - 1))] for j in range(max_states)]
    return out


@pytest.fixture(scope="module", params=[*GAMES, "pig"])
def game(request):
    """Every registered game, and the example game Pig (tests/examples/pig: a new game on the kit alone)."""
    if request.param == "pig":
        from tests.examples.pig.game import GAME

        return GAME
    return get_game(request.param)


@pytest.fixture(scope="module")
def states(game):
    return sampled_states(game, n_games=12, every=4)


# ==============================================================================================
# random games with invariants after every action
# ==============================================================================================
#: random games checked after every action: up to this many, and at least MIN_GAMES, until ACTION_BUDGET
#: actions are checked (a game of long games — Pantheon's random games run ~1,000 actions — stops earlier;
#: each game's own tests check thousands more, compiled)
N_GAMES, MIN_GAMES, ACTION_BUDGET = 300, 12, 12_000


def test_random_games_keep_the_invariants(game):
    cfgs = configs(game)
    actions = 0
    for i in range(N_GAMES):
        if i >= MIN_GAMES and actions >= ACTION_BUDGET:
            break
        config = cfgs[i % len(cfgs)]
        state = game.new_state(config, i)
        rng = np.random.default_rng(i)
        check(game, state)
        while not state.is_terminal():
            legal = state.legal_actions()
            assert legal, f"no legal action at {state.decision_name()} (seed {i})"
            assert len(set(legal)) == len(legal)
            assert all(0 <= a < game.kernel.max_actions for a in legal)
            assert 0 <= state.current_player < config.players
            action = legal[int(rng.integers(len(legal)))]
            state.apply(action)
            actions += 1
            check(game, state)
        assert state.current_player == -1
        out = state.outcome()
        assert sum(out.win_shares) == pytest.approx(1.0)


def test_play_batch_final_states(game):
    """3,000 compiled games with mixed lineups: final-state invariants, scores, ranks and shares."""
    names = game.bots.names()
    presets = game.presets()
    counts = range(game.min_players, game.max_players + 1)
    total = 0
    for i, n in enumerate(counts):
        config = game.make_config(preset=presets[i % len(presets)], players=n)
        lineup = list(islice(cycle(names[i % len(names) :] + names), n))
        bots = game.make_bots(lineup, n)
        seeds = list(range(10_000 * (i + 1), 10_000 * (i + 1) + 3000 // len(counts)))
        records = game.play_batch(config, seeds, bots)
        invariants = checks_for(game).invariants
        outcomes = game.outcome(records, config)
        for rec, out in zip(records, outcomes, strict=True):
            invariants(rec, config)
            assert game.kernel.is_terminal(rec.reshape(1))
            assert sum(out.win_shares) == pytest.approx(1.0)
            best = max(out.scores)
            for seat in range(n):
                # standard competition ranking, consistent with the scores
                assert out.ranks[seat] == 1 + sum(1 for q in range(n) if out.ranks[q] < out.ranks[seat])
                assert all(out.ranks[q] < out.ranks[seat] for q in range(n) if out.scores[q] > out.scores[seat])
                if out.ranks[seat] == 1:
                    assert out.scores[seat] == best
                    assert out.win_shares[seat] == pytest.approx(1 / out.ranks.count(1))
                else:
                    assert out.win_shares[seat] == 0.0
        total += len(seeds)
    assert total >= 2990


def test_outcome_before_the_end_is_an_error(game):
    state = game.new_state(game.make_config(), 0)
    with pytest.raises(IllegalActionError):
        state.outcome()


# ==============================================================================================
# copy integrity, legal and illegal actions
# ==============================================================================================
def test_every_legal_action_applies_to_a_clone_and_leaves_the_original_unchanged(game, states):
    applied = 0
    for state in states:
        before = state.record.tobytes()
        legal = state.legal_actions()
        assert state.record.tobytes() == before, "asking for the legal actions changed the state"
        history = list(state.history)
        for a in legal:
            child = state.clone()
            child.apply(a)
            check(game, child)
            assert child.history == [*history, a]
            applied += 1
            assert state.record.tobytes() == before, f"applying {a} to a clone changed the original"
            assert state.history == history
        # and the other way round: a clone does not follow its parent
        parent = state.clone()
        child = parent.clone()
        parent.apply(legal[0])
        assert child.record.tobytes() == before
    assert applied > 1000


def test_an_illegal_action_raises_and_changes_nothing(game, states):
    rng = np.random.default_rng(7)
    m = game.kernel.max_actions
    for state in states[::3]:
        legal = set(state.legal_actions())
        before = state.record.tobytes()
        history = list(state.history)
        candidates = [a for a in rng.permutation(m)[:20].tolist() if a not in legal] + [-1, m, m + 7]
        for a in candidates:
            with pytest.raises(IllegalActionError, match=rf"{game.name}.*seed.*{a}"):
                state.apply(a)
            assert state.record.tobytes() == before
            assert state.history == history


# ==============================================================================================
# determinism
# ==============================================================================================
def test_new_state_is_a_function_of_config_and_seed(game):
    config = game.make_config()
    a, b, c = game.new_state(config, 5), game.new_state(config, 5), game.new_state(config, 6)
    assert a.record.tobytes() == b.record.tobytes()
    assert a.record.tobytes() != c.record.tobytes()


def test_same_seed_and_bots_give_the_same_game(game):
    for config in configs(game)[:3]:
        n = config.players
        names = list(islice(cycle(game.bots.names()), n))
        bots = game.make_bots(names, n)
        for seed in (3, 4):
            a = game.play(config, seed, bots)
            b = game.play(config, seed, game.make_bots(names, n))
            assert a.history == b.history and len(a.history) > 0
            assert a.record.tobytes() == b.record.tobytes()
            batch = game.play_batch(config, [seed, seed + 100], bots)
            assert batch[0].tobytes() == a.record[0].tobytes(), "play_batch differs from play"
        assert game.play(config, 3, bots).history != game.play(config, 4, bots).history


def test_python_bots_replay_identically(game):
    """A plain-Python bot goes through the same driver; same seed -> same game."""

    class FirstLegal:
        name = "first"

        def act(self, state, legal, rng):
            return legal[int(rng.integers(len(legal)))]

    config = game.make_config()
    n = config.players
    a = game.play(config, 9, [FirstLegal() for _ in range(n)])
    b = game.play(config, 9, [FirstLegal() for _ in range(n)])
    assert a.history == b.history and a.record.tobytes() == b.record.tobytes()
    batch = game.play_batch(config, [9], [FirstLegal() for _ in range(n)])
    assert batch[0].tobytes() == a.record[0].tobytes()


# ==============================================================================================
# hidden information
# ==============================================================================================
def test_determinize_resamples_only_what_the_player_cannot_see(game, states):
    checks = checks_for(game)
    rng = np.random.default_rng(3)
    resampled = 0
    for state in states:
        before = state.record.tobytes()
        player = state.current_player
        changed = False
        for _ in range(4):
            det = state.determinize(player, rng)
            assert state.record.tobytes() == before, "determinize changed the original"
            assert det.current_player == player
            a, b = state.record[0], det.record[0]
            hidden = set(checks.hidden_fields(a, player))
            for field in a.dtype.names:
                if field not in hidden:
                    assert np.array_equal(a[field], b[field]), f"determinize changed public field {field}"
            checks.determinized(state, det, player)
            changed |= checks.resampled(state, det, player)
        # the copy is a full state: it plays on
        det.apply(det.legal_actions()[0])
        resampled += changed
    assert resampled > len(states) // 2


def test_compiled_bots_ignore_what_their_seat_cannot_see(game):
    """A compiled bot's decision is the same on a determinized copy (other hands, deck order re-drawn)
    given the same bot generator state."""
    kernel = game.kernel
    compiled = [name for name in game.bots.names() if getattr(game.bots.make(name), "kind", None) is not None]
    buf = np.zeros(kernel.max_actions, dtype=np.int32)
    rng = np.random.default_rng(11)
    checked = 0
    # cycled: a 2-player game has fewer configs; a game of short games plays more of them
    for i, config in enumerate(islice(cycle(configs(game)), 40)):
        if i >= 4 and checked > 500:
            break
        n = config.players
        lineup = list(islice(cycle(compiled[i % len(compiled) :] + compiled), n))
        bots = game.make_bots(lineup, n)
        for seed in range(3):
            samples = []

            def grab(state, action, samples=samples):
                if len(state.legal_actions()) > 1:
                    samples.append(state.clone())

            game.play(config, 500 + seed, bots, on_action=grab)
            bot_rng = game.bot_states(seed, n)
            for state in samples[::2]:
                seat = state.current_player
                bot = bots[seat]
                for _ in range(2):
                    det = state.determinize(seat, rng)
                    actions = []
                    for st in (state.clone(), det):
                        nl = kernel.legal(st.record, st.cfg, buf)
                        before = st.record.tobytes()
                        actions.append(
                            int(kernel.policy(bot.kind, bot.params, st.record, st.cfg, buf, nl, bot_rng.copy(), seat))
                        )
                        assert st.record.tobytes() == before, f"{bot.name} changed the state it looked at"
                    assert actions[0] == actions[1], (
                        f"{bot.name} (seat {seat}) decides differently at '{state.decision_name()}' "
                        f"when unseen information changes: {state.describe(actions[0])} vs {state.describe(actions[1])}"
                    )
                    checked += 1
    assert checked > 500
