"""Frozen, typed game configs: every rule number is a field with its provenance.

A game's config is a frozen dataclass whose fields are declared with :func:`knob`, which records where
the default comes from (``rulebook``, ``derived``, ``assumption``, ``placeholder`` or ``intervention``) and a one-line
description. :class:`GameConfig` gives every game the same tools: presets, ``key=value`` overrides with
type checking, validation messages that say what is allowed, a stable hash for result rows, and a
provenance table for reports.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Callable, Iterable, Mapping
from typing import Any, ClassVar, Self, get_args, get_origin, get_type_hints

from simlab.core.errors import ConfigError
from simlab.core.suggest import unknown_name

#: where a knob's default comes from; ``intervention``: an experiment knob (a grant, an offset) whose default
#: changes nothing: turned by an intervention design, never a reading of the rules or unknown data
SOURCES = ("rulebook", "derived", "assumption", "placeholder", "intervention")

#: one end of a knob's range: a number, None (no bound) or a function of the config (another knob's value)
Bound = int | float | Callable[[Any], int | float] | None


def knob(
    default: Any,
    source: str,
    doc: str,
    *,
    record: str | None = "",
    choices: tuple[Any, ...] = (),
    hash_default: bool = True,
    range: tuple[Bound, Bound] | None = None,
    also: tuple[Any, ...] = (),
) -> Any:
    """Declare a config field with its default, provenance and description.

    ``record`` says where the compiled rules read it (``simlab.core.record.config_record``): "" the
    config-record field of the same name, a string another field's name, None a value the game's
    ``derive_config`` computes from it. ``choices`` lists the values a knob naming one of a few things may
    take (for listings and the knob contract test; the config's ``validate`` checks them).
    ``hash_default=False`` leaves the field out of the config hash while it holds its default: a knob added
    to a released game that way changes no existing config hash (result folders, golden transcripts).
    ``range=(lo, hi)`` bounds a number (each entry of a list knob), both ends included; an end is a number,
    None (unbounded) or a function of the config (a bound set by another knob, e.g. ``lambda c: c.price_max``);
    ``also`` lists values allowed outside the range (sentinels such as -1: nobody). Every config enforces its
    knobs' ranges after ``validate()`` (so a game's own, more specific message comes first), and
    ``simlab config`` shows them: a range shown is a range enforced.
    """
    if source not in SOURCES:
        raise ValueError(f"source must be one of {SOURCES}, got {source!r}")
    meta = {"source": source, "doc": doc, "record": record, "choices": tuple(choices)}
    if range is not None:
        meta["range"] = tuple(range)
        meta["also"] = tuple(also)
    if not hash_default:
        meta["hash_default"] = False
    return dataclasses.field(default=default, metadata=meta)


def not_modelled(doc: str) -> Any:
    """A named gap: a part of the printed game the engine leaves out, declared as a flag that must stay False.

    A gap is a config field and a line in the game's docs, never a silent shortcut: the flag shows the gap in
    ``simlab config`` and the provenance tables, and setting it is a clear error rather than a run that
    quietly plays without the part. It never enters the config hash or the config record.
    """
    meta = {"source": "assumption", "doc": doc, "record": None, "choices": (False,), "hash_default": False}
    return dataclasses.field(default=False, metadata={**meta, "not_modelled": True})


@dataclasses.dataclass(frozen=True)
class GameConfig:
    """Base of every game config. Subclasses add fields with :func:`knob` and a ``PRESETS`` mapping."""

    PRESETS: ClassVar[Mapping[str, Mapping[str, Any]]] = {}
    DEFAULT_PRESET: ClassVar[str] = "default"
    #: old preset names that still work (scenarios, ``--preset``) -> the preset's name today: every game calls
    #: the published rules ``rulebook``
    PRESET_ALIASES: ClassVar[Mapping[str, str]] = {}
    #: the id of the game this config belongs to (set by ``Game``): errors say ``simlab config <game>``
    GAME_ID: ClassVar[str] = ""
    #: knobs the compiled rules never read (used only in Python), each with the reason
    PYTHON_ONLY: ClassVar[Mapping[str, str]] = {}
    players: int = knob(4, "rulebook", "number of players")

    def __post_init__(self) -> None:
        hints = get_type_hints(type(self))
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            object.__setattr__(self, f.name, _coerce(f.name, value, hints[f.name]))
        for f in dataclasses.fields(self):
            if f.metadata.get("not_modelled") and getattr(self, f.name):
                raise ConfigError(f"{f.name} is not modelled ({f.metadata['doc']}); leave it false")
        self.validate()
        for f in dataclasses.fields(self):
            if "range" in f.metadata:
                _check_range(f, self)

    # -- hooks ---------------------------------------------------------------------------------
    def validate(self) -> None:
        """Raise ConfigError if the combination of values is invalid (subclasses extend)."""

    # -- construction ----------------------------------------------------------------------------
    @classmethod
    def field_names(cls) -> list[str]:
        return [f.name for f in dataclasses.fields(cls)]

    @classmethod
    def preset_name(cls, preset: str | None = None) -> str:
        """The preset's name today: ``preset`` itself, the one an old name (``PRESET_ALIASES``) stands for, or the
        default preset; ConfigError naming the closest presets for an unknown one."""
        name = preset or cls.DEFAULT_PRESET
        name = cls.PRESET_ALIASES.get(name, name)
        if name not in cls.PRESETS:
            raise ConfigError(unknown_name("preset", name, list(cls.PRESETS), where=cls._for_game()))
        return name

    @classmethod
    def _for_game(cls) -> str:
        return f" for game {cls.GAME_ID!r}" if cls.GAME_ID else ""

    @classmethod
    def from_preset(cls, preset: str | None = None, overrides: Mapping[str, Any] | None = None, **kwargs: Any) -> Self:
        """Build a config from a named preset (or an old name of one), then ``overrides`` (values or strings),
        then kwargs."""
        values: dict[str, Any] = dict(cls.PRESETS[cls.preset_name(preset)])
        for key, value in {**(overrides or {}), **kwargs}.items():
            values[key] = value
        return cls.from_mapping(values)

    @classmethod
    def from_mapping(cls, values: Mapping[str, Any]) -> Self:
        known = cls.field_names()
        unknown = [k for k in values if k not in set(known)]
        if unknown:
            lister = f"simlab config {cls.GAME_ID}" if cls.GAME_ID else ""
            message = unknown_name("config key", unknown[0], known, lister, where=cls._for_game())
            more = f" (also unknown: {', '.join(map(repr, unknown[1:]))})" if unknown[1:] else ""
            raise ConfigError(message + more)
        return cls(**values)

    def replace(self, **changes: Any) -> Self:
        return self.from_mapping({**self.as_dict(), **changes})

    # -- description ---------------------------------------------------------------------------
    def as_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}

    def config_hash(self) -> str:
        """A stable 16-hex-digit hash of the class name and every field value (a field declared with
        ``hash_default=False`` only when it differs from its default)."""
        values = {
            f.name: getattr(self, f.name)
            for f in dataclasses.fields(self)
            if f.metadata.get("hash_default", True) or getattr(self, f.name) != f.default
        }
        text = json.dumps([type(self).__name__, values], sort_keys=True, default=list)
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    @classmethod
    def provenance(cls) -> list[dict[str, Any]]:
        """One entry per field: name, default, source and description (for docs and report flags)."""
        out = []
        for f in dataclasses.fields(cls):
            out.append(
                {
                    "name": f.name,
                    "default": f.default,
                    "source": f.metadata.get("source", "rulebook"),
                    "doc": f.metadata.get("doc", ""),
                }
            )
        return out


def allowed_text(row: Mapping[str, Any]) -> str:
    """What a listing adds to a knob's description (a :func:`knob_table` row): a named gap, or its choices."""
    if row["not_modelled"]:
        return "; not modelled: must stay false"
    if row["choices"]:
        return f"; one of {', '.join(map(str, row['choices']))}"
    return ""


