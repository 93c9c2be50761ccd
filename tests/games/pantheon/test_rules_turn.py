"""One test per rule of Pantheon's turn, era end and game end (rules page §2-§8), on the position builder."""

from __future__ import annotations

import numpy as np

from simlab.games.pantheon import data as D
from simlab.games.pantheon import rules as R
from simlab.games.pantheon.checks import invariants
from simlab.games.pantheon.position import position

from .helpers import STOP, act, far_hex, geometry, neighbours, play


def chain(**kw):
    base = position(0, players=kw.pop("players", 2))
    return geometry(base)


def owned_gods(st, p):
    s, cf = st.record[0], st.cfg[0]
    return sorted(
        D.GODS[int(cf["tile_god"][t])] for t in range(R.NGOD) if s["god_loc"][t] == R.L_OWNED and s["god_owner"][t] == p
    )


def test_first_foot_next_to_the_temple_never_far_away_and_never_on_a_column_space():
    _t, f, c = chain()
    st = position(0, players=2, hands={0: {"movement": 2}})
    play(st, R.A_MOVE, act("count", 2))
    legal = st.legal_actions()
    assert act("foot", f) in legal
    assert act("foot", far_hex(st, f)) not in legal
    assert all(act("foot", h) not in legal for h in range(int(st.cfg[0]["n_hex"])) if st.cfg[0]["column_space"][h])
    assert act("col", c) not in legal  # a column needs an own foot beside it
    play(st, act("foot", f))
    assert act("col", c) in st.legal_actions()


def test_placing_on_a_hex_with_another_players_piece_costs_one_step_more():
    _t, f, _c = chain()
    st = position(0, players=2, hands={0: {"movement": 1}}, pieces={1: {"feet": [f]}})
    play(st, R.A_MOVE, act("count", 1), act("foot", f))
    assert st.record[0]["steps_left"] == 3 - 2


def test_at_most_two_pieces_a_hex_and_never_two_of_one_player():
    _t, f, _c = chain(players=3)
    st = position(0, players=3, hands={0: {"movement": 2}}, pieces={1: {"feet": [f]}, 2: {"feet": [f]}})
    play(st, R.A_MOVE, act("count", 2))
    assert act("foot", f) not in st.legal_actions()
    st = position(1, players=3, hands={1: {"movement": 2}}, pieces={1: {"feet": [f]}})
    play(st, R.A_MOVE, act("count", 2))
    assert act("foot", f) not in st.legal_actions()


def test_every_piece_connects_to_the_temple_through_own_pieces():
    t, f, _c = chain()
    st = position(0, players=2, hands={0: {"movement": 2}})
    outer = [h for h in neighbours(st, f) if h != t and h not in neighbours(st, t) and not st.cfg[0]["column_space"][h]]
    play(st, R.A_MOVE, act("count", 2))
    assert act("foot", outer[0]) not in st.legal_actions()
    play(st, act("foot", f))
    assert act("foot", outer[0]) in st.legal_actions()


def test_old_columns_count_once_reconnected():
    """A column from an earlier era, not joined to the temple, is no base until a foot reconnects it."""
    t, f, c = chain()
    st = position(0, players=2, hands={0: {"movement": 2}}, pieces={0: {"columns": [c]}})
    beyond = [h for h in neighbours(st, c) if h not in (f, t) and h not in neighbours(st, t)]
    beyond = [h for h in beyond if not st.cfg[0]["column_space"][h] and f not in neighbours(st, h)]
    play(st, R.A_MOVE, act("count", 2))
    assert act("foot", beyond[0]) not in st.legal_actions()
    play(st, act("foot", f))
    assert act("foot", beyond[0]) in st.legal_actions()


def test_a_foot_on_a_loot_hex_takes_it_and_it_resolves_after_the_move():
    _t, f, _c = chain()
    st = position(
        0,
        players=2,
        hands={0: {"movement": 1}},
        loot={f: "supply_2_columns", far_hex(position(0, players=2), f): "draw_2"},
    )
    s = st.record[0]
    cols = int(s["stock_cols"][0])
    play(st, R.A_MOVE, act("count", 1), act("foot", f))
    assert s["stock_cols"][0] == cols  # not yet: the move goes on
    play(st, STOP)
    assert s["stock_cols"][0] == cols + 2 and s["loot_hex"][f] == -1


