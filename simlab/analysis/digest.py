"""Digests: the small summaries of its rows a worker writes into each part file, merged by the report.

A report of ten million games cannot scan forty million rows as fast as one of ten thousand games scans
forty thousand. But every analysis the report draws from per-variant rows (seat advantage, game length,
margin and decisiveness, the luck decomposition, the score and length distributions, the markets) is a
sum over games of small per-group statistics: counts, sums, ``mean_aggs``, value counts. The worker that
plays a chunk computes those *partials* of its own rows, through the same functions the row scan uses, and
stores them in the part's Parquet metadata (``store.DIGEST_KEY``). A compaction concatenates its parts'
partials; ``load_digest`` merges those of a folder's chunks, and each ``*_from_partial`` function finishes
an analysis from the merged frames exactly as the row scan finishes from its own. A report of a folder
therefore reads a few KB per chunk, whatever the chunk's games.

What a digest cannot give: analyses that pair games across variants (``compare_variants``, card value,
compensation), which read the rows. A folder whose chunks do not all carry a digest of this ``VERSION``
(written by an older simlab, or a kind a chunk could not compute) gets the row scan for that kind.

Format (JSON, under ``store.DIGEST_KEY``): ``{"version": V, "chunks": [[variant, start, stop], ...],
"frames": {kind: base64 of a zlib-compressed Arrow IPC stream}}`` — about 10 KB a chunk. A compacted file
holds its parts' partials merged, so its footer stays that small. Files merge in name order (variant, then
start): the same files give the same report whatever the number of workers; a compaction regroups the sums,
which moves results by rounding only.
"""

from __future__ import annotations

import base64
import io
import json
import zlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polars as pl

from simlab.analysis.frames import AnalysisError
from simlab.analysis.market_pass import market_partial, merge_market_partials
from simlab.analysis.markets import ITEMS_FRAME_ALIASES
from simlab.analysis.metrics import game_metrics_partial, merge_game_metrics
from simlab.analysis.paired import win_masks
from simlab.analysis.score_distribution import cluster_partial, histogram_partial, merge_clusters, merge_histogram
from simlab.analysis.seats import SEAT_COLUMNS, merge_seat_sums, merge_split_products, seat_partial
from simlab.analysis.variance import merge_variance, merge_variance_games, variance_games_partial, variance_partial

#: bump when a partial's definition changes: older digests are then ignored (the report scans the rows)
VERSION = 3  # 2: game-clustered sums (score_clusters; the yields' per-game sums); 3: first_sq of collapses
#: the histogram bins a digest keeps (integer scores and turns); a report's wider bins merge from them
BIN_WIDTH = 1.0
MARKET = "market."


def chunk_partials(rows: pl.DataFrame) -> dict[str, pl.DataFrame]:
    """Every partial these rows (one chunk: one variant, consecutive games) support, by kind; none for no rows
    (a chunk whose games all failed adds nothing, so it stands in for every kind)."""
    out: dict[str, pl.DataFrame] = {}
    if rows.height == 0:
        return out
    cols = set(rows.columns)

    def add(kinds: tuple[str, ...], compute: Callable[[], Any]) -> None:
        try:
            got = compute()
        except AnalysisError:  # a game without the columns this analysis needs
            return
        if got is None:
            return
        out.update(zip(kinds, got if isinstance(got, tuple) else (got,), strict=True))

    if set(SEAT_COLUMNS) <= cols:
        add(("seats", "splits"), lambda: seat_partial(rows))
        add(("metrics",), lambda: game_metrics_partial(rows))
    if "bot" in cols:
        add(("variance",), lambda: variance_partial(rows))
        add(("variance_games",), lambda: variance_games_partial(rows))
        out["bots"] = (
            rows.select(pl.col("variant").cast(pl.String), pl.col("bot").cast(pl.String))
            .unique()
            .sort("variant", "bot")
        )
    if {"variant", "game", "seat", "win_share"} <= cols:
        add(("wins",), lambda: win_masks(rows))
    add(("score_bins",), lambda: histogram_partial(rows, "score", BIN_WIDTH))
    add(("turns_bins",), lambda: histogram_partial(rows, "turns", BIN_WIDTH, per_game=True))
    add(("score_clusters",), lambda: cluster_partial(rows, "score"))
    market = market_partial(rows)
    if market is not None:
        out.update({MARKET + k: v for k, v in market.items()})
    return out


