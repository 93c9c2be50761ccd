"""What a finished run answers, in one line, and the command that shows more (``simlab run``'s last lines).

The kind of experiment is read from the folder: variants that grant a card (the game's card intervention)
against a ``control`` are a card-value run (``simlab cards``); variants that move one seat's starting money
over three or more offsets are a sweep (``simlab compensation``); anything else is a seat-advantage
question (``simlab seats``). Every run also points to ``simlab report``.
"""

from __future__ import annotations

import dataclasses
import shlex
from pathlib import Path

import polars as pl

from simlab.analysis import stats
from simlab.analysis.words import Words, words
from simlab.core.errors import SimlabError


@dataclasses.dataclass(frozen=True)
class NextStep:
    answer: str  # one line: the run's answer with its interval
    command: str  # the analysis command that shows more
    report: str  # the report command

    def lines(self) -> list[str]:
        return [f"answer: {self.answer}", f"next: {self.command}   (all of it: {self.report})"]


def next_step(folder: str | Path) -> NextStep:
    """The run's one-line answer and the commands that show more."""
    f = shlex.quote(str(folder))
    report = f"simlab report {f}"
    for attempt in (_cards, _compensation):
        try:
            found = attempt(folder, f)
        except SimlabError:
            found = None
        if found is not None:
            return NextStep(found[0], found[1], report)
    answer, command = _seats(folder, f)
    return NextStep(answer, command, report)


def _cards(folder: str | Path, f: str) -> tuple[str, str] | None:
    from simlab.analysis.cards import card_value, design_from_manifest

    design = design_from_manifest(folder)
    if design.is_empty():
        return None
    df = card_value(folder, design=design)
    cards = df.filter((pl.col("kind") == "card") & pl.col("win_share_diff").is_not_nan())
    if cards.is_empty():
        return None
    said = words(folder)
    answer = best_card_text(cards, said=said) + (
        f"; {cards.filter(pl.col('p_adjusted') < 0.05).height} of {cards.height} {said.nouns} change the win share "
        "clearly (Holm-adjusted p < 0.05)"  # Holm over the cards: the family's error rate
    )
    return answer, f"simlab cards {f}"


def best_card_text(cards: pl.DataFrame, level: float = 0.95, said: Words | None = None) -> str:
    """The most valuable card (god, item: ``said``, the game's words) as a selected result: its value with an
    interval simultaneous over the cards (it was picked as the largest of them) and the cards whose rank
    interval includes 1 (``selected``)."""
    from simlab.analysis.selected import leaders, simultaneous

    best = cards.sort("win_share_diff", descending=True).row(0, named=True)
    k = cards.height
    z = stats.z_value(level)
    se = (cards["win_share_diff_hi"] - cards["win_share_diff_lo"]).to_numpy() / (2 * z)
    lo, hi = simultaneous(best["win_share_diff"], (best["win_share_diff_hi"] - best["win_share_diff_lo"]) / (2 * z), k)
    first = leaders(cards["label"].to_list(), cards["win_share_diff"].to_numpy(), se, level)
    said = said or Words()
    could = (
        f"only {first[0]} can be first"
        if len(first) == 1
        else f"{len(first)} of {k} {said.nouns} could be first: {', '.join(first)}"
    )
    return (
        f"the most valuable {said.noun} is {best['label']}: {best['win_share_diff'] * 100:+.1f} points of win share "
        f"to the seat that gets it [{lo * 100:+.1f}, {hi * 100:+.1f}] against the control ({level:.0%} simultaneous "
        f"over the {k} {said.nouns}, as it is the largest of them); {could} (rank intervals {level:.0%} simultaneous)"
    )


def _compensation(folder: str | Path, f: str) -> tuple[str, str] | None:
    from simlab.analysis.compensation import compensation
    from simlab.analysis.frames import roles

    comp = compensation(folder)
    r = comp.fit.row(0, named=True)
    if comp.fit.height != 1 or r["offsets"] < 3:
        return None  # not a sweep of one seat (e.g. an edition's 5,6,7,8 against 6,6,6,6): a seats question
    units = roles(folder).units

    def num(x: float) -> str:
        return "unbounded" if x is None or x != x or abs(x) == float("inf") else f"{x:+.2f}"

    answer = (
        f"seat {r['seat']} wins a fair 1/{comp.players} with {num(r['fair_offset'])} starting {units.money_plural} "
        f"[{num(r['fair_lo'])}, {num(r['fair_hi'])}] against the others' mean"
    )
    return answer, f"simlab compensation {f}"


def _seats(folder: str | Path, f: str) -> tuple[str, str]:
    """Each variant's verdict against the default tolerance, decided by ``seats.seat_verdicts`` and worded by
    ``text.verdict_sentence``: the same function and words as ``simlab seats`` and the report's verdict."""
    from simlab.analysis import stats
    from simlab.analysis.seats import seat_advantage, seat_verdicts
    from simlab.analysis.text import verdict_sentence
    from simlab.run.reader import load_manifest

    df = seat_advantage(folder)
    verdicts = {v["variant"]: v for v in seat_verdicts(df, stats.DEFAULT_TOLERANCE).iter_rows(named=True)}
    variants = [v["name"] for v in load_manifest(folder)["variants"] if v["name"] in verdicts]
    parts = [verdict_sentence(verdicts[v], prefix=f"{v}: ").removesuffix(".") for v in variants[:4]]
    more = f" (and {len(variants) - 4} more variants)" if len(variants) > 4 else ""
    answer = "; ".join(parts) + more
    command = f"simlab seats {f}" + (f" --base {shlex.quote(variants[0])}" if len(variants) > 1 else "")
    return answer, command
