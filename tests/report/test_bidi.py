"""Bidi control characters from a scenario file are shown as code points: they cannot reorder the report's text."""

from __future__ import annotations

import json
import shutil

from simlab.report.html import neutralise_bidi, write_report


def test_bidi_controls_are_neutralised(quick_folder, tmp_path):
    folder = tmp_path / "bidi"
    shutil.copytree(quick_folder, folder)
    manifest = json.loads((folder / "manifest.json").read_text())
    manifest["scenario"]["description"] = "price \u202eevil\u202c done \u2067x\u2069"
    (folder / "manifest.json").write_text(json.dumps(manifest))
    html = write_report(folder, tmp_path / "r.html").read_text(encoding="utf-8")
    assert not any(c in html for c in "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
    assert "price [U+202E]evil[U+202C] done [U+2067]x[U+2069]" in html


def test_plain_text_is_unchanged():
    assert neutralise_bidi("seat 3 — 25%") == "seat 3 — 25%"
    assert neutralise_bidi(3) == 3
