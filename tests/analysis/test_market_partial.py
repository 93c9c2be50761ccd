"""Market partials: a chunk's state of ``market_summary``'s pass as frames, merged over chunks and finished.

A report built from the chunks' digests must give the row scan's market frames: counts, quantiles,
collapses and the exact-integer sale moments exactly, the float sums of win shares to rounding (they are
added in another order). Played on a small real Massilia run of two presets, cut into uneven game ranges.
"""

from __future__ import annotations

import io
import itertools
import random
from pathlib import Path

import polars as pl
import pytest
from polars.testing import assert_frame_equal

import simlab
from simlab.analysis import market_pass as P
from simlab.analysis.frames import bots_label
from simlab.analysis.markets import SERIES

SCENARIO = """\
description = "market partial tests: rulebook vs 2014 edition"
game = "massilia"
players = 4
games = 200
seed = 4242
chunk_size = 100
lineup = ["trader", "priest", "trader", "priest"]

[variants.rulebook]
preset = "rulebook"

[variants.quined2014]
preset = "quined2014"
"""

#: game-range cuts per variant (uneven, one chunk of a single game)
CUTS = (0, 13, 70, 71, 200)
ALL_SERIES = tuple(s for s, _p in SERIES)
#: columns that are sums of floats (win shares), equal to rounding only
FLOAT_SUMS = {"shift_winners": ["win_share_turbulent", "win_share_calm", "diff", "diff_lo", "diff_hi"]}


@pytest.fixture(scope="module")
def rows(tmp_path_factory: pytest.TempPathFactory) -> pl.DataFrame:
    base = tmp_path_factory.mktemp("market_partial")
    scenario = base / "markets.toml"
    scenario.write_text(SCENARIO)
    folder: Path = simlab.run_scenario(scenario, jobs=1, out=base / "results", progress=False)
    return simlab.load_results(folder).collect()


def chunks_of(rows: pl.DataFrame) -> list[pl.DataFrame]:
    """The rows as a worker sees them: per variant, consecutive game ranges (4 uneven ones)."""
    out = []
    for variant in ("rulebook", "quined2014"):
        mine = rows.filter(pl.col("variant") == variant).sort("game", "seat")
        games = sorted(set(mine["game"]))
        assert len(games) == CUTS[-1]
        for lo, hi in itertools.pairwise(CUTS):
            out.append(mine.filter(pl.col("game").is_in(games[lo:hi])))
    return out


def partials(rows: pl.DataFrame, series: tuple[str, ...] = P.PARTIAL_SERIES) -> list[dict[str, pl.DataFrame]]:
    parts = [P.market_partial(chunk, series=series) for chunk in chunks_of(rows)]
    assert all(p is not None for p in parts)
    return [p for p in parts if p is not None]


def assert_same_summary(got: P.MarketSummary, want: P.MarketSummary) -> None:
    """Frame by frame: exact but for the float sums of win shares (rounding of summation order)."""
    for name in ("trajectories", "collapses", "sale_yield", "shift_winners"):
        a, b = getattr(got, name), getattr(want, name)
        assert (a is None) == (b is None), name
        if a is None:
            continue
        floats = FLOAT_SUMS.get(name, [])
        assert_frame_equal(a.drop(floats), b.drop(floats), check_exact=True)
        assert_frame_equal(a.select(floats), b.select(floats), check_exact=False, rel_tol=1e-12, abs_tol=1e-15)


@pytest.mark.parametrize("series", [P.PARTIAL_SERIES, ALL_SERIES], ids=["report series", "all series"])
def test_merged_chunks_give_the_row_scan(rows: pl.DataFrame, series: tuple[str, ...]) -> None:
    want = P.market_summary(rows, series=series)
    bots = bots_label(rows.lazy())
    got = P.market_summary_from_partial(P.merge_market_partials(partials(rows, series)), bots=bots)
    assert_same_summary(got, want)
    assert got.trajectories.height > 0 and got.collapses["collapsed"].sum() > 0
    assert set(got.trajectories["series"]) == set(series)
    assert got.sale_yield is not None and got.sale_yield.height == 2
    # other settings of the finish
    assert_same_summary(
        P.market_summary_from_partial(
            P.merge_market_partials(partials(rows, series)), level=0.9, min_games=500, bots=bots
        ),
        P.market_summary(rows, level=0.9, min_games=500, series=series),
    )


