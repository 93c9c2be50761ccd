"""The :class:`Answer` of each command that describes a game or looks after a run: games, config, play and
replay, bench, verify. Their text is what these commands always printed; their JSON is the envelope
(``format``, ``command``, the fields, ``tables``, ``not_available``), except ``games``, whose list predates it.

The command modules parse the arguments, call the library and hand the result here; ``emit`` prints it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from simlab.cli.answer import Answer
from simlab.cli.options import _player_range


def games_answer(names: list[str], get_game: Callable[[str], Any]) -> Answer:
    """``simlab games``: one line per game (a game that cannot be loaded says why, the others still listed);
    ``--json``: each game's GameInfo, the list it always was."""

    def lines() -> list[str]:
        out = []
        for name in names:
            try:
                game = get_game(name)
            except Exception as exc:  # a broken plug-in must not hide the other games
                out.append(f"{name:<12} (cannot be loaded: {type(exc).__name__}: {exc})")
                continue
            out.append(
                f"{name:<12} {game.title} — {_player_range(game)} players, rules {game.rules_version}, "
                f"presets: {', '.join(game.presets())}{_old_names(game)}"
            )
        return out

    def document() -> list[dict[str, Any]]:
        from simlab.core.info import games_json

        return games_json(names, get_game)

    return Answer("games", lines, document=document)


def _old_names(game: Any) -> str:
    """`` (old names: original = rulebook)``: preset names that still work, for ``simlab games``."""
    aliases = game.config_class.PRESET_ALIASES
    return f" (old names: {', '.join(f'{a} = {b}' for a, b in aliases.items())})" if aliases else ""


def bots_answer(game: Any) -> Answer:
    """``simlab bots``: each bot with what it does and its parameters, then core's search bots with every
    parameter (its default for this game and what it does); ``--json``: the same as two tables."""
    from simlab.core.search_spec import PARAM_DOC

    registry = game.bots
    defaults = registry.search_defaults()
    search = []  # (key, default as a spec writes it, what it does)
    for key, doc in PARAM_DOC.items():
        default = registry.default_rollout() if key == "rollout" else defaults.get(key)
        search.append((key, default, doc))
    bots = [(name, registry.info(name), False) for name in registry.names()]
    bots += [(name, registry.info(name), True) for name in registry.search_names()]  # docs/search.md

    def lines() -> list[str]:
        out = []
        for name, info, searches in bots:
            out.append(f"{name:<10} {info.doc}")
            if searches:
                for key, default, doc in search:
                    shown = key if default is None else f"{key}={default}" if key == "rollout" else f"{key}={default:g}"
                    out.append(f"{'':<10} {shown}: {doc}")
            elif info.params:
                out.append(f"{'':<10} parameters: {', '.join(f'{k}={v:g}' for k, v in info.params.items())}")
        return out

    rows = [{"name": n, "doc": i.doc, "search": s, "params": dict(i.params)} for n, i, s in bots]
    params = [{"param": key, "default": default, "doc": doc} for key, default, doc in search]
    return Answer("bots", lines, {"bots": rows, "search_params": params}, fields={"game": game.name})


def config_answer(game: Any, preset: str, rows: list[dict[str, Any]]) -> Answer:
    """``simlab config``: every knob of ``preset`` as a table; ``--json`` keeps ``knobs`` at the top level, where it
    was before the envelope, beside the envelope's ``tables.knobs``."""

    def lines() -> list[str]:
        from simlab.core.config import allowed_text
        from simlab.run.scenario import format_value

        head = (
            f"{game.name} ({game.title}), preset {preset} of {', '.join(game.presets())}: {len(rows)} knobs; "
            "* = differs from the default"
        )
        shown = [(r, format_value(r["value"]), format_value(r["default"])) for r in rows]
        w_name = max(len(r["name"]) for r in rows)
        w_value = min(24, max(len(v) for _, v, _ in shown))
        w_type = max(len(r["type"]) for r in rows)
        w_range = max(5, *(len(r["range"] or "") for r in rows))
        out = [
            head,
            f"  {'knob':<{w_name}}  {'value':<{w_value}}  {'type':<{w_type}}  {'range':<{w_range}}  {'source':<11} "
            "description",
        ]
        for r, value, default in shown:
            mark = "*" if r["changed"] else " "
            doc = r["doc"] + (f" (default {default})" if r["changed"] else "") + allowed_text(r)
            out.append(
                f"{mark} {r['name']:<{w_name}}  {value:<{w_value}}  {r['type']:<{w_type}}  "
                f"{r['range'] or '':<{w_range}}  {r['source']:<11} {doc}"
            )
        return out

    fields = {"game": game.name, "rules_version": game.rules_version, "preset": preset, "knobs": rows}
    return Answer("config", lines, {"knobs": rows}, fields=fields)


