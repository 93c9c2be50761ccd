"""The HTML balance report: sections the results support, headline numbers, flags, escaping, laziness, CLI.

The browser checks (rendering, console, network) are in test_report_browser.py.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner
from markupsafe import escape

import simlab
from simlab import analysis as A
from simlab.analysis.sweep import money_sweep
from simlab.cli import cli
from simlab.report import build_report, write_report
from simlab.report.html import render


def _text(html: str) -> str:
    """Visible text of the page, roughly (tags dropped, entities undone): enough to find numbers."""
    import html as h

    return h.unescape(re.sub(r"<[^>]+>", " ", re.sub(r"<(style|head)[^>]*>.*?</\1>", "", html, flags=re.S)))


@pytest.fixture(scope="module")
def quick_report(quick_folder: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    out = write_report(quick_folder, tmp_path_factory.mktemp("out") / "quick.html")
    return out, out.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def quick_built(quick_folder: Path):
    """The report's content, built once for the tests that only read it."""
    return build_report(quick_folder)


def test_self_contained(quick_report):
    _, html = quick_report
    assert html.startswith("<!DOCTYPE html>")
    assert "<script" not in html.lower()  # no scripts at all
    # nothing to fetch: every src is a data: URI, no stylesheet or font links, no URLs outside the charts' SVG
    assert re.findall(r'src="(?!data:)', html) == []
    assert "<link" not in html.lower() and "@import" not in html and "url(" not in html
    assert html.count('src="data:image/svg+xml;base64,') >= 6


def test_sections_and_headlines(quick_report, quick_folder, quick_built):
    _, html = quick_report
    text = _text(html)
    for title in (
        "Summary",
        "Seats and starting sesterces",
        "Markets",
        "General balance metrics",
        "Flags",
        "Reproduce",
    ):
        assert title in text
    assert "Card value: not in these results" in text  # says why the section is missing
    seats = A.seat_advantage(simlab.load_results(quick_folder).filter(pl.col("variant") == "rulebook"))
    for r in seats.iter_rows(named=True):  # the table shows every seat's win share with its interval
        assert f"{r['win_share'] * 100:.1f} [{r['win_share_lo'] * 100:.1f}, {r['win_share_hi'] * 100:.1f}]" in text
    report = quick_built
    assert report.headlines, "a report without headline findings"
    for f in report.headlines:
        assert f.text in text
    assert all(re.search(r"n=[\d,]+", f.text) for f in report.headlines if "%" in f.text)


def test_captions_name_games_bots_method_seed_and_config(quick_folder, quick_built):
    report = quick_built
    manifest = simlab.load_manifest(quick_folder)
    charts = [c for s in report.sections for c in s.charts]
    assert len(charts) >= 6
    for c in charts:
        assert "Games: " in c.caption and "Bots: " in c.caption and "Intervals: 95%" in c.caption
        assert f"root seed {manifest['root_seed']}" in c.caption
        assert manifest["variants"][0]["config_hash"] in c.caption


def test_flags_highlight_a_changed_assumption(quick_built):
    report = quick_built
    flags = {f.field: f for f in report.flags}
    assert {f.source for f in report.flags} <= {"assumption", "placeholder"}
    assert flags["beige_price"].highlighted and flags["beige_price"].changed_by == ["beige2"]
    assert flags["beige_price"].values == {"rulebook": "1", "quined2014": "1", "beige2": "2"}
    assert not flags["money_per_point"].highlighted
    assert report.flags[0].field == "beige_price"  # highlighted fields first
    html = render(report)
    assert re.search(r"<tr class=\"marked\">\s*<td class=\"text\"><code>beige_price</code>", html)
    assert "changed by beige2" in html