def test_joiners_move_after_the_mover_without_the_big_foot_or_draw_one_card():
    _t, _f, _c = chain(players=3)
    st = position(0, players=3, hands={0: {"movement": 1}, 1: {"movement": 1}, 2: {}})
    play(st, R.A_MOVE, act("count", 1), STOP)
    s = st.record[0]
    assert s["cur"] == 1 and st.decision_name().startswith("movement cards")
    assert set(st.legal_actions()) == {act("count", 1), R.A_JOIN_DRAW}  # no free steps: 0 cards is not a move
    play(st, act("count", 1))
    assert s["steps_left"] == 2
    play(st, STOP)
    assert s["cur"] == 2 and st.legal_actions() == [R.A_JOIN_DRAW]
    play(st, R.A_JOIN_DRAW)
    assert s["hand"][2].sum() == 1 and s["cur"] == 1 and s["big_foot"] == -1


def test_vinthrad_and_steps_tiles_add_steps_and_allow_moving_without_cards():
    _t, _f, _c = chain()
    st = position(1, players=2, gods={0: ["Vinthrad"]}, steps_tiles={0: 1}, hands={1: {}})
    play(st, R.A_MOVE, act("count", 0), STOP)  # seat 1 moves with the big foot alone
    assert st.record[0]["cur"] == 0
    assert act("count", 0) in st.legal_actions()
    play(st, act("count", 0))
    assert st.record[0]["steps_left"] == 2


def test_gaiviles_jump_over_an_opponent_in_a_move_but_not_in_a_purchase():
    t, f, _c = chain()
    st = position(
        0, players=2, gods={0: ["Gaiviles"]}, hands={0: {"movement": 1, "money 1": 3}}, pieces={1: {"feet": [f]}}
    )
    outer = [h for h in neighbours(st, f) if h != t and h not in neighbours(st, t) and not st.cfg[0]["column_space"][h]]
    play(st, R.A_MOVE, act("count", 1))
    assert act("jump", f) in st.legal_actions() and act("foot", outer[0]) not in st.legal_actions()
    play(st, act("jump", f))
    assert act("foot", outer[0]) in st.legal_actions() and st.record[0]["steps_left"] == 3
    buy = position(0, players=2, gods={0: ["Gaiviles"]}, hands={0: {"money 1": 3}}, pieces={1: {"feet": [f]}})
    play(buy, R.A_BUY, R.A_MONEY, R.A_MONEY)
    assert not any(R.ACTIONS.decode(a).family == "jump" for a in buy.legal_actions())


def test_stonkus_money_in_purchases_without_cards():
    st = position(0, players=2, gods={0: ["Stonkus"]}, hands={0: {}})
    assert R.A_BUY in st.legal_actions()
    play(st, R.A_BUY)
    assert st.record[0]["money_left"] == 1


def test_a_foot_placed_in_a_purchase_takes_the_loot_unless_configured_not_to():
    _t, f, _c = chain()
    for takes in (True, False):
        st = position(
            0,
            players=2,
            hands={0: {"money 1": 1}},
            loot={f: "supply_2_feet", 0: "draw_2"},
            overrides={"purchase_takes_loot": takes},
        )
        feet = int(st.record[0]["stock_feet"][0])
        play(st, R.A_BUY, R.A_MONEY, act("foot", f), STOP)
        assert (st.record[0]["loot_hex"][f] == -1) == takes
        assert st.record[0]["stock_feet"][0] == feet - 1 + (2 if takes else 0)


def test_draw_action_three_cards_plus_one_per_gadicea_display_refilled():
    st = position(0, players=2, gods={0: ["Gadicea"]}, hands={0: {}})
    play(st, R.A_DRAW)
    s = st.record[0]
    assert s["draws_left"] == 4
    play(st, act("slot", 0), act("slot", 0), R.A_DECK)
    assert s["display"][0] >= 0 and s["cur"] == 0
    play(st, R.A_DECK)
    assert s["hand"][0].sum() == 4 and s["cur"] == 1


def test_surparit_takes_one_more_god_but_never_a_chain():
    st = position(
        0,
        players=2,
        face_up=[("Surparit", 4, 1), "Vinthrad"],
        god_stack_top=["Surparit", "Stonkus"],
        hands={0: {"dancers": 4, "temples": 1}},
    )
    play(st, R.A_GOD, act("slot", 0), act("kind", D.DANCERS), act("kind", D.TEMPLES))
    s = st.record[0]
    assert s["points"][0] == 2 and owned_gods(st, 0) == []  # two Surparit, both boxed, no third god
    st = position(
        0,
        players=2,
        face_up=[("Surparit", 4, 1), "Vinthrad"],
        god_stack_top=["Stonkus"],
        hands={0: {"dancers": 4, "temples": 1}},
    )
    play(st, R.A_GOD, act("slot", 0), act("kind", D.DANCERS), act("kind", D.TEMPLES))
    assert st.record[0]["points"][0] == 2 and owned_gods(st, 0) == ["Stonkus"]


