"""Break result folders and inputs on purpose, as a hostile or unlucky user would, and print what simlab did.

    PYTHONPATH=. python docs/scaling/fault_table.py [WORKDIR]

Every fault runs the real command line (``python -m simlab ...`` in a subprocess, so exit codes, stderr and
tracebacks are what a user sees) on a small Massilia run. The outcome column is one of: *recovered
bit-identical* (the rows equal a clean run's, sorted by variant, game, seat), *clear error* (exit 2, an
``error:``/usage line, no traceback), *refused* (a bad input stopped before any game), *left out, named*
(a stray file ignored with a warning) or **FAILED** with what happened instead. Docs: docs/running.md, "When
something goes wrong". The full-disk and read-only faults need a tmpfs mount: tests/run/test_full_disk.py.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import polars as pl

SCENARIO = """\
game = "massilia"
players = 4
games = 40
seed = 5
chunk_size = 5
lineup = ["random", "random", "random", "trader"]

[variants.rulebook]
preset = "rulebook"

[variants.quined2014]
preset = "quined2014"
"""
PY = [str(Path(sys.executable).with_name("simlab"))]  # the installed command line
ROWS: list[tuple[str, str, str]] = []


def simlab(*args: str, timeout: float = 600) -> subprocess.CompletedProcess:
    return subprocess.run([*PY, *args], capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL)


def rows(folder: Path) -> pl.DataFrame:
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    from simlab.run.store import load_results

    return load_results(folder).sort("variant", "game", "seat").collect()


def last_line(p: subprocess.CompletedProcess) -> str:
    lines = [line for line in p.stderr.splitlines() if line.strip()]
    return lines[-1][:150] if lines else ""


def clear_error(p: subprocess.CompletedProcess) -> str:
    ok = p.returncode == 2 and "Traceback" not in p.stderr and last_line(p).lower().startswith("error")
    return f"clear error: {last_line(p)}" if ok else f"**FAILED** (exit {p.returncode}): {last_line(p)}"


def record(fault: str, how: str, outcome: str) -> None:
    ROWS.append((fault, how, outcome))
    print(f"| {fault} | {how} | {outcome} |", flush=True)


def fresh_copy(clean: Path, work: Path, name: str) -> Path:
    folder = work / name
    shutil.copytree(clean, folder)
    return folder


def resumed_identical(folder: Path, scenario: Path, clean_rows: pl.DataFrame) -> str:
    p = simlab("run", str(scenario), "--out", str(folder), "--resume", "-j", "2", "-q")
    if p.returncode != 0:
        return f"**FAILED** (resume exit {p.returncode}): {last_line(p)}"
    return "recovered bit-identical" if rows(folder).equals(clean_rows) else "**FAILED**: rows differ"


def part(folder: Path, k: int = 1) -> Path:
    return sorted((folder / "parts").glob("*.parquet"))[k]


def main(work: Path) -> None:
    scenario = work / "s.toml"
    scenario.write_text(SCENARIO)
    clean = work / "clean"
    p = simlab("run", str(scenario), "--out", str(clean), "-j", "2", "-q", "--no-compact")
    assert p.returncode == 0, p.stderr
    clean_rows = rows(clean)
    print("| fault or bad input | how | outcome |\n| --- | --- | --- |")

    def damage(name: str, how: str, hurt: Callable[[Path], None], check: str = "resume") -> None:
        folder = fresh_copy(clean, work, name)
        hurt(folder)
        if check == "verify":
            v = simlab("verify", str(folder))
            named = v.returncode == 2 and "Traceback" not in v.stderr
            outcome = resumed_identical(folder, scenario, clean_rows)
            record(name, how, f"verify exit {v.returncode}{' (names the part)' if named else ''}; --resume: {outcome}")
        else:
            record(name, how, resumed_identical(folder, scenario, clean_rows))

    damage("manifest removed", "rm manifest.json; run --resume", lambda f: (f / "manifest.json").unlink())
    damage(
        "manifest emptied",
        "truncate manifest.json to 0 bytes; run --resume",
        lambda f: (f / "manifest.json").write_text(""),
    )
    damage(
        "manifest garbage",
        "manifest.json = '[1, 2]' (a list for an object); run --resume",
        lambda f: (f / "manifest.json").write_text("[1, 2]"),
    )

    def flip(f: Path) -> None:
        path = part(f)
        data = bytearray(path.read_bytes())
        data[len(data) // 3] ^= 0x10
        path.write_bytes(bytes(data))

    damage("bit flip in a part", "one bit in a data page; verify, then run --resume", flip, check="verify")
    damage(
        "part truncated",
        "a part cut to half its bytes; verify, then run --resume",
        lambda f: part(f).write_bytes(part(f).read_bytes()[: part(f).stat().st_size // 2]),
        check="verify",
    )
    damage("part emptied", "a part truncated to 0 bytes; run --resume", lambda f: part(f).write_bytes(b""))
    damage("part deleted", "rm one part; run --resume", lambda f: part(f).unlink())

    # strays: readers count only the manifest's parts
    for name, how, make in [
        (
            "stray copy",
            "cp a part to 'junk.parquet' and '… (copy).parquet'",
            lambda f: [
                shutil.copy(part(f, 0), f / "parts" / "junk.parquet"),
                shutil.copy(part(f, 0), f / "parts" / f"{part(f, 0).stem} (copy).parquet"),
            ],
        ),
        ("empty stray", "a 0-byte 'x.parquet' in parts/", lambda f: (f / "parts" / "x.parquet").write_bytes(b"")),
    ]:
        folder = fresh_copy(clean, work, name.replace(" ", "_"))
        make(folder)
        s = simlab("seats", str(folder))
        games_ok = rows(folder).equals(clean_rows)
        warned = "warning" in s.stderr.lower() or "left out" in s.stderr.lower()
        outcome = "left out, named" if s.returncode == 0 and games_ok and warned else f"**FAILED** ({s.returncode})"
        record(name, how + "; seats, load_results", f"{outcome}: {last_line(s)[:100]}")

    readers_and_lock(work, scenario, clean, clean_rows)

    # outputs never clobber
    for name, target in [("report onto a device", "/dev/full"), ("report onto a directory", str(work))]:
        record(name, f"report --out {target}", clear_error(simlab("report", str(clean), "--out", target)))
    real = work / "target.html"
    real.write_text("old")
    link = work / "link.html"
    link.symlink_to(real)
    p = simlab("report", str(clean), "--out", str(link))
    ok = p.returncode == 0 and link.is_symlink() and real.stat().st_size > 1000
    record(
        "report onto a symlink",
        "report --out link.html → target.html",
        "wrote through to the target" if ok else f"**FAILED** {last_line(p)}",
    )
    p = simlab("report", str(clean), "--out", "-")
    ok = p.returncode == 0 and p.stdout.lstrip().lower().startswith("<!doctype html") and not Path("-").exists()
    record("report to '-'", "report --out -", "HTML on stdout, no file '-'" if ok else f"**FAILED** {last_line(p)}")

    # bad inputs, refused before any game
    fifo = work / "fifo.toml"
    os.mkfifo(fifo)
    bad_inputs = [
        ("FIFO as the scenario", ["run", str(fifo), "--out", str(work / "o1")]),
        ("/dev/zero as the scenario", ["run", "/dev/zero", "--out", str(work / "o2")]),
        ("compensate --width nan", ["compensate", "massilia", "--width", "nan"]),
        ("compensate --max-games 1", ["compensate", "massilia", "--seat", "3", "--max-games", "1"]),
        ("--jobs above the cores", ["run", str(scenario), "--out", str(work / "o3"), "-j", "12"]),
        ("bot parameter nan", ["play", "massilia", "--bots", "trader:token_cost=nan"]),
        ("seats --chart x.txt", ["seats", str(clean), "--chart", str(work / "x.txt")]),
    ]

    def variant_of(games: str, chunk: str, top: str = "", extra: str = "") -> str:
        return top + SCENARIO.replace("games = 40", games).replace("chunk_size = 5", chunk) + extra

    for i, (text, name) in enumerate(
        [
            (variant_of("games = 9_999_999_999", "chunk_size = 1"), "10^10 games in chunks of 1"),
            (variant_of("games = 1_000", "chunk_size = 9_999_999_999"), "a chunk of 10^10 games"),
            (
                variant_of("games = 40", "chunk_size = 5", top="x = " + "[" * 1000 + "]" * 1000 + "\n"),
                "TOML nested 1,000 deep",
            ),
            (
                variant_of("games = 40", "chunk_size = 5", extra='[variants.Rulebook]\npreset = "rulebook"\n'),
                "variants rulebook and Rulebook",
            ),
        ]
    ):
        path = work / f"bad{i}.toml"
        path.write_text(text)
        bad_inputs.append((name, ["run", str(path), "--out", str(work / f"bad{i}")]))
    for name, args in bad_inputs:
        start = time.monotonic()
        try:
            p = simlab(*args, timeout=120)
        except subprocess.TimeoutExpired:
            record(name, "simlab " + " ".join(args[:2]), "**FAILED**: still running after 120 s")
            continue
        record(
            name,
            "simlab " + " ".join(a if len(a) < 40 else "…" + a[-30:] for a in args[:4]),
            clear_error(p) + f" ({time.monotonic() - start:.1f} s)",
        )
    bom = work / "bom.toml"
    bom.write_bytes(b"\xef\xbb\xbf" + SCENARIO.encode())
    p = simlab("run", str(bom), "--out", str(work / "bom"), "-q", "-j", "2")
    record(
        "UTF-8 BOM in the scenario", "scenario saved with a BOM", "accepted" if p.returncode == 0 else clear_error(p)
    )
    p = simlab("report", str(work / "nowhere"), "--out", str(work / "r.html"))
    record("report on a missing folder", "report nowhere/", clear_error(p))

    # small fits
    tiny = work / "tiny.toml"
    tiny.write_text(
        SCENARIO.replace("games = 40", "games = 4")
        .replace("chunk_size = 5", "chunk_size = 4")
        .replace('preset = "quined2014"', 'preset = "rulebook"\nset = { start_money = "5,6,7,8" }')
    )
    p = simlab("run", str(tiny), "--out", str(work / "tiny"), "-q", "-j", "1")
    if p.returncode == 0:
        r = simlab("report", str(work / "tiny"), "--out", str(work / "tiny.html"))
        ok = r.returncode == 0 and "Traceback" not in r.stderr
        record(
            "report on 4 games per variant",
            "starting-money run of 4 games, report",
            "report written, fits named as too small" if ok else clear_error(r),
        )
    else:
        record("report on 4 games per variant", "starting-money run of 4 games", clear_error(p))

    # kill -9 of the main process and Ctrl-C: workers exit, resume is bit-identical
    for sig, name in [(signal.SIGKILL, "kill -9 of the main process"), (signal.SIGINT, "Ctrl-C (SIGINT) mid-run")]:
        folder = work / f"killed{int(sig)}"
        big = work / f"big{int(sig)}.toml"
        big.write_text(  # trader in every seat: about 30 s of play on 2 cores, so the fault lands mid-run
            SCENARIO.replace("games = 40", "games = 100_000")
            .replace("chunk_size = 5", "chunk_size = 2_000")
            .replace('["random", "random", "random", "trader"]', '["trader", "trader", "trader", "trader"]')
        )
        proc = subprocess.Popen(
            [*PY, "run", str(big), "--out", str(folder), "-j", "2", "-q"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
        time.sleep(12)
        kids = subprocess.run(["pgrep", "-P", str(proc.pid)], capture_output=True, text=True).stdout.split()
        os.kill(proc.pid, sig)
        t0 = time.monotonic()
        proc.wait()
        alive = kids
        while alive and time.monotonic() - t0 < 60:
            alive = [
                k
                for k in alive
                if Path(f"/proc/{k}").exists() and "zombie" not in Path(f"/proc/{k}/status").read_text().lower()
            ]
            time.sleep(0.05)
        gone = time.monotonic() - t0
        saved = sum(1 for _ in (folder / "parts").glob("*.parquet")) if (folder / "parts").exists() else 0
        clean_big = work / f"clean_big{int(sig)}"
        subprocess.run(
            [*PY, "run", str(big), "--out", str(clean_big), "-j", "2", "-q"], check=True, capture_output=True
        )
        r = simlab("run", str(big), "--out", str(folder), "--resume", "-j", "2", "-q")
        same = r.returncode == 0 and rows(folder).equals(rows(clean_big))
        record(
            name,
            f"after 12 s of a 200,000-game run: exit {proc.returncode}, {saved} of 100 parts saved, its {len(kids)} "
            f"child processes gone {gone:.2f} s later; run --resume",
            "recovered bit-identical" if same else f"**FAILED** {last_line(r)}",
        )


def seats_said(folder: Path) -> tuple[subprocess.CompletedProcess, str]:
    """``simlab seats`` of a folder and its first warning line ("" if none)."""
    s = simlab("seats", str(folder))
    warned = [line for line in s.stderr.splitlines() if line.startswith("warning:")]
    return s, (warned[0][:110] if warned else "")


def readers_and_lock(work: Path, scenario: Path, clean: Path, clean_rows: pl.DataFrame) -> None:
    """Issue 30: readers check what they read (a missing or edited part, a forged digest or manifest, a part
    beyond the run's count are named, never a silently smaller or larger n) and the run lock holds."""
    folder = fresh_copy(clean, work, "part_gone")
    part(folder, 3).unlink()
    v = simlab("verify", str(folder))
    s, warned = seats_said(folder)
    ok = v.returncode == 2 and "missing" in v.stderr and "missing" in warned and s.returncode == 0
    record(
        "part removed, not resumed",
        "rm one of 16 parts; verify; seats",
        ("named: verify exit 2, seats warns: " if ok else f"**FAILED** (verify exit {v.returncode}): ") + warned[:80],
    )

    folder = fresh_copy(clean, work, "stats_edited")
    path = sorted((folder / "parts").glob("rulebook__*.parquet"))[0]
    data = bytearray(path.read_bytes())
    start = len(data) - 8 - int.from_bytes(data[-8:-4], "little")
    data[start:-8] = bytes(data[start:-8]).replace(b"\x08rulebook", b"\x08rulebooz")
    path.write_bytes(bytes(data))
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    from simlab.run.store import load_results

    n = load_results(folder).filter(pl.col("variant") == "rulebook").collect().height  # the filter pushed down
    v = simlab("verify", str(folder))
    want = clean_rows.filter(pl.col("variant") == "rulebook").height
    record(
        "footer statistics edited",
        "variant's min/max in one footer say 'rulebooz'; load_results(F).filter(variant == 'rulebook'); verify",
        f"{n:,} of {want:,} rows, verify exit {v.returncode}"
        + ("" if n == want and v.returncode == 2 else " **FAILED**"),
    )

    folder = fresh_copy(clean, work, "digest_forged")
    import pyarrow.parquet as pq

    target, donor = part(folder, 8), part(folder, 0)
    table = pq.read_table(target)
    forged = pq.read_schema(donor).metadata[b"simlab.digest"]
    pq.write_table(table.replace_schema_metadata(dict(table.schema.metadata) | {b"simlab.digest": forged}), target)
    r = simlab("report", str(folder), "--out", str(work / "forged.html"))
    v = simlab("verify", str(folder))
    said = "damaged" in r.stderr and r.returncode == 0 and v.returncode == 2
    record(
        "forged digest",
        "a part re-written with another part's digest; report; verify",
        f"named: report warns and scans the rows, verify exit {v.returncode}" if said else f"**FAILED** {last_line(r)}",
    )

    folder = work / "digest_again"  # parts without digests, as the Python runner writes them by default
    code = "import sys; from simlab.run.runner import run_scenario; run_scenario(sys.argv[1], out=sys.argv[2], jobs=2)"
    subprocess.run([sys.executable, "-c", code, str(scenario), str(folder)], check=True, capture_output=True)
    d = simlab("digest", str(folder))
    v = simlab("verify", str(folder))
    record(
        "simlab digest, then verify",
        "16 parts a run without digests wrote given theirs; verify",
        f"digest exit {d.returncode}, verify exit {v.returncode}"
        + ("" if d.returncode == 0 and v.returncode == 0 else " **FAILED**"),
    )

    longer = work / "longer"
    simlab("run", str(scenario), "--out", str(longer), "--games", "45", "-j", "2", "-q", "--no-compact")
    folder = fresh_copy(clean, work, "beyond")
    beyond = sorted((longer / "parts").glob("rulebook__0000000040-*.parquet"))[0]
    shutil.copy(beyond, folder / "parts" / beyond.name)
    s, warned = seats_said(folder)
    same = rows(folder).equals(clean_rows)
    record(
        "part beyond the game count",
        "a valid part of games 40-44 of the same experiment copied in; seats, load_results",
        ("left out, named: " if same and "beyond" in warned else "**FAILED**: ") + warned[:80],
    )

    folder = fresh_copy(clean, work, "manifest_edited")
    m = json.loads((folder / "manifest.json").read_text())
    m["games_done"], m["variants"][0]["games_done"], m["bots"] = 88, 44, ["trader"] * 4
    (folder / "manifest.json").write_text(json.dumps(m))
    (folder / "failures.jsonl").write_text('{"game": 3, "variant": "rulebook", "error": "forged"}\n')
    r = simlab("report", str(folder), "--out", str(work / "edited.html"))
    html = (work / "edited.html").read_text() if r.returncode == 0 else ""
    ok = "= 80 games" in html and html.count("Checked against the part files") >= 3
    record(
        "manifest counts, bots and failures.jsonl forged",
        "games_done 88, a variant's 44, bots edited, a forged failure; report",
        "report shows the parts' 80 games and names the 3 edits" if ok else f"**FAILED** {last_line(r)}",
    )

    # two fresh runs on one --out started in the same instant
    outcomes = []
    for i in range(3):
        out = work / f"twin{i}"
        procs = [
            subprocess.Popen(
                [*PY, "run", str(scenario), "--out", str(out), "-j", "1", "-q", "--no-compact"],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            for _ in range(2)
        ]
        codes = [(p.wait(), p.stderr.read()) for p in procs]
        good = sorted(c for c, _ in codes) in ([0, 2], [0, 0]) and rows(out).equals(clean_rows)
        outcomes.append(good)
    record(
        "two fresh runs on one --out at once",
        "3 times: two simlab run started together",
        f"{sum(outcomes)} of 3: one ran, the other refused (in use) or found it done; rows bit-identical"
        + ("" if all(outcomes) else " **FAILED**"),
    )

    # reads during a compaction
    failed = 0
    for i in range(6):
        folder = fresh_copy(clean, work, f"compacting{i}")
        c = subprocess.Popen(
            [*PY, "compact", str(folder), "-n", "1000"], stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        time.sleep(0.3 * (i % 3))
        s = simlab("seats", str(folder))
        c.wait()
        failed += s.returncode != 0 or "Traceback" in s.stderr
    record(
        "seats during a compaction",
        "6 reads started 0-0.6 s into simlab compact",
        f"{6 - failed} of 6 read the whole folder" + ("" if not failed else " **FAILED**"),
    )


# -- identity by content and data files checked up front (issue 30, items 1 and 4) ----------------------------------
GAMES = Path(__file__).resolve().parents[2] / "simlab" / "games"


def small_run(work: Path, name: str, game: str, sets: str, games: int = 4) -> Path:
    """A 2-player scenario of ``game`` with config lines ``sets`` (random bots, short)."""
    path = work / f"{name}.toml"
    path.write_text(
        f'name = "{name}"\ngame = "{game}"\nplayers = 2\ngames = {games}\nseed = 3\nchunk_size = 2\n'
        f'bots = ["random", "random"]\n[set]\n{sets}\n'
    )
    return path


def refused_unplayed(p: subprocess.CompletedProcess, folder: Path, games_before: int | None) -> str:
    """A clear error, and the folder untouched: absent (``games_before`` None) or still holding its games."""
    import json

    outcome = clear_error(p)
    if games_before is None:
        return outcome + ("" if not folder.exists() else " **FAILED**: the folder was created")
    done = json.loads((folder / "manifest.json").read_text())["games_done"]
    return outcome + ("" if done == games_before else f" **FAILED**: {done} games now, {games_before} before")


def content_faults(work: Path) -> None:
    """Data files edited between sessions, format-1 folders, malformed data files, and three small inputs.

    Do not run these rows against a simlab older than 2026-12-06: its map loader reads /dev/zero without bound
    (on the audit's machine the kernel killed it for memory)."""
    import json

    work.mkdir(parents=True, exist_ok=True)
    board = work / "board.json"
    shutil.copy(GAMES / "merchant_of_venus/data/board_classic.json", board)
    s = small_run(work, "mov_board", "merchant_of_venus", f'board_file = "{board}"\nrounds = 3')
    out = work / "mov_board"
    assert simlab("run", str(s), "--out", str(out), "-q", "-j", "1").returncode == 0
    board.write_text(board.read_text().replace('"penalty": 20', '"penalty": 25'))
    p = simlab("run", str(s), "--out", str(out), "--resume", "--games", "8", "-q", "-j", "1")
    record("board edited in place", "run 4 games, edit board_file, --resume --games 8", refused_unplayed(p, out, 4))

    table = work / "gods.json"
    table.write_text((GAMES / "pantheon/tables/god_tiles_even.json").read_text())
    s = small_run(work, "pan_gods", "pantheon", f'god_tiles = "{table}"\neras = 1')
    out = work / "pan_gods"
    assert simlab("run", str(s), "--out", str(out), "-q", "-j", "1").returncode == 0
    table.write_text(table.read_text().replace('"description": "', '"description": "edited: '))
    p = simlab("run", str(s), "--out", str(out), "--resume", "--games", "8", "-q", "-j", "1")
    record("god-tile table edited", "run 4 games, edit god_tiles, --resume --games 8", refused_unplayed(p, out, 4))

    here, there = work / "here", work / "there"
    for d in (here, there):
        d.mkdir(exist_ok=True)
        doc = json.loads((GAMES / "pantheon/maps/mediterranean_approx.json").read_text())
        doc["description"] = f"the map in {d.name}"
        (d / "map.json").write_text(json.dumps(doc))
    s = small_run(work, "pan_map", "pantheon", 'map_file = "map.json"\neras = 1')
    out = work / "pan_map"
    first = subprocess.run([*PY, "run", str(s), "--out", str(out), "-q", "-j", "1"], cwd=here, capture_output=True)
    assert first.returncode == 0, first.stderr
    p = subprocess.run(
        [*PY, "run", str(s), "--out", str(out), "--resume", "--games", "8", "-q", "-j", "1"],
        cwd=there,
        capture_output=True,
        text=True,
    )
    record(
        "relative map_file, other directory",
        "run in a/, --resume in b/ (another map.json)",
        refused_unplayed(p, out, 4),
    )

    legacy = work / "legacy_v1"
    shutil.copytree(Path(__file__).resolve().parents[2] / "tests/run/folders/legacy_v1", legacy)
    v = simlab("verify", str(legacy))
    legacy_scenario = Path(__file__).resolve().parents[2] / "tests/run/folders/legacy_v1.toml"
    p = simlab("run", str(legacy_scenario), "--out", str(legacy), "--resume", "--games", "8", "-q", "-j", "1")
    record(
        "folder of results format 1",
        "a folder made at main of 2026-12-06: verify; --resume --games 8",
        f"verify exit {v.returncode}; --resume: {refused_unplayed(p, legacy, 4)}",
    )

    boards = {
        "dangling edge": lambda d: d["edges"].append({"a": "AS_1_1", "b": "nowhere", "kind": "loop"}),
        "no Galactic Base": lambda d: next(x for x in d["spaces"] if x["name"] == "Galactic Base").update(name="B"),
        "duplicate space": lambda d: d["spaces"].append(dict(d["spaces"][0])),
        "navigation without die numbers": lambda d: next(x for x in d["spaces"] if "navigation" in x).update(
            navigation={}
        ),
        "a space type that is a list": lambda d: d["spaces"][0].update(type=["dot"]),
        "x = 10^30": lambda d: d["spaces"][0].update(x=10**30),
        "unreachable system": lambda d: d.update(
            edges=[e for e in d["edges"] if (e["a"].startswith("AS_") == e["b"].startswith("AS_"))]
        ),
    }
    for i, (name, edit) in enumerate(boards.items()):
        doc = json.loads((GAMES / "merchant_of_venus/data/board_classic.json").read_text())
        edit(doc)
        path = work / "bad_board.json"
        path.write_text(json.dumps(doc))
        s = small_run(work, "bad_board", "merchant_of_venus", f'board_file = "{path}"')
        out = work / f"bad_board_out{i}"  # one each: a failed probe's folder must not refuse the next
        record(
            f"board: {name}",
            "run a scenario naming it",
            refused_unplayed(simlab("run", str(s), "--out", str(out)), out, None),
        )

    fifo = work / "map_fifo.json"
    os.mkfifo(fifo)
    zero = work / "zero.json"
    zero.symlink_to("/dev/zero")
    deep = work / "deep.json"
    deep.write_bytes(b"[" * 100_000 + b"]" * 100_000)
    latin = work / "latin.json"
    latin.write_bytes(b'{"map": "\xe9"}')
    maps = [
        ("a FIFO", fifo),
        ("a symlink to /dev/zero", zero),
        ("a folder", work),
        ("nested 100,000 deep", deep),
        ("not UTF-8", latin),
    ]
    for i, (name, path) in enumerate(maps):
        s = small_run(work, "bad_map", "pantheon", f'map_file = "{path}"')
        out = work / f"bad_map_out{i}"
        try:
            p = simlab("run", str(s), "--out", str(out), timeout=120)
        except subprocess.TimeoutExpired:
            record(f"map_file: {name}", "run a scenario naming it", "**FAILED**: still running after 120 s")
            continue
        record(f"map_file: {name}", "run a scenario naming it", refused_unplayed(p, out, None))

    record(
        "bench --games 10^12",
        "simlab bench massilia --games 10^12",
        clear_error(simlab("bench", "massilia", "--games", str(10**12))),
    )
    s = small_run(work, "twice", "massilia", "")
    s.write_text(s.read_text().replace('["random", "random"]', '["trader:token_cost=1,token_cost=2", "random"]'))
    record(
        "bot parameter given twice",
        'bots = ["trader:token_cost=1,token_cost=2", ...]',
        refused_unplayed(simlab("run", str(s), "--out", str(work / "twice_out")), work / "twice_out", None),
    )


def seats_json_stable(clean: Path) -> None:
    """``seats --json`` of one folder, four times: the same bytes (the equal-seats table had no order)."""
    answers = {simlab("seats", str(clean), "--json").stdout for _ in range(4)}
    record(
        "seats --json twice",
        "four invocations on a 2-variant folder",
        "byte-identical" if len(answers) == 1 else f"**FAILED**: {len(answers)} different answers",
    )


if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(sys.argv[1]) if len(sys.argv) > 1 and sys.argv[1] != "content" else Path(tmp)
        if "content" in sys.argv[1:]:  # only the rows of issue 30, items 1 and 4
            print("| fault or bad input | how | outcome |\n| --- | --- | --- |")
            content_faults(work / "content")
            (work / "s.toml").write_text(SCENARIO)
            simlab("run", str(work / "s.toml"), "--out", str(work / "clean"), "-j", "2", "-q")
            seats_json_stable(work / "clean")
        else:
            main(work)
            content_faults(work / "content")
            seats_json_stable(work / "clean")
