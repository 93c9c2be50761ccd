"""Gather everything a balance report shows from a result folder: findings, charts, tables, flags, commands.

``build_report(folder)`` decides which analyses the results support (seat advantage always; compensation
when some variants differ only in starting money; card value when there is a control and bonus-card
variants; markets when the rows carry market columns; general metrics always), runs them through the same
``simlab.analysis`` functions as the CLI, and returns a :class:`Report` of plain strings and embedded
charts that ``simlab.report.html`` renders. Every analysis is a lazy polars pipeline over the Parquet parts
(rows are filtered to the variants a section shows before anything is read), so only small summaries reach
Python and the report's memory does not grow with the number of games.

The sections and their order are fixed so that reports of different experiments read alike; a section
the results cannot support is left out, and the overview says why.
"""

from __future__ import annotations

import dataclasses
import hashlib
import math
import time
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import polars as pl

import simlab
from simlab import analysis as A
from simlab.analysis import stats
from simlab.analysis.compensation import fit_undetermined, games_needed
from simlab.analysis.digest import BIN_WIDTH, Digest, load_digest
from simlab.analysis.frames import (
    AnalysisError,
    NotAvailableError,
    bots_label,
    remember,
    remembered_bots,
    roles_from_manifest,
)
from simlab.analysis.market_pass import market_summary, market_summary_from_partial
from simlab.analysis.markets import MARKET, no_market_message
from simlab.analysis.metrics import cluster_partial, merge_histogram
from simlab.analysis.ranks import rank_method, rank_range, rank_text, with_ranks
from simlab.analysis.sweep import base_variant, money_sweep, not_a_sweep, scenario_example
from simlab.analysis.text import games_needed_text
from simlab.core.facts import MONEY_KNOB, Roles, Units, not_available
from simlab.report import charts
from simlab.report import fmt as F
from simlab.report.embed import svg_data_uri
from simlab.report.flags import ConfigFlag, VariantChange, config_flags, provenance_of, variant_changes
from simlab.report.selection_text import collapse_most, selected_card_interval

#: charts and tables show every variant up to this many; beyond it (card runs, sweeps) only the base
MAX_FOCUS = 4
#: per-variant comparisons are listed up to this many other variants
MAX_COMPARE = 6
#: at most this many swept seats get a compensation chart
MAX_COMPENSATION_CHARTS = 4


@dataclasses.dataclass
class Chart:
    """An embedded chart: title, ``data:`` URI of its SVG, the caption under it and alt text."""

    title: str
    src: str
    caption: str
    alt: str


@dataclasses.dataclass
class Table:
    """A small table of formatted cells; ``collapsed`` tables start folded (long, secondary detail)."""

    title: str
    header: list[str]
    rows: list[list[str]]
    note: str = ""
    collapsed: bool = False
    marked: list[bool] = dataclasses.field(default_factory=list)

    @property
    def numeric(self) -> list[bool]:
        """Per column: every filled cell is a number (right-aligned in the page); text stays left-aligned."""

        def is_number(cell: str) -> bool:
            return cell in ("–", "") or cell.lstrip("+−-[<p =")[:1].isdigit()

        return [all(is_number(row[i]) for row in self.rows) and i > 0 for i in range(len(self.header))]


@dataclasses.dataclass
class Finding:
    """One plain-words result with its interval and games; ``tone`` is warn (imbalance), ok or info."""

    text: str
    tone: str = "info"
    headline: bool = True


@dataclasses.dataclass
class Section:
    """One analysis: what it asks, what it found, its charts and tables, and notes on how to read them."""

    id: str
    title: str
    question: str
    findings: list[Finding] = dataclasses.field(default_factory=list)
    charts: list[Chart] = dataclasses.field(default_factory=list)
    tables: list[Table] = dataclasses.field(default_factory=list)
    notes: list[str] = dataclasses.field(default_factory=list)


@dataclasses.dataclass
class Report:
    """Everything the HTML shows, as strings (escaped by the template) and chart URIs."""

    title: str
    description: str
    meta: list[tuple[str, str]]
    headlines: list[Finding]  # every headline: ``answer`` then ``secondary``
    answer: list[Finding]  # the headlines of the section that answers the scenario's question
    secondary: list[Finding]  # the other sections' headlines (the summary shows them folded)
    sections: list[Section]
    not_covered: list[str]
    variants: Table
    flags: list[ConfigFlag]
    run_notes: list[str]
    reproduce: list[tuple[str, str]]
    reproduce_notes: list[str]
    scenario_text: str
    scenario_source: str
    simlab_version: str
    build_seconds: float = 0.0


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
            subset = money_sweep(configs, _base_variant(manifest, configs), knob)
            if not subset:
                base = _base_variant(manifest, configs)
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


#: sections that, when the results support them, are the question the scenario asks (first one wins):
#: a card-value design exists only to price the cards, a sensitivity run only to re-check the seat
#: verdict on other data, so their seat and money findings are secondary
LEAD_SECTIONS = ("cards", "sensitivity")


def lead_first(sections: list[Section]) -> list[Section]:
    """The sections with the one that answers the scenario's question first: the card answer of a card-value
    run, the data verdicts of a sensitivity run, otherwise the seats (and money) section, which comes first."""
    for lead in LEAD_SECTIONS:
        for i, s in enumerate(sections):
            if s.id == lead:
                return [s, *sections[:i], *sections[i + 1 :]]
    return sections


# -- entry point --------------------------------------------------------------------------------------
def build_report(
    folder: str | Path,
    level: float = 0.95,
    out: str | Path | None = None,
    sweep: str | Path | None = None,
    progress: Callable[[str], None] | None = None,
    tolerance: float = stats.DEFAULT_TOLERANCE,
) -> Report:
    """Run every analysis the result folder supports and gather the report's content.

    ``out`` is where the report will be written, for the ``simlab report`` command it shows. ``sweep`` is a
    starting-money sweep (another result folder) whose exchange rate prices seat deficits and cards in
    the game's money when the folder itself has no money variants. ``tolerance`` (win share; default 1 point)
    is how far from 1/N a seat may be before the verdict calls the seats unequal by more than matters.
    ``progress`` gets a line as each section is done
    (its time, or that the results do not support it): a report of millions of games takes a while.
    """
    t0 = time.perf_counter()
    ctx = _context(Path(folder), level)
    ctx.sweep = Path(sweep) if sweep is not None else None
    ctx.tolerance = tolerance
    say = progress or (lambda line: None)
    done = list(ctx.games.values())
    say(f"report of {folder}: {_games_label(done)} of {ctx.manifest['game']}, {len(done)} variant(s)")
    sections: list[Section] = []
    not_covered: list[str] = []
    for name, builder in (
        ("seats and money", _seats_section),
        ("card value", _cards_section),
        ("markets", _markets_section),
        ("general balance", _balance_section),
        ("robustness to the data", _sensitivity_section),
        ("robustness to the bots", _robust_section),
    ):
        started = time.perf_counter()
        section, reason = builder(ctx)
        if section is not None:
            sections.append(section)
            say(f"  {name}: {time.perf_counter() - started:.1f} s")
        else:
            say(f"  {name}: not in these results")
        if reason:
            not_covered.append(reason)
    sections = lead_first(sections)
    answer = [f for f in sections[0].findings if f.headline] if sections else []
    secondary = [f for s in sections[1:] for f in s.findings if f.headline]
    provenance = provenance_of(ctx.manifest["game"])
    flags = config_flags(provenance, ctx.configs) if provenance is not None else []
    changes = variant_changes(provenance, ctx.configs) if provenance is not None else []
    run_notes = _run_notes(ctx, provenance is None)
    commands, command_notes = _reproduce(ctx, out)
    m = ctx.manifest
    report = Report(
        title=f"Balance report: {m['scenario']['name']}",
        description=m["scenario"].get("description", ""),
        meta=_meta(ctx),
        headlines=answer + secondary,
        answer=answer,
        secondary=secondary,
        sections=sections,
        not_covered=not_covered,
        variants=_variants_table(ctx, changes),
        flags=flags,
        run_notes=run_notes,
        reproduce=commands,
        reproduce_notes=command_notes,
        scenario_text=m["scenario"].get("text", ""),
        scenario_source=m["scenario"].get("source", ""),
        simlab_version=simlab.__version__,
    )
    report.build_seconds = time.perf_counter() - t0
    return report


