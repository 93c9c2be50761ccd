"""Scenario files: one experiment each, validated on load so a typo fails in a second, not after an hour.

A scenario (``scenarios/*.toml``) names the game, the player count, the bot in each seat (``bots``) or a
lineup rotated through all seats (``lineup``), the number of games per variant, the root seed, the chunk
size, and named variants (a preset and/or config overrides). Every variant plays the same game seeds
(common random numbers), so differences between variants are measured with little noise. See
docs/scenarios.md for the format.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import re
import stat
import tomllib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from simlab.core.errors import SimlabError
from simlab.core.suggest import unknown_name
from simlab.run.errors import ScenarioError
from simlab.run.manifest import DEFAULT_SETTLE, SETTLE_FAMILIES

DEFAULT_CHUNK_SIZE = 1000
#: part file names hold game indices in 10 digits
MAX_GAMES = 10**10 - 1
#: games in one chunk: a worker holds a chunk's games, columns and Parquet encoding in memory at once
MAX_CHUNK_SIZE = 1_000_000
#: chunks of one run (over its variants): the manifest lists every chunk, and parts/ holds a file for each
MAX_CHUNKS = 100_000
#: a scenario file is a few KB; anything this big is not one (``/dev/zero``, a data file given by mistake)
MAX_SCENARIO_BYTES = 1_000_000
#: a bad value longer than this is cut in error messages
SHOW_CHARS = 120
NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.+-]*$")
TOP_KEYS = (
    "name",
    "description",
    "game",
    "players",
    "games",
    "seed",
    "chunk_size",
    "bots",
    "lineup",
    "preset",
    "set",
    "variants",
    "question",
    "fix",
    "until",
    "tolerance",
    "alpha",
    "max_games",
    "settle",
    "futility",
)
#: what ``until`` may say: the run stops when every headline verdict is settled (simlab.experiments.settle)
UNTIL = ("settled",)
#: a run until settled: the points of win share that matter, and the error rate of its verdicts, by default
DEFAULT_TOLERANCE_POINTS = 1.0
DEFAULT_ALPHA = 0.05
#: a run until settled gives up on an open verdict whose predictive probability of settling by the cap is below
#: this (key ``futility``, ``--futility``; 0 never gives up): one such verdict in twenty would have settled had it
#: played on, the error rate the verdicts themselves are held to (docs/running.md "Futility")
DEFAULT_FUTILITY = 0.05
#: what a scenario may say it asks (key ``question``): its report leads with that section. Without the key a
#: card-value design leads with the cards, a sensitivity run with the data verdicts, any other with the seats
QUESTIONS = ("seats", "cards", "markets", "balance", "fix")
VARIANT_KEYS = ("description", "preset", "set")


def rotated_lineup(lineup: Sequence[str], rotation: int) -> list[str]:
    """Bot spec in each seat for a rotation: seat k gets lineup[(k - rotation) mod players]."""
    n = len(lineup)
    return [lineup[(k - rotation) % n] for k in range(n)]


@dataclasses.dataclass(frozen=True)
class Variant:
    """A named config of the game: a preset plus overrides, checked by the game's config class."""

    name: str
    preset: str
    overrides: Mapping[str, Any]
    config: Any
    description: str = ""

    @property
    def config_hash(self) -> str:
        return self.config.config_hash()


