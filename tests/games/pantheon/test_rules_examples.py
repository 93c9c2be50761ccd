"""The rulebook's worked examples (RB-HU pages 7-10, god sheet), set up with the position builder."""

from __future__ import annotations

from simlab.games.pantheon import data as D
from simlab.games.pantheon import rules as R
from simlab.games.pantheon.position import position

from .helpers import STOP, act, geometry, play

DANCERS, PRIESTS, TEMPLES, GIFTS = D.DANCERS, D.PRIESTS, D.TEMPLES, D.GIFTS


def tile(kind, level):
    return act("tile", kind, level - 1)


def money(v):
    return act("money", v - 1)


def test_the_purchase_that_spends_8():
    """Green plays 8 money: L1 dancer + L2 priest (4), a foot and a column from the supply (2), the column on
    a column space already holding a yellow column (2)."""
    base = position(0, players=3)
    _, f, c = geometry(base)
    st = position(
        0,
        players=3,
        hands={0: {"money 5": 1, "money 2": 1, "money 1": 1}},
        pieces={0: {"feet": [f]}, 1: {"columns": [c]}},
        stock={0: (0, 0)},
    )
    s = st.record[0]
    play(st, R.A_BUY, money(5), money(2), money(1))
    assert s["money_left"] == 8
    play(st, tile(DANCERS, 1), tile(PRIESTS, 2))
    assert s["money_left"] == 4
    play(st, R.A_BUY_FOOT, R.A_BUY_COL)
    assert s["money_left"] == 2 and s["stock_feet"][0] == 1 and s["stock_cols"][0] == 1
    assert act("col", c) in st.legal_actions()
    play(st, act("col", c))
    assert s["money_left"] == 0
    assert sorted(s["occ"][c].tolist()) == [0, 1] and s["occ_col"][c].tolist() == [1, 1]
    assert s["level"][0, DANCERS] == 1 and s["level"][0, PRIESTS] == 2
    play(st, STOP)
    assert s["hand"][0].sum() == 0 and s["discard"][R.C_MONEY1 : R.C_MONEY1 + 5].sum() == 3
    assert s["cur"] == 1  # the turn passed on


def test_sacrifice_tile_costs_level_1_is_1_level_3_is_6_upgrade_1_to_3_is_5():
    st = position(0, players=2, hands={0: {"money 5": 1, "money 1": 1}})
    play(st, R.A_BUY, money(5))
    legal = st.legal_actions()
    assert tile(DANCERS, 1) in legal and tile(DANCERS, 3) not in legal  # 5 money: a level 3 costs 6
    play(st, money(1))
    assert tile(DANCERS, 3) in st.legal_actions()
    play(st, tile(DANCERS, 3))
    assert st.record[0]["money_left"] == 0
    up = position(0, players=2, tiles={0: {"temples": 1}}, hands={0: {"money 5": 1}})
    play(up, R.A_BUY, money(5))
    assert tile(TEMPLES, 3) in up.legal_actions() and tile(TEMPLES, 4) not in up.legal_actions()
    play(up, tile(TEMPLES, 3))
    assert up.record[0]["money_left"] == 0 and up.record[0]["level"][0, TEMPLES] == 3


def test_scoring_example_11_plus_demigods_3_2_plus_5_columns_at_2_is_26():
    """Red has 11 points, demigods 3 and 2 and five columns on the board at the first scoring: +15."""
    st = position(1, players=2, era=3, face_up=[(3, 1)], loot={})
    cf = st.cfg[0]
    spaces = [h for h in range(int(cf["n_hex"])) if cf["column_space"][h]][:5]
    st = position(
        1,
        players=2,
        era=3,
        points={0: 11, 1: 0},
        demigods={0: [3, 2]},
        pieces={0: {"columns": spaces}},
        face_up=[(3, 1)],
        hands={1: {"dancers": 3, "temples": 1}},
    )
    play(st, R.A_GOD, act("slot", 0), act("kind", DANCERS), act("kind", TEMPLES))
    s = st.record[0]
    assert s["era"] == 4  # the last face-up god ended era 3; the scoring came between
    assert s["points"][0] == 11 + 5 + 10 == 26
    assert s["points"][1] == 3 + 3  # the god's era points (era 3) and the era-end bonus