def _context(folder: Path, level: float) -> Context:
    manifest = simlab.load_manifest(folder)
    rows = simlab.load_results(folder)
    configs = {v["name"]: v["config"] for v in manifest["variants"]}
    base = _base_variant(manifest, configs)
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


_base_variant = base_variant


def _bots(df: pl.DataFrame) -> str:
    return str(df["bots"][0]) if "bots" in df.columns and df.height else ""


def _games_label(games: Any, per: str = "per variant") -> str:
    lo, hi = int(min(games)), int(max(games))
    return f"{lo:,} {per}" if lo == hi else f"{lo:,}–{hi:,} {per}"


def seat_name(k: int) -> str:
    """Seat 0 starts the game; the report says so wherever a seat is named."""
    return f"seat {k}" + (" (first player)" if k == 0 else "")


def _chart(fig: Any, title: str, caption: str) -> Chart:
    # the page prints the title before the caption: a caption sentence repeating it (or itself) is dropped
    return Chart(
        title=title, src=svg_data_uri(fig), caption=charts.without_repeats(caption, title), alt=f"Chart: {title}"
    )


# -- seats and starting money ---------------------------------------------------------------------------
def _seats_section(ctx: Context) -> tuple[Section | None, str]:
    money = ctx.units.money_plural
    sec = Section(
        "seats",
        f"Seats and starting {money}" if ctx.money_knob() else "Seats",
        "Is the seat you start in worth something, does a variant change that"
        + (f", and how many starting {money} would make up for it?" if ctx.money_knob() else "?"),
    )
    rows = ctx.focus_rows()
    seats = _seat_advantage(ctx, ctx.focus)
    seats = _ordered(seats, ctx.focus)
    comp = _compensation(ctx)
    fair_by_seat: dict[int, dict[str, Any]] = {}
    if comp is not None:
        fair_by_seat = {r["seat"]: r for r in comp.fit.iter_rows(named=True)}
    many = len(ctx.focus) > 1
    for (v,), d in seats.group_by("variant", maintain_order=True):
        fair = fair_by_seat if v == ctx.base else {}
        if comp is None and ctx.money() is not None:
            fair = _priced_deficits(d, ctx.money(), ctx.level)
        sec.findings += _seat_findings(v, d, fair, many, ctx.level, ctx.units, ctx.tolerance)
    fig = charts.seat_win_shares(seats, level=ctx.level, palette=ctx.palette)
    sec.charts.append(
        _chart(
            fig,
            "Win share by seat",
            ctx.caption(
                "Wins with ties split, each seat against the fair share 1/N",
                _games_label(seats["games"].to_list(), "games per seat and variant"),
                _bots(seats),
                f"{stats.MEAN_METHOD}, each seat on its own; the seat flags use intervals "
                f"{seats['simultaneous'][0]} after the equal-seats test",
                ctx.focus,
            ),
        )
    )
    sec.tables.append(_seats_table(seats))
    if len(ctx.focus) < len(ctx.variants):
        all_seats = _ordered(_seat_advantage(ctx, ctx.variants), ctx.variants)
        table = _seats_table(all_seats)
        table.title = f"Win share by seat in all {len(ctx.variants)} variants"
        table.collapsed = True
        sec.tables.append(table)
    others = [v for v in ctx.focus if v != ctx.base]
    if others and len(others) <= MAX_COMPARE:
        wins = ctx.partial("wins", [ctx.base, *others])
        cmp = (
            A.compare_variants_from_partial(wins, ctx.base, level=ctx.level)
            if wins is not None
            else A.compare_variants(rows, ctx.base, level=ctx.level)
        )
        sec.findings += _compare_findings(cmp, seats, ctx.base)
        sec.tables.append(_compare_table(cmp, ctx.base))
        gain = _pairing_gain(cmp, seats, ctx.base)
        if gain is not None:
            sec.notes.append(gain)
    if comp is not None:
        before = len(sec.findings)
        _add_compensation(ctx, sec, comp)
        if len(money_sweep(ctx.configs, ctx.base)) == len(ctx.configs):
            # a sweep exists to price the seats: its answer, the fair money and the verified vector, leads
            sec.findings.append(Finding(_compensate_pointer(ctx), "info"))
            sec.findings = sec.findings[before:] + sec.findings[:before]
    elif ctx.money() is not None:
        m = ctx.money()
        z = stats.z_value(ctx.level)
        sec.notes.append(
            f"{ctx.units.money_label.capitalize()}: priced by the {m.source}: one {ctx.units.money} of starting "
            "money is worth "
            f"{F.est_ci(m.rate, m.rate - z * m.se, m.rate + z * m.se, 100, places=2)} points of win share; a seat's "
            "fair compensation ≈ (fair share − its win share) / that rate, Fieller interval."
        )
    elif not ctx.roles.has("money.start") or ctx.money_knob() is None:
        missing = ctx.roles.missing("money.start") or ["(money)"]
        kind = "role" if ctx.roles.missing("money.start") else "money intervention"
        sec.notes.append(f"No compensation fit: {not_available('compensation', kind, missing, ctx.roles.game)}.")
    else:
        sec.notes.append(not_a_sweep(ctx.configs, ctx.base, ctx.money_knob(), ctx.scenario_hint("money_sweep")))
    sec.notes.append(
        "Seats are numbered from 0, the first player. With a rotated lineup every bot sits in every seat "
        "equally often, so a difference between seats is the seat's, not the bots'. \"All seats equal?\" is "
        "a Wald χ² test on the per-game win shares (split wins included). A seat is called advantaged or "
        "disadvantaged only if that test rejects and the seat's interval, simultaneous over the seats "
        "(Bonferroni), excludes 1/N; the verdict compares those intervals with a tolerance of "
        f"±{F.num(ctx.tolerance * 100, 1)} points of win share (unequal by more than that, within it, or not yet "
        f"determined). The best − worst gap is {stats.GAP_METHOD}."
    )
    return sec, ""


def _seat_advantage(ctx: Context, variants: list[str]) -> pl.DataFrame:
    """``seat_advantage`` of those variants: from the digest if there is one, else from their rows."""
    per, splits = ctx.partial("seats", variants), ctx.partial("splits", variants)
    if per is not None and splits is not None:
        return A.seat_advantage_from_partial(per, splits, ctx.level, ctx.bots())
    rows = ctx.rows if variants == ctx.variants else ctx.rows.filter(pl.col("variant").is_in(variants))
    return A.seat_advantage(rows, level=ctx.level)


def _sentence(prefix: str, rest: str) -> str:
    """``prefix + rest``, capitalised when there is no prefix ("In rulebook, seat 0 …" / "Seat 0 …")."""
    return prefix + rest if prefix else rest[:1].upper() + rest[1:]


