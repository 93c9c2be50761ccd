"""One file of parts/ as its footer describes it: the chunk records it holds, read without reading its rows."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from simlab.run.errors import ResultFolderError
from simlab.run.folder_layout import CHUNKS_KEY, COMPACTED_FILE, DIGEST_KEY, FILE_KEY, META_KEY, PART_FILE, PART_RE


@dataclass
class PartFile:
    """One Parquet file under parts/: a part (one chunk record) or a compacted file (the records it merged)."""

    path: Path
    variant: str
    start: int  # from the file name: games start..stop-1
    stop: int
    records: list[dict[str, Any]]
    compacted: bool
    schema: Any  # the pyarrow schema without its metadata
    digest: bytes | None = None  # its chunks' analysis partials, carried over by a compaction
    rows: int | None = None  # the number of rows its Parquet footer says it holds

    @property
    def games(self) -> int:
        return self.stop - self.start


def file_records(meta: dict[bytes, bytes]) -> tuple[list[dict[str, Any]], bool]:
    """The chunk records in a file's Parquet metadata, and whether it is a compacted file."""
    kind = meta.get(FILE_KEY, PART_FILE)
    if kind == PART_FILE:
        record = json.loads(meta[META_KEY])
        if not isinstance(record, dict):
            raise ValueError(f"{META_KEY.decode()} holds no chunk record")
        return [record], False
    if kind == COMPACTED_FILE:
        records = json.loads(meta[CHUNKS_KEY])
        if not isinstance(records, list) or not records or not all(isinstance(r, dict) for r in records):
            raise ValueError(f"{CHUNKS_KEY.decode()} holds no list of chunk records")
        return records, True
    raise ValueError(f"unknown simlab file format {kind.decode(errors='replace')!r} (written by a newer simlab?)")


def read_part_file(path: Path, name: str | None = None) -> PartFile:
    """A file of parts/ with its chunk records (only its footer is read); ``name``: the part name it is to have
    (a temporary file's), if not its own."""
    import pyarrow.parquet as pq

    m = PART_RE.match(name or path.name)
    if not m:
        raise ResultFolderError(f"{path} is not a simlab part file name; move it out of {path.parent}")
    try:
        metadata = pq.read_metadata(path)
        schema = metadata.schema.to_arrow_schema()
        records, compacted = file_records(schema.metadata or {})
    except (OSError, KeyError, ValueError, TypeError) as exc:
        raise ResultFolderError(
            f"{path} is unreadable or not a simlab part ({exc}); delete it and run again with --resume"
        ) from None
    return PartFile(
        path,
        m["variant"],
        int(m["start"]),
        int(m["stop"]),
        records,
        compacted,
        schema.remove_metadata(),
        (schema.metadata or {}).get(DIGEST_KEY),
        metadata.num_rows,
    )


def split_leftovers(files: list[PartFile]) -> tuple[list[PartFile], list[PartFile]]:
    """(files to keep, leftovers): a leftover lies inside another file's range and all its records are in it.

    Leftovers are what a compaction killed between writing its merged file and deleting the merged parts
    leaves. A file that overlaps another without being part of it is kept (the overlap check refuses it).
    """

    def key(record: dict[str, Any]) -> str:
        return json.dumps(record, sort_keys=True)

    keep, leftovers = [], []
    by_variant: dict[str, list[PartFile]] = {}
    for f in files:
        by_variant.setdefault(f.variant, []).append(f)
    left_ids = set()
    for group in by_variant.values():
        group.sort(key=lambda f: (f.start, -f.stop, -len(f.records)))
        cover: PartFile | None = None
        cover_keys: set[str] = set()
        for f in group:
            if cover is not None and f.stop <= cover.stop and all(key(r) in cover_keys for r in f.records):
                left_ids.add(id(f))
                continue
            if cover is None or f.stop > cover.stop:
                cover, cover_keys = f, {key(r) for r in f.records}
    for f in files:
        (leftovers if id(f) in left_ids else keep).append(f)
    return keep, leftovers
