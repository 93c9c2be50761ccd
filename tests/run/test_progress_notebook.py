"""Progress in a Jupyter notebook: the kernel's stderr is no terminal, but it renders a carriage return, so
the line redraws in place (padded: no erase-line code) instead of one line every ten seconds."""

from __future__ import annotations

import io

from simlab.run.progress import Progress, in_notebook


def _kernel_stream() -> io.StringIO:
    """A StringIO that looks like ipykernel's OutStream (what sys.stderr is inside a notebook)."""
    cls = type("OutStream", (io.StringIO,), {"__module__": "ipykernel.iostream"})
    return cls()


def test_a_notebook_stream_redraws_in_place() -> None:
    stream = _kernel_stream()
    assert in_notebook(stream) and not in_notebook(io.StringIO())
    bar = Progress(1000, stream=stream)
    assert bar.tty and bar.every <= 1.0
    bar.advance(10, now=bar.start + 1.0)
    bar.advance(990, now=bar.start + 2.0)
    bar.close()
    text = stream.getvalue()
    assert text.startswith("\r") and "\033[K" not in text
    assert text.count("\r") >= 2 and text.endswith("\n")
    first, *_ = text[1:].split("\r")
    assert "10/1,000 games" in first


def test_a_log_stream_still_prints_one_line_at_a_time() -> None:
    stream = io.StringIO()
    bar = Progress(100, stream=stream, log_every=10.0)
    assert not bar.tty and bar.every == 10.0
    bar.advance(100, now=bar.start + 20.0)
    bar.close()
    assert "\r" not in stream.getvalue() and stream.getvalue().count("\n") == 2
