"""Plain-text answers of ``simlab compensation`` and ``simlab compensate``: intervals first, never a point
estimate beside an unbounded interval ("not determined with n games; about N more needed" instead)."""

from __future__ import annotations

from typing import Any

from simlab.analysis.compensation import fit_undetermined
from simlab.core.facts import GENERIC_UNITS, Units


def _signed(x: float) -> str:
    return f"{x:+.2f}"


def against_rules_words(r: dict, units: Units = GENERIC_UNITS, places: int = 2, kind: str = "money") -> str:
    """A fit row's fair amount against the published rules' starting money of every seat, never an impossible
    amount (``compensation.against_rules``): "starting coins 0.00 against 3.35 for the other seat (the rules: 0
    against 0): the other seat needs 3.35 more", or the reason there is no published reference."""
    import math

    if not math.isfinite(r.get("fair_money", math.nan)):
        if math.isfinite(r.get("rules_money", math.nan)):
            return ""
        return f"no variant of the sweep plays the published starting {units.of(kind)}: the offset only"
    own, others = r["fair_money"], r["fair_others"]
    rules_own, rules_others = r["rules_money"], r["rules_others"]
    other = "the other seats" if r.get("players", 3) > 2 else "the other seat"
    rules = f"(the rules: {rules_own:g} against {rules_others:g})"
    amount = f"{own:.{places}f} against {others:.{places}f} for {other} {rules}"
    # the change from the rules moves with the fair offset, so its interval is the offset's, shifted
    shift = rules_own - rules_others
    lo, hi = r["fair_lo"] - shift, r["fair_hi"] - shift
    more = others - rules_others
    if more > 0:
        each = " each" if r.get("players", 3) > 2 else ""
        word = units.of(kind, more)
        return (
            f"starting {units.of(kind)} {amount}: {other} need{'' if each else 's'} {more:.{places}f} "
            f"[{-hi:.{places}f}, {-lo:.{places}f}] {word} more{each} (seat {r['seat']} cannot start below 0)"
        )
    change = own - rules_own
    word = units.of(kind, change)
    span = f"[{lo:.{places}f}, {hi:.{places}f}]" if change >= 0 else f"[{-hi:.{places}f}, {-lo:.{places}f}]"
    how = f"{abs(change):.{places}f} {span} {word} {'more' if change >= 0 else 'less'}"
    return f"starting {units.of(kind)} {amount}: seat {r['seat']} needs {how}"


def published_fair_words(verdict: dict, variant: str) -> str | None:
    """When a sweep's variant with the published starting money already has every seat within the tolerance
    (a ``seat_verdicts`` row: ``fair`` or ``within``), the sentence that says so first; else None."""
    if verdict["verdict"] not in ("fair", "within"):
        return None
    tol = verdict["tolerance"] * 100
    return (
        f"The published rules ({variant}) are already fair within ±{tol:g} points of win share: every seat's "
        f"simultaneous interval lies inside {verdict['fair_share'] * 100:.1f}% ± {tol:g} (n={verdict['games']:,} "
        "games per seat); the fitted offsets below say what money would move, not what the rules need."
    )


#: variants named in the left-out line before the rest are counted
LEFT_OUT_NAMED = 5


def left_out_line(left_out: list[str], units: Units = GENERIC_UNITS) -> str:
    """The variants a sweep fit leaves out (they change more than the starting money), said after the answer in
    one short line: the first few named, the rest counted (a card run holds fifty of them)."""
    named = ", ".join(left_out[:LEFT_OUT_NAMED])
    rest = len(left_out) - LEFT_OUT_NAMED
    more = f" and {rest} more" if rest > 0 else ""
    return (
        f"left out of the fit: {len(left_out)} variant(s) that change more than the starting {units.money_plural} "
        f"({named}{more})"
    )


def compensation_text(comp: Any, units: Units = GENERIC_UNITS) -> list[str]:
    """One line per fitted seat of a ``Compensation`` (its kind: starting money or starting points)."""
    kind = getattr(comp, "kind", "money")
    one, many = (units.money, units.money_plural) if kind == "money" else (units.points, units.points_plural)
    lines = [f"starting {many}:"]
    for r in comp.fit.iter_rows(named=True):
        rate = (
            f"one {one} is worth {r['rate'] * 100:.2f} [{r['rate_lo'] * 100:.2f}, {r['rate_hi'] * 100:.2f}] "
            f"win-share points; {r['games']:,} seat-games over {r['offsets']} offsets"
        )
        missing = fit_undetermined(r, comp.level)
        if missing is not None:
            lines.append(f"seat {r['seat']}: fair offset {missing}; {rate}")
            continue
        words = against_rules_words({**r, "players": comp.players}, units, kind=kind)
        lines.append(
            f"seat {r['seat']}: fair offset {_signed(r['fair_offset'])} {many} "
            f"[{_signed(r['fair_lo'])}, {_signed(r['fair_hi'])}] against the others' mean"
            + (f"; {words}" if words else "")
            + f"; win share at offset 0: {r['share_at_0'] * 100:.1f}%; {rate}"
        )
    lines.append(f"intervals: {comp.fit['interval'][0]}")
    return lines


