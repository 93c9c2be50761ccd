"""What the notebooks (``notebooks/*.ipynb``) share: display defaults, the game's words, its shipped scenario
for a question, and the sentences they print, computed from the numbers beside them.

A notebook takes the game as a parameter (``GAME = "massilia"``), so nothing it says may be written by hand
for one game: every sentence that holds a number, a verdict or a game's word (card, god, item; sesterces,
feet, credits) comes from a function here, fed the frame the notebook has just printed. A claim then cannot
drift from its numbers when the game, the game count or the engine changes.

Floats print with polars' "mixed" format: about six significant digits, scientific notation for very large
or small numbers (0.019519, 1.2346e6), instead of every digit of the double (0.019518634264255555), so a
table of win shares and intervals reads at a glance without hiding a small difference.
"""

from __future__ import annotations

import math
import re
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl

from simlab.analysis.words import Words as AnswerWords
from simlab.analysis.words import words
from simlab.core.errors import SimlabError

#: the shipped scenario files (the repository's ``scenarios/``)
SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"

#: the questions the notebooks ask, each the word a shipped scenario's file name holds (besides the kinds a
#: game names in ``Game.scenarios``: money_sweep, card_value)
QUESTIONS = ("seats", "money_sweep", "card_value", "market_shifts")


def setup_notebook(rows: int = 12) -> None:
    """Show at most ``rows`` rows of a table, floats with their significant digits."""
    pl.Config.set_tbl_rows(rows)
    pl.Config.set_fmt_float("mixed")
    pl.Config.set_float_precision(None)


@dataclass(frozen=True)
class Words(AnswerWords):
    """A game's words for a notebook's sentences: the analyses' :class:`simlab.analysis.words.Words` (its units and
    the noun of what its card intervention grants: card, god, item), with ``fill`` and ``say`` for prose."""

    @classmethod
    def of(cls, results: Any) -> Words:
        """The words of a result folder (from its manifest) or of rows, as the analyses' answers say them."""
        said = words(results)
        return cls(said.units, said.noun, said.nouns)

    def fill(self, text: str, **numbers: Any) -> str:
        """``text`` with {noun}, {nouns}, {money}, {money_plural}, {points}, {points_plural} and ``numbers``."""
        u = self.units
        return text.format(
            noun=self.noun,
            nouns=self.nouns,
            money=u.money,
            money_plural=u.money_plural,
            points=u.points,
            points_plural=u.points_plural,
            **numbers,
        )

    def say(self, text: str, **numbers: Any) -> None:
        """Show ``text`` (filled, see ``fill``) as Markdown under the cell."""
        say(self.fill(text, **numbers))


def say(text: str) -> None:
    """Show ``text`` as Markdown under the cell (the notebooks' computed prose)."""
    from IPython.display import Markdown, display

    display(Markdown(text))


def shipped_scenario(game: str, question: str, root: Path = SCENARIOS) -> Path:
    """The game's shipped scenario for ``question``: the one its ``Game.scenarios`` names, else the file in
    ``root`` of that game whose name holds the question (``roma_seats.toml``), the shortest name first (the
    four-player file before ``_2p``). Refused, naming the games that have one, when the game has none."""
    found = _shipped(question, root)
    if game in found:
        return found[game]
    import simlab

    simlab.get_game(game)  # an unknown game: "did you mean" from the registry
    raise SimlabError(
        f"GAME = {game!r}: {game} ships no {question} scenario; the games that do: "
        f"{', '.join(sorted(found)) or 'none'}. Set GAME to one of them, or write a {question} scenario for "
        f"{game} (docs/scenarios.md)."
    )


def games_answering(question: str, root: Path = SCENARIOS) -> list[str]:
    """The registered games that ship a scenario for ``question`` (what a notebook can be run for)."""
    return sorted(_shipped(question, root))


def _shipped(question: str, root: Path) -> dict[str, Path]:
    """Game -> its scenario for ``question``: ``Game.scenarios``, else its shortest-named file holding it."""
    import simlab

    out: dict[str, Path] = {}
    for path in sorted(root.glob(f"*{question}*.toml"), key=lambda p: (len(p.stem), p.stem)):
        out.setdefault(str(tomllib.loads(path.read_text()).get("game", "")), path)
    for game in simlab.available_games():
        named = simlab.get_game(game).scenarios.get(question)
        if named:
            out[game] = root.parent / named
    return {g: p for g, p in out.items() if g in simlab.available_games()}