def test_reproduce_block(quick_folder, tmp_path):
    out = tmp_path / "r.html"
    report = build_report(quick_folder, out=out)
    commands = [c for _, c in report.reproduce]
    manifest = simlab.load_manifest(quick_folder)
    assert commands[0].startswith(f"simlab run {manifest['scenario']['source']} --out {quick_folder}")
    assert commands[1] == f"simlab report {quick_folder} --out {out}"
    replay = [c for c in commands if c.startswith("simlab play massilia")]
    assert len(replay) == 3 and "--preset quined2014" in replay[1] and "--set beige_price=2" in replay[2]
    first = manifest["variants"][0]["name"]
    assert commands[-1] == f"simlab replay {quick_folder} --variant {first} --game 0"
    assert report.scenario_text == manifest["scenario"]["text"]


def test_reproduce_with_another_game_count_and_a_changed_file(quick_folder, tmp_path):
    """A run extended with --games shows it; a scenario file edited since the run is pointed out."""
    folder = tmp_path / "copy"
    shutil.copytree(quick_folder, folder)
    manifest = json.loads((folder / "manifest.json").read_text())
    manifest["games"] = 1234
    manifest["scenario"]["sha256"] = "0" * 64
    (folder / "manifest.json").write_text(json.dumps(manifest))
    report = build_report(folder)
    assert report.reproduce[0][1].endswith("--games 1234")
    assert any("has changed since this run" in n for n in report.reproduce_notes)


def test_card_run_has_every_section(cards_folder, tmp_path):
    report = build_report(cards_folder)
    ids = [s.id for s in report.sections]
    assert ids == ["cards", "seats", "markets", "balance"]  # a card-value run leads with the card answer
    seats = next(s for s in report.sections if s.id == "seats")
    # the money variants form a sweep for seat 3 (the card variants are left out of the fit)
    assert money_sweep({v["name"]: v["config"] for v in simlab.load_manifest(cards_folder)["variants"]}, "control") == [
        "control",
        "money2_seat3",
        "money4_seat3",
    ]
    assert any("would win 1/4 of the games with" in f.text for f in seats.findings)
    assert any(t.title.startswith("Win share by seat in all 5 variants") and t.collapsed for t in seats.tables)
    cards = next(s for s in report.sections if s.id == "cards")
    assert any(f.text.startswith("Most valuable card:") for f in cards.findings)
    value = A.card_value(cards_folder)
    best = value.filter(pl.col("kind") == "card").sort("win_share_diff", descending=True).row(0, named=True)
    assert f"{best['label']}, {best['win_share_diff'] * 100:+.2f} points" in cards.findings[0].text
    html = render(report)
    assert "Card value: not in these results" not in html
    # the summary asks the card question and answers it first; every headline is said once in the page
    text = _text(html)
    assert text.index(cards.question) < text.index("Other findings") < text.index("would win 1/4 of the games with")
    assert report.answer == [f for f in cards.findings if f.headline] and report.headlines[: len(report.answer)]
    for f in report.headlines:
        assert html.count(str(escape(f.text))) == 1, f"said more than once: {f.text}"
    # the answer's ranks: the most valuable card's plausible ranks, simultaneous over the cards
    ranked = A.with_ranks(value, level=0.95, ranked=pl.col("kind") == "card")
    top = ranked.filter(pl.col("rank") == 1).row(0, named=True)
    assert f"ranked 1 of {ranked['rank'].drop_nulls().len()}" in cards.findings[0].text
    assert top["rank_lo"] == 1 and top["rank_hi"] >= 1
    assert "rank (plausible)" in cards.tables[0].header


def test_quickstart_like_run_has_no_compensation():
    """The 2014 preset changes hand limit and markers too: its money must not be fitted as a sweep."""
    rules = {"start_money": [6, 6, 6, 6], "hand_limit": 4}
    assert (
        money_sweep({"rulebook": rules, "quined2014": {"start_money": [5, 6, 7, 8], "hand_limit": 3}}, "rulebook") == []
    )
    assert money_sweep({"a": rules, "b": {**rules, "start_money": [6, 6, 6, 9]}}, "a") == ["a", "b"]


def test_game_without_market_or_round_scores(roma_folder):
    report = build_report(roma_folder)
    assert [s.id for s in report.sections] == ["seats", "balance"]
    assert any(
        n.startswith("Markets: not in these results (the game does not record market") for n in report.not_covered
    )
    balance = next(s for s in report.sections if s.id == "balance")
    assert "No decisiveness figures: the game does not record the score after each round." in balance.notes
    assert any(f.source == "assumption" for f in report.flags)  # Roma's settled rule points
    assert "roma" in render(report)


