"""Verdicts valid at every look on the real engine: a null design read at several looks says no false "beyond".

The null design of ``null_design`` (Massilia's price tiles listed in other orders: every variant a true null
against ``rulebook``) is played once; ``settled_verdicts`` reads it as a settling run would, at looks of 500,
1,000, 2,000 and 4,000 games (game i is game i, so a look at n games is the folder's first n games of each
variant). Every change against the base is truly zero, so any "beyond" is false, whatever the tolerance; the
tolerance is set to 0.01 points, so every interval that excludes zero counts.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from null_design import ORDERS, scenario

from simlab.analysis import digest, sequential

GAMES = 4_000
LOOKS = (500, 1_000, 2_000, 4_000)


@pytest.fixture(scope="module")
def null_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    import simlab

    base = tmp_path_factory.mktemp("seqnull")
    path = base / "null.toml"
    path.write_text(scenario(GAMES).replace(f"chunk_size = {min(GAMES, 2000)}", "chunk_size = 500"))
    return simlab.run_scenario(path, jobs=1, out=base / "results", progress=False)


def test_a_null_design_read_at_every_look_has_no_false_beyond(null_folder):
    for n in LOOKS:
        verdicts = sequential.settled_verdicts(null_folder, tolerance=0.01, alpha=0.05, games=n)
        changes = [v for v in verdicts if v.key.startswith("change/")]
        assert len(changes) == len(ORDERS) * 4
        assert all(v.n == n and v.variants[1] == "rulebook" for v in changes)
        assert [v.key for v in changes if v.state == "beyond"] == [], n
        assert all(v.lo <= 0 <= v.hi for v in changes)
        # the equal-seats question of each variant agrees with its seats
        for variant in ["rulebook", *ORDERS]:
            seats = [v for v in verdicts if v.key.startswith(f"seats/{variant}/seat ")]
            equal = next(v for v in verdicts if v.key == f"seats/{variant}")
            assert len(seats) == 4 and (equal.state == "beyond") == any(v.state == "beyond" for v in seats)


def test_a_look_before_any_game_is_all_open(null_folder):
    verdicts = sequential.settled_verdicts(null_folder, tolerance=1.0, games=0)
    assert verdicts and all(v.state == "open" and v.n == 0 for v in verdicts)


def test_the_digest_and_the_rows_give_the_same_verdicts(null_folder, monkeypatch):
    from_digest = sequential.settled_verdicts(null_folder, tolerance=1.0, games=1_500)
    monkeypatch.setattr(digest, "load_digest", lambda folder: None)
    from_rows = sequential.settled_verdicts(null_folder, tolerance=1.0, games=1_500)
    assert [(v.key, v.n, v.state) for v in from_digest] == [(v.key, v.n, v.state) for v in from_rows]
    for a, b in zip(from_digest, from_rows, strict=True):
        assert a.estimate == pytest.approx(b.estimate, abs=1e-12)
        assert a.lo == pytest.approx(b.lo, abs=1e-12) and a.hi == pytest.approx(b.hi, abs=1e-12)
