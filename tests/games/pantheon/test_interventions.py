"""Pantheon's experiment knobs (start_god, start_points, extra_start_feet) and the fact counters the rules keep:
each a worked check against the control game of the same seed, or a scripted position."""

from __future__ import annotations

import numpy as np
import pytest

from simlab.core.errors import ConfigError
from simlab.games.pantheon import data as D
from simlab.games.pantheon import rules as R
from simlab.games.pantheon.config import GOD_KEYS
from simlab.games.pantheon.game import GAME
from simlab.games.pantheon.position import position

from .helpers import STOP, act, geometry, play


def _start(seed: int, players: int = 2, **overrides):
    return GAME.new_state(GAME.make_config(players=players, overrides=overrides), seed)


def _god_order(s) -> list[int]:
    """Every god tile not yet gained, in the stack's original order from the bottom (the face-up ones were its
    top, revealed face[0] first)."""
    face = [int(t) for t in s["god_face"] if t >= 0]
    return [int(t) for t in s["god_stack"][: int(s["god_n"])]] + face[::-1]


def _no_god_bonus(s, players: int) -> bool:
    lt = D.loot_types()
    return all(lt.effect[int(s["f_bonus_tile"][p])] != D.GOD for p in range(players))


def test_god_keys_are_the_gods_in_order():
    assert tuple(g.lower() for g in D.GODS) == GOD_KEYS


def test_start_god_gives_the_topmost_tile_of_the_god_and_leaves_the_rest_of_the_stack_in_order():
    for seed in range(40):
        control = _start(seed).record[0]
        if _no_god_bonus(control, 2):
            break
    treated = _start(seed, start_god="stonkus", start_god_seat=1).record[0]
    tiles = GAME.kernel.config_record(GAME.make_config(players=2))[0]["tile_god"]
    owned = [t for t in range(R.NGOD) if treated["god_loc"][t] == R.L_OWNED and treated["god_owner"][t] == 1]
    assert [int(tiles[t]) for t in owned] == [R.STONKUS]
    order = _god_order(control)
    top_stonkus = [t for t in order if tiles[t] == R.STONKUS][-1]
    assert owned == [top_stonkus]
    assert _god_order(treated) == [t for t in order if t != top_stonkus]
    assert treated["f_gods_route"][1, R.STONKUS, R.R_GIVEN] == 1 and treated["f_gods_era"][1, 0] == 1
    gained = int(treated["points"][1]) - int(control["points"][1])
    assert gained == GAME.make_config().bonus_god_era_points  # era points as a god before era 1
    assert treated["f_points_src"][1, R.P_GODS] - control["f_points_src"][1, R.P_GODS] == gained


def test_a_given_surparit_takes_one_more_god_and_a_given_plaesiris_gives_two_face_down_demigods():
    seed = 3
    control = _start(seed).record[0]
    s = _start(seed, start_god="surparit", start_god_seat=0).record[0]
    assert s["f_gods_route"][0, R.SURPARIT, R.R_GIVEN] == 1
    assert s["f_gods_route"][0, :, R.R_SURPARIT].sum() == 1
    assert s["f_gods_era"][0, 0] - control["f_gods_era"][0, 0] == 2
    p = _start(seed, start_god="plaesiris", start_god_seat=1).record[0]
    assert p["demi_own"][1].sum() - control["demi_own"][1].sum() == 2
    assert p["f_gods_route"][1, R.PLAESIRIS, R.R_GIVEN] == 1


def test_start_points_and_extra_start_feet_offset_only_the_given_seat():
    for seed in (0, 1, 2):
        control = _start(seed, players=3).record[0]
        s = _start(seed, players=3, start_points=(0, 5, 0, 0), extra_start_feet=(0, 0, 2, 0)).record[0]
        assert (s["points"][:3] - control["points"][:3]).tolist() == [0, 5, 0]
        assert (s["score"][:3] - control["score"][:3]).tolist() == [0, 5, 0]
        assert (s["stock_feet"][:3] - control["stock_feet"][:3]).tolist() == [0, 0, 2]
        assert (s["supply_feet"][:3] - control["supply_feet"][:3]).tolist() == [0, 0, -2]
        assert np.array_equal(s["hand"], control["hand"]) and np.array_equal(s["god_stack"], control["god_stack"])


def test_experiment_knobs_default_to_the_rulebook_and_refuse_bad_values():
    config = GAME.make_config()
    assert config.start_god_index() == (-1, -1)
    assert config.start_points == (0, 0, 0, 0) and config.extra_start_feet == (0, 0, 0, 0)
    assert GAME.make_config(overrides={"start_god": "stonkus"}).start_god_index() == (-1, -1)  # nobody
    with pytest.raises(ConfigError, match="start_god must be 'none' or one of surparit"):
        GAME.make_config(overrides={"start_god": "zeus", "start_god_seat": 0})
    with pytest.raises(ConfigError, match="start_god_seat"):
        GAME.make_config(players=2, overrides={"start_god": "stonkus", "start_god_seat": 2})
    with pytest.raises(ConfigError, match=r"extra_start_feet\[1\] = 9 leaves seat 1 with 13 feet"):
        GAME.make_config(overrides={"extra_start_feet": (0, 9, 0, 0)})
    with pytest.raises(ConfigError, match="start_points needs 4 values"):
        GAME.make_config(overrides={"start_points": (1, 2)})