def type_name(hint: Any) -> str:
    """A field's type as a listing shows it: ``int``, ``bool``, ``list of int`` (a tuple: one value per seat...)."""
    if get_origin(hint) is tuple:
        return f"list of {type_name(get_args(hint)[0])}"
    return getattr(hint, "__name__", str(hint))


def knob_table(config_class: type[GameConfig], preset: str | None = None, players: int | None = None) -> list[dict]:
    """Every knob of a game's config: name, value (the preset's; the default without a preset), default, type,
    provenance (``source``), description, allowed ``choices``, the ``range`` its values must lie in (as text,
    under this config: ``2..4``, ``>= 0``, ``-1 or 0..3``; None without one) and whether the value differs from
    the default (``changed``), and whether it is a named gap that must stay false (``not_modelled``).

    What ``simlab config GAME [--preset P] [--json]`` prints; values are JSON-ready (tuples as lists).
    """
    extra = {"players": players} if players is not None else None
    config = config_class.from_preset(preset, extra)
    hints = get_type_hints(config_class)
    rows = []
    for f in dataclasses.fields(config_class):
        value = getattr(config, f.name)
        rows.append(
            {
                "name": f.name,
                "value": _jsonable(value),
                "default": _jsonable(f.default),
                "type": type_name(hints[f.name]),
                "source": f.metadata.get("source", "rulebook"),
                "doc": f.metadata.get("doc", ""),
                "choices": [_jsonable(c) for c in f.metadata.get("choices", ())],
                "range": range_text(f, config) or None,
                "changed": value != f.default,
                "not_modelled": bool(f.metadata.get("not_modelled")),
            }
        )
    return rows


