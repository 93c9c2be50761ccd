"""Seat advantage: is the seat you start in worth something, and does a variant fix it?

With a rotated lineup every bot sits in every seat equally often, so a difference between seats is the
seat's, not the bots'. ``seat_advantage`` gives per variant and seat the win share, mean score and mean
rank with intervals, and a test that all seats are equal; ``compare_variants`` measures how a variant
changes each seat's result against a base variant, paired by game seed.
"""

from __future__ import annotations

import math

import numpy as np
import polars as pl

from simlab.analysis import stats
from simlab.analysis.frames import (
    AnalysisError,
    GameMajor,
    Results,
    as_lazy,
    game_major,
    names,
    remembered_bots,
    require,
)
from simlab.analysis.moments import coded_moments, combine_moments, group_sums
from simlab.analysis.paired import finish_comparison
from simlab.analysis.selected import corrected_offsets
from simlab.core.suggest import unknown_name

#: the columns ``seat_advantage`` reads
SEAT_COLUMNS = ("variant", "game", "seat", "win_share", "score", "rank")
#: what ``seat_advantage`` aggregates per variant and seat (besides the games and Σw, Σw²)
SEAT_AGGS = (*stats.mean_aggs("win_share"), *stats.mean_aggs("score"), *stats.mean_aggs("rank"))


def seat_advantage(results: Results, level: float = 0.95, control_variates: bool = False) -> pl.DataFrame:
    """Per variant and seat: games, win share, mean score and mean rank with intervals, and p_equal.

    ``p_equal`` (the same on every row of a variant) tests "every seat wins 1/N of the time" with a Wald
    χ² test on the per-game win-share vectors, which handles split wins; ``fair_share`` is 1/N.

    Two scans of the rows: one aggregate per variant and seat (the means, the sums the test needs, the
    bots), and one over the rows of games with a split win (see ``equal_seats_test``).

    ``control_variates=True`` (a game that declares chance facts, role ``chance.luck``): the win shares, their
    intervals, the flags and the equal-seats test are those of the shares adjusted for the seats' luck
    (``simlab.analysis.chance``), with ``win_share_variance_ratio`` per seat; the same games, a narrower interval.
    """
    lf = as_lazy(results)
    require(lf, SEAT_COLUMNS, "seat_advantage")
    per = _per_seat(lf, SEAT_AGGS)
    n = int(per["seat"].max()) + 1
    if not control_variates:
        return seat_advantage_from_partial(per.drop("_bots", strict=False), _split_products(lf, n), level, _bots(per))
    from simlab.analysis import chance

    luck = chance.luck_columns(results)
    adjusted, splits = chance.adjusted_seat_sums(lf, luck)
    adjusted = adjusted.with_columns(pl.col("seat").cast(per["seat"].dtype))
    win = ["win_share__n", "win_share", "win_share__sd", "_w1", "_w2"]
    per = per.drop(*win).join(adjusted, on=["variant", "seat"], how="left")
    out = seat_advantage_from_partial(per.drop("_bots", strict=False), splits, level, _bots(per))
    return out.with_columns(pl.lit(f"{stats.MEAN_METHOD}; {chance.method(luck)}").alias("interval"))


def seat_partial(rows: Results) -> tuple[pl.DataFrame, pl.DataFrame]:
    """``seat_advantage``'s sums of a set of rows (per seat; split-win products per variant), which add up
    over disjoint sets of games (``merge_seat_sums``, ``merge_split_products``): a digest keeps them."""
    if isinstance(rows, pl.DataFrame) and (layout := game_major(rows)) is not None:
        require(rows, SEAT_COLUMNS, "seat_advantage")
        return _seat_partial_in_order(layout)  # a chunk: sums whose bits do not depend on threads
    lf = as_lazy(rows)
    require(lf, SEAT_COLUMNS, "seat_advantage")
    per = _per_seat(lf.drop("bot", strict=False), SEAT_AGGS)
    return per.drop("_bots", strict=False), _split_products(lf, int(per["seat"].max()) + 1)


