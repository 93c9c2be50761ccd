"""The result folder as the report's sections read it (:class:`Context`), and the small helpers they share:
seat names, game counts, variant order and the chart wrapper.

``load_context`` reads the manifest and what the run's digests already say once, so that no section scans
thousands of part files to learn the seats, the games or the bots.
"""

from __future__ import annotations

import dataclasses
import tomllib
from pathlib import Path
from typing import Any

import polars as pl

import simlab
from simlab import analysis as A
from simlab.analysis import stats
from simlab.analysis.digest import Digest, load_digest
from simlab.analysis.frames import AnalysisError, bots_label, remember, remembered_bots, roles_from_manifest
from simlab.analysis.sweep import base_variant, money_sweep, not_a_sweep, scenario_example
from simlab.analysis.words import Words
from simlab.core.facts import MONEY_KNOB, Roles, Units
from simlab.report import charts
from simlab.report.embed import svg_data_uri
from simlab.report.model import Chart

#: charts and tables show every variant up to this many; beyond it (card runs, sweeps) only the base
MAX_FOCUS = 4


@dataclasses.dataclass
class Context:
    """The result folder as the sections need it: rows (lazy), manifest, base and focus variants."""

    folder: Path
    manifest: dict[str, Any]
    rows: pl.LazyFrame
    level: float
    base: str
    focus: list[str]
    configs: dict[str, dict[str, Any]]
    sweep: Path | None = None
    tolerance: float = stats.DEFAULT_TOLERANCE  # win share from 1/N that matters to the designer
    _money: Any = None
    digest: Digest | None = None  # the chunks' analysis partials: merged instead of scanning the rows
    roles: Roles = dataclasses.field(default_factory=lambda: Roles({}))  # the facts' roles, units, interventions

    @property
    def units(self) -> Units:
        """The game's words for its money and points."""
        return self.roles.units

    @property
    def words(self) -> Words:
        """The game's words as the CLI says them: its units and the noun of what a card intervention grants
        (a folder written before the noun was declared reads in the game's current noun)."""
        return Words.of(self.roles)

    @property
    def question(self) -> str:
        """The question the scenario says it asks (its ``question`` key: seats, cards, markets, balance), read
        from the run's scenario text; "" when it says none (and for a folder written before the key existed)."""
        try:
            said = tomllib.loads(self.manifest["scenario"].get("text", "")).get("question", "")
        except (tomllib.TOMLDecodeError, TypeError):
            return ""
        return said if isinstance(said, str) else ""

    def scenario_hint(self, kind: str) -> str:
        """ ", such as scenarios/X.toml": the game's own shipped scenario of that kind (``Game.scenarios``), or ""
        when it declares none (or is a plug-in not installed here): never another game's scenario."""
        return scenario_example(self.manifest["game"], kind)

    def money_knob(self) -> str | None:
        """The config knob of the game's money intervention (None without one)."""
        found = self.roles.intervention("money")
        return found["knob"] if found else None

    def money(self) -> Any:
        """Win share per unit of money from ``--sweep`` (a MoneyRate), or None without one."""
        if self.sweep is None:
            return None
        if self._money is None:
            manifest = simlab.load_manifest(self.sweep)
            configs = {v["name"]: v["config"] for v in manifest["variants"]}
            knob = self.money_knob() or MONEY_KNOB
            subset = money_sweep(configs, base_variant(manifest, configs), knob)
            if not subset:
                base = base_variant(manifest, configs)
                why = not_a_sweep(configs, base, knob, self.scenario_hint("money_sweep"))
                raise AnalysisError(f"{self.sweep} is not a starting-money sweep. {why}")
            rows = simlab.load_results(self.sweep).filter(pl.col("variant").is_in(subset))
            r = A.compensation(rows, level=self.level).fit.row(0, named=True)
            source = f"starting-money sweep in {self.sweep} (seat {r['seat']})"
            self._money = A.MoneyRate(r["rate"], r["rate_se"], source, r["games"])
        return self._money

    @property
    def games(self) -> dict[str, int]:
        """Games played per variant, from the manifest."""
        return {v["name"]: int(v.get("games_done", 0)) for v in self.manifest["variants"]}

    @property
    def variants(self) -> list[str]:
        return [v["name"] for v in self.manifest["variants"]]

    @property
    def palette(self) -> charts.VariantPalette:
        """One colour per variant for every chart, from the manifest's order (all variants, not the shown)."""
        return charts.VariantPalette.of(self.variants)

    @property
    def players(self) -> int:
        return int(self.manifest["players"])

    def focus_rows(self) -> pl.LazyFrame:
        """Rows of the shown variants only (each part file is one variant, so the rest is never read)."""
        if len(self.focus) == len(self.variants):
            return self.rows
        return self.rows.filter(pl.col("variant").is_in(self.focus))

    def partial(self, kind: str, variants: list[str] | None = None) -> Any:
        """The digest's merged partial of ``kind`` for ``variants`` (the shown ones), None without one."""
        if self.digest is None:
            return None
        return self.digest.partial(kind, variants if variants is not None else self.focus)

    def bots(self) -> str:
        """The bots of the rows (every variant seats the same lineup), as ``bots_label`` gives them."""
        return ", ".join(remembered_bots(self.rows) or [])

    def hashes(self, variants: list[str]) -> str:
        by = {v["name"]: v["config_hash"] for v in self.manifest["variants"]}
        return ", ".join(f"{v} {by[v]}" if v in by else v for v in variants)

    def caption(self, what: str, games: str, bots: str, method: str, variants: list[str]) -> str:
        """The caption under a chart: what it shows, games, bots, interval method, seed and config hashes."""
        m = self.manifest
        parts = [what.rstrip(".") + "."] if what else []
        parts.append(f"Games: {games}.")
        if bots:
            parts.append(f"Bots: {bots}.")
        if method:
            parts.append(f"Intervals: {self.level:.0%} {method}.")
        parts.append(
            f"Scenario {m['scenario']['name']}, root seed {m['root_seed']}; config hash {self.hashes(variants)}."
        )
        return " ".join(parts)

    def chart(self, fig: Any, title: str, caption: str) -> Chart:
        """A drawn figure as the report embeds it; the page prints the title before the caption, so a caption
        sentence repeating it (or itself) is dropped."""
        return Chart(
            title=title, src=svg_data_uri(fig), caption=charts.without_repeats(caption, title), alt=f"Chart: {title}"
        )


