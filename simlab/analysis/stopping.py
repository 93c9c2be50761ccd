"""How a run that stopped when its question was settled says so: the rule, its guarantee, the games each verdict took.

A run played ``--until settled`` records its rule in the manifest (written by the runner)::

    manifest["stopping"] = {"rule": "settled", "settle": "headline" | "every" (absent: every),
        "futility": P (absent: 0, none), "tolerance": δ (points), "alpha": α, "max_games": M,
        "looks": [n1, n2, ...],
        "outcome": "settled" | "out_of_reach" | "max_games" | None (not finished: running or interrupted),
        "variants": {name: {"games": n, "stopped_at": n | None}},
        "verdicts": [{"key", "label", "state", "direction", "estimate", "lo", "hi", "n", "settled_at": n | None,
                      "p_settle": p | None, "needed": n | None, "out_of_reach_at": n | None (absent: None)}]}

Here it is read (checked: a block that is not this shape is refused, never half-read), turned into the
``stopping`` block of ``simlab seats|cards --json``, the sentence that states the rule and its guarantee, and the
table "games needed per verdict" the report shows. The verdicts are those of ``simlab.analysis.sequential``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import polars as pl

from simlab.analysis.confseq import CS_METHOD
from simlab.analysis.frames import AnalysisError
from simlab.analysis.sequential import STATES
from simlab.run.manifest import SETTLE_FAMILIES

#: the rules a manifest may record
RULES = ("settled",)
OUTCOMES = ("settled", "out_of_reach", "max_games")
#: the families of verdicts a run until settled may wait for: every verdict, or the design's headline questions
#: (one home: ``simlab.run.manifest.SETTLE_FAMILIES``)
FAMILIES = SETTLE_FAMILIES
VERDICT_KEYS = ("key", "label", "state", "direction", "estimate", "lo", "hi", "n", "settled_at")
#: what a verdict of a rule with futility adds (absent in folders of the rule before it: None)
REACH_KEYS = ("p_settle", "needed", "out_of_reach_at")
#: the table's columns (``needed_table``)
NEEDED_SCHEMA = {
    "key": pl.String,
    "label": pl.String,
    "state": pl.String,
    "direction": pl.Int64,
    "estimate": pl.Float64,
    "lo": pl.Float64,
    "hi": pl.Float64,
    "n": pl.Int64,
    "settled_at": pl.Int64,
    "p_settle": pl.Float64,
    "needed": pl.Int64,
    "out_of_reach_at": pl.Int64,
}


def _bad(where: str, what: str) -> AnalysisError:
    return AnalysisError(
        f"manifest.json: stopping{where}: {what}; the block is written by `simlab run --until settled` "
        "(rule, tolerance, alpha, max_games, looks, outcome, variants, verdicts): rerun the scenario, or remove "
        "the block to read the folder as a fixed-size run"
    )


def read_stopping(manifest: dict[str, Any]) -> dict[str, Any] | None:
    """The manifest's stopping block, checked, or None when the run had a fixed size."""
    block = manifest.get("stopping")
    if block is None:
        return None
    if not isinstance(block, dict):
        raise _bad("", f"is a {type(block).__name__}, not an object")
    if block.get("rule") not in RULES:
        raise _bad(".rule", f"{block.get('rule')!r} is not one of {', '.join(RULES)}")
    if block.get("settle", "every") not in FAMILIES:
        raise _bad(".settle", f"{block.get('settle')!r} is not one of {', '.join(FAMILIES)}")
    for key, top, what in (("tolerance", 100, "points of win share"), ("alpha", 1, "an error rate")):
        if not isinstance(block.get(key), int | float) or not 0 < block[key] < top:
            raise _bad(f".{key}", f"{block.get(key)!r} is not {what} between 0 and {top}")
    futility = block.get("futility", 0.0)
    if not isinstance(futility, int | float) or isinstance(futility, bool) or not 0 <= futility < 1:
        raise _bad(".futility", f"{futility!r} is not a probability from 0 to below 1")
    if not isinstance(block.get("max_games"), int) or block["max_games"] < 1:
        raise _bad(".max_games", f"{block.get('max_games')!r} is not a positive whole number of games")
    looks = block.get("looks")
    if not isinstance(looks, list) or not all(isinstance(n, int) and n >= 0 for n in looks):
        raise _bad(".looks", f"{looks!r} is not a list of game counts")
    if block.get("outcome") is not None and block.get("outcome") not in OUTCOMES:
        raise _bad(".outcome", f"{block.get('outcome')!r} is not one of {', '.join(OUTCOMES)}")
    variants = block.get("variants")
    if not isinstance(variants, dict) or not all(
        isinstance(v, dict) and isinstance(v.get("games"), int) and _count_or_none(v.get("stopped_at"))
        for v in variants.values()
    ):
        raise _bad(".variants", "is not {name: {games: n, stopped_at: n or null}}")
    verdicts = block.get("verdicts")
    if not isinstance(verdicts, list):
        raise _bad(".verdicts", "is not a list")
    for i, v in enumerate(verdicts):
        missing = [k for k in VERDICT_KEYS if not isinstance(v, dict) or k not in v]
        if missing:
            raise _bad(f".verdicts[{i}]", f"lacks {', '.join(missing)}")
        if v["state"] not in STATES:
            raise _bad(f".verdicts[{i}].state", f"{v['state']!r} is not one of {', '.join(STATES)}")
        for key in ("settled_at", "needed", "out_of_reach_at"):
            if not _count_or_none(v.get(key)):
                raise _bad(f".verdicts[{i}].{key}", f"{v[key]!r} is not a game count or null")
        p = v.get("p_settle")
        if p is not None and (not isinstance(p, int | float) or not 0 <= p <= 1):
            raise _bad(f".verdicts[{i}].p_settle", f"{p!r} is not a probability or null")
    return block


