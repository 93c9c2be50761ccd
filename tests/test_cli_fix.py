"""``simlab fix SCENARIO`` (issue 34, item 4): bad input refused before any game, naming the scenario key, exit 2;
a run, its progress, its JSON, its report, and a stopped search that resumes to the same answer."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from simlab.cli import cli
from simlab.core import registry

PIG = """
game = "pig"
players = 2
games = 100
seed = 5
lineup = ["holder", "holder"]
"""

FIX = """
[fix]
tolerance = 4
budget = 6000
batch = 500
certify_games = 2000
[fix.knobs]
start_points = { seats = [[0, 20], [0, 20]], step = 5 }
"""


@pytest.fixture
def pig(monkeypatch):
    monkeypatch.setitem(registry.BUILTIN_GAMES, "pig", "tests.examples.pig.game:GAME")
    registry.get_game.cache_clear()
    yield
    registry.get_game.cache_clear()


def _fix(tmp_path, text: str, *args: str, out: str = "out"):
    path = tmp_path / "pig_fix.toml"
    path.write_text(PIG + text)
    return CliRunner().invoke(cli, ["fix", str(path), "--out", str(tmp_path / out), *args])


def _refused(result, pattern: str) -> None:
    assert result.exit_code == 2, result.output
    assert re.search(r"^error: .*" + pattern, result.stderr, re.M), result.stderr
    assert "Traceback" not in result.output


@pytest.mark.parametrize(
    ("change", "pattern"),
    [
        ("no_such_knob = { values = [1, 2] }", r"key 'fix\.knobs\.no_such_knob'"),
        ("target = { range = [0, 100], step = 50 }", r"key 'fix\.knobs\.target'"),
        ("target = { values = [] }", r"key 'fix\.knobs\.target\.values'.*non-empty"),
    ],
)
def test_a_bad_knob_is_refused_naming_its_key(pig, tmp_path, change, pattern):
    result = _fix(tmp_path, FIX.replace("start_points = { seats = [[0, 20], [0, 20]], step = 5 }", change))
    _refused(result, pattern)
    assert not (tmp_path / "out").exists(), "refused before anything runs or is written"


def test_a_guard_on_an_undeclared_fact_is_refused(pig, tmp_path):
    _refused(_fix(tmp_path, FIX + "[fix.guards]\nfact.no_such_fact = 10\n"), r"key 'fix\.guards\.fact\.no_such_fact'")


def test_a_tolerance_of_zero_or_less_is_refused(pig, tmp_path):
    _refused(_fix(tmp_path, FIX.replace("tolerance = 4", "tolerance = 0")), r"key 'fix\.tolerance'")
    _refused(_fix(tmp_path, FIX.replace("tolerance = 4", "tolerance = -1")), r"key 'fix\.tolerance'")
    option = _fix(tmp_path, FIX, "--tolerance", "0")
    assert option.exit_code == 2 and "--tolerance" in option.stderr


def test_a_scenario_without_a_fix_table_and_an_unknown_panel_bot_are_refused(pig, tmp_path):
    _refused(_fix(tmp_path, ""), r"no \[fix\] table")
    _refused(_fix(tmp_path, FIX, "--panel", "no_such_bot"), r"key 'fix\.panel\[0\]'")


def _answer(result) -> dict:
    import json

    assert result.exit_code == 0, result.output
    answer = json.loads(result.stdout)
    answer.pop("folder")
    return answer


def test_a_search_answers_in_words_with_progress_json_and_a_report(pig, tmp_path):
    from simlab.run.fix_folder import load_fix

    result = _fix(tmp_path, FIX, "--json")
    answer = _answer(result)
    assert answer["command"] == "fix" and answer["game"] == "pig" and answer["status"] in (
        "certified", "not_certified", "already_fair", "none_on_grid", "budget"
    )  # fmt: skip
    assert answer["certified"] == (answer["status"] == "certified" and all(p["fair"] for p in answer["panel"]))
    assert re.search(r"round \d+: .*games spent", result.stderr), result.stderr  # progress on stderr, each round
    kept = load_fix(tmp_path / "out")
    assert kept["result"]["status"] == answer["status"] and kept["log"], "the answer and the decisions are kept"
    text = CliRunner().invoke(cli, ["fix", str(tmp_path / "pig_fix.toml"), "--out", str(tmp_path / "out"), "--resume"])
    assert text.exit_code == 0 and text.stdout.splitlines()[0] == answer["headline"]
    assert "games spent: " in text.stdout and f"next: simlab report {tmp_path / 'out'}" in text.stdout
    again = _fix(tmp_path, FIX)
    _refused(again, r"already holds a rule-fix search; add --resume")
    page = tmp_path / "fix.html"
    report = CliRunner().invoke(cli, ["report", str(tmp_path / "out"), "--out", str(page)])
    assert report.exit_code == 0, report.output
    assert "What would fix it?" in page.read_text() and answer["headline"].split(":")[0] in page.read_text()


def test_a_stopped_search_resumes_to_the_answer_of_an_uninterrupted_one(pig, tmp_path, monkeypatch):
    from simlab.run.fix_folder import FixStore, load_fix

    clean = _answer(_fix(tmp_path, FIX, "--json", out="clean"))
    put, calls = FixStore.put, []

    def stopped(self, *args):
        calls.append(1)
        if len(calls) == 4:
            raise KeyboardInterrupt  # a Ctrl-C after three plays were kept
        put(self, *args)

    monkeypatch.setattr(FixStore, "put", stopped)
    stopped_run = _fix(tmp_path, FIX, "--json", out="stopped")
    assert stopped_run.exit_code == 130
    assert "error: interrupted: 3 plays of the fix search are kept" in stopped_run.stderr
    assert f"--out {tmp_path / 'stopped'} --resume" in stopped_run.stderr
    kept = load_fix(tmp_path / "stopped")
    assert kept["status"] == "running" and len(kept["plays"]) == 3 and kept["result"] is None
    monkeypatch.setattr(FixStore, "put", put)
    resumed = _answer(_fix(tmp_path, FIX, "--json", "--resume", out="stopped"))
    assert resumed == clean


#: ``simlab`` in a child process with Pig registered (as the fixture does in this one)
WITH_PIG = (
    "import sys; from simlab.core import registry; "
    "registry.BUILTIN_GAMES['pig'] = 'tests.examples.pig.game:GAME'; "
    "from simlab.cli import main; sys.argv[0] = 'simlab'; main()"
)


def test_a_killed_search_resumes_to_the_answer_of_an_uninterrupted_one(pig, tmp_path):
    import os
    import signal
    import subprocess
    import sys
    import time
    from pathlib import Path

    from simlab.run.fix_folder import load_fix

    clean = _answer(_fix(tmp_path, FIX, "--json", out="clean"))
    out = tmp_path / "killed"
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(Path(__file__).parents[1]), os.environ.get("PYTHONPATH", "")]),
    }
    args = [sys.executable, "-c", WITH_PIG, "fix", str(tmp_path / "pig_fix.toml"), "--out", str(out), "--json"]
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    deadline = time.monotonic() + 600
    plays = out / "fix" / "plays"
    while not plays.is_dir() or len(list(plays.glob("*.parquet"))) < 3:
        assert proc.poll() is None, f"the search ended before it could be killed: {proc.communicate()}"
        assert time.monotonic() < deadline, "the search kept no play in time"
        time.sleep(0.005)
    proc.send_signal(signal.SIGKILL)
    proc.communicate(timeout=30)
    assert proc.returncode == -signal.SIGKILL and load_fix(out)["status"] == "running", "killed part-way"
    resumed = _answer(_fix(tmp_path, FIX, "--json", "--resume", out="killed"))
    assert resumed == clean


def test_compensate_fix_answers_with_the_fix_search_in_the_games_words(pig):
    import json

    args = ["compensate", "pig", "--fix", "--intervention", "points", "--max-games", "20000", "--batch", "1000"]
    result = CliRunner().invoke(cli, [*args, "--confirm-games", "2000", "--fair-within", "4", "--json"])
    assert result.exit_code == 0, result.output
    answer = json.loads(result.stdout)
    assert answer["command"] == "compensate" and answer["preset"] == "compensate" and answer["knob"] == "start_points"
    assert answer["certified"] == (answer["status"] == "certified" and all(p["fair"] for p in answer["panel"]))
    assert all(s["knob"] == "start_points" for s in (answer["change"] or {}).get("settings", []))
    if answer["change"]:
        assert re.match(r"give seat \d \w+ more points?", answer["change_words"]), answer["change_words"]
    assert result.stderr.startswith("pig: start_points for all 2 seats as a fix, lineup holder,holder")
    seat = ["compensate", "pig", "--fix", "--intervention", "points", "--seat", "1"]
    _refused(CliRunner().invoke(cli, seat), r"--fix: .*drop --seat")


def test_two_workers_give_the_same_answer_and_resume_a_one_worker_folder(pig, tmp_path, monkeypatch):
    from simlab.run.fix_folder import FixStore

    one = _answer(_fix(tmp_path, FIX, "--json", out="one"))
    assert _answer(_fix(tmp_path, FIX, "--json", "--jobs", "2", "--force-jobs", out="two")) == one
    put, calls = FixStore.put, []

    def stopped(self, *args):
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt
        put(self, *args)

    monkeypatch.setattr(FixStore, "put", stopped)
    assert _fix(tmp_path, FIX, "--json", out="mixed").exit_code == 130
    monkeypatch.setattr(FixStore, "put", put)
    assert _answer(_fix(tmp_path, FIX, "--json", "--jobs", "2", "--force-jobs", "--resume", out="mixed")) == one


def test_the_scenarios_own_run_joins_its_fix_and_the_report_leads_with_the_fix(pig, tmp_path):
    assert _fix(tmp_path, FIX).exit_code == 0
    run = CliRunner().invoke(cli, ["run", str(tmp_path / "pig_fix.toml"), "--out", str(tmp_path / "out"), "-q"])
    assert run.exit_code == 0, run.output  # the folder holding a fix search takes the scenario's run
    page = tmp_path / "both.html"
    report = CliRunner().invoke(cli, ["report", str(tmp_path / "out"), "--out", str(page)])
    assert report.exit_code == 0, report.output
    text = page.read_text()
    assert 'id="fix"' in text and 'id="seats"' in text and text.index('id="fix"') < text.index('id="seats"')


def test_resume_refuses_another_question_naming_what_differs(pig, tmp_path):
    assert _fix(tmp_path, FIX).exit_code == 0
    other = _fix(tmp_path, FIX, "--resume", "--tolerance", "3")
    _refused(other, r"another question \(tolerance: 4\.0 there, 3\.0 now\)")
    edited = _fix(tmp_path, FIX.replace("budget = 6000", "budget = 7000"), "--resume")
    _refused(edited, r"another question \(budget: 6000 there, 7000 now; scenario_sha256: ")


def test_a_grid_outside_a_knobs_declared_range_is_refused_naming_the_key(tmp_path):
    path = tmp_path / "massilia_fix.toml"
    path.write_text(
        'game = "massilia"\nplayers = 4\ngames = 100\nseed = 1\nlineup = ["trader", "priest", "trader", "priest"]\n'
        "[fix]\n[fix.knobs]\nrounds = { range = [0, 8] }\n"
    )
    result = CliRunner().invoke(cli, ["fix", str(path), "--out", str(tmp_path / "out")])
    _refused(result, r"massilia_fix\.toml: key 'fix\.knobs\.rounds.*'")
    assert "0 is outside the range of rounds (1..12)" in result.stderr and not (tmp_path / "out").exists()


def test_batch_and_certify_games_options_override_the_table_and_are_checked(pig, tmp_path):
    from simlab.run.fix_folder import load_fix

    for option, bad in (("--batch", "9"), ("--certify-games", "99"), ("--batch", "x")):
        refused = _fix(tmp_path, FIX, option, bad)
        assert refused.exit_code == 2 and option in refused.stderr, refused.output  # the table's least values
        assert not (tmp_path / "out").exists()
    answer = _answer(_fix(tmp_path, FIX, "--json", "--batch", "400", "--certify-games", "1000"))
    identity = load_fix(tmp_path / "out")["identity"]
    assert identity["batch"] == 400 and identity["certify_games"] == 1000, "the options override the table"
    assert all(p["n"] == 1000 for p in answer["panel"]), answer["panel"]  # certified on --certify-games games
    assert all(g % 400 == 0 for g in (answer["games"]["explore"], answer["games"]["race"]))
    again = _answer(_fix(tmp_path, FIX, "--json", "--resume", "--batch", "400", "--certify-games", "1000"))
    assert again == answer, "the same options resume the same question"
    # as --budget on resume: another value is another question, refused naming what differs
    _refused(_fix(tmp_path, FIX, "--resume", "--batch", "500"), r"another question \(batch: 400 there, 500 now")
    _refused(_fix(tmp_path, FIX, "--resume"), r"another question \(batch: 400 there, 500 now; certify_games: ")
    other = _fix(tmp_path, FIX, "--resume", "--batch", "400", "--certify-games", "1200")
    _refused(other, r"another question \(certify_games: 1000 there, 1200 now\)")
    _refused(_fix(tmp_path, FIX, "--resume", "--batch", "400", "--certify-games", "1000", "--budget", "7000"),
             r"another question \(budget: 6000 there, 7000 now\)")  # fmt: skip


def test_the_objective_is_a_table_key_and_an_option_said_in_the_answer_and_its_report(pig, tmp_path):
    """``objective`` (issue 34: a money-only fix answers as compensate): refused naming its key when unknown, the
    option overrides the table, the answer and its method say which, the report's question row says it; the
    default is not written into the question's identity (a folder from before the objective resumes)."""
    from simlab.analysis.fix_words import vocabulary
    from simlab.report.fix_report import question_rows
    from simlab.run.fix_folder import load_fix

    bad = _fix(tmp_path, FIX.replace("[fix]\n", '[fix]\nobjective = "fairest"\n'))
    _refused(bad, r"key 'fix\.objective': expected \"cheapest\" or \"most_equal\"")
    assert _fix(tmp_path, FIX, "--objective", "fairest").exit_code == 2
    table = _answer(_fix(tmp_path, FIX.replace("[fix]\n", '[fix]\nobjective = "most_equal"\n'), "--json", out="t"))
    option = _answer(_fix(tmp_path, FIX, "--json", "--objective", "most_equal", out="o"))
    assert table["objective"] == option["objective"] == "most_equal"
    assert table["status"] != "already_fair" and "objective most_equal" in table["method"]
    identity = load_fix(tmp_path / "o")["identity"]
    assert identity["objective"] == "most_equal"
    rows = dict(question_rows(identity, "", vocabulary("pig", [])))
    assert rows["fix.objective"].startswith("most_equal: the most equal change")
    cheapest = _answer(_fix(tmp_path, FIX, "--json", out="c"))
    assert cheapest["objective"] == "cheapest" and "objective" not in load_fix(tmp_path / "c")["identity"]


