"""A rule fix in the game's own words and units: "give seat 3 two more <money> and make the <table knob>
2, 4, 4 instead of 2, 3, 4", with the seat shares, guards, alternatives, games and certification panel that back it.

Reads the answer of a fix search as its JSON (``FixResult.to_dict()``, as ``fix.json`` keeps it) and the game's
declared words: each knob's description from its config, the money and points units of the game's facts (a knob a
money or points intervention turns counts in them). Names no game. One rule above all: the word *fair* is said
only of a change whose certification passed for every bot of the panel; a failed or open certification names the
bots for which it does not hold, with their intervals.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence
from typing import Any

from simlab.analysis.bot_words import bot_words
from simlab.analysis.words import Words, game_words

CERTIFIED = "certified"
#: how a panel entry names the scenario's lineup (``fix_certify.bot_check``): "lineup: builder,warrior"
LINEUP = "lineup: "
#: small amounts as words ("two more <money>"), as a rulebook writes them
NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


@dataclasses.dataclass(frozen=True)
class Vocabulary:
    """What a change is said with: the game's words, each knob's description, the knobs that count money or
    points, and the knobs that hold one value per seat."""

    words: Words = dataclasses.field(default_factory=Words)
    docs: Mapping[str, str] = dataclasses.field(default_factory=dict)
    unit_of: Mapping[str, str] = dataclasses.field(default_factory=dict)  # knob -> "money" | "points"
    per_seat: frozenset[str] = frozenset()
    facts: Mapping[str, str] = dataclasses.field(default_factory=dict)  # fact column -> its description


def vocabulary(game_id: str | None, seat_knobs: Sequence[str] = ()) -> Vocabulary:
    """The vocabulary of an installed game (generic words and no descriptions for one not installed here);
    ``seat_knobs``: the question's knobs with a per-seat grid (said seat by seat whatever their description)."""
    import simlab

    said = game_words(game_id)
    try:
        game = simlab.get_game(str(game_id))
    except Exception:  # a plug-in game missing on this machine: the knobs' own names
        return Vocabulary(said, per_seat=frozenset(seat_knobs))
    docs = {f.name: str(f.metadata.get("doc", "")) for f in dataclasses.fields(game.config_class)}
    facts = game.fact_set
    unit_of = {
        i.knob: i.kind for i in (facts.interventions if facts is not None else ()) if i.kind in ("money", "points")
    }
    described = {k for k, d in docs.items() if "by seat" in d or "each seat" in d or "per seat" in d}
    per_seat = frozenset(unit_of) | described | set(seat_knobs)
    facts_said: dict[str, str] = {}
    if facts is not None:
        try:
            facts_said = facts.schema(game.make_config())
        except Exception:  # a fact set that needs another player count: the columns' own names
            facts_said = {}
    return Vocabulary(said, docs, unit_of, per_seat, facts_said)


# -- the change ------------------------------------------------------------------------------------------
def settings_of(change: Mapping[str, Any] | None) -> list[dict[str, Any]]:
    """The settings a change makes (``Change.as_dict()``'s): each ``{knob, published, value, steps}``."""
    return [dict(s) for s in (change or {}).get("settings") or []]


def cost_text(cost: Any) -> str:
    """A change's cost as the question counts it: "2 knobs, 3 steps"."""
    if not isinstance(cost, Mapping):
        return _cell(cost)
    knobs, steps = int(cost.get("knobs", 0)), int(cost.get("steps", 0))
    return f"{knobs} knob{'s' * (knobs != 1)}, {steps} step{'s' * (steps != 1)}"


def change_text(change: Mapping[str, Any] | None, vocab: Vocabulary) -> str:
    """The change as a designer would write it in the rules, every setting joined with "and"."""
    parts = [p for s in settings_of(change) for p in setting_text(s["knob"], s["published"], s["value"], vocab)]
    if not parts:
        return "keep the published rules"
    return ", ".join(parts[:-1]) + (" and " if len(parts) > 1 else "") + parts[-1]