def _count_or_none(x: Any) -> bool:
    return x is None or (isinstance(x, int) and x >= 0)


def rule_sentence(block: dict[str, Any], noun: str = "card") -> str:
    """The stopping rule and its error guarantee, in one sentence (``noun``: the game's word for what a card
    intervention grants)."""
    family = "Bonferroni over the verdicts' intervals"
    cards = any(str(v["key"]).startswith("card/") for v in block["verdicts"])
    # a card design's two families are the same (its cards): only a seats design's headline family leaves verdicts out
    headline = block.get("settle", "every") == "headline" and not cards
    if cards:
        family = f"Bonferroni over the {noun}s' intervals"
    elif headline:
        family = "Bonferroni over the seats' intervals the equal-seats questions are read from"
    tol = block["tolerance"]
    band = f"±{tol:g} {'point' if tol == 1 else 'points'} of win share"
    futility = float(block.get("futility", 0.0))
    return (
        f"Stopping rule: the games were played in batches and stopped when every verdict was settled (its interval "
        f"wholly within {band} of {_null_values(block, noun)}, or wholly beyond it)"
        + (
            f" or out of reach (the predictive probability that it settles by {block['max_games']:,} games below "
            f"{futility:.0%}: it stopped receiving games and stays open; it claims nothing, so the guarantee below "
            "is unchanged)"
            if futility > 0
            else ""
        )
        + f", or at {block['max_games']:,} games per variant; every interval holds at every look, "
        f"all of them together with probability at least {1 - block['alpha']:.0%} ({CS_METHOD}; {family}), so a "
        "verdict read where the run stopped is as sure as one read at a game count fixed in advance."
        + (
            " The rule waited for the headline verdicts only (each variant's equal-seats question): no single "
            "seat's share and no seat's change against the base was one of its verdicts, and their tables carry "
            "no guarantee at every look."
            if headline
            else ""
        )
    )


def _null_values(block: dict[str, Any], noun: str) -> str:
    """What the rule's verdicts were asked against, from the kinds of verdict it recorded: 1/N for a seat's share
    (the equal-seats question is read from them), zero for a change against the base or a card's value."""
    kinds = {str(v["key"]).partition("/")[0] for v in block["verdicts"]}
    said = []
    if "seats" in kinds:
        said.append("1/N for a seat's share")
    if "change" in kinds:
        said.append("zero for a seat's change against the base")
    if "card" in kinds:
        said.append(f"zero for a {noun}'s value")
    return "its null value" + (f" ({', '.join(said)})" if said else "")


