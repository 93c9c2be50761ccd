"""Massilia's checks, found by the contract suite (see ``simlab.core.checks`` for the protocol).

Invariants after every action: the 55 cubes, 55 deity cards, penalty tokens, dice and stalls are conserved
and within the board's bounds; a finished game is scored as the rulebook says. Hidden information: a seat
cannot see the other seats' hand cards or the deck order; everything else is public (money, tokens and the
dice behind the screens change only by public actions, so a player with perfect memory knows them).
"""

from __future__ import annotations

from collections.abc import Collection

import numpy as np

from simlab.games.massilia import rules as R

#: record fields a seat cannot see (other hands, deck order); determinize may change only these
HIDDEN_FIELDS = frozenset({"hand", "deck"})


def invariants(s: np.void, config) -> None:
    """Component conservation and rule bounds of Massilia on one state record."""
    n = config.players
    ph = int(s["phase"])
    # 55 cubes by colour: bag, harbours, stalls (and cubes bought but not yet placed)
    cubes = s["bag"] + s["harbour"] + s["cubes"].sum(0)
    if ph == R.PH_PLACE:
        cubes = cubes + s["place_left"]
    assert cubes.tolist() == list(config.cubes_total), f"cubes {cubes.tolist()}"
    assert (s["cubes"].sum(1) <= config.stall_capacity).all(), "a stall holds more than its capacity"
    assert ((s["cubes"].sum(1) == 0) | (s["stall_owner"] >= 0)).all(), "cubes on a space without a stall"
    # 55 deity cards by type: deck, discard pile, hands (and cards drawn, not yet kept or discarded)
    cards = np.bincount(s["deck"][: int(s["deck_n"])], minlength=R.NCARDS) + s["discard"] + s["hand"][:n].sum(0)
    if ph == R.PH_KEEPCARD:
        cards = cards + np.bincount(s["drawn"][int(s["drawn_i"]) : int(s["drawn_n"])], minlength=R.NCARDS)
    assert cards.tolist() == list(config.card_copies), f"cards {cards.tolist()}"
    assert s["hand"][:n].sum(1).tolist() == s["hand_n"][:n].tolist(), "hand_n out of step"
    assert (s["hand_n"][:n] <= config.hand_limit).all(), "hand limit exceeded"
    # penalty tokens
    assert int(s["supply"]) + int(s["tokens"][:n].sum()) == config.tokens_per_player * n
    assert s["supply"] >= 0 and (s["tokens"][:n] >= 0).all()
    # dice by colour: temple, kept, screens, dice of the action being built, rolled dice being decided
    dice = s["temple"].sum(1) + s["kept"][:n].sum((0, 2)) + s["screen"][:n].sum(0)
    dice = dice + np.bincount(s["act_col"][: int(s["act_n"])], minlength=4)
    if ph == R.PH_KEEP:
        dice = dice + np.bincount(s["rolled_col"][int(s["rolled_i"]) : int(s["rolled_n"])], minlength=4)
    assert dice.tolist() == [n + 1] * 4, f"dice {dice.tolist()}"
    for field in ("temple", "kept", "screen", "money", "fame", "cubes", "bag", "harbour", "reserve", "discard"):
        assert (s[field] >= 0).all(), f"negative {field}"
    # stalls: on the market or in reserve; nobody loses their last stall
    for p in range(n):
        on_market = int((s["stall_owner"] == p).sum())
        assert on_market + int(s["reserve"][p]) == config.stalls_per_player
        if ph != R.PH_SETUP:
            assert on_market >= 1, f"seat {p} lost its last stall"
    # bounds of the board
    assert ((s["marker"] >= config.marker_min) & (s["marker"] <= config.marker_max)).all()
    price = s["price"] + s["price_mod"]
    assert ((price >= config.price_min) & (price <= config.price_max)).all()
    assert sorted(s["price"].tolist()) == sorted(config.price_tiles)
    assert ((s["pawn"] >= 0) & (s["pawn"] < config.market_spaces)).all()
    assert 1 <= s["round_no"] <= config.rounds
    if ph == R.PH_OVER:
        assert s["cur"] == -1
        final(s, config)
    else:
        assert 0 <= s["cur"] < n


def final(s: np.void, config) -> None:
    """Final scoring: fame + stall points + sesterces / 3 - 2 per token; ranks and shares follow."""
    n = config.players
    pts = config.stall_points
    for p in range(n):
        stalls = int((s["stall_owner"] == p).sum())
        expected = (
            int(s["fame"][p])
            + pts[min(stalls, len(pts) - 1)]
            + int(s["money"][p]) // config.money_per_point
            - config.token_penalty * int(s["tokens"][p])
        )
        assert s["score"][p] == expected


def hidden_fields(s: np.void, player: int) -> Collection[str]:
    """Other seats' hands and the deck order (the seat's own hand is in ``hand`` too: see ``determinized``)."""
    return HIDDEN_FIELDS


def determinized(orig, det, player: int) -> None:
    """determinize keeps the player's hand, every hand size and the cards the player cannot see."""
    a, b = orig.record[0], det.record[0]
    n = orig.config.players
    assert (a["hand"][player] == b["hand"][player]).all()
    assert (a["hand_n"] == b["hand_n"]).all()
    assert (b["hand"][:n].sum(1) == b["hand_n"][:n]).all()
    dn = int(a["deck_n"])
    assert dn == b["deck_n"]
    others = [q for q in range(n) if q != player]
    pool_a = np.bincount(a["deck"][:dn], minlength=R.NCARDS) + a["hand"][others].sum(0)
    pool_b = np.bincount(b["deck"][:dn], minlength=R.NCARDS) + b["hand"][others].sum(0)
    assert (pool_a == pool_b).all(), "unseen cards changed"


def resampled(orig, det, player: int) -> bool:
    a, b = orig.record[0], det.record[0]
    others = [q for q in range(orig.config.players) if q != player]
    return not (np.array_equal(a["hand"][others], b["hand"][others]) and np.array_equal(a["deck"], b["deck"]))
