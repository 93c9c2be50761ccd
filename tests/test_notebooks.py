"""The notebooks run top to bottom for every game they answer, on small settings, and say only what they print.

Each notebook takes the game as a parameter (``GAME``, read from SIMLAB_NB_GAME in the test). Every (notebook,
game) pair is executed with nbclient in a fresh kernel (a copy: the committed notebook is left as it is), with
SIMLAB_NB_GAMES set small and SIMLAB_NB_RESULTS pointing at a temporary folder. A cell that raises fails the
test with the cell and its traceback; every run must draw a chart and show its computed prose. The prose is
then checked: no word or unit of another game, and its counts and verdicts against the tables the notebook
printed beside it. The notebooks' hand-written markdown holds no number and no game's word: those are computed
(``simlab.notebook``), so they follow the game and the game count.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
PATHS = sorted(NOTEBOOKS.glob("*.ipynb"))
#: games per variant in the test run: divisible by 2, 3 and 4, so every seat sees each bot equally often
GAMES = 48
#: the question each notebook asks (the games it runs for are those shipping a scenario for it)
QUESTION = {
    "01_seats_and_starting_money": "seats",
    "02_card_value": "card_value",
    "03_market_shifts": "market_shifts",
}
#: words every game may use whatever its units: "points" of win share, "money" as in starting money
GENERIC = {"point", "points", "money"}


def _cases() -> list[tuple[Path, str]]:
    from simlab.notebook import games_answering

    return [(p, g) for p in PATHS for g in games_answering(QUESTION[p.stem])]


CASES = _cases()


def game_words(game: str) -> set[str]:
    """The words a game's facts declare: money and points units and the noun of its card intervention."""
    import simlab
    from simlab.core.facts import Roles

    facts = simlab.get_game(game).fact_set
    roles = Roles({"units": facts.units.as_dict(), "interventions": [i.as_dict() for i in facts.interventions]})
    u = roles.units
    return {u.money, u.money_plural, u.money_label, u.points, u.points_plural, u.points_label} | {
        roles.noun(),
        roles.noun(plural=True),
    }


def foreign_words(game: str) -> set[str]:
    """Words of the other games that are not also this game's (nor generic)."""
    import simlab

    mine = {w.lower() for w in game_words(game)}
    others = {w.lower() for g in simlab.available_games() if g != game for w in game_words(g)}
    # a phrase of this game ("fame points") shares words with another's ("fame"): keep only foreign phrases
    return {w for w in others - mine - GENERIC if not any(w in m.split() or w == m for m in mine)}


def _prose_text(text: str) -> str:
    """Markdown without its code spans (a file name such as `02_card_value.ipynb` is not a word of prose)."""
    return re.sub(r"`[^`]*`", "", text)


