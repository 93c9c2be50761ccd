"""The game contract as one object: a game, a budget, the states its checks share, and the checks by name."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from simlab.core.checks import GameChecks, checks_for
from simlab.testing import declaration_checks as D
from simlab.testing import play_checks as P
from simlab.testing import state_checks as S
from simlab.testing.failure import ContractFailure
from simlab.testing.sampling import Budget, sampled_states

#: every check, in the order check_game runs them: the cheap declarations first (a misspelt hook is named
#: before anything compiles), then the records, then whole games, then sampled states
CHECKS: dict[str, Callable[[Contract], None]] = {
    "hooks": D.hooks_are_declared,
    "record": D.state_record_starts_with_the_core_fields,
    "knobs": D.every_knob_reaches_the_config_record,
    "knob_ranges": D.every_shown_range_is_enforced,
    "random_games": P.random_games_keep_the_invariants,
    "batch": P.batch_final_states,
    "outcome": P.outcome_before_the_end_is_an_error,
    "new_state": P.new_state_is_a_function_of_config_and_seed,
    "determinism": P.same_seed_and_bots_give_the_same_game,
    "python_bots": P.python_bots_replay_identically,
    "facts": D.fact_columns_cover_every_row,
    "copies": S.every_legal_action_applies_to_a_clone,
    "illegal": S.an_illegal_action_raises_and_changes_nothing,
    "no_peeking_view": S.determinize_resamples_only_what_the_seat_cannot_see,
    "no_peeking_bots": S.compiled_bots_ignore_what_their_seat_cannot_see,
}


class Contract:
    """The contract checks of one game object, sharing its sampled states (drawn on first use)."""

    def __init__(self, game: Any, budget: Budget | None = None):
        self.game = game
        self.budget = budget or Budget()

    @functools.cached_property
    def checks(self) -> GameChecks:
        """The game's own checks (its ``checks`` module, simlab.core.checks), defaults where it has none."""
        return checks_for(self.game)

    @functools.cached_property
    def states(self) -> list[Any]:
        return sampled_states(self.game, self.budget)

    def at(self, state: Any) -> str:
        """Where a sampled state is, for a failure message."""
        return f"seed {state.seed}, decision {len(state.history)} ('{state.decision_name()}')"

    def invariants(self, state: Any, where: str) -> None:
        self.invariants_of(state.record[0], state.config, where, self.checks.invariants)

    def invariants_of(self, record: Any, config: Any, where: str, invariants: Callable[[Any, Any], None]) -> None:
        """The game's invariants on one record; an AssertionError of theirs says where it happened."""
        try:
            invariants(record, config)
        except AssertionError as exc:
            raise ContractFailure(f"invariant broken at {where}: {exc}") from exc

    def run(self, name: str) -> None:
        """Run one check; a failure names the game and the check."""
        try:
            CHECKS[name](self)
        except ContractFailure as exc:
            raise ContractFailure(f"{self.game.name}: check {name!r} failed: {exc}") from exc
        except Exception as exc:  # a HookError, a crash in the game's code: the same shape of message
            raise ContractFailure(f"{self.game.name}: check {name!r} failed: {type(exc).__name__}: {exc}") from exc
