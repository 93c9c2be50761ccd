"""The digest of a result file from its rows: what ``simlab digest`` adds to a folder written before runs wrote
digests. Pure: row groups in, the digest's bytes out; reading and rewriting the file is
``simlab.experiments.backfill``'s job (analysis writes no result folder, tests/test_layers.py).
"""

from __future__ import annotations

from collections.abc import Iterable

import polars as pl

from simlab.analysis import digest


def file_digest(row_groups: Iterable[pl.DataFrame], chunks: Iterable[tuple[str, int, int]]) -> bytes:
    """The digest of a file whose row groups, in file order, are ``row_groups`` and whose chunk records are
    ``chunks`` (variant, start, stop): the partials of each row group's games, merged in order. A part's one
    row group is its chunk, so a part gets the bytes its worker would have written; a compacted file gets its
    chunks' partials summed in other groups, which moves them by rounding only. Rows of a game cut by a row
    group's end wait for the next group. The row groups are read one at a time (a file may be large)."""
    partials = []
    carry: pl.DataFrame | None = None
    groups = iter(row_groups)
    batch = next(groups, None)
    while batch is not None:
        following = next(groups, None)
        if carry is not None:
            batch = pl.concat([carry, batch])
        if following is not None and batch.height:
            last = batch["game"][-1]
            carry, batch = batch.filter(pl.col("game") == last), batch.filter(pl.col("game") != last)
        partials.append(digest.chunk_partials(batch))
        batch = following
    frames = partials[0] if len(partials) == 1 else digest.merge_partials(partials)  # one: as its worker wrote it
    return digest.encode_file(sorted(chunks), frames)