@dataclasses.dataclass(frozen=True)
class Scenario:
    """One experiment, validated. ``games`` is per variant; game i of every variant has the same seed."""

    name: str
    game: str
    rules_version: str
    players: int
    games: int
    seed: int
    chunk_size: int
    seats: tuple[str, ...]
    rotate: bool
    variants: tuple[Variant, ...]
    description: str = ""
    text: str = ""
    source: str = "<scenario>"
    #: variant -> config knob -> {"path", "sha256"}: the data files each variant reads (simlab.run.content)
    data_files: Mapping[str, Mapping[str, Mapping[str, str]]] = dataclasses.field(default_factory=dict)
    #: the question the scenario asks (``QUESTIONS``; "" = not said): its report leads with that section
    question: str = ""
    #: the ``[fix]`` table as written (checked on load by ``simlab.run.fix_table``; ``{}``: none); it
    #: decides no game's result, so it is not part of the identity
    fix: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    #: "settled": play until every verdict is settled, at most ``games`` per variant; "" = play ``games``
    until: str = ""
    #: a run until settled: the points of win share that matter (1.0 = 0.01) and the verdicts' error rate
    tolerance: float = DEFAULT_TOLERANCE_POINTS
    alpha: float = DEFAULT_ALPHA
    #: a run until settled: the verdicts it waits for (``manifest.SETTLE_FAMILIES``)
    settle: str = DEFAULT_SETTLE
    #: a run until settled: an open verdict less likely than this to settle by the cap stops its games (0: never)
    futility: float = DEFAULT_FUTILITY

    @property
    def text_hash(self) -> str:
        return hashlib.sha256(self.text.encode()).hexdigest()

    def rotation(self, game_index: int) -> int:
        """Lineup rotation of a game: with a rotated lineup, game i shifts the lineup by i mod players."""
        return game_index % self.players if self.rotate else 0

    def seat_bots(self, rotation: int) -> list[str]:
        """Bot spec in each seat for a rotation (see ``rotated_lineup``)."""
        return rotated_lineup(self.seats, rotation)

    def variant(self, name: str) -> Variant:
        for v in self.variants:
            if v.name == name:
                return v
        raise ScenarioError(f"{self.source}: {unknown_name('variant', name, self.variant_names)}")

    @property
    def variant_names(self) -> list[str]:
        return [v.name for v in self.variants]

    def identity(self) -> dict[str, Any]:
        """What decides every game's result: two runs with the same identity may share a result folder. Data
        files enter by their bytes' hash and bots by their resolved parameters and version (simlab.run.content)."""
        from simlab.core.registry import get_game
        from simlab.run.content import content_identity, resolved_bots

        # the bots are resolved from the seats now: a panel's scenario (simlab.experiments.panel) replaces them
        return self.legacy_identity() | content_identity(
            self.data_files, resolved_bots(get_game(self.game), self.seats)
        )

    def legacy_identity(self) -> dict[str, Any]:
        """The identity of results format 1: data files by path (in the config hash) and bots by spec only."""
        return {
            "scenario": self.name,
            "game": self.game,
            "rules_version": self.rules_version,
            "players": self.players,
            "seating": "lineup" if self.rotate else "bots",
            "bots": list(self.seats),
            "seed": self.seed,
            "variants": {v.name: v.config_hash for v in self.variants},
        }

    def with_options(self, games: int | None = None, chunk_size: int | None = None) -> Scenario:
        """The same experiment with another game count or chunk size (e.g. from the command line)."""
        changes: dict[str, Any] = {}
        for option, key, value, most in (
            ("--games", "games", games, MAX_GAMES),
            ("--chunk-size", "chunk_size", chunk_size, MAX_CHUNK_SIZE),
        ):
            if value is None:
                continue
            if not (_is_int(value) and 0 < value <= most):
                raise ScenarioError(f"{option}: expected a positive integer up to {most:,}, found {_show(value)}")
            changes[key] = int(value)
        out = dataclasses.replace(self, **changes)
        problem = _plan_problem(out.games, out.chunk_size, len(out.variants))
        if problem:
            raise ScenarioError(f"{'--chunk-size' if chunk_size is not None else '--games'}: {problem}")
        return out


