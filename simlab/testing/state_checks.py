"""Contract checks on sampled states: copy integrity, illegal actions refused without side effects, a
determinized view that changes only what its seat cannot see, and compiled bots that do not peek."""

from __future__ import annotations

from itertools import cycle, islice
from typing import TYPE_CHECKING

import numpy as np

from simlab.core.errors import IllegalActionError
from simlab.testing.failure import expect
from simlab.testing.sampling import configs

if TYPE_CHECKING:
    from simlab.testing.contract import Contract


def every_legal_action_applies_to_a_clone(c: Contract) -> None:
    """Every legal action applied to a clone leaves the original byte-identical (and a clone does not follow
    its parent)."""
    for state in c.states:
        before = state.record.tobytes()
        legal = state.legal_actions()
        expect(state.record.tobytes() == before, f"asking for the legal actions changed the state ({c.at(state)})")
        history = list(state.history)
        for a in legal:
            child = state.clone()
            child.apply(a)
            c.invariants(child, f"{c.at(state)}, after {a} ({state.describe(a)})")
            expect(child.history == [*history, a], f"a clone's history is not its parent's plus {a}")
            expect(state.record.tobytes() == before, f"applying {a} to a clone changed the original ({c.at(state)})")
            expect(state.history == history, f"applying {a} to a clone changed the original's history")
        parent = state.clone()
        child = parent.clone()
        parent.apply(legal[0])
        expect(child.record.tobytes() == before, f"a clone follows its parent ({c.at(state)})")


def an_illegal_action_raises_and_changes_nothing(c: Contract) -> None:
    rng = np.random.default_rng(7)
    m = c.game.kernel.max_actions
    for state in c.states[::3]:
        legal = set(state.legal_actions())
        before = state.record.tobytes()
        history = list(state.history)
        for a in [a for a in rng.permutation(m)[:20].tolist() if a not in legal] + [-1, m, m + 7]:
            try:
                state.apply(a)
            except IllegalActionError as exc:
                expect(str(c.game.name) in str(exc) and str(a) in str(exc), f"the error for {a} names it not: {exc}")
            else:
                expect(False, f"illegal action {a} was applied at {c.at(state)}")
            expect(state.record.tobytes() == before, f"refusing illegal action {a} changed the state ({c.at(state)})")
            expect(state.history == history, f"refusing illegal action {a} changed the history")


def determinize_resamples_only_what_the_seat_cannot_see(c: Contract) -> None:
    """``State.determinize`` changes only the fields checks.hidden_fields names, keeps what checks.determinized
    asks, plays on, and resamples something in most states."""
    checks = c.checks
    rng = np.random.default_rng(3)
    resampled = 0
    for state in c.states:
        before = state.record.tobytes()
        player = state.current_player
        changed = False
        for _ in range(4):
            try:
                det = state.determinize(player, rng)
            except NotImplementedError:
                expect(False, "the game's State class defines no determinize(player, rng) (docs/adding_a_game.md)")
            expect(state.record.tobytes() == before, f"determinize changed the original ({c.at(state)})")
            expect(det.current_player == player, f"a determinized view has another current player ({c.at(state)})")
            a, b = state.record[0], det.record[0]
            hidden = set(checks.hidden_fields(a, player))
            for field in a.dtype.names:
                if field not in hidden:
                    expect(np.array_equal(a[field], b[field]), f"determinize changed public field {field!r}")
            checks.determinized(state, det, player)
            changed |= bool(checks.resampled(state, det, player))
        det.apply(det.legal_actions()[0])  # the copy is a full state: it plays on
        resampled += changed
    expect(resampled > len(c.states) // 2, f"determinize resampled nothing in {len(c.states) - resampled} states")


def compiled_bots_ignore_what_their_seat_cannot_see(c: Contract) -> None:
    """A compiled bot decides the same on a determinized copy (other hands, deck order re-drawn) given the same
    generator state."""
    game = c.game
    kernel = game.kernel
    compiled = [name for name in game.bots.names() if getattr(game.bots.make(name), "kind", None) is not None]
    buf = np.zeros(kernel.max_actions, dtype=np.int32)
    rng = np.random.default_rng(11)
    want = c.budget.peek_decisions
    checked = 0
    for i, config in enumerate(islice(cycle(configs(game)), 40)):
        if i >= 4 and checked > want:
            break
        n = config.players
        bots = game.make_bots(list(islice(cycle(compiled[i % len(compiled) :] + compiled), n)), n)
        for seed in range(3):
            samples: list = []

            def grab(state, action, samples=samples):
                if len(state.legal_actions()) > 1:  # a forced move tells nothing about peeking
                    samples.append(state.clone())

            game.play(config, 500 + seed, bots, on_action=grab)
            bot_rng = game.bot_states(seed, n)
            for state in samples[::2]:
                seat = state.current_player
                bot = bots[seat]
                for _ in range(2):
                    actions = []
                    for st in (state.clone(), state.determinize(seat, rng)):
                        nl = kernel.legal(st.record, st.cfg, buf)
                        before = st.record.tobytes()
                        args = (bot.kind, bot.params, st.record, st.cfg, buf, nl, bot_rng.copy(), seat)
                        actions.append(int(kernel.policy(*args)))
                        expect(st.record.tobytes() == before, f"{bot.name} changed the state it looked at")
                    expect(
                        actions[0] == actions[1],
                        f"{bot.name} (seat {seat}) decides differently at '{state.decision_name()}' when unseen "
                        f"information changes: {state.describe(actions[0])} vs {state.describe(actions[1])}",
                    )
                    checked += 1
    expect(checked > want, f"only {checked} bot decisions compared (want more than {want})")