def test_compensate_and_a_money_only_fix_give_the_same_answer_on_roma(tmp_path):
    """issue 34: `simlab compensate roma` (the fix preset) and `simlab fix` asked the same money-only question (the
    sestertii on 0..10 per seat, objective most_equal, the lineup alone, the same seed and sizes) give the same
    vector and the same certification, game for game; compensate's answer keeps its keys (and the fix's under
    `fix`)."""
    import json

    scenario = tmp_path / "roma_money.toml"
    scenario.write_text(
        'game = "roma"\nplayers = 2\ngames = 100\nseed = 0\nlineup = ["builder", "warrior"]\n'
        '[fix]\nobjective = "most_equal"\npanel = []\nbudget = 60000\nbatch = 2000\ncertify_games = 20000\n'
        "[fix.knobs]\nstart_money = { seats = [[0, 10], [0, 10]] }\n"
    )
    args = ["compensate", "roma", "--bots", "builder,warrior", "--max-games", "60000"]  # batch 2,000, 20,000 fresh
    result = CliRunner().invoke(cli, [*args, "--json"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    comp = json.loads(result.stdout)
    fixed = _answer(CliRunner().invoke(cli, ["fix", str(scenario), "--out", str(tmp_path / "out"), "--json"]))
    assert comp["method"] == "fix" and comp["fix"]["objective"] == fixed["objective"] == "most_equal"
    assert {"outcome", "headline", "value", "status", "games", "fair_within", "tables", "knob", "level"} <= set(comp)
    assert {"answer", "confirmation", "published", "candidates"} == set(comp["tables"])
    assert fixed["status"] == "certified" and comp["outcome"] == "fair"
    assert fixed["change"]["settings"][0]["value"] == comp["value"]
    assert [s["share"] for s in fixed["after"]] == [r["win_share"] for r in comp["tables"]["confirmation"]]
    # the published rules: fix's check reads its fresh seeds in looks and stops once they cannot pass (futility);
    # compensate's table reads its own count of the same seeds
    assert len(fixed["before"]) == len(comp["tables"]["published"]) and fixed["before"][0]["n"] <= 20_000
    assert comp["games"] == fixed["games"]["explore"] + fixed["games"]["race"]
    assert {k: v for k, v in comp["fix"].items() if k != "method"} == {
        k: v for k, v in fixed.items() if k in comp["fix"] and k != "method"
    }


def test_compensate_tolerance_belongs_to_the_softmax_method():
    result = CliRunner().invoke(cli, ["compensate", "roma", "--tolerance", "0.3"])
    assert result.exit_code == 2 and "--tolerance: applies to --method softmax" in result.stderr