def encode(variant: str, start: int, stop: int, frames: dict[str, pl.DataFrame]) -> bytes:
    """A chunk's digest as the JSON stored in its part file's metadata."""
    return _dump([[variant, start, stop]], frames)


def _dump(chunks: list[list[Any]], frames: dict[str, pl.DataFrame]) -> bytes:
    encoded = {}
    for kind, df in frames.items():
        buf = io.BytesIO()
        df.write_ipc_stream(buf, compression="uncompressed")  # zlib below: 5-8x smaller than IPC's own zstd here
        encoded[kind] = base64.b64encode(zlib.compress(buf.getvalue(), 6)).decode("ascii")
    return json.dumps({"version": VERSION, "chunks": chunks, "frames": encoded}).encode()


@dataclass
class _FileDigest:
    chunks: list[tuple[str, int, int]]
    frames: dict[str, str]  # kind -> base64 IPC stream, decoded when a kind is asked for


def _only(df: pl.DataFrame, variants: tuple[str, ...]) -> pl.DataFrame:
    """The rows of those variants (a frame without a variant column is the same for all)."""
    return df.filter(pl.col("variant").is_in(variants)) if "variant" in df.columns else df


def _parse(raw: bytes | None) -> _FileDigest | None:
    """A file's digest, or None if it has none of this version (an older simlab's, or damaged)."""
    if not raw:
        return None
    try:
        d = json.loads(raw)
        if d.get("version") != VERSION:
            return None
        frames = {_current_kind(str(k)): v for k, v in dict(d["frames"]).items()}
        return _FileDigest([(str(v), int(a), int(b)) for v, a, b in d["chunks"]], frames)
    except (ValueError, KeyError, TypeError):
        return None


def _current_kind(kind: str) -> str:
    """A partial's kind under its current name: an older digest's ``market.colours`` is ``market.items``."""
    if kind.startswith(MARKET):
        return MARKET + ITEMS_FRAME_ALIASES.get(kind.removeprefix(MARKET), kind.removeprefix(MARKET))
    return kind


def has_current(raw: bytes | None) -> bool:
    """Whether a file's metadata value is a digest of this version."""
    return _parse(raw) is not None


def _decode(text: str) -> pl.DataFrame:
    return pl.read_ipc_stream(io.BytesIO(zlib.decompress(base64.b64decode(text))))


def combine(raws: Iterable[bytes | None]) -> bytes | None:
    """The digest of a compacted file: those of the files it merges, merged (so a compacted file's footer
    stays a few KB), or None if one of them has none."""
    parsed = [_parse(r) for r in raws]
    if not parsed or any(p is None for p in parsed):
        return None
    files = [p for p in parsed if p is not None]
    frames = merge_partials([{k: _decode(v) for k, v in p.frames.items()} for p in files])
    return _dump([list(c) for p in files for c in p.chunks], frames)


def merge_partials(parts: list[dict[str, pl.DataFrame]]) -> dict[str, pl.DataFrame]:
    """The partials of disjoint sets of games (each as ``chunk_partials`` gives them) merged into those of
    all of them. A kind stays only if every non-empty set has it (a set of no rows adds nothing)."""
    parts = [p for p in parts if p]
    if not parts:
        return {}
    kinds = set.intersection(*(set(p) for p in parts))
    frames = {
        k: MERGE[k](pl.concat([p[k] for p in parts], how="diagonal_relaxed"))
        for k in sorted(kinds)
        if not k.startswith(MARKET)
    }
    market = sorted(k for k in kinds if k.startswith(MARKET))
    if market:
        merged = merge_market_partials([{k.removeprefix(MARKET): p[k] for k in market} for p in parts])
        frames |= {MARKET + k: v for k, v in merged.items()}
    return frames


def encode_file(chunks: list[tuple[str, int, int]], frames: dict[str, pl.DataFrame]) -> bytes:
    """The digest of a file holding ``chunks`` whose merged partials are ``frames``."""
    return _dump([list(c) for c in chunks], frames)