def play_answer(result: Any) -> Answer:
    """``simlab play`` and ``replay``: the transcript; ``--json``: the game's summary (seed, bots, scores, ranks,
    win shares, winners, decisions) as the envelope's fields. A replay answers as the play it replays (command
    ``play``): the two print the same JSON, as they print the same transcript."""
    return Answer("play", result.lines, fields=dict(result.summary))


def bench_answer(r: Any, rotate: bool, profile: Any | None) -> Answer:
    """``simlab bench``: the timing (the last line ``games/s: <number>``, for scripts), after the profile's report
    when ``--profile`` asked for one; ``--json``: the same figures, the profile's stages and decision kinds as
    tables."""
    lines = list(profile.lines()) if profile is not None else []
    lines += [
        f"{r.game}: {r.players} players, preset {r.preset}, config {r.config_hash}",
        f"bots: {', '.join(r.bots)}" + (" (rotated through the seats)" if rotate else ""),
        f"warm-up (first game, includes compiling): {r.warmup_seconds:.2f} s",
    ]
    if r.worker_start_seconds:
        lines.append(
            f"worker start-up (spawn, imports, engine; before the clock): {r.worker_start_seconds:.2f} s, "
            f"{r.games_per_second_with_start:.1f} games/s counting it"
        )
    lines += [
        f"{r.games:,} games in {r.seconds:.2f} s with {r.jobs} job(s)",
        f"decisions/s: {r.decisions_per_second:.0f}",
        f"games/s: {r.games_per_second:.1f}",
    ]
    fields = {
        "game": r.game,
        "players": r.players,
        "preset": r.preset,
        "config_hash": r.config_hash,
        "bots": list(r.bots),
        "rotated": rotate,
        "jobs": r.jobs,
        "games": r.games,
        "seconds": r.seconds,
        "decisions": r.decisions,
        "warmup_seconds": r.warmup_seconds,
        "worker_start_seconds": r.worker_start_seconds,
        "games_per_second": r.games_per_second,
        "games_per_second_with_start": r.games_per_second_with_start,
        "decisions_per_second": r.decisions_per_second,
    }
    tables: dict[str, Any] = {}
    if profile is not None:
        fields["profile"] = {
            "games": profile.games,
            "chunks": profile.chunks,
            "jobs": profile.jobs,
            "wall_seconds": profile.wall_seconds,
            "worker_seconds": profile.worker_seconds,
            "overhead": profile.overhead,
            "sample_games": profile.sample_games,
        }
        tables = {"stages": profile_stages(profile), "decision_kinds": profile_kinds(profile)}
    return Answer("bench", lines, tables, fields=fields)


def profile_stages(profile: Any) -> list[dict[str, Any]]:
    """One row per stage of the runner's chunk: its worker seconds, µs per game and share of the worker time."""
    from simlab.run.profile import STAGE_NAMES, STAGES

    per = 1e6 / max(profile.games, 1)
    total = profile.worker_seconds
    return [
        {
            "stage": key,
            "what": STAGE_NAMES[key],
            "seconds": profile.stages[key],
            "us_per_game": profile.stages[key] * per,
            "share": profile.stages[key] / total if total > 0 else None,
        }
        for key in STAGES
    ]


def profile_kinds(profile: Any) -> list[dict[str, Any]]:
    """One row per decision kind of the replayed games: count and compiled µs per decision of each function."""
    return [
        {
            "kind": k.kind,
            "decisions": k.decisions,
            "legal_us": k.legal * 1e6,
            "policy_us": k.policy * 1e6,
            "apply_us": k.apply * 1e6,
        }
        for k in profile.kinds
    ]


def verify_answer(result: Any, quarantine: bool) -> Answer:
    """``simlab verify``: the parts read, each damaged or left-out part and why, the games missing, the parts moved;
    ``--json``: ``ok`` and the same as tables (the command still exits 2 when a part is damaged)."""
    fields = {
        "folder": str(result.folder),
        "ok": result.ok,
        "checked": result.checked,
        "games": result.games,
        "quarantine": quarantine,
    }
    tables = {
        "damaged": [{"file": p.name, "reason": why} for p, why in result.damaged],
        "left_out": [{"file": p.name, "reason": why} for p, why in result.left_out],
        "missing": [{"reason": line} for line in result.missing],
        "moved": [{"file": p.name, "to": str(p)} for p in result.moved],
    }
    return Answer("verify", result.lines(), tables, fields=fields)
