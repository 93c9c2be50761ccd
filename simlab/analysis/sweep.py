"""Which variants of a result folder form a sweep of one knob: the one check the report and ``simlab
compensation`` share, so both fit the same variants and refuse with the same words.

A compensation fit credits every difference between variants to the knob. It is honest only on variants that
differ from the base in that knob alone: a preset that also changes the hand limit would credit the hand
limit to the money.
"""

from __future__ import annotations

from typing import Any

from simlab.analysis.frames import AnalysisError
from simlab.core.facts import MONEY_KNOB

#: names a base variant conventionally has, in order of preference
BASE_NAMES = ("rulebook", "control", "original", "default", "base")


def base_variant(manifest: dict[str, Any], configs: dict[str, dict[str, Any]]) -> str:
    """The variant others are compared with: a conventional name, else the one with the published rules."""
    import simlab

    for name in BASE_NAMES:
        if name in configs:
            return name
    try:
        game = simlab.get_game(manifest["game"])
        default = game.make_config(players=int(manifest["players"])).as_dict()
        default = {k: list(v) if isinstance(v, tuple) else v for k, v in default.items()}
        for name, cfg in configs.items():
            if cfg == default:
                return name
    except Exception:  # a plug-in game missing here: fall back to the first variant
        pass
    return next(iter(configs))


def money_sweep(configs: dict[str, dict[str, Any]], base: str, knob: str | None = MONEY_KNOB) -> list[str]:
    """Variants that differ from the base only in ``knob`` (the base included), if the knob varies at all.

    ``knob``: the game's money-intervention knob (None: the game has none).
    """
    ref = configs[base]
    if knob is None or knob not in ref:
        return []
    same = [v for v, cfg in configs.items() if _without(cfg, knob) == _without(ref, knob)]
    moneys = {tuple(configs[v][knob]) for v in same}
    return same if len(same) >= 2 and len(moneys) >= 2 else []


def _without(cfg: dict[str, Any], knob: str) -> dict[str, Any]:
    return {k: x for k, x in cfg.items() if k != knob}


def others_changed(configs: dict[str, dict[str, Any]], base: str, knob: str) -> dict[str, list[str]]:
    """Per variant outside the sweep: the knobs other than ``knob`` in which it differs from the base."""
    ref = configs[base]
    out = {}
    for v, cfg in configs.items():
        keys = sorted(k for k in set(cfg) | set(ref) if k != knob and cfg.get(k) != ref.get(k))
        if keys:
            out[v] = keys
    return out


def not_a_sweep(
    configs: dict[str, dict[str, Any]], base: str, knob: str | None, example: str = "", game: str | None = None
) -> str:
    """Why there is no compensation fit (the report's note and the CLI's error alike); ``example`` is ", such as
    <the game's own sweep scenario>" (``sweep_example``), or "" for a game that ships none; ``game`` completes
    the ``simlab compensate`` command to copy."""
    knob = knob or MONEY_KNOB
    text = f"No compensation fit: it needs variants that differ from {base} only in {knob} (a sweep{example})"
    changed = others_changed(configs, base, knob)
    if changed:
        shown = "; ".join(f"{v} also changes {', '.join(keys)}" for v, keys in list(changed.items())[:4])
        text += f"; here {shown}"
    elif len(configs) >= 2:
        text += f"; here no variant changes {knob}"
    return text + f". `simlab compensate {game or 'GAME'}` finds the fair vector by playing games."


def sweep_variants(manifest: dict[str, Any], knob: str | None) -> tuple[list[str], list[str]]:
    """(the sweep's variants, the variants left out) of a folder's manifest, or AnalysisError saying why not."""
    configs = {v["name"]: v["config"] for v in manifest["variants"]}
    base = base_variant(manifest, configs)
    subset = money_sweep(configs, base, knob)
    if not subset:
        game = manifest.get("game")
        raise AnalysisError(not_a_sweep(configs, base, knob, sweep_example(game), str(game) if game else None))
    return subset, [v for v in configs if v not in subset]


def sweep_example(game: Any) -> str:
    """ ", such as scenarios/X.toml": the game's own starting-money sweep scenario, or "" (see ``scenario_example``)."""
    return scenario_example(game, "money_sweep")


def scenario_example(game: Any, kind: str) -> str:
    """ ", such as scenarios/X.toml": the game's own shipped scenario of ``kind`` (``Game.scenarios``), or "" when it
    declares none (or is a plug-in not installed here): never another game's scenario."""
    import simlab

    try:
        path = simlab.get_game(str(game)).scenarios.get(kind)
    except Exception:  # a plug-in game missing on this machine: no pointer rather than a failed message
        path = None
    return f", such as {path}" if path else ""
