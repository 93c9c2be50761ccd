"""The notebooks run top to bottom on small settings, through the same library calls as the CLI.

Each notebook is executed with nbclient in a fresh kernel (a copy: the committed outputs are left as they are),
with SIMLAB_NB_GAMES set small and SIMLAB_NB_RESULTS pointing at a temporary folder. A cell that raises fails
the test with the cell and its traceback; every notebook must also draw at least one chart.
"""

from __future__ import annotations

from pathlib import Path

import pytest

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
PATHS = sorted(NOTEBOOKS.glob("*.ipynb"))
#: games per variant in the test run (divisible by 4 so every seat sees each bot equally often)
GAMES = 120


def test_the_three_notebooks_exist():
    assert [p.name for p in PATHS] == [
        "01_seats_and_starting_money.ipynb",
        "02_card_value.ipynb",
        "03_market_shifts.ipynb",
    ]


@pytest.mark.parametrize("path", PATHS, ids=[p.stem for p in PATHS])
def test_notebook_runs(path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    import nbformat
    from nbclient import NotebookClient

    monkeypatch.setenv("SIMLAB_NB_GAMES", str(GAMES))
    monkeypatch.setenv("SIMLAB_NB_RESULTS", str(tmp_path))
    monkeypatch.setenv("SIMLAB_NB_JOBS", "1")
    nb = nbformat.read(path, as_version=4)
    assert any("parameters" in c.metadata.get("tags", []) for c in nb.cells), "no parameter cell"
    NotebookClient(nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(NOTEBOOKS)}}).execute()
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])]
    assert not [o for o in outputs if o.get("output_type") == "error"]
    assert any("image/png" in o.get("data", {}) for o in outputs), "the notebook drew no chart"
    assert list(tmp_path.iterdir()), "the notebook wrote its results somewhere else than SIMLAB_NB_RESULTS"


def test_the_notebook_helper_prints_floats_with_their_significant_digits():
    import polars as pl

    from simlab.notebook import setup_notebook

    with pl.Config():
        pl.Config.set_fmt_float("full")
        setup_notebook()
        shown = str(pl.DataFrame({"win": [0.019518634264255555, 0.25, 1234567.891]}))
    assert "0.019519" in shown and "0.0195186342" not in shown and "0.25" in shown


@pytest.mark.parametrize("path", PATHS, ids=[p.stem for p in PATHS])
def test_notebooks_use_the_shared_display_settings_and_show_progress(path: Path):
    import nbformat

    code = "\n".join(c.source for c in nbformat.read(path, as_version=4).cells if c.cell_type == "code")
    assert "setup_notebook()" in code and 'set_fmt_float("full")' not in code
    assert "progress=False" not in code  # a run from a notebook shows its progress
