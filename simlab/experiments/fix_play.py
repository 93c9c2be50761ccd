"""How ``simlab fix`` plays a setting: a ``Change`` of the published config on given game indices and seeds, and the
model's coordinates of a change.

``play_measures`` is the game contract's play of one arm (``engine.play_config`` with more columns): per game the
seats' win shares, the length (turns), the seats' scores and the guarded facts (``analysis.fix_bands.Measures``),
the lineup rotated by the game index as the runner rotates it. ``features`` turns changes into the response
model's inputs (``analysis.fix_model.design``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from simlab.analysis.fix_bands import Measures
from simlab.experiments.engine import PlayArm
from simlab.run.fix_question import Change, FixQuestion
from simlab.run.scenario import rotated_lineup

#: a replaceable play (tests): (lineup, change, first game index, seeds) -> games × Measures.width
PlayLineup = Callable[[tuple[str, ...], Change, int, np.ndarray], np.ndarray]


def play_measures(
    game: Any,
    config: Any,
    facts: tuple[str, ...],
    lineup: tuple[str, ...],
    change: Change,
    start: int,
    seeds: np.ndarray,
) -> np.ndarray:
    """Games ``start..`` of ``change`` applied to ``config``: the columns of ``Measures(players, facts)``."""
    cfg = change.apply(config)
    n = cfg.players
    layout = Measures(n, facts)
    rotation = np.arange(start, start + len(seeds)) % n
    out = np.empty((len(seeds), layout.width))
    for r in np.unique(rotation).tolist():
        sel = np.flatnonzero(rotation == r)
        bots = game.make_bots(rotated_lineup(lineup, r), n)
        records = game.play_batch(cfg, seeds[sel].tolist(), bots)
        cols = game.result_columns(records, cfg)
        out[sel, :n] = np.asarray(cols["win_share"]).reshape(-1, n)
        out[sel, n] = np.asarray(cols["turns"]).reshape(-1, n)[:, 0]
        out[sel, n + 1 : 2 * n + 1] = np.asarray(cols["score"]).reshape(-1, n)
        if facts:
            fc = game.fact_columns(records, cfg)
            for j, fact in enumerate(facts):
                out[sel, 2 * n + 1 + j] = np.asarray(fc[fact], float).reshape(-1, n).mean(axis=1)
    return out


def arm_player(question: FixQuestion, lineup: Sequence[str], play: PlayLineup | None) -> tuple[PlayArm, PlayArm | None]:
    """The engine's (play, worker) for one lineup: the game contract (picklable, so also in worker processes),
    or a test's ``play`` in this process."""
    if play is not None:
        return functools.partial(play, tuple(lineup)), None
    fn = functools.partial(play_measures, question.game, question.config, guarded_facts(question), tuple(lineup))
    return fn, fn


def guarded_facts(question: FixQuestion) -> tuple[str, ...]:
    return tuple(g.name.removeprefix("fact.") for g in question.guards if g.name.startswith("fact."))


def lineup_bots(lineup: Sequence[str], start: int, games: int) -> np.ndarray:
    """The bot in each seat of games ``start..`` (games × seats), rotated as the runner rotates the lineup."""
    n = len(lineup)
    return np.array([rotated_lineup(lineup, i % n) for i in range(start, start + games)], dtype=str)


def features(question: FixQuestion, changes: Sequence[Change]) -> tuple[np.ndarray, np.ndarray]:
    """The model's inputs of ``changes``: (offsets (M, N, Q), common (M, J)). A per-seat knob gives each seat its
    offset from the published entry (Q: one per such knob); a number knob its offset from the published value;
    a list of alternatives (or a knob that is not a number) one indicator per alternative."""
    n = question.players
    per_seat = [k for k in question.knobs if k.kind == "seats"]
    offsets = np.zeros((len(changes), n, len(per_seat)))
    columns: list[np.ndarray] = []
    start = 0
    bounds = []
    for k in question.knobs:
        bounds.append((k, start, start + len(k.axes)))
        start += len(k.axes)
    moves = np.array([c.moves for c in changes], dtype=int).reshape(len(changes), -1)
    q = 0
    for k, a, b in bounds:
        idx = np.asarray(k.home) + moves[:, a:b]
        if k.kind == "seats":
            for s in range(n):
                axis = np.asarray(k.axes[s], float)
                offsets[:, s, q] = axis[idx[:, s]] - float(k.published[s])
            q += 1
        elif _numeric(k.axes[0]):
            columns.append(np.asarray(k.axes[0], float)[idx[:, 0]] - float(k.published))
        else:
            for alt in range(len(k.axes[0])):
                if alt != k.home[0]:
                    columns.append((idx[:, 0] == alt).astype(float))
    common = np.stack(columns, axis=1) if columns else np.zeros((len(changes), 0))
    return offsets, common


def explore_design(question: FixQuestion, most_alternatives: int = 8) -> list[Change]:
    """The published rules and, for every axis of every knob, a move halfway to each end of its grid (the model's
    slopes need settings apart); for a list of alternatives, each (at most ``most_alternatives``)."""
    out = [question.no_change()]
    for k in question.knobs:
        if k.kind in ("tables",) or not _numeric(k.axes[0]):
            alts = [i for i in range(len(k.axes[0])) if i != k.home[0]][:most_alternatives]
            out += [question.moved({k.name: (i - k.home[0],)}) for i in alts]
            continue
        for a, (axis, home) in enumerate(zip(k.axes, k.home, strict=True)):
            for room, sign in ((home, -1), (len(axis) - 1 - home, 1)):
                if room:
                    move = tuple(sign * -(-room // 2) if j == a else 0 for j in range(len(k.axes)))
                    out.append(question.moved({k.name: move}))
    return list(dict.fromkeys(out))


def _numeric(axis: Sequence[Any]) -> bool:
    return all(isinstance(v, int | float) and not isinstance(v, bool) for v in axis)
