"""Make a large result folder from a small one by repeating its games, to time analyses at scale.

    python docs/scaling/replicate.py SMALL_FOLDER BIG_FOLDER FACTOR

Every variant's games 0..g-1 are written FACTOR times as games k*g .. (k+1)*g-1, with distinct seeds, into
part files of the same layout, and the manifest is copied with the bigger game count. The rows are copies,
so the folder has the size, columns and compressed bytes of a real run FACTOR times longer — what an
analysis's time and memory depend on — but no new information: use it to time analyses, never to read
results from. (Playing 10 million Massilia games takes over an hour on 2 cores; this takes minutes.)
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from simlab.run.store import META_KEY

PER_FILE = 1  # copies per part file: 1 writes the files (count, size, compression) a real run would


def replicate(small: Path, big: Path, factor: int) -> None:
    manifest = json.loads((small / "manifest.json").read_text())
    games = manifest["games"]
    (big / "parts").mkdir(parents=True, exist_ok=True)
    for part in sorted((small / "parts").glob("*.parquet")):
        table = pq.read_table(part)
        variant = table["variant"][0].as_py()
        start = pc.min(table["game"]).as_py()
        stop = pc.max(table["game"]).as_py() + 1
        for k0 in range(0, factor, PER_FILE):
            copies = []
            for k in range(k0, min(k0 + PER_FILE, factor)):
                game = pc.add(table["game"], pa.scalar(k * games, pa.int64()))
                seed = pc.bit_wise_and(
                    pc.add(table["seed"], pa.scalar(k * 7919, pa.int64())), pa.scalar(2**63 - 1, pa.int64())
                )
                t = table.set_column(table.schema.get_field_index("game"), "game", game)
                copies.append(t.set_column(t.schema.get_field_index("seed"), "seed", seed))
            last = min(k0 + PER_FILE, factor) - 1
            first_game, end_game = k0 * games + start, last * games + stop
            name = f"{variant}__{first_game:010d}-{end_game:010d}.parquet"
            out = pa.concat_tables(copies)
            pq.write_table(
                out.replace_schema_metadata(_chunk_meta(out, name, first_game, end_game)),
                big / "parts" / name,
                compression="zstd",
            )
    manifest["games"] = games * factor
    manifest["games_done"] = manifest["games_done"] * factor
    manifest["games_target"] = manifest["games_target"] * factor
    for v in manifest["variants"]:
        v["games_done"] *= factor
    manifest["chunks"] = []
    (big / "manifest.json").write_text(json.dumps(manifest, indent=2))
    if (small / "failures.jsonl").exists():
        shutil.copy(small / "failures.jsonl", big / "failures.jsonl")


def _chunk_meta(table: pa.Table, name: str, start: int, stop: int) -> dict[bytes, bytes]:
    """The part's metadata with its chunk record moved to the copy's range (what ``--resume`` and
    ``simlab compact`` read), so the folder is a valid result folder."""
    meta = dict(table.schema.metadata or {})
    chunk = json.loads(meta[META_KEY])
    games = len(set(table["game"].to_pylist()))
    chunk.update(start=start, stop=stop, file=name, games=games, failures=[])
    meta[META_KEY] = json.dumps(chunk).encode()
    return meta


if __name__ == "__main__":
    if len(sys.argv) != 4:
        print(__doc__)
        sys.exit(2)
    replicate(Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3]))
