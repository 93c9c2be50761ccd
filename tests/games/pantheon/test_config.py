"""Pantheon's config: player counts validated with a clear error, the start-stock variant, presets."""

from __future__ import annotations

import pytest

from simlab.core.errors import ConfigError
from simlab.games.pantheon.config import PantheonConfig


@pytest.mark.parametrize("players", [1, 5])
def test_players_outside_two_to_four_are_refused(players):
    with pytest.raises(ConfigError, match="players must be 2 to 4"):
        PantheonConfig(players=players)


def test_start_stock_is_three_columns_four_feet_by_the_rulebook():
    assert PantheonConfig(players=2).stock() == (4, 3)


@pytest.mark.parametrize(("players", "stock"), [(2, (6, 5)), (3, (5, 4)), (4, (4, 3))])
def test_start_stock_by_player_count_variant(players, stock):
    assert PantheonConfig(players=players, start_stock_by_player_count=True).stock() == stock


def test_presets_and_provenance():
    assert PantheonConfig.from_preset("draft").bonus_draft
    assert PantheonConfig.from_preset("bsw").start_stock_by_player_count
    sources = {row["name"]: row["source"] for row in PantheonConfig.provenance()}
    assert sources["sacrifice_tile_cost"] == "placeholder"
    assert sources["traitera_after_era_end"] == "assumption"


def test_sacrifice_costs_must_rise():
    with pytest.raises(ConfigError, match="must rise"):
        PantheonConfig(sacrifice_tile_cost=(1, 3, 3, 10))


def test_unknown_table_and_missing_map_are_clear_errors():
    with pytest.raises(ConfigError, match="god_tiles: unknown table 'nope'"):
        PantheonConfig(god_tiles="nope")
    from simlab.core.errors import DataFileError

    with pytest.raises(DataFileError, match="not found"):
        PantheonConfig(map_file="/nonexistent/map.json")
