"""The user-facing pages open with what the user does; dated measurements sit in their own last section, and
nothing says "last session" or "the next night" (issue 17, item 8)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parents[1] / "docs"
UNDATED = re.compile(r"last session|next night|this session|the previous session", re.I)


def test_report_page_opens_with_the_command_and_ends_with_its_measurements() -> None:
    text = (DOCS / "report.md").read_text()
    opening = text.split("\n## ", 1)[0]
    assert "`simlab report RESULTS_DIR" in opening and "```sh" in opening
    sections = re.findall(r"^## (.+)$", text, re.M)
    assert sections[-1] == "Measurements"
    before = text.split("\n## Measurements\n", 1)[0]
    assert not re.search(r"\b20\d\d-\d\d-\d\d\b", before), "a dated measurement outside the Measurements section"


@pytest.mark.parametrize("page", ["report.md", "design.md", "plugins.md"])
def test_user_pages_carry_no_session_talk(page: str) -> None:
    assert not UNDATED.search((DOCS / page).read_text())


def test_design_page_links_stay_inside_the_clone() -> None:
    text = (DOCS / "design.md").read_text()
    assert "../shared" not in text
    for target in re.findall(r"\]\(([^)#]+)\)", text):
        assert (DOCS / target).exists(), f"design.md links {target}, which is not in docs/"


# -- the README's first screen: four games (issue 32) --------------------------------------------------
README = DOCS.parent / "README.md"
SCENARIOS = DOCS.parent / "scenarios"


def _section(text: str, title: str) -> str:
    return text.split(f"\n## {title}\n", 1)[1].split("\n## ", 1)[0]


def _first_screen() -> str:
    return README.read_text().split("\n## ", 1)[0]


def test_readme_experiments_table_lists_every_shipped_scenario() -> None:
    table = _section(README.read_text(), "Experiments")
    listed = set(re.findall(r"`([a-z0-9_]+\.toml)`", table))
    shipped = {p.name for p in SCENARIOS.glob("*.toml")}
    assert shipped - listed == set(), "scenarios missing from the README's table"
    assert listed - shipped == set(), "the README's table lists scenarios that do not ship"


def test_readme_first_screen_has_every_game_with_its_page_questions_scenarios_and_command() -> None:
    import simlab

    screen = _first_screen()
    assert "follow" not in screen  # no game is still to come: all of them ship
    rows = {line.split("|")[1]: line for line in screen.splitlines() if line.startswith("| **")}
    for name in simlab.available_games():
        game = simlab.get_game(name)
        row = next((r for title, r in rows.items() if f"**{game.title}**" in title), None)
        assert row is not None, f"{game.title} has no row on the README's first screen"
        assert f"](docs/games/{name}.md)" in row and (DOCS / "games" / f"{name}.md").exists()
        assert "?" in row.split("|")[2], f"{game.title}: the questions it answers"
        scenarios = re.findall(r"`([a-z0-9_]+\.toml)`", row.split("|")[3])
        assert scenarios and all((SCENARIOS / s).exists() for s in scenarios), row
        assert all(tomllib.loads((SCENARIOS / s).read_text())["game"] == name for s in scenarios), row
        _check_commands(row.split("|")[4])


def _check_commands(cell: str) -> None:
    """`simlab run scenarios/X.toml` then an analysis of results/X: the file exists, the folder is the one the run
    writes, the command exists and a --base names one of the scenario's variants."""
    from simlab.cli import cli

    commands = re.findall(r"`(simlab [^`]+)`", cell)
    assert len(commands) == 2 and commands[0].startswith("simlab run scenarios/"), cell
    scenario = commands[0].split()[2]
    data = tomllib.loads((DOCS.parent / scenario).read_text())
    words = commands[1].split()
    assert words[1] in cli.commands, commands[1]
    assert words[2] == f"results/{Path(scenario).stem}", commands[1]
    if "--base" in words:
        assert words[words.index("--base") + 1] in data["variants"], commands[1]


def test_readme_links_point_at_files_in_the_clone() -> None:
    for target in re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", README.read_text()):
        if not target.startswith("http"):
            assert (README.parent / target).exists(), f"README links {target}, which does not exist"


def test_readme_first_screen_commands_run_as_printed(tmp_path, monkeypatch) -> None:
    """Each game's two commands, run as printed from a folder holding the shipped scenarios (the run at 20 games
    per variant instead of the scenario's size): the analysis finds the run's folder and answers."""
    from click.testing import CliRunner

    import simlab
    from simlab.cli import cli

    (tmp_path / "scenarios").symlink_to(SCENARIOS)
    monkeypatch.chdir(tmp_path)
    rows = [line for line in _first_screen().splitlines() if line.startswith("| **")]
    assert len(rows) == len(simlab.available_games())
    for line in rows:
        run_command, analysis = re.findall(r"`(simlab [^`]+)`", line.split("|")[4])
        played = CliRunner().invoke(cli, [*run_command.split()[1:], "--games", "20", "--jobs", "1", "--quiet"])
        assert played.exit_code == 0, (run_command, played.output)
        answered = CliRunner().invoke(cli, analysis.split()[1:])
        assert answered.exit_code == 0 and "error" not in answered.output, (analysis, answered.output)