def outcome_sentence(block: dict[str, Any]) -> str:
    """What the rule ended in: settled (after how many games) or the budget spent (how many verdicts open)."""
    looks = block["looks"]
    games = max((v["games"] for v in block["variants"].values()), default=max(looks, default=0))
    opened = [v for v in block["verdicts"] if v["state"] == "open"]
    if block["outcome"] is None:
        return (
            f"The run has not finished its rule: {len(opened)} of {len(block['verdicts'])} verdicts open after "
            f"{len(looks)} looks; finish it with simlab run ... --resume."
        )
    if block["outcome"] == "settled":
        return f"Every verdict settled after {games:,} games ({len(looks)} looks)."
    far = [v for v in opened if v.get("out_of_reach_at") is not None]
    reach = (
        f"; {len(far)} of them out of reach of {block['max_games']:,} games (less than "
        f"{float(block.get('futility', 0.0)):.0%} likely to settle by then)"
        if far
        else ""
    )
    if block["outcome"] == "out_of_reach":
        return (
            f"Stopped out of reach after {games:,} games ({len(looks)} looks): every verdict settled or out of reach, "
            f"{len(opened)} of {len(block['verdicts'])} not settled{reach}."
        )
    return (
        f"Stopped at the budget of {block['max_games']:,} games with {len(opened)} of {len(block['verdicts'])} "
        f"verdicts still open{reach} ({len(looks)} looks)."
    )


def not_settled(row: dict[str, Any], max_games: int) -> str:
    """Why an open verdict is not settled, in words: out of reach (with its chance and the games it would need at
    its estimate), or open at the budget."""
    need = row.get("needed")
    about = (
        f"about {need:,} games at the current estimate"
        if need is not None
        else "not within a hundred times that at the current estimate"
    )
    if row.get("out_of_reach_at") is not None:
        p = row.get("p_settle")
        chance = f" (P(settle) = {p:.0%})" if p is not None else ""
        return f"not settled: out of reach of max_games {max_games:,}{chance}; {about}"
    if row.get("p_settle") is None and need is None:
        return "not settled"
    return f"not settled at max_games {max_games:,}; {about}"


#: what a reader of a settled run's other tables must know
FIXED_NOTE = (
    "The other tables show fixed-size 95% intervals at the games played; where the run stopped because of what "
    "it saw, the intervals that keep their guarantee are the verdicts' (valid at every look)."
)


def needed_table(block: dict[str, Any]) -> pl.DataFrame:
    """Games needed per verdict: one row per verdict, the settled ones in the order they settled, then the open."""
    rows = [{**{k: v[k] for k in VERDICT_KEYS}, **{k: v.get(k) for k in REACH_KEYS}} for v in block["verdicts"]]
    df = pl.DataFrame(rows, schema=NEEDED_SCHEMA)
    return df.sort("settled_at", "key", nulls_last=True)


def folder_stopping(folder: str | Path) -> dict[str, Any] | None:
    """The folder's stopping block, checked; None for a fixed-size run, and for a folder whose manifest is damaged
    or missing: the analyses then read its rows as they read any bare parts (roles from the column names), and
    ``simlab report`` and ``verify`` refuse the folder until ``simlab repair`` has rebuilt the manifest."""
    from simlab.core.errors import SimlabError
    from simlab.run.reader import load_manifest

    try:
        manifest = load_manifest(folder)
    except SimlabError:
        return None
    return read_stopping(manifest)


def stopping_json(folder: str | Path) -> dict[str, Any] | None:
    """The ``stopping`` block of ``simlab seats|cards --json``: the manifest's block with the rule in words and
    the method of its intervals; None for a fixed-size run."""
    from simlab.analysis.words import words

    block = folder_stopping(folder)
    if block is None:
        return None
    return {
        **block,
        "verdicts": needed_table(block).to_dicts(),
        "rule_text": rule_sentence(block, words(folder).noun),
        "outcome_text": outcome_sentence(block),
        "method": CS_METHOD,
    }


def stopping_lines(folder: str | Path) -> list[str]:
    """The text answer's lines about the rule (none for a fixed-size run)."""
    from simlab.analysis.words import words

    block = folder_stopping(folder)
    return [] if block is None else [rule_sentence(block, words(folder).noun), outcome_sentence(block), FIXED_NOTE]
