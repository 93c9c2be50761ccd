"""Core's search bot (simlab.core.search) finds a forced win in a small scripted position of Massilia,
Pantheon and Merchant of Venus, written on each game's position builder (as ``tests/core/test_search.py``
does for Pig and Roma): the search seat decides until its turn is over (or, in Massilia, until the game
ends), and it must have won; ``random`` must not win the same position on all of a dozen seeds, so the
position is not won by any play.

Every spec is checked: the default (``ismcts``: the rollout-improvement root, which races the rollout
heuristic's 4 best actions by sequential halving), a wider race and the ISMCTS tree (``candidates=0``).
Each game's heuristic bots win these positions too, so they check that the search keeps a sure win, not
that it beats its rollout bot."""

from __future__ import annotations

from test_search import decide  # the search seat's decision, through the loop with the search

SPECS = ["ismcts", "ismcts:candidates=0,iterations=200", "ismcts:candidates=8,iterations=400"]


def search_turn(game, state, spec: str, opponent: str, seed: int, *, to_the_end: bool = False):
    """Seat 0 plays ``spec`` until its turn is over (or, ``to_the_end``, the game is; seat 1 then plays
    ``opponent``); returns the state."""
    bots = game.make_bots([spec, opponent], 2)
    bot_rng = game.bot_states(seed, 2)
    while not state.is_terminal() and (to_the_end or state.current_player == 0):
        state.apply(decide(game, state, bots[state.current_player], bot_rng))
    return state


def assert_forced_win(won) -> None:
    for spec in SPECS:
        assert all(won(spec, seed) for seed in range(4)), f"{spec} missed the forced win"
    assert not all(won("random", seed) for seed in range(12)), "the position must not be won by any play"


# ==============================================================================================
# Massilia
# ==============================================================================================
def test_massilia_moves_the_purple_customer_to_its_stall():
    """Massilia, 2 players, round 7 (the last), the action phase, seat 0 to act. The temple holds one die,
    a brown 3; nobody holds a kept die or a card, and the seats hold all 20 penalty tokens (-20 points each,
    and the empty supply allows no modifier). Seat 0: fame 10, no money, one stall (space 5) with 2 purple
    cubes; seat 1: fame 14, no money, one stall (space 12) with 1 orange cube. Pawns: consul 6, pink 14,
    orange 9, purple 2; temple price 2, purple marker 3, orange 2.

    Only the brown 3 moving the purple customer clockwise (2 -> 5) wins: it buys both purple cubes for
    2 x 3 = 6 fame and 2 x 2 = 4 sesterces. Seat 1 has no die and passes (tile 2: 2 sesterces), seat 0
    passes last. Seat 0: 16 fame + 0 stall points (one stall) + 4 // 3 - 20 = -3; seat 1: 14 + 2 // 3 - 20
    = -6. Any other move sells nothing (the other customers find no cubes of their colour at seat 0's
    stall, the consul cannot build without 5 sesterces), and passing hands seat 1 the die (the orange
    customer 9 -> 12 sells its cube for 2 fame): seat 0 stays at 10 - 20 = -10 against seat 1's -6 or
    better."""
    from simlab.games.massilia.game import GAME
    from simlab.games.massilia.position import position

    def won(spec: str, seed: int) -> bool:
        state = position(
            players=2,
            seat=0,
            round=7,
            seed=seed,
            stalls={5: (0, {"purple": 2}), 12: (1, {"orange": 1})},
            pawns={"consul": 6, "pink customer": 14, "orange customer": 9, "purple customer": 2},
            temple=[("brown", 3)],
            hands={0: [], 1: []},
            money=(0, 0),
            fame=(10, 14),
            tokens=(10, 10),
            prices={"temple": 2, "purple": 1, "orange": 2, "pink": 3},
            markers={"purple": 3, "orange": 2, "pink": 2},
        )
        assert state.record[0]["supply"] == 0
        search_turn(GAME, state, spec, "trader", seed, to_the_end=True)
        s = state.record[0]
        return state.is_terminal() and s["share"][0] == 1.0 and list(s["score"][:2]) == [-3, -6]

    assert_forced_win(won)


