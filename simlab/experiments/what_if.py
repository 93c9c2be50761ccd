"""``simlab compare GAME [--preset P] [--set K=V]... --vs [--preset P] [--set K=V]...``: a what-if from the
command line, without writing a scenario file.

"Is 6,7,8,8 fairer than the rulebook?" is a two-variant experiment: this module writes it as a scenario (the
game's default lineup rotated through the seats, both sides on the same game seeds), plays it with the runner
and answers with the seat analysis every run uses (``seat_advantage``, ``seat_verdicts``, ``compare_variants``):
each side's seat verdict and the paired change. No statistics of its own; a first answer in seconds, more
games with ``--games``.
"""

from __future__ import annotations

import re
import shlex
import shutil
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polars as pl

from simlab.analysis.text import p_phrase
from simlab.core.facts import GENERIC_UNITS, Units
from simlab.run.errors import ScenarioError

#: a first answer in seconds: games per side unless --games says otherwise
GAMES = 2_000
SEED = 1
SEPARATOR = "--vs"
#: the scenario source of a comparison's result folder (its manifest says so)
SOURCE = "simlab compare"
#: how a side that changes nothing is described
DEFAULT_SIDE = "the default preset"
#: longest variant name read off a side's changes (else the sides are called a and b)
MAX_NAME = 48
USAGE = "each side takes --preset NAME and --set KEY=VALUE (repeatable), the sides separated by --vs"


@dataclass
class Side:
    """One side of the comparison: a preset (None: the game's default) and knob changes as ``--set`` gives them."""

    preset: str | None = None
    settings: dict[str, str] = field(default_factory=dict)

    def words(self) -> list[str]:
        """The side as it is typed: ``--preset P --set k=v``."""
        out = ["--preset", self.preset] if self.preset else []
        for key, value in self.settings.items():
            out += ["--set", f"{key}={value}"]
        return out


def parse_sides(args: Sequence[str]) -> tuple[Side, Side]:
    """The two sides of ``A... --vs B...``; ScenarioError for anything else."""
    args = list(args)
    if args.count(SEPARATOR) != 1:
        found = "none" if SEPARATOR not in args else f"{args.count(SEPARATOR)}"
        raise ScenarioError(f"simlab compare: expected one {SEPARATOR} between the two sides, found {found}; {USAGE}")
    at = args.index(SEPARATOR)
    return _side(args[:at]), _side(args[at + 1 :])


def _side(words: list[str]) -> Side:
    side = Side()
    i = 0
    while i < len(words):
        word = words[i]
        name, eq, inline = word.partition("=")
        if name not in ("--set", "--preset"):
            raise ScenarioError(f"simlab compare: unexpected {word!r}; {USAGE}")
        if eq:
            value = inline
        elif i + 1 < len(words) and words[i + 1] != SEPARATOR:
            i += 1
            value = words[i]
        else:
            raise ScenarioError(f"simlab compare: {name} needs a value; {USAGE}")
        if name == "--preset":
            if side.preset is not None:
                raise ScenarioError(f"simlab compare: two presets on one side ({side.preset}, {value}); {USAGE}")
            side.preset = value
        else:
            key, has, knob_value = value.partition("=")
            if not has or not key.strip():
                raise ScenarioError(
                    f"simlab compare: --set {value!r} must look like key=value (e.g. start_money=6,7,8,8)"
                )
            side.settings[key.strip()] = knob_value.strip()
        i += 1
    return side


def _names(game: Any, a: Side, b: Side) -> tuple[str, str]:
    """Each side's variant name, read off what it changes: ``rulebook``, ``start_money_6.7.8.8``,
    ``quined2014+hand_limit_4``; ``a`` and ``b`` when those would be too long or the same."""
    names = []
    for side in (a, b):
        parts = [game.config_class.preset_name(side.preset)] if side.preset or not side.settings else []
        parts += [f"{key}_{value}" for key, value in side.settings.items()]
        names.append(re.sub(r"[^A-Za-z0-9_.+-]", "-", "+".join(parts).replace(",", ".")))
    if names[0].casefold() == names[1].casefold() or max(map(len, names)) > MAX_NAME:
        return "a", "b"
    return names[0], names[1]


