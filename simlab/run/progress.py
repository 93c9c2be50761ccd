"""Progress of a long run on stderr: games done, games/s and time left.

On a terminal the line redraws in place a few times a second; in a Jupyter notebook (an ipykernel output
stream, which is no terminal but renders a carriage return) it redraws in place twice a second; in a log
a line is printed every ``log_every`` seconds, so CI logs stay short.

The rate behind the ETA is measured between finished chunks (over the last ``WINDOW`` of them), not from
the start of the session: the first chunk also pays for starting the workers and loading the engine, so a
rate from it alone puts the first ETA far off (minutes for a run of seconds). Until two chunks have
finished some time apart the ETA shows ``?``.
"""

from __future__ import annotations

import sys
import time
from collections import deque
from collections.abc import Callable
from typing import IO

#: chunks the rate is measured over
WINDOW = 32
#: the window must span this many seconds before its rate is trusted
MIN_SPAN = 0.5


def format_duration(seconds: float) -> str:
    seconds = max(0, round(seconds))
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


def in_notebook(stream: object) -> bool:
    """Whether ``stream`` is a Jupyter kernel's output (``sys.stderr`` inside a notebook)."""
    return type(stream).__module__.startswith("ipykernel")


class Progress:
    """Counts games of this session towards ``total`` (``done`` were finished by earlier sessions)."""

    def __init__(
        self, total: int, done: int = 0, stream: IO[str] | None = None, enabled: bool = True, log_every: float = 10.0
    ):
        self.total = total
        self.done = done
        self.session = 0
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = enabled
        self.notebook = in_notebook(self.stream)
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)()) or self.notebook
        self.every = 0.5 if self.notebook else 0.25 if self.tty else log_every
        self.width = 0  # longest line drawn in place (a notebook has no erase-line code: pad instead)
        self.start = time.perf_counter()
        self.last = 0.0
        #: (time, session games) when each of the last chunks finished
        self.marks: deque[tuple[float, int]] = deque(maxlen=WINDOW + 1)
        #: what the line adds after the games (a run until settled: its open questions), if anything
        self.note: Callable[[], str] | None = None

    @property
    def elapsed(self) -> float:
        return time.perf_counter() - self.start

    @property
    def rate(self) -> float:
        return self.session / self.elapsed if self.elapsed > 0 else 0.0

    @property
    def recent_rate(self) -> float | None:
        """Games/s between the first and last of the recent chunk completions; None until they span
        ``MIN_SPAN`` seconds."""
        if len(self.marks) < 2:
            return None
        (t0, g0), (t1, g1) = self.marks[0], self.marks[-1]
        return (g1 - g0) / (t1 - t0) if t1 - t0 >= MIN_SPAN and g1 > g0 else None

    def line(self) -> str:
        pct = 100.0 * self.done / self.total if self.total else 100.0
        recent = self.recent_rate
        rate = recent if recent is not None else self.rate
        left = self.total - self.done
        eta = "0:00" if left <= 0 else format_duration(left / recent) if recent else "?"
        line = f"{self.done:,}/{self.total:,} games ({pct:.0f}%)  {format_rate(rate)} games/s  ETA {eta}"
        note = self.note() if self.note is not None else ""
        return f"{line}  {note}" if note else line

    def advance(self, games: int, now: float | None = None) -> None:
        self.done += games
        self.session += games
        now = time.perf_counter() if now is None else now
        self.marks.append((now, self.session))
        if self.enabled and now - self.last >= self.every:
            self.last = now
            self._emit(self.line())

    def close(self) -> None:
        """Print the final state (and end the in-place line on a terminal)."""
        if self.enabled:
            self._emit(self.line())
            if self.tty:
                self.stream.write("\n")
                self.stream.flush()

    def _emit(self, text: str) -> None:
        if self.notebook:
            self.width = max(self.width, len(text))
            self.stream.write("\r" + text.ljust(self.width))
        elif self.tty:
            self.stream.write("\r" + text + "\033[K")
        else:
            self.stream.write(text + "\n")
        self.stream.flush()


def format_rate(rate: float) -> str:
    """Games/s with the digits that matter: ``1,855`` and ``12``, but ``0.77`` (a search bot's run), not ``1``."""
    return f"{rate:,.0f}" if rate >= 10 else f"{rate:.2g}" if rate >= 0.01 else f"{rate:.1e}"