#: a variant name that is markup (without a slash: it is part of the part files' names)
EVIL_VARIANT = '<img src=y onerror=alert("v")>'


def _tamper(folder: Path, dest: Path) -> Path:
    """A copy of a result folder whose variant, bot and descriptions are markup (as a hostile file could be).

    The parts stay the run's own (footers, names and manifest agree), so every reader reads them: a part
    whose footer or name disagrees with the manifest is left out (tests/run/test_folder_contents.py). A
    file name cannot hold a slash, so the variant's markup has none.
    """
    import pyarrow.parquet as pq

    from simlab.run.folder_layout import META_KEY

    shutil.copytree(folder, dest)
    evil_variant = EVIL_VARIANT
    evil_bot = "<img src=x onerror=alert(1)>"
    for part in (dest / "parts").glob("*.parquet"):
        meta = dict(pq.read_schema(part).metadata)
        df = pl.read_parquet(part)
        df = df.with_columns(
            pl.when(pl.col("variant") == "quined2014")
            .then(pl.lit(evil_variant))
            .otherwise(pl.col("variant"))
            .alias("variant"),
            pl.when(pl.col("bot") == "priest").then(pl.lit(evil_bot)).otherwise(pl.col("bot")).alias("bot"),
        )
        record = json.loads(meta[META_KEY])
        name = part.name
        if record["variant"] == "quined2014":
            record["variant"] = evil_variant
            name = part.name.replace("quined2014", evil_variant)
        meta[META_KEY] = json.dumps(record).encode()
        pq.write_table(df.to_arrow().replace_schema_metadata(meta), dest / "parts" / name)
        if name != part.name:
            part.unlink()
    manifest = json.loads((dest / "manifest.json").read_text())
    manifest["scenario"]["description"] = "</title><script>alert('d')</script>"
    manifest["scenario"]["text"] += "\n# <script>alert('text')</script>\n"
    manifest["bots"] = [evil_bot if b == "priest" else b for b in manifest["bots"]]
    for v in manifest["variants"]:
        if v["name"] == "quined2014":
            v["name"] = evil_variant
            v["description"] = "<b>bold</b> & <i>italic</i>"
    (dest / "manifest.json").write_text(json.dumps(manifest))
    return dest


def test_names_from_scenario_files_are_escaped(quick_folder, tmp_path):
    folder = _tamper(quick_folder, tmp_path / "evil")
    out = write_report(folder, tmp_path / "evil.html")
    html = out.read_text(encoding="utf-8")
    assert "<script" not in html.lower()
    assert "<img src=x" not in html and "<b>bold</b>" not in html
    assert "<img src=y" not in html
    assert "&lt;img src=y onerror=alert(&#34;v&#34;)&gt;" in html
    assert "&lt;img src=x onerror=alert(1)&gt;" in html
    assert "&lt;b&gt;bold&lt;/b&gt; &amp; &lt;i&gt;italic&lt;/i&gt;" in html
    assert f"{EVIL_VARIANT} against rulebook" in _text(html)


def test_report_aggregates_lazily(quick_folder, monkeypatch):
    """Only summaries reach Python: no collected frame grows with the games, nothing goes to pandas.

    The folder holds 3 variants x 400 games x 4 seats = 4,800 rows; every frame the report collects is a
    summary (per variant, seat, round, bin, card...), so a bound well under the game count shows that the
    report's memory and time do not grow with the rows read.
    """
    heights: list[int] = []
    collect = pl.LazyFrame.collect

    def spy(self: pl.LazyFrame, *args: object, **kwargs: object) -> pl.DataFrame:
        df = collect(self, *args, **kwargs)
        heights.append(df.height)
        return df

    def no_pandas(*args: object, **kwargs: object) -> None:
        raise AssertionError("the report must not convert rows to pandas")

    monkeypatch.setattr(pl.LazyFrame, "collect", spy)
    monkeypatch.setattr(pl.DataFrame, "to_pandas", no_pandas)
    build_report(quick_folder)
    assert heights and max(heights) < 200, sorted(heights)[-5:]


