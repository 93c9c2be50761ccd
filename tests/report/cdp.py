"""A small Chrome DevTools Protocol client: load a page in headless Chromium, read what a person would see.

The report must render in a real browser without console errors or network requests, so the tests drive
Debian's ``chromium`` over the DevTools protocol (websocket-client, no browser download). Chromium is
started with a fresh profile and every background service off; ``--remote-debugging-port=0`` lets it pick
a free port, which it writes to ``DevToolsActivePort`` in the profile folder. Only the process started
here is ever stopped.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import shutil
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-extensions",
    "--disable-default-apps",
    "--mute-audio",
    "--hide-scrollbars",
    "--remote-debugging-address=127.0.0.1",
    "--remote-debugging-port=0",
    "--window-size=1280,900",
)


def find_chromium() -> str | None:
    """Path of Debian's chromium, if installed."""
    for candidate in ("/usr/bin/chromium", shutil.which("chromium") or ""):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    return None


class CDPError(RuntimeError):
    """The browser answered a command with an error, or did not answer in time."""


class Browser:
    """Headless Chromium with one page, driven over the DevTools protocol (use as a context manager)."""

    def __init__(self, binary: str, timeout: float = 60.0):
        self.binary = binary
        self.timeout = timeout
        self.profile = tempfile.mkdtemp(prefix="simlab-chromium-")
        self.proc: subprocess.Popen[bytes] | None = None
        self.ws: Any = None
        self.events: list[dict[str, Any]] = []
        self._id = 0

    # -- lifecycle -----------------------------------------------------------------------------------
    def __enter__(self) -> Browser:
        import websocket

        self.proc = subprocess.Popen(
            [self.binary, *FLAGS, f"--user-data-dir={self.profile}", "about:blank"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        port = self._wait_for_port()
        deadline = time.monotonic() + self.timeout
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=5) as r:
                    targets = json.load(r)
                page = next(t for t in targets if t.get("type") == "page")
                break
            except (OSError, StopIteration):
                if time.monotonic() > deadline:
                    raise CDPError("chromium started but offers no page target") from None
                time.sleep(0.2)
        self.ws = websocket.create_connection(page["webSocketDebuggerUrl"], timeout=self.timeout, suppress_origin=True)
        for domain in ("Page", "Runtime", "Log", "Network"):
            self.send(f"{domain}.enable")
        return self

    def _wait_for_port(self) -> int:
        path = Path(self.profile) / "DevToolsActivePort"
        deadline = time.monotonic() + self.timeout
        while time.monotonic() < deadline:
            if self.proc is not None and self.proc.poll() is not None:
                err = self.proc.stderr.read().decode(errors="replace") if self.proc.stderr else ""
                raise CDPError(f"chromium exited with code {self.proc.returncode}: {err[-2000:]}")
            if path.is_file():
                lines = path.read_text().splitlines()
                if lines and lines[0].strip().isdigit():
                    return int(lines[0])
            time.sleep(0.1)
        raise CDPError(f"chromium did not open a DevTools port within {self.timeout:.0f} s")

    def __exit__(self, *exc: object) -> None:
        try:
            if self.ws is not None:
                with contextlib.suppress(Exception):  # already closing; the process is stopped below anyway
                    self.send("Browser.close", timeout=10)
                self.ws.close()
        finally:
            if self.proc is not None:
                try:
                    self.proc.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    self.proc.kill()  # only the process this Browser started
                    self.proc.wait(timeout=15)
                if self.proc.stderr:
                    self.proc.stderr.close()
            shutil.rmtree(self.profile, ignore_errors=True)

    # -- protocol ------------------------------------------------------------------------------------
    def send(self, method: str, params: dict[str, Any] | None = None, timeout: float | None = None) -> dict:
        """Send a command and wait for its answer; events that arrive meanwhile are kept in ``events``."""
        self._id += 1
        mid = self._id
        self.ws.send(json.dumps({"id": mid, "method": method, "params": params or {}}))
        deadline = time.monotonic() + (timeout or self.timeout)
        while time.monotonic() < deadline:
            msg = json.loads(self.ws.recv())
            if msg.get("id") == mid:
                if "error" in msg:
                    raise CDPError(f"{method}: {msg['error']}")
                return msg.get("result", {})
            if "method" in msg:
                self.events.append(msg)
        raise CDPError(f"{method}: no answer within {timeout or self.timeout:.0f} s")

    def wait_event(self, method: str, timeout: float | None = None) -> dict[str, Any]:
        """Wait for an event (it may already have arrived)."""
        for e in self.events:
            if e["method"] == method:
                return e
        deadline = time.monotonic() + (timeout or self.timeout)
        while time.monotonic() < deadline:
            msg = json.loads(self.ws.recv())
            if "method" in msg:
                self.events.append(msg)
                if msg["method"] == method:
                    return msg
        raise CDPError(f"no {method} event within {timeout or self.timeout:.0f} s")

    # -- what the tests use --------------------------------------------------------------------------
    def load(self, path: Path) -> None:
        """Open a local file and wait until it (and every image in it) has loaded."""
        self.events.clear()
        self.send("Page.navigate", {"url": Path(path).resolve().as_uri()})
        self.wait_event("Page.loadEventFired")

    def evaluate(self, expression: str) -> Any:
        """Run a JavaScript expression in the page and return its (JSON) value."""
        r = self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True, "awaitPromise": True})
        if "exceptionDetails" in r:
            raise CDPError(f"script failed: {r['exceptionDetails']}")
        return r["result"].get("value")

    def console_errors(self) -> list[str]:
        """Console errors, uncaught exceptions and error log entries since the last load."""
        out = []
        for e in self.events:
            p = e.get("params", {})
            if e["method"] == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
                out.append("console: " + " ".join(str(a.get("value", a.get("description", ""))) for a in p["args"]))
            elif e["method"] == "Runtime.exceptionThrown":
                out.append("exception: " + json.dumps(p.get("exceptionDetails", {}))[:500])
            elif e["method"] == "Log.entryAdded" and p.get("entry", {}).get("level") == "error":
                out.append("log: " + p["entry"].get("text", ""))
        return out

    def requests(self) -> list[str]:
        """URLs the page requested since the last load (the page itself included)."""
        return [e["params"]["request"]["url"] for e in self.events if e["method"] == "Network.requestWillBeSent"]

    def screenshot(self, out: Path, width: int = 1280) -> Path:
        """A PNG of the whole page (not only the window)."""
        self.send("Emulation.clearDeviceMetricsOverride")  # measure the page at the window's size
        height = int(self.evaluate("Math.ceil(document.documentElement.scrollHeight)"))
        self.send(
            "Emulation.setDeviceMetricsOverride",
            {"width": width, "height": min(height, 16000), "deviceScaleFactor": 1, "mobile": False},
        )
        data = self.send("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True})["data"]
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_bytes(base64.b64decode(data))
        return out
