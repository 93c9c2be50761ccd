"""Replaying one game of a result folder: its bots, seed and config from the manifest and the game's rows.

``replay_spec(folder, variant, game)`` gives what ``simlab play`` needs to play that game again with a
transcript (the same game, move for move: seeds and bots decide it); ``simlab replay`` prints it. The row of
the game is authoritative (its seed and the bot in each seat); a game without rows (it failed, or the run
has not reached it) is rebuilt from the manifest: the root seed gives its seed, the lineup and rotation
its bots.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

from simlab.core.suggest import unknown_name
from simlab.run.errors import ResultFolderError


@dataclasses.dataclass(frozen=True)
class ReplaySpec:
    """One game of a result folder, as ``simlab play`` arguments."""

    game: str
    variant: str
    index: int
    players: int
    bots: tuple[str, ...]
    seed: int
    preset: str
    settings: dict[str, str]
    from_rows: bool  # False: rebuilt from the manifest (the game has no rows)

    def command(self) -> str:
        from simlab.run.chunk import replay_command

        return replay_command(self.game, self.players, self.bots, self.seed, self.preset, self.settings)

    def config(self) -> Any:
        import simlab

        g = simlab.get_game(self.game)
        return g.make_config(preset=self.preset or None, players=self.players, overrides=self.settings)


def replay_spec(folder: str | Path, variant: str, index: int) -> ReplaySpec:
    """The bots, seed, preset and settings of game ``index`` of ``variant`` in a result folder."""
    import polars as pl

    import simlab
    from simlab.run.content import played_copies
    from simlab.run.reader import load_manifest
    from simlab.run.scenario import rotated_lineup
    from simlab.run.seeds import game_seed

    m = load_manifest(folder)
    by_name = {v["name"]: v for v in m["variants"]}
    if variant not in by_name:
        raise ResultFolderError(f"{folder}: {unknown_name('variant', variant, list(by_name))}")
    games = int(m["games"])
    if not 0 <= index < games:
        raise ResultFolderError(f"{folder}: game {index} is out of range; the run has games 0 to {games - 1:,}")
    v = by_name[variant]
    players = int(m["players"])
    preset, settings = v.get("preset", ""), dict(v.get("replay_set", {}))

    rows = None
    if m.get("games_done"):
        try:
            rows = (
                simlab.load_results(folder)
                .filter((pl.col("variant") == variant) & (pl.col("game") == index))
                .select("seat", "bot", "seed")
                .sort("seat")
                .collect()
            )
        except pl.exceptions.PolarsError:  # parts polars cannot scan together (variants with other columns)
            rows = None
    if rows is not None and rows.height == players:
        bots, seed, from_rows = tuple(rows["bot"].to_list()), int(rows["seed"][0]), True
    else:
        lineup = list(m["bots"])
        rotation = index % players if m.get("seating") == "lineup" else 0
        bots, seed, from_rows = tuple(rotated_lineup(lineup, rotation)), game_seed(int(m["root_seed"]), index), False
    copies = played_copies(folder, v)  # data files edited since the run: the folder's copies are what was played
    settings.update(copies)
    spec = ReplaySpec(m["game"], variant, index, players, bots, seed, preset, settings, from_rows)
    if copies:  # the config names the copies: compare every other knob with the run's
        now = {k: value for k, value in spec.config().as_dict().items() if k not in copies}
        was = {k: value for k, value in v.get("config", {}).items() if k not in copies}
        if json.dumps(now, sort_keys=True, default=list) != json.dumps(was, sort_keys=True, default=list):
            raise ResultFolderError(
                f"{folder}: variant {variant!r}: its preset and settings now give another config than the run's "
                f"(a preset of {m['game']} changed since the run); replay it with the simlab version of the run "
                f"({m.get('simlab_version', '?')})"
            )
    elif spec.config().config_hash() != v.get("config_hash", spec.config().config_hash()):
        raise ResultFolderError(
            f"{folder}: variant {variant!r} was run with config {v['config_hash']}, but its preset and settings "
            f"now give {spec.config().config_hash()} (a preset of {m['game']} changed since the run); replay it "
            f"with the simlab version of the run ({m.get('simlab_version', '?')})"
        )
    return spec
