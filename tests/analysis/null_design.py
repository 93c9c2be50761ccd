"""A null-variant design on the real Massilia engine, and the false-flag rates of the seat and paired analyses.

Massilia places its four price tiles at random at setup (a shuffle of the listed values), so listing them in
another order changes how each game plays (the same seed shuffles a different list) but not the distribution of
any result: every variant below is a true null against ``rulebook``. Blocks of consecutive games are
independent replications (each game has its own seed), so one run gives many analyses.

The seats of the real game are not equal (the first player wins more), so for the seat flags each block's
seat labels are permuted at random within every game: the seats are then exchangeable by construction, while
the outcomes keep the engine's joint distribution (split wins, correlated scores).

``python tests/analysis/null_design.py [games per variant] [block]`` measures the rates at a larger size (the
figures in the stats branch's report); ``test_null_variants.py`` runs it small. ``... null_design.py robust
[games] [block]`` measures the robustness verdicts' false rates over null bot panels (``test_robust.py``).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import polars as pl

#: the price tiles of the rulebook in three other orders: the same distribution, different games
ORDERS = {"tiles_b": [3, 2, 2, 1], "tiles_c": [2, 1, 3, 2], "tiles_d": [2, 3, 1, 2]}


def scenario(games: int, seed: int = 16) -> str:
    """The null design: the rulebook and the same rules with the price tiles listed in other orders."""
    head = f"""description = "null variants: the price tiles listed in other orders (same distribution)"
game = "massilia"
players = 4
games = {games}
seed = {seed}
chunk_size = {min(games, 2000)}
lineup = ["trader", "priest", "trader", "priest"]
preset = "rulebook"

[variants.rulebook]
"""
    return head + "".join(f"\n[variants.{v}]\nset = {{ price_tiles = {order} }}\n" for v, order in ORDERS.items())


def run(folder: Path, games: int, seed: int = 16) -> pl.DataFrame:
    """Play the design into ``folder`` and return its rows."""
    import simlab

    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "null.toml"
    path.write_text(scenario(games, seed))
    out = simlab.run_scenario(path, jobs=1, out=folder / "results", progress=False)
    return simlab.load_results(out).collect()


def relabelled(rows: pl.DataFrame, draws: int, seed: int = 0) -> pl.DataFrame:
    """``draws`` copies of the rows whose seats are permuted at random within each game (variant ``<v>~<d>``):
    exchangeable seats with the engine's outcomes."""
    rng = np.random.default_rng(seed)
    n = int(rows["seat"].max()) + 1
    rows = rows.sort("variant", "game", "seat")
    games = rows.height // n
    out = []
    for d in range(draws):
        perm = np.argsort(rng.random((games, n)), axis=1).ravel()
        out.append(rows.with_columns(pl.Series("seat", perm, dtype=rows["seat"].dtype), pl.col("variant") + f"~{d}"))
    return pl.concat(out)


def blocks(rows: pl.DataFrame, block: int) -> pl.DataFrame:
    """The rows with each block of ``block`` consecutive games as its own replication (variant ``<v>#<b>``)."""
    b = pl.col("game") // block
    return rows.with_columns(pl.col("variant") + "#" + b.cast(pl.String))


def seat_flag_rates(rows: pl.DataFrame, block: int, draws: int) -> dict[str, float]:
    """Per analysis (a block of one variant, seats relabelled): P(some seat flagged), old and new rule, and the
    equal-seats test's rejection rate; the gap's bias and its interval's coverage of the true 0."""
    from simlab.analysis import seat_advantage

    seats = seat_advantage(blocks(relabelled(rows, draws), block))
    fair = seats["fair_share"][0]
    per = seats.group_by("variant").agg(
        old=((pl.col("win_share_lo") > fair) | (pl.col("win_share_hi") < fair)).any(),
        new=pl.col("flag").is_not_null().any(),
        test=(pl.col("p_equal") < 0.05).first(),
        gap_raw=pl.col("gap_raw").first(),
        gap=pl.col("gap").first(),
        covered=(pl.col("gap_lo") <= 0).first(),
    )
    return {
        "analyses": per.height,
        "flag_old": per["old"].mean(),
        "flag_new": per["new"].mean(),
        "equal_seats_test": per["test"].mean(),
        "gap_raw_mean_points": per["gap_raw"].mean() * 100,
        "gap_corrected_mean_points": per["gap"].mean() * 100,
        "gap_interval_covers_0": per["covered"].mean(),
    }