def _uses(text: str, word: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", text, flags=re.IGNORECASE) is not None


def test_every_question_has_its_notebook_and_every_game_a_notebook():
    import simlab
    from simlab.notebook import games_answering

    assert [p.stem for p in PATHS] == list(QUESTION)
    assert {g for _, g in CASES} == set(simlab.available_games())
    assert games_answering("seats") == sorted(simlab.available_games())
    assert games_answering("card_value") == sorted(simlab.available_games())


@pytest.mark.parametrize("path", PATHS, ids=[p.stem for p in PATHS])
def test_the_written_markdown_holds_no_number_and_no_game_word(path: Path):
    """Numbers and a game's words are computed under the cells; written markdown cannot know the game."""
    import nbformat

    import simlab

    every = {w.lower() for g in simlab.available_games() for w in game_words(g)} - GENERIC
    for cell in nbformat.read(path, as_version=4).cells:
        if cell.cell_type != "markdown":
            continue
        for line in _prose_text(cell.source).splitlines():
            if line.startswith("#"):
                line = re.sub(r"^#+ \d+\.", "", line)
            assert not re.search(r"\d", line), f"{path.name}: a written number: {line!r}"
            found = sorted(w for w in every if _uses(line, w))
            assert not found, f"{path.name}: a game's word {found} in written markdown: {line!r}"
            assert not _uses(line, "coins"), line


@pytest.mark.parametrize(("path", "game"), CASES, ids=[f"{p.stem}-{g}" for p, g in CASES])
def test_notebook_runs_and_its_prose_matches_its_numbers(
    path: Path, game: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    import nbformat
    from nbclient import NotebookClient

    monkeypatch.setenv("SIMLAB_NB_GAME", game)
    monkeypatch.setenv("SIMLAB_NB_GAMES", str(GAMES))
    monkeypatch.setenv("SIMLAB_NB_RESULTS", str(tmp_path))
    monkeypatch.setenv("SIMLAB_NB_JOBS", "1")
    nb = nbformat.read(path, as_version=4)
    assert any("parameters" in c.metadata.get("tags", []) for c in nb.cells), "no parameter cell"
    NotebookClient(nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(NOTEBOOKS)}}).execute()
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])]
    assert not [o for o in outputs if o.get("output_type") == "error"]
    assert any("image/png" in o.get("data", {}) for o in outputs), "the notebook drew no chart"
    assert list(tmp_path.iterdir()), "the notebook wrote its results somewhere else than SIMLAB_NB_RESULTS"

    prose_cells = [c for c in nb.cells if "prose" in c.metadata.get("tags", [])]
    assert prose_cells, "no computed prose"
    said = [o["data"]["text/markdown"] for o in outputs if "text/markdown" in o.get("data", {})]
    assert len(said) >= len(prose_cells) - 1, "a prose cell said nothing"  # one may be skipped (one variant)
    prose = "\n".join(_prose_text(t) for t in said) + "\n".join(
        _prose_text(c.source) for c in nb.cells if c.cell_type == "markdown"
    )
    foreign = sorted(w for w in foreign_words(game) if _uses(prose, w))
    assert not foreign, f"{game}'s notebook uses another game's words: {foreign}"
    printed = "\n".join(o.get("text", "") for o in outputs if o.get("output_type") == "stream")
    compared = {check: check(printed, "\n".join(said), game) for check in CHECKS}
    assert compared[MAIN_CHECK[path.stem]], "the notebook's main table was not found to check its prose against"


# -- prose against the printed tables -----------------------------------------------------------------------
NUM = r"[+-]?\d+(?:\.\d+)?"


def _check_seat_flags(printed: str, said: str, game: str) -> int:
    """The seats a sentence calls advantaged or disadvantaged are the ones the seat table flags."""
    table: set[tuple[str, str, str]] = set()
    variant, seats = None, 0
    for line in printed.splitlines():
        head = re.match(r"^(\S+): [\d,]+ games per seat; all seats equal\?", line)
        if head:
            variant = head.group(1)
            continue
        row = re.match(r"^  seat (\d+)\s+\S+\s+\[[^\]]*\]\s+\[[^\]]*\]\s+(advantaged|disadvantaged|-)\s", line)
        if variant and row:
            seats += 1
            if row.group(2) != "-":
                table.add((variant, row.group(1), row.group(2)))
    claimed = set()
    for bullet in re.findall(r"^- \*\*(\S+)\*\* \(.*games per seat\): (.*)$", said, flags=re.MULTILINE):
        claimed |= {(bullet[0], s, f) for s, f in re.findall(r"seat (\d+) is (advantaged|disadvantaged)", bullet[1])}
    assert claimed == table, f"{game}: flags said {sorted(claimed)}, printed {sorted(table)}"
    return seats


def _check_changes(printed: str, said: str, game: str) -> int:
    """ "Of the K changes ..., A have a 95% interval that excludes 0 and B stay apart ..." against the table."""
    rows = re.findall(
        rf"^  \S+ seat \d+\s+{NUM}\s+\[({NUM}), ({NUM})\]\s+\[({NUM}), ({NUM})\]", printed, flags=re.MULTILINE
    )
    claim = re.search(r"Of the (\d+) changes .*?, (\d+) (?:has|have) .*? and (\d+) stays? apart", said)
    if not rows:
        assert claim is None, f"{game}: a sentence about changes the notebook did not print"
        return 0
    assert claim, f"{game}: the changes were printed but not said"
    if any(abs(float(x)) < 0.01 for r in rows for x in r):
        return len(rows)  # a bound printed as ±0.00: its side of zero is below the printed precision

    def apart(lo: str, hi: str) -> bool:
        return float(lo) > 0 or float(hi) < 0

    own = sum(apart(r[0], r[1]) for r in rows)
    simult = sum(apart(r[2], r[3]) for r in rows)
    assert tuple(map(int, claim.groups())) == (len(rows), own, simult), f"{game}: {claim.group(0)}"
    return len(rows)


