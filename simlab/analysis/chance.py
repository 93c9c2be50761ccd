"""Control variates from a game's chance facts: the same games, a narrower interval for each seat's win share.

A fact of role ``chance.luck`` whose expectation the game declares (``simlab.core.facts.Fact.expect``: the pips a
seat's dice showed above 3.5 a die is 0 on average whatever the players decided) is luck an estimate may subtract.
Per variant, the per-game vector of seat win shares y (one entry per seat) is regressed, with an intercept, on
z = c − E[c], the centred luck of every seat (q columns); a game's adjusted vector is u = y − z·β̂. Its mean is
the regression estimator of the seats' win shares: unbiased in large samples because E[z] = 0 is known, not
estimated, and with a variance smaller by the share of y's variance the luck explains. The interval is the
normal interval of u's mean, its variance inflated by (G − 1)/(G − 1 − q) for the q fitted coefficients
(coverage on a null design by simulation: tests/analysis/test_chance.py). Each game's adjusted shares still
add up to 1 (the shares do, and least squares is linear), so the equal-seats test reads them as it reads y.

Measured on the real engines (``benchmarks/variance_levers.py``, docs/running.md "Cheaper games per verdict"):
the variance per game falls to about 0.9 of today's where a game declares its dice luck; a game that declares no
chance facts is refused the option (its analysis is unchanged).
"""

from __future__ import annotations

import numpy as np
import polars as pl

from simlab.analysis.frames import AnalysisError, Results, as_lazy, names, roles

#: the role of a chance fact (a seat's luck with a declared expectation)
LUCK_ROLE = "chance.luck"
#: how the adjusted interval is made (written into the result frame, as the other interval methods are)
CV_METHOD = (
    "control variates: each game's value regressed on the seats' declared chance facts ({columns}) centred at "
    "their declared expectation, variance inflated for the fitted coefficients"
)


def luck_columns(results: Results) -> dict[str, float]:
    """Column -> declared expectation of every ``chance.luck`` fact in these results ({} if the game has none)."""
    present = set(names(as_lazy(results)))
    return {
        e["column"]: float(e["expect"])
        for e in roles(results).entries(LUCK_ROLE)
        if e.get("expect") is not None and e["column"] in present
    }


def _luck_rows(results: Results, luck: dict[str, float]) -> tuple[list[str], pl.DataFrame]:
    """The luck columns and the rows (variant, game, seat, win share, luck) sorted by game and seat; refused when
    no fact declares an expectation or some game lacks one (the adjusted estimate would be silently wrong)."""
    if not luck:
        raise AnalysisError("no chance facts with a declared expectation in these results (role chance.luck)")
    cols = list(luck)
    df = (
        as_lazy(results)
        .select("variant", "game", "seat", pl.col("win_share").cast(pl.Float64), *cols)
        .sort("variant", "game", "seat")
        .collect()
    )
    if df.select(pl.any_horizontal(pl.col(c).is_null() for c in ["win_share", *cols]).any()).item():
        raise AnalysisError(
            f"some games lack the chance facts {', '.join(cols)} (parts written before the game recorded them, or "
            "missing shares); analyse without control variates"
        )
    return cols, df


