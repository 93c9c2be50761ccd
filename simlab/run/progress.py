"""Progress of a long run on stderr: games done, games/s and time left.

On a terminal the line redraws in place a few times a second; in a log (not a terminal) a line is printed
every ``log_every`` seconds, so CI logs stay short.
"""

from __future__ import annotations

import sys
import time
from typing import IO


def format_duration(seconds: float) -> str:
    seconds = max(0, round(seconds))
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


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
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self.every = 0.25 if self.tty else log_every
        self.start = time.perf_counter()
        self.last = 0.0

    @property
    def elapsed(self) -> float:
        return time.perf_counter() - self.start

    @property
    def rate(self) -> float:
        return self.session / self.elapsed if self.elapsed > 0 else 0.0

    def line(self) -> str:
        pct = 100.0 * self.done / self.total if self.total else 100.0
        rate = self.rate
        eta = format_duration((self.total - self.done) / rate) if rate > 0 else "?"
        return f"{self.done:,}/{self.total:,} games ({pct:.0f}%)  {rate:,.0f} games/s  ETA {eta}"

    def advance(self, games: int) -> None:
        self.done += games
        self.session += games
        now = time.perf_counter()
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
        if self.tty:
            self.stream.write("\r" + text + "\033[K")
        else:
            self.stream.write(text + "\n")
        self.stream.flush()