def what_if_scenario(
    game_id: str, a: Side, b: Side, players: int | None, bots: Sequence[str], games: int, seed: int
) -> Any:
    """The comparison as a scenario (validated: an unknown knob or preset is refused before a game is played)."""
    import simlab
    from simlab.run.scenario import parse_scenario
    from simlab.run.template import toml_value

    game = simlab.get_game(game_id)
    players = players or game.make_config().players
    lineup = list(bots) or game.default_lineup(players)
    first, second = _names(game, a, b)
    lines = [
        f"description = {toml_value('simlab compare: ' + _typed(a) + ' vs ' + _typed(b))}",
        f"game = {toml_value(game.name)}",
        f"players = {players}",
        f"games = {games}",
        f"seed = {seed}",
        f"chunk_size = {min(games, 1_000)}",
        f"lineup = {toml_value(lineup)}",
    ]
    for name, side in ((first, a), (second, b)):
        table = f"variants.{toml_value(name)}"  # quoted: a name such as start_money_6.7.8.8 holds dots
        lines += ["", f"[{table}]", f"description = {toml_value(_typed(side))}"]
        if side.preset:
            lines.append(f"preset = {toml_value(side.preset)}")
        if side.settings:
            lines.append(f"[{table}.set]")
            lines += [f"{key} = {toml_value(value)}" for key, value in side.settings.items()]
    return parse_scenario("\n".join(lines) + "\n", source=SOURCE, default_name=f"compare_{game.name}")


def _typed(side: Side) -> str:
    return " ".join(side.words()) or DEFAULT_SIDE


def resume_command(folder: str | Path) -> str:
    """The command that plays the missing games of result ``folder``: ``simlab run SCENARIO --out F --resume``,
    or, for a folder ``simlab compare --out`` made (its scenario is no file), that comparison again with
    ``--out F``, which extends the folder it finds there (its sides, players, lineup, games and seed read off the
    manifest's scenario)."""
    import tomllib

    from simlab.core.errors import SimlabError
    from simlab.run.reader import load_manifest

    try:
        scenario = load_manifest(folder)["scenario"]
        source = scenario["source"]
        if source != SOURCE:
            return shlex.join(["simlab", "run", str(source), "--out", str(folder), "--resume"])
        sc = tomllib.loads(scenario["text"])
        a, b = (
            shlex.split(v["description"]) if v["description"] != DEFAULT_SIDE else [] for v in sc["variants"].values()
        )
    except (SimlabError, KeyError, TypeError, ValueError):
        return f"simlab run SCENARIO --out {shlex.quote(str(folder))} --resume"
    words = ["simlab", "compare", sc["game"], *a, SEPARATOR, *b, "--players", str(sc["players"])]
    words += ["--bots", ",".join(sc["lineup"]), "--games", str(sc["games"]), "--seed", str(sc["seed"])]
    return shlex.join([*words, "--out", str(folder)])


@dataclass
class WhatIf:
    """A played comparison: its folder, each side's variant name (the --vs side is the base), the seat rows and
    the paired changes."""

    folder: Path | None
    command: str
    changed: str
    base: str
    labels: dict[str, str]
    seats: pl.DataFrame
    changes: pl.DataFrame
    units: Units = GENERIC_UNITS  # the game's words for its money and points (the score column)