def adjusted_seat_sums(results: Results, luck: dict[str, float]) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Per variant and seat the win-share sums ``seat_advantage`` reads (``win_share__n``, ``win_share``,
    ``win_share__sd``, ``_w1``, ``_w2``) of the adjusted shares u, with ``win_share_variance_ratio`` (u's variance
    over y's, in-sample); and per variant the cross products Σ u_i·u_j (``c{i}_{j}``) over every game."""
    cols, df = _luck_rows(results, luck)
    n = int(df["seat"].max()) + 1
    per_rows, split_rows = [], []
    for (variant,), d in df.group_by("variant", maintain_order=True):
        if d.height % n or not (d["seat"].to_numpy().reshape(-1, n) == np.arange(n)).all():
            raise AnalysisError(f"variant {variant!r}: not every game has one row per seat; control variates need them")
        g = d.height // n
        y = d["win_share"].to_numpy().reshape(g, n)
        z = np.column_stack([d[c].to_numpy().reshape(g, n) - luck[c] for c in cols])  # every seat's luck
        u, inflate = _adjusted(y, z)
        for k in range(n):
            plain = float(y[:, k].var(ddof=1)) if g > 1 else float("nan")
            sd = float(np.sqrt(u[:, k].var(ddof=1) * inflate)) if g > 1 else None
            per_rows.append(
                {
                    "variant": variant,
                    "seat": k,
                    "win_share__n": g,
                    "win_share": float(u[:, k].mean()),
                    "win_share__sd": sd,
                    "_w1": float(u[:, k].sum()),
                    "_w2": float((u[:, k] ** 2).sum()),
                    "win_share_variance_ratio": (sd**2 / plain) if sd is not None and plain > 0 else None,
                }
            )
        split_rows.append(
            {"variant": variant} | {f"c{i}_{j}": float(u[:, i] @ u[:, j]) for i in range(n) for j in range(i + 1, n)}
        )
    return pl.DataFrame(per_rows), pl.DataFrame(split_rows)


def _adjusted(y: np.ndarray, z: np.ndarray) -> tuple[np.ndarray, float]:
    """u = y − z·β̂ (β̂ from least squares of y on an intercept and z) and the variance inflation (G−1)/(G−1−q)."""
    g, q = z.shape
    keep = z.std(axis=0) > 0  # a luck column constant in these games (no battles at all) explains nothing
    z = z[:, keep]
    q = z.shape[1]
    if g <= q + 2:
        raise AnalysisError(f"{g} games are too few for {q} control variates")
    x = np.column_stack([np.ones(g), z])
    beta, *_ = np.linalg.lstsq(x, y, rcond=None)
    return y - z @ beta[1:], (g - 1) / (g - 1 - q)


def method(luck: dict[str, float]) -> str:
    """The interval method's words for these chance facts."""
    return CV_METHOD.format(columns=", ".join(luck))


def adjusted_card_games(
    rows: Results, per_game: pl.DataFrame, design: pl.DataFrame, control: str, luck: dict[str, float]
) -> pl.DataFrame:
    """``card_value``'s per-game differences (label, game, dw, ds, …) with dw and ds adjusted for the luck of
    every game behind them: each seat's luck in the control's game and in each granted variant's game, centred at
    the declared expectation and regressed out per label. The spread around each label's mean is widened by
    √((G−1)/(G−1−q)), so the intervals computed from the frame carry the fitted coefficients' cost."""
    if not luck:
        raise AnalysisError("no chance facts with a declared expectation in these results (role chance.luck)")
    cols = list(luck)
    lf = as_lazy(rows).with_columns(pl.col("seat").cast(pl.Int64))
    centred = [(pl.col(c).cast(pl.Float64) - luck[c]).alias(c) for c in cols]
    d = design.lazy().select("variant", "label", pl.col("seat").cast(pl.Int64).alias("granted"))
    treated = (
        lf.join(d, on="variant", how="inner")
        .select("label", "game", "granted", "seat", *centred)
        .collect()
        .pivot(on=["granted", "seat"], index=["label", "game"], values=cols)
    )
    base = (
        lf.filter(pl.col("variant") == control)
        .select("game", "seat", *centred)
        .collect()
        .pivot(on="seat", index="game", values=cols)
    )
    base = base.rename({c: f"_c{c}" for c in base.columns if c != "game"})
    joined = per_game.join(treated, on=["label", "game"], how="left").join(base, on="game", how="left")
    zcols = [c for c in joined.columns if c not in per_game.columns]
    if joined.select(pl.col(zcols).is_null().any()).select(pl.any_horizontal(pl.all())).item():
        joined = joined.with_columns(pl.col(zcols).fill_null(0.0))  # a label without that seat's variant
    out = []
    for (_label,), g in joined.group_by("label", maintain_order=True):
        z = g.select(zcols).to_numpy().astype(float)
        z = z[:, z.std(axis=0) > 0] if len(z) else z
        adjusted = {}
        for name in ("dw", "ds"):
            y = g[name].to_numpy().astype(float)[:, None]
            u, inflate = _adjusted(y, z)
            m = u.mean()
            adjusted[name] = m + (u[:, 0] - m) * np.sqrt(inflate)
        out.append(
            g.select(per_game.columns).with_columns(pl.Series("dw", adjusted["dw"]), pl.Series("ds", adjusted["ds"]))
        )
    return pl.concat(out) if out else per_game


def adjusted_line(seats: pl.DataFrame) -> str:
    """One line saying what the adjustment of ``seat_advantage(..., control_variates=True)`` bought."""
    ratio = seats["win_share_variance_ratio"].drop_nulls()
    bought = f"variance per game x{ratio.mean():.2f} on average over the seats" if ratio.len() else "nothing measurable"
    return f"control variates (the seats' luck): {bought}, on the same games"


def adjusted_comparison(results: Results, base: str, luck: dict[str, float]) -> pl.DataFrame:
    """``compare_variants(rows, base)``'s paired moments per (variant, seat) — games, base, value, diff__n, diff,
    diff__sd — of the win-share changes adjusted for every seat's luck in both games of each pair (the variant's
    and the base's), centred at the declared expectation; the sd is widened for the fitted coefficients."""
    cols, df = _luck_rows(results, luck)
    n = int(df["seat"].max()) + 1
    wide = {
        str(v): d for (v,), d in df.group_by("variant", maintain_order=True) if d.height % n == 0
    }  # a variant with a game short of seats cannot be laid out: it is left to the plain comparison
    if base not in wide:
        raise AnalysisError(f"control variates need the base variant {base!r} with one row per seat of every game")

    def layout(d: pl.DataFrame) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        g = d.height // n
        games = d["game"].to_numpy().reshape(g, n)[:, 0]
        z = np.column_stack([d[c].to_numpy().reshape(g, n) - luck[c] for c in cols])
        return games, d["win_share"].to_numpy().reshape(g, n), z

    gb, wb, zb = layout(wide[base])
    rows = []
    for variant in sorted(v for v in wide if v != base):
        gv, wv, zv = layout(wide[variant])
        common, iv, ib = np.intersect1d(gv, gb, return_indices=True)
        y = wv[iv] - wb[ib]
        u, inflate = _adjusted(y, np.column_stack([zv[iv], zb[ib]]))
        for k in range(n):
            rows.append(
                {
                    "variant": variant,
                    "seat": k,
                    "games": len(common),
                    "base": float(wb[ib, k].mean()),
                    "value": float(wv[iv, k].mean()),
                    "diff__n": len(common),
                    "diff": float(u[:, k].mean()),
                    "diff__sd": float(np.sqrt(u[:, k].var(ddof=1) * inflate)),
                }
            )
    return pl.DataFrame(rows)
