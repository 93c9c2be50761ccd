"""Does a verdict hold for other bots? The scenario's headline effects compared across a bot panel.

A bot panel (``simlab.experiments.panel``) plays the scenario once per bot, that bot in every seat (or, with
``--seating one``, in one seat rotated among the scenario's lineup), on the same game seeds. For each headline
effect of the scenario, per panel bot:

- **seat advantage**: each seat's win share minus 1/N, in the base variant;
- **variant change**: each other variant's paired change of each seat's win share against the base (not in a
  card-value design, whose variants are the cards);
- **card value**: each card's paired change of the granted seat's win share (``card_value``).

Each estimate comes with its interval and games. Whether an effect changes with the bots is Cochran's Q test
of heterogeneity (the bot × effect interaction: are the panel's estimates one value seen with noise?), with
Holm's adjustment over all the effects tested, so the chance that any effect that is truly the same for
every bot is called "changes with the bots" is at most ``alpha``. The panel's runs share their game seeds,
which correlates their estimates positively; Q treats them as independent, which makes it conservative.

An effect's verdict, each under Holm's adjustment over the effects (so at most ``alpha`` is the chance that
*any* effect gets that verdict falsely):

- ``changes with the bots``: the interaction test rejects;
- ``holds for every bot tested``: every bot's own interval lies on the same side of zero (an
  intersection-union test: the largest of the bots' p-values, Holm-adjusted over the effects) and no
  interaction is detected. Point estimates that share a sign are not enough;
- ``not settled``: some bot's own test rejects zero after Holm's adjustment over every bot's test of every
  effect, but not every bot's does — more games per bot would decide it;
- ``no detectable effect for any bot``: no bot's test rejects, so adjusted.

The pooled (inverse-variance) estimate is reported (``pooled``, ``pooled_se``, ``p_pooled_adjusted``, Holm over
the effects) but decides no verdict: it treats the bots' estimates as independent, and their shared game seeds
correlate them positively, which would make a test of it too liberal.

Two panel entries that played identical games (``trader`` and ``trader:aggression=0.3`` where 0.3 is the
default) are one bot: ``simlab robust`` refuses such a panel, and an existing one is read with the
duplicate dropped and named (``Robustness.merged``), never counted twice in the pooled estimate.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import polars as pl

from simlab.analysis import stats
from simlab.analysis.frames import AnalysisError
from simlab.analysis.text import p_phrase

CHANGES = "changes with the bots"
HOLDS = "holds for every bot tested"
NONE = "no detectable effect for any bot"
UNSETTLED = "not settled"
#: the verdicts in words, by what the estimates are compared across: the bots of a panel, or the data
#: variants of a sensitivity run (``simlab.analysis.sensitivity``); the ``verdict`` column keeps the keys
WORDS = {
    "bot": {CHANGES: CHANGES, HOLDS: HOLDS, NONE: NONE, UNSETTLED: UNSETTLED},
    "variant": {
        CHANGES: "changes with the data",
        HOLDS: "keeps its sign for every data variant tested",
        NONE: "no detectable effect for any data variant",
        UNSETTLED: UNSETTLED,
    },
}
#: variant names tried, in order, as the base of the comparisons (as the report does)
BASE_NAMES = ("rulebook", "control", "original", "default", "base")
#: the panel's seating as panel.json words it (simlab.run.panel_folder.SEATINGS), when the panel is given as pairs
EVERY_SEAT = "each panel bot in every seat"


def method_for(seating: str) -> str:
    """The method line: the tests, the pooling and how the panel was seated."""
    return (
        "Cochran's Q test of the bot x effect interaction, Holm-adjusted over the effects; 'holds' needs every "
        "bot's interval on one side of zero (Holm-adjusted over the effects); 'not settled' needs some bot's "
        f"interval to exclude zero, Holm-adjusted over every bot and effect; {seating}, same game seeds"
    )


METHOD = method_for(EVERY_SEAT)


@dataclasses.dataclass
class Robustness:
    """``estimates``: one row per effect and bot (estimate, lo, hi, se, games); ``verdicts``: one row per effect
    (pooled estimate, Q, df, p_interaction, p_interaction_adjusted, p_every_adjusted, p_pooled_adjusted,
    p_detected_adjusted, verdict, sentence). ``merged``: entries dropped as duplicates of another (they played
    identical games), as "dropped = kept"."""

    estimates: pl.DataFrame
    verdicts: pl.DataFrame
    bots: list[str]
    alpha: float
    method: str = METHOD
    across: str = "bot"  # what the ``bot`` column holds: panel bots, or a sensitivity run's data variants
    seating: str = EVERY_SEAT  # how the panel's bots were seated (simlab.run.panel_folder.SEATINGS)
    merged: list[str] = dataclasses.field(default_factory=list)

    def lines(self) -> list[str]:
        """The verdicts in plain words, one line per effect, changes first; then any duplicate entries dropped."""
        order = {CHANGES: 0, UNSETTLED: 1, HOLDS: 2, NONE: 3}
        rows = sorted(self.verdicts.iter_rows(named=True), key=lambda r: (order[r["verdict"]], r["effect"]))
        return [r["sentence"] for r in rows] + [merged_note(self.merged)] * bool(self.merged)


def merged_note(merged: list[str]) -> str:
    """Says which panel entries were counted once because they played the same games as another."""
    return (
        f"counted once: {'; '.join(merged)} (identical games: the same bot under two names; a duplicate "
        "would count twice in the pooled estimate)"
    )


def panel_effects(folder: str | Path, base: str | None = None, level: float = 0.95) -> pl.DataFrame:
    """The headline effects of one result folder: kind, effect, estimate, lo, hi, se, games (see the module)."""
    from simlab.analysis.cards import card_value, design_from_manifest
    from simlab.analysis.seats import compare_variants, seat_advantage
    from simlab.analysis.words import words
    from simlab.run.reader import load_manifest

    manifest = load_manifest(folder)
    variants = [v["name"] for v in manifest["variants"]]
    base = base or next((name for name in BASE_NAMES if name in variants), variants[0])
    z = stats.z_value(level)
    parts: list[pl.DataFrame] = []
    seats = seat_advantage(folder, level).filter(pl.col("variant") == base)
    parts.append(
        seats.select(
            pl.lit("seat advantage").alias("kind"),
            pl.format("seat {} ({})", pl.col("seat"), pl.lit(base)).alias("effect"),
            (pl.col("win_share") - pl.col("fair_share")).alias("estimate"),
            ((pl.col("win_share_hi") - pl.col("win_share_lo")) / (2 * z)).alias("se"),
            pl.col("games").cast(pl.Int64),
        )
    )
    design = design_from_manifest(folder) if "control" in variants else pl.DataFrame()
    if design.height:
        cards = card_value(folder, design=design, level=level)
        parts.append(
            cards.filter(pl.col("kind") == "card").select(
                pl.lit(f"{words(folder).noun} value").alias("kind"),  # the game's word: god value, item value
                pl.format("{}", pl.col("label")).alias("effect"),
                pl.col("win_share_diff").alias("estimate"),
                ((pl.col("win_share_diff_hi") - pl.col("win_share_diff_lo")) / (2 * z)).alias("se"),
                pl.col("games").cast(pl.Int64),
            )
        )
    elif len(variants) > 1:
        change = compare_variants(folder, base, level=level)
        parts.append(
            change.select(
                pl.lit("variant change").alias("kind"),
                pl.format("{}: seat {}", pl.col("variant"), pl.col("seat")).alias("effect"),
                pl.col("diff").alias("estimate"),
                ((pl.col("diff_hi") - pl.col("diff_lo")) / (2 * z)).alias("se"),
                pl.col("games").cast(pl.Int64),
            )
        )
    out = pl.concat(parts, how="vertical_relaxed")
    return out.with_columns(
        (pl.col("estimate") - z * pl.col("se")).alias("lo"), (pl.col("estimate") + z * pl.col("se")).alias("hi")
    )


def robustness(
    panel: str | Path | Sequence[tuple[str, str | Path]],
    base: str | None = None,
    level: float = 0.95,
    alpha: float = 0.05,
) -> Robustness:
    """The panel's effects and a verdict per effect (see the module docstring).

    ``panel`` is a result folder with a panel (``simlab robust`` wrote ``<folder>/panel``), a panel folder, or
    (bot, result folder) pairs.
    """
    seating = EVERY_SEAT
    if isinstance(panel, str | Path):
        from simlab.run.panel_folder import SEATINGS, load_panel, seating_of

        meta, entries = load_panel(panel)
        pairs = [(e.bot, e.folder) for e in entries]
        seating = SEATINGS[seating_of(meta)]
    else:
        pairs = [(str(b), Path(f)) for b, f in panel]
    frames = []
    for bot, folder in pairs:
        try:
            frames.append(panel_effects(folder, base, level).with_columns(pl.lit(bot).alias("bot")))
        except (AnalysisError, OSError) as exc:
            raise AnalysisError(f"panel entry '{bot}' ({folder}): {exc}") from None
    frames, merged = distinct_entries(frames)
    estimates = pl.concat(frames, how="vertical_relaxed")
    result = from_estimates(estimates, level, alpha)
    return dataclasses.replace(result, method=method_for(seating), seating=seating, merged=merged)


def distinct_entries(frames: list[pl.DataFrame]) -> tuple[list[pl.DataFrame], list[str]]:
    """The entries' effect tables with any that repeats an earlier one exactly (every estimate and standard
    error: identical games, the same bot under two names) dropped, and the drops as "dropped = kept"."""
    kept: list[pl.DataFrame] = []
    merged: list[str] = []
    for frame in frames:
        key = frame.select("kind", "effect", "estimate", "se", "games")
        twin = next((k for k in kept if k.select("kind", "effect", "estimate", "se", "games").equals(key)), None)
        if twin is None:
            kept.append(frame)
        else:
            merged.append(f"{frame['bot'][0]} = {twin['bot'][0]}")
    return kept, merged


def from_estimates(
    estimates: pl.DataFrame, level: float = 0.95, alpha: float = 0.05, across: str = "bot"
) -> Robustness:
    """The verdicts from a table of per-bot estimates (columns kind, effect, bot, estimate, se, games).

    ``across`` words the sentences: "bot" (a bot panel) or "variant" (the ``bot`` column holds data variants).
    """
    if estimates.is_empty():
        raise AnalysisError("no effects to compare across the panel")
    bots = list(dict.fromkeys(estimates["bot"].to_list()))
    z = stats.z_value(level)
    if "lo" not in estimates.columns:
        estimates = estimates.with_columns(
            (pl.col("estimate") - z * pl.col("se")).alias("lo"), (pl.col("estimate") + z * pl.col("se")).alias("hi")
        )
    rows = []
    for (kind, effect), group in estimates.group_by(["kind", "effect"], maintain_order=True):
        rows.append(_heterogeneity(kind, effect, group))
    out = pl.DataFrame(rows)
    # one family for detection: every bot's own test of every effect (the pooled test is left out: it treats
    # the bots' estimates as independent, and their shared game seeds correlate them, which makes it liberal)
    family = stats.normal_p(estimates["estimate"].to_numpy(), estimates["se"].to_numpy())
    adjusted = stats.adjust(np.nan_to_num(family, nan=1.0), "holm")
    detected = (
        estimates.select("kind", "effect")
        .with_columns(pl.Series("p_adj", adjusted))
        .group_by("kind", "effect")
        .agg(p_detected_adjusted=pl.col("p_adj").min())
    )
    out = out.with_columns(
        pl.Series("p_interaction_adjusted", stats.adjust(out["p_interaction"].to_numpy(), "holm")),
        pl.Series("p_every_adjusted", stats.adjust(out["p_every"].to_numpy(), "holm")),
        pl.Series("p_pooled_adjusted", stats.adjust(out["p_pooled"].to_numpy(), "holm")),
    ).join(detected, on=["kind", "effect"], how="left", maintain_order="left")
    tests = len(family)
    verdicts = [
        _verdict(
            r,
            estimates.filter((pl.col("kind") == r["kind"]) & (pl.col("effect") == r["effect"])),
            alpha,
            across,
            (out.height, tests),
        )
        for r in out.iter_rows(named=True)
    ]
    out = out.with_columns(
        pl.Series("verdict", [v for v, _ in verdicts]), pl.Series("sentence", [s for _, s in verdicts])
    )
    return Robustness(estimates, out, bots, alpha, across=across)


def _heterogeneity(kind: str, effect: str, group: pl.DataFrame) -> dict[str, object]:
    """Cochran's Q over the bots' estimates of one effect, the pooled (fixed-effect) estimate, and the
    intersection-union p-value of "every bot's effect lies on the pooled estimate's side of zero"."""
    est = group["estimate"].to_numpy().astype(float)
    se = group["se"].to_numpy().astype(float)
    ok = np.isfinite(est) & np.isfinite(se) & (se > 0)
    every = 1.0 if not ok.all() else None  # a bot with no usable estimate: not every bot is seen
    est, se = est[ok], se[ok]
    if len(est) < 2:
        return dict(
            kind=kind,
            effect=effect,
            pooled=np.nan,
            pooled_se=np.nan,
            q=np.nan,
            df=0,
            p_interaction=1.0,
            p_pooled=1.0,
            p_every=1.0,
        )
    w = 1.0 / se**2
    pooled = float(np.sum(w * est) / np.sum(w))
    pooled_se = float(np.sqrt(1.0 / np.sum(w)))
    q = float(np.sum(w * (est - pooled) ** 2))
    df = len(est) - 1
    from scipy.stats import chi2

    if every is None:
        same_side = np.all(np.sign(est) == np.sign(pooled)) and pooled != 0
        every = float(np.max(stats.normal_p(est, se))) if same_side else 1.0
    return dict(
        kind=kind,
        effect=effect,
        pooled=pooled,
        pooled_se=pooled_se,
        q=q,
        df=df,
        p_interaction=float(chi2.sf(q, df)),
        p_pooled=float(stats.normal_p(pooled, pooled_se)),
        p_every=every,
    )


def _verdict(
    row: dict[str, object], group: pl.DataFrame, alpha: float, across: str, family: tuple[int, int]
) -> tuple[str, str]:
    """The effect's verdict (see the module) and its sentence, which says what decided it."""
    effects, tests = family
    if float(row["p_interaction_adjusted"]) < alpha:  # type: ignore[arg-type]
        verdict, why = CHANGES, ""
    elif float(row["p_every_adjusted"]) < alpha:  # type: ignore[arg-type]
        verdict, why = HOLDS, f"every {across}'s interval on one side of zero, Holm-adjusted over {effects} effects; "
    elif float(row["p_detected_adjusted"]) < alpha:  # type: ignore[arg-type]
        verdict = UNSETTLED
        why = (
            f"some {across}s' intervals exclude zero and others' do not, Holm-adjusted over {tests} tests; more "
            f"games per {across} would decide it; "
        )
    else:
        verdict, why = NONE, f"no {across}'s interval excludes zero, Holm-adjusted over {tests} tests; "
    per_bot = "; ".join(
        f"{b} {_points(e)} [{_points(a)}, {_points(c)}]"
        for b, e, a, c in zip(group["bot"], group["estimate"], group["lo"], group["hi"], strict=True)
    )
    games = group["games"].to_list()
    n = f"{min(games):,}" if min(games) == max(games) else f"{min(games):,}-{max(games):,}"
    n += f" games per {across}"
    p = p_phrase(_p(row["p_interaction_adjusted"]))
    head = f"{row['kind']}, {row['effect']}: {WORDS[across][verdict]}"
    sentence = f"{head} ({why}win share, points: {per_bot}; interaction {p} Holm-adjusted; {n})"
    return verdict, sentence


def _points(x: object) -> str:
    return f"{100 * float(x):+.1f}"  # type: ignore[arg-type]


def _p(p: object) -> str:
    value = float(p)  # type: ignore[arg-type]
    return f"{value:.2g}" if value >= 1e-4 else "<1e-4"
