"""Progress: an ETA from the rate between finished chunks (not the first chunk's start-up), the compile
notice only when the engine is not cached, and a quiet exit on a Ctrl-C after the command is done."""

from __future__ import annotations

import io
import subprocess
import sys
import textwrap

import simlab
from simlab.core import engine
from simlab.run.progress import Progress


def test_the_first_eta_is_not_the_start_up_rate():
    """A 1,000-game run whose first chunk (100 games) took 30 s of start-up, then 1 s per chunk."""
    bar = Progress(1000, enabled=False)
    bar.start = 0.0
    bar.advance(100, now=30.0)
    assert bar.line().endswith("ETA ?")  # one chunk says nothing about the rate
    bar.advance(100, now=31.0)
    bar.advance(100, now=32.0)
    assert "100 games/s" in bar.line() and bar.line().endswith("ETA 0:07")  # 700 games at 100/s
    # the session average (300 games in 32 s) would have said 3:44
    assert bar.rate < 10


def test_the_eta_follows_the_recent_chunks():
    bar = Progress(10_000, enabled=False)
    t = 0.0
    for _ in range(100):  # slow start: 10 games/s
        t += 1.0
        bar.advance(10, now=t)
    for _ in range(40):  # then 100 games/s: the window forgets the slow chunks
        t += 1.0
        bar.advance(100, now=t)
    assert bar.recent_rate == 100.0
    assert bar.line().endswith("ETA 0:50")  # 5,000 games left


def test_chunks_at_the_same_instant_give_no_rate():
    bar = Progress(100, enabled=False)
    bar.advance(10, now=5.0)
    bar.advance(10, now=5.0)  # two workers finishing together
    assert bar.recent_rate is None and bar.line().endswith("ETA ?")
    bar.done = 100
    assert bar.line().endswith("ETA 0:00")


def test_is_cached_reads_the_cache_index_and_the_source_stamp(monkeypatch, tmp_path):
    g = simlab.get_game("massilia")
    g.kernel  # noqa: B018  bound (compiled or loaded) in this process: cached on disk now
    monkeypatch.delitem(engine._BOUND, "massilia")
    assert engine.is_cached(g.name, g.rules_module, g.policy) is True
    monkeypatch.setattr(engine.jitcache, "sources_hash", lambda sources: "edited")
    assert engine.is_cached(g.name, g.rules_module, g.policy) is False  # a source changed: it recompiles
    monkeypatch.undo()
    monkeypatch.delitem(engine._BOUND, "massilia")
    monkeypatch.setattr(engine, "_CORE", tmp_path)  # no cache index for the loop
    assert engine.is_cached(g.name, g.rules_module, g.policy) is False
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    assert engine.is_cached(g.name, g.rules_module, g.policy) is None


def _run_log(write_scenario, tmp_path, name: str) -> str:
    log = io.StringIO()
    path = write_scenario(name=name)
    simlab.run_scenario(path, games=8, chunk_size=4, jobs=1, out=tmp_path / name, stream=log)
    return log.getvalue()


def test_compile_notice_only_when_compiling(write_scenario, tmp_path, monkeypatch):
    simlab.get_game("massilia").kernel  # noqa: B018  warm
    warm = _run_log(write_scenario, tmp_path, "warm")
    assert "engine" not in warm and "about a minute" not in warm and "done: 16 games" in warm
    monkeypatch.setattr(engine, "is_cached", lambda *args: False)
    cold = _run_log(write_scenario, tmp_path, "cold")
    assert "compiling the massilia engine (first use on this machine" in cold


def test_a_ctrl_c_after_the_command_exits_quietly():
    """A SIGINT during shutdown (here from an atexit hook, as joblib's clean-up runs) prints nothing."""
    code = textwrap.dedent(
        """
        import atexit, os, signal, sys, time
        def late_ctrl_c():
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(0.2)
        atexit.register(late_ctrl_c)
        sys.argv = ["simlab", "games"]
        from simlab.cli import main
        main()
        """
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert "massilia" in result.stdout
    assert "KeyboardInterrupt" not in result.stderr and "Exception ignored" not in result.stderr, result.stderr


def test_a_ctrl_c_inside_a_command_is_exit_130_without_a_traceback(monkeypatch):
    from click.testing import CliRunner

    from simlab.cli import cli

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(simlab, "available_games", interrupted)
    result = CliRunner().invoke(cli, ["games"])
    assert result.exit_code == 130 and "error: interrupted" in result.stderr and "Traceback" not in result.output


def test_slow_rates_keep_their_digits():
    """A search bot's run plays under one game a second: "0.77 games/s", not a rounded "1 games/s"."""
    from simlab.run.progress import format_rate

    assert [format_rate(r) for r in (1855.4, 12.4, 9.5, 0.7712, 0.0123)] == ["1,855", "12", "9.5", "0.77", "0.012"]