def load_scenario(path: str | Path) -> Scenario:
    """Read and validate a scenario file; raise ScenarioError naming the file, key, expectation and value."""
    p = Path(path)
    try:
        st = p.stat()
        if stat.S_ISDIR(st.st_mode):
            raise ScenarioError(f"{p}: is a folder; expected a scenario .toml file")
        if not stat.S_ISREG(st.st_mode):  # a FIFO would block for good, /dev/zero never end
            raise ScenarioError(
                f"{p}: is not a regular file (a device, FIFO or socket); expected a scenario .toml file"
            )
        if st.st_size > MAX_SCENARIO_BYTES:
            raise ScenarioError(
                f"{p}: is {st.st_size:,} bytes, more than a scenario file can be ({MAX_SCENARIO_BYTES:,} bytes)"
            )
        with open(p, "rb") as f:
            data = f.read(MAX_SCENARIO_BYTES + 1)
        if len(data) > MAX_SCENARIO_BYTES:  # it grew while we looked
            raise ScenarioError(f"{p}: is more than {MAX_SCENARIO_BYTES:,} bytes, more than a scenario file can be")
        text = data.decode("utf-8")
    except FileNotFoundError:
        raise ScenarioError(f"{p}: no such scenario file") from None
    except IsADirectoryError:
        raise ScenarioError(f"{p}: is a folder; expected a scenario .toml file") from None
    except UnicodeDecodeError as exc:
        raise ScenarioError(
            f"{p}: cannot read the scenario file: not UTF-8 text ({exc.reason} at byte {exc.start})"
        ) from None
    except OSError as exc:
        raise ScenarioError(f"{p}: cannot read the scenario file: {exc.strerror or exc}") from None
    return parse_scenario(text, source=str(p), default_name=p.stem)