def test_plaesiris_by_the_god_action_takes_face_up_demigods_else_face_down():
    st = position(
        0,
        players=2,
        face_up=[("Plaesiris", 4, 1), "Vinthrad"],
        demigods_up=[6, 5],
        hands={0: {"dancers": 4, "temples": 1}},
    )
    play(st, R.A_GOD, act("slot", 0), act("kind", D.DANCERS), act("kind", D.TEMPLES))
    s = st.record[0]
    assert s["demi_own"][0, 6] == 1 and s["demi_own"][0, 5] == 1 and s["demi_up_n"] == 0
    st = position(
        0,
        players=2,
        god_stack_top=["Plaesiris"],
        demigods_up=[6, 5],
        hands={0: {"movement": 1}},
        loot={chain()[1]: "god", 0: "draw_2"},
    )
    play(st, R.A_MOVE, act("count", 1), act("foot", chain()[1]), STOP)
    s = st.record[0]
    assert s["demi_up_n"] == 2 and s["demi_own"][0].sum() == 2 and s["demi_own"][0, 4:].sum() == 0  # low ones on top


def test_taksator_takes_the_top_special_money_and_an_empty_stack_gives_only_points():
    st = position(0, players=2, face_up=[("Taksator", 3, 1), "Vinthrad"], hands={0: {"dancers": 3, "temples": 1}})
    play(st, R.A_GOD, act("slot", 0), act("kind", D.DANCERS), act("kind", D.TEMPLES))
    assert st.record[0]["hand"][0, R.C_MONEY1 + 1] == 1  # a 2: the ascending stack's top
    st = position(
        0, players=2, face_up=[("Taksator", 3, 1), "Vinthrad"], hands={0: {"dancers": 3, "temples": 1}}, special=[]
    )
    play(st, R.A_GOD, act("slot", 0), act("kind", D.DANCERS), act("kind", D.TEMPLES))
    assert st.record[0]["hand"][0].sum() == 0 and st.record[0]["points"][0] == 1


def test_pietalte_takes_cards_only_and_scores_the_highest_level():
    st = position(
        0,
        players=2,
        face_up=["Pietalte", "Vinthrad"],
        tiles={0: {"dancers": 3}},
        hands={0: {"dancers": 0, "priests": 2, "gifts": 1}},
    )
    assert R.A_GOD not in st.legal_actions()  # the L3 dancer tile does not count
    st = position(
        0,
        players=2,
        era=3,
        face_up=["Vinthrad"],
        gods={1: ["Pietalte", "Pietalte"]},
        tiles={1: {"dancers": 4, "gifts": 1}},
        hands={0: {"dancers": 4, "temples": 1}},
    )
    p1 = int(st.record[0]["points"][1])
    play(st, R.A_GOD, act("slot", 0), act("kind", D.DANCERS), act("kind", D.TEMPLES))
    assert st.record[0]["points"][1] == p1 + 2 * 4


def test_era_end_gives_3_to_the_ender_passes_the_temple_left_sends_feet_home_and_keeps_columns():
    _t, f, c = chain(players=3)
    st = position(
        1,
        players=3,
        face_up=[("Vinthrad", 4, 1)],
        hands={1: {"dancers": 4, "temples": 1}},
        pieces={0: {"feet": [f], "columns": [c]}},
    )
    s = st.record[0]
    feet = int(s["stock_feet"][0])
    play(st, R.A_GOD, act("slot", 0), act("kind", D.DANCERS), act("kind", D.TEMPLES))
    assert s["era"] == 2 and s["points"][1] == 1 + 3
    assert s["start_player"] == 2 and s["cur"] == 2
    assert s["stock_feet"][0] == feet + 1 and s["occ"][c, 0] == 0 and s["occ_col"][c, 0] == 1
    assert s["f_era_ends"][1] == 1