# -- numbers in words ------------------------------------------------------------------------------------
def pct(x: float, lo: float, hi: float) -> str:
    """A share with its interval, in percent: ``27.1% [25.1, 29.0]``."""
    return f"{x * 100:.1f}% [{lo * 100:.1f}, {hi * 100:.1f}]"


def pts(x: float, lo: float, hi: float) -> str:
    """A change of a share, in percentage points: ``+2.15 [-0.41, +4.71] points``."""
    return f"{x * 100:+.2f} [{lo * 100:+.2f}, {hi * 100:+.2f}] points"


def seats_prose(seats: pl.DataFrame) -> str:
    """Per variant: the first and the last seat's win share (simultaneous intervals), the flagged seats and
    the equal-seats test (``seat_advantage``'s frame)."""
    lines = []
    for (variant,), d in seats.group_by("variant", maintain_order=True):
        d = d.sort("seat")
        first, last = d.row(0, named=True), d.row(d.height - 1, named=True)
        flagged = [f"seat {r['seat']} is {r['flag']}" for r in d.iter_rows(named=True) if r["flag"]]
        verdict = "; ".join(flagged) if flagged else "no seat is flagged"
        lines.append(
            f"- **{variant}** ({first['games']:,} games per seat): the first seat wins "
            f"{pct(first['win_share'], first['win_share_slo'], first['win_share_shi'])}, the last seat (seat "
            f"{last['seat']}) {pct(last['win_share'], last['win_share_slo'], last['win_share_shi'])} against a fair "
            f"{first['fair_share'] * 100:.1f}%; {verdict} (all seats equal? p = {first['p_equal']:.2g})."
        )
    return "\n".join(lines)


def changes_prose(change: pl.DataFrame, base: str) -> str:
    """How many of ``compare_variants``' changes exclude 0, on their own and simultaneously, and which."""
    k = change.height
    if k == 0:
        return f"No variant to compare with {base}."
    own = change.filter((pl.col("diff_lo") > 0) | (pl.col("diff_hi") < 0))
    simult = change.filter((pl.col("diff_slo") > 0) | (pl.col("diff_shi") < 0))
    games = int(change["games"].min())
    text = (
        f"Of the {k} changes against {base} ({games:,} paired games each), {own.height} "
        f"{'has' if own.height == 1 else 'have'} a 95% interval that excludes 0 and {simult.height} "
        f"{'stays' if simult.height == 1 else 'stay'} apart from 0 with the intervals simultaneous over all {k}"
    )
    if simult.height:
        named = [
            f"{r['variant']} seat {r['seat']} {pts(r['diff'], r['diff_slo'], r['diff_shi'])}"
            for r in simult.sort("diff").iter_rows(named=True)
        ]
        return text + ": " + "; ".join(named) + "."
    if own.height:
        return text + ": read one by one, such a change is what chance alone gives among this many."
    return text + f": at {games:,} games no variant is told apart from {base} on any seat."


