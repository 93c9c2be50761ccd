"""The errors a newcomer meets name the word they mistyped and the name they meant (issue 32): an unknown game,
bot, bot parameter, knob, preset or variant says "did you mean", and a knob error no longer lists forty keys
and a class name. The published rules' preset is ``rulebook`` in every game; the old names still work."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner

import simlab
from simlab.cli import cli
from simlab.core.errors import ConfigError
from simlab.core.suggest import close_matches, did_you_mean, unknown_name
from simlab.run.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[1]
GAMES = ["massilia", "merchant_of_venus", "pantheon", "roma"]


def error_of(*args: str) -> str:
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    assert result.exit_code == 2, result.output
    return result.stderr


# -- the matching -----------------------------------------------------------------------------------
def test_close_matches_finds_typos_prefixes_and_nothing_for_noise():
    assert close_matches("start_mony", ["rounds", "start_money", "hand_limit"]) == ["start_money"]
    assert close_matches("Massilia", ["massilia", "roma"]) == ["massilia"]
    assert close_matches("merchant", ["massilia", "merchant_of_venus"]) == ["merchant_of_venus"]
    assert close_matches("zzz", ["massilia", "roma"]) == []
    assert did_you_mean("zzz", ["massilia"]) == ""
    assert did_you_mean("roam", ["roma", "rome"]) == "did you mean 'rome' or 'roma'?"  # difflib's order, best first


def test_a_long_list_is_not_printed_but_the_command_that_prints_it_is_named():
    names = [f"knob_{i}" for i in range(40)]
    message = unknown_name("config key", "knob_7x", names, "simlab config g")
    assert message.startswith("unknown config key 'knob_7x' (did you mean 'knob_7'")
    assert "knob_30" not in message and message.endswith("list all 40 with: simlab config g")
    assert unknown_name("bot", "x", ["a", "b"]) == "unknown bot 'x'; available: a, b"


# -- the commands -----------------------------------------------------------------------------------
def test_unknown_game_says_did_you_mean():
    assert "unknown game 'masillia' (did you mean 'massilia'?)" in error_of("bots", "masillia")


def test_unknown_bot_and_bot_parameter_say_did_you_mean():
    stderr = error_of("play", "massilia", "--bots", "tradr")
    assert "unknown bot 'tradr' for game 'massilia' (did you mean 'trader'?)" in stderr
    stderr = error_of("play", "massilia", "--bots", "trader:token_cots=2")
    assert "no parameter 'token_cots' (did you mean 'token_cost'?)" in stderr


@pytest.mark.parametrize("game", GAMES)
def test_unknown_knob_names_the_key_its_match_and_how_to_list_them(game):
    g = simlab.get_game(game)
    knob = max(g.config_class.field_names(), key=len)
    stderr = error_of("play", game, "--set", f"{knob}x=1")
    assert f"unknown config key '{knob}x' for game '{game}' (did you mean '{knob}'" in stderr
    assert f"with: simlab config {game}" in stderr
    assert g.config_class.__name__ not in stderr  # no class name
    others = [
        k for k in g.config_class.field_names() if k not in close_matches(f"{knob}x", g.config_class.field_names())
    ]
    assert sum(f"'{k}'" in stderr or f" {k}," in stderr for k in others) == 0  # no dump of every key
    assert stderr.count("\n") == 1


def test_unknown_preset_says_did_you_mean():
    assert "unknown preset 'rulebok' for game 'roma' (did you mean 'rulebook'?)" in error_of(
        "config", "roma", "--preset", "rulebok"
    )


def test_unknown_variant_in_a_scenario_says_did_you_mean():
    scenario = load_scenario(ROOT / "scenarios" / "quickstart.toml")
    with pytest.raises(simlab.SimlabError, match=r"unknown variant 'quined' \(did you mean 'quined2014'\?\)"):
        scenario.variant("quined")


# -- one name for the published rules ---------------------------------------------------------------
@pytest.mark.parametrize("game", GAMES)
def test_every_game_calls_the_published_rules_rulebook(game):
    cls = simlab.get_game(game).config_class
    assert cls.DEFAULT_PRESET == "rulebook" and "rulebook" in cls.PRESETS


@pytest.mark.parametrize(("game", "old"), [("roma", "original"), ("merchant_of_venus", "standard")])
def test_old_preset_names_still_work_on_the_command_line_and_in_scenarios(game, old, tmp_path):
    g = simlab.get_game(game)
    assert g.make_config(preset=old) == g.make_config(preset="rulebook")
    result = CliRunner().invoke(cli, ["config", game, "--preset", old], catch_exceptions=False)
    assert result.exit_code == 0 and result.output.startswith(f"{game} ({g.title}), preset rulebook of ")
    listed = CliRunner().invoke(cli, ["games"], catch_exceptions=False).output
    assert f"(old names: {old} = rulebook)" in listed
    text = f'game = "{game}"\nplayers = 2\ngames = 10\nseed = 1\nlineup = ["random", "random"]\npreset = "{old}"\n'
    (tmp_path / "old.toml").write_text(text)
    assert load_scenario(tmp_path / "old.toml").variants[0].config == g.make_config(preset="rulebook", players=2)


def test_merchant_of_venus_scenarios_call_their_base_what_the_preset_is_called():
    cls = simlab.get_game("merchant_of_venus").config_class
    for path in sorted((ROOT / "scenarios").glob("mov_*.toml")):
        data = tomllib.loads(path.read_text())
        for name, variant in data.get("variants", {}).items():
            preset = variant.get("preset", data.get("preset", cls.DEFAULT_PRESET))
            assert preset in cls.PRESETS, f"{path.name}: variant {name} uses the old preset name {preset!r}"
            if name == "rulebook":
                assert preset == "rulebook", f"{path.name}: variant rulebook plays preset {preset!r}"
            if preset == "rulebook" and not variant.get("set"):  # the published rules: the base of the run
                assert name in ("rulebook", "control"), f"{path.name}: the rulebook's variant is called {name!r}"


def test_unknown_preset_is_a_config_error_naming_the_game():
    with pytest.raises(ConfigError, match=r"^unknown preset 'bws' for game 'pantheon' \(did you mean 'bsw'\?\)"):
        simlab.get_game("pantheon").make_config(preset="bws")