# ==============================================================================================
# Pantheon
# ==============================================================================================
def test_pantheon_takes_the_last_god_to_end_the_game():
    """Pantheon, 2 players, era 6 (the last), seat 0 to act in the era's last turn (``era_turn_limit=1``: the
    era ends after this turn, by the limit, with no era-end bonus): one face-up god (a Taksator, requirement
    3 + 1), no loot on the board, so taking that god ends the era by the rules. Seat 0 has 20 points and
    3 dancer cards + 1 temple card; seat 1 has 26 points. Nobody owns demigods, columns or sacrifice
    tiles, so the final scoring adds nothing.

    Taking the god (3 dancers + 1 temple) scores the era's 6 points and the era-end bonus of 3: 29 against
    26, a win. Any other action (move, draw) scores nothing, the era and the game end by the turn limit:
    20 against 26.

    Without the turn limit (seat 1 holding 3 priests + 1 gift to take the god next) the default tree missed
    the win at 100 iterations on 3 of 12 seeds: its determinizations re-deal seat 1's hidden hand, which
    then mostly cannot pay the god, so waiting looked nearly as good; at 200 it found it on 12 of 12."""
    from simlab.games.pantheon.game import GAME
    from simlab.games.pantheon.position import position

    def won(spec: str, seed: int) -> bool:
        state = position(
            0,
            players=2,
            era=6,
            face_up=[(3, 1)],
            loot={},
            points={0: 20, 1: 26},
            hands={0: {"dancers": 3, "temples": 1}, 1: {}},
            overrides={"era_turn_limit": 1},
            seed=seed,
        )
        assert state.record[0]["f_era_turns"][5] == 0  # the limit ends era 6 after this turn
        search_turn(GAME, state, spec, "devout", seed)
        s = state.record[0]
        return state.is_terminal() and s["share"][0] == 1.0 and list(s["points"][:2]) == [29, 26]

    assert_forced_win(won)


# ==============================================================================================
# Merchant of Venus
# ==============================================================================================
def test_merchant_of_venus_sells_its_genes_and_buys_nothing():
    """Merchant of Venus, 2 players, the last turn of the last round (round 10 of 10, seat 1 started it):
    seat 0 has landed in Southern Comfort (Colony World, Nillis, discovered, its market on the low token):
    one buy and one sell. Seat 0: 300 credits, holds full with 1 Designer Genes (Nillis buys it, low price
    100) and 1 Space Spice (Nillis does not buy it); seat 1: 390 credits. Both have 2 fame (the dials):
    20 credits each at the end.

    Selling the genes and buying nothing wins: 300 + 100 + 20 = 420 against 390 + 20 = 410 (a spaceport
    after it costs 200 and sells back for 200 at the end). Not selling leaves 320; after the sale, any buy
    loses: a Bionic Perfume (80) or a yellow drive (80) leaves 340, a laser (100, +1 fame) 330, a red
    drive 300, a combined drive 120, a race tech 370."""
    from simlab.games.merchant_of_venus.game import GAME
    from simlab.games.merchant_of_venus.position import position

    def won(spec: str, seed: int) -> bool:
        state = position(
            0,
            overrides={"players": 2, "rounds": 10},
            first=1,
            round_no=10,
            phase="trade",
            at={0: "Southern Comfort"},
            cultures={"Colony World": "Nillis"},
            discovered=["Colony World"],
            top={"Nillis": "low"},
            cargo={0: {"Designer Genes": 1, "Space Spice": 1}},
            credits={0: 300, 1: 390},
            seed=seed,
        )
        search_turn(GAME, state, spec, "trader", seed)
        s = state.record[0]
        return state.is_terminal() and s["share"][0] == 1.0 and list(s["score"][:2]) == [420, 410]

    assert_forced_win(won)