def _check_cards(printed: str, said: str, game: str) -> int:
    """ "k of the n <nouns> have a 95% interval that excludes zero, and m stay significant" against the table."""
    rows = re.findall(rf"^(\S+)\s+[\d,]+ x \d+\s+{NUM}\s+\[({NUM}), ({NUM})\]\s+(\S+)\s", printed, flags=re.MULTILINE)
    rows = [r for r in rows if r[3] != "-"]  # the money and points rows are no card of the family
    claim = re.search(r"(\d+) of the (\d+) \w+ have a 95% win-share interval .*?, and (\d+) stays? significant", said)
    if not rows:
        assert claim is None
        return 0
    assert claim, f"{game}: the values were printed but not said"
    if any(abs(float(x)) < 0.01 for r in rows for x in r[1:3]):
        return len(rows)
    own = sum(float(lo) > 0 or float(hi) < 0 for _, lo, hi, _ in rows)
    sig = sum(p.startswith("<") or float(p) < 0.05 for *_, p in rows)
    assert tuple(map(int, claim.groups())) == (own, len(rows), sig), f"{game}: {claim.group(0)}"
    return len(rows)


CHECKS = (_check_seat_flags, _check_changes, _check_cards)
#: the check each notebook's main table must meet (it finds the table: the prose is compared, not skipped)
MAIN_CHECK = {
    "01_seats_and_starting_money": _check_seat_flags,
    "02_card_value": _check_cards,
    "03_market_shifts": _check_changes,
}


# -- the sentence builders -------------------------------------------------------------------------------
def test_pairing_gain_words_follow_the_ratio():
    """×1.05 narrower intervals are "little of the luck", never "cancels most of the luck" (the old notebook)."""
    from simlab.notebook import narrower

    small = narrower([1.04, 1.05, 1.06, 1.3])
    assert "×1.04–1.30 narrower" in small and "little of the luck" in small and "most" not in small
    assert "most of the luck cancels" in narrower([1.6, 1.7])
    assert "part of the luck" in narrower([1.2])
    assert narrower([0.97, 0.99]).startswith("no narrower")
    assert "×1.10 narrower" in narrower([1.1, 1.1])  # two seats of a two-player game: one ratio, said once


def _cards_frame(lo_hi: list[tuple[float, float]], money: tuple[float, float, float] | None):
    import polars as pl

    rows = [
        {
            "label": f"c{i}",
            "kind": "card",
            "games": 400,
            "win_share_diff": (lo + hi) / 2,
            "win_share_diff_lo": lo,
            "win_share_diff_hi": hi,
            "p_adjusted": 0.01 if lo > 0.02 else 0.5,
            "adjustment": "holm",
        }
        for i, (lo, hi) in enumerate(lo_hi)
    ]
    if money:
        rows.append(
            dict(
                label="money2",
                kind="money",
                games=400,
                win_share_diff=money[0],
                win_share_diff_lo=money[1],
                win_share_diff_hi=money[2],
                p_adjusted=None,
                adjustment="holm",
            )
        )
    return pl.DataFrame(rows)


def test_cards_prose_counts_the_intervals_that_exclude_zero_in_the_games_words():
    """5 of 9 intervals excluding zero is never "most will not be told apart from zero"; the money axis is
    claimed only when the chart drew it; the noun and unit are the game's."""
    import polars as pl

    from simlab.core.facts import Units
    from simlab.notebook import Words, cards_prose

    words = Words(Units("foot", "feet", "feet", "point", "points", "points"), "god", "gods")
    intervals = [(0.03, 0.09), (0.01, 0.05), (0.021, 0.06), (-0.05, -0.01), (0.001, 0.02)] + [(-0.02, 0.02)] * 4
    frame = _cards_frame(intervals, (0.01, -0.01, 0.03))
    text = cards_prose(frame, words, has_top_axis=False)
    assert "5 of the 9 gods have a 95% win-share interval that excludes zero" in text
    assert "2 stay significant after the Holm adjustment over the 9: c0" in text
    assert "(2 feet more at the start)" in text and "card" not in text
    assert "not determined, so the gods are not priced in feet and the chart has no foot axis" in text
    assert "top axis converts win-share points to feet" in cards_prose(frame, words, has_top_axis=True)
    priced = frame.with_columns(money_lo=pl.lit(1.0), money_hi=pl.lit(3.0))
    assert "draws no foot axis, as that price gives it no positive scale" in cards_prose(priced, words, False)


