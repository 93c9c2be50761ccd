"""Reads one JSON data table and checks every row against a schema, so a designer's edited file fails with a
message naming the file, the row, the field and what is allowed, never with a KeyError deep in the engine.

A table file is ``{"table": <kind>, "description": ..., "rows": [{field: value, ...}, ...]}``. Every row has a
``provenance`` ("rulebook" / "derived" / "placeholder"), may override it per field with ``field_provenance``
({field: provenance}) and may carry a free-text ``note``.
"""

from __future__ import annotations

import dataclasses
import types
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from simlab.core.datafile import read_json
from simlab.core.errors import DataFileError

PROVENANCES = ("rulebook", "derived", "placeholder")
#: fields every row may carry besides its schema's
COMMON_FIELDS = ("provenance", "field_provenance", "note")


@dataclasses.dataclass(frozen=True)
class Field:
    """One column of a table: its check (true if the value is allowed) and what to tell the designer."""

    check: Callable[[Any], bool]
    allowed: str
    required: bool = True


def integer(lo: int, hi: int) -> Field:
    return Field(lambda v: type(v) is int and lo <= v <= hi, f"an integer from {lo} to {hi}")


def one_of(*names: str | None) -> Field:
    shown = ", ".join("null" if n is None else repr(n) for n in names)
    return Field(lambda v: v in names and (v is None or isinstance(v, str)), f"one of {shown}")


def boolean() -> Field:
    return Field(lambda v: type(v) is bool, "true or false")


def text() -> Field:
    return Field(lambda v: isinstance(v, str) and v != "", "a non-empty string")


def integer_list(min_len: int, max_len: int, lo: int, hi: int) -> Field:
    def ok(v: Any) -> bool:
        return isinstance(v, list) and min_len <= len(v) <= max_len and all(type(x) is int and lo <= x <= hi for x in v)

    return Field(ok, f"a list of {min_len} to {max_len} integers from {lo} to {hi}")


@dataclasses.dataclass(frozen=True)
class Table:
    """A checked table: its rows (read-only mappings, in file order) and the file they came from."""

    path: Path
    kind: str
    rows: tuple[Mapping[str, Any], ...]

    def provenance(self, row: int, field: str | None = None) -> str:
        """The provenance of a row, or of one field of it (a ``field_provenance`` entry overrides the row's)."""
        r = self.rows[row]
        if field is not None and field in r.get("field_provenance", {}):
            return r["field_provenance"][field]
        return r["provenance"]


def fail(path: Path, where: str, what: str) -> DataFileError:
    """The one error format of data files: file, place, what is wrong and what is allowed."""
    return DataFileError(f"{path}: {where}: {what}")


def row_label(i: int, row: Mapping[str, Any], key: str | None) -> str:
    if key is not None and isinstance(row, Mapping) and key in row:
        return f"row {i} ({key}={row[key]!r})"
    return f"row {i}"


def load_table(path: str | Path, kind: str, schema: Mapping[str, Field], key: str | None = None) -> Table:
    """Read ``path`` and check it is a ``kind`` table whose rows all fit ``schema``; ``key`` names the field
    that identifies a row in error messages."""
    path = Path(path)
    if not path.exists() and not path.is_symlink():
        raise fail(path, "file", "not found; give an existing table file or a bundled table name")
    doc = read_json(path, f"{kind} table")  # bounded: no folder, FIFO or device; UTF-8 JSON, nested at most 64
    if not isinstance(doc, dict) or not isinstance(doc.get("rows"), list):
        raise fail(path, "top level", 'expected an object {"table": ..., "rows": [...]}')
    if doc.get("table") != kind:
        raise fail(path, "field 'table'", f"got {doc.get('table')!r}; expected {kind!r} (is this the right file?)")
    rows = doc["rows"]
    if not rows:
        raise fail(path, "field 'rows'", "empty; a table needs at least one row")
    for i, row in enumerate(rows):
        label = row_label(i, row, key)
        if not isinstance(row, dict):
            raise fail(path, label, "expected an object of fields")
        check_row(path, label, row, schema)
    return Table(path, kind, tuple(types.MappingProxyType(row) for row in rows))


def check_row(path: Path, label: str, row: Mapping[str, Any], schema: Mapping[str, Field]) -> None:
    allowed_fields = (*schema, *COMMON_FIELDS)
    for name in row:
        if name not in allowed_fields:
            raise fail(path, label, f"unknown field {name!r}; allowed fields: {', '.join(allowed_fields)}")
    for name, spec in schema.items():
        if name not in row:
            if spec.required:
                raise fail(path, label, f"missing field {name!r} ({spec.allowed})")
            continue
        if not spec.check(row[name]):
            raise fail(path, f"{label}, field {name!r}", f"got {row[name]!r}; allowed: {spec.allowed}")
    if "provenance" not in row:
        raise fail(path, label, f"missing field 'provenance' (one of {', '.join(PROVENANCES)})")
    if row["provenance"] not in PROVENANCES:
        raise fail(
            path, f"{label}, field 'provenance'", f"got {row['provenance']!r}; allowed: {', '.join(PROVENANCES)}"
        )
    overrides = row.get("field_provenance", {})
    if not isinstance(overrides, dict):
        raise fail(path, f"{label}, field 'field_provenance'", "expected an object {field: provenance}")
    for name, prov in overrides.items():
        if name not in schema:
            raise fail(path, f"{label}, field 'field_provenance'", f"names unknown field {name!r}")
        if prov not in PROVENANCES:
            raise fail(
                path, f"{label}, field 'field_provenance.{name}'", f"got {prov!r}; allowed: {', '.join(PROVENANCES)}"
            )