def _seat_partial_in_order(layout: GameMajor) -> tuple[pl.DataFrame, pl.DataFrame]:
    """``seat_partial`` of a chunk as a run writes it, from (games, seats) matrices: no group-by, a few ms."""
    n, rows = layout.seats, layout.rows
    keys = pl.DataFrame({"variant": [layout.variant] * n, "seat": pl.Series(range(n), dtype=rows["seat"].dtype)})
    w = layout.matrix("win_share")
    flat = {c: layout.matrix(c).ravel() for c in ("score", "rank")}
    per = coded_moments(
        keys,
        layout.codes(),
        {"win_share": w.ravel(), **flat},
        {"_w1": w.ravel(), "_w2": (w * w).ravel()},
        count="games",
    )
    split_share = np.where((w > 0) & (w < 1), w, 0.0)  # NaN compares false: a null share is no split
    split = split_share[(split_share > 0).any(axis=1)]
    pairs = {f"c{i}_{j}": split[:, i] * split[:, j] for i in range(n) for j in range(i + 1, n)}
    splits = coded_moments(pl.DataFrame({"variant": [layout.variant]}), np.zeros(len(split), dtype=np.int64), {}, pairs)
    return per, splits


def merge_seat_sums(per: pl.DataFrame) -> pl.DataFrame:
    """``seat_partial``'s per-seat frames of disjoint games (concatenated) merged per variant and seat."""
    return combine_moments(per, ["variant", "seat"], ["win_share", "score", "rank"], sums=("games", "_w1", "_w2"))


def merge_split_products(splits: pl.DataFrame) -> pl.DataFrame:
    """``seat_partial``'s split-win products of disjoint games (concatenated) added per variant."""
    return group_sums(splits, ["variant"], [c for c in splits.columns if c != "variant"])


def seat_advantage_from_partial(
    per: pl.DataFrame, splits: pl.DataFrame, level: float = 0.95, bots: str = ""
) -> pl.DataFrame:
    """``seat_advantage`` from its (merged) partial: the row scan and a digest end in this one function."""
    n = int(per["seat"].max()) + 1
    tests = _equal_seats(per, splits, n, level)
    per = per.drop("_w1", "_w2", "_bots", strict=False)
    for name in ("win_share", "score", "rank"):
        per = stats.with_mean_interval(per, name, level, keep_se=name == "win_share")
    out = per.join(tests, on="variant", how="left").with_columns(
        pl.lit(1.0 / n).alias("fair_share"), pl.lit(bots).alias("bots"), pl.lit(stats.MEAN_METHOD).alias("interval")
    )
    return _with_seat_flags(out, n, level)


def _with_seat_flags(df: pl.DataFrame, n: int, level: float) -> pl.DataFrame:
    """Each seat's test against 1/N and its simultaneous interval, and the flag read from both.

    A report names the seats that are off, so the seats are a family: read one by one at 95%, a fair
    four-seat game shows an "unfair" seat in about 15% of analyses. A seat is flagged only if the
    equal-seats test rejects first *and* its interval, simultaneous over the N seats (Bonferroni: each at
    1 − α/N), excludes 1/N — the family-wise error stays at most α whatever the seats' correlation.
    """
    z = stats.simultaneous_z(level, n)
    se, fair, alpha = pl.col("win_share_se"), pl.col("fair_share"), 1 - level
    df = df.with_columns(
        (pl.col("win_share") - z * se).alias("win_share_slo"),
        (pl.col("win_share") + z * se).alias("win_share_shi"),
        pl.Series(
            "p_seat", stats.normal_p((df["win_share"] - df["fair_share"]).to_numpy(), df["win_share_se"].to_numpy())
        ),
    )
    gate = pl.col("p_equal") < alpha
    return df.with_columns(
        pl.when(gate & (pl.col("win_share_slo") > fair))
        .then(pl.lit("advantaged"))
        .when(gate & (pl.col("win_share_shi") < fair))
        .then(pl.lit("disadvantaged"))
        .otherwise(pl.lit(None, dtype=pl.String))
        .alias("flag"),
        pl.lit(stats.simultaneous_method(level, n, "seats")).alias("simultaneous"),
    ).drop("win_share_se")


#: a variant's verdict against the designer's tolerance, in the words a report and the CLI use
VERDICTS = {
    "unequal": "the seats are unequal by more than the {tol}-point tolerance",
    "small": "the seats are detectably unequal, but whether by more than the {tol}-point tolerance is not yet "
    "determined",
    "within": "the seats are detectably unequal, but every seat is within the {tol}-point tolerance",
    "fair": "every seat is within the {tol}-point tolerance of the fair share",
    "undetermined": "no seat is detectably off, but the interval is too wide to say whether the seats are "
    "within the {tol}-point tolerance",
}


#: ``games_needed`` is capped at this many times the games played: a seat right at the tolerance's edge
#: needs without bound, and "more than 100 times as many" is the useful answer
MAX_NEEDED = 100


