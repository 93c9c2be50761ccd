"""The compiled loop bound once per game (simlab.core.engine): numba's on-disk cache hits in a fresh
process and in joblib workers, and an edit to a game's rules recompiles the game's loop.

The game is a copy of the example game Pig (tests/examples/pig) under a name of its own, so its cache files
can be made, edited and removed without touching the registered games'.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from joblib import Parallel, delayed

from simlab.core import engine

PIG = Path(__file__).resolve().parents[1] / "examples" / "pig"

SCRIPT = """
import json, sys
sys.path.insert(0, sys.argv[1])
sys.path.insert(0, sys.argv[1] + "/..")
from importlib import import_module
from pathlib import Path
import numpy as np
from simlab.core.engine import bind
from simlab.core.rng import seeds_to_states
pkg = sys.argv[2]
R, B, C = (import_module(f"{pkg}.{m}") for m in ("rules", "bots", "config"))
k = bind(pkg, R, B.heuristic_policy, [Path(R.__file__), Path(B.__file__)])
cfg = k.config_record(C.PigConfig())
seeds = np.arange(200, dtype=np.uint64)
out = np.zeros(200, dtype=k.state_dtype).view(np.recarray)
bot_rng = np.stack([seeds_to_states(seeds, 1 + p) for p in range(2)], axis=1)
k.play_many(cfg, seeds_to_states(seeds, 0), bot_rng, np.array([1, 0]), np.array([[20.0], [0.0]]), out)
stats = k.play_many.stats
print(json.dumps({"score": int(out["score"].sum()), "hits": sum(stats.cache_hits.values()),
                  "misses": sum(stats.cache_misses.values())}))
"""


@pytest.fixture
def pig_copy(tmp_path: Path):
    """Pig copied as package ``pig_<random>`` under tmp_path; its loop's cache files removed afterwards."""
    name = f"pig_{uuid.uuid4().hex[:8]}"
    shutil.copytree(PIG, tmp_path / "pkgs" / name, ignore=shutil.ignore_patterns("__pycache__"))
    yield tmp_path / "pkgs", name
    for folder, pattern in engine.cache_patterns(name, []):
        for cached in folder.glob(pattern):
            cached.unlink(missing_ok=True)


def _run(root: Path, name: str) -> dict:
    out = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(root), name], capture_output=True, text=True, check=True, timeout=600
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_the_loop_is_cached_for_a_fresh_process_and_an_edit_recompiles(pig_copy) -> None:
    root, name = pig_copy
    first = _run(root, name)
    assert first["misses"] >= 1  # compiled and written to the cache
    again = _run(root, name)
    assert again == {**first, "hits": again["hits"], "misses": 0} and again["hits"] >= 1
    # a rule change in rules.py only: busting on the two lowest faces instead of one
    rules = root / name / "rules.py"
    text = rules.read_text()
    assert "if v == c.bust_face:" in text
    rules.write_text(text.replace("if v == c.bust_face:", "if v <= c.bust_face + 1:"))
    edited = _run(root, name)
    assert edited["misses"] >= 1, "the edit to rules.py did not recompile the loop"
    assert edited["score"] != first["score"], "the loop ran stale machine code after rules.py changed"


def _bind_in_worker(root: str, name: str) -> dict:
    sys.path.insert(0, root)
    namespace: dict = {}
    sys.argv = ["worker", root, name]
    from contextlib import redirect_stdout
    from io import StringIO

    buffer = StringIO()
    with redirect_stdout(buffer):
        exec(SCRIPT, namespace)
    return json.loads(buffer.getvalue().strip().splitlines()[-1])


def test_joblib_workers_load_the_loop_from_the_cache(pig_copy) -> None:
    root, name = pig_copy
    first = _run(root, name)
    results = Parallel(n_jobs=2, backend="loky")(delayed(_bind_in_worker)(str(root), name) for _ in range(2))
    for result in results:
        assert result["score"] == first["score"]
        assert result["misses"] == 0 and result["hits"] >= 1


def test_registered_games_bind_their_loop_under_their_own_name() -> None:
    from simlab import available_games, get_game

    for name in available_games():
        kernel = get_game(name).kernel
        assert kernel.play_many.py_func.__qualname__ == f"{name}.play_many"
        assert kernel.policy.py_func.__code__ is engine.loop.policy.__code__
