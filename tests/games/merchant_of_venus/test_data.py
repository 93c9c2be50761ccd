"""Merchant of Venus data tables (``simlab.games.merchant_of_venus.data``): the rules page's culture table, counts
against the box, provenance on every field, the named alternative tables, int32 arrays, and a DataFileError naming
file, row and field for each kind of broken table."""

from __future__ import annotations

import itertools
import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from simlab.core.errors import DataFileError, SimlabError
from simlab.games.merchant_of_venus import data as D

# The rules page's table (rules/merchant_of_venus.md, "Cultures and goods"):
# number, culture, good, buy, low, active, high, goods tokens, race techs, IOU
RULES_PAGE_TABLE = [
    (1, "Nillis", "Bionic Perfume", 80, 120, 140, 160, 5, 2, 80),
    (2, "Volois", "Voil Silk", 140, 200, 220, 240, 6, 2, 120),
    (3, "Graw", "Space Spice", 30, 60, 80, 100, 6, 3, 90),
    (4, "Niks", "Mulch Wine", 20, 40, 60, 80, 6, 2, 80),
    (5, "Dell", "Finest Dust", 10, 30, 50, 70, 6, 3, 60),
    (6, "Human", "Rock Videos", 120, 180, 200, 220, 5, 2, 90),
    (7, "Shenna", "Melf Pelts", 50, 90, 110, 130, 6, 3, 90),
    (8, "Yxklyx", "Immortal Grease", 50, 80, 100, 120, 6, 2, 100),
    (9, "Zum", "Chicle Liquor", 40, 70, 90, 110, 6, 2, 100),
    (10, "Eeepeeep", "Servo Mechanism", 200, 280, 300, 320, 4, 3, 100),
    (11, "Whynom", "Impossible Furniture", 110, 160, 180, 200, 5, 3, 80),
    (12, "Cholos", "Designer Genes", 60, 100, 120, 140, 6, 2, 90),
    (13, "Wollow", "Megalith Paperweight", 90, 140, 160, 180, 5, 3, 90),
    (14, "Qossuth", "Psychotic Sculpture", 160, 230, 250, 270, 4, 2, 120),
]

DATA = D.DEFAULT_DATA


def test_the_culture_table_is_the_rules_pages():
    got = [(c.number, c.name, c.good, c.buy, *c.resale, c.goods_tokens, c.race_techs, c.iou) for c in DATA.cultures]
    assert got == RULES_PAGE_TABLE


def test_counts_match_the_box():
    assert len(DATA.cultures) == D.N_CULTURES == 14
    assert sum(c.goods_tokens for c in DATA.cultures) == D.TOTAL_GOODS_TOKENS == 76
    assert sum(c.race_techs for c in DATA.cultures) == D.TOTAL_RACE_TECHS == 34
    assert len(DATA.market_tokens) == 3 * 14
    assert [e.name for e in DATA.equipment] == list(D.EQUIPMENT_ITEMS)
    assert len(DATA.race_techs) == 14 and sum(t.copies for t in DATA.race_techs) == 34
    assert len(DATA.passengers) == 15
    assert len(D.load_data(passengers="classic").passengers) == 10


def test_the_seeds_worked_points_hold():
    """Perfume: buy 80, high 160, sold at Volois, Graw, Niks and Dell (the seed's sale example)."""
    nillis = DATA.cultures[0]
    assert nillis.buy == 80 and nillis.resale[D.DEMAND_HIGH] == 160
    assert DATA.buyers[1] == (2, 3, 4, 5)
    assert nillis.provenance["buy"] == nillis.provenance["high"] == "rulebook"
    classic = D.load_data(buyers="classic")
    assert classic.buyers[1] == (3, 4, 5, 6) and classic.buyers_provenance == "proxy"


def test_derived_buyers_are_the_next_four_cultures():
    for n in range(1, 15):
        assert DATA.buyers[n] == tuple((n - 1 + k) % 14 + 1 for k in range(1, 5))