def test_has_top_axis_reads_the_chart():
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    from simlab.notebook import has_top_axis

    fig = Figure()
    ax = fig.add_subplot()
    assert not has_top_axis(fig)
    ax.secondary_xaxis("top", functions=(lambda v: v / 2, lambda v: v * 2))
    assert has_top_axis(fig)


def test_seats_and_changes_prose_name_what_the_frames_hold():
    import polars as pl

    from simlab.notebook import changes_prose, seats_prose

    seats = pl.DataFrame(
        {
            "variant": ["rulebook"] * 2,
            "seat": [0, 1],
            "games": [1000, 1000],
            "win_share": [0.56, 0.44],
            "win_share_slo": [0.52, 0.40],
            "win_share_shi": [0.60, 0.48],
            "fair_share": [0.5, 0.5],
            "flag": ["advantaged", "disadvantaged"],
            "p_equal": [1e-4, 1e-4],
        }
    )
    text = seats_prose(seats)
    assert "the first seat wins 56.0% [52.0, 60.0]" in text and "seat 1 is disadvantaged" in text
    change = pl.DataFrame(
        {
            "variant": ["v", "v"],
            "seat": [0, 1],
            "games": [500, 500],
            "diff": [0.03, -0.001],
            "diff_lo": [0.01, -0.02],
            "diff_hi": [0.05, 0.018],
            "diff_slo": [-0.001, -0.03],
            "diff_shi": [0.06, 0.028],
        }
    )
    said = changes_prose(change, "rulebook")
    assert "Of the 2 changes against rulebook (500 paired games each), 1 has" in said and "0 stay apart" in said
    assert "what chance alone gives" in said


def test_a_game_without_the_question_s_scenario_is_refused_naming_those_with_one():
    import simlab
    from simlab.notebook import games_answering, shipped_scenario

    assert shipped_scenario("roma", "seats").name == "roma_seats.toml"
    assert (
        shipped_scenario("massilia", "card_value").name
        == simlab.get_game("massilia").scenarios["card_value"].split("/")[-1]
    )
    assert "massilia" in games_answering("market_shifts") and "roma" not in games_answering("market_shifts")
    with pytest.raises(simlab.SimlabError, match=r"roma ships no market_shifts scenario; the games that do: massilia"):
        shipped_scenario("roma", "market_shifts")
    with pytest.raises(simlab.SimlabError, match=r"did you mean 'massilia'"):
        shipped_scenario("masilia", "seats")


def test_the_notebook_helper_prints_floats_with_their_significant_digits():
    import polars as pl

    from simlab.notebook import setup_notebook

    with pl.Config():
        pl.Config.set_fmt_float("full")
        setup_notebook()
        shown = str(pl.DataFrame({"win": [0.019518634264255555, 0.25, 1234567.891]}))
    assert "0.019519" in shown and "0.0195186342" not in shown and "0.25" in shown


@pytest.mark.parametrize("path", PATHS, ids=[p.stem for p in PATHS])
def test_notebooks_use_the_shared_display_settings_and_show_progress(path: Path):
    import nbformat

    code = "\n".join(c.source for c in nbformat.read(path, as_version=4).cells if c.cell_type == "code")
    assert "setup_notebook()" in code and 'set_fmt_float("full")' not in code
    assert "progress=False" not in code  # a run from a notebook shows its progress


@pytest.mark.parametrize("path", PATHS, ids=[p.stem for p in PATHS])
def test_committed_notebooks_store_no_outputs(path: Path):
    """Outputs stored in a notebook go stale with the next engine or analysis change (the old card notebook's
    did); a notebook is committed clean and shows its numbers when run."""
    import nbformat

    cells = [c for c in nbformat.read(path, as_version=4).cells if c.cell_type == "code"]
    assert not [c.source[:60] for c in cells if c.get("outputs") or c.get("execution_count")]