def test_cli_report(quick_folder, tmp_path, monkeypatch):
    runner = CliRunner()
    out = tmp_path / "sub" / "report.html"
    result = runner.invoke(cli, ["report", str(quick_folder), "--out", str(out)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith(f"report: {out}")  # the path alone on stdout, progress on stderr
    progress = result.stderr.splitlines()
    assert progress[0].startswith(f"report of {quick_folder}: 400 per variant of massilia, 3 variant(s)")
    sections = [re.fullmatch(r"  ([a-z ]+): (?:\d+\.\d s|not in these results)", line) for line in progress[1:]]
    assert all(sections), progress
    assert [m.group(1) for m in sections] == [  # a built section by its title, in the game's words
        "what would fix it",
        "seats and starting sesterces",
        "stopping rule",
        "card value",
        "markets",
        "general balance metrics",
        "robustness to the data",
        "robustness to the bots",
    ]
    assert out.is_file() and out.stat().st_size > 10_000
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(cli, ["report", str(quick_folder)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert (tmp_path / "reports" / "results.html").is_file()  # reports/<result folder name>.html


def test_cli_report_errors(tmp_path):
    runner = CliRunner()
    result = runner.invoke(cli, ["report", str(tmp_path / "nothing")])
    assert result.exit_code == 2
    assert re.search(r"^error: .*holds no simlab results", result.stderr, re.M)
    assert "Traceback" not in result.output


def test_sweep_prices_seat_deficits(quick_folder, cards_folder, tmp_path):
    """--sweep: another run's money rate turns a disadvantaged seat's deficit into sesterces."""
    from simlab.report.context import load_context
    from simlab.report.sections.seats import _priced_deficits

    report = build_report(quick_folder, sweep=cards_folder)
    priced = [f.text for s in report.sections for f in s.findings if "fair compensation ≈" in f.text]
    # only a flagged seat is priced (equal-seats test, then simultaneous intervals): at 400 games there may be none
    assert all(f"priced by the starting-money sweep in {cards_folder} (seat 3)" in t for t in priced)
    flagged = A.seat_advantage(simlab.load_results(quick_folder)).filter(pl.col("flag").is_not_null())
    assert len(priced) == flagged.height
    ctx = load_context(quick_folder, 0.95)
    ctx.sweep = cards_folder
    seats = A.seat_advantage(simlab.load_results(quick_folder).filter(pl.col("variant") == "rulebook"))
    deficits = _priced_deficits(seats, ctx.money(), 0.95)
    assert set(deficits) == {0, 1, 2, 3}
    assert all(f"starting-money sweep in {cards_folder} (seat 3)" in d["how"] for d in deficits.values())
    seats = next(s for s in report.sections if s.id == "seats")
    assert any(n.startswith("Sesterces: priced by the starting-money sweep") for n in seats.notes)
    assert report.reproduce[1][1].startswith("simlab run ") and f"--out {cards_folder}" in report.reproduce[1][1]
    assert report.reproduce[2][1].endswith(f"--sweep {cards_folder}")
    result = CliRunner().invoke(
        cli, ["report", str(quick_folder), "--out", str(tmp_path / "r.html"), "--sweep", str(quick_folder)]
    )
    assert result.exit_code == 2 and "is not a starting-money sweep" in result.stderr


def test_cli_report_tolerance_sets_what_matters_in_the_seat_verdict(quick_folder, tmp_path):
    runner = CliRunner()
    out = tmp_path / "wide.html"
    result = runner.invoke(cli, ["report", str(quick_folder), "--out", str(out), "--tolerance", "25"])
    assert result.exit_code == 0, result.output
    html = out.read_text()
    assert "25.0-point tolerance" in html and "1.0-point tolerance" not in html
    bad = runner.invoke(cli, ["report", str(quick_folder), "--out", str(out), "--tolerance", "-1"])
    assert bad.exit_code == 2 and "--tolerance" in bad.output