def paired_rates(rows: pl.DataFrame, block: int) -> dict[str, float]:
    """Per block (three null variants against rulebook, 12 paired seat tests): P(any test flags), old (raw p)
    and new (Holm over the 12), per variant (4 tests) raw, and whether the largest change's interval excludes 0
    (its own interval, old; simultaneous over the 12, new)."""
    from simlab.analysis import compare_variants

    out = {"any12_old": [], "any12_new": [], "any4_old": [], "largest_old": [], "largest_new": []}
    for _, d in rows.with_columns((pl.col("game") // block).alias("_b")).group_by("_b"):
        cmp = compare_variants(d.drop("_b"), "rulebook")
        out["any12_old"].append(bool((cmp["p"] < 0.05).any()))
        out["any12_new"].append(bool((cmp["p_adjusted"] < 0.05).any()))
        for (_v,), dv in cmp.group_by("variant"):
            out["any4_old"].append(bool((dv["p"] < 0.05).any()))
            top = dv.with_columns(pl.col("diff").abs().alias("_a")).sort("_a", descending=True).row(0, named=True)
            out["largest_old"].append(top["diff_lo"] > 0 or top["diff_hi"] < 0)
            out["largest_new"].append(top["diff_slo"] > 0 or top["diff_shi"] < 0)
    rates = {k: float(np.mean(v)) for k, v in out.items()}
    return {"blocks": len(out["any12_old"]), **rates}


def main(games: int = 40_000, block: int = 800, draws: int = 4) -> None:
    import tempfile

    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        rows = run(Path(tmp), games)
        played = time.perf_counter() - t0
        print(f"{games:,} games per variant x {1 + len(ORDERS)} variants played in {played:.0f} s; block {block}")
        for name, value in seat_flag_rates(rows, block, draws).items():
            print(f"seats   {name:28s} {value:.4f}" if isinstance(value, float) else f"seats   {name:28s} {value}")
        for name, value in paired_rates(rows, block).items():
            print(f"paired  {name:28s} {value:.4f}" if isinstance(value, float) else f"paired  {name:28s} {value}")


#: the bot panel of the robustness null design: each plays the null scenario in every seat
PANEL = ("random", "trader", "priest")


def run_panel_rows(folder: Path, games: int, seed: int = 16, panel: Sequence[str] = PANEL) -> dict[str, pl.DataFrame]:
    """Play the null design once per panel bot (``simlab robust``'s runner) and return each entry's rows."""
    import simlab
    from simlab.experiments.panel import load_panel, run_panel

    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "null.toml"
    path.write_text(scenario(games, seed))
    root = run_panel(path, list(panel), out=folder / "results", games=games, jobs=1, progress=False)
    return {e.bot: simlab.load_results(e.folder).collect() for e in load_panel(root)[1]}


def seat_effects(seats: pl.DataFrame, bot: str, z: float) -> pl.DataFrame:
    """A bot's seat advantages as the robustness analysis's effect rows (estimate, se from the 95% interval)."""
    return seats.select(
        pl.lit("seat advantage").alias("kind"),
        pl.format("seat {}", pl.col("seat")).alias("effect"),
        pl.lit(bot).alias("bot"),
        (pl.col("win_share") - pl.col("fair_share")).alias("estimate"),
        ((pl.col("win_share_hi") - pl.col("win_share_lo")) / (2 * z)).alias("se"),
        pl.col("games").cast(pl.Int64),
    )


def null_panel_estimates(rows_by_bot: dict[str, pl.DataFrame], block: int, seed: int = 0) -> list[pl.DataFrame]:
    """One null panel per block of ``block`` games: for every bot, each seat's advantage in the rulebook (seats
    relabelled at random within each game: exchangeable) and each null variant's paired change of each seat's
    win share, as ``simlab.analysis.robust.panel_effects`` words them (kind, effect, bot, estimate, se, games)."""
    from simlab.analysis import compare_variants, seat_advantage
    from simlab.analysis.stats import z_value

    z = z_value(0.95)
    games = int(next(iter(rows_by_bot.values()))["game"].max()) + 1
    panels = []
    for b in range(games // block):
        parts = []
        for k, (bot, rows) in enumerate(rows_by_bot.items()):
            d = rows.filter((pl.col("game") // block) == b)
            seats = seat_advantage(relabelled(d.filter(pl.col("variant") == "rulebook"), 1, seed + 7919 * b + k))
            parts.append(seat_effects(seats, bot, z))
            change = compare_variants(d, "rulebook")
            parts.append(
                change.select(
                    pl.lit("variant change").alias("kind"),
                    pl.format("{}: seat {}", pl.col("variant"), pl.col("seat")).alias("effect"),
                    pl.lit(bot).alias("bot"),
                    pl.col("diff").alias("estimate"),
                    ((pl.col("diff_hi") - pl.col("diff_lo")) / (2 * z)).alias("se"),
                    pl.col("games").cast(pl.Int64),
                )
            )
        panels.append(pl.concat(parts, how="vertical_relaxed"))
    return panels


def robust_false_rates(panels: list[pl.DataFrame], alpha: float = 0.05) -> dict[str, float]:
    """Over null panels (every effect zero for every bot): the share of panels in which some effect is called
    "changes with the bots", "holds for every bot tested" or "not settled" — each at most ``alpha`` by design."""
    from simlab.analysis.robust import CHANGES, HOLDS, UNSETTLED, from_estimates

    found = [set(from_estimates(p, alpha=alpha).verdicts["verdict"]) for p in panels]
    return {
        "panels": len(found),
        "effects_per_panel": panels[0].select("kind", "effect").unique().height,
        "any_changes": float(np.mean([CHANGES in f for f in found])),
        "any_holds": float(np.mean([HOLDS in f for f in found])),
        "any_not_settled": float(np.mean([UNSETTLED in f for f in found])),
    }


def robust_main(games: int = 20_000, block: int = 500) -> None:
    """``python tests/analysis/null_design.py robust [games per variant] [block]``: the robustness verdicts'
    false rates over null panels of the real engine."""
    import tempfile

    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        rows = run_panel_rows(Path(tmp), games)
        played = time.perf_counter() - t0
        print(f"{len(rows)} bots x {games:,} games per variant x {1 + len(ORDERS)} variants in {played:.0f} s")
        rates = robust_false_rates(null_panel_estimates(rows, block))
        se = np.sqrt(0.05 * 0.95 / rates["panels"])
        for name, value in rates.items():
            print(f"robust  {name:28s} {value:.4f}" if isinstance(value, float) else f"robust  {name:28s} {value}")
        print(f"robust  nominal 0.05, sampling standard error {se:.4f}")


if __name__ == "__main__":
    if sys.argv[1:2] == ["robust"]:
        robust_main(*(int(a) for a in sys.argv[2:]))
    else:
        main(*(int(a) for a in sys.argv[1:]))