#: how the concatenated partials of one kind merge into those of all their games
MERGE: dict[str, Callable[[pl.DataFrame], pl.DataFrame]] = {
    "seats": merge_seat_sums,
    "splits": merge_split_products,
    "metrics": merge_game_metrics,
    "variance": merge_variance,
    "variance_games": merge_variance_games,
    "bots": lambda df: df.unique().sort("variant", "bot"),
    "wins": lambda df: df,  # a byte per game: kept, not summed (games pair across variants)
    "score_bins": merge_histogram,
    "turns_bins": merge_histogram,
    "score_clusters": merge_clusters,  # a digest without it (older simlab): the report scans for those sums
}


@dataclass
class Digest:
    """The merged digests of a result folder's chunks: ``partial(kind, variants)`` gives a kind's frame
    merged over the chunks of those variants, or None if some chunk lacks it (then scan the rows)."""

    files: list[_FileDigest]
    _cache: dict[tuple[str, tuple[str, ...]], Any] = field(default_factory=dict)

    def _concat(self, kind: str, variants: tuple[str, ...]) -> pl.DataFrame | None:
        mine = self._files(variants)
        if not mine or any(kind not in f.frames for f in mine):
            return None
        return _only(pl.concat([_decode(f.frames[kind]) for f in mine], how="diagonal_relaxed"), variants)

    def partial(self, kind: str, variants: Iterable[str]) -> Any:
        """The merged partial of ``kind`` (a frame, or the dict of market frames for ``"market"``)."""
        key = (kind, tuple(sorted(variants)))
        if key not in self._cache:
            self._cache[key] = self._market(key[1]) if kind == "market" else self._merged(kind, key[1])
        return self._cache[key]

    def _merged(self, kind: str, variants: tuple[str, ...]) -> pl.DataFrame | None:
        df = self._concat(kind, variants)
        return None if df is None else MERGE[kind](df)

    def _market(self, variants: tuple[str, ...]) -> dict[str, pl.DataFrame] | None:
        mine = self._files(variants)
        kinds = sorted({k for f in mine for k in f.frames if k.startswith(MARKET)})
        if not mine or not kinds or any(k not in f.frames for f in mine for k in kinds):
            return None
        return merge_market_partials(
            [{k.removeprefix(MARKET): _only(_decode(f.frames[k]), variants) for k in kinds} for f in mine]
        )

    def _files(self, variants: tuple[str, ...]) -> list[_FileDigest]:
        """The files holding those variants' chunks (but files of empty chunks, which add nothing)."""
        return [f for f in self.files if f.frames and any(c[0] in variants for c in f.chunks)]

    def bots(self, variants: Iterable[str]) -> str:
        """The bots of those variants' rows, comma-separated (as ``frames.bots_label``), or "" if unknown."""
        df = self.partial("bots", variants)
        return "" if df is None else ", ".join(sorted(set(df["bot"].drop_nulls().to_list())))


def load_digest(folder: str | Path) -> Digest | None:
    """The digests of a result folder, if every file has one of this version covering exactly the chunks
    its records list, else None (then the rows must be scanned). Reads only the part files' footers."""
    from simlab.run.folder_check import digest_parts

    parts = digest_parts(Path(folder))  # the run's own parts, footers checked against the manifest's record
    if parts is None:
        return None
    files = []
    for part in parts:
        parsed = _parse(part.digest)
        chunks = sorted((str(r["variant"]), int(r["start"]), int(r["stop"])) for r in part.records)
        if parsed is None or sorted(parsed.chunks) != chunks:
            return None
        files.append(parsed)
    return Digest(files)


__all__ = [
    "VERSION",
    "Digest",
    "chunk_partials",
    "combine",
    "encode",
    "encode_file",
    "has_current",
    "load_digest",
    "merge_partials",
]


class Digests:
    """simlab's digest hook (``simlab.run.digest_hook``): ``simlab.run_scenario`` and the CLI hand
    its name, :data:`TARGET`, to every run, whose workers and compactions load it by that name."""

    def of_chunk(self, table: Any, variant: str, start: int, stop: int) -> bytes:
        rows = pl.from_arrow(table)
        assert isinstance(rows, pl.DataFrame)
        return encode(variant, start, stop, chunk_partials(rows))

    def combine(self, blobs: list[bytes]) -> bytes | None:
        return combine(blobs)


DIGESTS = Digests()
#: the hook's "module:attr", what a run is handed
TARGET = f"{__name__}:DIGESTS"