def test_an_era_ended_by_the_last_face_up_god_and_one_ended_by_the_last_loot_are_told_apart():
    st = position(1, players=3, face_up=[("Vinthrad", 4, 1)], hands={1: {"dancers": 4, "temples": 1}})
    play(st, R.A_GOD, act("slot", 0), act("kind", D.DANCERS), act("kind", D.TEMPLES))
    s = st.record[0]
    assert s["era"] == 2 and s["f_era_end_by"][0] == R.END_GODS
    assert s["f_gods_route"][1, R.VINTHRAD, R.R_ACTION] == 1 and s["f_gods_era"][1, 1] == 1
    assert s["f_played"][1, 1 + D.DANCERS] == 4 and s["f_played"][1, 1 + D.TEMPLES] == 1
    _t, f, _c = geometry(position(0, players=2))
    st = position(0, players=2, hands={0: {"movement": 1}, 1: {"movement": 1}}, loot={f: "draw_2"})
    turns = int(st.record[0]["f_era_turns"][0])
    play(st, R.A_MOVE, act("count", 1), act("foot", f), STOP, act("count", 1), STOP)
    s = st.record[0]
    assert s["era"] == 2 and s["f_era_end_by"][0] == R.END_LOOT and s["f_era_turns"][0] == turns + 1
    assert s["f_points_src"][0, R.P_ERA_END] == 3 and s["f_played"][0, R.C_MOVE] == 1


def test_gods_by_loot_by_gallia_and_by_bonus_tile_are_counted_by_route():
    _t, f, _c = geometry(position(0, players=2))
    st = position(0, players=2, god_stack_top=["Plaesiris"], hands={0: {"movement": 1}}, loot={f: "god", 0: "draw_2"})
    play(st, R.A_MOVE, act("count", 1), act("foot", f), STOP)
    assert st.record[0]["f_gods_route"][0, R.PLAESIRIS, R.R_LOOT] == 1
    st = position(
        0, players=2, phase="gallia", nation="Gallia", god_stack_top=[("Gadicea", 5, 1)], hands={0: {"dancers": 5}}
    )
    play(st, R.A_GALLIA_FLIP, act("kind", D.DANCERS))
    assert st.record[0]["f_gods_route"][0, R.GADICEA, R.R_GALLIA] == 1
    god_bonus = [t for t, e in enumerate(D.loot_types().effect) if e == D.GOD]
    for seed in range(200):
        s = _start(seed).record[0]
        seats = [p for p in range(2) if int(s["f_bonus_tile"][p]) in god_bonus]
        if seats:
            break
    assert seats, "no god bonus tile in 200 seeds"
    p = seats[0]
    assert s["f_gods_route"][p, :, R.R_BONUS].sum() == 1 and s["f_gods_era"][p, 0] >= 1
    assert all(int(s["f_bonus_tile"][q]) >= 0 for q in range(2))  # every seat's bonus tile is recorded


def test_a_scoring_records_the_columns_on_the_board_and_the_points_by_source():
    """The rulebook's scoring example (11 + demigods 3 + 2 + five columns at 2 each = 26), by source."""
    cf = position(1, players=2, era=3, face_up=[(3, 1)], loot={}).cfg[0]
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
    before = st.record[0]["f_points_src"].copy()
    play(st, R.A_GOD, act("slot", 0), act("kind", D.DANCERS), act("kind", D.TEMPLES))
    s = st.record[0]
    gained = s["f_points_src"] - before
    assert gained[0, R.P_DEMIGODS] == 5 and gained[0, R.P_COLUMNS] == 10 and gained[0, R.P_PIETALTE] == 0
    assert gained[1, R.P_GODS] == 3 and gained[1, R.P_ERA_END] == 3
    assert s["f_scorings"] == 1 and s["f_cols_scored"][0, 0] == 5 and s["f_cols_scored"][1, 0] == 0
    assert s["f_points_era"][0, 2] == 26 and s["f_points_era"][1, 2] == 6


def test_draws_count_cards_into_the_hand_and_an_empty_god_stack_reshuffles_the_box():
    st = position(0, players=2, hands={0: {}})
    s = st.record[0]
    before = int(s["f_drawn"][0].sum())
    play(st, R.A_DRAW, R.A_DECK, act("slot", 0), R.A_DECK)
    assert int(s["f_drawn"][0].sum()) == before + 3 == before + int(s["hand"][0].sum())
    _t, f, _c = geometry(position(0, players=2))
    # every face-down god in the box: the stack is empty
    st = position(0, players=2, hands={0: {"movement": 1}}, loot={f: "god", 0: "draw_2"}, god_stack=[])
    s = st.record[0]
    play(st, R.A_MOVE, act("count", 1), act("foot", f), STOP)
    assert s["f_god_reshuffles"] == 1 and s["f_gods"][0] >= 1


def test_an_era_nobody_ends_stops_at_the_turn_limit_with_no_era_end_bonus():
    """No rule ends an era in which nobody takes the last loot or god: ``era_turn_limit`` does, so play that
    never takes them still ends; the era's end is told apart and nobody scores its +3."""
    st = position(0, players=2, overrides={"era_turn_limit": 4})
    before = int(st.record[0]["f_era_turns"][0])
    assert before < 4
    for _ in range(4 - before):
        assert st.record[0]["era"] == 1
        play(st, R.A_DRAW, R.A_DECK, R.A_DECK, R.A_DECK)
    s = st.record[0]
    assert s["era"] == 2 and s["f_era_end_by"][0] == R.END_TURN_LIMIT and s["f_era_turns"][0] == 4
    assert s["f_points_src"][:, R.P_ERA_END].sum() == 0 and s["f_era_ends"].sum() == 0
    unlimited = position(0, players=2, overrides={"era_turn_limit": 0})
    for _ in range(6):
        play(unlimited, R.A_DRAW, R.A_DECK, R.A_DECK, R.A_DECK)
    assert unlimited.record[0]["era"] == 1