STATUS = {
    "decided": "decided: every other raced vector's largest deviation was detectably larger (paired bootstrap "
    "over game indices, Bonferroni over each round's comparisons)",
    "equivalent": "the vectors still in the race are within the tolerance of the best ({tol:.1f} points of "
    "largest deviation): any of them will do",
    "budget": "--max-games spent before the race was decided: the best vector so far (see the candidates)",
    "continuous": "a continuous knob: the model's answer, with parametric-bootstrap intervals",
    "published": "nothing searched: the published vector is already fair",
    "settled": "simlab fix's search (objective most_equal) settled: a vector passed its test on the search games and "
    "every other left was detectably less equal (paired bootstrap, Bonferroni over each round's comparisons) or "
    "within {tol:.1f} points of the most equal; of those the cheapest",
    "exhausted": "simlab fix's search played every vector its model could not rule out, and ruled each out",
}


def fair_vector_text(result: Any) -> list[str]:
    """The outcome the confirmations support (first line), the chosen vector, how the race ended, the candidates
    and the confirmation runs (the published vector's, then the chosen one's)."""
    from simlab.analysis.fair_outcome import headline
    from simlab.analysis.fair_vector import largest_deviation, with_offsets

    base = ",".join(f"{b:g}" for b in result.base)
    value = ",".join(f"{v:g}" for v in result.value)
    offsets = ",".join(f"{x:+g}" if result.integer else f"{x:+.2f}" for x in result.offsets)
    lines = [headline(result)]
    if result.published is not None:
        lines += _confirmation_lines(result.published, result.knob, "the published rules")
    if result.status == "published":
        return lines
    lines.append(f"the search's answer: {result.knob} {value} (offsets {offsets} on the published {base})")
    if result.offset_lo is not None:
        lines.append(
            "  offset intervals: "
            + ", ".join(
                f"seat {k} [{lo:+.2f}, {hi:+.2f}]"
                for k, (lo, hi) in enumerate(zip(result.offset_lo, result.offset_hi, strict=True))
            )
        )
    lines.append(f"  search: {result.games:,} games; " + STATUS[result.status].format(tol=result.tolerance * 100))
    if result.integer:
        lines.append("  raced vectors (win share by seat, %; largest deviation from 1/N, points):")
        for c in result.candidates:
            s = c.shares()
            mark = "chosen" if tuple(c.offsets) == tuple(result.offsets) else (
                f"dropped in round {c.dropped}" if c.dropped else c.note or "in the race"
            )  # fmt: skip
            lines.append(
                f"    {','.join(f'{v:g}' for v in with_offsets(result.base, c.offsets))}: "
                f"{' / '.join(f'{x * 100:.1f}' for x in s)}; {largest_deviation(s) * 100:.2f}; "
                f"{c.games:,} games; {mark}"
            )
    return lines + _confirmation_lines(result.confirmation, result.knob, "the chosen vector")


def _confirmation_lines(conf: Any, knob: str, what: str) -> list[str]:
    """A confirmation run: seat shares with intervals, the equal-seats test, the largest deviation."""
    n = len(conf.shares)
    lines = [f"confirmation of {what} on {conf.games:,} fresh games (seeds never used by the search):"]
    for k in range(n):
        lines.append(
            f"  seat {k} ({knob} {conf.value[k]:g}): win share {conf.shares[k] * 100:.1f}% "
            f"[{conf.lo[k] * 100:.1f}, {conf.hi[k] * 100:.1f}]"
        )
    verdict = "no detectable inequality" if conf.p_equal >= 1 - conf.level else "the seats are detectably unequal"
    lines.append(
        f"  all seats equal? Wald χ² = {conf.chi2:.2f} (df {conf.df}), p = {conf.p_equal:.3g}: {verdict}; "
        f"largest deviation from {100 / n:.1f}%: {conf.deviation * 100:.2f} points"
    )
    lines.append(f"  intervals: normal interval of the mean ({conf.level:.0%}), n = {conf.games:,} games per seat")
    return lines


def fair_vector_tables(result: Any) -> dict[str, Any]:
    """``simlab compensate --json`` tables: the answer, both confirmations, the race."""
    tables = {"answer": result.answer_table(), "confirmation": result.confirmation.table()}
    if result.published is not None:
        tables["published"] = result.published.table()
    tables["candidates"] = result.candidates_table()
    return tables


def fair_vector_fields(result: Any, game: str, tolerance: float, lineup: list[str], seed: int) -> dict[str, Any]:
    """``simlab compensate --json`` fields before its tables: the game and its units, the knob, the outcome and its
    first line, the value, the budget spent, the tolerances, the lineup and the seed."""
    from simlab.analysis.fair_outcome import headline
    from simlab.analysis.words import game_words

    return {
        "game": game,
        "units": game_words(game).as_json(),
        "knob": result.knob,
        "level": result.level,
        "outcome": result.outcome,
        "headline": headline(result),
        "value": list(result.value),
        "status": result.status,
        "games": result.games,
        "tolerance": tolerance,
        "fair_within": result.within * 100,
        "lineup": lineup,
        "seed": seed,
    }
