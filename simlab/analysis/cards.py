"""Card value: what is one extra card of a kind worth, in win share, in points and in the game's money?

The causal answer comes from an intervention design (scenarios/card_value.toml): variant ``<card>_seat<k>``
deals seat k one extra card at setup, variant ``control`` deals nothing, and every variant plays the same
game seeds. For game i the granted seat's result minus the same seat's result in the control's game i is
the card's effect in that game; averaging over the seat variants (the card goes to each seat in turn) and
over games gives the value with a paired interval. Testing nine cards at once, the p-values are adjusted
(Holm by default, family-wise error; ``adjust="bh"`` for Benjamini–Hochberg false discovery rate).

Variants ``money<m>_seat<k>`` (seat k gets m extra units of starting money) in the same design price a
unit of money on the same seeds; otherwise a money slope from a starting-money sweep (``compensation``) can
be passed. Both give "one card is worth about k" (in the game's money, column ``money``) with a Fieller
interval. Which knobs deal the card and set the money is the game's declared interventions (``card`` and
``money``, see ``simlab.core.facts``); a game without a card intervention gets "not available for this
game". The played cards of the observational view are the columns of role ``card.played``.

The observational view (win share of seats that played the card at least once against those that did
not) is shown beside it and labelled correlational: a player who draws many cards, or is already winning,
plays more of them.
"""

from __future__ import annotations

import dataclasses
import math
import re
from pathlib import Path

import numpy as np
import polars as pl

from simlab.analysis import stats
from simlab.analysis.frames import (
    AnalysisError,
    Results,
    as_lazy,
    bots_label,
    names,
    require,
    require_intervention,
    roles,
)

VARIANT_RE = re.compile(r"^(?P<label>.+)_seat(?P<seat>\d+)$")
MONEY_RE = re.compile(r"^money(?P<amount>\d+)$")
#: a granted-points variant's label (the ``points`` intervention): analysed beside the cards, priced in money
POINTS_RE = re.compile(r"^points(?P<amount>\d+)$")
#: ``card_value(paired=False)``'s interval
UNPAIRED_METHOD = "unpaired: each seat's treated and control rows as independent samples (Welch), averaged over seats"


@dataclasses.dataclass(frozen=True)
class MoneyRate:
    """Win share gained per extra unit of money (and its standard error), e.g. from a compensation fit."""

    rate: float
    se: float
    source: str = "starting-money sweep"
    games: int | None = None  # games behind the rate (for "about N more needed" while it is undetermined)


def design_from_names(variants: list[str], control: str = "control") -> pl.DataFrame:
    """The intervention of each variant, read from its name ``<label>_seat<k>`` (the control is skipped)."""
    rows = []
    for v in variants:
        m = VARIANT_RE.match(v)
        if v != control and m:
            rows.append({"variant": v, "label": m.group("label"), "seat": int(m.group("seat"))})
    return pl.DataFrame(rows, schema={"variant": pl.String, "label": pl.String, "seat": pl.Int64})


def design_from_manifest(folder: str | Path, control: str = "control") -> pl.DataFrame:
    """The intervention of each variant, read from the configs in a result folder's manifest.

    A variant whose config deals a component through the game's ``card`` intervention is ``<card>`` for
    its seat; one that only raises one seat's starting money (the ``money`` intervention's knob) over the
    control's is ``money<m>``, its starting points (the ``points`` intervention's) ``points<m>``: every granted
    item is analysed, whatever unit it is priced in. NotAvailableError if the game declares no card
    intervention.
    """
    from simlab.run.reader import load_manifest

    manifest = load_manifest(folder)
    r = roles(folder)
    card = require_intervention(r, "card value", "card")
    money = r.intervention("money") or {}
    variants = {v["name"]: v["config"] for v in manifest["variants"]}
    if control not in variants:
        raise AnalysisError(f"{folder}: no control variant {control!r}")
    base = variants[control]
    knob, seat_knob, none = card["knob"], card.get("seat_knob"), card.get("none", "none")
    money_knob = money.get("knob")
    points_knob = (r.intervention("points") or {}).get("knob")
    rows = []
    for name, cfg in variants.items():
        if name == control:
            continue
        if cfg.get(knob, none) != none and (seat_knob is None or cfg.get(seat_knob, -1) >= 0):
            rows.append({"variant": name, "label": str(cfg[knob]), "seat": int(cfg.get(seat_knob, 0))})
            continue
        changed = {k for k in set(cfg) | set(base) if cfg.get(k) != base.get(k)}
        for label, offset_knob in (("money", money_knob), ("points", points_knob)):
            if offset_knob is None or changed != {offset_knob}:
                continue
            diff = [
                (k, a - b)
                for k, (a, b) in enumerate(zip(cfg.get(offset_knob, ()), base.get(offset_knob, ()), strict=False))
                if a != b
            ]
            if len(diff) == 1 and diff[0][1] > 0:
                rows.append({"variant": name, "label": f"{label}{diff[0][1]}", "seat": diff[0][0]})
    return pl.DataFrame(rows, schema={"variant": pl.String, "label": pl.String, "seat": pl.Int64})