def seat_verdicts(seats: pl.DataFrame, tolerance: float = stats.DEFAULT_TOLERANCE) -> pl.DataFrame:
    """Per variant: whether the seats are unequal *by more than matters* (``tolerance``, in win share).

    "Detectably unequal" only says the games were many; a designer needs to know if the difference is worth
    fixing. Against the band 1/N ± tolerance, each seat's simultaneous interval (``seat_advantage``) is
    beyond it (unequal by more than the tolerance), inside it (within it), or across its edge (not yet
    determined: about ``games_needed`` games per seat would decide it, the interval shrinking as 1/√n, projected
    with the furthest seat's distance from 1/N corrected for its selection (``selected.corrected_offsets``); at
    most ``MAX_NEEDED`` times the games played, which means a seat sits almost on the tolerance's edge).
    Verdict codes: ``VERDICTS``. The seat shown is the one furthest from 1/N.
    """
    if tolerance < 0:
        raise AnalysisError(f"tolerance must be ≥ 0 points of win share, got {tolerance * 100:g}")
    rows = []
    for (variant,), d in seats.group_by("variant", maintain_order=True):
        fair = float(d["fair_share"][0])
        lo, hi = d["win_share_slo"].to_numpy(), d["win_share_shi"].to_numpy()
        share, games = d["win_share"].to_numpy(), int(d["games"].max())
        p_equal = d["p_equal"][0]
        beyond = (lo > fair + tolerance) | (hi < fair - tolerance)
        inside = (lo >= fair - tolerance) & (hi <= fair + tolerance)
        detected = p_equal is not None and p_equal < 1 - float(d["level"][0]) and d["flag"].drop_nulls().len() > 0
        if detected and beyond.any():
            verdict = "unequal"
        elif inside.all():
            verdict = "within" if detected else "fair"
        else:
            verdict = "small" if detected else "undetermined"
        off = np.abs(share - fair)
        k = int(np.nanargmax(off))
        half = (hi - lo) / 2
        undecided = ~(beyond | inside)
        # projected from the distances with the furthest seat's selection bias taken out: its own estimate
        # reads too far out and would promise a decision too soon
        se = (d["win_share_hi"] - d["win_share_lo"]).to_numpy() / (2 * stats.z_value(float(d["level"][0])))
        closer = corrected_offsets(share, se, fair)
        with np.errstate(divide="ignore", invalid="ignore"):
            need = games * (half / np.abs(tolerance - closer)) ** 2
        # an open verdict closes when, at today's estimates, the first seat past the tolerance is shown beyond
        # it (unequal), or else when the last seat inside is shown inside (within the tolerance)
        needed = 0.0
        if verdict in ("small", "undetermined") and undecided.any():
            past = undecided & (closer > tolerance)
            needed = float(np.nanmin(need[past])) if past.any() else float(np.nanmax(need[undecided]))
        rows.append(
            {
                "variant": variant,
                "games": games,
                "seats": d.height,
                "seat": int(d["seat"][k]),
                "win_share": float(share[k]),
                "win_share_slo": float(lo[k]),
                "win_share_shi": float(hi[k]),
                "fair_share": fair,
                "tolerance": tolerance,
                "p_equal": p_equal,
                "verdict": verdict,
                "games_needed": math.ceil(min(needed, MAX_NEEDED * games)) if needed > games else None,
                "gap": d["gap"][0],
                "gap_lo": d["gap_lo"][0],
                "gap_hi": d["gap_hi"][0],
                "simultaneous": d["simultaneous"][0],
            }
        )
    return pl.DataFrame(rows, schema_overrides={"games_needed": pl.Int64, "p_equal": pl.Float64})


def equal_seats_test(results: Results, n: int | None = None) -> pl.DataFrame:
    """Per variant: games, χ², degrees of freedom and p-value of "every seat's win share is 1/N".

    The test needs per variant the mean and covariance of the per-game vector of seat win shares. They
    come from sufficient statistics instead of one group per game: the means and the diagonal from sums
    of w and w² per seat, the off-diagonal sums Σ_games w_i·w_j from the games with a split win only (rows
    with 0 < w < 1). In a game won outright the winner has 1 and everyone else 0, so it adds nothing off
    the diagonal — this uses that a game's shares are ≥ 0 and sum to 1, as they do in every result folder.
    """
    lf = as_lazy(results)
    require(lf, ("variant", "game", "seat", "win_share"), "equal_seats_test")
    per = _per_seat(lf, ())
    n = n or int(per["seat"].max()) + 1
    return _equal_seats(per, _split_products(lf, n), n).select("variant", "chi2_equal", "df_equal", "p_equal")