def setting_text(knob: str, published: Any, new: Any, vocab: Vocabulary) -> list[str]:
    """One knob's change: per seat ("give seat 3 two more <money>"), an entry of a table ("the 3 becomes 4"), or
    a value ("8 instead of 7"), always with the knob's description so the designer finds it in the rules."""
    what = _what(knob, vocab)
    if _is_list(published) and _is_list(new) and len(published) == len(new):
        pairs = list(zip(published, new, strict=True))
        if knob in vocab.per_seat:
            return [_seat_text(k, a, b, knob, what, vocab) for k, (a, b) in enumerate(pairs) if a != b]
        moved = [f"the {_show(a)} becomes {_show(b)}" for a, b in pairs if a != b]
        return [f"make {_the(what, knob)} {_list(new)} instead of {_list(published)} ({', '.join(moved)})"]
    return [f"make {_the(what, knob)} {_show_value(new)} instead of {_show_value(published)}"]


def _seat_text(seat: int, a: Any, b: Any, knob: str, what: str, vocab: Vocabulary) -> str:
    diff = b - a
    unit = vocab.unit_of.get(knob)
    if unit is None:
        return f"set seat {seat}'s {what} to {_show(b)} instead of {_show(a)}"
    amount = vocab.words.units.of(unit, abs(diff))
    if diff > 0:
        return f"give seat {seat} {_amount(diff)} more {amount}"
    return f"give seat {seat} {_amount(-diff)} {amount} fewer"


def _what(knob: str, vocab: Vocabulary) -> str:
    """The knob by its description, its config name after it in brackets (for the scenario): "turn-order tiles
    (turn_tiles; the lowest players-1 are used)"; a knob with no description by its name."""
    doc = vocab.docs.get(knob, "").strip()
    if not doc:
        return knob
    cut = min((i for i in (doc.find("; "), doc.find(" (")) if i > 0), default=len(doc))
    head, rest = doc[:cut].strip(), doc[cut:].strip(" ;")
    if rest.startswith("(") and rest.endswith(")"):
        rest = rest[1:-1]
    return f"{head} ({knob}; {rest})" if rest else f"{head} ({knob})"


def _the(what: str, knob: str) -> str:
    """A described knob as the object of "make": "the turn-order tiles (turn_tiles; ...)"."""
    return what if what == knob or what.startswith(("the ", "a ", "an ")) else f"the {what}"


def _amount(x: Any) -> str:
    if isinstance(x, int) and 0 <= x < len(NUMBER_WORDS):
        return NUMBER_WORDS[x]
    return _show(x)


def _is_list(x: Any) -> bool:
    return isinstance(x, list | tuple)


def _list(x: Sequence[Any]) -> str:
    return ", ".join(_show(v) for v in x)


def _show_value(x: Any) -> str:
    if _is_list(x):
        return _list(x)
    if isinstance(x, bool):
        return "on" if x else "off"
    return _show(x)


def _show(x: Any) -> str:
    return f"{x:g}" if isinstance(x, float) else str(x)


# -- numbers -----------------------------------------------------------------------------------------------
def pct_ci(x: Any, lo: Any, hi: Any) -> str:
    """ "27.1% [25.9%, 28.3%]" (a share and its interval)."""
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "–"
    if lo is None or hi is None:
        return f"{100 * x:.1f}%"
    return f"{100 * x:.1f}% [{100 * lo:.1f}%, {100 * hi:.1f}%]"


def intervals_text(alpha: Any, looks: bool = False) -> str:
    """What a fix answer's intervals are: each seat's (1 − 2α) interval, whose bounds are the certification's
    one-sided tests at α (not a 95% interval); a worst seat deviation's bounds come from the seats' intervals. A
    certification in ``looks`` tests at each look's group-sequential boundary (and a later attempt at its share of
    α): its bounds are those tests', at least (1 − 2α) and wider at an early look."""
    try:
        a = float(alpha)
    except (TypeError, ValueError):
        return "intervals as the method says"
    if looks:
        return (
            f"intervals whose bounds are the certification's one-sided tests, each at its look's group-sequential "
            f"boundary and its attempt's share of α = {a:g} (each at least a {1 - 2 * a:.0%} interval; wider at an "
            "early look or a later attempt)"
        )
    return f"{1 - 2 * a:.0%} intervals, each bound a one-sided test at α = {a:g} as the certification tests every seat"