def _ordered(df: pl.DataFrame, variants: list[str]) -> pl.DataFrame:
    """Rows in the manifest's variant order (analyses sort alphabetically; the scenario's order reads better)."""
    order = {v: i for i, v in enumerate(variants)}
    return (
        df.with_columns(pl.col("variant").replace_strict(order, default=len(order)).alias("_o"))
        .sort("_o", "seat")
        .drop("_o")
    )


def _seat_findings(
    variant: str,
    d: pl.DataFrame,
    fair: dict[int, dict[str, Any]],
    many: bool,
    level: float,
    units: Units,
    tolerance: float = stats.DEFAULT_TOLERANCE,
) -> list[Finding]:
    """The verdict against the tolerance first (one sentence: games, interval, verdict), then each flagged
    seat. Flags need the equal-seats test to reject and the seat's simultaneous interval to exclude 1/N
    (``seats.seat_advantage``), so a fair game names a seat in at most 5% of reports, not 15%."""
    r0 = d.row(0, named=True)
    share = r0["fair_share"]
    prefix = f"In {variant}, " if many else ""
    verdict = A.seat_verdicts(d, tolerance).row(0, named=True)
    tone = {"unequal": "warn", "small": "info", "within": "ok", "fair": "ok", "undetermined": "info"}
    out = [Finding(_sentence(prefix, _verdict_text(verdict)), tone[verdict["verdict"]])]
    simultaneous = r0["simultaneous"].split(" (")[0]
    for r in d.filter(pl.col("flag").is_not_null()).sort("win_share", descending=True).iter_rows(named=True):
        text = _sentence(
            prefix,
            f"{seat_name(r['seat'])} wins {F.pct_ci(r['win_share'], r['win_share_slo'], r['win_share_shi'])} of "
            f"games (n={F.count(r['games'])}; fair share {F.pct(share, 0)}; {level:.0%} {simultaneous}): {r['flag']}",
        )
        f = fair.get(r["seat"])
        if f is not None and not F.missing(f["fair_offset"]) and F.unbounded(f["fair_lo"], f["fair_hi"]):
            text += f"; fair compensation {F.undetermined(f.get('games'), f.get('more'))}{f.get('how', '')}"
        elif f is not None and not F.missing(f["fair_offset"]):
            text += (
                f"; fair compensation ≈ {F.num(f['fair_offset'], 1, sign=True)} {units.money_plural} "
                f"{F.ci(f['fair_lo'], f['fair_hi'], places=1, sign=True)}{f.get('how', '')}"
            )
        out.append(Finding(text + ".", "warn"))
    if verdict["verdict"] in ("unequal", "small", "within"):
        out.append(
            Finding(
                _sentence(
                    prefix,
                    f"the best and the worst seat are {F.num(r0['gap'] * 100, 1)} points apart "
                    f"{F.ci(r0['gap_lo'], r0['gap_hi'], 100, 1)} (bias-corrected; the plain difference of the "
                    f"estimates reads {F.num(r0['gap_raw'] * 100, 1)}).",
                ),
                "info",
                headline=False,
            )
        )
    return out


def _verdict_text(v: dict[str, Any]) -> str:
    """A variant's verdict as one sentence: games, the seat furthest from fair with its interval, the verdict."""
    tol = F.num(v["tolerance"] * 100, 1)
    simultaneous = v["simultaneous"].split(" (")[0]
    text = (
        f"with n={F.count(v['games'])} games per seat, {seat_name(v['seat'])} — the furthest from the fair "
        f"{F.pct(v['fair_share'], 0)} — wins {F.pct_ci(v['win_share'], v['win_share_slo'], v['win_share_shi'])} "
        f"(95% {simultaneous}), so {A.VERDICTS[v['verdict']].format(tol=tol)} "
        f"(all seats equal? {F.p_value(v['p_equal'])})"
    )
    return text + games_needed_text(v) + "."


def _priced_deficits(d: pl.DataFrame, money: Any, level: float) -> dict[int, dict[str, Any]]:
    """Per seat: the money x with ``share + rate·x = 1/N``, priced by another run's exchange rate.

    The two estimates come from independent runs, so Fieller's interval uses no covariance; the rate is the
    swept seat's slope at offset 0, an approximation for the other seats (docs/analysis.md).
    """
    z = stats.z_value(level)
    out = {}
    for r in d.iter_rows(named=True):
        if F.missing(r["win_share_lo"]) or not money.rate:
            continue
        se = (r["win_share_hi"] - r["win_share_lo"]) / (2 * z)
        lo, hi = stats.fieller(r["win_share"], money.rate, r["fair_share"], se * se, 0.0, money.se**2, level)
        out[r["seat"]] = {
            "fair_offset": (r["fair_share"] - r["win_share"]) / money.rate,
            "fair_lo": lo,
            "fair_hi": hi,
            "how": f", priced by the {money.source}",
            "games": money.games,
            "more": games_needed(money.games, money.rate, money.se, level) if money.games else None,
        }
    return out


def _seats_table(seats: pl.DataFrame) -> Table:
    rows, marked = [], []
    for r in seats.iter_rows(named=True):
        rows.append(
            [
                r["variant"],
                seat_name(r["seat"]),
                F.count(r["games"]),
                F.est_ci(r["win_share"], r["win_share_lo"], r["win_share_hi"], 100),
                F.ci(
                    r["win_share_slo"],
                    r["win_share_shi"],
                    100,
                    F.decimals((r["win_share_hi"] - r["win_share_lo"]) * 50),
                ),
                F.est_ci(r["score"], r["score_lo"], r["score_hi"], places=1),
                F.est_ci(r["rank"], r["rank_lo"], r["rank_hi"], places=2),
                F.p_value(r["p_equal"]).removeprefix("p ").removeprefix("= "),
            ]
        )
        marked.append(r["flag"] is not None)
    simultaneous = seats["simultaneous"][0] if seats.height else ""
    return Table(
        "Win share (%), score and rank by seat",
        ["variant", "seat", "games", "win share %", "simultaneous %", "score", "rank", "p (all seats equal)"],
        rows,
        note="Estimates with their intervals in brackets (each on its own); simultaneous: the win-share intervals "
        f"{simultaneous}. Marked rows: the equal-seats test rejects and the seat's simultaneous interval excludes "
        "the fair share (the family-wise error over the seats stays at most 5%).",
        marked=marked,
    )


def _compare_findings(cmp: pl.DataFrame, seats: pl.DataFrame, base: str) -> list[Finding]:
    """Per variant: the bias-corrected best-worst gap in the base and the variant, and the largest change with
    its interval simultaneous over every seat and variant compared (it was selected as the largest, so its
    own interval would cover too rarely) and its Holm-adjusted p-value."""
    out = []
    gaps = {r["variant"]: r for r in seats.unique("variant", keep="first").iter_rows(named=True)}

    def gap(v: str) -> str:
        g = gaps[v]
        return f"{F.num(g['gap'] * 100, 1)} {F.ci(g['gap_lo'], g['gap_hi'], 100, 1)}"

    for (v,), d in cmp.group_by("variant", maintain_order=True):
        top = d.with_columns(pl.col("diff").abs().alias("_a")).sort("_a", descending=True).row(0, named=True)
        detected = not F.missing(top["p_adjusted"]) and top["p_adjusted"] < 0.05
        text = (
            f"{v} against {base} (same game seeds): the gap between the best and the worst seat goes from "
            f"{gap(base)} to {gap(v)} points (bias-corrected); the largest change is "
            f"{seat_name(top['seat'])}'s, {F.points(top['diff'])} "
            f"{F.ci(top['diff_slo'], top['diff_shi'], 100, 1, sign=True)} (n={F.count(top['games'])} paired games; "
            f"simultaneous over the {cmp.height} changes, Holm-adjusted {F.p_value(top['p_adjusted'])})"
        )
        text += "." if detected else ": no seat's change is detectable once the comparisons are adjusted for."
        out.append(Finding(text, "info"))
    return out