def _per_seat(lf: pl.LazyFrame, aggs: tuple[pl.Expr, ...]) -> pl.DataFrame:
    """One scan: per variant and seat ``aggs``, rows (``games``), Σw, Σw² and the bots (a list)."""
    w = pl.col("win_share").cast(pl.Float64)
    known = remembered_bots(lf)  # a report knows them already: no string column to decode
    extra = [pl.col("bot").unique().alias("_bots")] if "bot" in names(lf) and known is None else []
    per = (
        lf.group_by("variant", "seat")
        .agg(pl.len().alias("games"), *aggs, w.sum().alias("_w1"), (w * w).sum().alias("_w2"), *extra)
        .sort("variant", "seat")
        .collect()
    )
    if per.is_empty():
        raise AnalysisError("no result rows")
    if known is not None:
        per = per.with_columns(pl.Series("_bots", [known] * per.height, dtype=pl.List(pl.String)))
    return per


def _bots(per: pl.DataFrame) -> str:
    if "_bots" not in per.columns:
        return ""
    return ", ".join(sorted({b for bots in per["_bots"].to_list() for b in bots if b is not None}))


def _split_products(lf: pl.LazyFrame, n: int) -> pl.DataFrame:
    """Per variant: Σ over games of w_i·w_j for every pair of seats i < j, from the games with a split win."""
    w = pl.col("win_share").cast(pl.Float64)
    wide = (
        lf.filter((w > 0) & (w < 1))
        .group_by("variant", "game")
        .agg(pl.when(pl.col("seat") == k).then(w).otherwise(0.0).sum().alias(f"w{k}") for k in range(n))
    )
    pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
    return (
        wide.group_by("variant")
        .agg(*((pl.col(f"w{i}") * pl.col(f"w{j}")).sum().alias(f"c{i}_{j}") for i, j in pairs))
        .collect()
    )


def _equal_seats(per: pl.DataFrame, splits: pl.DataFrame, n: int, level: float = 0.95) -> pl.DataFrame:
    """The Wald test per variant from the per-seat sums and the split-game cross products, and the gap
    between the best and the worst seat, bias-corrected with its interval (``stats.range_bootstrap``)."""
    cross = {r["variant"]: r for r in splits.iter_rows(named=True)}
    rows = []
    for (variant,), d in per.group_by("variant", maintain_order=True):
        g = int(d["games"].max())
        s1 = np.zeros(n)
        s2 = np.zeros(n)
        for r in d.iter_rows(named=True):
            if r["seat"] < n:
                s1[r["seat"]], s2[r["seat"]] = r["_w1"], r["_w2"]
        m = s1 / g
        prod = np.diag(s2)
        c = cross.get(variant, {})
        for i in range(n):
            for j in range(i + 1, n):
                prod[i, j] = prod[j, i] = c.get(f"c{i}_{j}") or 0.0
        cov = (prod / g - np.outer(m, m)) * (g / max(g - 1, 1))
        chi2, df, p = stats.equal_shares_test(m, cov, g)
        gap, gap_lo, gap_hi = stats.range_bootstrap(m, cov, g, level)
        rows.append(
            {
                "variant": variant,
                "chi2_equal": chi2,
                "df_equal": df,
                "p_equal": p,
                "gap_raw": float(m.max() - m.min()),
                "gap": gap,
                "gap_lo": gap_lo,
                "gap_hi": gap_hi,
                "level": level,
            }
        )
    schema = {
        "variant": pl.String,
        "chi2_equal": pl.Float64,
        "df_equal": pl.Int64,
        "p_equal": pl.Float64,
        "gap_raw": pl.Float64,
        "gap": pl.Float64,
        "gap_lo": pl.Float64,
        "gap_hi": pl.Float64,
        "level": pl.Float64,
    }
    return pl.DataFrame(rows, schema=schema)


