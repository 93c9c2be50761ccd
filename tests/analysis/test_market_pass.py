"""The one market pass: ``market_summary`` (the report's), ``demand_collapses`` and ``shift_winners``.

Trajectories and sale yield are compared with their own scans (``market_trajectories``, ``sale_yield``);
collapses and turbulence with the declarative polars definitions below (the rules as the docs state
them), which the pass's compiled loops must agree with. Counts, medians and everything derived from
integer counts are compared exactly; the float sums of win shares and the integer moments of
``sale_yield`` are summed in another order (compensated / exact sums rounded once, where polars sums as it
goes), so those columns are compared within 1e-12 relative.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl
import pytest
from polars.testing import assert_frame_equal

import simlab
from simlab.analysis import market_pass as P
from simlab.analysis import markets as M
from simlab.analysis.frames import NoMarketError

COLOURS = ("pink", "orange", "purple")


def market_rows(
    seed: int, games: dict[str, int], rounds: int = 5, nulls: bool = False, sale_nulls: bool = False
) -> pl.DataFrame:
    """Games with per-game markers and prices repeated on every seat's row, per-seat sales and split wins.
    Purple's marker never falls to 1 (no collapse: null first round); ``nulls`` blanks some markers and
    win shares, ``sale_nulls`` some sale money."""
    rng = np.random.default_rng(seed)
    n = 4
    out = []
    for variant, g in games.items():
        frame: dict[str, np.ndarray] = {
            "variant": np.full(g * n, variant),
            "game": np.repeat(np.arange(g), n),
            "seat": np.tile(np.arange(n), g).astype(np.int32),
            "bot": np.tile(np.array(["trader", "priest"] * 2), g),
        }
        final = rng.integers(0, 4, size=(g, n))
        winners = final == final.max(axis=1, keepdims=True)
        frame["win_share"] = (winners / winners.sum(axis=1, keepdims=True)).reshape(-1)
        for colour in COLOURS:
            frame[f"sold_{colour}"] = rng.integers(0, 4, size=g * n).astype(np.int32)
        frame["sale_money"] = rng.integers(0, 30, size=g * n).astype(np.int32)
        frame["sale_fame"] = rng.integers(0, 8, size=g * n).astype(np.int32)
        for r in range(1, rounds + 1):
            for colour in COLOURS:
                low = 2 if colour == "purple" else 1
                frame[f"marker_{colour}_r{r}"] = np.repeat(rng.integers(low, 4, size=g), n).astype(np.int32)
                frame[f"harbour_{colour}_r{r}"] = np.repeat(rng.integers(0, 9, size=g), n).astype(np.int32)
            frame[f"price_temple_r{r}"] = np.repeat(rng.integers(1, 5, size=g), n).astype(np.int32)
        out.append(pl.DataFrame(frame))
    df = pl.concat(out)
    if nulls:
        blank = pl.Series(np.random.default_rng(seed + 1).random(df.height) < 0.05)
        df = df.with_columns(
            pl.when(blank).then(None).otherwise(pl.col(c)).alias(c)
            for c in ("marker_pink_r2", "marker_orange_r4", "win_share")
        )
    if sale_nulls:
        df = df.with_columns(
            pl.when(pl.col("game") % 7 == 3).then(None).otherwise(pl.col("sale_money")).alias("sale_money")
        )
    return df


def reference_collapses(rows: pl.LazyFrame | pl.DataFrame, floor: int, level: float) -> pl.DataFrame:
    """Collapses as polars expressions over the seat-0 rows: the first round with the marker at ``floor`` or
    below; a recovery is a later round with it above ``floor``; a null marker is neither."""
    lf = M.require_market(rows)
    markers = M._demand_rounds(lf.collect_schema().names())
    firsts, recs = [], []
    aggs: list[pl.Expr] = [pl.len().alias("games")]
    for i, by_r in enumerate(markers.values()):
        rounds = sorted(by_r)
        firsts.append(
            pl.min_horizontal([pl.when(pl.col(by_r[r]) <= floor).then(pl.lit(r)) for r in rounds]).alias(f"_first{i}")
        )
        first = pl.col(f"_first{i}")
        recs.append(
            pl.any_horizontal([(first < r) & (pl.col(by_r[r]) > floor) for r in rounds])
            .fill_null(False)
            .alias(f"_rec{i}")
        )
        aggs += [
            first.is_not_null().sum().alias(f"_collapsed{i}"),
            pl.col(f"_rec{i}").sum().alias(f"_recovered{i}"),
            first.mean().alias(f"_mean{i}"),
            first.std().alias(f"_sd{i}"),
        ]
    wide = (
        lf.filter(pl.col("seat") == 0).with_columns(firsts).with_columns(recs).group_by("variant").agg(aggs).collect()
    )
    return M._collapse_frame(wide, list(markers), level)


def reference_shift_winners(
    rows: pl.LazyFrame | pl.DataFrame, floor: int, level: float, min_games: int
) -> pl.DataFrame:
    """Turbulence as a polars expression on every row (round ends with a marker at ``floor`` or below),
    then rows, non-null shares and the sums of w and w² per (variant, seat, turbulence)."""
    lf = M.require_market(rows)
    markers = [c for s, _i, _r, c in M._columns(lf.collect_schema().names()) if s == "demand"]
    count = pl.sum_horizontal([(pl.col(c) <= floor).cast(pl.Int32) for c in markers]).alias("_count")
    w = pl.col("win_share").cast(pl.Float64)
    cells = (
        lf.select("variant", "seat", count, w.alias("_w"))
        .group_by("variant", "seat", "_count")
        .agg(
            pl.len().alias("count"),
            pl.col("_w").sum().alias("_sw"),
            (pl.col("_w") ** 2).sum().alias("_sq"),
            pl.col("_w").count().alias("_nw"),
        )
        .collect()
    )
    return M._shift_frame(cells, level, min_games)


def assert_same(
    rows: pl.LazyFrame | pl.DataFrame,
    floor: int = 1,
    level: float = 0.95,
    min_games: int = 30,
    series: tuple[str, ...] | None = None,
) -> P.MarketSummary:
    """The one pass (all four, and the two alone) against the scans and references; returns the summary."""
    kw = {"series": series} if series is not None else {}
    got = P.market_summary(rows, level=level, floor=floor, min_games=min_games, **kw)
    traj = M.market_trajectories(rows, level=level)
    if series is not None:
        traj = traj.filter(pl.col("series").is_in(series))
    assert got.trajectories.equals(traj)
    want_collapses = reference_collapses(rows, floor, level)
    # the counts and means exactly; the first round's interval (from a sum of squares against polars' std) closely
    for have in (got.collapses, P.demand_collapses(rows, floor=floor, level=level)):
        exact = [c for c in want_collapses.columns if not c.startswith("first_round_")]
        assert have.select(exact).equals(want_collapses.select(exact))
        assert_frame_equal(have, want_collapses, check_exact=False, rel_tol=1e-9)
    want = M.sale_yield(rows, level=level)
    assert got.sale_yield is not None
    assert got.sale_yield.select("variant", "rows", "cubes_per_seat").equals(
        want.select("variant", "rows", "cubes_per_seat")
    )
    assert_frame_equal(got.sale_yield, want, check_exact=False, rel_tol=1e-12, abs_tol=0)
    shift = reference_shift_winners(rows, floor, level, min_games)
    exact = ["variant", "seat", "games_turbulent", "games_calm", "median_collapsed_rounds"]
    for mine in (got.shift_winners, P.shift_winners(rows, floor=floor, level=level, min_games=min_games)):
        assert mine.select(exact).equals(shift.select(exact))
        assert_frame_equal(mine, shift, check_exact=False, rel_tol=1e-12, abs_tol=0)
    return got


@pytest.fixture(params=[M.COUNT_BATCH, 97], ids=["one batch", "many batches"])
def batch_rows(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> int:
    """Rows per streaming batch: the default, and a small one so partial counts and sums are merged."""
    monkeypatch.setattr(M, "COUNT_BATCH", request.param)
    monkeypatch.setattr(P, "SUMMARY_BATCH", request.param)  # the pass merges across batches too
    return request.param


def test_real_folder(real_folder: Path, batch_rows: int) -> None:
    rows = simlab.load_results(real_folder)
    got = assert_same(rows)
    assert got.trajectories.height > 0 and got.collapses["collapsed"].sum() > 0
    assert_same(rows, series=("demand", "price"))  # as the report asks


def test_real_folder_with_variants_filtered_out(real_folder: Path, batch_rows: int) -> None:
    rows = simlab.load_results(real_folder).filter(pl.col("variant").is_in(["control", "money4_seat3"]))
    got = assert_same(rows, level=0.9)
    assert set(got.collapses["variant"]) == {"control", "money4_seat3"}


def test_marker_never_at_the_floor_and_small_groups(batch_rows: int) -> None:
    rows = market_rows(5, {"big": 400, "small": 40})
    got = assert_same(rows)
    purple = got.collapses.filter(pl.col("item") == "purple")
    assert (purple["collapsed"] == 0).all() and purple["first_round"].is_null().all()
    diff = got.shift_winners["diff"]
    assert diff.is_null().any() and diff.is_not_null().any()  # groups under min_games give no difference
    assert_same(rows, floor=2, min_games=1)  # purple at its floor too


def test_nulls(batch_rows: int) -> None:
    rows = market_rows(6, {"a": 300, "b": 120}, nulls=True)
    assert_same(rows)
    assert_same(rows.lazy(), series=("demand",))


def test_sales_with_nulls_take_their_own_scan(batch_rows: int) -> None:
    rows = market_rows(7, {"a": 200}, sale_nulls=True)
    assert_same(rows)


def test_no_sales_and_no_market() -> None:
    rows = market_rows(8, {"a": 50})
    got = P.market_summary(rows.drop("sale_money"))
    assert got.sale_yield is None
    assert got.collapses.equals(reference_collapses(rows, 1, 0.95))
    no_market = rows.select("variant", "game", "seat", "bot", "win_share")
    for analysis in (P.market_summary, P.demand_collapses, P.shift_winners):
        with pytest.raises(NoMarketError, match="this game has no market"):
            analysis(no_market)