def _pairing_gain(cmp: pl.DataFrame, seats: pl.DataFrame, base: str) -> str | None:
    """What the shared seeds bought in this comparison: the unpaired standard error of each change (the two
    variants' seat shares as independent samples) over the paired one, as a range over the seats."""
    se = {
        (r["variant"], r["seat"]): (r["win_share_hi"] - r["win_share_lo"]) / 2
        for r in seats.iter_rows(named=True)
        if not F.missing(r["win_share_lo"])
    }
    ratios = []
    for r in cmp.iter_rows(named=True):
        a, b = se.get((r["variant"], r["seat"])), se.get((base, r["seat"]))
        paired = (r["diff_hi"] - r["diff_lo"]) / 2 if not F.missing(r["diff_lo"]) else None
        if a is not None and b is not None and paired:
            ratios.append(math.sqrt(a * a + b * b) / paired)
    if not ratios:
        return None
    lo, hi = min(ratios), max(ratios)
    return (
        f"What the pairing bought here: the paired intervals of the seat changes are ×{F.num(lo, 2)}–×{F.num(hi, 2)} "
        "narrower than if the variants had been played on independent seeds, which would have needed "
        f"×{F.num(lo * lo, 2)}–×{F.num(hi * hi, 2)} as many games for the same width."
    )


def _compare_table(cmp: pl.DataFrame, base: str) -> Table:
    rows, marked = [], []
    for r in cmp.iter_rows(named=True):
        rows.append(
            [
                r["variant"],
                seat_name(r["seat"]),
                F.count(r["games"]),
                F.pct(r["base"]),
                F.pct(r["value"]),
                F.est_ci(r["diff"], r["diff_lo"], r["diff_hi"], 100, sign=True),
                F.ci(r["diff_slo"], r["diff_shi"], 100, 1, sign=True),
                F.p_value(r["p"]),
                F.p_value(r["p_adjusted"]),
            ]
        )
        marked.append(not F.missing(r["p_adjusted"]) and r["p_adjusted"] < 0.05)
    simultaneous = cmp["simultaneous"][0] if cmp.height else ""
    return Table(
        f"Change of each seat's win share against {base}, paired by game seed",
        ["variant", "seat", "games", f"{base} %", "variant %", "change (points)", "simultaneous", "p", "p (Holm)"],
        rows,
        note=f"Game i of every variant has the same seed; the interval is that of the mean per-game "
        f"difference ({stats.PAIRED_METHOD}); simultaneous: {simultaneous} over the seats and variants. Marked "
        "rows: Holm-adjusted p < 0.05.",
        marked=marked,
    )


def _compensation(ctx: Context) -> Any:
    if not ctx.roles.has("money.start"):
        return None
    sweep = money_sweep(ctx.configs, ctx.base, ctx.money_knob())
    if not sweep:
        return None
    rows = ctx.rows if len(sweep) == len(ctx.variants) else ctx.rows.filter(pl.col("variant").is_in(sweep))
    try:
        from simlab.analysis.compensation import rules_money

        return A.compensation(rows, level=ctx.level, rules=rules_money(ctx.manifest, ctx.folder, sweep))
    except AnalysisError:
        return None


def _compensate_pointer(ctx: Context) -> str:
    """The command that turns a sweep's per-seat fair money into a whole vector for all seats, verified."""
    m = ctx.manifest
    command = f"simlab compensate {m['game']} --players {m['players']}"
    if ctx.tolerance != stats.DEFAULT_TOLERANCE:
        command += f" --fair-within {ctx.tolerance * 100:g}"
    if m.get("bots"):
        command += " --bots " + ",".join(m["bots"])
    # compensate always rotates its line-up through the seats, as a run with a `lineup` does
    seating = (
        " (it rotates the bots through the seats; this run seated them fixed)" if m.get("seating") == "bots" else ""
    )
    return (
        f"The fitted offsets are per seat and continuous; starting {ctx.units.money_plural} come in whole units "
        "and all seats change at once. The whole-number vector for every seat, on the knob's own grid and "
        f"verified by a confirmation run with its seat shares and equal-seats test: {command}{seating}. It "
        "tests the published rules first and answers with what its confirmations support: already fair, a fair "
        "vector confirmed on fresh games, no vector on the knob's grid fair within the tolerance, or not settled."
    )


def _rules_words(r: dict, comp: Any, ctx: Context) -> str:
    from simlab.analysis.compensation_text import against_rules_words

    words = against_rules_words({**r, "players": comp.players}, ctx.units, places=1)
    return f" ({words})" if words else ""


def _add_compensation(ctx: Context, sec: Section, comp: Any) -> None:
    from simlab.analysis.compensation import published_variant
    from simlab.analysis.compensation_text import published_fair_words

    published = published_variant(ctx.manifest, ctx.folder, money_sweep(ctx.configs, ctx.base, ctx.money_knob()))
    if published is not None:
        verdict = A.seat_verdicts(_seat_advantage(ctx, [published]), ctx.tolerance).row(0, named=True)
        words = published_fair_words(verdict, published)
        if words:
            sec.findings.append(Finding(words, "ok"))
    rows = []
    for r in comp.fit.iter_rows(named=True):
        missing = fit_undetermined(r, comp.level)
        bounded = missing is None
        fair = F.ci(r["fair_lo"], r["fair_hi"], places=1, sign=True)
        text = (
            f"{seat_name(r['seat']).capitalize()} would win 1/{comp.players} of the games with "
            f"{F.num(r['fair_offset'], 1, sign=True)} {ctx.units.money_plural} {fair}"
            f" against the others' mean{_rules_words(r, comp, ctx)}; one {ctx.units.money} is worth "
            f"{F.num(r['rate'] * 100, 2)} "
            f"{F.ci(r['rate_lo'], r['rate_hi'], 100, 2)} points of win share "
            f"(n={F.count(r['games'])} seat-games over {r['offsets']} offsets)."
        )
        if not bounded:  # never a point estimate beside an unbounded interval
            text = (
                f"{seat_name(r['seat']).capitalize()}'s fair starting money is {missing} (the slope of win share on "
                f"money is not significant yet; n={F.count(r['games'])} seat-games over {r['offsets']} offsets)."
            )
        sec.findings.append(Finding(text, "info" if bounded else "warn"))
        rows.append(
            [
                seat_name(r["seat"]),
                F.count(r["games"]),
                str(r["offsets"]),
                F.est_ci(r["fair_offset"], r["fair_lo"], r["fair_hi"], places=2, sign=True) if bounded else missing,
                f"{F.num(r['fair_money'], 2)} against {F.num(r['fair_others'], 2)}"
                if bounded and math.isfinite(r["fair_money"])
                else "–",
                F.pct(r["share_at_0"]),
                F.est_ci(r["rate"], r["rate_lo"], r["rate_hi"], 100, places=2),
            ]
        )
    sec.tables.append(
        Table(
            "Fair starting money (logistic fit of win share against the money offset)",
            [
                "seat",
                "seat-games",
                "offsets",
                f"fair offset ({ctx.units.money_label})",
                "fair money (seat against the others; published rules otherwise)",
                "win share at offset 0",
                f"points of win share per {ctx.units.money}",
            ],
            rows,
            note="Offset = the seat's starting money minus the other seats' mean. " + comp.caption + ".",
        )
    )
    sweep = money_sweep(ctx.configs, ctx.base)
    for k in comp.fit["seat"].to_list()[:MAX_COMPENSATION_CHARTS]:
        fig = charts.compensation_curve(comp, seat=k, units=ctx.units)
        sec.charts.append(
            _chart(
                fig,
                f"Compensating seat {k} with starting money",
                ctx.caption(
                    f"Seat {k}'s win share against its starting-money offset, logistic fit with a 95% pointwise band",
                    f"{comp.games:,} per offset",
                    ", ".join(comp.bots),
                    stats.FIELLER_METHOD + " (fair offset); " + stats.MEAN_METHOD + " (points)",
                    sweep,
                ),
            )
        )


