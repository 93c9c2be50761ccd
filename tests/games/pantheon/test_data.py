"""Pantheon's data tables against the rules page (``shared/rules/pantheon.md`` §1-§7): the stated totals and
numbers, the placeholders exactly as proposed, provenance on every row, and one broken table per check."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from simlab.core.errors import ConfigError, DataFileError, SimlabError
from simlab.games.pantheon import data as D
from simlab.games.pantheon.table_loader import PROVENANCES

# --- stated totals and numbers --------------------------------------------------------------------------------


def test_action_deck_has_16_movement_44_sacrifice_15_money():  # §2
    counts = D.card_counts()
    assert counts.tolist() == [16, 11, 11, 11, 11, 15]
    assert counts.sum() == 75
    assert D.card_values()[D.MOVEMENT] == 2  # 2 steps per movement card
    assert D.card_values()[D.MONEY_1] == 1


def test_special_money_is_two_2s_two_3s_two_4s_one_5_ascending():  # §2
    assert D.special_money_stack().tolist() == [2, 2, 3, 3, 4, 4, 5]


def test_sacrifice_tiles_8_per_kind_and_costs_1_3_6_10():  # §3
    assert D.sacrifice_tile_counts().tolist() == [[4, 4]] * 4
    assert D.sacrifice_tile_counts().sum() == 32
    assert D.sacrifice_costs().tolist() == [0, 1, 3, 6, 10]
    # the rulebook's upgrade example: 1 -> 3 costs 5
    assert D.sacrifice_costs()[3] - D.sacrifice_costs()[1] == 5


def test_god_catalogue_colours_and_timings():  # §4.1
    colour, timing = D.god_colour(), D.god_timing()
    yellow = {D.GODS[g] for g in range(10) if colour[g] == D.YELLOW}
    assert yellow == {"Surparit", "Plaesiris", "Taksator", "Traitera"}
    # BSW's owned-gods display lists exactly these seven as kept in front of a player
    kept = {D.GODS[g] for g in range(10) if timing[g] != D.IMMEDIATE}
    assert kept == {"Vinthrad", "Stonkus", "Gadicea", "Gaiviles", "Pietalte", "Traitera", "Depraccus"}
    assert timing[D.TRAITERA] == D.ONCE


def tile_multiset(tiles: D.GodTiles) -> Counter:
    return Counter(
        (D.GODS[g], int(a), tuple(int(x) for x in req if x))
        for g, a, req in zip(tiles.god, tiles.amount, tiles.requirement, strict=True)
    )


def test_even_god_tiles_are_the_rules_page_placeholder():  # §4.3, tile by tile
    expected = Counter(
        {
            ("Surparit", 1, (4, 1)): 2, ("Surparit", 1, (3, 2)): 2,
            ("Plaesiris", 1, (4, 1)): 2, ("Plaesiris", 1, (3, 2)): 1, ("Plaesiris", 1, (3, 1, 1)): 1,
            ("Taksator", 1, (3, 1)): 2, ("Taksator", 1, (2, 2)): 1, ("Taksator", 1, (2, 1, 1)): 1,
            ("Traitera", 1, (4, 2)): 1, ("Traitera", 1, (4, 1, 1)): 1, ("Traitera", 1, (3, 2, 1)): 1,
            ("Traitera", 1, (2, 2, 2, 1)): 1,
            ("Depraccus", 1, (4, 1)): 1, ("Depraccus", 1, (3, 2)): 1, ("Depraccus", 1, (3, 1, 1)): 1,
            ("Depraccus", 1, (2, 2, 1)): 1,
            ("Vinthrad", 1, (4, 1)): 2, ("Vinthrad", 1, (3, 2)): 1, ("Vinthrad", 1, (2, 2, 1)): 1,
            ("Gaiviles", 1, (4, 1)): 1, ("Gaiviles", 1, (3, 2)): 1, ("Gaiviles", 1, (3, 1, 1)): 1,
            ("Gaiviles", 1, (2, 2, 1)): 1,
            ("Stonkus", 1, (4, 1)): 1, ("Stonkus", 1, (3, 2)): 1, ("Stonkus", 2, (5, 1)): 1, ("Stonkus", 2, (4, 2)): 1,
            ("Gadicea", 1, (5, 1)): 2, ("Gadicea", 1, (5, 2)): 1, ("Gadicea", 1, (5,)): 1,
            ("Pietalte", 1, (3, 2, 1)): 4,
        }
    )  # fmt: skip
    tiles = D.god_tiles("even")
    assert tile_multiset(tiles) == expected
    assert tiles.counts().tolist() == [4] * 10
    assert tiles.requirement.shape == (40, 4)
    assert (tiles.n_groups == (tiles.requirement > 0).sum(axis=1)).all()
    assert (tiles.n_groups == 4).any()  # §4.2: a requirement may have four groups
    assert (tiles.cards_only.astype(bool) == (tiles.god == D.PIETALTE)).all()
    assert (tiles.requirement[tiles.god == D.GADICEA, 0] == 5).all()  # Gadicea's known top number


def test_permanent_weighted_god_tiles_favour_permanent_gods():
    tiles = D.god_tiles("permanent_weighted")
    counts = tiles.counts()
    assert counts.sum() == 40
    permanent = D.god_timing() == D.PERMANENT
    assert counts[permanent].min() > counts[~permanent].max()
    assert (tiles.timing == D.god_timing()[tiles.god]).all()


def test_demigods_21_in_both_tables():  # §5
    assert D.demigod_counts("default").tolist() == [0, 4, 4, 4, 3, 3, 3]
    assert D.demigod_counts("triangular").tolist() == [0, 6, 5, 4, 3, 2, 1]
    for name in D.DEMIGOD_TABLES:
        values = D.demigod_values(name)
        assert len(values) == 21 and values.min() == 1 and values.max() == 6
        assert (np.diff(values) >= 0).all()


def test_loot_40_and_bonus_6_as_the_placeholder():  # §6
    lt = D.loot_types()
    assert D.loot_counts().sum() == 40 and D.bonus_counts().sum() == 6
    loot = dict(zip(D.LOOT_TYPES, lt.loot.tolist(), strict=True))
    bonus = dict(zip(D.LOOT_TYPES, lt.bonus.tolist(), strict=True))
    assert loot == {
        "supply_2_columns": 4, "supply_2_feet": 4, "supply_column_foot": 4, "demigod": 6, "god": 5, "column": 0,
        "sacrifice_1": 4, "sacrifice_2": 2, "draw_2": 3, "draw_3": 2, "money_card": 3, "steps_1": 2, "steps_2": 1,
    }  # fmt: skip
    assert {k for k, v in bonus.items() if v} == {"demigod", "god", "column", "sacrifice_2", "money_card", "steps_1"}
    supply = lt.effect == D.SUPPLY
    assert lt.columns[supply].tolist() == [2, 0, 1] and lt.feet[supply].tolist() == [0, 2, 1]
    assert lt.amount[D.LOOT_TYPES.index("draw_3")] == 3 and lt.amount[D.LOOT_TYPES.index("steps_2")] == 2


def test_nations_and_their_abilities():  # §8
    ability, amount = D.nation_ability(), D.nation_amount()
    hand_to = D.NATION_ABILITIES.index("hand_to")
    assert {D.NATIONS[k] for k in range(8) if ability[k] == hand_to} == {"Germania", "Graecia"}
    assert amount[D.GERMANIA] == 7 and amount[D.CARTAGO] == 2 and amount[D.ROMA] == 2 and amount[D.GALLIA] == 2
    assert D.NATION_ABILITIES[ability[D.PERSIA]] == "money_descending"


def test_column_scoring_and_the_rulebook_example():  # §7
    assert D.column_points_each().tolist() == [0, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4]
    assert D.column_score()[12] == 48
    # 11 points before + demigods 3 + 2 + 5 columns x 2 = +15
    assert 11 + 3 + 2 + D.column_score()[5] == 26


def test_era_points_and_constants():  # §7, §8
    assert D.era_points().tolist() == [0, 1, 2, 3, 4, 5, 6]
    assert D.constant("era_end_bonus") == 3
    assert (D.constant("first_scoring_era"), D.constant("second_scoring_era")) == (3, 6)
    assert (D.constant("start_columns"), D.constant("start_feet"), D.constant("start_hand")) == (3, 4, 5)
    with pytest.raises(KeyError, match="known"):
        D.constant("no_such_number")


def test_accessors_return_read_only_int32():
    arrays = [
        D.card_counts(), D.card_values(), D.special_money_stack(), D.sacrifice_costs(), D.sacrifice_tile_counts(),
        D.god_requirement_matrix(), D.god_counts(), D.god_colour(), D.god_timing(), D.demigod_counts(),
        D.demigod_values(), D.loot_counts(), D.bonus_counts(), D.nation_ability(), D.nation_amount(),
        D.column_points_each(), D.column_score(), D.era_points(),
    ]  # fmt: skip
    for a in arrays:
        assert a.dtype == np.int32
        assert not a.flags.writeable


# --- provenance ----------------------------------------------------------------------------------------------


def test_every_row_of_every_table_has_a_provenance():
    tables = D.all_tables()
    assert len(tables) == 14
    for name, t in tables.items():
        for i, row in enumerate(t.rows):
            assert row["provenance"] in PROVENANCES, (name, i)
            for field in row:
                assert t.provenance(i, field) in PROVENANCES


def test_provenance_as_the_rules_page_gives_it():
    costs = D.sacrifice_cost_table()
    assert [costs.provenance(i) for i in range(4)] == ["rulebook", "rulebook", "rulebook", "placeholder"]
    cards = D.action_cards()
    assert {r["card"]: r["provenance"] for r in cards.rows} == {
        "movement": "rulebook", "gifts": "derived", "priests": "derived", "dancers": "derived", "temples": "derived",
        "money_1": "rulebook",
    }  # fmt: skip
    gods = D.god_catalogue()
    traitera = D.GODS.index("Traitera")
    assert gods.provenance(traitera, "colour") == "derived" and gods.provenance(traitera, "timing") == "rulebook"
    for name in D.GOD_TILE_TABLES:
        assert (D.god_tiles(name).provenance == PROVENANCES.index("placeholder")).all()
    for name in D.DEMIGOD_TABLES:
        assert {r["provenance"] for r in D.demigod_table(name).rows} == {"placeholder"}
    assert {r["provenance"] for r in D.sacrifice_tiles().rows} == {"derived"}
    loot = D.loot_types().table
    column = D.LOOT_TYPES.index("column")
    assert loot.provenance(column, "loot") == "rulebook" and loot.provenance(column, "bonus") == "placeholder"
    assert set(D.placeholder_tables()) >= {"sacrifice_costs", "loot_bonus", "god_tiles:even", "demigods:default"}
    assert "action_cards" not in D.placeholder_tables()


# --- broken tables -------------------------------------------------------------------------------------------


def bundled(name: str) -> dict:
    return json.loads((D.TABLES_DIR / name).read_text(encoding="utf-8"))


def write(tmp_path: Path, doc: dict | str, name: str = "table.json") -> Path:
    path = tmp_path / name
    path.write_text(doc if isinstance(doc, str) else json.dumps(doc), encoding="utf-8")
    return path


def test_god_counts_not_summing_to_40(tmp_path):
    doc = bundled("god_tiles_even.json")
    doc["rows"][0]["count"] -= 1
    path = write(tmp_path, doc, "gods39.json")
    with pytest.raises(DataFileError, match=r"gods39\.json: field 'count': the counts sum to 39; the game has 40"):
        D.god_tiles(path)


def test_unknown_god_name(tmp_path):
    doc = bundled("god_tiles_even.json")
    doc["rows"][3]["god"] = "Zeus"
    with pytest.raises(
        DataFileError, match=r"row 3 \(god='Zeus'\), field 'god': got 'Zeus'; allowed: one of 'Surparit'"
    ):
        D.god_tiles(write(tmp_path, doc))


def test_missing_field(tmp_path):
    doc = bundled("god_tiles_even.json")
    del doc["rows"][5]["requirement"]
    with pytest.raises(DataFileError, match=r"table\.json: row 5 \(god='Taksator'\): missing field 'requirement'"):
        D.god_tiles(write(tmp_path, doc))


def test_missing_provenance(tmp_path):
    doc = bundled("demigods_default.json")
    del doc["rows"][2]["provenance"]
    with pytest.raises(DataFileError, match=r"row 2 \(value=3\): missing field 'provenance' \(one of rulebook"):
        D.demigod_table(write(tmp_path, doc))


def test_unknown_provenance(tmp_path):
    doc = bundled("demigods_default.json")
    doc["rows"][0]["provenance"] = "guess"
    with pytest.raises(DataFileError, match=r"row 0 \(value=1\), field 'provenance': got 'guess'; allowed: rulebook"):
        D.demigod_table(write(tmp_path, doc))


def test_field_provenance_names_unknown_field(tmp_path):
    doc = bundled("demigods_default.json")
    doc["rows"][0]["field_provenance"] = {"colour": "rulebook"}
    with pytest.raises(DataFileError, match=r"field_provenance'.*unknown field 'colour'"):
        D.demigod_table(write(tmp_path, doc))


def test_unknown_field(tmp_path):
    doc = bundled("god_tiles_even.json")
    doc["rows"][0]["cout"] = 2
    with pytest.raises(DataFileError, match="unknown field 'cout'; allowed fields: god, amount"):
        D.god_tiles(write(tmp_path, doc))


def test_requirement_with_five_groups(tmp_path):
    doc = bundled("god_tiles_even.json")
    doc["rows"][0]["requirement"] = [1, 1, 1, 1, 1]
    with pytest.raises(DataFileError, match=r"field 'requirement': got .*allowed: a list of 1 to 4 integers"):
        D.god_tiles(write(tmp_path, doc))


def test_demigods_not_summing_to_21(tmp_path):
    doc = bundled("demigods_triangular.json")
    doc["rows"][0]["count"] = 5
    with pytest.raises(DataFileError, match="the counts sum to 20; the game has 21 demigods"):
        D.demigod_table(write(tmp_path, doc))


def test_demigod_value_twice(tmp_path):
    doc = bundled("demigods_default.json")
    doc["rows"][1]["value"] = 1
    with pytest.raises(DataFileError, match=r"row 1 \(value=1\): duplicate; row 0 has it"):
        D.demigod_table(write(tmp_path, doc))


def test_loot_and_bonus_totals(tmp_path):
    doc = bundled("loot_bonus.json")
    doc["rows"][0]["loot"] += 1
    with pytest.raises(DataFileError, match="field 'loot': the counts sum to 41; the game has 40 loot tiles"):
        D.loot_types(write(tmp_path, doc, "loot.json"))
    doc = bundled("loot_bonus.json")
    doc["rows"][0]["bonus"] = 1
    with pytest.raises(DataFileError, match="field 'bonus': the counts sum to 7; the game has 6 bonus tiles"):
        D.loot_types(write(tmp_path, doc, "bonus.json"))


def test_missing_loot_type(tmp_path):
    doc = bundled("loot_bonus.json")
    removed = doc["rows"].pop(0)
    doc["rows"][1]["loot"] += removed["loot"]
    with pytest.raises(DataFileError, match="field 'type': no row for 'supply_2_columns'"):
        D.loot_types(write(tmp_path, doc))


def test_action_cards_not_75(tmp_path):
    doc = bundled("action_cards.json")
    doc["rows"][0]["count"] = 15
    with pytest.raises(DataFileError, match="the counts sum to 74; the game has 75 action cards"):
        D.action_cards(write(tmp_path, doc))


def test_card_effect_must_match_its_type(tmp_path):
    doc = bundled("action_cards.json")
    doc["rows"][1]["sacrifice_kind"] = "priests"
    with pytest.raises(
        DataFileError, match=r"row 1 \(card='gifts'\): expected effect 'sacrifice' and sacrifice_kind 'gifts'"
    ):
        D.action_cards(write(tmp_path, doc))


def test_sacrifice_costs_must_rise(tmp_path):
    doc = bundled("sacrifice_costs.json")
    doc["rows"][3]["cost"] = 6
    with pytest.raises(DataFileError, match=r"field 'cost': got \[1, 3, 6, 6\] by level; costs must rise"):
        D.sacrifice_cost_table(write(tmp_path, doc))


def test_column_bands_must_cover_1_to_12(tmp_path):
    doc = bundled("column_scoring.json")
    doc["rows"][1]["max_columns"] = 6
    with pytest.raises(DataFileError, match=r"bands: column totals \[7\] are covered \[0\] times"):
        D.column_scoring(write(tmp_path, doc))


def test_unknown_table_name_wrong_kind_and_bad_json(tmp_path):
    with pytest.raises(DataFileError, match="unknown; bundled names: even, permanent_weighted"):
        D.god_tiles("weighted")
    with pytest.raises(DataFileError, match="field 'table': got 'demigods'; expected 'god_tiles'"):
        D.god_tiles(D.TABLES_DIR / "demigods_default.json")
    with pytest.raises(DataFileError, match=r"broken\.json: line 1 column \d+: not valid JSON"):
        D.god_tiles(write(tmp_path, '{"table": "god_tiles", "rows": [', "broken.json"))
    with pytest.raises(DataFileError, match="not found"):
        D.god_tiles(tmp_path / "absent.json")


def test_empty_source_means_the_bundled_default():  # a config's '' = "the shipped table"
    assert (D.loot_counts("") == D.loot_counts()).all()
    assert (D.god_counts("") == D.god_counts("even")).all()
    assert (D.demigod_counts("") == D.demigod_counts("default")).all()


def test_data_file_error_is_a_config_error_the_cli_prints():
    assert issubclass(DataFileError, ConfigError) and issubclass(DataFileError, SimlabError)