def parse_scenario(text: str, source: str = "<scenario>", default_name: str = "scenario") -> Scenario:
    """Validate scenario TOML text (``source`` names it in error messages)."""
    text = text.removeprefix("\ufeff")  # a UTF-8 byte order mark, as some editors write: not part of the TOML
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ScenarioError(f"{source}: not valid TOML: {_toml_reason(exc)}") from None
    except RecursionError:
        raise ScenarioError(f"{source}: not valid TOML for simlab: arrays or tables nested too deeply") from None
    _check_keys(data, TOP_KEYS, source, "")

    name = data.get("name", default_name)
    _expect(
        isinstance(name, str) and NAME_RE.match(name),
        source,
        "name",
        "a name of letters, digits and _ . + - (it names the result folder)",
        name,
    )
    description = _string(data.get("description", ""), source, "description")
    question = data.get("question", "")
    _expect(
        question == "" or question in QUESTIONS,
        source,
        "question",
        f"one of {', '.join(repr(q) for q in QUESTIONS)} (the report leads with that section), or no key",
        question,
    )

    game_id = data.get("game")
    _expect(isinstance(game_id, str), source, "game", 'a game id such as "massilia"', game_id)
    from simlab.core.registry import get_game

    try:
        game = get_game(game_id)
    except SimlabError as exc:
        raise ScenarioError(f"{source}: key 'game': {exc}") from None

    players = data.get("players")
    _expect(
        _is_int(players) and game.min_players <= players <= game.max_players,
        source,
        "players",
        f"an integer from {game.min_players} to {game.max_players} (players of {game.name})",
        players,
    )
    until, tolerance, alpha, settle, futility = _stopping_rule(data, source)
    games = _positive(data.get("max_games" if until else "games"), "max_games" if until else "games", source, MAX_GAMES)
    seed = data.get("seed")
    _expect(_is_int(seed) and seed >= 0, source, "seed", "a non-negative integer (the root seed)", seed)
    chunk_size = _positive(data.get("chunk_size", DEFAULT_CHUNK_SIZE), "chunk_size", source, MAX_CHUNK_SIZE)

    has_bots, has_lineup = "bots" in data, "lineup" in data
    if has_bots == has_lineup:
        found = "both" if has_bots else "neither"
        raise ScenarioError(
            f"{source}: expected exactly one of 'bots' (a bot per seat) or 'lineup' (bots rotated through "
            f"all seats), found {found}"
        )
    seat_key = "lineup" if has_lineup else "bots"
    seats = _bot_list(data[seat_key], seat_key, players, game, source)

    base_preset = data.get("preset")
    if base_preset is not None:
        _string(base_preset, source, "preset")
    base_set = _table(data.get("set", {}), source, "set")
    if "players" in base_set:
        raise ScenarioError(f"{source}: key 'set.players': set the player count with the top-level 'players' key")

    raw_variants = _table(data.get("variants", {}), source, "variants")
    if not raw_variants:
        default = base_preset or game.config_class.DEFAULT_PRESET
        raw_variants = {default: {}}
    problem = _plan_problem(games, chunk_size, len(raw_variants))
    if problem:
        raise ScenarioError(f"{source}: keys '{'max_games' if until else 'games'}' and 'chunk_size': {problem}")
    variants = []
    folded: dict[str, str] = {}
    for vname, vdata in raw_variants.items():
        key = f"variants.{_cut(vname)}"
        _expect(NAME_RE.match(vname) is not None, source, key, "a variant name of letters, digits and _ . + -", vname)
        if vname.casefold() in folded:  # their part files would be one file on a case-insensitive file system
            raise ScenarioError(
                f"{source}: variants '{folded[vname.casefold()]}' and '{vname}' differ only in case; "
                "variant names must be unique ignoring case"
            )
        folded[vname.casefold()] = vname
        vtable = _table(vdata, source, key)
        _check_keys(vtable, VARIANT_KEYS, source, key + ".")
        preset = vtable.get("preset", base_preset)
        if preset is not None:
            _string(preset, source, key + ".preset")
        vset = _table(vtable.get("set", {}), source, key + ".set")
        if "players" in vset:
            raise ScenarioError(
                f"{source}: key '{key}.set.players': variants cannot change the player count "
                f"(all variants play with players = {players}); found players = {_show(vset['players'])}"
            )
        overrides = {**base_set, **vset}
        try:
            config = game.make_config(preset=preset, players=players, overrides=overrides)
        except SimlabError as exc:
            where = f"key '{key}'" if "variants" in data else "keys 'preset' and 'set'"
            raise ScenarioError(f"{source}: {where} (variant '{vname}'): {exc}") from None
        variants.append(
            Variant(
                name=vname,
                preset=preset or game.config_class.DEFAULT_PRESET,
                overrides=overrides,
                config=config,
                description=_string(vtable.get("description", ""), source, key + ".description"),
            )
        )

    fix = _fix_table(data, game, variants, seats, seed, source)

    from simlab.run.content import data_file_record

    try:
        data_files = {v.name: data_file_record(game, v.config) for v in variants}
    except SimlabError as exc:
        raise ScenarioError(f"{source}: {exc}") from None
    return Scenario(
        name=name,
        game=game.name,
        rules_version=game.rules_version,
        players=players,
        games=games,
        seed=seed,
        chunk_size=chunk_size,
        seats=tuple(seats),
        rotate=has_lineup,
        variants=tuple(variants),
        description=description,
        text=text,
        source=source,
        data_files=data_files,
        question=question,
        fix=fix,
        until=until,
        tolerance=tolerance,
        alpha=alpha,
        settle=settle,
        futility=futility,
    )


def _fix_table(data: Mapping[str, Any], game: Any, variants: list[Variant], seats: list[str], seed: int,
               source: str) -> dict[str, Any]:  # fmt: skip
    """The ``[fix]`` table, checked against the published rules (the scenario's one variant) before any game."""
    if "fix" not in data:
        return {}
    if len(variants) != 1:
        raise ScenarioError(
            f"{source}: key 'fix': a fix question starts from one published rules, found {len(variants)} variants "
            f"({', '.join(v.name for v in variants)}); name the published rules with 'preset' and 'set' and drop "
            "the variants"
        )
    from simlab.run.fix_table import fix_question_from_table

    table = _table(data["fix"], source, "fix")
    fix_question_from_table(table, game, variants[0].config, seats, source, seed)
    return table


