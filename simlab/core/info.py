"""What a game declares, in one record: ``Game.info()`` and ``simlab games --json``.

Which optional hooks it defines (so which bots and search settings it offers), which fact roles it fills (so
which analyses it gets) and which interventions it names (so which experiments turn its knobs): a designer, a
tool or a test reads them here instead of probing the game's modules.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from simlab.core.hooks import OPTIONAL_HOOKS


@dataclasses.dataclass(frozen=True)
class GameInfo:
    """A game's declarations. ``hooks``: hook -> what it offers; ``roles``: the fact roles it fills under the
    default config (the analyses it gets); ``interventions``: each as its manifest entry (kind, knob, ...)."""

    name: str
    title: str
    rules_version: str
    players: tuple[int, int]
    presets: tuple[str, ...]
    bots: tuple[str, ...]
    hooks: dict[str, str]
    roles: tuple[str, ...]
    interventions: tuple[dict[str, Any], ...]

    @property
    def searchable(self) -> bool:
        """Core's search bot can play it (it defines ``determinize``)."""
        return "determinize" in self.hooks

    @property
    def cuttable(self) -> bool:
        """A search playout may stop early (``depth``): something scores the position it stops at."""
        return bool({"score_now", "estimate_now"} & set(self.hooks))

    def as_dict(self) -> dict[str, Any]:
        out = dataclasses.asdict(self)
        out["players"] = {"min": self.players[0], "max": self.players[1]}
        out["searchable"], out["cuttable"] = self.searchable, self.cuttable
        return out


def game_info(game: Any) -> GameInfo:
    """The :class:`GameInfo` of a game object (no compiling: its modules are not bound)."""
    facts = game.fact_manifest(game.make_config())
    return GameInfo(
        name=game.name,
        title=game.title,
        rules_version=game.rules_version,
        players=(game.min_players, game.max_players),
        presets=tuple(game.presets()),
        bots=tuple(game.bots.names()),
        hooks={hook: OPTIONAL_HOOKS[hook][1] for hook in game.hooks},
        roles=tuple(facts.get("roles", {})),
        interventions=tuple(facts.get("interventions", ())),
    )


def games_json(names: list[str], get_game: Any) -> list[dict[str, Any]]:
    """Each game's :class:`GameInfo` as a dict (``simlab games --json``); a game that cannot be loaded (a broken
    plug-in) is listed with its error instead, so it does not hide the others."""
    out: list[dict[str, Any]] = []
    for name in names:
        try:
            out.append(get_game(name).info().as_dict())
        except Exception as exc:
            out.append({"name": name, "error": f"{type(exc).__name__}: {exc}"})
    return out
