"""Pantheon's invariants (after every action of random games), hidden fields and determinize checks."""

from __future__ import annotations

from collections import Counter

import numpy as np

from simlab.games.pantheon import rules as R


def _board_pieces(s, p: int, column: int) -> int:
    occ, col = s["occ"], s["occ_col"]
    return int(np.sum((occ == p) & (col == column)))


def invariants(s, config) -> None:
    n = config.players
    c = config
    # 48 columns and 48 feet across supply, stocks and board
    for p in range(n):
        cols = int(s["supply_cols"][p]) + int(s["stock_cols"][p]) + _board_pieces(s, p, 1)
        feet = int(s["supply_feet"][p]) + int(s["stock_feet"][p]) + _board_pieces(s, p, 0)
        assert cols == c.columns_per_player, f"seat {p}: {cols} columns, expected {c.columns_per_player}"
        assert feet == c.feet_per_player, f"seat {p}: {feet} feet, expected {c.feet_per_player}"
        for f in ("supply_cols", "stock_cols", "supply_feet", "stock_feet"):
            assert s[f][p] >= 0, f"seat {p}: negative {f}"
        assert np.all(s["hand"][p] >= 0), f"seat {p}: negative hand count"
        assert np.all((s["level"][p] >= 0) & (s["level"][p] <= 4)), f"seat {p}: sacrifice level outside 0..4"
    occ = s["occ"]
    for h in range(occ.shape[0]):
        a, b = int(occ[h, 0]), int(occ[h, 1])
        assert not (a < 0 and b >= 0), f"hex {h}: second place filled before the first"
        assert a < 0 or a != b, f"hex {h}: two pieces of seat {a}"
    assert s["money_left"] >= 0, "negative money in a purchase"
    assert s["steps_left"] >= 0, "negative steps"
    # 40 gods: stack, face-up, owners, box (one place each)
    loc = s["god_loc"]
    stack = [int(t) for t in s["god_stack"][: int(s["god_n"])]]
    assert sorted(stack) == sorted(int(t) for t in np.flatnonzero(loc == R.L_STACK)), "god stack and locations differ"
    face = [int(t) for t in s["god_face"] if t >= 0]
    assert sorted(face) == sorted(int(t) for t in np.flatnonzero(loc == R.L_FACE)), "face-up gods and locations differ"
    assert all((s["god_owner"][t] >= 0) == (loc[t] == R.L_OWNED) for t in range(R.NGOD)), "god owner mismatch"
    assert int(np.sum(loc == R.L_FLIPPED)) <= 1 and (int(np.sum(loc == R.L_FLIPPED)) == 0 or s["gtile"] >= 0)
    # 21 demigods
    values = Counter(int(v) for v in s["demi_down"][: int(s["demi_down_n"])])
    values.update(int(v) for v in s["demi_up"][: int(s["demi_up_n"])])
    for v in range(R.NVAL):
        values[v] += int(s["demi_box"][v]) + int(np.sum(s["demi_own"][:, v]))
    values = Counter({k: v for k, v in values.items() if v})
    from simlab.games.pantheon import data as D

    expected = Counter(int(v) for v in D.demigod_values(c.demigods))
    assert values == expected, f"demigods {dict(values)} != {dict(expected)}"
    # 40 loot and 6 bonus tiles
    pend = np.bincount(s["pend"][: int(s["pend_n"])], minlength=R.NLOOT)
    board = np.bincount(s["loot_hex"][s["loot_hex"] >= 0], minlength=R.NLOOT)
    loot = s["bag"] + board + s["loot_box"] + s["loot_kept"].sum(axis=0) + (0 if s["pend_bonus"] else pend)
    lt = D.loot_types(c.loot_table or None)
    assert np.array_equal(loot, lt.loot), f"loot tiles {loot.tolist()} != {lt.loot.tolist()}"
    pile = np.bincount(s["bonus_pile"][: int(s["bonus_n"])], minlength=R.NLOOT)
    facing = np.bincount(s["bonus_face"][s["bonus_face"] >= 0], minlength=R.NLOOT)
    bonus = pile + facing + s["bonus_box"] + s["bonus_kept"].sum(axis=0) + (pend if s["pend_bonus"] else 0)
    assert np.array_equal(bonus, lt.bonus), f"bonus tiles {bonus.tolist()} != {lt.bonus.tolist()}"
    # 75 + 7 cards
    cards = np.bincount(s["deck"][: int(s["deck_n"])], minlength=R.NCARD) + s["discard"] + s["hand"].sum(axis=0)
    cards = cards + np.bincount(s["display"][s["display"] >= 0], minlength=R.NCARD)
    for v in s["special"][: int(s["special_n"])]:
        cards[R.C_MONEY1 + int(v) - 1] += 1
    want = np.array([c.movement_cards, *c.sacrifice_cards, c.money_cards, *c.special_money])
    assert np.array_equal(cards, want), f"cards {cards.tolist()} != {want.tolist()}"
    # scores: every point booked to a source
    assert np.array_equal(s["score"][:n], s["points"][:n]), "score and points differ"
    booked = np.asarray(c.start_points[:n]) + s["f_points_src"][:n].sum(axis=1)
    assert np.array_equal(booked, s["points"][:n]), f"start + points by source {booked.tolist()} != points"
    # a Gaiviles jump waits for its landing only within a move (one jump clears one hex)
    if s["jumped"] >= 0:
        assert s["phase"] == R.PH_PLACE and s["in_move"], "a jump waits for its landing outside a move"
        assert s["virt"][s["dp"], s["jumped"]], "the hex jumped does not count as the mover's"
        assert s["steps_left"] > 0, "a jump waits for a landing with no step left"


def hidden_fields(s, player: int) -> list[str]:
    """What ``player`` cannot see: other hands, others' face-down demigods, the order of the god stack, the
    deck, the face-down demigod stack, the nation deck and the bonus pile; and the chance generator."""
    return ["hand", "demi_own", "god_stack", "deck", "demi_down", "nation_deck", "bonus_pile", "rng"]


def determinized(orig, det, player: int) -> None:
    o, d = orig.record[0], det.record[0]
    n = orig.config.players
    assert np.array_equal(o["hand"][player], d["hand"][player]), "own hand changed"
    assert np.array_equal(o["demi_own"][player], d["demi_own"][player]), "own demigods changed"
    for p in range(n):
        assert o["hand"][p].sum() == d["hand"][p].sum(), f"hand size of seat {p} changed"
        assert o["demi_own"][p].sum() == d["demi_own"][p].sum(), f"demigod count of seat {p} changed"
    pool_o = o["hand"][:n].sum(axis=0) + np.bincount(o["deck"][: int(o["deck_n"])], minlength=R.NCARD)
    pool_d = d["hand"][:n].sum(axis=0) + np.bincount(d["deck"][: int(d["deck_n"])], minlength=R.NCARD)
    assert np.array_equal(pool_o, pool_d), "unseen cards changed"
    assert sorted(o["god_stack"][: int(o["god_n"])]) == sorted(d["god_stack"][: int(d["god_n"])]), "god stack changed"


def resampled(orig, det, player: int) -> bool:
    o, d = orig.record[0], det.record[0]
    return any(not np.array_equal(o[f], d[f]) for f in ("hand", "deck", "god_stack", "demi_own", "demi_down"))