def test_every_row_carries_provenance_for_every_field():
    for name in D.PASSENGER_TABLES:
        data = D.load_data(passengers=name)
        tables = {
            "cultures": (data.cultures, D._CULTURE_FIELDS),
            "techs": (data.race_techs, D._TECH_FIELDS),
            "passengers": (data.passengers, D._PASSENGER_FIELDS),
            "market": (data.market_tokens, ("demand", "equipment")),
            "equipment": (data.equipment, ("price", "effect")),
            "missions": (data.missions, ("kind", "target", "fame", "credits")),
            "encounters": (data.encounters, ("effect", "amount")),
        }
        for table, (rows, fields) in tables.items():
            assert rows, table
            for row in rows:
                assert set(row.provenance) == set(fields), (table, row)
                assert set(row.provenance.values()) <= set(D.PROVENANCE_LEVELS), (table, row)
    # the raw files too: every row of every list table has a provenance object
    for path in sorted(D.DATA_DIR.glob("*.json")):
        if path.name == "board_classic.json":
            continue
        doc = json.loads(path.read_text())
        for key, rows in _list_tables(doc):
            for row in rows:
                assert isinstance(row.get("provenance"), dict), (path.name, key, row)


def _list_tables(doc, prefix=""):
    for key, value in doc.items():
        if key.startswith("_"):
            continue
        if isinstance(value, list) and value and isinstance(value[0], dict):
            yield prefix + key, value
        elif isinstance(value, dict):
            yield from _list_tables(value, prefix + key + ".")


def test_proxy_fields_name_the_non_rulebook_values():
    flagged = DATA.proxy_fields()
    assert "buyers[derived]" in flagged
    assert "cultures[0].buy" not in flagged and "cultures[1].buy" in flagged
    assert "prices[wide]" in D.load_data(prices="wide").proxy_fields()


@pytest.mark.parametrize(("name", "spread"), [("narrow", 10), ("wide", 40), ("flat", 0)])
def test_price_tables_spread_around_the_active_value(name, spread):
    data = D.load_data(prices=name)
    for base, c in zip(DATA.cultures, data.cultures, strict=True):
        active = base.resale[D.DEMAND_ACTIVE]
        assert c.resale == (active - spread, active, active + spread)
        assert c.provenance["low"] == c.provenance["high"] == "placeholder"
        assert c.buy == base.buy


def test_market_tokens_one_of_each_demand_two_equipment_types():
    for n in range(1, 15):
        tokens = [t for t in DATA.market_tokens if t.culture == n]
        assert [t.demand for t in tokens] == [D.DEMAND_LOW, D.DEMAND_ACTIVE, D.DEMAND_HIGH]
        for t in tokens:
            assert t.equipment[0] != t.equipment[1]


def test_seeded_placeholder_tables_are_what_their_recorded_generator_gives():
    market = json.loads((D.DATA_DIR / "market_tokens.json").read_text())
    rng = np.random.default_rng(market["generator"]["seed"])
    pairs = list(itertools.combinations(range(4), 2))
    expected = [pairs[int(p)] for _ in range(14) for p in rng.permutation(6)[:3]]
    assert [t.equipment for t in DATA.market_tokens] == expected

    riders = json.loads((D.DATA_DIR / "passengers.json").read_text())
    rng = np.random.default_rng(riders["generator"]["seed"])
    for p in DATA.passengers:
        origin = int(rng.integers(0, 15))
        dest = int(rng.integers(0, 14))
        dest += dest >= origin
        assert (p.origin, p.destination, p.fare, p.fame) == (
            origin,
            dest,
            int(rng.integers(4, 16)) * 10,
            int(rng.integers(0, 3)),
        )