def compare_variants(
    results: Results,
    base: str,
    metric: str = "win_share",
    by: str = "seat",
    level: float = 0.95,
    control_variates: bool = False,
) -> pl.DataFrame:
    """Change of ``metric`` in each other variant against ``base``, per ``by`` group, paired by game.

    Game i of every variant has the same seed, so the per-game difference cancels most of the luck;
    the interval is that of the mean per-game difference. Rows: variant, ``by``, games, base, value,
    diff, diff_lo, diff_hi, p.

    When every (variant, ``by``) holds one row per game over the same game range as the base (a finished
    run, ``by="seat"``), the paired moments come from sums per group and one product Σ value·base over the
    games where both are non-zero (a product with a zero adds nothing): no group per game and seat. Otherwise
    the rows are paired game by game.

    ``control_variates=True`` (win share by seat, a game that declares chance facts): each pair's change is adjusted
    for every seat's luck in both games (``simlab.analysis.chance.adjusted_comparison``).
    """
    lf = as_lazy(results)
    require(lf, ("variant", "game", by, metric), "compare_variants")
    if control_variates:
        from simlab.analysis import chance

        if (metric, by) != ("win_share", "seat"):
            raise AnalysisError("control variates adjust the win share by seat only (metric='win_share', by='seat')")
        luck = chance.luck_columns(results)
        out = finish_comparison(chance.adjusted_comparison(lf, base, luck), base, level)
        return out.with_columns(pl.lit(f"{stats.PAIRED_METHOD}; {chance.method(luck)}").alias("interval"))
    out = _compare_by_sums(lf, base, metric, by)
    if out is None:
        out = _compare_by_pairs(lf, base, metric, by)
    if out.is_empty():  # no pairs: say why if the base is missing (only then is the variant list read)
        variants = lf.select(pl.col("variant").unique()).collect()["variant"].to_list()
        if base not in variants:
            raise AnalysisError(f"these results: {unknown_name('variant', base, sorted(variants))}")
    return finish_comparison(out, base, level)


def _compare_by_pairs(lf: pl.LazyFrame, base: str, metric: str, by: str) -> pl.DataFrame:
    """The direct pairing: mean per (variant, game, ``by``), joined with the base's on (game, ``by``)."""
    keys = ["game", by]
    ref = lf.filter(pl.col("variant") == base).group_by(keys).agg(pl.col(metric).cast(pl.Float64).mean().alias("_base"))
    other = (
        lf.filter(pl.col("variant") != base)
        .group_by(["variant", *keys])
        .agg(pl.col(metric).cast(pl.Float64).mean().alias("_value"))
    )
    return (
        other.join(ref, on=keys, how="inner")
        .with_columns((pl.col("_value") - pl.col("_base")).alias("_d"))
        .group_by("variant", by)
        .agg(
            pl.len().alias("games"),
            pl.col("_base").mean().alias("base"),
            pl.col("_value").mean().alias("value"),
            *stats.mean_aggs("_d", "diff"),
        )
        .sort("variant", by)
        .collect()
    )


def _compare_by_sums(lf: pl.LazyFrame, base: str, metric: str, by: str) -> pl.DataFrame | None:
    """The paired moments from sums, or None when the rows are not one per game over the same games."""
    x = pl.col(metric).cast(pl.Float64)
    per = (
        lf.group_by("variant", by)
        .agg(
            pl.len().alias("n"),
            x.count().alias("nn"),
            x.sum().alias("s1"),
            (x * x).sum().alias("s2"),
            pl.col("game").min().alias("lo"),
            pl.col("game").max().alias("hi"),
        )
        .collect(engine="streaming")
    )
    ref = per.filter(pl.col("variant") == base).drop("variant")
    other = per.filter(pl.col("variant") != base)
    if ref.is_empty():
        return None
    joined = other.join(ref, on=by, how="inner", suffix="_b")
    one_per_game = (
        (pl.col("n") == pl.col("hi") - pl.col("lo") + 1)
        & (pl.col("n") == pl.col("nn"))
        & (pl.col("n_b") == pl.col("hi_b") - pl.col("lo_b") + 1)
        & (pl.col("n_b") == pl.col("nn_b"))
        & (pl.col("lo") == pl.col("lo_b"))
        & (pl.col("hi") == pl.col("hi_b"))
    )
    if joined.height != other.height or not joined.select(one_per_game.all()).item():
        return None
    nz = lf.filter(x != 0).select("variant", "game", by, x.alias("_x"))
    cross = (
        nz.filter(pl.col("variant") != base)
        .join(nz.filter(pl.col("variant") == base).select("game", by, pl.col("_x").alias("_b")), on=["game", by])
        .group_by("variant", by)
        .agg((pl.col("_x") * pl.col("_b")).sum().alias("_vb"))
        .collect(engine="streaming")
    )
    n = pl.col("n").cast(pl.Float64)
    mean_d = (pl.col("s1") - pl.col("s1_b")) / n
    ss_d = pl.col("s2") + pl.col("s2_b") - 2 * pl.col("_vb").fill_null(0.0)
    return (
        joined.join(cross, on=["variant", by], how="left")
        .select(
            "variant",
            by,
            pl.col("n").alias("games"),
            (pl.col("s1_b") / n).alias("base"),
            (pl.col("s1") / n).alias("value"),
            pl.col("n").alias("diff__n"),
            mean_d.alias("diff"),
            pl.when(n > 1).then(((ss_d - n * mean_d**2) / (n - 1)).clip(0.0).sqrt()).alias("diff__sd"),
        )
        .sort("variant", by)
    )