def test_the_last_loot_taken_in_a_move_ends_the_era_after_the_joiners_and_the_mover_scores_3():
    _t, f, _c = chain()
    st = position(0, players=2, hands={0: {"movement": 1}, 1: {"movement": 1}}, loot={f: "draw_2"})
    play(st, R.A_MOVE, act("count", 1), act("foot", f), STOP)
    s = st.record[0]
    assert s["era"] == 1 and s["cur"] == 1  # the joiner still moves
    play(st, act("count", 1), STOP)
    assert s["era"] == 2 and s["points"][0] == 3 and s["points"][1] == 0


def test_traitera_owned_at_the_turn_start_gives_one_more_action_then_is_boxed():
    st = position(0, players=2, gods={0: ["Traitera"]}, hands={0: {}})
    play(st, R.A_DRAW, R.A_DECK, R.A_DECK, R.A_DECK)
    assert st.decision_name() == "use Traitera"
    play(st, R.A_TRAITERA)
    assert st.legal_actions()[0] == R.A_MOVE and owned_gods(st, 0) == []
    play(st, R.A_DRAW, R.A_DECK, R.A_DECK, R.A_DECK)
    assert st.record[0]["cur"] == 1 and st.record[0]["hand"][0].sum() == 6


def test_deck_and_discard_empty_every_player_hands_in_all_cards():
    c = position(0, players=2).config
    everything = [c.movement_cards - c.display_cards, *c.sacrifice_cards, c.money_cards]  # but the display
    st = position(0, players=2, hands={0: {}, 1: everything + [0] * 4}, deck=[], discard={})
    s = st.record[0]
    assert s["deck_n"] == 0 and s["discard"].sum() == 0 and (s["display"] == R.C_MOVE).all()
    invariants(s, st.config)
    play(st, R.A_DRAW, R.A_DECK)
    assert s["hand"][1].sum() == 0 and s["hand"][0].sum() == 1 and s["f_handins"] == 1
    invariants(s, st.config)


def test_ties_go_to_the_most_demigod_tiles_then_are_shared():
    for extra_tile, ranks in ((True, [1, 2]), (False, [1, 1])):
        demis = {0: [1, 1], 1: [2]} if extra_tile else {0: [1], 1: [1]}
        st = position(
            0,
            players=2,
            era=6,
            face_up=[("Vinthrad", 4, 1)],
            hands={0: {"dancers": 4, "temples": 1}},
            demigods=demis,
            points={0: 0, 1: 9},
        )
        play(st, R.A_GOD, act("slot", 0), act("kind", D.DANCERS), act("kind", D.TEMPLES))
        s = st.record[0]
        assert st.is_terminal() and s["points"][0] == s["points"][1]
        assert s["rank"][:2].tolist() == ranks


def test_persia_sorts_the_special_money_descending_for_the_rest_of_the_game():
    st = position(
        0, players=2, face_up=[("Vinthrad", 4, 1)], hands={0: {"dancers": 4, "temples": 1}}, next_nation="Persia"
    )
    s = st.record[0]
    play(st, R.A_GOD, act("slot", 0), act("kind", D.DANCERS), act("kind", D.TEMPLES))
    assert s["nation"] == D.PERSIA and s["special"][int(s["special_n"]) - 1] == 5


def test_roma_each_player_draws_two_from_the_deck():
    hands = {0: {"dancers": 4, "temples": 1}, 1: {}}
    st = position(0, players=2, face_up=[("Vinthrad", 4, 1)], hands=hands, next_nation="Roma")
    s = st.record[0]
    play(st, R.A_GOD, act("slot", 0), act("kind", D.DANCERS), act("kind", D.TEMPLES))
    assert s["nation"] == D.ROMA and s["hand"][0].sum() == 2 and s["hand"][1].sum() == 2


def test_era_setup_reveals_players_plus_one_gods_and_loot_on_the_symbol_spaces_in_use():
    for players in (2, 3, 4):
        st = position(0, players=players, face_up=[("Vinthrad", 4, 1)], hands={0: {"dancers": 4, "temples": 1}})
        play(st, R.A_GOD, act("slot", 0), act("kind", D.DANCERS), act("kind", D.TEMPLES))
        s, cf = st.record[0], st.cfg[0]
        assert sum(1 for t in s["god_face"] if t >= 0) == players + 1
        nat = int(s["nation"])
        used = {int(h) for h, m in zip(cf["symbols"][nat], cf["symbol_min"][nat], strict=True) if m <= players}
        assert {int(h) for h in np.flatnonzero(s["loot_hex"] >= 0)} == used and len(used) == players + 1