def knob_range(f: dataclasses.Field, config: GameConfig) -> tuple[float | None, float | None] | None:
    """The (lo, hi) a knob's values must lie in under ``config`` (ends that are functions evaluated), or None."""
    if "range" not in f.metadata:
        return None
    lo, hi = (end(config) if callable(end) else end for end in f.metadata["range"])
    return lo, hi


def range_text(f: dataclasses.Field, config: GameConfig) -> str:
    """A knob's range as the listing and the error message say it: ``2..4``, ``>= 0``, ``-1 or >= 1``."""
    bounds = knob_range(f, config)
    if bounds is None:
        return ""
    lo, hi = bounds
    if lo is not None and hi is not None:
        text = f"{lo}" if lo == hi else f"{lo}..{hi}"
    elif lo is not None:
        text = f">= {lo}"
    elif hi is not None:
        text = f"<= {hi}"
    else:
        text = "any number"
    also = f.metadata.get("also", ())
    return " or ".join([*(str(v) for v in also), text])


def _check_range(f: dataclasses.Field, config: GameConfig) -> None:
    value = getattr(config, f.name)
    lo, hi = knob_range(f, config)  # type: ignore[misc]
    also = f.metadata.get("also", ())
    for item in value if isinstance(value, tuple) else (value,):
        if item in also or ((lo is None or item >= lo) and (hi is None or item <= hi)):
            continue
        what = f"{f.name} values" if isinstance(value, tuple) else f.name
        shown = ",".join(map(str, value)) if isinstance(value, tuple) else value
        raise ConfigError(f"{what} must be {range_text(f, config)}, got {shown}")


def _jsonable(value: Any) -> Any:
    if isinstance(value, tuple | list):
        return [_jsonable(v) for v in value]
    return value


def parse_overrides(pairs: Iterable[str]) -> dict[str, str]:
    """Turn ``["key=value", ...]`` into a dict of strings (values are coerced by the config)."""
    out: dict[str, str] = {}
    for pair in pairs:
        if "=" not in pair:
            raise ConfigError(f"override {pair!r} must look like key=value (e.g. start_money=5,6,7,8)")
        key, value = pair.split("=", 1)
        out[key.strip()] = value.strip()
    return out


def _coerce(name: str, value: Any, hint: Any) -> Any:
    """Convert strings and lists to the declared type; reject anything else with a clear message."""
    origin = get_origin(hint)
    if origin is tuple:
        (inner, *_rest) = get_args(hint)
        if isinstance(value, str):
            items: list[Any] = [v for v in value.replace(" ", "").split(",") if v != ""]
        elif isinstance(value, list | tuple):
            items = list(value)
        else:
            raise ConfigError(f"config {name}: expected a list of {inner.__name__}, got {value!r}")
        return tuple(_coerce(name, item, inner) for item in items)
    if hint is bool:
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.lower() in ("true", "1", "yes", "false", "0", "no"):
            return value.lower() in ("true", "1", "yes")
        raise ConfigError(f"config {name}: expected true or false, got {value!r}")
    if hint is int:
        if isinstance(value, bool):
            raise ConfigError(f"config {name}: expected an integer, got {value!r}")
        if isinstance(value, int):
            return value
        if isinstance(value, str):
            try:
                return int(value)
            except ValueError:
                pass
        raise ConfigError(f"config {name}: expected an integer, got {value!r}")
    if hint is float:
        if isinstance(value, int | float) and not isinstance(value, bool):
            return float(value)
        if isinstance(value, str):
            try:
                return float(value)
            except ValueError:
                pass
        raise ConfigError(f"config {name}: expected a number, got {value!r}")
    if hint is str:
        if isinstance(value, str):
            return value
        raise ConfigError(f"config {name}: expected a string, got {value!r}")
    return value


def require(condition: bool, message: str) -> None:
    """Raise ConfigError(message) unless condition holds (keeps validate() methods short)."""
    if not condition:
        raise ConfigError(message)