def load_context(folder: Path, level: float) -> Context:
    """The context of a result folder: manifest, lazy rows, base and shown variants, roles and digests."""
    manifest = simlab.load_manifest(folder)
    rows = simlab.load_results(folder)
    configs = {v["name"]: v["config"] for v in manifest["variants"]}
    base = base_variant(manifest, configs)
    names = list(configs)
    focus = names if len(names) <= MAX_FOCUS else [base]
    ctx = Context(folder, manifest, rows, level, base, focus, configs, digest=load_digest(folder))
    ctx.roles = roles_from_manifest(manifest, rows.collect_schema().names())
    # what the manifest already says, so that no analysis scans thousands of part files to learn it: the
    # seats, and a game range that covers every game (batches of games only need to cover them all)
    done = ctx.games
    games = max([int(manifest.get("games", 0)), *done.values()])
    label = ctx.digest.bots(names) if ctx.digest is not None else ""
    label = label or bots_label(ctx.rows)  # one scan for the whole report, without a digest
    bots = [b.strip() for b in label.split(",") if b.strip()]
    for lf, chosen in ((ctx.rows, names), (ctx.focus_rows(), focus)):
        remember(
            lf,
            players=int(manifest["players"]),
            game_min=0,
            game_max=max(games - 1, 0),
            variants=len(chosen),
            games={v: done[v] for v in chosen},
            bots=bots,
        )
    return ctx


def bots_of(df: pl.DataFrame) -> str:
    """The bots column of an analysis' result (one label for every row), "" without one."""
    return str(df["bots"][0]) if "bots" in df.columns and df.height else ""


def games_label(games: Any, per: str = "per variant") -> str:
    """Games as a count or a range ("1,000 per variant", "980–1,000 per variant")."""
    lo, hi = int(min(games)), int(max(games))
    return f"{lo:,} {per}" if lo == hi else f"{lo:,}–{hi:,} {per}"


def seat_name(k: int) -> str:
    """Seat 0 starts the game; the report says so wherever a seat is named."""
    return f"seat {k}" + (" (first player)" if k == 0 else "")


def sentence(prefix: str, rest: str) -> str:
    """``prefix + rest``, capitalised when there is no prefix ("In rulebook, seat 0 …" / "Seat 0 …")."""
    return prefix + rest if prefix else rest[:1].upper() + rest[1:]


def ordered(df: pl.DataFrame, variants: list[str]) -> pl.DataFrame:
    """Rows in the manifest's variant order (analyses sort alphabetically; the scenario's order reads better)."""
    order = {v: i for i, v in enumerate(variants)}
    return (
        df.with_columns(pl.col("variant").replace_strict(order, default=len(order)).alias("_o"))
        .sort("_o", "seat")
        .drop("_o")
    )


def ordered_by(df: pl.DataFrame, variants: list[str]) -> pl.DataFrame:
    """Rows of ``variants`` only, in that order (rows within a variant keep theirs)."""
    order = {v: i for i, v in enumerate(variants)}
    return (
        df.filter(pl.col("variant").is_in(variants))
        .with_columns(pl.col("variant").replace_strict(order, default=len(order)).alias("_o"))
        .sort("_o", maintain_order=True)
        .drop("_o")
    )
