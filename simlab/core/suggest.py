"""Close matches for a misspelt name (a game, bot, knob, preset or variant), so an error can say "did you mean".

A newcomer who types ``start_mony`` or ``tradr`` should read the one name they meant, not a list of forty:
the errors built here name the unknown word, its closest matches (difflib's ratio, at most three) and, when
the full list is long, how to print it instead of printing it.
"""

from __future__ import annotations

import difflib
import itertools
from collections.abc import Iterable

#: a list of allowed names longer than this is not printed in an error; the error says how to list it
MAX_LISTED = 12


def close_matches(word: str, choices: Iterable[str], n: int = 3) -> list[str]:
    """Up to ``n`` of ``choices`` closest to ``word`` (case ignored), best first; [] when none is close."""
    names = [str(c) for c in choices]
    by_fold: dict[str, str] = {}
    for name in names:
        by_fold.setdefault(name.casefold(), name)
    hits = difflib.get_close_matches(str(word).casefold(), list(by_fold), n=n, cutoff=0.6)
    fold = str(word).casefold()
    if not hits:  # a part of a long name (``market`` for ``market_spaces``) is close too
        hits = [f for f in by_fold if len(fold) >= 3 and fold in f][:n]
    if not hits:  # the same first word (``start_cash`` for ``start_money``)
        shared = {f: _shared_prefix(f, fold) for f in by_fold}
        most = max(shared.values(), default=0)
        hits = [f for f, k in shared.items() if k == most and k >= 5][:n]
    return [by_fold[h] for h in hits]


def _shared_prefix(a: str, b: str) -> int:
    """How many leading characters ``a`` and ``b`` share."""
    return sum(1 for _ in itertools.takewhile(lambda pair: pair[0] == pair[1], zip(a, b, strict=False)))


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """``"did you mean 'x'?"`` or ``"did you mean 'x', 'y' or 'z'?"``; "" when nothing is close."""
    hits = close_matches(word, choices)
    if not hits:
        return ""
    quoted = [repr(h) for h in hits]
    listed = quoted[0] if len(quoted) == 1 else f"{', '.join(quoted[:-1])} or {quoted[-1]}"
    return f"did you mean {listed}?"


def unknown_name(kind: str, word: str, choices: Iterable[str], lister: str = "", where: str = "") -> str:
    """The message for an unknown name: the word, the closest matches, and the allowed names when they are few
    (or ``lister``, the command that lists them, when they are more than ``MAX_LISTED``): ``unknown bot 'tradr'
    (did you mean 'trader'?); available: random, trader, priest``; ``where`` follows the word
    (`` for game 'massilia'``)."""
    names = [str(c) for c in choices]
    hint = did_you_mean(word, names)
    parts = [f"unknown {kind} {word!r}{where}" + (f" ({hint})" if hint else "")]
    if len(names) <= MAX_LISTED or not lister:
        parts.append(f"available: {', '.join(names)}")
    else:
        parts.append(f"list all {len(names)} with: {lister}")
    return "; ".join(parts)