def test_god_paid_4_plus_1_with_cards_only():
    st = position(0, players=2, face_up=[("Vinthrad", 4, 1), "Stonkus"], hands={0: {"dancers": 4, "temples": 1}})
    play(st, R.A_GOD, act("slot", 0))
    assert set(st.legal_actions()) == {act("kind", DANCERS)}  # the 4 can only be dancers
    play(st, act("kind", DANCERS))
    assert st.legal_actions() == [act("kind", TEMPLES)]
    play(st, act("kind", TEMPLES))
    s = st.record[0]
    assert s["hand"][0].sum() == 0 and s["f_gods"][0] == 1 and s["points"][0] == 1


def test_god_paid_4_plus_1_with_tiles_only_l4_dancer_and_l2_temple():
    st = position(0, players=2, face_up=[("Vinthrad", 4, 1)], tiles={0: {"dancers": 4, "temples": 2}}, hands={0: {}})
    assert R.A_GOD in st.legal_actions()
    play(st, R.A_GOD, act("slot", 0), act("kind", DANCERS), act("kind", TEMPLES))
    s = st.record[0]
    assert s["f_gods"][0] == 1 and s["level"][0, DANCERS] == 4 and s["level"][0, TEMPLES] == 2  # never spent


def test_god_paid_with_l2_dancer_tile_plus_2_dancer_cards_and_1_temple_card():
    st = position(
        0, players=2, face_up=[("Vinthrad", 4, 1)], tiles={0: {"dancers": 2}}, hands={0: {"dancers": 2, "temples": 1}}
    )
    play(st, R.A_GOD, act("slot", 0), act("kind", DANCERS), act("kind", TEMPLES))
    s = st.record[0]
    assert s["hand"][0].sum() == 0 and s["f_gods"][0] == 1 and s["level"][0, DANCERS] == 2


def test_four_group_god_2_priests_2_dancers_l1_temple_plus_1_card_1_gift():
    st = position(
        0,
        players=2,
        face_up=[(2, 2, 2, 1)],
        tiles={0: {"temples": 1}},
        hands={0: {"priests": 2, "dancers": 2, "temples": 1, "gifts": 1}},
    )
    play(st, R.A_GOD, act("slot", 0))
    play(st, act("kind", PRIESTS), act("kind", DANCERS), act("kind", TEMPLES))
    assert st.legal_actions() == [act("kind", GIFTS)]
    play(st, act("kind", GIFTS))
    s = st.record[0]
    assert s["hand"][0].sum() == 0 and s["f_gods"][0] == 1


def test_four_group_god_is_not_payable_with_three_kinds():
    st = position(0, players=2, face_up=[(2, 2, 2, 1)], hands={0: {"priests": 4, "dancers": 2, "temples": 2}})
    assert R.A_GOD not in st.legal_actions()


def test_gallia_flip_pays_only_the_top_number():
    """Gallia: a flipped Gadicea (5 + 1) is bought with 5 dancers alone; otherwise it is boxed."""
    st = position(
        0, players=2, phase="gallia", nation="Gallia", god_stack_top=[("Gadicea", 5, 1)], hands={0: {"dancers": 5}}
    )
    play(st, R.A_GALLIA_FLIP)
    assert set(st.legal_actions()) == {act("kind", DANCERS), STOP}
    play(st, act("kind", DANCERS))
    s = st.record[0]
    owned = [t for t in range(R.NGOD) if s["god_loc"][t] == R.L_OWNED and s["god_owner"][t] == 0]
    assert [D.GODS[int(st.cfg[0]["tile_god"][t])] for t in owned] == ["Gadicea"]
    assert s["hand"][0, 1 + DANCERS] == 0 and s["points"][0] == 1


def test_gallia_flip_not_bought_is_boxed():
    st = position(
        0, players=2, phase="gallia", nation="Gallia", god_stack_top=[("Gadicea", 5, 1)], hands={0: {"dancers": 4}}
    )
    play(st, R.A_GALLIA_FLIP)
    assert st.legal_actions() == [STOP]
    t = int(st.record[0]["gtile"])
    play(st, STOP)
    assert st.record[0]["god_loc"][t] == R.L_BOX


def test_movement_example_three_steps_foot_foot_column():
    """Red: big foot (1) + 1 movement card (2) = 3 steps: a foot next to the temple, a foot beside it, a column."""
    base = position(0, players=3)
    _, f, c = geometry(base)
    st = position(0, players=3, hands={0: {"movement": 1}})
    play(st, R.A_MOVE)
    assert act("count", 1) in st.legal_actions()
    play(st, act("count", 1))
    s = st.record[0]
    assert s["steps_left"] == 3
    play(st, act("foot", f))
    assert s["steps_left"] == 2
    assert act("col", c) in st.legal_actions()
    play(st, act("col", c))
    assert s["steps_left"] == 1