def test_the_race_tech_placeholders_are_what_their_recorded_generator_gives():
    techs = json.loads((D.DATA_DIR / "race_techs.json").read_text())
    rng = np.random.default_rng(techs["generator"]["seed"])
    cultures = [int(x) + 1 for x in rng.permutation(14)]
    bands = techs["class_bands"]
    for k, t in enumerate(DATA.race_techs):
        lo, hi = bands[D.TECH_CLASSES[k % 3]]
        assert (t.culture, t.tech_class, t.price) == (
            cultures[k],
            k % 3,
            int(rng.integers(lo // 10, hi // 10 + 1)) * 10,
        )


def test_race_techs_as_the_rules_page_models_them():
    effects = [t.effect for t in DATA.race_techs]
    assert effects.count(D.TECH_THRUST_BOOSTER) == 1 and effects.count(D.TECH_FUZZY_DICE) == 1
    by_name = {t.name: t for t in DATA.race_techs}
    assert by_name["Data Probe"].max_owned == 2
    assert all(t.max_owned == 1 for t in DATA.race_techs if t.name != "Data Probe")
    assert sorted(t.culture for t in DATA.race_techs) == list(range(1, 15))  # one kind per culture
    for t in DATA.race_techs:
        lo, hi = {"basic": (10, 40), "premium": (50, 120), "luxury": (130, 200)}[D.TECH_CLASSES[t.tech_class]]
        assert lo <= t.price <= hi
        assert t.copies == DATA.cultures[t.culture - 1].race_techs
        assert t.needs_die == (t.category == "ship_upgrade")


def test_passengers_fares_fame_and_holds():
    for p in DATA.passengers:
        assert 40 <= p.fare <= 150 and 0 <= p.fame <= 2 and p.origin != p.destination
        assert p.holds == (2 if p.name in ("Diva", "Caterer") else 1)
    assert {p.fare for p in D.load_data(passengers="classic").passengers} <= set(range(110, 181, 10))


def test_equipment_prices_and_drives():
    prices = dict(zip(D.EQUIPMENT_ITEMS, DATA.array("item_price").tolist(), strict=True))
    assert prices == {
        "laser": 100, "shield": 60, "hold": 50, "yellow_drive": 80, "red_drive": 120, "combined_drive": 300
    }  # fmt: skip
    assert DATA.array("item_drive").tolist() == [0, 0, 0, D.DRIVE_YELLOW, D.DRIVE_RED, D.DRIVE_COMBINED]
    assert DATA.array("item_type").tolist() == [D.EQ_LASER, D.EQ_SHIELD, D.EQ_HOLD, D.EQ_DRIVE, D.EQ_DRIVE, D.EQ_DRIVE]


def test_arrays_are_read_only_int32_and_agree_with_the_rows():
    for name, arr in DATA.arrays.items():
        assert arr.dtype == np.int32, name
        assert not arr.flags.writeable, name
    assert DATA.array("resale").shape == (14, 3)
    assert DATA.array("resale")[0].tolist() == [120, 140, 160]
    buys = DATA.array("buys_from")
    assert buys.shape == (14, 14) and not np.diag(buys).any()
    assert [np.flatnonzero(buys[a]).tolist() for a in range(14)] == [
        [b - 1 for b in sorted(DATA.buyers[a + 1])] for a in range(14)
    ]
    assert DATA.array("market_equipment").shape == (14, 3, 2)
    ct = DATA.array("culture_tech")
    assert (DATA.array("tech_culture")[ct] == np.arange(1, 15)).all()
    with pytest.raises(KeyError, match="known: buy"):
        DATA.array("nope")


# ---------------------------------------------------------------------------------------------- bad tables
@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    d = tmp_path / "data"
    shutil.copytree(D.DATA_DIR, d)
    return d


def _edit(path: Path, change) -> None:
    doc = json.loads(path.read_text())
    change(doc)
    path.write_text(json.dumps(doc))


def test_the_error_class_is_a_simlab_error():
    assert issubclass(D.DataFileError, SimlabError) and issubclass(DataFileError, ValueError)


@pytest.mark.parametrize(
    ("file", "change", "pattern"),
    [
        ("cultures.json", lambda d: d["cultures"][2].pop("buy"),
         r"cultures\.json: cultures\[2\] \(Graw\): field 'buy' is missing; expected an integer in 1\.\.10000"),
        ("cultures.json", lambda d: d["cultures"][4].update(low="cheap"),
         r"cultures\[4\] \(Dell\): field 'low' = 'cheap'; expected an integer"),
        ("cultures.json", lambda d: d["cultures"].pop(),
         r"cultures\.json: cultures: 13 rows; expected 14"),
        ("cultures.json", lambda d: d["cultures"][3].update(number=15),
         r"cultures\[3\] \(Niks\): field 'number' = 15 is not a known culture; allowed: 1\.\.14"),
        ("cultures.json", lambda d: d["cultures"][0].update(goods_tokens=6),
         r"cultures: field 'goods_tokens' sums to 77; the box holds 76"),
        ("cultures.json", lambda d: d["cultures"][1].update(high=100),
         r"cultures\[1\] \(Volois\): resale low/active/high = 200/220/100; expected low <= active <= high"),
        ("cultures.json", lambda d: d["cultures"][6]["provenance"].update(iou="guess"),
         r"cultures\[6\] \(Shenna\): provenance of 'iou' = 'guess'; allowed: rulebook, derived, proxy, placeholder"),
        ("cultures.json", lambda d: d["cultures"][6].pop("provenance"),
         r"cultures\[6\] \(Shenna\): field 'provenance' is missing"),
        ("proxy_tables.json", lambda d: d["buyers"]["derived"]["lists"]["3"].append(15),
         r"proxy_tables\.json: buyers\[derived\]\.lists\[3\]: buyer 15 is not a known culture other than 3"),
        ("proxy_tables.json", lambda d: d["buyers"]["derived"]["lists"].pop("9"),
         r"buyers\[derived\]\.lists\[9\]: missing or empty"),
        ("market_tokens.json", lambda d: d["tokens"].pop(14),
         r"market_tokens\.json: tokens: culture 5 has tokens \[low, active\]; expected one each of low, active, high"),
        ("market_tokens.json", lambda d: d["tokens"][0].update(equipment=["laser", "laser"]),
         r"tokens\[0\]: field 'equipment' = \['laser', 'laser'\]; expected two different types of laser, shield"),
        ("market_tokens.json", lambda d: d["tokens"][0].update(demand="medium"),
         r"tokens\[0\]: field 'demand' = 'medium'; allowed: low, active, high"),
        ("race_techs.json", lambda d: d["techs"][0].update(copies=9),
         r"race_techs\.json: techs\[0\] \(Thrust Booster\): field 'copies' = 9; culture \d+ has \d race-tech tokens"),
        ("race_techs.json", lambda d: d["techs"][3].update(culture=d["techs"][4]["culture"]),
         r"techs: cultures offering a tech: .*; expected each of 1\.\.14 exactly once"),
        ("race_techs.json", lambda d: d["techs"][5].update(price=999),
         r"techs\[5\] \(Generic Upgrade 3\): field 'price' = 999; expected an integer in"),
        ("passengers.json", lambda d: d["tables"]["seeded"][4].update(destination=d["tables"]["seeded"][4]["origin"]),
         r"passengers\.json: tables\[seeded\]\[4\]: origin and destination are both"),
        ("passengers.json", lambda d: d["tables"]["seeded"][2].update(origin=20),
         r"tables\[seeded\]\[2\]: field 'origin' = 20 is not a known culture; allowed: 0\.\.14 \(0 = Galactic Base\)"),
        ("equipment.json", lambda d: d["items"][1].update(type="cannon"),
         r"equipment\.json: items\[1\] \(shield\): field 'type' = 'cannon'; allowed: laser, shield, hold, drive"),
        ("misc_tables.json", lambda d: d["encounters"][0].update(effect="teleport"),
         r"misc_tables\.json: encounters\[0\]: field 'effect' = 'teleport'; allowed: credits, lose_turn, free_move"),
    ],
)  # fmt: skip
def test_a_broken_table_names_file_row_field_and_what_is_allowed(data_dir, file, change, pattern):
    _edit(data_dir / file, change)
    with pytest.raises(DataFileError, match=pattern):
        D.load_data(data_dir=data_dir)


def test_invalid_json_names_the_line(data_dir):
    (data_dir / "cultures.json").write_text('{\n "cultures": [\n  {"number": 1,,}\n ]\n}')
    with pytest.raises(DataFileError, match=r"cultures\.json: line 3 column 16: not valid JSON"):
        D.load_data(data_dir=data_dir)


def test_a_missing_file_is_named(data_dir):
    (data_dir / "race_techs.json").unlink()
    with pytest.raises(DataFileError, match=r"race_techs\.json: file not found"):
        D.load_data(data_dir=data_dir)


@pytest.mark.parametrize(("kw", "pattern"), [
    ({"buyers": "random"}, r"unknown buyers table 'random'; allowed: derived, classic"),
    ({"prices": "steep"}, r"unknown prices table 'steep'; allowed: standard, narrow, wide, flat"),
    ({"passengers": "vip"}, r"unknown passengers table 'vip'; allowed: seeded, classic"),
])  # fmt: skip
def test_an_unknown_table_name_lists_the_known_ones(kw, pattern):
    with pytest.raises(DataFileError, match=pattern):
        D.load_data(**kw)
