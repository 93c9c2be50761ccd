"""Damage is detected: parts carry Parquet page checksums, simlab verify reads every page and names damaged parts."""

from __future__ import annotations

import random

import pyarrow.parquet as pq
from click.testing import CliRunner
from conftest import rows

from simlab.cli import cli
from simlab.run.runner import run_scenario
from simlab.run.verify import verify_folder


def _flip_data_bits(path, n: int, seed: int) -> list[bytes]:
    """Copies of a part's bytes, each with one bit flipped inside its column chunks (not the footer)."""
    data = path.read_bytes()
    md = pq.read_metadata(path)
    chunks = [md.row_group(0).column(i) for i in range(md.num_columns)]
    ranges = [(c.dictionary_page_offset or c.data_page_offset, c.total_compressed_size) for c in chunks]
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        start, size = rng.choice(ranges)
        pos = start + rng.randrange(size)
        flipped = bytearray(data)
        flipped[pos] ^= 1 << rng.randrange(8)
        out.append(bytes(flipped))
    return out


def _detectable_flip(path) -> bytes:
    """A copy of a part with one bit flipped in a data page (where its checksum finds it)."""
    for damaged in _flip_data_bits(path, 40, seed=11):
        probe = path.with_name(".probe.tmp")
        probe.write_bytes(damaged)
        try:
            pq.ParquetFile(probe, page_checksum_verification=True).read()
        except Exception:
            return damaged
        finally:
            probe.unlink()
    raise AssertionError("no flip was detectable")


def test_a_clean_folder_verifies(folder):
    result = verify_folder(folder)
    assert result.ok and result.checked == 4 and result.games == 40


def test_no_bit_flip_in_the_data_pages_changes_a_value_silently(folder):
    """Each flip is found by verify, or changes nothing a reader sees (it hit a page header's statistics)."""
    part = sorted((folder / "parts").glob("rulebook__*.parquet"))[0]
    clean, rows_before = part.read_bytes(), pq.read_table(part)
    silent, detected = [], 0
    for i, damaged in enumerate(_flip_data_bits(part, 40, seed=3)):
        part.write_bytes(damaged)
        if not verify_folder(folder).ok:
            detected += 1
        elif not pq.read_table(part).equals(rows_before):
            silent.append(i)
    part.write_bytes(clean)
    assert silent == [] and detected >= 30


def test_quarantine_then_resume_replays_exactly_the_damaged_chunk(original, folder):
    path, _, clean = original
    part = sorted((folder / "parts").glob("quined2014__*.parquet"))[1]
    part.write_bytes(_detectable_flip(part))
    runner = CliRunner()
    result = runner.invoke(cli, ["verify", str(folder)])
    assert result.exit_code == 2 and f"damaged: {part.name}" in result.stdout
    assert result.stderr.startswith("error: 1 damaged part file(s)") and "--quarantine" in result.stderr
    result = runner.invoke(cli, ["verify", str(folder), "--quarantine"])
    assert result.exit_code == 2 and "--resume" in result.stderr
    assert not part.exists() and (folder / "damaged" / part.name).exists()
    log = []
    run_scenario(path, jobs=1, out=folder, resume=True, progress=True, stream=_Log(log))
    assert "done: 10 games" in "".join(log)  # only the damaged chunk's games were played
    assert rows(folder).equals(clean)
    assert runner.invoke(cli, ["verify", str(folder)]).exit_code == 0


class _Log:
    def __init__(self, sink):
        self.sink = sink

    def write(self, s):
        self.sink.append(s)

    def flush(self):
        pass


def test_a_listed_part_that_cannot_be_read_is_damaged_not_a_stray(folder):
    """A part of the manifest cut short or hit in its footer cannot be read at all: verify names it damaged
    (exit 2) and quarantines it, where it used to list it as 'left out' and exit 0."""
    part = sorted((folder / "parts").glob("rulebook__*.parquet"))[1]
    part.write_bytes(part.read_bytes()[: part.stat().st_size // 2])
    stray = folder / "parts" / "junk.parquet"
    stray.write_bytes(b"not a part")
    result = verify_folder(folder)
    assert [p.name for p, _ in result.damaged] == [part.name]
    assert [p.name for p, _ in result.left_out] == [stray.name]  # not the run's: left out, not damage
    cli_result = CliRunner().invoke(cli, ["verify", str(folder), "--quarantine"])
    assert cli_result.exit_code == 2 and f"damaged: {part.name}" in cli_result.stdout
    assert (folder / "damaged" / part.name).exists() and stray.exists()
