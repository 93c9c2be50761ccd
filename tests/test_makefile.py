"""The Makefile's two commands install what each needs: `make demo` simlab alone, `make test` the test extras.

Checked with `make -n` (print, do not run) against a throwaway venv folder whose stamp files the test sets.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]

pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")


def dry_run(target: str, venv: Path) -> list[str]:
    result = subprocess.run(
        ["make", "-n", "-C", str(ROOT), target, f"VENV={venv}"], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    return [line for line in result.stdout.splitlines() if "pip install" in line]


def touch_fresh(path: Path) -> None:
    """A stamp newer than pyproject.toml."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.touch()
    later = max(time.time(), (ROOT / "pyproject.toml").stat().st_mtime) + 10
    os.utime(path, (later, later))


def test_demo_installs_simlab_without_the_extras(tmp_path):
    installs = dry_run("demo", tmp_path / "venv")
    assert len(installs) == 1
    assert installs[0].endswith("pip install --quiet -e .")
    assert "[test]" not in installs[0] and "dask" not in installs[0] and "ray" not in installs[0]


def test_test_installs_the_test_extras(tmp_path):
    installs = dry_run("test", tmp_path / "venv")
    assert len(installs) == 1 and installs[0].endswith("pip install --quiet -e '.[test]'")


def test_test_after_demo_adds_the_extras_and_demo_after_test_installs_nothing(tmp_path):
    venv = tmp_path / "venv"
    touch_fresh(venv / ".simlab-installed")  # as `make demo` leaves it
    assert dry_run("demo", venv) == []
    installs = dry_run("test", venv)
    assert len(installs) == 1 and "'.[test]'" in installs[0]
    touch_fresh(venv / ".simlab-test-installed")  # as `make test` leaves it (it touches both stamps)
    assert dry_run("test", venv) == []
    assert dry_run("demo", venv) == []


def test_a_changed_pyproject_reinstalls(tmp_path):
    venv = tmp_path / "venv"
    for name in (".simlab-installed", ".simlab-test-installed"):
        (venv / name).parent.mkdir(parents=True, exist_ok=True)
        (venv / name).touch()
        os.utime(venv / name, (1, 1))  # older than pyproject.toml
    assert len(dry_run("demo", venv)) == 1
    assert len(dry_run("test", venv)) == 1


def test_test_runs_the_suite_on_every_core_and_passes_extra_arguments(tmp_path):
    result = subprocess.run(
        ["make", "-n", "-C", str(ROOT), "test", f"VENV={tmp_path / 'venv'}", "PYTEST_ARGS=tests/core"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    pytest_lines = [line for line in result.stdout.splitlines() if "/pytest" in line]
    assert pytest_lines and pytest_lines[-1].endswith("pytest -n auto --dist worksteal tests/core")


def test_ci_runs_make_test():
    assert "make test" in (ROOT / ".ci" / "run").read_text()


def test_readme_links_stay_inside_the_clone():
    import re

    readme = (ROOT / "README.md").read_text()
    assert "../" not in readme and "DESIGN.md" not in readme
    for target in re.findall(r"\]\(([^)#]+)\)", readme):
        if "://" not in target:
            assert (ROOT / target).exists(), f"README links {target}, which is not in the repository"


def test_notebooks_installs_jupyter_and_opens_the_notebooks(tmp_path):
    """`make notebooks` adds the notebook extra (Jupyter) to the venv, lists the notebooks and opens them."""
    import tomllib

    venv = tmp_path / "venv"
    result = subprocess.run(
        ["make", "-n", "-C", str(ROOT), "notebooks", f"VENV={venv}"], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    installs = [line for line in result.stdout.splitlines() if "pip install" in line]
    assert len(installs) == 1 and installs[0].endswith("pip install --quiet -e '.[notebook]'")
    assert f"{venv}/bin/jupyter notebook" in result.stdout and "ls notebooks/*.ipynb" in result.stdout
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    assert any(dep.startswith("notebook") for dep in extras["notebook"])
    touch_fresh(venv / ".simlab-notebook-installed")
    assert dry_run("notebooks", venv) == []  # installed once
    demo = dry_run("demo", venv)  # the demo's own install never adds Jupyter
    assert all(line.endswith("pip install --quiet -e .") for line in demo)


def test_the_readme_says_how_to_open_the_notebooks():
    readme = (ROOT / "README.md").read_text()
    assert "make notebooks" in readme and "notebooks/" in readme