# -- card value ------------------------------------------------------------------------------------------
def _cards_section(ctx: Context) -> tuple[Section | None, str]:
    control = "control"
    reason = (
        "Card value: not in these results (it needs an intervention run with a 'control' variant and "
        f"<card>_seat<k> variants{ctx.scenario_hint('card_value')})."
    )
    if ctx.roles.intervention("card") is None:
        return None, f"Card value: {not_available('card value', 'card intervention', [], ctx.roles.game)}."
    if control not in ctx.configs:
        return None, reason
    try:
        design = A.design_from_manifest(ctx.folder, control)
    except NotAvailableError as exc:
        return None, f"Card value: {exc}."
    if design.is_empty() or design.filter(~pl.col("label").str.starts_with("money")).is_empty():
        return None, reason
    has_money = not design.filter(pl.col("label").str.starts_with("money")).is_empty()
    df = A.card_value(
        ctx.rows, design=design, control=control, level=ctx.level, money=None if has_money else ctx.money()
    )
    sec = Section(
        "cards",
        "Card value",
        "What is one extra card of a kind worth to the seat that gets it, in win share, points and "
        f"{ctx.units.money_plural}?",
    )
    df = with_ranks(df, level=ctx.level, ranked=pl.col("kind") == "card")
    cards = df.filter(pl.col("kind") == "card").sort("win_share_diff", descending=True)
    alpha = 1 - ctx.level
    adj = "Holm" if df["adjustment"][0] == "holm" else "Benjamini–Hochberg"
    n_sig = int((cards["p_adjusted"] < alpha).sum())
    for r, word in ((cards.row(0, named=True), "Most valuable"), (cards.row(-1, named=True), "Least valuable")):
        if cards.height < 2 and word == "Least valuable":
            break
        money = ""
        if not F.missing(r.get("money")) and F.unbounded(r["money_lo"], r["money_hi"]):
            money = f", in {ctx.units.money_plural} {F.undetermined(r.get('money_games'), r.get('money_more_games'))}"
        elif not F.missing(r.get("money")):
            money = (
                f", ≈ {F.num(r['money'], 1, sign=True)} {ctx.units.money_plural} "
                f"{F.ci(r['money_lo'], r['money_hi'], places=1, sign=True)}"
            )
        lo, hi = selected_card_interval(r, cards.height, ctx.level)
        sec.findings.append(
            Finding(
                f"{word} card: {r['label']}, {F.points(r['win_share_diff'], 2)} of win share "
                f"{F.ci(lo, hi, 100, 2, sign=True)} ({ctx.level:.0%} simultaneous over the {cards.height} cards, "
                "as it was picked from them) for the seat that gets it"
                f"{money} (n={F.count(r['games'])} games × {r['seats']} seats; {adj}-adjusted "
                f"{F.p_value(r['p_adjusted'])}); {rank_text(r['rank'], r['rank_lo'], r['rank_hi'], cards.height)}.",
                "warn" if r["p_adjusted"] < alpha else "info",
            )
        )
    if cards.height > 2:
        first = cards.filter(pl.col("rank_lo") == 1)["label"].to_list()
        sec.findings.append(
            Finding(
                f"Could be the most valuable (rank 1 not ruled out): {F.join_words(first)} — "
                f"{len(first)} of {cards.height} cards ({rank_method(cards.height, 'cards', ctx.level)}).",
                "info",
            )
        )
    sec.findings.append(
        Finding(
            f"{n_sig} of {cards.height} cards change the win share of the seat that gets them detectably "
            f"({adj}-adjusted over the cards, {ctx.level:.0%}).",
            "info",
        )
    )
    fig = charts.card_value_forest(df, level=ctx.level, units=ctx.units)
    variants = [control, *design["variant"].to_list()]
    sec.charts.append(
        _chart(
            fig,
            "Value of one extra card",
            ctx.caption(
                "Change in the granted seat's win share with one extra card at setup, against the control on the same "
                "seeds",
                _games_label(df["games"].to_list(), "games per card"),
                _bots(df),
                stats.PAIRED_METHOD + "; #rank (" + rank_method(cards.height, "cards", ctx.level) + ")",
                variants[:3] + (["…"] if len(variants) > 3 else []),
            ),
        )
    )
    rows, marked = [], []
    for r in df.sort("kind", "win_share_diff", descending=[False, True]).iter_rows(named=True):
        rows.append(
            [
                r["label"],
                r["kind"],
                "–" if r["rank"] is None else rank_range(r["rank"], r["rank_lo"], r["rank_hi"]),
                f"{F.count(r['games'])} × {r['seats']}",
                F.est_ci(r["win_share_diff"], r["win_share_diff_lo"], r["win_share_diff_hi"], 100, 2, True),
                F.p_value(r["p_adjusted"]) if r["kind"] == "card" else "–",
                F.est_ci(r["score_diff"], r["score_diff_lo"], r["score_diff_hi"], places=2, sign=True),
                F.est_ci_or_undetermined(
                    r["money"],
                    r["money_lo"],
                    r["money_hi"],
                    r.get("money_games"),
                    r.get("money_more_games"),
                    places=1,
                    sign=True,
                ),
                F.points(r.get("played_diff")),
            ]
        )
        marked.append(r["kind"] == "card" and not F.missing(r["p_adjusted"]) and r["p_adjusted"] < alpha)
    source = df["money_source"][0]
    sec.tables.append(
        Table(
            "Value of one extra card (and of extra money) for the seat that gets it",
            [
                "intervention",
                "kind",
                "rank (plausible)",
                "games × seats",
                "win share (points)",
                f"p ({adj})",
                "score (points)",
                ctx.units.money_label,
                "played vs not*",
            ],
            rows,
            note=(
                f"Paired with the control on the same game seeds ({stats.PAIRED_METHOD}). "
                f"{ctx.units.money_label.capitalize()}: "
                + (f"priced by the {source}, Fieller interval. " if source else "no money variants to price them. ")
                + "* Correlational: win share of seats that played the card at least once minus those that never "
                "did, in the control games — players who are ahead play more cards, so this is not a value."
            ),
            marked=marked,
        )
    )
    sec.notes.append("Marked rows: significant after adjusting for testing every card at once.")
    return sec, ""


