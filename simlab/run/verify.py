"""``simlab verify``: read every row of a result folder's parts, so damage (bit rot, truncation) is found.

Parts written by this simlab carry Parquet page checksums (CRC32 of every data page), checked as the pages
are read, so a flipped bit in a data page is an error here instead of a silently changed value. Parts
written before checksums are checked for what can be checked: that they decode, hold the rows their
footer says, and hold only their own variant and games. A part the manifest holds a content hash for is
also checked byte for byte against it (see ``simlab.run.integrity``). ``quarantine`` moves damaged parts to
``damaged/`` beside ``parts/``, after which ``simlab run ... --resume`` plays exactly their games again.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from simlab.run.errors import ResultFolderError
from simlab.run.folder_check import footer_problem, manifest_footers
from simlab.run.folder_contents import folder_contents
from simlab.run.integrity import DAMAGED, file_sha256, manifest_hashes, read_problem
from simlab.run.integrity import quarantine as move_to_damaged
from simlab.run.manifest import read_manifest
from simlab.run.part_file import PartFile

__all__ = ["DAMAGED", "VerifyResult", "verify_folder"]


@dataclasses.dataclass
class VerifyResult:
    """What ``verify_folder`` found: the parts checked, the damaged ones (and why), the files left out."""

    folder: Path
    checked: int = 0
    games: int = 0
    damaged: list[tuple[Path, str]] = dataclasses.field(default_factory=list)
    left_out: list[tuple[Path, str]] = dataclasses.field(default_factory=list)
    moved: list[Path] = dataclasses.field(default_factory=list)
    missing: list[str] = dataclasses.field(default_factory=list)  # games the manifest lists that no part holds

    @property
    def ok(self) -> bool:
        return not self.damaged and not self.missing

    def lines(self) -> list[str]:
        out = [f"{self.folder}: {self.checked:,} part file(s) read, {self.games:,} games"]
        out += [f"damaged: {p.name}: {why}" for p, why in self.damaged]
        out += [f"left out: {p.name}: {why}" for p, why in self.left_out]
        out += [f"missing: {line}" for line in self.missing]
        out += [f"moved to {p}" for p in self.moved]
        return out


def verify_folder(folder: str | Path, quarantine: bool = False) -> VerifyResult:
    """Read every row of the run's parts of ``folder`` (page checksums verified, bytes against the manifest's
    content hashes); see the module docstring."""
    p = Path(folder)
    contents = folder_contents(p)
    manifest = _manifest_or_empty(p)
    known = manifest_hashes(manifest)
    footers = manifest_footers(manifest)
    result = VerifyResult(p, missing=list(contents.missing))
    for s in contents.skipped:  # a part the manifest lists that cannot be read is damage, not a stray file
        (result.damaged if s.path.name in known else result.left_out).append((s.path, s.reason))
    for f in contents.files:
        problem = _problem(f, known.get(f.path.name)) or (
            footer_problem(f.path, footers[f.path.name]) if f.path.name in footers else ""
        )
        result.checked += 1
        if problem:
            result.damaged.append((f.path, problem))
        else:
            result.games += sum(int(r.get("games", 0)) for r in f.records)
    if quarantine and result.damaged:
        result.moved = move_to_damaged(p, [path for path, _why in result.damaged])
    return result


def _manifest_or_empty(folder: Path) -> dict:
    try:
        manifest = read_manifest(folder)
    except ResultFolderError:
        return {}
    return manifest if isinstance(manifest, dict) else {}


def _problem(f: PartFile, expected_hash: str | None) -> str:
    """Why the rows of part ``f`` cannot be trusted ("" if they can)."""
    import pyarrow.compute as pc
    import pyarrow.parquet as pq

    if expected_hash is not None:
        try:
            if file_sha256(f.path) != expected_hash:
                return "its bytes differ from the content hash the manifest holds for it"
        except OSError as exc:
            return f"cannot be read ({exc.strerror or exc})"
    problem = read_problem(f.path, f.rows)
    if problem or not f.records:  # no records: a plain Parquet file of a folder without simlab parts
        return problem
    table = pq.read_table(f.path, columns=[c for c in ("variant", "game") if c in f.schema.names])
    names = table.column_names
    if "variant" in names and table.num_rows:
        variants = set(pc.unique(table.column("variant")).to_pylist())
        if variants != {f.variant}:
            return f"holds rows of variant(s) {', '.join(sorted(map(str, variants)))}, its name says '{f.variant}'"
    if "game" in names and table.num_rows:
        lo, hi = pc.min(table.column("game")).as_py(), pc.max(table.column("game")).as_py()
        if lo < f.start or hi >= f.stop:
            return f"holds games {lo}-{hi}, its name says {f.start}-{f.stop - 1}"
    return ""
