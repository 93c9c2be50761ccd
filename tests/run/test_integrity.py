"""The manifest's content hashes: --resume replays exactly the damaged parts, compact refuses them, verify names
them; a finished temporary part of a stopped run is kept instead of replayed."""

from __future__ import annotations

import json
import random
import stat

import pytest
from conftest import rows

from simlab.run.compact import compact
from simlab.run.errors import ResultFolderError
from simlab.run.integrity import DAMAGED, check_parts, file_sha256, manifest_hashes, quarantine
from simlab.run.runner import run_scenario
from simlab.run.verify import verify_folder


def _manifest(folder):
    return json.loads((folder / "manifest.json").read_text())


def _parts(folder):
    return sorted((folder / "parts").glob("*.parquet"))


def _flip_one_byte(path, seed: int = 3) -> None:
    """Change one byte anywhere in the file but its magic numbers (footer metadata included)."""
    data = bytearray(path.read_bytes())
    pos = random.Random(seed).randrange(4, len(data) - 8)
    data[pos] ^= 0x5A
    path.chmod(stat.S_IRUSR | stat.S_IWUSR)
    path.write_bytes(bytes(data))


def test_the_manifest_holds_every_parts_hash(original):
    files = _manifest(original[1])["files"]
    assert files == {p.name: file_sha256(p) for p in _parts(original[1])}
    assert len(files) == 4


def test_resume_replays_exactly_a_part_whose_bytes_changed(original, folder, capsys):
    victim = _parts(folder)[1]
    _flip_one_byte(victim)
    untouched = {p.name: p.stat().st_mtime_ns for p in _parts(folder) if p != victim}
    run_scenario(original[0], jobs=1, out=folder, resume=True, progress=True)
    err = capsys.readouterr().err
    assert f"damaged: {victim.name}: its bytes differ" in err and "its games are played again" in err
    assert (folder / DAMAGED / victim.name).is_file()  # kept as evidence, out of parts/
    assert rows(folder).equals(original[2])
    assert {p.name: p.stat().st_mtime_ns for p in _parts(folder) if p.name != victim.name} == untouched
    assert _manifest(folder)["files"][victim.name] == file_sha256(victim)
    assert _manifest(folder)["timings"]["sessions"][-1]["games"] == 10  # that part's games only


@pytest.mark.parametrize("cut", [0.5, 0.0])
def test_resume_replays_a_truncated_part_of_the_run(original, folder, capsys, cut):
    """A part the manifest hashes, cut short (its footer gone, or empty): replayed, not refused as unreadable."""
    victim = _parts(folder)[2]
    size = victim.stat().st_size
    victim.chmod(stat.S_IRUSR | stat.S_IWUSR)
    with victim.open("r+b") as f:
        f.truncate(int(size * cut))
    run_scenario(original[0], jobs=1, out=folder, resume=True, progress=True)
    assert f"damaged: {victim.name}: its bytes differ" in capsys.readouterr().err
    assert (folder / DAMAGED / victim.name).stat().st_size == int(size * cut)
    assert rows(folder).equals(original[2])
    assert _manifest(folder)["timings"]["sessions"][-1]["games"] == 10


def test_a_part_the_manifest_does_not_list_is_read_in_full(original, folder):
    manifest = _manifest(folder)
    manifest.pop("files")  # as a manifest written by an older simlab
    (folder / "manifest.json").write_text(json.dumps(manifest))
    check = check_parts(_parts(folder), {}, manifest_hashes(manifest))
    assert check.read_in_full == 4 and not check.damaged
    assert check.hashes == _manifest(original[1])["files"]


def test_a_finished_temporary_part_is_kept_not_replayed(original, folder, capsys):
    part = _parts(folder)[-1]
    data = part.read_bytes()
    part.rename(part.with_name(f".{part.name}.999999.tmp"))  # a worker wrote it; its run stopped before renaming
    run_scenario(original[0], jobs=1, out=folder, resume=True, progress=True)
    err = capsys.readouterr().err
    assert f"kept 1 finished part(s) a stopped run had not yet put in place (first: {part.name})" in err
    assert part.read_bytes() == data
    assert rows(folder).equals(original[2])
    assert not list((folder / "parts").glob(".*.tmp"))


def test_a_truncated_temporary_part_is_dropped_and_replayed(original, folder):
    part = _parts(folder)[-1]
    data = part.read_bytes()
    part.unlink()
    part.with_name(f".{part.name}.999999.tmp").write_bytes(data[: len(data) // 2])  # killed while writing
    run_scenario(original[0], jobs=1, out=folder, resume=True, progress=False)
    assert rows(folder).equals(original[2])
    assert not list((folder / "parts").glob(".*.tmp"))


def test_compact_refuses_to_merge_a_damaged_part(folder):
    victim = _parts(folder)[0]
    _flip_one_byte(victim)
    before = {p.name: p.read_bytes() for p in _parts(folder)}
    with pytest.raises(ResultFolderError, match=f"{victim.name} is damaged .*simlab verify .* --quarantine"):
        compact(folder, games_per_file=1000)
    assert {p.name: p.read_bytes() for p in _parts(folder)} == before


def test_compaction_books_the_merged_files_hashes(folder):
    compact(folder, games_per_file=1000)
    assert _manifest(folder)["files"] == {p.name: file_sha256(p) for p in _parts(folder)}
    assert len(_parts(folder)) == 2


def test_verify_names_a_change_the_page_checksums_cannot_see(folder):
    victim = _parts(folder)[2]
    _flip_one_byte(victim, seed=8)
    result = verify_folder(folder)
    assert [p.name for p, _why in result.damaged] == [victim.name]


def test_quarantine_keeps_an_earlier_copy(tmp_path):
    (tmp_path / "parts").mkdir()
    moved = []
    for _ in range(2):
        part = tmp_path / "parts" / "a.parquet"
        part.write_bytes(b"x")
        moved += quarantine(tmp_path, [part])
    assert [p.name for p in moved] == ["a.parquet", "a.parquet.1"]
