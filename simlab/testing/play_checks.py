"""Contract checks that play whole games: random games with the invariants after every action, compiled batches
of mixed lineups, outcomes, and determinism (same seed and bots: the same game; ``play_batch`` equals ``play``)."""

from __future__ import annotations

import math
from itertools import cycle, islice
from typing import TYPE_CHECKING

import numpy as np

from simlab.core.errors import IllegalActionError
from simlab.testing.failure import expect
from simlab.testing.sampling import configs

if TYPE_CHECKING:
    from simlab.testing.contract import Contract


def random_games_keep_the_invariants(c: Contract) -> None:
    """Random legal actions through the Python API; the game's invariants after every one of them."""
    game, budget = c.game, c.budget
    cfgs = configs(game)
    actions = 0
    for i in range(budget.random_games):
        if i >= budget.min_random_games and actions >= budget.action_budget:
            break
        config = cfgs[i % len(cfgs)]
        state = game.new_state(config, i)
        rng = np.random.default_rng(i)
        c.invariants(state, f"the start of seed {i}")
        while not state.is_terminal():
            legal = state.legal_actions()
            where = f"seed {i}, decision {len(state.history)} ('{state.decision_name()}')"
            expect(legal, f"no legal action at {where}")
            expect(len(set(legal)) == len(legal), f"a legal action is listed twice at {where}: {legal}")
            expect(
                all(0 <= a < game.kernel.max_actions for a in legal),
                f"legal actions outside 0..MAX_ACTIONS-1 ({game.kernel.max_actions}) at {where}: {legal}",
            )
            expect(0 <= state.current_player < config.players, f"current_player {state.current_player} at {where}")
            state.apply(legal[int(rng.integers(len(legal)))])
            actions += 1
            c.invariants(state, where)
        expect(state.current_player == -1, f"seed {i}: a finished game's current_player is {state.current_player}")
        shares = state.outcome().win_shares
        expect(math.isclose(sum(shares), 1.0), f"seed {i}: win shares sum to {sum(shares)}, not 1")


def batch_final_states(c: Contract) -> None:
    """Compiled games with mixed lineups at every player count: final-state invariants, scores, ranks, shares."""
    game = c.game
    names = game.bots.names()
    presets = game.presets()
    counts = range(game.min_players, game.max_players + 1)
    invariants = c.checks.invariants
    for i, n in enumerate(counts):
        config = game.make_config(preset=presets[i % len(presets)], players=n)
        lineup = list(islice(cycle(names[i % len(names) :] + names), n))
        bots = game.make_bots(lineup, n)
        seeds = list(range(10_000 * (i + 1), 10_000 * (i + 1) + max(1, c.budget.batch_games // len(counts))))
        records = game.play_batch(config, seeds, bots)
        for seed, rec, out in zip(seeds, records, game.outcome(records, config), strict=True):
            where = f"batch game seed {seed} ({n} players, {', '.join(lineup)})"
            c.invariants_of(rec, config, where, invariants)
            expect(game.kernel.is_terminal(rec.reshape(1)), f"{where}: the final record is not terminal")
            expect(math.isclose(sum(out.win_shares), 1.0), f"{where}: win shares sum to {sum(out.win_shares)}")
            best = max(out.scores)
            for seat in range(n):
                rank = out.ranks[seat]
                expect(
                    rank == 1 + sum(1 for q in range(n) if out.ranks[q] < rank),
                    f"{where}: ranks {out.ranks} are not standard competition ranking",
                )
                expect(
                    all(out.ranks[q] < rank for q in range(n) if out.scores[q] > out.scores[seat]),
                    f"{where}: ranks {out.ranks} disagree with scores {out.scores}",
                )
                if rank == 1:
                    expect(out.scores[seat] == best, f"{where}: seat {seat} ranks first without the best score")
                    expect(
                        math.isclose(out.win_shares[seat], 1 / out.ranks.count(1)),
                        f"{where}: the winners' shares {out.win_shares} do not split the win",
                    )
                else:
                    expect(out.win_shares[seat] == 0.0, f"{where}: seat {seat} loses but has a win share")


def outcome_before_the_end_is_an_error(c: Contract) -> None:
    state = c.game.new_state(c.game.make_config(), 0)
    try:
        state.outcome()
    except IllegalActionError:
        return
    expect(False, "State.outcome() of a game not over answered instead of raising IllegalActionError")


def new_state_is_a_function_of_config_and_seed(c: Contract) -> None:
    config = c.game.make_config()
    a, b, other = (c.game.new_state(config, s) for s in (5, 5, 6))
    expect(a.record.tobytes() == b.record.tobytes(), "two new states of seed 5 differ: init reads another source")
    expect(a.record.tobytes() != other.record.tobytes(), "seeds 5 and 6 give the same start: init ignores rng")


def same_seed_and_bots_give_the_same_game(c: Contract) -> None:
    game = c.game
    for config in configs(game)[:3]:
        n = config.players
        names = list(islice(cycle(game.bots.names()), n))
        bots = game.make_bots(names, n)
        for seed in (3, 4):
            a = game.play(config, seed, bots)
            b = game.play(config, seed, game.make_bots(names, n))
            where = f"seed {seed}, {n} players, {', '.join(names)}"
            expect(a.history and a.history == b.history, f"{where}: two plays differ in their actions")
            expect(a.record.tobytes() == b.record.tobytes(), f"{where}: two plays end in different records")
            batch = game.play_batch(config, [seed, seed + 100], bots)
            expect(batch[0].tobytes() == a.record[0].tobytes(), f"{where}: play_batch ends elsewhere than play")
        expect(
            game.play(config, 3, bots).history != game.play(config, 4, bots).history,
            f"seeds 3 and 4 play the same game ({n} players): the bots or the rules ignore the seed",
        )


class _UniformBot:
    """A plain-Python bot: uniform among the legal actions, from its own generator."""

    name = "uniform"

    def act(self, state: object, legal: list[int], rng: np.random.Generator) -> int:
        return legal[int(rng.integers(len(legal)))]


def python_bots_replay_identically(c: Contract) -> None:
    """A plain-Python bot goes through the same driver; same seed -> same game."""
    game = c.game
    config = game.make_config()
    n = config.players
    a = game.play(config, 9, [_UniformBot() for _ in range(n)])
    b = game.play(config, 9, [_UniformBot() for _ in range(n)])
    expect(a.history == b.history and a.record.tobytes() == b.record.tobytes(), "a Python bot's replay differs")
    batch = game.play_batch(config, [9], [_UniformBot() for _ in range(n)])
    expect(batch[0].tobytes() == a.record[0].tobytes(), "play_batch with Python bots ends elsewhere than play")