# -- markets ---------------------------------------------------------------------------------------------
def _markets_section(ctx: Context) -> tuple[Section | None, str]:
    rows = ctx.focus_rows()
    if not ctx.roles.has(*MARKET):
        return None, f"Markets: {no_market_message(ctx.roles)}."
    sec = Section(
        "markets",
        "Markets",
        "How do prices and demand move round by round, how often does an item's demand "
        "collapse, and who does well when the market shifts?",
    )
    # one pass over the rows for the four analyses (market columns repeat on every seat's row, so
    # separate scans would decode them four times); trajectories only of the series the report draws
    partial = ctx.partial("market")
    markets = (
        market_summary_from_partial(partial, level=ctx.level, bots=ctx.bots())
        if partial is not None
        else market_summary(rows, level=ctx.level, series=("marker", "price"))
    )
    traj = markets.trajectories.filter(pl.col("variant").is_in(ctx.focus))
    games = _games_label(traj["games"].to_list())
    for series, title, what in (
        ("marker", "Demand by round", "Mean demand level of each item, round by round"),
        ("price", "Prices by round", "Mean price at each location, round by round"),
    ):
        what += ", one line style per variant" if len(ctx.focus) > 1 else ""
        if traj.filter(pl.col("series") == series).is_empty():
            continue
        fig = charts.market_trajectories(traj, series, level=ctx.level, units=ctx.units, palette=ctx.palette)
        caption = ctx.caption(what, games, _bots(traj), stats.MEAN_METHOD, ctx.focus)
        sec.charts.append(_chart(fig, title, caption))
    coll = _ordered_by(markets.collapses, ctx.focus)
    many = len(ctx.focus) > 1
    for (v,), d in coll.group_by("variant", maintain_order=True):
        d = d.sort("collapse_rate", descending=True)
        r = d.row(0, named=True)
        prefix = f"In {v}, the" if many else "The"
        recover = (
            ""
            if F.missing(r["recover_rate"])
            else f" and climbs back in {F.pct_ci(r['recover_rate'], r['recover_rate_lo'], r['recover_rate_hi'])}"
            " of those"
        )
        sec.findings.append(
            Finding(
                f"{prefix} demand for {r['colour']} falls to the floor in "
                f"{F.pct_ci(r['collapse_rate'], r['collapse_rate_lo'], r['collapse_rate_hi'])} of games"
                f"{recover} (n={F.count(r['games'])}; {collapse_most(d, ctx.level)}).",
                "info",
            )
        )
    sec.tables.append(
        Table(
            "Demand falling to the floor (collapse) and climbing back (recovery)",
            ["variant", "item", "games", "collapse %", "recover % (of collapses)", "first collapse round"],
            [
                [
                    r["variant"],
                    r["colour"],
                    F.count(r["games"]),
                    F.est_ci(r["collapse_rate"], r["collapse_rate_lo"], r["collapse_rate_hi"], 100),
                    F.est_ci(r["recover_rate"], r["recover_rate_lo"], r["recover_rate_hi"], 100),
                    F.est_ci(r["first_round"], r["first_round_lo"], r["first_round_hi"], places=1),
                ]
                for r in coll.iter_rows(named=True)
            ],
            note=f"{stats.WILSON_METHOD}s; first collapse round: {stats.MEAN_METHOD} over the games that collapse.",
        )
    )
    if markets.sale_yield is not None:
        yields = _ordered_by(markets.sale_yield, ctx.focus)
        for r in yields.iter_rows(named=True):
            prefix = f"In {r['variant']}, a" if many else "A"
            money = F.est_ci(r["money_per_cube"], r["money_per_cube_lo"], r["money_per_cube_hi"], places=2)
            points = F.est_ci(r["points_per_cube"], r["points_per_cube_lo"], r["points_per_cube_hi"], places=2)
            sec.findings.append(
                Finding(
                    f"{prefix} unit sold brings {money} {ctx.units.money_plural} and {points}"
                    f" {ctx.units.points_plural}; a seat sells "
                    f"{F.est_ci(r['cubes_per_seat'], r['cubes_per_seat_lo'], r['cubes_per_seat_hi'])} "
                    "units a game.",
                    "info",
                    headline=False,
                )
            )
        sec.tables.append(
            Table(
                f"Realised {ctx.units.money_plural} and {ctx.units.points_plural} per unit sold",
                [
                    "variant",
                    f"{ctx.units.money_label} per unit",
                    f"{ctx.units.points_label} per unit",
                    "units sold per seat",
                ],
                [
                    [
                        r["variant"],
                        F.est_ci(r["money_per_cube"], r["money_per_cube_lo"], r["money_per_cube_hi"], places=3),
                        F.est_ci(r["points_per_cube"], r["points_per_cube_lo"], r["points_per_cube_hi"], places=3),
                        F.est_ci(r["cubes_per_seat"], r["cubes_per_seat_lo"], r["cubes_per_seat_hi"], places=1),
                    ]
                    for r in yields.iter_rows(named=True)
                ],
                note="Ratio of totals with a delta-method interval.",
            )
        )
    shift = _ordered_by(markets.shift_winners, ctx.focus)
    sec.tables.append(
        Table(
            "Correlational: win share in turbulent vs calm games",
            [
                "variant",
                "seat",
                "turbulent games",
                "calm games",
                "win % turbulent",
                "win % calm",
                "difference (points)",
            ],
            [
                [
                    r["variant"],
                    seat_name(r["seat"]),
                    F.count(r["games_turbulent"]),
                    F.count(r["games_calm"]),
                    F.pct(r["win_share_turbulent"]),
                    F.pct(r["win_share_calm"]),
                    F.est_ci(r["diff"], r["diff_lo"], r["diff_hi"], 100, sign=True),
                ]
                for r in shift.iter_rows(named=True)
            ],
            note="Turbulent: more round ends with a demand at the floor than the variant's median game. Correlational "
            "(Welch interval): it says which seat does well when the market shifts hard, not that the shift "
            "caused it; compare variants that change the market on the same seeds for that.",
            collapsed=True,
        )
    )
    return sec, ""


def _ordered_by(df: pl.DataFrame, variants: list[str]) -> pl.DataFrame:
    order = {v: i for i, v in enumerate(variants)}
    return (
        df.filter(pl.col("variant").is_in(variants))
        .with_columns(pl.col("variant").replace_strict(order, default=len(order)).alias("_o"))
        .sort("_o", maintain_order=True)
        .drop("_o")
    )


# -- general metrics ---------------------------------------------------------------------------------
def _sensitivity_section(ctx: Context) -> tuple[Section | None, str]:
    from simlab.report.robust_section import sensitivity_section

    return sensitivity_section(ctx, Section, Finding, Table)


def _robust_section(ctx: Context) -> tuple[Section | None, str]:
    from simlab.report.robust_section import robust_section

    return robust_section(ctx, Section, Finding, Table)


