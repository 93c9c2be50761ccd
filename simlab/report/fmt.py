"""Numbers the way the report states them: percentages with a ± half-width, intervals in brackets.

Findings say "28.3% ± 0.9%": the half-width of the interval (symmetric for normal intervals). Tables show
the estimate and ``[lo, hi]``. Precision follows the interval: a half-width under 0.1 point gets two
decimals, so a tight estimate is not rounded to look tighter or looser than it is.
"""

from __future__ import annotations

import math
import re
from typing import Any


def missing(x: Any) -> bool:
    """True for None and NaN (polars nulls and numpy NaNs alike)."""
    return x is None or (isinstance(x, float) and math.isnan(x))


def decimals(half: Any) -> int:
    """Decimals for a value whose interval half-width is ``half`` (same unit as the shown number)."""
    if missing(half) or half == 0 or math.isinf(half):
        return 1
    return 2 if abs(half) < 0.1 else 1


#: significant digits a number is rounded to before it is shown (see ``num``)
SNAP_DIGITS = 12


def num(x: Any, places: int = 2, sign: bool = False) -> str:
    """A number, or "–" for a missing value, "∞" for an unbounded interval end.

    Rounded to ``SNAP_DIGITS`` significant digits first: a share such as 123/400 lies exactly on a rounding
    boundary (30.75%), and sums of the same values added in another order (a digest's chunk by chunk, a scan's
    row by row) land a last bit above or below it, which would print 30.8 or 30.7. Snapped, both print alike.
    """
    if missing(x):
        return "–"
    if isinstance(x, float) and math.isinf(x):
        return "+∞" if x > 0 else "−∞"
    if isinstance(x, float) and x != 0:
        x = round(x, SNAP_DIGITS - 1 - math.floor(math.log10(abs(x))))
    if round(x, places) == 0:  # a value (or a bound) that rounds to zero is 0.0, never "−0.0" or "+0.0"
        x = 0.0
        sign = False
    text = f"{x:{'+' if sign else ''},.{places}f}"
    return text.replace("-", "−")


def pct(x: Any, places: int = 1, sign: bool = False) -> str:
    """A share (0.283) as a percentage ("28.3%")."""
    return "–" if missing(x) else num(x * 100, places, sign) + "%"


def points(x: Any, places: int = 1, sign: bool = True) -> str:
    """A difference of shares (0.021) in percentage points ("+2.1 points")."""
    return "–" if missing(x) else num(x * 100, places, sign) + " points"


def pm_pct(mean: Any, lo: Any, hi: Any) -> str:
    """ "28.3% ± 0.9%" from a share and its interval."""
    if missing(mean):
        return "–"
    if missing(lo) or missing(hi):
        return pct(mean)
    half = (hi - lo) / 2 * 100
    d = decimals(half)
    return f"{num(mean * 100, d)}% ± {num(half, d)}%"


def pct_ci(x: Any, lo: Any, hi: Any) -> str:
    """ "98.8% [98.5%, 99.0%]": a share with an interval that need not be symmetric (Wilson, batch means)."""
    if missing(x):
        return "–"
    if missing(lo) or missing(hi):
        return pct(x)
    d = decimals((hi - lo) / 2 * 100)
    return f"{num(x * 100, d)}% [{num(lo * 100, d)}%, {num(hi * 100, d)}%]"


def ci(lo: Any, hi: Any, scale: float = 1.0, places: int = 1, sign: bool = False) -> str:
    """ "[lo, hi]" with both ends scaled (100 for percentages)."""
    if missing(lo) or missing(hi):
        return "[–]"
    return f"[{num(lo * scale, places, sign)}, {num(hi * scale, places, sign)}]"


def est_ci(x: Any, lo: Any, hi: Any, scale: float = 1.0, places: int | None = None, sign: bool = False) -> str:
    """ "28.3 [27.4, 29.2]": an estimate and its interval in one cell."""
    if missing(x):
        return "–"
    if missing(lo) or missing(hi):  # no interval (a single game, or a value fixed by definition)
        return num(x * scale, 2 if places is None else places, sign)
    if places is None:
        places = decimals((hi - lo) / 2 * scale) if not (missing(lo) or missing(hi)) else 2
    return f"{num(x * scale, places, sign)} {ci(lo, hi, scale, places, sign)}"


def p_value(p: Any) -> str:
    """A p-value as people read it: "p < 0.001" below a thousandth, two significant digits above."""
    if missing(p):
        return "p = –"
    if p < 0.001:
        return "p < 0.001"
    return f"p = {p:.2g}"


#: "p = <1e-12" (an analysis's "<1e-12" written after "p = "): one relation, "p < 1e-12"
_P_EQUALS_LESS = re.compile(r"\bp = <\s*")
#: a signed zero standing alone ("−0.0", "-0.00", "+0.0", "−0"), not part of a longer number or a word
_SIGNED_ZERO = re.compile(r"(?<![\w.])[−+-](0(?:\.0+)?)(?!\.?\d)")


def tidy(text: str) -> str:
    """A sentence (or cell) with its numbers as a person writes them: "p < 1e-12" for "p = <1e-12", and a
    value that rounded to zero as "0.0" (no "−0.0"). Every text of the report goes through it when the page is
    rendered, so a sentence an analysis module wrote with its own formatting reads alike."""
    return _SIGNED_ZERO.sub(r"\1", _P_EQUALS_LESS.sub("p < ", text))


def count(n: Any) -> str:
    """An integer with thousands separators."""
    return "–" if missing(n) else f"{int(n):,}"


def unbounded(lo: Any, hi: Any) -> bool:
    """True for an interval with an infinite end (a Fieller interval whose slope is not yet significant)."""
    return any(isinstance(v, float) and math.isinf(v) for v in (lo, hi))


def undetermined(games: Any, more: Any) -> str:
    """What stands in for an estimate whose interval is unbounded: "not determined with n games; about N more
    needed" (N from the current standard error: ``compensation.games_needed``)."""
    from simlab.analysis.compensation import undetermined as words

    return words(None if missing(games) else games, None if missing(more) else more)


def est_ci_or_undetermined(
    x: Any, lo: Any, hi: Any, games: Any, more: Any, scale: float = 1.0, places: int | None = None, sign: bool = False
) -> str:
    """``est_ci``, or ``undetermined`` when the interval is unbounded: never a point beside [−∞, +∞]."""
    if unbounded(lo, hi):
        return undetermined(games, more)
    return est_ci(x, lo, hi, scale, places, sign)


def join_words(names: list[str], most: int = 6) -> str:
    """ "a, b and c"; beyond ``most`` names, "a, b, … and 4 more" (a long list buries the answer)."""
    if len(names) > most:
        return ", ".join(names[:most]) + f" and {len(names) - most} more"
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]