def _stopping_rule(data: Mapping[str, Any], source: str) -> tuple[str, float, float, str, float]:
    """The keys of a run until settled (``until``, ``tolerance``, ``alpha``, ``max_games``, ``settle``,
    ``futility``), checked: the rule, the tolerance in points of win share, the error rate, the verdicts it waits
    for, the chance of settling below which an open verdict stops its games. Under
    ``until = "settled"`` the cap is ``max_games`` and ``games`` is refused (two game counts would leave the reader
    guessing which one the run plays)."""
    until = data.get("until", "")
    rule_keys = [k for k in ("tolerance", "alpha", "max_games", "settle", "futility") if k in data]
    if "until" not in data:
        if rule_keys:
            raise ScenarioError(
                f"{source}: key '{rule_keys[0]}' belongs to a run until settled; add until = \"settled\" "
                f"(or remove '{rule_keys[0]}': a fixed run plays 'games' per variant)"
            )
        return "", DEFAULT_TOLERANCE_POINTS, DEFAULT_ALPHA, DEFAULT_SETTLE, DEFAULT_FUTILITY
    _expect(until in UNTIL, source, "until", '"settled" (stop when every verdict is settled)', until)
    if "games" in data:
        raise ScenarioError(
            f"{source}: keys 'games' and 'until': a run until settled plays until its verdicts are settled, at "
            "most 'max_games' per variant; write max_games = N instead of games = N"
        )
    if "max_games" not in data:
        raise ScenarioError(
            f"{source}: key 'max_games': expected a positive integer up to {MAX_GAMES:,} (the most games per "
            "variant a run until settled may play), found nothing (the key is missing)"
        )
    points = data.get("tolerance", DEFAULT_TOLERANCE_POINTS)
    _expect(
        isinstance(points, int | float) and not isinstance(points, bool) and 0 < points < 100,
        source,
        "tolerance",
        "the points of win share that matter, a number above 0 and below 100 (e.g. 1.0)",
        points,
    )
    alpha = data.get("alpha", DEFAULT_ALPHA)
    _expect(
        isinstance(alpha, float) and 0 < alpha < 0.5,
        source,
        "alpha",
        "the verdicts' error rate, a number above 0 and below 0.5 (e.g. 0.05)",
        alpha,
    )
    settle = data.get("settle", DEFAULT_SETTLE)
    _expect(
        settle in SETTLE_FAMILIES,
        source,
        "settle",
        '"headline" (wait for each variant\'s equal-seats question and each card) or "every" (also each seat\'s '
        f'share and change); leave it out for "{DEFAULT_SETTLE}"',
        settle,
    )
    futility = data.get("futility", DEFAULT_FUTILITY)
    _expect(
        isinstance(futility, int | float) and not isinstance(futility, bool) and 0 <= futility < 1,
        source,
        "futility",
        "the chance of settling by max_games below which an open verdict stops its games, a number from 0 (never) "
        f"to below 1; leave it out for {DEFAULT_FUTILITY:g}",
        futility,
    )
    return str(until), float(points), float(alpha), str(settle), float(futility)


def replay_settings(game: Any, variant: Variant) -> tuple[str, dict[str, str]]:
    """The preset and ``--set`` values that rebuild a variant's config for ``simlab play``.

    Only fields that differ from the preset are listed, written the way ``--set key=value`` parses them.
    """
    base = game.make_config(preset=variant.preset, players=variant.config.players).as_dict()
    out: dict[str, str] = {}
    for key, value in variant.config.as_dict().items():
        if value != base[key]:
            out[key] = format_value(value)
    return variant.preset, out


