"""Game configs: presets, key=value overrides with type checks, validation, the stable hash, provenance."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

import simlab
from simlab import available_games, get_game
from simlab.core.config import SOURCES, parse_overrides
from simlab.core.errors import ConfigError
from simlab.games.massilia.config import MassiliaConfig

GAME = get_game("massilia")


def make(preset=None, players=None, **overrides):
    return GAME.make_config(preset=preset, players=players, overrides=overrides)


# -- presets --------------------------------------------------------------------------------------
def test_default_is_the_rulebook():
    c = make()
    assert c == make("rulebook")
    assert c.players == 4 and c.rounds == 7
    assert c.start_money == (6, 6, 6, 6)
    assert c.hand_limit == 4 and c.marker_drop_per_cube is True and c.money_per_point == 3
    assert c.cubes_total == (15, 15, 15, 10) and c.harbour_start == (6, 6, 6, 10)
    assert c.card_copies == (5, 5, 7, 7, 7, 9, 5, 5, 5) and sum(c.card_copies) == 55
    assert c.refill_by_players == (8, 10, 12) and c.setup_stalls_by_players == (2, 1, 1)
    assert c.price_tiles == (1, 2, 2, 3) and c.turn_tiles == (2, 3, 4)
    assert c.stall_points == (0, 0, 4, 9, 16, 25)
    assert (c.keep_die_cost, c.consul_place_cost, c.consul_move_cubes, c.tokens_per_player) == (2, 5, 6, 10)


def test_quined2014_preset():
    q = make("quined2014")
    assert q.start_money == (5, 6, 7, 8)
    assert q.hand_limit == 3
    assert q.marker_drop_per_cube is False
    # everything else as in the rulebook
    changed = {k for k, v in q.as_dict().items() if make().as_dict()[k] != v}
    assert changed == {"start_money", "hand_limit", "marker_drop_per_cube"}
    assert set(GAME.presets()) >= {"rulebook", "quined2014"}


def test_overrides_apply_on_top_of_a_preset():
    c = make("quined2014", players=3, hand_limit="5")
    assert c.players == 3 and c.hand_limit == 5 and c.start_money == (5, 6, 7, 8)


def test_unknown_preset():
    with pytest.raises(ConfigError, match=r"unknown preset 'nope'.*rulebook.*quined2014"):
        make("nope")


def test_unknown_key():
    message = r"unknown config key 'colour' for game 'massilia'; list all \d+ with: simlab config massilia"
    with pytest.raises(ConfigError, match=message):
        make(colour=3)


# -- types ----------------------------------------------------------------------------------------
def test_strings_are_coerced_to_the_declared_types():
    c = make(players="3", start_money="5, 6,7", marker_drop_per_cube="false", fame_must_buy_full="yes")
    assert c.players == 3 and c.start_money == (5, 6, 7)
    assert c.marker_drop_per_cube is False and c.fame_must_buy_full is True
    assert make(start_money=[7, 7, 7, 7]).start_money == (7, 7, 7, 7)


@pytest.mark.parametrize(
    ("key", "value", "message"),
    [
        ("players", "four", "players: expected an integer"),
        ("players", 2.5, "players: expected an integer"),
        ("players", True, "players: expected an integer"),
        ("start_money", "5,six,7,8", "start_money: expected an integer"),
        ("start_money", 6, "start_money: expected a list of int"),
        ("marker_drop_per_cube", "maybe", "marker_drop_per_cube: expected true or false"),
        ("marker_drop_per_cube", 2, "marker_drop_per_cube: expected true or false"),
    ],
)
def test_wrong_type(key, value, message):
    with pytest.raises(ConfigError, match=re.escape(message)):
        make(**{key: value})


# -- ranges ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"players": 5}, "players must be 2, 3 or 4, got 5"),
        ({"players": 1}, "players must be 2, 3 or 4, got 1"),
        ({"start_money": "6,-1,6,6"}, "start_money needs a non-negative value"),
        ({"start_money": "6,6"}, "start_money needs a non-negative value for each of 4 seats"),
        ({"rounds": 0}, "rounds must be"),
        ({"hand_limit": 0}, "hand_limit must be >= 1"),
        ({"keep_die_cost": -2}, "keep_die_cost must be >= 0"),
        ({"price_tiles": "1,2,2,4"}, "price_tiles must lie within"),
        ({"price_tiles": "1,2,3"}, "price_tiles needs 4 values"),
        ({"card_copies": "5,5,5"}, "card_copies needs 9"),
        ({"harbour_start": "16,6,6,10"}, "harbour_start"),
        ({"market_spaces": 10}, "market_spaces must be a multiple of 4"),
        ({"money_per_point": 0}, "money_per_point must be >= 1"),
        ({"marker_start": 4}, "marker_start must be within"),
    ],
)
def test_out_of_range(overrides, message):
    with pytest.raises(ConfigError, match=re.escape(message)):
        make(**overrides)


def test_configs_are_frozen_and_replace_revalidates():
    c = make()
    with pytest.raises(dataclasses.FrozenInstanceError):
        c.players = 3  # type: ignore[misc]
    assert c.replace(players=2).players == 2 and c.players == 4
    with pytest.raises(ConfigError):
        c.replace(players=7)


def test_new_state_rejects_a_foreign_config():
    with pytest.raises(ConfigError, match="MassiliaConfig"):
        GAME.new_state(object(), 0)  # type: ignore[arg-type]


# -- hash -----------------------------------------------------------------------------------------
def test_config_hash_is_stable():
    h = make().config_hash()
    assert re.fullmatch(r"[0-9a-f]{16}", h)
    assert make().config_hash() == h == make("rulebook", players=4).config_hash()
    assert MassiliaConfig().config_hash() == h
    # the same values reached another way hash the same
    explicit = make(start_money="5,6,7,8", hand_limit=3, marker_drop_per_cube=False)
    assert explicit.config_hash() == make("quined2014").config_hash()


@pytest.mark.parametrize("name", available_games())
def test_no_preset_hashes_where_simlab_is_installed(name):
    """A config's hash names a result folder and a golden game on every machine: no field of the default
    or a preset may hold a path into this checkout (Merchant of Venus once hashed its board's absolute path,
    so CI's fresh clone saw another hash)."""
    game = get_game(name)
    here = str(Path(simlab.__file__).resolve().parent.parent)
    for preset in [None, *game.presets()]:
        config = game.make_config(preset)
        for field in dataclasses.fields(config):
            assert here not in str(getattr(config, field.name)), f"{name} {preset}: {field.name} holds a local path"


@pytest.mark.parametrize(
    "overrides",
    [
        {"players": 3},
        {"start_money": "5,6,7,8"},
        {"hand_limit": 3},
        {"money_per_point": 1},
        {"marker_drop_per_cube": False},
        {"stall_points": "0,0,4,9,16,26"},
    ],
)
def test_config_hash_changes_with_any_value(overrides):
    assert make(**overrides).config_hash() != make().config_hash()


# -- provenance and the compiled config -----------------------------------------------------------
def test_every_field_states_its_provenance():
    rows = MassiliaConfig.provenance()
    assert [r["name"] for r in rows] == MassiliaConfig.field_names()
    for r in rows:
        assert r["source"] in SOURCES and r["doc"], r["name"]
    sources = {r["name"]: r["source"] for r in rows}
    assert sources["money_per_point"] == "assumption" and sources["hand_limit"] == "rulebook"


@pytest.mark.parametrize(
    ("players", "refill", "tiles", "setup"), [(2, 8, [2], 2), (3, 10, [2, 3], 1), (4, 12, [2, 3, 4], 1)]
)
def test_config_record_follows_the_player_count(players, refill, tiles, setup):
    cf = GAME.kernel.config_record(make(players=players))[0]
    assert cf["refill"] == refill and cf["setup_stalls"] == setup
    assert cf["turn_tiles"][: players - 1].tolist() == tiles and cf["turn_tiles"][players - 1 :].sum() == 0
    assert sorted(cf["middles"].tolist()) == [2, 6, 10, 14]
    assert [sp for sp in range(16) if cf["is_corner"][sp]] == [0, 1, 3, 4, 5, 7, 8, 9, 11, 12, 13, 15]


def test_parse_overrides():
    assert parse_overrides(["start_money=5,6,7,8", " hand_limit = 3 "]) == {"start_money": "5,6,7,8", "hand_limit": "3"}
    with pytest.raises(ConfigError, match="key=value"):
        parse_overrides(["hand_limit"])


# -- named gaps ------------------------------------------------------------------------------------
def test_a_named_gap_is_listed_off_and_refused_when_set():
    """A part of the game the engine leaves out is a flag that stays False: listed, hash-neutral, refused."""
    from simlab.core.config import knob_table

    mov = get_game("merchant_of_venus")
    gaps = [f for f in dataclasses.fields(mov.config_class) if f.metadata.get("not_modelled")]
    assert {f.name for f in gaps} >= {"pirates_and_relics", "telegates", "pilot_abilities", "jettison"}
    rows = {row["name"]: row for row in knob_table(mov.config_class)}
    assert rows["telegates"]["value"] is False and rows["telegates"]["choices"] == [False]
    default = mov.make_config()
    assert default.replace(telegates=False).config_hash() == default.config_hash()
    with pytest.raises(ConfigError, match=r"telegates is not modelled \(telegate spaces: .*\); leave it false"):
        mov.make_config(overrides={"telegates": "true"})