def card_value(
    results: Results,
    design: pl.DataFrame | None = None,
    control: str = "control",
    money: MoneyRate | None = None,
    adjust: str = "holm",
    level: float = 0.95,
    paired: bool = True,
    control_variates: bool = False,
) -> pl.DataFrame:
    """Per intervention (card, or ``money<m>``): the granted seat's change in win share and score.

    Columns: label, kind (card/money), games, seats, win_share_diff (+ _lo/_hi), p, p_adjusted (over the
    cards only), score_diff (+ _lo/_hi), money (+ _lo/_hi; null without a money price), and the
    correlational view ``played_win_share``/``not_played_win_share``/``played_diff`` (+ _lo/_hi).
    ``paired=False`` ignores the pairing (each seat's treated and control rows as independent samples, see
    ``_unpaired_se``), only to show how much the pairing buys. ``control_variates=True`` (a game that declares
    chance facts, role ``chance.luck``) adjusts each game's differences for the luck of the games behind them
    (``simlab.analysis.chance.adjusted_card_games``): the same games, a narrower interval.
    """
    lf = as_lazy(results)
    if design is None:
        if isinstance(results, str | Path):
            design = design_from_manifest(results, control)
        else:
            variants = lf.select(pl.col("variant").unique()).collect()["variant"].to_list()
            if control not in variants:
                raise AnalysisError(f"no control variant {control!r} in these results")
            design = design_from_names(variants, control)
    require(lf, ("variant", "game", "seat", "win_share", "score"), "card_value")
    if design.is_empty():
        raise AnalysisError(
            "no intervention variants: name them <card>_seat<k> beside a control, as a game's card-value scenario "
            "does (docs/analysis.md)"
        )

    # the one per-game pipeline: collected once (one row per card and game), then summarised twice
    per_game_rows = _collect_per_game(lf, design, control)
    luck: dict[str, float] = {}
    if control_variates:
        from simlab.analysis import chance

        luck = chance.luck_columns(results)
        per_game_rows = chance.adjusted_card_games(lf, per_game_rows, design, control, luck)
    per_game = per_game_rows.lazy()
    out = _summarise(per_game, level, True if paired else _unpaired_se(lf, design, control)).sort("label")
    out = out.with_columns(
        pl.when(pl.col("label").str.contains(MONEY_RE.pattern))
        .then(pl.lit("money"))
        .when(pl.col("label").str.contains(POINTS_RE.pattern))
        .then(pl.lit("points"))
        .otherwise(pl.lit("card"))
        .alias("kind")
    )
    p = out["p"].to_numpy()
    is_card = (out["kind"] == "card").to_numpy()
    p_adj = np.full(len(p), np.nan)
    p_adj[is_card] = stats.adjust(p[is_card], adjust)
    out = out.with_columns(pl.Series("p_adjusted", p_adj), pl.lit(adjust).alias("adjustment"))
    out = _in_money(out, per_game, money, level)
    obs = observational(lf, control, level)
    if obs is not None:
        out = out.join(obs, on="label", how="left")
    method = stats.PAIRED_METHOD if paired else UNPAIRED_METHOD
    if luck:
        from simlab.analysis import chance

        method = f"{method}; {chance.method(luck)}"
    return out.with_columns(pl.lit(bots_label(lf)).alias("bots"), pl.lit(method).alias("interval"))