def format_value(value: Any) -> str:
    """A config value as ``--set`` text: tuples as ``5,6,7,8``, booleans as ``true``/``false``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple | list):
        return ",".join(format_value(v) for v in value)
    return str(value)


# -- validation helpers -----------------------------------------------------------------------------
def _toml_reason(exc: tomllib.TOMLDecodeError) -> str:
    """tomllib says "Invalid value (at line 3, column 9)"; lead with the line so it is seen first."""
    msg = str(exc)
    m = re.search(r"\(at line (\d+), column (\d+)\)", msg)
    if m:
        reason = msg[: m.start()].strip()
        return f"line {m.group(1)}, column {m.group(2)}: {reason[:1].lower()}{reason[1:]}"
    return msg.replace("(at end of document)", "at the end of the file").strip()


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _plan_problem(games: int, chunk_size: int, variants: int) -> str:
    """Why a run of ``games`` per variant in chunks of ``chunk_size`` cannot be planned ("" if it can)."""
    chunks = -(-games // chunk_size) * max(variants, 1)
    if chunks <= MAX_CHUNKS:
        return ""
    least = -(-games * max(variants, 1) // MAX_CHUNKS)
    return (
        f"{games:,} games x {variants} variant(s) in chunks of {chunk_size:,} are {chunks:,} chunks, more than "
        f"the {MAX_CHUNKS:,} a run can plan; use a chunk size of at least {least:,}"
        + (f" (at most {MAX_CHUNK_SIZE:,}) or fewer games" if least > MAX_CHUNK_SIZE else "")
    )


def _cut(text: str) -> str:
    """``text``, cut to ``SHOW_CHARS`` characters with its length, for messages."""
    return text if len(text) <= SHOW_CHARS else f"{text[:SHOW_CHARS]}... ({len(text):,} characters)"


def _show(value: Any) -> str:
    """A found value the way TOML writes it, with its type when that is the problem (long values are cut)."""
    text = _show_full(value)
    return text if len(text) <= SHOW_CHARS + 20 else f"{text[:SHOW_CHARS]}... ({len(text):,} characters)"


def _show_full(value: Any) -> str:
    if value is None:
        return "nothing (the key is missing)"
    if isinstance(value, bool):
        return f"{str(value).lower()} (a boolean)"
    if _is_int(value):
        return str(value)
    if isinstance(value, float):
        return f"{value!r} (a float)"
    if isinstance(value, str):
        return f"{json.dumps(value)} (a string)"
    if isinstance(value, list):
        return f"{json.dumps(value, default=str)} (an array)"
    if isinstance(value, dict):
        return "a table"
    return f"{value} ({type(value).__name__})"


def _expect(ok: Any, source: str, key: str, expected: str, found: Any) -> None:
    if not ok:
        raise ScenarioError(f"{source}: key '{key}': expected {expected}, found {_show(found)}")


def _positive(value: Any, key: str, source: str, most: int) -> int:
    _expect(_is_int(value) and 0 < value <= most, source, key, f"a positive integer up to {most:,}", value)
    return int(value)


def _string(value: Any, source: str, key: str) -> str:
    _expect(isinstance(value, str), source, key, "a string", value)
    return str(value)


def _table(value: Any, source: str, key: str) -> dict[str, Any]:
    _expect(isinstance(value, dict), source, key, "a table", value)
    return dict(value)


def _check_keys(table: Mapping[str, Any], allowed: tuple[str, ...], source: str, prefix: str) -> None:
    for key in table:
        if key not in allowed:
            raise ScenarioError(f"{source}: unknown key '{prefix}{key}'; expected one of: {', '.join(allowed)}")


def _bot_list(value: Any, key: str, players: int, game: Any, source: str) -> list[str]:
    what = "one bot spec per seat" if key == "bots" else "a lineup of bot specs, one per seat"
    _expect(
        isinstance(value, list) and len(value) == players,
        source,
        key,
        f'an array of {players} strings ({what}, e.g. ["trader", "random", ...])',
        value,
    )
    out = []
    for i, spec in enumerate(value):
        _expect(isinstance(spec, str), source, f"{key}[{i}]", "a bot spec string", spec)
        try:
            bot = game.bots.make(spec)
        except SimlabError as exc:
            raise ScenarioError(f"{source}: key '{key}[{i}]': {exc}") from None
        out.append(str(getattr(bot, "name", spec)))
    return out