# -- every game's page, scenario and command the README shows (issue 32: "the README's commands for every game
# run as printed (a docs test)") ------------------------------------------------------------------------
#: what a README command plays is cut to a few games (the printed sizes take minutes); nothing else changes
SMALL = {"run": ["--games", "20", "--jobs", "1", "--quiet"], "compare": ["--games", "20", "--jobs", "1"]}
SMALL["bench"] = ["--games", "50", "--jobs", "1"]
SIZE = re.compile(r"^(?P<low>\d+)(?:–(?P<high>\d+))? × (?P<games>[\d,]+) games$")


def test_every_game_page_is_linked_from_the_readme_and_every_game_has_one() -> None:
    import simlab

    text = README.read_text()
    pages = sorted(p.name for p in (DOCS / "games").glob("*.md"))
    assert pages, "docs/games/ holds no game page"
    for page in pages:
        assert f"](docs/games/{page})" in text, f"docs/games/{page} is not linked from the README"
    for name in simlab.available_games():
        assert f"{name}.md" in pages, f"{name} has no page in docs/games/"


def test_readme_experiments_table_gives_each_scenarios_game_and_size() -> None:
    """Each row's scenarios load (game, bots, presets, knobs checked), belong to the row's game and have the
    variants and games per variant the size column states ("2 × 10,000 games", "1–2 × 20,000 games")."""
    import simlab
    from simlab.run.scenario import load_scenario

    titles = {simlab.get_game(name).title: name for name in simlab.available_games()}
    rows = [ln for ln in _section(README.read_text(), "Experiments").splitlines() if ln.startswith("| `")]
    assert {titles[ln.split("|")[2].strip()] for ln in rows} == set(titles.values()), "a game has no scenario"
    for row in rows:
        _, files, title, _, size, _ = row.split("|")
        size_m = SIZE.match(size.strip())
        assert size_m, f"size {size.strip()!r} is not 'N × G games' or 'N–M × G games'"
        loaded = [load_scenario(SCENARIOS / f) for f in re.findall(r"`([a-z0-9_]+\.toml)`", files)]
        assert all(s.game == titles[title.strip()] for s in loaded), row
        counts = sorted(len(s.variants) for s in loaded)
        low, high = int(size_m["low"]), int(size_m["high"] or size_m["low"])
        assert (counts[0], counts[-1]) == (low, high), (row, counts)
        assert {s.games for s in loaded} == {int(size_m["games"].replace(",", ""))}, (row, [s.games for s in loaded])


def _shell_block() -> list[list[str]]:
    """The README's `sh` block of simlab commands, each as its words (comments dropped)."""
    text = README.read_text().split("Or from the shell:\n\n```sh\n", 1)[1].split("```", 1)[0]
    return [line.split("#", 1)[0].split() for line in text.splitlines() if line.startswith("simlab ")]


def test_readme_shell_commands_name_what_ships() -> None:
    """Each command of the block exists, takes the options printed, and names a shipped game, preset, knob,
    scenario, or the folder and variants of the scenario that writes it."""
    import simlab
    from simlab.cli import cli
    from simlab.core.config import parse_overrides
    from simlab.run.scenario import load_scenario

    commands = _shell_block()
    assert {words[1] for words in commands} >= {"games", "play", "run", "seats", "replay", "compare"}
    for words in commands:
        command = cli.commands.get(words[1])
        assert command is not None, f"no command {words[1]!r}: {' '.join(words)}"
        options = {opt for p in command.params for opt in p.opts}
        if words[1] == "compare":
            options |= {"--preset", "--set", "--vs"}
        assert {w for w in words if w.startswith("-")} <= options, " ".join(words)
        if words[1] in {"bots", "config", "new-scenario", "play", "compare", "bench"}:
            game = simlab.get_game(words[2])
            for i, w in enumerate(words):  # a preset or knob the game does not have is refused here
                if w == "--preset":
                    game.make_config(preset=words[i + 1])
                if w == "--set":
                    game.make_config(overrides=parse_overrides((words[i + 1],)))
        folder = next((w for w in words if w.startswith("results/")), None)
        if folder:
            scenario = load_scenario(SCENARIOS / f"{folder.removeprefix('results/')}.toml")
            for i, w in enumerate(words):
                if w in ("--base", "--variant"):
                    assert words[i + 1] in scenario.variant_names, " ".join(words)
        for w in words:
            if w.startswith("scenarios/"):
                load_scenario(DOCS.parent / w)


def test_readme_shell_commands_run_as_printed(tmp_path, monkeypatch) -> None:
    """The block run top to bottom from a folder holding the shipped scenarios, as `make demo` leaves it (its
    quickstart run, here at 20 games): each command as printed, cut to a few games where it plays many
    (``SMALL``), exits 0 and prints no error."""
    from click.testing import CliRunner

    from simlab.cli import cli

    (tmp_path / "scenarios").symlink_to(SCENARIOS)
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    demo = runner.invoke(cli, ["run", "scenarios/quickstart.toml", *SMALL["run"]])
    assert demo.exit_code == 0, demo.output
    for words in _shell_block():
        args = [*words[1:], *SMALL.get(words[1], [])]
        result = runner.invoke(cli, args)
        assert result.exit_code == 0 and "error:" not in result.output, (" ".join(args), result.output[-2000:])
    assert (tmp_path / "my.toml").exists() and (tmp_path / "results" / "seats_and_money").is_dir()
