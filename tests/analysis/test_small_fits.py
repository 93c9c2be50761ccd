"""A starting-money sweep too small to fit: compensation says so (error: ..., exit 2); the report still builds."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from simlab.analysis.compensation import fit_logistic
from simlab.analysis.frames import AnalysisError
from simlab.cli import cli

SWEEP = Path(__file__).resolve().parents[2] / "scenarios" / "starting_money_sweep.toml"


@pytest.fixture(scope="module")
def tiny_sweep(tmp_path_factory):
    import simlab

    out = tmp_path_factory.mktemp("tiny") / "results"
    return simlab.run_scenario(SWEEP, games=4, chunk_size=4, jobs=1, out=out, progress=False)


def test_compensation_of_a_tiny_sweep_is_a_clear_error(tiny_sweep):
    result = CliRunner().invoke(cli, ["compensation", str(tiny_sweep)])
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("error: not enough games to fit (n=4") and "need at least 10" in result.stderr
    assert "Traceback" not in result.output


def test_report_of_a_tiny_sweep_is_written(tiny_sweep, tmp_path):
    out = tmp_path / "r.html"
    result = CliRunner().invoke(cli, ["report", str(tiny_sweep), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert out.read_text().startswith("<!DOCTYPE html>")


def test_a_fit_whose_seat_always_wins_is_a_clear_error():
    x = np.array([0.0, 2.0])
    n = np.array([50.0, 50.0])
    with pytest.raises(AnalysisError, match="not enough games to fit"):
        fit_logistic(x, n, n.copy(), lambda a, b: np.eye(2), 50, 0.25)
