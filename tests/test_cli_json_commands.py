"""compare, bench, config, play, replay, verify and games answer through one ``Answer`` and the emitter (issue 33):
each gets a ``--json`` a script can read (the envelope; ``games`` keeps its list, ``config`` and ``play`` keep
their old keys), and the text a user reads is what it was."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

import simlab
from simlab.cli import cli

ENVELOPE = ["format", "command"]


def invoke(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    """A small kept comparison (Roma, 100 games a side): a result folder to verify and replay."""
    out = tmp_path_factory.mktemp("cmp") / "results"
    result = invoke("compare", "roma", "--preset", "bribe_disc", "--vs", "-n", "100", "-j", "1", "--out", str(out))
    assert result.exit_code == 0, result.output
    return out


def test_compare_json_is_the_seat_answer_of_both_sides(folder):
    args = ["compare", "roma", "--preset", "bribe_disc", "--vs", "-n", "100", "-j", "1", "--out", str(folder)]
    text, data = invoke(*args), invoke(*args, "--json")
    assert text.exit_code == data.exit_code == 0
    d = json.loads(data.stdout)
    assert list(d) == [*ENVELOPE, "folder", "game", "level", "units", "base", "changed", "sides", "games", "seed",
                       "tolerance", "answer", "rerun", "tables", "not_available"]  # fmt: skip
    assert d["command"] == "compare" and d["game"] == "roma" and d["folder"] == str(folder)
    assert (d["base"], d["changed"], d["games"], d["seed"], d["tolerance"]) == ("rulebook", "bribe_disc", 100, 1, 1.0)
    assert d["sides"] == {"bribe_disc": "--preset bribe_disc", "rulebook": "the default preset"}
    assert d["units"]["money"] == "sestertii"
    assert list(d["tables"]) == ["seats", "equal_seats", "verdicts", "compare"]
    seats = d["tables"]["seats"]
    assert [(r["variant"], r["seat"], r["games"]) for r in seats] == [
        ("rulebook", 0, 100), ("rulebook", 1, 100), ("bribe_disc", 0, 100), ("bribe_disc", 1, 100)
    ]  # fmt: skip
    assert all(r["win_share_lo"] <= r["win_share"] <= r["win_share_hi"] for r in seats)
    assert {r["variant"] for r in d["tables"]["compare"]} == {"bribe_disc"}
    assert [r["variant"] for r in d["tables"]["verdicts"]] == ["rulebook", "bribe_disc"]
    # the JSON and the text say the same: the answer's sentence, each seat's win share
    assert f"answer: {d['answer']}" in text.stdout.splitlines()
    for r in seats:
        assert re.search(rf"^  seat {r['seat']}\s+{r['win_share'] * 100:.1f} ", text.stdout, re.M)
    csv = invoke(*args, "--csv").stdout.splitlines()
    assert csv[0].startswith("variant,seat,games,win_share") and len(csv) == 5


def test_compare_text_is_unchanged(folder):
    """The text answer is the lines ``what_if_lines`` gives, as before --json existed."""
    from simlab.analysis import compare_variants, seat_advantage
    from simlab.analysis.frames import roles
    from simlab.experiments.what_if import WhatIf, what_if_lines

    out = invoke("compare", "roma", "--preset", "bribe_disc", "--vs", "-n", "100", "-j", "1", "--out", str(folder))
    command = "simlab compare roma --preset bribe_disc --vs"
    labels = {"bribe_disc": "--preset bribe_disc", "rulebook": "the default preset"}
    seats, changes = seat_advantage(folder), compare_variants(folder, "rulebook")
    result = WhatIf(folder, command, "bribe_disc", "rulebook", labels, seats, changes, roles(folder).units)
    assert out.stdout.splitlines() == what_if_lines(result, 0.01, 100)


def test_bench_json_holds_the_figures_the_text_prints():
    text = invoke("bench", "roma", "-n", "50")
    data = invoke("bench", "roma", "-n", "50", "--json")
    assert re.fullmatch(r"games/s: \d+(\.\d+)?", text.stdout.splitlines()[-1])  # still the last line, for scripts
    assert (
        text.stdout.splitlines()[0]
        == "roma: 2 players, preset rulebook, config " + json.loads(data.stdout)["config_hash"]
    )
    d = json.loads(data.stdout)
    assert d["command"] == "bench" and d["game"] == "roma" and d["games"] == 50 and d["jobs"] == 1
    assert d["bots"] == ["builder", "warrior"] and d["rotated"] is False and d["preset"] == "rulebook"
    assert d["games_per_second"] == pytest.approx(50 / d["seconds"])
    assert d["decisions_per_second"] == pytest.approx(d["decisions"] / d["seconds"])
    assert d["tables"] == {} and "profile" not in d


def test_bench_json_profile_tables():
    d = json.loads(invoke("bench", "roma", "-n", "40", "--profile", "--chunk-size", "20", "--json").stdout)
    stages = d["tables"]["stages"]
    assert [r["stage"] for r in stages] == ["play", "game_columns", "columns", "digest", "encode", "other"]
    assert sum(r["share"] for r in stages) == pytest.approx(1.0)
    assert d["profile"]["games"] == 40 and d["profile"]["chunks"] == 2
    assert sum(r["seconds"] for r in stages) == pytest.approx(d["profile"]["worker_seconds"])
    kinds = d["tables"]["decision_kinds"]
    assert kinds and all(r["decisions"] > 0 and r["legal_us"] >= 0 for r in kinds)


def test_config_json_is_the_envelope_and_keeps_its_keys():
    d = json.loads(invoke("config", "roma", "--json").stdout)
    assert list(d)[:2] == ENVELOPE and d["command"] == "config"
    assert (d["game"], d["preset"], d["rules_version"]) == ("roma", "rulebook", simlab.get_game("roma").rules_version)
    assert d["knobs"] == d["tables"]["knobs"]  # the old place of the knobs, kept for scripts
    assert {k["name"] for k in d["knobs"]} == set(simlab.get_game("roma").config_class.field_names())


def test_config_text_is_unchanged():
    lines = invoke("config", "roma", "--preset", "bribe_disc").stdout.splitlines()
    assert lines[0] == "roma (Roma), preset bribe_disc of rulebook, bribe_disc: " + lines[0].split(": ", 1)[1]
    assert re.fullmatch(r"  knob +value +type +range +source +description", lines[1])
    assert len(lines) == 2 + len(simlab.get_game("roma").config_class.field_names())


def test_play_json_is_the_envelope_with_the_summary():
    out = invoke("play", "roma", "-s", "3", "--json")
    d = json.loads(out.stdout)
    assert list(d)[:2] == ENVELOPE and d["command"] == "play"
    assert d["seed"] == 3 and d["bots"] == ["builder", "warrior"] and sum(d["win_shares"]) == pytest.approx(1)
    text = invoke("play", "roma", "-s", "3").stdout.splitlines()
    from simlab.core.transcript import play_with_transcript

    game = simlab.get_game("roma")
    assert text == play_with_transcript(game, game.make_config(), 3, ["builder", "warrior"]).lines


def test_replay_json_is_the_envelope_with_the_summary(folder):
    out = invoke("replay", str(folder), "-v", "bribe_disc", "-g", "3", "--json")
    d = json.loads(out.stdout)
    assert d["command"] == "play" and d["game"] == "roma" and d["players"] == 2  # what the play it replays prints
    command = re.search(r"simlab play .*$", out.stderr, re.M).group(0)
    assert json.loads(invoke(*command.split()[1:], "--json").stdout) == d


def test_games_json_keeps_its_list_and_the_text_its_lines():
    data = json.loads(invoke("games", "--json").stdout)
    assert isinstance(data, list) and [g["name"] for g in data] == simlab.available_games()
    text = invoke("games").stdout.splitlines()
    assert [line.split()[0] for line in text] == simlab.available_games()
    assert re.match(r"roma +Roma — 2 players, rules roma-\S+, presets: rulebook, bribe_disc \(old names: ", text[-1])


def test_verify_json_says_ok_or_what_is_damaged(folder, tmp_path):
    good = invoke("verify", str(folder), "--json")
    d = json.loads(good.stdout)
    assert good.exit_code == 0 and d["command"] == "verify" and d["ok"] is True
    assert (d["checked"], d["games"]) == (2, 200)
    assert d["tables"] == {"damaged": [], "left_out": [], "missing": [], "moved": []}
    assert invoke("verify", str(folder)).stdout == f"{folder}: 2 part file(s) read, 200 games\n"
    import shutil

    broken = tmp_path / "broken"
    shutil.copytree(folder, broken)
    part = sorted((broken / "parts").glob("bribe_disc*.parquet"))[0]
    data = bytearray(part.read_bytes())
    data[len(data) // 2] ^= 0xFF
    part.write_bytes(data)
    bad = invoke("verify", str(broken), "--json")
    d = json.loads(bad.stdout)
    assert bad.exit_code == 2 and d["ok"] is False and "error: 1 damaged part file(s)" in bad.stderr
    assert [r["file"] for r in d["tables"]["damaged"]] == [part.name]
    text = invoke("verify", str(broken)).stdout.splitlines()
    assert text[1] == f"damaged: {part.name}: {d['tables']['damaged'][0]['reason']}"


def test_bots_json_lists_each_bot_and_the_search_parameters():
    d = json.loads(invoke("bots", "roma", "--json").stdout)
    assert list(d)[:3] == [*ENVELOPE, "game"] and d["command"] == "bots" and d["game"] == "roma"
    bots = {b["name"]: b for b in d["tables"]["bots"]}
    registry = simlab.get_game("roma").bots
    assert list(bots) == [*registry.names(), *registry.search_names()]
    assert bots["builder"]["params"] == dict(registry.info("builder").params) and not bots["builder"]["search"]
    assert bots["race"]["search"] and bots["race"]["params"] == dict(registry.info("race").params)
    params = {p["param"]: p for p in d["tables"]["search_params"]}
    assert params["rollout"]["default"] == registry.default_rollout() and params["iterations"]["default"] == 64
    text = invoke("bots", "roma").stdout.splitlines()  # the text as it was: a bot's line, its parameters' line
    assert text[0] == "random     uniformly random legal action"
    assert text[2].startswith("           parameters: money_value=0.35, ")
    assert "           rollout=builder: the bot that plays every seat in the playouts" in "\n".join(text)


def test_a_quarantined_comparison_names_the_compare_command_that_plays_its_games_again(folder, tmp_path):
    """verify --quarantine said `simlab run 'simlab compare' --out F --resume` for a folder compare made: no such
    scenario file. It names the comparison now, which plays the moved part's games again into the folder."""
    import shlex
    import shutil

    broken = tmp_path / "broken"
    shutil.copytree(folder, broken)
    part = sorted((broken / "parts").glob("bribe_disc*.parquet"))[0]
    data = bytearray(part.read_bytes())
    data[len(data) // 2] ^= 0xFF
    part.write_bytes(data)
    moved = invoke("verify", str(broken), "--quarantine")
    assert moved.exit_code == 2
    command = moved.stderr.rsplit("play their games again with: ", 1)[1].strip()
    words = shlex.split(command)
    assert words[:2] == ["simlab", "compare"] and words[-2:] == ["--out", str(broken)]
    assert "'simlab compare'" not in moved.stderr
    again = invoke(*words[1:])
    assert again.exit_code == 0, again.output
    d = json.loads(invoke("verify", str(broken), "--json").stdout)
    assert d["ok"] and d["games"] == 200