def _balance_section(ctx: Context) -> tuple[Section | None, str]:
    rows = ctx.focus_rows()
    sec = Section(
        "balance",
        "General balance metrics",
        "How long is a game, how close, how often shared, how early decided, and how much of it is luck?",
    )
    many = len(ctx.focus) > 1
    partial = ctx.partial("metrics")
    summary, lead = (
        A.game_metrics_from_partial(partial, ctx.level, ctx.bots())
        if partial is not None
        else A.game_metrics(rows, level=ctx.level)
    )  # one pass over the games for both
    summary = _ordered_by(summary, ctx.focus)
    for r in summary.iter_rows(named=True):
        prefix = f"In {r['variant']}, a" if many else "A"
        sec.findings.append(
            Finding(
                f"{prefix} game lasts {F.est_ci(r['turns'], r['turns_lo'], r['turns_hi'], places=1)} turns on average; "
                f"the winner is {F.est_ci(r['margin'], r['margin_lo'], r['margin_hi'], places=2)} points ahead of the "
                f"runner-up, and {F.pct_ci(r['draw_rate'], r['draw_rate_lo'], r['draw_rate_hi'])} of games end in a "
                f"shared win (n={F.count(r['games'])}).",
                "info",
                headline=False,
            )
        )
    sec.tables.append(
        Table(
            "Game length, margin of victory and shared wins",
            ["variant", "games", "turns", "margin (points)", "shared wins %"],
            [
                [
                    r["variant"],
                    F.count(r["games"]),
                    F.est_ci(r["turns"], r["turns_lo"], r["turns_hi"], places=1),
                    F.est_ci(r["margin"], r["margin_lo"], r["margin_hi"], places=2),
                    F.est_ci(r["draw_rate"], r["draw_rate_lo"], r["draw_rate_hi"], 100, places=2),
                ]
                for r in summary.iter_rows(named=True)
            ],
            note=f"{stats.MEAN_METHOD}; shared wins: {stats.WILSON_METHOD}.",
        )
    )
    if lead is None:
        sec.notes.append(
            "No decisiveness figures: "
            + not_available("lead_metrics", "role", ctx.roles.missing("score.round") or ["score.round"], ctx.roles.game)
            + " (per-round scores)."
        )
    else:
        _add_lead(ctx, sec, _ordered_by(lead, ctx.focus), many)
    cells = ctx.partial("variance")
    var = (
        A.variance_from_partial(cells, "score", ctx.level, ctx.bots(), ctx.partial("variance_games"))
        if cells is not None
        else A.variance_decomposition(rows, level=ctx.level)
    )
    var = _ordered_by(var, ctx.focus)
    for (v,), d in var.group_by("variant", maintain_order=True):
        c = {r["component"]: r for r in d.iter_rows(named=True)}
        prefix = f"In {v}, chance" if many else "Chance"
        ch = c["chance"]
        sec.findings.append(
            Finding(
                f"{prefix} (dice, draws and all the bots do not control) accounts for "
                f"{F.pct_ci(ch['share'], ch['share_lo'], ch['share_hi'])} of the variance of the "
                f"{ch['outcome']}; the seat for {_share(c['seat'])}, the bot for {_share(c['bot'])} "
                f"(n={F.count(ch['games'])}).",
                "info",
                headline=not many,
            )
        )
    fig = charts.variance_shares(var, level=ctx.level, palette=ctx.palette)
    sec.charts.append(
        _chart(
            fig,
            "What decides the score?",
            ctx.caption(
                "Shares of the score's variance due to seat, bot, seat × bot and chance",
                _games_label(var["games"].to_list()),
                _bots(var),
                stats.BATCH_METHOD,
                ctx.focus,
            ),
        )
    )
    sec.tables.append(
        Table(
            "How much of the score is luck? Shares of its variance (%)",
            ["variant", "component", "share %"],
            [
                [
                    r["variant"],
                    r["component"].replace("seat_bot", "seat × bot"),
                    F.est_ci(r["share"], r["share_lo"], r["share_hi"], 100, places=2),
                ]
                for r in var.iter_rows(named=True)
            ],
            note=f"ANOVA on the (seat, bot) cells; {stats.BATCH_METHOD}.",
            collapsed=True,
        )
    )
    for column, per_game, width in (("score", False, 2), ("turns", True, 2)):
        dist = _distribution(ctx, column, width, per_game)
        dist = _ordered_by(dist, ctx.focus)
        fig = charts.distribution(dist, level=ctx.level, palette=ctx.palette)
        what = "Final scores (one per seat and game)" if column == "score" else "Game length in turns (one per game)"
        sec.charts.append(
            _chart(
                fig,
                f"Distribution of {column}",
                ctx.caption(
                    what + f", bins of {width}",
                    _games_label(dist["games"].to_list()),
                    _bots(dist),
                    stats.MEAN_METHOD + " (the means in the legend)",
                    ctx.focus,
                ),
            )
        )
    return sec, ""


def _share(r: dict[str, Any]) -> str:
    return F.pct_ci(r["share"], r["share_lo"], r["share_hi"])


def _distribution(ctx: Context, column: str, width: float, per_game: bool) -> pl.DataFrame:
    """``distribution`` of the shown variants: the digest's bins merged into bins of ``width``, else a scan."""
    hist = ctx.partial(f"{column}_bins")
    if hist is None or width % BIN_WIDTH:
        return A.distribution(ctx.focus_rows(), column, width=width, per_game=per_game, level=ctx.level)
    games = (
        None
        if per_game
        else pl.DataFrame(
            {"variant": ctx.focus, "games": [ctx.games[v] for v in ctx.focus]},
            schema={"variant": pl.String, "games": pl.Int64},
        )
    )
    clusters = None
    if not per_game:  # the mean of per-seat values: its game-clustered interval needs the per-game sums
        clusters = ctx.partial(f"{column}_clusters")
        if clusters is None:
            clusters = cluster_partial(ctx.focus_rows(), column)
    return A.distribution_from_partial(
        merge_histogram(hist, width=width), column, width, games, level=ctx.level, bots=ctx.bots(), clusters=clusters
    )