def narrower(ratios: Sequence[float]) -> str:
    """How much the pairing narrowed intervals (unpaired width / paired width), in words that follow the
    median ratio r: the share of the variance it cancels is 1 - 1/r², so ×1.05 is "little of the luck" and
    only r ≥ √2 (half the variance) is "most"."""
    r = sorted(float(x) for x in ratios if x is not None and math.isfinite(x))
    if not r:
        return "not compared (no interval)"
    mid = r[len(r) // 2] if len(r) % 2 else (r[len(r) // 2 - 1] + r[len(r) // 2]) / 2
    one = f"{r[0]:.2f}" == f"{r[-1]:.2f}"
    span = f"×{r[0]:.2f}" if one else f"×{r[0]:.2f}–{r[-1]:.2f}"
    median = "" if one else f"median ×{mid:.2f}: "
    if mid <= 1.0:
        return f"no narrower ({span} the paired width, {median}none of the luck cancels between these variants)"
    cancelled = 1 - 1 / mid**2
    how = "little of" if cancelled < 0.25 else "part of" if cancelled < 0.5 else "most of"
    return (
        f"{span} narrower ({median}{how} the luck cancels, {cancelled:.0%} of the variance; unpaired, the same "
        f"width would take ×{mid**2:.2f} the games)"
    )


def cards_prose(cards: pl.DataFrame, words: Words, has_top_axis: bool) -> str:
    """The intervention values in words: how many intervals exclude 0, how many survive the adjustment, the
    price of the money unit and what the chart's top axis shows (``card_value``'s frame and its chart)."""
    c = cards.filter(pl.col("kind") == "card")
    n = c.height
    own = c.filter((pl.col("win_share_diff_lo") > 0) | (pl.col("win_share_diff_hi") < 0))
    sig = c.filter(pl.col("p_adjusted") < 0.05).sort("win_share_diff", descending=True)
    games = int(c["games"].min()) if n else 0
    adj = "Holm" if str(cards["adjustment"][0]) == "holm" else "Benjamini–Hochberg"
    text = (
        f"With {games:,} games per variant, {own.height} of the {n} {words.nouns} have a 95% win-share interval that "
        f"excludes zero, and {sig.height} {'stays' if sig.height == 1 else 'stay'} significant after the {adj} "
        f"adjustment over the {n}"
    )
    named = [
        f"{r['label']} {pts(r['win_share_diff'], r['win_share_diff_lo'], r['win_share_diff_hi'])}"
        for r in sig.head(SHOWN).iter_rows(named=True)
    ]
    more = f" and {sig.height - SHOWN} more" if sig.height > SHOWN else ""
    text += ": " + ", ".join(named) + more + "." if sig.height else "."
    money = cards.filter(pl.col("kind") == "money")
    if money.height:
        text += " " + _money_prose(money.row(0, named=True), c, words, has_top_axis)
    return text


#: how many significant values a sentence names (the table shows them all)
SHOWN = 5


def _money_prose(m: dict[str, Any], cards: pl.DataFrame, words: Words, has_top_axis: bool) -> str:
    """What the money variants measured and whether the values are priced in money (and drawn so)."""
    u = words.units
    amount = int(re.search(r"\d+", m["label"]).group(0))  # money2: two units more at the start
    text = (
        f"The `{m['label']}` variants ({amount} {u.of('money', amount)} more at the start) change the granted "
        f"seat's win share by {pts(m['win_share_diff'], m['win_share_diff_lo'], m['win_share_diff_hi'])}"
    )
    finite = pl.col("money_lo").is_finite() & pl.col("money_hi").is_finite()
    priced = cards.filter(finite).height if "money_lo" in cards.columns else 0
    if has_top_axis:
        return text + f"; the chart's top axis converts win-share points to {u.money_plural} at that price."
    if priced:
        return text + f"; the chart draws no {u.money} axis, as that price gives it no positive scale."
    return (
        text + f"; at this size that price is not determined, so the {words.nouns} are not priced in "
        f"{u.money_plural} and the chart has no {u.money} axis."
    )


def has_top_axis(fig: Any) -> bool:
    """Whether a chart drew a second x axis on top (a forest plot's money scale)."""
    return any(type(child).__name__ == "SecondaryAxis" for ax in fig.axes for child in ax.get_children())


def compensation_prose(comp: Any, words: Words) -> str:
    """Each fitted seat's fair offset with its interval, or why it is not determined yet."""
    from simlab.analysis.compensation import bounded, fit_undetermined

    lines = []
    for r in comp.fit.iter_rows(named=True):
        if bounded(r["fair_lo"], r["fair_hi"]):
            word = words.units.of("money", r["fair_offset"])
            lines.append(
                f"- seat {r['seat']}: fair at {r['fair_offset']:+.2f} [{r['fair_lo']:+.2f}, {r['fair_hi']:+.2f}] "
                f"{word} against the others' mean"
            )
        else:
            lines.append(f"- seat {r['seat']}: the fair offset is {fit_undetermined(r, comp.level)}")
    return "\n".join(lines)


def collapses_prose(collapses: pl.DataFrame, word: str = "market") -> str:
    """Per variant, the range of its markets' collapse and recovery rates (``demand_collapses``' frame; the
    intervals are in the table it prints); ``word``: the game's name for what a market is (goods, culture)."""

    def span(d: pl.DataFrame, column: str) -> str:
        lo, hi = f"{d[column].min() * 100:.1f}", f"{d[column].max() * 100:.1f}"
        return f"{lo}%" if lo == hi else f"{lo}–{hi}%"

    lines = []
    for (variant,), d in collapses.group_by("variant", maintain_order=True):
        lines.append(
            f"- **{variant}**: demand collapses in {span(d, 'collapse_rate')} of games, depending on the {word} "
            f"({d.height} of them, {int(d['games'].min()):,} games), and recovers in {span(d, 'recover_rate')}."
        )
    return "\n".join(lines)
