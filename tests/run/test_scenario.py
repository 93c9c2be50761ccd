"""Scenario files: the shipped ones load, and every bad input names the file, key, expectation and value."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import SMALL

from simlab.core.errors import SimlabError
from simlab.run.errors import ScenarioError
from simlab.run.scenario import load_scenario, parse_scenario, replay_settings

SCENARIOS = sorted((Path(__file__).parents[2] / "scenarios").glob("*.toml"))


def test_scenario_error_is_a_simlab_error():
    assert issubclass(ScenarioError, SimlabError)


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.name)
def test_shipped_scenarios_load(path):
    sc = load_scenario(path)
    prefixes = {"roma_": "roma", "mov_": "merchant_of_venus", "pantheon_": "pantheon"}
    game = next((g for prefix, g in prefixes.items() if path.stem.startswith(prefix)), "massilia")
    assert sc.game == game and sc.games > 0 and sc.variants
    assert sc.rotate, "shipped scenarios rotate their lineup so bot strength is not read as seat advantage"


def test_shipped_scenarios_cover_the_questions():
    names = {p.stem for p in SCENARIOS}
    assert {"quickstart", "seats_and_money", "starting_money_sweep", "market_shifts", "card_value"} <= names
    market = load_scenario(Path(SCENARIOS[0]).parent / "market_shifts.toml")
    assert market.variant("flat_prices").config.price_tiles == (2, 2, 2, 2)
    sweep = load_scenario(Path(SCENARIOS[0]).parent / "starting_money_sweep.toml")
    assert len({v.config.start_money for v in sweep.variants}) == len(sweep.variants) > 3
    cards = load_scenario(Path(SCENARIOS[0]).parent / "card_value.toml")
    from simlab.games.massilia.data import CARDS

    assert {v.config.bonus_card for v in cards.variants} == {"none", *CARDS}
    roma = load_scenario(Path(SCENARIOS[0]).parent / "roma_card_value.toml")
    from simlab.games.roma.data import CARD_KEYS

    assert {(v.config.bonus_card, v.config.bonus_card_seat) for v in roma.variants} >= {
        (k, s) for k in CARD_KEYS for s in (0, 1)
    }
    assert {v.config.start_money for v in roma.variants} == {(0, 0), (3, 0), (0, 3)}


def test_small_scenario_fields(write_scenario):
    sc = load_scenario(write_scenario())
    assert sc.name == "small" and sc.players == 4 and sc.games == 60 and sc.seed == 42 and sc.chunk_size == 25
    assert sc.variant_names == ["rulebook", "quined2014"]
    assert sc.variant("quined2014").config.start_money[:4] == (5, 6, 7, 8)
    assert sc.seat_bots(0) == ["trader", "random", "random", "priest"]
    assert sc.seat_bots(1) == ["priest", "trader", "random", "random"]
    assert [sc.rotation(i) for i in range(6)] == [0, 1, 2, 3, 0, 1]


def test_fixed_bots_do_not_rotate():
    sc = parse_scenario(SMALL.replace("lineup =", "bots ="))
    assert not sc.rotate and sc.rotation(3) == 0 and sc.seat_bots(sc.rotation(3)) == sc.seat_bots(0)


def test_no_variants_means_one_default_variant():
    text = SMALL.split("[variants.rulebook]")[0]
    sc = parse_scenario(text)
    assert sc.variant_names == ["rulebook"]


def test_base_set_applies_to_every_variant_and_variants_override_it():
    text = SMALL.replace("[variants.rulebook]", "set = { rounds = 5 }\n\n[variants.rulebook]")
    text += "\n[variants.short]\nset = { rounds = 3 }\n"
    sc = parse_scenario(text)
    assert sc.variant("rulebook").config.rounds == 5
    assert sc.variant("quined2014").config.rounds == 5
    assert sc.variant("short").config.rounds == 3


def test_replay_settings_list_only_changes_from_the_preset():
    text = SMALL + "\n[variants.rich]\nset = { start_money = [9, 6, 6, 6], marker_drop_per_cube = false }\n"
    sc = parse_scenario(text)
    from simlab import get_game

    game = get_game("massilia")
    assert replay_settings(game, sc.variant("quined2014")) == ("quined2014", {})
    assert replay_settings(game, sc.variant("rich")) == (
        "rulebook",
        {"start_money": "9,6,6,6", "marker_drop_per_cube": "false"},
    )


def test_identity_ignores_game_count_and_chunk_size():
    a = parse_scenario(SMALL)
    b = parse_scenario(SMALL.replace("games = 60", "games = 600").replace("chunk_size = 25", "chunk_size = 7"))
    assert a.identity() == b.identity()
    c = parse_scenario(SMALL.replace("seed = 42", "seed = 43"))
    assert a.identity() != c.identity()


def test_with_options_validates():
    sc = parse_scenario(SMALL)
    assert sc.with_options(games=5, chunk_size=2).games == 5
    with pytest.raises(ScenarioError, match=r"^--games: expected a positive integer up to 9,999,999,999, found 0$"):
        sc.with_options(games=0)


def _sub(old: str, new: str) -> str:
    assert old in SMALL
    return SMALL.replace(old, new)


BAD = {
    "malformed toml": (
        _sub("players = 4", "players = = 4"),
        r"small\.toml: not valid TOML: line 3, column 11: invalid value",
    ),
    "unclosed array": (_sub('"priest"]', '"priest"'), r"small\.toml: not valid TOML: line \d+"),
    "unknown top key": (_sub("games = 60", "gmaes = 60"), r"unknown key 'gmaes'; expected one of: name,"),
    "missing games": (
        _sub("games = 60\n", ""),
        r"key 'games': expected a positive integer up to [0-9,]+, found nothing",
    ),
    "negative games": (
        _sub("games = 60", "games = -5"),
        r"small\.toml: key 'games': expected a positive integer up to [0-9,]+, found -5$",
    ),
    "zero games": (_sub("games = 60", "games = 0"), r"key 'games': expected a positive integer up to [0-9,]+, found 0"),
    "games as text": (
        _sub("games = 60", 'games = "lots"'),
        r"key 'games': expected a positive integer up to [0-9,]+, found \"lots\" \(a string\)",
    ),
    "games as float": (
        _sub("games = 60", "games = 6.5"),
        r"key 'games': expected a positive integer up to [0-9,]+, found 6.5 \(a float\)",
    ),
    "games as bool": (
        _sub("games = 60", "games = true"),
        r"key 'games': expected a positive integer up to [0-9,]+, found true \(a boolean\)",
    ),
    "zero chunk size": (
        _sub("chunk_size = 25", "chunk_size = 0"),
        r"key 'chunk_size': expected a positive integer up to [0-9,]+, found 0",
    ),
    "negative seed": (
        _sub("seed = 42", "seed = -1"),
        r"key 'seed': expected a non-negative integer \(the root seed\), found -1",
    ),
    "unknown game": (
        _sub('game = "massilia"', 'game = "chess"'),
        r"key 'game': unknown game 'chess'; available: .*massilia",
    ),
    "game not a string": (_sub('game = "massilia"', "game = 3"), r"key 'game': expected a game id"),
    "too many players": (
        _sub("players = 4", "players = 5"),
        r"key 'players': expected an integer from 2 to 4 .*found 5",
    ),
    "players as text": (
        _sub("players = 4", 'players = "four"'),
        r"key 'players': expected an integer .*found \"four\"",
    ),
    "unknown bot": (
        _sub('"random", "priest"]', '"random", "wizard"]'),
        r"key 'lineup\[3\]': unknown bot 'wizard' for game 'massilia'; available: random",
    ),
    "bad bot parameter": (
        _sub('"priest"]', '"priest:zeal=3"]'),
        r"key 'lineup\[3\]': bot 'priest' of 'massilia' has no parameter 'zeal'",
    ),
    "bot not a string": (_sub('"priest"]', "7]"), r"key 'lineup\[3\]': expected a bot spec string, found 7"),
    "lineup too short": (
        _sub(', "priest"]', "]"),
        r"key 'lineup': expected an array of 4 strings .*found \[\"trader\", \"random\", \"random\"\] \(an array\)",
    ),
    "bots and lineup": (
        _sub("lineup =", 'bots = ["random", "random", "random", "random"]\nlineup ='),
        r"exactly one of 'bots' .* or 'lineup' .*found both",
    ),
    "no bots": (
        _sub('lineup = ["trader", "random", "random", "priest"]\n', ""),
        r"exactly one of 'bots' .*found neither",
    ),
    "unknown preset": (
        _sub('preset = "quined2014"', 'preset = "deluxe"'),
        r"key 'variants.quined2014' \(variant 'quined2014'\): unknown preset 'deluxe' for game 'massilia'"
        r".*available: rulebook, quined2014",
    ),
    "unknown config key": (
        SMALL + "\n[variants.odd]\nset = { start_cash = 3 }\n",
        r"key 'variants.odd' \(variant 'odd'\): unknown config key 'start_cash' for game 'massilia' "
        r"\(did you mean 'start_money'\?\)",
    ),
    "config wrong type": (
        SMALL + '\n[variants.odd]\nset = { rounds = "many" }\n',
        r"key 'variants.odd' \(variant 'odd'\): config rounds: expected an integer, got 'many'",
    ),
    "config out of range": (
        SMALL + "\n[variants.odd]\nset = { rounds = 99 }\n",
        r"variant 'odd'\): rounds must be 1..12, got 99",
    ),
    "variant changes players": (
        SMALL + "\n[variants.three]\nset = { players = 3 }\n",
        r"key 'variants.three.set.players': variants cannot change the player count .*found players = 3",
    ),
    "base set changes players": (
        _sub("[variants.rulebook]", "set = { players = 3 }\n[variants.rulebook]"),
        r"key 'set.players'",
    ),
    "variant unknown key": (
        SMALL + '\n[variants.odd]\npreset = "rulebook"\nseed = 3\n',
        r"unknown key 'variants.odd.seed'; expected one of: description, preset, set",
    ),
    "variants not a table": (
        SMALL.split("[variants")[0] + "variants = 3\n",
        r"key 'variants': expected a table, found 3",
    ),
    "variant not a table": (
        SMALL.split("[variants")[0] + "variants = { a = 3 }\n",
        r"key 'variants.a': expected a table, found 3",
    ),
    "bad variant name": (
        SMALL + '\n[variants."a b"]\npreset = "rulebook"\n',
        r"key 'variants.a b': expected a variant name",
    ),
    "set not a table": (
        _sub('preset = "quined2014"', 'preset = "quined2014"\nset = 3'),
        r"key 'variants.quined2014.set': expected a table, found 3",
    ),
}


@pytest.mark.parametrize("case", list(BAD), ids=list(BAD))
def test_bad_scenarios_say_file_key_expected_found(case, write_scenario):
    text, pattern = BAD[case]
    path = write_scenario(text)
    with pytest.raises(ScenarioError, match=pattern) as info:
        load_scenario(path)
    assert str(info.value).startswith(f"{path}: "), "every message starts with the file"
    assert "\n" not in str(info.value)


def test_missing_file(tmp_path):
    with pytest.raises(ScenarioError, match=r"nope\.toml: no such scenario file"):
        load_scenario(tmp_path / "nope.toml")


def test_folder_instead_of_file(tmp_path):
    with pytest.raises(ScenarioError, match=r"is a folder; expected a scenario \.toml file"):
        load_scenario(tmp_path)


def test_not_utf8(tmp_path):
    path = tmp_path / "latin.toml"
    path.write_bytes(b'name = "caf\xe9"\n')
    with pytest.raises(ScenarioError, match="cannot read the scenario file"):
        load_scenario(path)