def _add_lead(ctx: Context, sec: Section, lead: pl.DataFrame, many: bool) -> None:
    rounds = sorted(
        int(c.removeprefix("leader_wins_r")) for c in lead.columns if c.startswith("leader_wins_r") and c[-1].isdigit()
    )
    mid = rounds[(len(rounds) - 1) // 2] if rounds else None
    for r in lead.iter_rows(named=True):
        prefix = f"In {r['variant']}, the" if many else "The"
        if mid is not None:
            k = f"leader_wins_r{mid}"
            sec.findings.append(
                Finding(
                    f"{prefix} leader after round {mid} of {rounds[-1]} goes on to win "
                    f"{F.pm_pct(r[k], r[k + '_lo'], r[k + '_hi'])} of games; the eventual winner leads from round "
                    f"{F.est_ci(r['lead_from'], r['lead_from_lo'], r['lead_from_hi'])} on average, and "
                    "the lead changes hands "
                    f"{F.est_ci(r['lead_changes'], r['lead_changes_lo'], r['lead_changes_hi'])} times a "
                    f"game (n={F.count(r['games'])}).",
                    "info",
                    headline=not many,
                )
            )
    curve = A.leader_curve(lead)
    fig = charts.leader_curve(curve, level=ctx.level, palette=ctx.palette)
    sec.charts.append(
        _chart(
            fig,
            "How early is the game decided?",
            ctx.caption(
                "Chance that the seat leading after round K goes on to win",
                _games_label(lead["games"].to_list()),
                _bots(lead),
                stats.MEAN_METHOD,
                ctx.focus,
            ),
        )
    )
    sec.tables.append(
        Table(
            "Decisiveness: the leader's win chance (%) after each round",
            ["variant", *(f"r{k}" for k in rounds), "winner leads from round", "lead changes"],
            [
                [
                    r["variant"],
                    *(
                        F.est_ci(
                            r[f"leader_wins_r{k}"], r[f"leader_wins_r{k}_lo"], r[f"leader_wins_r{k}_hi"], 100, places=1
                        )
                        for k in rounds
                    ),
                    F.est_ci(r["lead_from"], r["lead_from_lo"], r["lead_from_hi"], places=2),
                    F.est_ci(r["lead_changes"], r["lead_changes_lo"], r["lead_changes_hi"], places=2),
                ]
                for r in lead.iter_rows(named=True)
            ],
            note=f"{stats.MEAN_METHOD}. Leader: the highest score after the round (ties: one of them at random).",
            collapsed=True,
        )
    )


# -- overview, flags, reproduce ----------------------------------------------------------------------------
def _meta(ctx: Context) -> list[tuple[str, str]]:
    m = ctx.manifest
    seating = "lineup rotated through the seats" if m.get("seating") == "lineup" else "fixed bots per seat"
    sessions = m.get("timings", {}).get("sessions", [])
    seconds = sum(s.get("seconds", 0) for s in sessions)
    per_variant = sorted({int(v["games_done"]) for v in m["variants"]})
    games = f"{per_variant[0]:,}" if len(per_variant) == 1 else f"{per_variant[0]:,}–{per_variant[-1]:,}"
    return [
        ("game", f"{m['game']} (rules {m.get('rules_version', '?')}), {m['players']} players"),
        ("bots", f"{', '.join(m.get('bots', []))} ({seating})"),
        ("games", f"{games} per variant × {len(m['variants'])} variants = {int(m.get('games_done', 0)):,} games"),
        ("root seed", str(m.get("root_seed", "?"))),
        ("compared with", ctx.base),
        (
            "run",
            f"{m.get('status', '?')}; simlab {m.get('simlab_version', '?')}; "
            f"{_duration(seconds)} of play over {len(sessions)} session(s)",
        ),
        ("results", str(ctx.folder)),
    ]


def _duration(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


def _variants_table(ctx: Context, changes: list[VariantChange]) -> Table:
    by_variant: dict[str, list[str]] = {}
    # the run's player count is the table it plays at (shown in the summary), not a change from the rules
    changes = [c for c in changes if not (c.field == "players" and c.value == str(ctx.manifest.get("players")))]
    for c in changes:
        mark = f" [{c.source}]" if c.source in ("assumption", "placeholder") else ""
        by_variant.setdefault(c.variant, []).append(f"{c.field} = {c.value} (rules: {c.default}){mark}")
    rows, marked = [], []
    for v in ctx.manifest["variants"]:
        name = v["name"]
        changed = by_variant.get(name, [])
        rows.append(
            [
                name + (" (base)" if name == ctx.base else ""),
                v.get("description", ""),
                F.count(v.get("games_done")),
                v.get("config_hash", ""),
                "; ".join(changed) if changed else "the published rules",
            ]
        )
        marked.append(any(c.variant == name and c.source in ("assumption", "placeholder") for c in changes))
    return Table(
        "Variants",
        ["variant", "description", "games", "config hash", "changes from the rules"],
        rows,
        note="Marked rows change an assumption or placeholder field (see the flags)." if any(marked) else "",
        collapsed=len(rows) > 12,
        marked=marked,
    )


def _run_notes(ctx: Context, no_provenance: bool) -> list[str]:
    m = ctx.manifest
    notes = []
    if m.get("status") != "complete":
        notes.append(
            f"The run is {m.get('status', 'not complete')}: {int(m.get('games_done', 0)):,} of "
            f"{int(m.get('games_target', 0)):,} games are in the results; finish it with --resume."
        )
    failed = int(m.get("games_failed", 0))
    if failed:
        notes.append(
            f"{failed:,} game(s) failed and are missing from every figure; failures.jsonl in the result "
            "folder has a replay command for each."
        )
    done = {v["name"]: int(v["games_done"]) for v in m["variants"]}
    if len(set(done.values())) > 1:
        notes.append("Variants hold different numbers of games, so paired comparisons use only the games both have.")
    from simlab.run.folder_contents import folder_contents

    contents = folder_contents(ctx.folder)
    for skipped in contents.skipped:
        notes.append(f"The file parts/{skipped.path.name} is left out of every figure: {skipped.reason}.")
    notes += [f"Checked against the part files: {line}." for line in contents.problems + contents.facts]
    if contents.facts:  # the manifest was edited: what the parts cannot confirm is shown as it says, marked
        from simlab.run.folder_check import UNCHECKED

        notes.append(f"Not checked: {UNCHECKED}.")
    if no_provenance:
        notes.append(
            f"The game {m['game']!r} cannot be loaded here, so its config provenance (which numbers are "
            "assumptions) is unknown."
        )
    return notes


def _run_command(manifest: dict[str, Any], folder: Path) -> tuple[list[str], list[str]]:
    """``simlab run`` for a result folder (``--games`` when the run's count is not the file's), and warnings
    when the scenario file is missing or was edited after the run."""
    source = manifest["scenario"].get("source", "")
    notes = []
    run = ["simlab", "run", source, "--out", str(folder), "--resume"]
    try:
        written = int(tomllib.loads(manifest["scenario"].get("text", "")).get("games", 0))
    except (tomllib.TOMLDecodeError, TypeError, ValueError):
        written = 0
    if int(manifest.get("games", 0)) != written:
        run += ["--games", str(manifest["games"])]
    path = Path(source)
    if not path.is_file():
        notes.append(
            f"The scenario file {source} is not here; the scenario text of the run is shown below: save "
            "it under that name first."
        )
    elif hashlib.sha256(path.read_bytes()).hexdigest() != manifest["scenario"].get("sha256"):
        notes.append(
            f"The scenario file {source} has changed since this run; the run's own text is shown below: "
            "save it to a file and run that instead."
        )
    return run, notes


def _first_games(ctx: Context) -> pl.LazyFrame:
    """Rows of the files that start at game 0 of a shown variant: all a replay of game 0 needs, without
    reading the footers of a large folder's other files (half a second at ten million games)."""
    from simlab.run.folder_layout import PART_RE
    from simlab.run.reader import result_files

    paths = [
        p
        for p in result_files(ctx.folder)
        if (m := PART_RE.match(p.name)) and m["variant"] in ctx.focus and int(m["start"]) == 0
    ]
    return pl.scan_parquet([str(p) for p in paths], use_statistics=False) if paths else ctx.rows


def _reproduce(ctx: Context, out: str | Path | None) -> tuple[list[tuple[str, str]], list[str]]:
    """The commands that rebuild the results and this report, and a replay of one game per shown variant."""
    import shlex

    from simlab.run.chunk import replay_command

    m = ctx.manifest
    run, notes = _run_command(m, ctx.folder)
    commands = [("the same games, into the same folder (resumes if it is there)", shlex.join(run))]
    if ctx.sweep is not None:
        sweep_run, sweep_notes = _run_command(simlab.load_manifest(ctx.sweep), ctx.sweep)
        commands.append((f"the starting-money sweep that prices {ctx.units.money_plural}", shlex.join(sweep_run)))
        notes += [n.replace("shown below", "in the sweep's manifest") for n in sweep_notes]
    report = ["simlab", "report", str(ctx.folder)] + (["--out", str(out)] if out is not None else [])
    if ctx.sweep is not None:
        report += ["--sweep", str(ctx.sweep)]
    commands.append(("this report", shlex.join(report)))
    first = (
        _first_games(ctx)
        .filter((pl.col("game") == 0) & pl.col("variant").is_in(ctx.focus))
        .select("variant", "seat", "bot", "seed")
        .sort("variant", "seat")
        .collect()
    )
    by_name = {v["name"]: v for v in m["variants"]}
    for v in ctx.focus:
        d = first.filter(pl.col("variant") == v)
        if d.is_empty():
            continue
        spec = by_name[v]
        commands.append(
            (
                f"game 0 of {v}, narrated move by move",
                replay_command(
                    m["game"],
                    ctx.players,
                    d["bot"].to_list(),
                    int(d["seed"][0]),
                    spec.get("preset", ""),
                    spec.get("replay_set", {}),
                ),
            )
        )
    if ctx.focus:
        replay = ["simlab", "replay", str(ctx.folder), "--variant", ctx.focus[0], "--game", "0"]
        commands.append(
            (f"game 0 of {ctx.focus[0]} again, from this folder (any --variant, any --game)", shlex.join(replay))
        )
    notes.append(
        "Results are bit-identical for any --jobs and chunk size, so the run gives the same numbers on any "
        "machine. Any game can be replayed like game 0: simlab replay FOLDER --variant V --game N reads its "
        "seed, bots and settings from the folder; the simlab play lines above need only simlab."
    )
    return commands, notes
