"""Roma's checks, found by the contract suite (see ``simlab.core.checks`` for the protocol).

Invariants after every action: the 52 cards by type and the 36 VP are conserved, counts are never
negative, the dice show 1..6 when they are in play, the VP by source add up; a finished game is scored
as the rulebook says. Hidden information: a seat cannot see the other seat's hand, the cards passed to
it in the opening (``pass_buf``), the deck order, nor — before the cards are revealed at the end of the
opening — what the other seat laid face down.
"""

from __future__ import annotations

from collections.abc import Collection

import numpy as np

from simlab.games.roma import rules as R


def invariants(s: np.void, config) -> None:
    """Component conservation and rule bounds of Roma on one state record."""
    ph = int(s["phase"])
    # 52 cards by type: draw pile, discard pile, hands, both sides, cards being passed, drawn or relayed
    cards = (
        np.bincount(s["deck"][: int(s["deck_n"])], minlength=R.NCARDS)
        + s["discard"]
        + s["hand"].sum(0)
        + s["pass_buf"].sum(0)
        + np.bincount(s["board"][s["board"] >= 0], minlength=R.NCARDS)
    )
    if ph == R.PH_DRAWKEEP:
        cards = cards + np.bincount(s["drawn"][: int(s["drawn_n"])], minlength=R.NCARDS)
    if ph == R.PH_RELAY:
        cards = cards + s["relay"]
    assert cards.tolist() == list(config.card_copies), f"cards {cards.tolist()}"
    assert s["hand"].sum(1).tolist() == s["hand_n"].tolist(), "hand_n out of step"
    # 36 VP: players and stockpile (plus what an empty stockpile credited in full at the very end)
    assert int(s["vp"].sum()) + int(s["stock"]) == config.total_vp + int(s["minted"]), "VP not conserved"
    assert int(s["minted"]) == 0 or ph == R.PH_OVER, "VP minted before the end"
    for field in ("vp", "money", "hand", "discard", "pass_buf", "relay", "essedum", "blocked", "stock", "minted"):
        assert (s[field] >= 0).all(), f"negative {field}"
    assert ((s["board"] >= -1) & (s["board"] < R.NCARDS)).all()
    if not config.bribe_disc:
        assert (s["board"][:, R.BRIBE] == -1).all(), "a card on the bribe space without the variant"
    n_dice = config.action_dice
    assert ((s["dice"][:n_dice] >= 1) & (s["dice"][:n_dice] <= 6)).all() or ph in (R.PH_SWAP, R.PH_OPENING, R.PH_OVER)
    assert s["f_vp"].sum() + s["f_start_vp"].sum() - s["f_vp_lost_empty"].sum() - s["f_vp_lost_taken"].sum() == (
        s["vp"].sum()
    ), "VP by source do not add up"
    if ph == R.PH_OVER:
        assert s["cur"] == -1 and s["end_reason"] > 0
        final(s, config)
    else:
        assert 0 <= s["cur"] < 2 and s["end_reason"] == 0
        assert (s["vp"] > 0).all() and s["stock"] > 0, "the game should have ended"
        assert (s["rank"] == 0).all()


def final(s: np.void, config) -> None:
    """The score is the final VP; more VP wins, a tie is a draw."""
    assert s["score"].tolist() == s["vp"].tolist()
    a, b = int(s["vp"][0]), int(s["vp"][1])
    shares = [0.5, 0.5] if a == b else ([1.0, 0.0] if a > b else [0.0, 1.0])
    assert s["share"].tolist() == shares
    reason = int(s["end_reason"])
    if reason == 1:
        assert s["stock"] == 0
    elif reason == 2:
        assert (s["vp"] == 0).any()
    else:
        assert config.max_turns > 0 and s["turns"] == config.max_turns


def hidden_fields(s: np.void, player: int) -> Collection[str]:
    """Hands, cards being passed and the deck order; the face-down cards on the discs until revealed."""
    hidden = {"hand", "deck", "pass_buf"}
    if int(s["revealed"]) == 0:
        hidden.add("board")
    return hidden


def determinized(orig, det, player: int) -> None:
    """determinize keeps the player's hand and passed cards, hand sizes, occupied spaces, the player's own
    face-down cards, and the cards the player cannot see."""
    a, b = orig.record[0], det.record[0]
    q = 1 - player
    assert (a["hand"][player] == b["hand"][player]).all()
    assert (a["hand_n"] == b["hand_n"]).all() and (b["hand"].sum(1) == b["hand_n"]).all()
    assert (a["pass_buf"][player] == b["pass_buf"][player]).all()
    assert a["deck_n"] == b["deck_n"]
    assert ((a["board"] >= 0) == (b["board"] >= 0)).all()
    if int(a["revealed"]) == 0:
        assert (a["board"][player] == b["board"][player]).all()
    dn = int(a["deck_n"])

    def unseen(s):
        pool = np.bincount(s["deck"][:dn], minlength=R.NCARDS) + s["hand"][q] + s["pass_buf"][q]
        if int(a["revealed"]) == 0:
            pool = pool + np.bincount(s["board"][q][s["board"][q] >= 0], minlength=R.NCARDS)
        return pool

    assert (unseen(a) == unseen(b)).all(), "unseen cards changed"


def resampled(orig, det, player: int) -> bool:
    a, b = orig.record[0], det.record[0]
    q = 1 - player
    return not (np.array_equal(a["hand"][q], b["hand"][q]) and np.array_equal(a["deck"], b["deck"]))