def test_a_whole_frame_is_its_own_partial(rows: pl.DataFrame) -> None:
    """market_summary finishes from the state of its pass: the same frames as a partial of all the rows."""
    want = P.market_summary(rows, series=P.PARTIAL_SERIES)
    bots = bots_label(rows.lazy())
    for given in (rows, rows.lazy()):
        part = P.market_partial(given)
        assert part is not None
        assert_same_summary(P.market_summary_from_partial(part, bots=bots), want)


def test_frames_round_trip_through_arrow_ipc(rows: pl.DataFrame) -> None:
    part = P.market_partial(chunks_of(rows)[1])
    assert part is not None
    assert set(part) == {"columns", "counts", "games", "items", "collapses", "yields", "shift"}
    plain = (pl.String, pl.Float64, pl.Int64, pl.Int32, pl.UInt32)
    back = {}
    for kind, df in part.items():
        assert all(dtype in plain for dtype in df.dtypes), (kind, df.schema)
        file, stream = io.BytesIO(), io.BytesIO()
        df.write_ipc(file)
        df.write_ipc_stream(stream)
        back[kind] = pl.read_ipc(io.BytesIO(file.getvalue()))
        assert_frame_equal(back[kind], df, check_exact=True)
        assert_frame_equal(pl.read_ipc_stream(io.BytesIO(stream.getvalue())), df, check_exact=True)
    assert part["shift"]["seat"].dtype == rows["seat"].dtype
    assert_same_summary(P.market_summary_from_partial(back), P.market_summary_from_partial(part))


def test_merging_is_order_independent(rows: pl.DataFrame) -> None:
    parts = partials(rows)
    want = P.market_summary_from_partial(P.merge_market_partials(parts))
    shuffled = parts[:]
    random.Random(3).shuffle(shuffled)
    for order in (parts[::-1], shuffled):
        assert_same_summary(P.market_summary_from_partial(P.merge_market_partials(order)), want)
    # merging merged partials (a compaction's) and concatenated ones (a digest's) is merging them all
    nested = P.merge_market_partials([P.merge_market_partials(parts[:3]), P.merge_market_partials(parts[3:])])
    assert_same_summary(P.market_summary_from_partial(nested), want)
    concatenated = {k: pl.concat([p[k] for p in parts]) for k in parts[0]}
    assert_same_summary(P.market_summary_from_partial(P.merge_market_partials([concatenated])), want)
    # merge is deterministic for a given order
    again = P.merge_market_partials(parts)
    for kind, df in P.merge_market_partials(parts).items():
        assert_frame_equal(df, again[kind], check_exact=True)


def test_one_variant_alone(rows: pl.DataFrame) -> None:
    """A variant the other parts lack merges as well as one they share."""
    parts = partials(rows)
    alone = rows.filter(pl.col("variant") == "rulebook")
    got = P.market_summary_from_partial(P.merge_market_partials(parts[:4]), bots=bots_label(alone.lazy()))
    want = P.market_summary(alone, series=P.PARTIAL_SERIES)
    assert_same_summary(got, want)


def test_none_without_a_market_or_exact_sales(rows: pl.DataFrame) -> None:
    chunk = chunks_of(rows)[0]
    no_market = chunk.select("variant", "game", "seat", "bot", "win_share", "score")
    assert P.market_partial(no_market) is None
    assert P.market_partial(no_market.lazy()) is None
    blanked = chunk.with_columns(
        pl.when(pl.col("seat") == 1).then(None).otherwise(pl.col("sale_money")).alias("sale_money")
    )
    assert P.market_partial(blanked) is None  # sale_yield would need its own scan
    assert P.market_summary(blanked).sale_yield is not None  # which market_summary still does
    no_sales = P.market_partial(chunk.drop("sale_money"))
    assert no_sales is not None and "yields" not in no_sales
    assert P.market_summary_from_partial(no_sales).sale_yield is None


def test_merge_needs_a_partial() -> None:
    with pytest.raises(ValueError, match="no market partials"):
        P.merge_market_partials([])