def _per_game_differences(lf: pl.LazyFrame, design: pl.DataFrame, control: str) -> pl.LazyFrame:
    """Per label and game: the granted seat's win-share and score change, averaged over seat variants.

    Without a join of rows with rows: the granted seats' rows are summed per (label, game) (a join with the
    small design frame picks them), the control's rows are pivoted per game (one column per granted seat),
    and the two are joined on the game. The mean per-game difference over the paired seats is then
    (Σ treated - Σ control over the same seats) / seats. A game where a treated seat has no control row, or a
    seat is granted twice, is recomputed by the pairwise join, so the result is that of pairing rows on
    (game, seat) in every case.
    """
    seats = sorted({int(k) for k in design["seat"].to_list()})
    d = design.lazy().select("variant", pl.col("seat").cast(pl.Int64), pl.col("label").cast(pl.Categorical))
    bit = pl.lit(2, dtype=pl.Int64).pow(pl.col("seat"))  # a bit per seat (seats < 63)
    treated = (
        lf.select(
            "variant",
            "game",
            pl.col("seat").cast(pl.Int64),
            pl.col("win_share").cast(pl.Float64).alias("_w"),
            pl.col("score").cast(pl.Float64).alias("_s"),
        )
        .join(d, on=["variant", "seat"], how="inner")  # a small build side: streams over the rows
        .group_by("label", "game")
        .agg(
            pl.len().alias("_n1"),
            bit.sum().alias("_m1"),
            pl.col("_w").sum().alias("_w1"),
            pl.col("_s").sum().alias("_s1"),
        )
    )
    seat = pl.col("seat").cast(pl.Int64)
    base = (
        lf.filter(pl.col("variant") == control)
        .group_by("game")
        .agg(
            bit.sum().alias("_m0"),
            *(pl.when(seat == k).then(pl.col("win_share").cast(pl.Float64)).sum().alias(f"_w0_{k}") for k in seats),
            *(pl.when(seat == k).then(pl.col("score").cast(pl.Float64)).sum().alias(f"_s0_{k}") for k in seats),
        )
    )
    m1 = pl.col("_m1")
    has = {k: (m1 // (2**k)) % 2 == 1 for k in seats}
    w0 = pl.sum_horizontal([pl.when(has[k]).then(pl.col(f"_w0_{k}")).otherwise(0.0) for k in seats])
    s0 = pl.sum_horizontal([pl.when(has[k]).then(pl.col(f"_s0_{k}")).otherwise(0.0) for k in seats])
    n = pl.col("_n1").cast(pl.Float64)
    # paired when every treated seat has a control row (m1 ⊆ m0) and each seat once (n1 = its bits)
    unpaired = ((m1 & pl.col("_m0")) != m1) | (
        pl.col("_n1") != pl.sum_horizontal([has[k].cast(pl.UInt32) for k in seats])
    )
    return treated.join(base, on="game", how="inner").select(
        pl.col("label").cast(pl.String),
        "game",
        pl.col("_n1").cast(pl.UInt32).alias("seats"),
        ((pl.col("_w1") - w0) / n).alias("dw"),
        ((pl.col("_s1") - s0) / n).alias("ds"),
        (pl.col("_w1") / n).alias("w1"),
        (w0 / n).alias("w0"),
        (pl.col("_s1") / n).alias("s1"),
        (s0 / n).alias("s0"),
        unpaired.alias("_unpaired"),
    )


def _paired_by_join(lf: pl.LazyFrame, design: pl.DataFrame, control: str) -> pl.LazyFrame:
    """The direct pairing of rows on (game, seat): used only for games where some seat lacks a partner."""
    d = design.lazy().with_columns(pl.col("seat").cast(pl.Int64))
    treated = (
        lf.with_columns(pl.col("seat").cast(pl.Int64))
        .join(d, on=["variant", "seat"], how="inner")
        .select("label", "game", "seat", pl.col("win_share").alias("w1"), pl.col("score").cast(pl.Float64).alias("s1"))
    )
    base = lf.filter(pl.col("variant") == control).select(
        "game",
        pl.col("seat").cast(pl.Int64),
        pl.col("win_share").alias("w0"),
        pl.col("score").cast(pl.Float64).alias("s0"),
    )
    return (
        treated.join(base, on=["game", "seat"], how="inner")
        .group_by("label", "game")
        .agg(
            pl.len().alias("seats"),
            (pl.col("w1") - pl.col("w0")).mean().alias("dw"),
            (pl.col("s1") - pl.col("s0")).mean().alias("ds"),
            pl.col("w1").mean().alias("w1"),
            pl.col("w0").mean().alias("w0"),
            pl.col("s1").mean().alias("s1"),
            pl.col("s0").mean().alias("s0"),
        )
    )


def _collect_per_game(lf: pl.LazyFrame, design: pl.DataFrame, control: str) -> pl.DataFrame:
    """The per-game differences, collected once with the streaming engine (no rows held in memory)."""
    df = _per_game_differences(lf, design, control).collect(engine="streaming")
    bad = df.filter(pl.col("_unpaired"))
    df = df.filter(~pl.col("_unpaired")).drop("_unpaired")
    if bad.height:
        fix = (
            _paired_by_join(lf, design, control)
            .join(bad.lazy().select("label", "game"), on=["label", "game"], how="semi")
            .collect()
        )
        df = pl.concat([df, fix.select(df.columns)], how="vertical_relaxed")
    return df


def _unpaired_se(lf: pl.LazyFrame, design: pl.DataFrame, control: str) -> pl.DataFrame:
    """Per label: the standard errors of the win-share and score change had the pairing been ignored.

    What the interval would be with every variant on its own seeds: the value averages the K granted seats,
    ``(1/K) Σ_k (T̄_k − C̄_k)``, where each treated variant is an independent sample and the control one shared
    sample, so SE² = Σ_k Var_treated,k / (n_k K²) + Var_games(c̄) / n_c, with c̄ a control game's mean over the
    K granted seats. The control's seats are not independent of each other: their win shares add up to 1 in
    every game, so when every seat is granted in turn c̄ is exactly 1/N and the control adds nothing (summing
    its seats' variances as if independent overstated the unpaired error, and so what the pairing buys).
    """
    d = design.lazy().select("variant", pl.col("seat").cast(pl.Int64), "label")
    w, sc = pl.col("win_share").cast(pl.Float64), pl.col("score").cast(pl.Float64)
    aggs = [pl.len().alias("n"), w.var().alias("vw"), sc.var().alias("vs")]
    rows = lf.with_columns(pl.col("seat").cast(pl.Int64))
    treated = (
        rows.join(d, on=["variant", "seat"], how="inner")
        .group_by("label", "seat")
        .agg(aggs)
        .group_by("label")
        .agg(
            pl.len().cast(pl.Float64).alias("k"),
            (pl.col("vw") / pl.col("n")).sum().alias("tw"),
            (pl.col("vs") / pl.col("n")).sum().alias("ts"),
        )
    )
    # the control term depends on a label only through its set of granted seats: computed once per set (a
    # few), not once per label (a join of the control's rows with every label's seats grew as labels x rows)
    sets = (
        d.select("label", "seat")
        .unique()
        .group_by("label")
        .agg(pl.col("seat").sort().cast(pl.String).str.join(",").alias("_set"))
    )
    set_seats = (
        sets.select("_set")
        .unique()
        .with_columns(pl.col("_set").str.split(",").cast(pl.List(pl.Int64)).alias("seat"))
        .explode("seat")
    )
    control_means = (
        rows.filter(pl.col("variant") == control)
        .join(set_seats, on="seat", how="inner")
        .group_by("_set", "game")
        .agg(w.mean().alias("cw"), sc.mean().alias("cs"))
        .group_by("_set")
        .agg(
            (pl.col("cw").var() / pl.len()).fill_null(0.0).alias("cw"),
            (pl.col("cs").var() / pl.len()).fill_null(0.0).alias("cs"),
        )
        .join(sets, on="_set", how="inner")
        .drop("_set")
    )
    k2 = pl.col("k") ** 2
    return (
        treated.join(control_means, on="label", how="inner")
        .select(
            "label",
            (pl.col("tw") / k2 + pl.col("cw")).sqrt().alias("_se_w"),
            (pl.col("ts") / k2 + pl.col("cs")).sqrt().alias("_se_s"),
        )
        .collect()
    )


def _summarise(per_game: pl.LazyFrame, level: float, paired: bool | pl.DataFrame) -> pl.DataFrame:
    """The value per label with its interval: paired (``True``), or with ``_unpaired_se``'s errors."""
    z = stats.z_value(level)
    agg = (
        per_game.group_by("label")
        .agg(
            pl.len().alias("games"),
            pl.col("seats").max().alias("seats"),
            pl.col("w1").mean().alias("win_share"),
            pl.col("w0").mean().alias("control_win_share"),
            pl.col("dw").mean().alias("win_share_diff"),
            pl.col("ds").mean().alias("score_diff"),
            pl.col("dw").var().alias("_vdw"),
            pl.col("ds").var().alias("_vds"),
        )
        .collect()
    )
    n = pl.col("games").cast(pl.Float64)
    if isinstance(paired, pl.DataFrame):
        agg = agg.join(paired, on="label", how="left")
        se_w, se_s = pl.col("_se_w"), pl.col("_se_s")
    else:
        se_w = (pl.col("_vdw") / n).sqrt()
        se_s = (pl.col("_vds") / n).sqrt()
    out = agg.with_columns(se_w.alias("win_share_diff_se"), se_s.alias("score_diff_se")).with_columns(
        (pl.col("win_share_diff") - z * pl.col("win_share_diff_se")).alias("win_share_diff_lo"),
        (pl.col("win_share_diff") + z * pl.col("win_share_diff_se")).alias("win_share_diff_hi"),
        (pl.col("score_diff") - z * pl.col("score_diff_se")).alias("score_diff_lo"),
        (pl.col("score_diff") + z * pl.col("score_diff_se")).alias("score_diff_hi"),
    )
    p = stats.normal_p(out["win_share_diff"].to_numpy(), out["win_share_diff_se"].to_numpy())
    return out.with_columns(pl.Series("p", p)).drop(pl.selectors.starts_with("_"))


def _in_money(out: pl.DataFrame, per_game: pl.LazyFrame, money: MoneyRate | None, level: float) -> pl.DataFrame:
    """Convert win-share changes to money: paired money variants first, else an external rate."""
    labels = out["label"].to_list()
    money_labels = [lab for lab in labels if MONEY_RE.match(lab)]
    from simlab.analysis.compensation import bounded, games_needed

    values: dict[str, tuple[float, float, float]] = {}
    needs: dict[str, tuple[float, float]] = {}  # label: (games behind the price, more games it needs)
    source = None
    if money_labels:
        ref = max(money_labels, key=lambda lab: int(MONEY_RE.match(lab).group("amount")))
        amount = int(MONEY_RE.match(ref).group("amount"))
        source = f"paired {ref} variants"
        m = per_game.filter(pl.col("label") == ref).select("game", pl.col("dw").alias("dm"))
        mom = (
            per_game.join(m, on="game", how="inner")
            .group_by("label")
            .agg(
                pl.len().alias("n"),
                pl.col("dw").mean().alias("mc"),
                pl.col("dm").mean().alias("mm"),
                pl.col("dw").var().alias("vc"),
                pl.col("dm").var().alias("vm"),
                pl.cov("dw", "dm").alias("cv"),
            )
            .collect()
        )
        for r in mom.iter_rows(named=True):
            g = r["n"]
            if g < 2:
                continue
            # money x solves (mm/amount)·x − mc = 0
            b = r["mm"] / amount
            vbb = r["vm"] / g / amount**2
            est = r["mc"] / b if b else math.nan
            lo, hi = stats.fieller(-r["mc"], b, 0.0, r["vc"] / g, -r["cv"] / g / amount, vbb, level)
            values[r["label"]] = (est, lo, hi)
            needs[r["label"]] = (g, 0.0 if bounded(lo, hi) else games_needed(g, b, math.sqrt(max(vbb, 0.0))))
        for lab in money_labels:  # a money variant is worth its amount, by definition
            values[lab] = (float(MONEY_RE.match(lab).group("amount")), None, None)
    elif money is not None:
        source = money.source
        for r in out.iter_rows(named=True):
            dw = r["win_share_diff"]
            est = dw / money.rate if money.rate else math.nan
            lo, hi = stats.fieller(-dw, money.rate, 0.0, r["win_share_diff_se"] ** 2, 0.0, money.se**2, level)
            values[r["label"]] = (est, lo, hi)
            n = money.games if money.games else math.nan
            more = 0.0 if bounded(lo, hi) else (games_needed(n, money.rate, money.se) if money.games else math.inf)
            needs[r["label"]] = (n, more)
    cols = [values.get(lab, (None, None, None)) for lab in labels]
    need = [needs.get(lab, (None, None)) for lab in labels]
    return out.with_columns(
        pl.Series("money", [c[0] for c in cols], dtype=pl.Float64),
        pl.Series("money_lo", [c[1] for c in cols], dtype=pl.Float64),
        pl.Series("money_hi", [c[2] for c in cols], dtype=pl.Float64),
        pl.lit(source, dtype=pl.String).alias("money_source"),
        pl.Series("money_games", [c[0] for c in need], dtype=pl.Float64),
        pl.Series("money_more_games", [c[1] for c in need], dtype=pl.Float64),
    )


def observational(results: Results, variant: str | None = "control", level: float = 0.95) -> pl.DataFrame | None:
    """CORRELATIONAL: win share of seats that played a card at least once vs seats that never did.

    Read from the columns of role ``card.played`` in ``variant`` (all rows if None). Not a card's value:
    players who are ahead, or draw more cards, also play more of them. The difference's interval is clustered
    by game (CR1: both groups' seats come from the same games). Returns None if there are no such columns.
    """
    lf = as_lazy(results)
    present = set(names(lf))
    played_col = {c: col for c, col in roles(results).by_item("card.played").items() if col in present}
    cards = list(played_col)
    if not cards:
        return None
    if variant is not None:
        lf = lf.filter(pl.col("variant") == variant)
    # per game and card: Σw and the seats with a share, among the seats that played it and those that did not;
    # the seats of one game share its luck (one winner), so the interval is clustered by game
    w = pl.col("win_share").cast(pl.Float64)
    aggs = []
    for c in cards:
        played = pl.col(played_col[c]) > 0
        for side, rows_ in (("1", played), ("0", ~played)):
            aggs += [
                w.filter(rows_).sum().alias(f"{c}__s{side}"),
                w.filter(rows_).count().alias(f"{c}__k{side}"),
                rows_.sum().alias(f"{c}__r{side}"),
            ]
    per_game = lf.group_by("variant", "game").agg(aggs).collect(engine="streaming")
    z = stats.z_value(level)
    clusters = per_game.height
    rows = []
    for c in cards:
        s1, k1, s0, k0 = (per_game[f"{c}__{x}"].cast(pl.Float64).to_numpy() for x in ("s1", "k1", "s0", "k0"))
        n1, n0 = int(per_game[f"{c}__r1"].sum()), int(per_game[f"{c}__r0"].sum())
        if not k1.sum() or not k0.sum():
            rows.append({"label": c, "played_share": n1 / max(n1 + n0, 1)})
            continue
        m1, m0 = s1.sum() / k1.sum(), s0.sum() / k0.sum()
        u = (s1 - m1 * k1) / k1.sum() - (s0 - m0 * k0) / k0.sum()  # each game's pull on the difference
        se = math.sqrt(clusters / max(clusters - 1, 1) * float((u * u).sum()))
        d = m1 - m0
        rows.append(
            {
                "label": c,
                "played_share": n1 / (n1 + n0),
                "played_win_share": m1,
                "not_played_win_share": m0,
                "played_diff": d,
                "played_diff_lo": d - z * se,
                "played_diff_hi": d + z * se,
            }
        )
    schema = {
        "label": pl.String,
        "played_share": pl.Float64,
        "played_win_share": pl.Float64,
        "not_played_win_share": pl.Float64,
        "played_diff": pl.Float64,
        "played_diff_lo": pl.Float64,
        "played_diff_hi": pl.Float64,
    }
    return pl.DataFrame(rows, schema=schema)