def in_looks(result: Mapping[str, Any]) -> bool:
    """Whether the answer's certification read its games in looks (its attempts are listed)."""
    return bool(result.get("attempts"))


def tolerance_text(tolerance: Any) -> str:
    """ "±1 point of win share", "±2.5 points of win share"."""
    t = float(tolerance)
    return f"±{t:g} point{'' if t == 1 else 's'} of win share"


def points_ci(x: Any, lo: Any, hi: Any) -> str:
    """ "2.1 [0.9, 3.3] points" (a deviation of shares, in points of win share)."""
    if x is None:
        return "–"
    if lo is None or hi is None:
        return f"{100 * x:.1f} points"
    return f"{100 * x:.1f} [{100 * lo:.1f}, {100 * hi:.1f}] points"


# -- the answer --------------------------------------------------------------------------------------------
def failed_bots(result: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The panel's entries whose certification did not put every seat within the tolerance."""
    return [p for p in result.get("panel") or [] if not p.get("fair")]


def is_certified(result: Mapping[str, Any]) -> bool:
    """A change may be called fair only when the search says certified, every lineup of the panel passed and no
    guard broke."""
    guards_ok = all(g.get("ok") for g in result.get("guards") or [])
    return result.get("status") == CERTIFIED and bool(result.get("panel")) and not failed_bots(result) and guards_ok


def headline(result: Mapping[str, Any], vocab: Vocabulary) -> tuple[str, str]:
    """The answer's first sentence and its tone (ok, warn, info)."""
    tol = tolerance_text(result.get("tolerance", 0))  # the question's points
    change = change_text(result.get("change"), vocab) if result.get("change") else ""
    games = (result.get("games") or {}).get("total")
    spent = f" ({games:,} games in all)" if isinstance(games, int) else ""
    status = result.get("status")
    panel = list(result.get("panel") or [])
    if status == "already_fair" and panel and not failed_bots(result):
        return (
            f"The published rules are already fair within {tol} for every bot tested: nothing to change{spent}.",
            "ok",
        )
    if is_certified(result):
        return (
            f"Recommended change: {change}. Certified fair within {tol} for every bot tested ({tested(panel)}), on "
            f"fresh games the search never saw{spent}.",
            "ok",
        )
    if status in (CERTIFIED, "not_certified", "already_fair"):
        what = f"Best change found: {change}" if status != "already_fair" else "The published rules"
        tried = list(result.get("attempts") or [])
        if status == "not_certified" and len(tried) > 1:
            what = f"Certification tried {len(tried)} changes and certified none; the last: {change}"
        broken = [guard_label(str(g.get("name")), vocab) for g in result.get("guards") or [] if not g.get("ok")]
        why = (
            [f"the test failed for {'; '.join(_bot_text(p) for p in failed_bots(result))}"]
            if failed_bots(result)
            else []
        )
        why += [f"it breaks the guard{'s' * (len(broken) > 1)} {', '.join(broken)}"] if broken else []
        closest = _closest(result, vocab) if status == "not_certified" and len(result.get("attempts") or []) > 1 else ""
        why += [closest] if closest else []
        return f"{what}. NOT certified within {tol}: {'; '.join(why) or 'no certification games'}{spent}.", "warn"
    closest = f"; the closest: {change}" if change else ""
    if status == "none_on_grid":
        return f"No change on the declared grid makes every seat's win share fall within {tol}{closest}{spent}.", "warn"
    best = f"; the current best: {change}" if change else ""
    return f"Not settled: the budget ran out before a change was certified within {tol}{best}{spent}.", "info"


def _closest(result: Mapping[str, Any], vocab: Vocabulary) -> str:
    """The attempt whose lineup check came closest to passing (the smallest upper bound of its worst seat)."""
    tried = [a for a in result.get("attempts") or [] if a.get("hi") is not None]
    if not tried:
        return ""
    best = min(tried, key=lambda a: float(a["hi"]))
    if best is tried[-1]:
        return ""  # the last attempt is the change the answer names: its failed test is said already
    n = best.get("n")
    return (
        f"the closest was attempt {best.get('attempt')}, {change_text(best.get('change'), vocab)}: the lineup's worst "
        f"seat {points_ci(best.get('worst_deviation'), best.get('lo'), best.get('hi'))} from an equal share"
        + (f", n={n:,}" if isinstance(n, int) else "")
    )


def tested(panel: Sequence[Mapping[str, Any]]) -> str:
    """The lineups a certification played: "the lineup builder, warrior; builder and warrior each in every seat"."""
    lineups = [str(p["bot"]).removeprefix(LINEUP).replace(",", ", ") for p in panel if str(p["bot"]).startswith(LINEUP)]
    bots = [bot_words(str(p["bot"])) for p in panel if not str(p["bot"]).startswith(LINEUP)]
    parts = [f"the lineup {b}" for b in lineups]
    if bots:
        said = bots[0] if len(bots) == 1 else ", ".join(bots[:-1]) + " and " + bots[-1]
        parts.append(f"{said} {'each ' if len(bots) > 1 else ''}in every seat")
    return "; ".join(parts)


def _bot_text(p: Mapping[str, Any]) -> str:
    dev = points_ci(p.get("worst_deviation"), p.get("lo"), p.get("hi"))
    n = p.get("n")
    said = tested([p]) if str(p.get("bot")).startswith(LINEUP) else bot_words(str(p.get("bot")))
    return f"{said} (worst seat {dev} from an equal share" + (f", n={n:,})" if isinstance(n, int) else ")")


def shares_rows(result: Mapping[str, Any]) -> list[list[str]]:
    """Per seat: the win share before and after the change, each with its interval, and the games."""
    before = {r["seat"]: r for r in result.get("before") or []}
    after = {r["seat"]: r for r in result.get("after") or []}
    rows = []
    for seat in sorted(set(before) | set(after)):
        b, a = before.get(seat, {}), after.get(seat, {})
        rows.append([
            f"seat {seat}",
            pct_ci(b.get("share"), b.get("lo"), b.get("hi")),
            pct_ci(a.get("share"), a.get("lo"), a.get("hi")),
            f"{b.get('n', 0):,} / {a.get('n', 0):,}",
        ])  # fmt: skip
    return rows


#: the guards' measures in words (``fact.<column>``: the fact's own description)
GUARD_WORDS = {
    "length": "mean game length (turns)",
    "draws": "shared wins (share of games)",
    "luck": "luck (chance's share of the score's variance)",
}


def guard_label(name: str, vocab: Vocabulary) -> str:
    """A guard as a reader sees it: "mean game length (turns)", a fact by its description."""
    if name in GUARD_WORDS:
        return GUARD_WORDS[name]
    column = name.removeprefix("fact.")
    return f"mean {vocab.facts[column]} ({column})" if column in vocab.facts else name


def guard_rows(result: Mapping[str, Any], vocab: Vocabulary | None = None) -> list[list[str]]:
    """Per guard: before, after, the band it must stay in, and whether it does (rates as percentages)."""
    vocab = vocab or Vocabulary()
    rows = []
    for g in result.get("guards") or []:
        name = str(g.get("name"))
        rate = name in ("draws", "luck")
        show = (lambda x: f"{100 * x:.1f}%" if isinstance(x, int | float) else _cell(x)) if rate else _measure
        band = g.get("band") or []
        shown_band = f"[{show(band[0])}, {show(band[1])}]" if len(band) == 2 else "–"
        kept = "kept" if g.get("ok") else "BROKEN"
        rows.append([guard_label(name, vocab), show(g.get("before")), show(g.get("after")), shown_band, kept])
    return rows


def _measure(x: Any) -> str:
    """A guard's measure with one decimal, as its band shows it ("[15.5, 19.0]", not "[15.5, 19]")."""
    return f"{x:,.1f}" if isinstance(x, int | float) and not isinstance(x, bool) and abs(x) >= 1 else _cell(x)


def alternatives_title(result: Mapping[str, Any]) -> str:
    """What the alternatives table holds: with a chosen change, the others that passed the search's test; with none
    (the budget ran out, or every candidate was ruled out), the candidates not ruled out, best first."""
    if result.get("change") is not None or result.get("status") in (CERTIFIED, "not_certified"):
        return "cheapest alternatives that also pass"
    return "candidates still open, none settled (the smallest upper bound of the worst seat deviation first)"


def alternative_rows(result: Mapping[str, Any], vocab: Vocabulary) -> list[list[str]]:
    """The alternatives (``alternatives_title``): the change, its cost, worst seat deviation, game length, games
    (on the search's games); one the certification already tried and did not certify says so."""
    tried = {
        _settings_key(t.get("change")): t.get("attempt") for t in result.get("attempts") or [] if not t.get("certified")
    }
    return [
        [
            change_text(a.get("change"), vocab)
            + (
                f" (certification attempt {tried[_settings_key(a.get('change'))]}: not certified)"
                if _settings_key(a.get("change")) in tried
                else ""
            ),
            cost_text((a.get("change") or {}).get("cost", a.get("cost"))),  # beside the change: an older folder
            points_ci(a.get("worst_deviation"), a.get("lo"), a.get("hi")),
            _measure(a.get("mean_length")),
            f"{a.get('n', 0):,}",
        ]
        for a in result.get("alternatives") or []
    ]


def _settings_key(change: Mapping[str, Any] | None) -> str:
    """A change's settings as a comparable key (the knobs and their values)."""
    return repr(sorted((str(x["knob"]), repr(x["value"])) for x in settings_of(change)))


#: the published rules' own checks, played before the search (why the rules are not already fair)
PUBLISHED_PANEL_TITLE = "the published rules on fresh games, why they are not already fair"


def panel_rows(result: Mapping[str, Any], key: str = "panel") -> list[list[str]]:
    """Per bot of the certification panel (or ``published_panel``: the published rules' checks): fair within the
    tolerance or not, its worst seat with interval, games."""
    return [
        [
            tested([p]),
            "yes" if p.get("fair") else "NO",
            points_ci(p.get("worst_deviation"), p.get("lo"), p.get("hi")),
            f"{p.get('n', 0):,}",
        ]
        for p in result.get(key) or []
    ]


def games_line(result: Mapping[str, Any]) -> str:
    g = result.get("games") or {}
    parts = [f"{k} {int(g[k]):,}" for k in ("explore", "race", "certify") if isinstance(g.get(k), int | float)]
    return f"games spent: {', '.join(parts)}; total {int(g.get('total', 0)):,}"


def _cell(x: Any) -> str:
    if x is None:
        return "–"
    if isinstance(x, float):
        return f"{x:.3g}"
    if _is_list(x):
        return "[" + ", ".join(_cell(v) for v in x) + "]"
    if isinstance(x, Mapping):
        return ", ".join(f"{k} {_cell(v)}" for k, v in x.items())
    return str(x)


SHARES_HEADER = ["seat", "win share before", "win share after", "games before / after"]
GUARDS_HEADER = ["guard", "before", "after", "band", "kept?"]
ALTERNATIVES_HEADER = ["change", "cost", "worst seat deviation", "game length", "games"]
PANEL_HEADER = ["who played", "fair?", "worst seat deviation", "games"]
ATTEMPTS_HEADER = ["attempt", "change", "level α", "how it ended", "the lineup's worst seat deviation", "games"]
ATTEMPTS_TITLE = "certification attempts (each on its own fresh seeds, cheapest first)"
#: how a check in looks ended (``fix_sequential``: certified, futile, cap)
ENDINGS = {"certified": "certified", "futile": "stopped for futility", "cap": "not shown fair at its cap"}


def attempt_rows(result: Mapping[str, Any], vocab: Vocabulary) -> list[list[str]]:
    """Per certification attempt: the change, its level, how its check ended (the lineup's look; the panel bot
    whose check ended it), the lineup's worst seat with its interval, the games it played."""
    rows = []
    for a in result.get("attempts") or []:
        outcome, look, who = str(a.get("outcome")), a.get("look"), str(a.get("stopped_by") or "lineup")
        ended = ENDINGS.get(outcome, outcome)
        if a.get("certified"):
            ended = f"certified (the lineup at look {look})"
        elif who == "lineup":
            ended = f"the lineup {ended} " + (f"(look {look})" if outcome == "cap" else f"at look {look}")
        else:
            ended = f"the lineup passed at look {look}; {bot_words(who)} in every seat {ended}"
        rows.append([
            str(a.get("attempt")),
            change_text(a.get("change"), vocab) if a.get("change") else "–",
            f"{float(a['alpha']):g}" if a.get("alpha") is not None else "–",
            ended,
            points_ci(a.get("worst_deviation"), a.get("lo"), a.get("hi")),
            f"{int(a.get('games', 0)):,}",
        ])  # fmt: skip
    return rows


def answer_lines(result: Mapping[str, Any], vocab: Vocabulary) -> list[str]:
    """The whole answer as text: headline, seat shares, guards, alternatives, panel, games and method."""
    lines = [headline(result, vocab)[0]]
    for title, header, rows in (
        (
            "seat win shares (published rules, then the change; "
            f"{intervals_text(result.get('alpha'), in_looks(result))})",
            SHARES_HEADER,
            shares_rows(result),
        ),
        ("guards", GUARDS_HEADER, guard_rows(result, vocab)),
        ("certification panel", PANEL_HEADER, panel_rows(result)),
        (ATTEMPTS_TITLE, ATTEMPTS_HEADER, attempt_rows(result, vocab) if len(result.get("attempts") or []) > 1 else []),
        (PUBLISHED_PANEL_TITLE, PANEL_HEADER, panel_rows(result, "published_panel")),
        (alternatives_title(result), ALTERNATIVES_HEADER, alternative_rows(result, vocab)),
    ):
        if rows:
            lines += [f"{title}:", *("  " + " | ".join(r) for r in [header, *rows])]
    lines.append(games_line(result))
    if result.get("method"):
        lines.append(f"method: {result['method']}")
    return lines


def progress_line(info: Mapping[str, Any] | str, vocab: Vocabulary | None = None) -> str:
    """One progress line of the search from the driver's round report (phase, round, games, candidates left, the
    current best with its worst seat deviation and interval): "race round 3: 4 candidates left, 12,000 games
    spent; best <knob> 6,6,6,6 -> 6,6,7,8 (worst seat 1.2 [0.4, 2.0] points)"; with the game's ``vocab``, the best
    in its words ("best: give seat 3 two more <money>")."""
    if isinstance(info, str):
        return info
    phase = str(info.get("phase", "search"))
    head = f"{phase} round {info['round']}" if info.get("round") is not None else phase
    parts = []
    if info.get("candidates_left") is not None:
        left = int(info["candidates_left"])
        parts.append(f"{left} candidate{'s' * (left != 1)} left")
    if info.get("games") is not None:
        parts.append(f"{int(info['games']):,} games spent")
    if info.get("certify_games") is not None:
        parts.append(f"{int(info['certify_games']):,} certification games")
    if info.get("slope_z") is not None:
        parts.append(f"model slope {float(info['slope_z']):.1f} standard errors from 0")
    line = f"{head}: {', '.join(parts)}" if parts else head
    if info.get("best"):
        dev = info.get("worst_deviation")
        shown = f" (worst seat {points_ci(dev, info.get('lo'), info.get('hi'))})" if dev is not None else ""
        fair = {True: "; certified fair for every lineup", False: "; NOT certified"}.get(info.get("fair"), "")
        best = f": {change_text(info['change'], vocab)}" if vocab is not None and info.get("change") else ""
        line += f"; best{best or ' ' + str(info['best'])}{shown}{fair}"
    return line