def what_if(
    game_id: str,
    sides: Sequence[str],
    players: int | None = None,
    bots: Sequence[str] = (),
    games: int = GAMES,
    seed: int = SEED,
    jobs: int | None = None,
    out: str | Path | None = None,
    say: Callable[[str], None] | None = None,
) -> WhatIf:
    """Play both sides on the same game seeds and analyse them; without ``out`` the result folder is temporary.
    With an ``out`` that holds this comparison already, its run is extended to ``games`` (the seeds played stay).
    ``say`` gets one line before the games start (the CLI prints it on stderr: a first run compiles the engine)."""
    import simlab
    from simlab.analysis import compare_variants, seat_advantage
    from simlab.analysis.frames import roles

    a, b = parse_sides(sides)
    scenario = what_if_scenario(game_id, a, b, players, bots, games, seed)
    changed, base = (v.name for v in scenario.variants)
    scratch = None if out is not None else Path(tempfile.mkdtemp(prefix="simlab-compare-"))
    folder = Path(out) if out is not None else scratch / "results"
    try:
        resume = folder.is_dir() and (folder / "manifest.json").exists()
        if say is not None:
            lineup = ", ".join(scenario.seats)
            say(f"playing {changed} and {base}, {games:,} games each on the same seeds ({lineup}, rotated)...")
        simlab.run_scenario(scenario, jobs=jobs, out=folder, resume=resume, progress=False)
        seats = seat_advantage(folder)
        changes = compare_variants(folder, base)
        units = roles(folder).units
    finally:
        if scratch is not None:
            shutil.rmtree(scratch, ignore_errors=True)
    words = ["simlab", "compare", game_id, *a.words(), SEPARATOR, *b.words()]
    if players:
        words += ["--players", str(players)]
    if bots:
        words += ["--bots", ",".join(bots)]
    labels = {changed: _typed(a), base: _typed(b)}
    return WhatIf(None if scratch else folder, shlex.join(words), changed, base, labels, seats, changes, units)


def change_sentence(result: WhatIf) -> str:
    """The paired answer: the best-worst seat gap on each side, and the largest change of a seat with its
    interval simultaneous over every seat (it is picked as the largest) and its Holm-adjusted p-value."""
    gaps = {r["variant"]: r for r in result.seats.unique("variant", keep="first").iter_rows(named=True)}

    def gap(name: str) -> str:
        g = gaps[name]
        return f"{g['gap'] * 100:.1f} [{g['gap_lo'] * 100:.1f}, {g['gap_hi'] * 100:.1f}]"

    top = result.changes.with_columns(pl.col("diff").abs().alias("_a")).sort("_a", descending=True).row(0, named=True)
    p = top["p_adjusted"]
    detected = p is not None and p < 0.05
    text = (
        f"{result.changed} against {result.base} ({top['games']:,} paired games): the gap between the best and the "
        f"worst seat goes from {gap(result.base)} to {gap(result.changed)} points of win share; the largest change is "
        f"seat {top['seat']}'s, {top['diff'] * 100:+.1f} points "
        f"[{top['diff_slo'] * 100:+.1f}, {top['diff_shi'] * 100:+.1f}]"
        f" (simultaneous over the {result.changes.height} changes, Holm-adjusted {p_phrase(_p(p))})"
    )
    return text + ("." if detected else ": no seat's change is detectable at this many games.")


def _p(p: float | None) -> str:
    if p is None:
        return "n/a"
    return "< 1e-12" if p < 1e-12 else f"{p:.2g}"


def ordered_seats(result: WhatIf) -> pl.DataFrame:
    """The seat rows, the --vs side (the base) first."""
    order = pl.DataFrame({"variant": [result.base, result.changed], "_o": [0, 1]})
    return result.seats.join(order, on="variant").sort("_o", maintain_order=True).drop("_o")


def what_if_lines(result: WhatIf, tolerance: float, games: int) -> list[str]:
    """The answer: the two sides, each side's seat table and verdict, the paired change and what to do next."""
    from simlab.analysis.text import compare_text, seats_text

    lines = [
        f"{result.base}: {result.labels[result.base]}",
        f"{result.changed}: {result.labels[result.changed]}  (against {result.base}, on the same game seeds)",
        *seats_text(ordered_seats(result), tolerance, result.units),
        *compare_text(result.changes),
        f"answer: {change_sentence(result)}",
    ]
    more = f"{result.command} --games {games * 10}"
    if result.folder is not None:
        lines.append(f"results: {result.folder}  (the report: simlab report {shlex.quote(str(result.folder))})")
        more += f" --out {shlex.quote(str(result.folder))}"
    lines.append(f"next: narrower intervals with ten times the games: {more}")
    return lines
