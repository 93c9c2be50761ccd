"""A bot panel: the scenario's question played again once per bot, on the same game seeds.

A verdict (seat 0 is ahead, the 2014 money helps seat 3, card X is worth 2 points) holds only for the
bots that played it. ``run_panel`` replays a scenario with each panel entry seated one of two ways, keeping
the scenario's root seed, variants and game count, so game i of variant v has the same chance stream for
every entry:

- ``every`` (the default): the entry in **every seat** — all players are that bot: "does it hold when
  everybody plays like this?";
- ``one``: the entry in **one seat**, rotated through the seats with the scenario's rotated lineup in the
  others (the lineup's first bot gives way to it) — "does it hold when one player plays like this?". A search
  bot costs about a third of what it costs in every seat of a four-player game (Massilia: docs/search.md).
Each entry is an ordinary result folder under ``<folder>/panel/`` (resumable, verifiable, reportable on its
own); ``panel.json`` lists them. ``simlab.analysis.robust`` reads the panel.
The folder format (panel.json, ``load_panel``) is ``simlab.run.panel_folder``.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any

from simlab.run.errors import ScenarioError
from simlab.run.folder_layout import PANEL
from simlab.run.panel_folder import SEATINGS, PanelEntry, check_same_seating, load_panel, write_panel
from simlab.run.scenario import Scenario, load_scenario

__all__ = ["SEATINGS", "PanelEntry", "entry_scenario", "load_panel", "run_panel"]

#: entries of one panel (each is a full run of the scenario)
MAX_ENTRIES = 12


def entry_scenario(sc: Scenario, bot: str, seating: str = "every") -> Scenario:
    """The scenario with ``bot`` seated as ``seating`` says (same seed, variants and games; see the module)."""
    if seating == "one":
        return dataclasses.replace(sc, seats=(bot, *sc.seats[1:]), rotate=True, name=f"{sc.name}.{_slug(bot)}.one")
    return dataclasses.replace(sc, seats=(bot,) * sc.players, rotate=False, name=f"{sc.name}.{_slug(bot)}")


def run_panel(
    scenario: str | Path | Scenario,
    panel: Sequence[str],
    *,
    out: str | Path | None = None,
    games: int | None = None,
    jobs: int | None = None,
    progress: bool = True,
    stream: IO[str] | None = None,
    force_jobs: bool = False,
    seating: str = "every",
) -> Path:
    """Play ``scenario`` once per bot of ``panel`` into ``<out>/panel/`` and return that panel folder.

    ``out`` is the scenario's result folder (default ``results/<scenario name>``); it need not hold the
    scenario's own run yet. An entry already played is resumed (extended when ``games`` is larger), so a
    stopped panel run continues where it stopped.
    """
    from simlab.run.runner import run_scenario

    sc = scenario if isinstance(scenario, Scenario) else load_scenario(scenario)
    bots = _check_panel(sc, panel, seating)
    folder = Path(out) if out is not None else Path("results") / sc.name
    root = folder / PANEL
    check_same_seating(root, seating)
    root.mkdir(parents=True, exist_ok=True)
    suffix = "-one-seat" if seating == "one" else ""
    entries = [PanelEntry(bot, root / f"{k}-{_slug(bot)}{suffix}") for k, bot in enumerate(bots)]
    write_panel(root, sc, entries, seating)
    where = "in every seat" if seating == "every" else "in one seat, rotated"
    for entry in entries:
        if progress and stream is not None:
            stream.write(f"panel entry '{entry.bot}' ({where}):\n")
        run_scenario(
            entry_scenario(sc, entry.bot, seating),
            games=games,
            jobs=jobs,
            out=entry.folder,
            resume=True,
            progress=progress,
            stream=stream,
            force_jobs=force_jobs,
        )
    return root


def _check_panel(sc: Scenario, panel: Sequence[str], seating: str = "every") -> list[str]:
    import simlab

    if seating not in SEATINGS:
        raise ScenarioError(f"--seating: expected one of {', '.join(SEATINGS)}, found {seating!r}")
    if seating == "one" and not sc.rotate:
        raise ScenarioError(
            f"--seating one rotates the panel bot through the seats among the scenario's lineup, but "
            f"{sc.source} seats fixed bots ('bots = [...]'): give it a rotated 'lineup = [...]' or use --seating every"
        )
    bots = [b.strip() for b in panel if b.strip()]
    if len(bots) < 2:
        raise ScenarioError(f"--panel: expected at least two bots (e.g. random,trader), found {len(bots)}")
    if len(bots) > MAX_ENTRIES:
        raise ScenarioError(
            f"--panel: at most {MAX_ENTRIES} bots (each is a full run of the scenario), found {len(bots)}"
        )
    if len(set(bots)) != len(bots):
        raise ScenarioError(f"--panel: a bot is listed twice ({', '.join(bots)})")
    game = simlab.get_game(sc.game)
    seen: dict[tuple[object, ...], str] = {}
    for bot in bots:
        made = game.bots.make(bot)  # an unknown bot or parameter: the registry's clear error
        twin = seen.setdefault(_identity(made, bot), bot)
        if twin != bot:
            raise ScenarioError(
                f"--panel: '{twin}' and '{bot}' are the same bot (the same parameters once the defaults are "
                "filled in): they would play identical games and count twice in the pooled estimate; "
                "list it once, or give the second another parameter value"
            )
    return bots


def _identity(made: Any, spec: str) -> tuple[object, ...]:
    """What decides how a bot plays: a compiled bot's kind and parameter vector (the defaults filled in), else
    its spec with its parameters in order (a plug-in bot)."""
    params = getattr(made, "params", None)
    kind = getattr(made, "kind", None)
    if kind is not None and params is not None:
        return ("compiled", int(kind), tuple(float(x) for x in params))
    from simlab.core.bots import parse_spec

    parsed = parse_spec(spec)
    return ("plug-in", parsed.name, tuple(sorted(parsed.params.items())))


def _slug(bot: str) -> str:
    """A file-name-safe form of a bot spec (``ismcts:iterations=200`` -> ``ismcts-iterations-200``)."""
    return re.sub(r"[^A-Za-z0-9_.]+", "-", bot).strip("-")[:60] or "bot"
