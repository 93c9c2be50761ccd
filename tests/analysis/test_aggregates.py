"""The aggregate implementations give the same numbers as straightforward per-game pipelines.

The analyses avoid per-game sorts and windows (which dominate at millions of games): the equal-seats test
uses sufficient statistics, decisiveness and margins a pivot of simple per-game maxima, quantiles value
counts, and large inputs go in batches of games. Each is compared here with the direct per-game
computation it replaced, on small random data with ties, split wins and missing values of the kinds real
results have.
"""

from __future__ import annotations

import itertools

import numpy as np
import polars as pl
import pytest
from polars.testing import assert_frame_equal

import simlab.analysis as A
from simlab.analysis import metrics, stats
from simlab.analysis.markets import counted_quantiles


def random_rows(seed: int, variants: int = 3, games: int = 300, n: int = 4, rounds: int = 5) -> pl.DataFrame:
    """Games with per-round scores (many ties), split wins (2- and 3-way) and market-like small integers."""
    rng = np.random.default_rng(seed)
    out = []
    for v in range(variants):
        inc = rng.integers(0, 4, size=(games, n, rounds))
        per_round = inc.cumsum(axis=2)
        final = per_round[:, :, -1] + rng.integers(0, 3, size=(games, n))
        top = final.max(axis=1, keepdims=True)
        winners = final == top
        w = winners / winners.sum(axis=1, keepdims=True)
        rank = 1 + (final[:, :, None] < final[:, None, :]).sum(axis=2)
        turns = np.repeat(rng.integers(20, 40, size=(games, 1)), n, axis=1)
        marker = rng.integers(1, 4, size=(games, rounds))
        frame = {
            "variant": np.full(games * n, f"v{v}"),
            "game": np.repeat(np.arange(games), n),
            "seat": np.tile(np.arange(n), games).astype(np.int32),
            "bot": np.tile(np.array(["a", "b"] * (n // 2) + ["a"] * (n % 2)), games),
            "win_share": w.reshape(-1),
            "score": final.reshape(-1).astype(float),
            "rank": rank.reshape(-1).astype(np.int32),
            "turns": turns.reshape(-1).astype(np.int32),
        }
        for k in range(rounds):
            frame[f"score_r{k + 1}"] = per_round[:, :, k].reshape(-1).astype(np.int32)
            frame[f"marker_pink_r{k + 1}"] = np.repeat(marker[:, k], n).astype(np.int32)
            frame[f"price_temple_r{k + 1}"] = np.repeat(4 - marker[:, k], n).astype(np.int32)
        out.append(pl.DataFrame(frame))
    return pl.concat(out)


# -- the straightforward per-game references (the implementations before the aggregate ones) ------------
def ref_equal_seats(lf: pl.LazyFrame, n: int) -> pl.DataFrame:
    wide = lf.group_by("variant", "game").agg(
        pl.col("win_share").filter(pl.col("seat") == k).sum().alias(f"w{k}") for k in range(n)
    )
    pairs = [(i, j) for i in range(n) for j in range(i, n)]
    moments = (
        wide.group_by("variant")
        .agg(
            pl.len().alias("n"),
            *(pl.col(f"w{k}").mean().alias(f"m{k}") for k in range(n)),
            *((pl.col(f"w{i}") * pl.col(f"w{j}")).mean().alias(f"c{i}_{j}") for i, j in pairs),
        )
        .sort("variant")
        .collect()
    )
    rows = []
    for r in moments.iter_rows(named=True):
        m = np.array([r[f"m{k}"] for k in range(n)])
        cov = np.empty((n, n))
        for i, j in pairs:
            cov[i, j] = cov[j, i] = r[f"c{i}_{j}"] - m[i] * m[j]
        cov *= r["n"] / max(r["n"] - 1, 1)
        chi2, df, p = stats.equal_shares_test(m, cov, r["n"])
        rows.append({"variant": r["variant"], "chi2_equal": chi2, "df_equal": df, "p_equal": p})
    return pl.DataFrame(rows)


def ref_balance(lf: pl.LazyFrame) -> pl.DataFrame:
    scores = pl.col("score").cast(pl.Float64).sort(descending=True)
    per_game = lf.group_by("variant", "game").agg(
        pl.col("turns").first().alias("turns"),
        (pl.col("rank") == 1).sum().alias("winners"),
        (scores.first() - scores.get(1)).alias("margin"),
    )
    return (
        per_game.group_by("variant")
        .agg(
            pl.len().alias("games"),
            pl.col("turns").cast(pl.Float64).mean().alias("turns"),
            pl.col("turns").cast(pl.Float64).std().alias("turns_sd"),
            pl.col("margin").mean().alias("margin"),
            pl.col("margin").std().alias("margin_sd"),
            (pl.col("winners") > 1).sum().alias("draws"),
        )
        .sort("variant")
        .collect()
    )


def ref_lead(lf: pl.LazyFrame, ks: list[int]) -> pl.DataFrame:
    lead = {k: (pl.col(f"score_r{k}") == pl.col(f"score_r{k}").max().over("variant", "game")) for k in ks}
    rows = lf.with_columns(*(lead[k].alias(f"_lead{k}") for k in ks))
    win = pl.col("win_share")
    kept = [(~(pl.col(f"_lead{a}") & pl.col(f"_lead{b}")).any()).cast(pl.Int32) for a, b in itertools.pairwise(ks)]
    per_game = rows.group_by("variant", "game").agg(
        *(win.filter(pl.col(f"_lead{k}")).mean().alias(f"leader_wins_r{k}") for k in ks),
        (
            pl.max_horizontal([pl.when(~pl.col(f"_lead{k}")).then(pl.lit(k)).otherwise(pl.lit(0)) for k in ks])
            .filter(pl.col("rank") == 1)
            .mean()
            + 1
        ).alias("lead_from"),
        pl.sum_horizontal(kept).alias("lead_changes"),
    )
    cols = [*(f"leader_wins_r{k}" for k in ks), "lead_from", "lead_changes"]
    return (
        per_game.group_by("variant")
        .agg(
            pl.len().alias("games"),
            *(pl.col(c).cast(pl.Float64).mean() for c in cols),
            *(pl.col(c).cast(pl.Float64).std().alias(f"{c}_sd") for c in cols),
        )
        .sort("variant")
        .collect()
    )


# -- the comparisons ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_equal_seats_from_sufficient_statistics(seed):
    df = random_rows(seed)
    got = A.equal_seats_test(df).sort("variant")
    assert_frame_equal(got, ref_equal_seats(df.lazy(), 4), check_exact=False, rel_tol=1e-9, check_dtypes=False)
    seats = A.seat_advantage(df).group_by("variant").agg(pl.col("p_equal").first()).sort("variant")
    assert np.allclose(seats["p_equal"].to_numpy(), got["p_equal"].to_numpy(), rtol=1e-9)


def test_equal_seats_with_three_way_splits_and_synthetic_rows():
    from analysis_synth import seat_rows

    df = seat_rows(np.random.default_rng(5), 4, 400, np.array([0.3, 0.25, 0.25, 0.2]), tie=0.3)
    got = A.equal_seats_test(df).sort("variant")
    assert_frame_equal(got, ref_equal_seats(df.lazy(), 4), check_exact=False, rel_tol=1e-9, check_dtypes=False)


#: the layouts of the per-game metrics: rows as a run stores them (a reshape, in one batch or in batches that
#: cut games, carried over), and rows in another order (a group-by pivot, in one or several batches of games)
LAYOUTS = ["stored", "stored, batches", "sorted by seat", "sorted by seat, batches"]


def _laid_out(df: pl.DataFrame, layout: str, monkeypatch: pytest.MonkeyPatch) -> pl.DataFrame:
    if "batches" in layout:
        for name in ("ORDERED_BATCH", "SUMMARY_BATCH", "LEAD_BATCH"):
            monkeypatch.setattr(metrics, name, 250)  # 250 rows: not a whole number of 3- or 4-seat games
    if "sorted" in layout:
        df = df.sort("seat", "variant", "game")
        _refuse_a_reshape(monkeypatch)
    return df


def _refuse_a_reshape(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fail the test if rows that are not stored blocks of games get reshaped as games anyway."""
    real = metrics._reshape_games

    def checked(*args, **kwargs):
        real(*args, **kwargs)  # raises _NotInOrder, as it must
        raise AssertionError("rows out of game order were reshaped as games")

    monkeypatch.setattr(metrics, "_reshape_games", checked)


def _group_by_only(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args, **kwargs):
        raise metrics._NotInOrder

    monkeypatch.setattr(metrics, "_reshape_games", refuse)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_balance_summary_pivot_and_batches(monkeypatch, layout):
    df = _laid_out(random_rows(7), layout, monkeypatch)
    got = A.balance_summary(df)
    ref = ref_balance(df.lazy())
    assert got["games"].to_list() == ref["games"].to_list()
    assert got["draws"].to_list() == ref["draws"].to_list()
    for c in ("turns", "margin"):
        assert np.allclose(got[c].to_numpy(), ref[c].to_numpy(), rtol=1e-12)
        z = stats.z_value(0.95)
        half = (got[f"{c}_hi"] - got[c]).to_numpy()
        assert np.allclose(half, z * ref[f"{c}_sd"].to_numpy() / np.sqrt(ref["games"].to_numpy()), rtol=1e-9)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_lead_metrics_pivot_and_batches(monkeypatch, layout):
    df = _laid_out(random_rows(11, n=3), layout, monkeypatch)
    got = A.lead_metrics(df)
    ks = list(range(1, 6))
    ref = ref_lead(df.lazy(), ks)
    z = stats.z_value(0.95)
    for c in [*(f"leader_wins_r{k}" for k in ks), "lead_from", "lead_changes"]:
        assert np.allclose(got[c].to_numpy(), ref[c].to_numpy(), rtol=1e-12), c
        half = (got[f"{c}_hi"] - got[c]).to_numpy()
        assert np.allclose(half, z * ref[f"{c}_sd"].to_numpy() / np.sqrt(ref["games"].to_numpy()), rtol=1e-9), c


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_counted_quantiles_equal_polars(seed):
    rng = np.random.default_rng(seed)
    for size in (1, 2, 3, 10, 101, 1000):
        x = rng.integers(0, 7, size=size).astype(float)
        if seed == 3:
            x = rng.normal(size=size).round(1)
        s = pl.Series("x", x)
        counts = s.value_counts().to_dicts()
        qs = (0.0, 0.1, 0.25, 0.5, 0.75, 0.9, 1.0)
        want = [s.quantile(q, interpolation="linear") for q in qs]
        assert np.allclose(counted_quantiles(counts, "x", qs), want, rtol=0, atol=1e-12)


def test_market_quantiles_equal_a_sort():
    df = random_rows(13)
    got = A.market_trajectories(df)
    seat0 = df.filter(pl.col("seat") == 0)
    for r in got.iter_rows(named=True):
        prefix = "marker_pink" if r["series"] == "demand" else "price_temple"
        x = seat0.filter(pl.col("variant") == r["variant"])[f"{prefix}_r{r['round']}"].cast(pl.Float64)
        for q in (0.1, 0.25, 0.5, 0.75, 0.9):
            assert r[f"q{int(q * 100)}"] == pytest.approx(x.quantile(q, interpolation="linear"), abs=1e-12)


def test_merge_mean_aggs_equals_one_pass():
    rng = np.random.default_rng(3)
    df = pl.DataFrame({"g": rng.integers(0, 3, 500), "x": rng.normal(5, 2, 500)})
    whole = df.group_by("g").agg(*stats.mean_aggs("x")).sort("g")
    parts = [df[i : i + 97].group_by("g").agg(*stats.mean_aggs("x")).sort("g") for i in range(0, 500, 97)]
    merged = stats.merge_mean_aggs(parts, ["g"], ["x"])
    assert_frame_equal(merged, whole, check_exact=False, rel_tol=1e-12, check_dtypes=False)


@pytest.mark.parametrize("drop", [False, True])
def test_card_differences_without_a_row_join(drop):
    """Tagged sums per (card, game) equal pairing rows on (game, seat), also when a seat lacks its partner."""
    from simlab.analysis import cards

    base = random_rows(17, variants=1, games=200).drop("variant")
    names = ["control", "x_seat0", "x_seat1", "x_seat2", "x_seat3", "y_seat2"]
    rng = np.random.default_rng(17)
    df = pl.concat(
        [
            base.with_columns(
                pl.lit(v).alias("variant"),
                pl.Series("win_share", rng.permutation(base["win_share"].to_numpy())),
                pl.Series("score", rng.normal(50, 10, base.height)),
            )
            for v in names
        ]
    )
    if drop:  # an unfinished run: game 5 of x_seat1 and game 7 of the control are missing
        df = df.filter(
            ~((pl.col("variant") == "x_seat1") & (pl.col("game") == 5))
            & ~((pl.col("variant") == "control") & (pl.col("game") == 7))
        )
    design = cards.design_from_names(names)
    got = cards._collect_per_game(df.lazy(), design, "control").sort("label", "game")
    want = cards._paired_by_join(df.lazy(), design, "control").collect().sort("label", "game")
    assert_frame_equal(
        got, want.select(got.columns), check_exact=False, rel_tol=1e-12, abs_tol=1e-12, check_dtypes=False
    )


def test_shift_winners_equals_a_window_median():
    df = random_rows(19, games=301)
    markers = [c for c in df.columns if c.startswith("marker_")]
    count = pl.sum_horizontal([(pl.col(c) <= 1).cast(pl.Int32) for c in markers]).alias("_count")
    w = pl.col("win_share")
    ref = (
        df.with_columns(count)
        .with_columns((pl.col("_count") > pl.col("_count").median().over("variant")).alias("_shift"))
        .group_by("variant", "seat")
        .agg(
            pl.col("_shift").sum().alias("games_turbulent"),
            pl.col("_count").median().alias("median"),
            w.filter(pl.col("_shift")).mean().alias("t"),
            w.filter(~pl.col("_shift")).mean().alias("c"),
        )
        .sort("variant", "seat")
    )
    got = A.shift_winners(df, min_games=1)
    assert got["games_turbulent"].to_list() == ref["games_turbulent"].to_list()
    assert np.allclose(got["median_collapsed_rounds"].to_numpy(), ref["median"].to_numpy())
    assert np.allclose(got["win_share_turbulent"].to_numpy(), ref["t"].to_numpy(), rtol=1e-12)
    assert np.allclose(got["win_share_calm"].to_numpy(), ref["c"].to_numpy(), rtol=1e-12)


def test_score_summary_from_counts_equals_direct_quantiles():
    df = random_rows(23)
    got = A.score_summary(df, by=("variant", "seat"))
    s = pl.col("score")
    ref = (
        df.group_by("variant", "seat")
        .agg(
            pl.len().alias("rows"),
            s.mean().alias("score"),
            s.std().alias("sd"),
            *(s.quantile(q, interpolation="linear").alias(f"q{int(q * 100)}") for q in (0.1, 0.5, 0.9)),
        )
        .sort("variant", "seat")
    )
    assert_frame_equal(got.select(ref.columns), ref, check_exact=False, rel_tol=1e-12, check_dtypes=False)


@pytest.mark.parametrize("cut", [False, True])
def test_compare_variants_from_sums_equals_pairing(cut):
    """Paired moments from sums and non-zero products equal the game-by-game pairing (and an unfinished
    variant falls back to it)."""
    from simlab.analysis import seats

    df = random_rows(29)
    if cut:
        df = df.filter(~((pl.col("variant") == "v2") & (pl.col("game") > 250)))
    for metric in ("win_share", "score"):
        got = A.compare_variants(df, "v0", metric=metric)
        want = seats._compare_by_pairs(df.lazy(), "v0", metric, "seat")
        assert got["games"].to_list() == want["games"].to_list()
        for c in ("base", "value", "diff"):
            assert np.allclose(got[c].to_numpy(), want[c].to_numpy(), rtol=1e-12, atol=1e-15), (metric, c)
        se = (got["diff_hi"] - got["diff"]).to_numpy() / stats.z_value(0.95)
        assert np.allclose(se, want["diff__sd"].to_numpy() / np.sqrt(want["games"].to_numpy()), rtol=1e-9)


@pytest.mark.parametrize(("column", "per_game", "width"), [("score", False, 2.0), ("turns", True, 3.0)])
def test_distribution_one_scan_equals_direct(column, per_game, width):
    """The histogram's group mean and sd merged from its bins equal those of the rows themselves, and the
    games are the distinct games (counted, or as remembered for a folder's rows)."""
    df = random_rows(13)
    got = A.distribution(df, column, width=width, per_game=per_game)
    rows = df.filter(pl.col("seat") == 0) if per_game else df
    ref = (
        rows.group_by("variant")
        .agg(
            pl.col(column).mean().alias("mean"),
            pl.col(column).std().alias("sd"),
            pl.col("game").n_unique().alias("games"),
            pl.len().alias("n"),
        )
        .sort("variant")
    )
    per_variant = (
        got.group_by("variant")
        .agg(pl.col("mean", "mean_lo", "mean_hi", "games").first(), pl.col("count").sum())
        .sort("variant")
    )
    assert per_variant["count"].to_list() == ref["n"].to_list()
    assert per_variant["games"].to_list() == ref["games"].to_list()
    assert np.allclose(per_variant["mean"].to_numpy(), ref["mean"].to_numpy(), rtol=1e-12)
    half = (per_variant["mean_hi"] - per_variant["mean"]).to_numpy()
    if per_game:  # one value per game: the ordinary interval
        assert np.allclose(half, stats.z_value(0.95) * ref["sd"].to_numpy() / np.sqrt(ref["n"].to_numpy()), rtol=1e-9)
    else:  # per-seat values pooled: clustered by game (CR1 from each game's total and rows)
        g = (
            rows.filter(pl.col(column).is_not_null())
            .group_by("variant", "game")
            .agg(pl.col(column).sum().alias("t"), pl.len().alias("m"))
        )
        cr1 = []
        for (_v,), d in g.sort("variant").group_by("variant", maintain_order=True):
            t, m = d["t"].to_numpy(), d["m"].to_numpy().astype(float)
            y, k = t.sum() / m.sum(), len(t)
            cr1.append(np.sqrt(k / (k - 1) * ((t - y * m) ** 2).sum()) / m.sum())
        assert np.allclose(half, stats.z_value(0.95) * np.array(cr1), rtol=1e-9)
    direct = (
        rows.with_columns(((pl.col(column) / width).floor() * width).alias("bin"))
        .group_by("variant", "bin")
        .agg(pl.len().alias("count"))
        .sort("variant", "bin")
    )
    assert got.select("variant", "bin", "count").sort("variant", "bin").to_dicts() == direct.to_dicts()
    assert np.allclose(got.group_by("variant").agg(pl.col("fraction").sum())["fraction"].to_numpy(), 1.0)


def test_distribution_takes_remembered_games(tmp_path):
    """A report registers the manifest's games per variant; the distribution then skips counting them."""
    from simlab.analysis.frames import remember

    path = tmp_path / "rows.parquet"
    random_rows(17).write_parquet(path)
    lf = pl.scan_parquet(path)
    remember(lf, games={"v0": 1, "v1": 2, "v2": 3})
    got = A.distribution(lf, "score", width=2.0).group_by("variant").agg(pl.col("games").first()).sort("variant")
    assert got["games"].to_list() == [1, 2, 3]


def test_game_metrics_equals_the_two_analyses():
    df = random_rows(19, n=3)
    summary, lead = A.game_metrics(df)
    assert_frame_equal(summary, A.balance_summary(df))
    assert_frame_equal(lead, A.lead_metrics(df))
    assert A.game_metrics(df.drop([c for c in df.columns if c.startswith("score_r")]))[1] is None


@pytest.mark.parametrize("change", ["a missing seat", "a swapped pair of rows", "a game cut in two"])
def test_rows_out_of_game_order_take_the_group_by(monkeypatch, change):
    """Rows that are not blocks of one game's seats 0..n-1 are pivoted by a group-by, with the same result."""
    df = random_rows(23, n=3)
    if change == "a missing seat":
        df = df.filter(~((pl.col("game") == 17) & (pl.col("seat") == 1)))
    elif change == "a swapped pair of rows":
        order = np.arange(df.height)
        order[[30, 31]] = order[[31, 30]]
        df = df[order]
    else:  # rows of game 5 split by another game's
        order = np.arange(df.height)
        order[[16, 17, 18]] = order[[18, 16, 17]]  # game 5 = rows 15-17, game 6 = rows 18-20
        df = df[order]
    _refuse_a_reshape(monkeypatch)
    got = A.game_metrics(df)
    monkeypatch.undo()
    _group_by_only(monkeypatch)
    want = A.game_metrics(df)
    for g, w in zip(got, want, strict=True):
        assert_frame_equal(g, w)


@pytest.mark.parametrize("nulls", [False, True])
def test_in_order_and_group_by_pivots_agree(monkeypatch, nulls):
    df = random_rows(29, n=4)
    if nulls:  # a seat without a per-round score or a win share (as a failed column would leave)
        gaps = (pl.col("game") % 7 == 3) & (pl.col("seat") == 2)
        df = df.with_columns(pl.when(gaps).then(None).otherwise(pl.col(c)).alias(c) for c in ("score_r3", "win_share"))
    monkeypatch.setattr(metrics, "ORDERED_BATCH", 997)
    fast = A.game_metrics(df)
    _group_by_only(monkeypatch)
    slow = A.game_metrics(df)
    for f, s_ in zip(fast, slow, strict=True):
        assert f.select(pl.col(pl.Int64, pl.UInt32)).equals(s_.select(pl.col(pl.Int64, pl.UInt32)))
        assert_frame_equal(f, s_, check_exact=False, rel_tol=1e-12, abs_tol=0)


def test_value_counts_equal_polars_value_counts():
    """The compiled per-variant counting (negative values, wide ranges, nulls) equals polars' value counts."""
    from simlab.analysis.markets import value_counts

    rng = np.random.default_rng(23)
    size = 5_000
    df = pl.DataFrame(
        {
            "variant": rng.choice(["a", "b", "c"], size=size),
            "small": rng.integers(-3, 9, size=size).astype(np.int32),
            "wide": rng.integers(0, 1 << 40, size=size),  # too wide for a dense count
            "nulls": pl.Series(rng.integers(0, 5, size=size)).set(pl.Series(rng.random(size) < 0.1), None),
            "real": rng.random(size).round(1),
        }
    )
    counts, rows = value_counts(df.lazy(), ["small", "wide", "nulls", "real"])
    assert rows == {v: int((df["variant"] == v).sum()) for v in ("a", "b", "c")}
    for v in ("a", "b", "c"):
        for c in ("small", "wide", "nulls", "real"):
            ref = df.filter(pl.col("variant") == v)[c].drop_nulls().value_counts().sort(c)
            values, freq = counts[(v, c)]
            assert values.tolist() == ref[c].cast(pl.Float64).to_list(), (v, c)
            assert freq.tolist() == ref["count"].to_list(), (v, c)
