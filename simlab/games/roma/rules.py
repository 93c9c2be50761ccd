"""Roma's rules as a compiled state machine over one structured record.

Summary (full text: ``shared/rules/roma.md``): two players face each other across a row of six dice
discs (1–6), plus a money disc and a card disc; each lays cards (17 characters, 8 buildings, 52 cards)
on its own side of the discs. Setup: deal 4, pass 2 face down, lay all cards face down for free (one per
disc), reveal. A turn: (1) return 1 VP to the stockpile per own empty disc; (2) roll the 3 action dice
(a triple may be rerolled); (3) any number of actions in any order — lay a card paying its cost
(covering discards the old card), a die on the money disc for that many sestertii, a die on the card
disc to draw that many cards and keep one, a die on the disc of its number to activate the card there.
Battles: the battle die must reach the target's defence (+1 per other own Turris, −2 per Essedum
activation this turn, Centurio may add an unused action die after seeing the roll). The game ends at
once when the stockpile (36 VP less 10 each) or a player's VP runs out; more VP wins, a tie is a draw.

Every decision is small (see the PH_* phases): "lay card t on space d" is one action; an activation
asks its own follow-up choices (target, relay place, kept card, Consul's die and direction, Forum's
second die, Templum's die, Centurio's added die, Scaenicus' copied card, Mercator's VP count).

Settled points (each a config field or listed here; docs/games/roma.md has the full list):
- an activation is legal only when the ability can do something: a target exists, a card to lay or
  take exists, a die to change or add exists (Legat needs an empty opposing space, Mercator money and
  opposing VP); a die is never spent on an activation without effect.
- Centurio's added die is offered only after a failed roll (adding to a won battle only wastes a die).
- Consiliarius/Machina relay every picked-up card onto a distinct space; a relayed card may cover a card
  of the other kind (it is discarded); relayed cards do not count as laid.
- Scaenicus copies the owner's own face-up characters other than Scaenicus directly, or through another
  Scaenicus (never one already in the chain); positional abilities aim from the activated Scaenicus,
  and copying Sicarius or Nero discards the activated Scaenicus.
- a Forum activation (its VP, each adjacent Basilica's, the Templum die's) is one payout.
- draws with an empty draw pile shuffle the discard pile in; Haruspex searches the draw pile only.
- the turn limit ``max_turns`` is a safety net (ends the game as it stands), not a rule.

Action ids are global (``describe`` in game.py names them); see the A_* constants.
"""

from __future__ import annotations

import numpy as np

from simlab.core.actions import ActionLayout
from simlab.core.compiled import compiled
from simlab.core.components import (
    cards_left,
    deck_from_counts,
    draw,
    finish,
    roll,
    shuffle,
    shuffle_canonical,
    shuffle_from,
)
from simlab.core.record import state_dtype
from simlab.games.roma.config import MAX_DECK, RomaConfig

# -- phases (the decision at hand) --------------------------------------------------------------
PH_SWAP, PH_OPENING, PH_REROLL, PH_ACTION, PH_DRAWKEEP, PH_TARGET, PH_FREELAY = 0, 1, 2, 3, 4, 5, 6
PH_RELAY, PH_MERCATOR, PH_CONSUL, PH_SCAENICUS, PH_HARUSPEX, PH_AESCULAPINUM = 7, 8, 9, 10, 11, 12
PH_FORUM, PH_TEMPLUM, PH_CENTURIO, PH_OVER = 13, 14, 15, 16
PHASE_NAMES = (
    "pass a card",
    "opening placement",
    "reroll the triple",
    "action",
    "keep a drawn card",
    "choose target",
    "lay free card",
    "relay card",
    "VP to buy",
    "Consul: change a die",
    "Scaenicus: copy a card",
    "Haruspex: take a card",
    "Aesculapinum: take a card",
    "Forum: second die",
    "Templum: third die",
    "Centurio: add a die",
    "game over",
)

# cards (numbers duplicated from data.py as compile-time constants)
SICARIUS, ARCHITECTUS, CONSILIARIUS, LEGAT, GLADIATOR, MERCATOR, CONSUL, LEGIONARIUS, NERO = 0, 1, 2, 3, 4, 5, 6, 7, 8
PRAETORIANUS, SCAENICUS, HARUSPEX, SENATOR, VELITES, ESSEDUM, TRIBUNUS, CENTURIO = 9, 10, 11, 12, 13, 14, 15, 16
AESCULAPINUM, BASILICA, MACHINA, FORUM, MERCATUS, ONAGER, TEMPLUM, TURRIS = 17, 18, 19, 20, 21, 22, 23, 24
NCARDS = 25
N_CHAR = 17  # cards 0..16 are characters, 17..24 buildings
SPACES = 7
BRIBE = 6
MAX_DICE = 6
MAX_DRAW = 8

# -- actions (ids declared once by family: simlab.core.actions) --------------------------------
MAX_COUNT = 69
ACTIONS = ActionLayout(
    "done",  # end the turn / done / keep the triple / no
    "yes",  # reroll the triple
    f"lay[{NCARDS},{SPACES}]",  # card, space: lay (paid, free, opening, relay, by phase)
    "money[6]",  # pips - 1: a die on the money disc
    "draw[6]",  # pips - 1: a die on the card disc
    "act[6]",  # disc (0..5): the die of that number activates the card on the disc
    "bribe[6]",  # pips - 1: the die activates the card on the bribe space, paying its pips
    "die[6]",  # pips - 1: choose a die (Forum's second, Templum's, Centurio's added die)
    "consul[6,2]",  # pips - 1, up
    f"disc[{SPACES}]",  # space: a target space (opponent's, or own for Scaenicus)
    f"card[{NCARDS}]",  # card: a card type (pass, keep, Haruspex, Aesculapinum)
    f"count[{MAX_COUNT}]",  # k: VP bought with Mercator
)
A_DONE, A_YES, A_LAY, A_MONEY, A_DRAW, A_ACT = ACTIONS.starts("done", "yes", "lay", "money", "draw", "act")
A_BRIBE, A_DIE, A_CONSUL, A_DISC, A_CARD, A_COUNT = ACTIONS.starts("bribe", "die", "consul", "disc", "card", "count")
MAX_ACTIONS = ACTIONS.size

# VP sources (fact columns) and end reasons
SRC_FORUM, SRC_BASILICA, SRC_TEMPLUM, SRC_LEGAT, SRC_TRIBUNUS, SRC_MERCATOR, SRC_MERCATUS = 0, 1, 2, 3, 4, 5, 6
NSRC = 7
END_NONE, END_STOCKPILE, END_ZERO_VP, END_TURN_LIMIT = 0, 1, 2, 3

STATE_DTYPE = state_dtype(
    2,
    [
        ("active", np.int32),
        ("revealed", np.int32),
        ("vp", np.int32, (2,)),
        ("money", np.int32, (2,)),
        ("stock", np.int32),
        ("minted", np.int32),
        ("board", np.int32, (2, SPACES)),
        ("hand", np.int32, (2, NCARDS)),
        ("hand_n", np.int32, (2,)),
        ("deck", np.int32, (MAX_DECK,)),
        ("deck_n", np.int32),
        ("discard", np.int32, (NCARDS,)),
        ("pass_buf", np.int32, (2, NCARDS)),
        ("swap_left", np.int32),
        ("dice", np.int32, (MAX_DICE,)),
        ("used", np.int32, (MAX_DICE,)),
        ("rerolls", np.int32),
        ("blocked", np.int32, (2, SPACES)),
        ("essedum", np.int32, (2,)),
        # the activation in progress
        ("act_type", np.int32),
        ("act_disc", np.int32),
        ("act_card_disc", np.int32),
        ("scaen_mask", np.int32),
        ("relay", np.int32, (NCARDS,)),
        ("relay_n", np.int32),
        ("relay_used", np.int32, (SPACES,)),
        ("forum_disc", np.int32),
        ("forum_vp", np.int32, (3,)),
        ("drawn", np.int32, (MAX_DRAW,)),
        ("drawn_n", np.int32),
        ("battle_roll", np.int32),
        ("battle_target", np.int32),
        ("battle_def", np.int32),
        # the result
        ("end_reason", np.int32),
        # facts, per seat
        ("f_start_money", np.int32, (2,)),
        ("f_start_vp", np.int32, (2,)),
        ("f_vp", np.int32, (2, NSRC)),
        ("f_vp_lost_empty", np.int32, (2,)),
        ("f_vp_lost_taken", np.int32, (2,)),
        ("f_laid", np.int32, (2, NCARDS)),
        ("f_act", np.int32, (2, NCARDS)),
        ("f_destroyed", np.int32, (2, NCARDS)),
        ("f_returned", np.int32, (2,)),
        ("f_turns", np.int32, (2,)),
        ("f_battles", np.int32, (2,)),
        ("f_battles_won", np.int32, (2,)),
        ("f_money_taken", np.int32, (2,)),
        ("f_money_spent", np.int32, (2,)),
        ("f_draws", np.int32, (2,)),
        ("f_rerolls", np.int32, (2,)),
        ("f_dice_unused", np.int32, (2,)),
        ("f_dice_rolled", np.int32, (2,)),  # action dice rolled (rerolled triples included)
        ("f_dice_pips", np.int32, (2,)),  # their pips: chance, with a known expectation (3.5 a die)
        ("f_battle_hits", np.int32, (2,)),  # battle rolls that reached the defence (before any Centurio die)
        ("f_battle_odds", np.int32, (2,)),  # Σ over battle rolls of the faces that reach the defence
    ],
)

CONFIG_DTYPE = np.dtype(
    [
        ("spaces", np.int32),
        ("bribe", np.int32),
        ("total_vp", np.int32),
        ("start_vp", np.int32, (2,)),
        ("start_money", np.int32, (2,)),
        ("full_credit", np.int32),
        ("max_turns", np.int32),
        ("hand_size", np.int32),
        ("swap_size", np.int32),
        ("n_dice", np.int32),
        ("copies", np.int32, (NCARDS,)),
        ("cost", np.int32, (NCARDS,)),
        ("defence", np.int32, (NCARDS,)),
        ("empty_loss", np.int32),
        ("triple_reroll", np.int32),
        ("reroll_limit", np.int32),
        ("bribe_pip_cost", np.int32),
        ("bribe_counts_empty", np.int32),
        ("bribe_counts_legat", np.int32),
        ("bribe_adjacent", np.int32),
        ("praetorianus_bribe", np.int32),
        ("battle_sides", np.int32),
        ("turris_bonus", np.int32),
        ("essedum_reduction", np.int32),
        ("essedum_whole_turn", np.int32),
        ("basilica_vp", np.int32),
        ("basilica_each", np.int32),
        ("legat_vp", np.int32),
        ("tribunus_vp", np.int32),
        ("mercator_price", np.int32),
        ("mercator_cap", np.int32),
        ("mercatus_vp", np.int32),
        ("mercatus_from_opponent", np.int32),
        ("consul_step", np.int32),
        ("scaen_scaen", np.int32),
        ("free_lay_self", np.int32),
        ("bonus_card", np.int32),  # experiment knob: card type put into bonus_seat's opening hand (-1: none)
        ("bonus_seat", np.int32),
    ],
    align=True,
)


def derive_config(config: RomaConfig, c: np.void) -> None:
    """Config-record fields computed from knobs: the card spaces in play follow ``bribe_disc``; the bonus card."""
    c["spaces"] = config.spaces()
    c["bonus_card"], c["bonus_seat"] = config.bonus()


# ==============================================================================================
# small helpers
# ==============================================================================================
@compiled
def is_char(t):
    return 0 <= t < N_CHAR


@compiled
def is_building(t):
    return t >= N_CHAR


@compiled
def count_kind_on_board(s, c, q, building):
    """Face-up cards of one kind on q's side."""
    n = 0
    for d in range(c.spaces):
        t = s.board[q, d]
        if t >= 0 and (t >= N_CHAR) == building:
            n += 1
    return n


@compiled
def count_type_on_board(s, c, q, t):
    n = 0
    for d in range(c.spaces):
        if s.board[q, d] == t:
            n += 1
    return n


@compiled
def hand_has_kind(s, p, building):
    lo = N_CHAR if building else 0
    hi = NCARDS if building else N_CHAR
    for t in range(lo, hi):
        if s.hand[p, t] > 0:
            return True
    return False


@compiled
def empty_spaces(s, c, q, for_legat):
    """Spaces of q without a card (the bribe space counts if so configured)."""
    n = 0
    for d in range(6):
        if s.board[q, d] < 0:
            n += 1
    counts = c.bribe_counts_legat == 1 if for_legat else c.bribe_counts_empty == 1
    if c.bribe == 1 and s.board[q, BRIBE] < 0 and counts:
        n += 1
    return n


@compiled
def adjacent(c, d, e):
    """Are spaces d and e next to each other on one side of the row?"""
    if d < 6 and e < 6:
        return d - e == 1 or e - d == 1
    if c.bribe_adjacent == 1:
        return (d == BRIBE and e == 5) or (d == 5 and e == BRIBE)
    return False


@compiled
def defence(s, c, q, e):
    """Current defence of q's card on space e: printed + Turris bonus (other Turris) − Essedum."""
    t = s.board[q, e]
    v = c.defence[t]
    for d in range(c.spaces):
        if d != e and s.board[q, d] == TURRIS:
            v += c.turris_bonus
    return v - s.essedum[q]


@compiled
def unused_count(s, c):
    n = 0
    for i in range(c.n_dice):
        if s.used[i] == 0:
            n += 1
    return n


@compiled
def die_available(s, c, v):
    for i in range(c.n_dice):
        if s.used[i] == 0 and s.dice[i] == v:
            return True
    return False


@compiled
def first_die_with(s, c, v):
    """Index of the first unused die showing v (dice with equal pips are interchangeable); -1: none."""
    for i in range(c.n_dice):
        if s.used[i] == 0 and s.dice[i] == v:
            return i
    return -1


@compiled
def use_die(s, c, v):
    i = first_die_with(s, c, v)
    s.used[i] = 1


@compiled
def value_seen_before(s, c, i):
    """True when an earlier unused die shows the same pips as die i (list each value once)."""
    for j in range(i):
        if s.used[j] == 0 and s.dice[j] == s.dice[i]:
            return True
    return False


@compiled
def shuffle_deck(s):
    shuffle(s, s.deck, s.deck_n)


@compiled
def draw_card(s):
    """The top card of the draw pile (the discard pile shuffled in when it is empty); -1 if none left."""
    t, left = draw(s, s.deck, s.deck_n, s.discard)
    s.deck_n = left
    return t


@compiled
def to_hand(s, p, t):
    s.hand[p, t] += 1
    s.hand_n[p] += 1


@compiled
def from_hand(s, p, t):
    s.hand[p, t] -= 1
    s.hand_n[p] -= 1


@compiled
def put_card(s, p, d, t):
    """Card t onto p's space d; a card already there is covered (discarded)."""
    old = s.board[p, d]
    if old >= 0:
        s.discard[old] += 1
    s.board[p, d] = t


@compiled
def destroy(s, q, e):
    """q's card on space e is destroyed by the opponent (battle, Sicarius, Nero)."""
    t = s.board[q, e]
    s.board[q, e] = -1
    s.discard[t] += 1
    s.f_destroyed[q, t] += 1


# ==============================================================================================
# victory points and the end of the game
# ==============================================================================================
@compiled
def check_end(s, c):
    """The game ends at once when a player has no VP or the stockpile is empty (rules §3 End of game)."""
    if s.phase == PH_OVER:
        return True
    if s.vp[0] <= 0 or s.vp[1] <= 0:
        game_over(s, c, END_ZERO_VP)
        return True
    if s.stock <= 0:
        game_over(s, c, END_STOCKPILE)
        return True
    return False


@compiled
def gain_from_stock(s, c, p, amounts, srcs, k):
    """One payout from the stockpile, by source; a stockpile that cannot cover it pays in full anyway
    (``full_credit``), then the game ends."""
    left = s.stock
    for i in range(k):
        want = amounts[i]
        pay = min(want, left)
        left -= pay
        got = want if c.full_credit == 1 else pay
        s.vp[p] += got
        s.minted += got - pay
        s.f_vp[p, srcs[i]] += got
    s.stock = left
    check_end(s, c)


@compiled
def gain1(s, c, p, amount, src):
    amounts = np.empty(1, np.int32)
    srcs = np.empty(1, np.int32)
    amounts[0] = amount
    srcs[0] = src
    gain_from_stock(s, c, p, amounts, srcs, 1)


@compiled
def take_vp(s, c, p, amount, src):
    """p takes up to ``amount`` VP from the opponent (never below 0)."""
    q = 1 - p
    k = min(amount, s.vp[q])
    s.vp[q] -= k
    s.vp[p] += k
    s.f_vp[p, src] += k
    s.f_vp_lost_taken[q] += k
    check_end(s, c)


@compiled
def game_over(s, c, reason):
    """More VP wins; equal VP is a draw (rules §6)."""
    s.end_reason = reason
    keys = np.empty((2, 1), np.int64)
    for p in range(2):
        s.score[p] = s.vp[p]
        keys[p, 0] = s.vp[p]
    s.phase = PH_OVER
    finish(s, keys, 2)


@compiled
def score_now(st, cf):
    """The game ended where it stands (as the turn limit ends it: more VP wins). Core's
    search cuts its playouts short with it (``ismcts:depth=D``, docs/search.md)."""
    game_over(st[0], cf[0], END_TURN_LIMIT)


# ==============================================================================================
# setup and turns
# ==============================================================================================
@compiled
def init(st, cf, rng):
    """Set up a new game (rules §2) and advance to the first decision: seat 0 passes cards."""
    s = st[0]
    c = cf[0]
    s.rng[0] = rng[0]
    s.deck_n = deck_from_counts(s.deck, 0, c.copies)
    shuffle_deck(s)
    if c.bonus_card >= 0:  # experiment knob: the topmost copy of the card goes to the seat before the deal
        deal_bonus_card(s, c.bonus_seat, c.bonus_card)
    for p in range(2):
        for d in range(SPACES):
            s.board[p, d] = -1
        s.vp[p] = c.start_vp[p]
        s.money[p] = c.start_money[p]
        s.f_start_vp[p] = c.start_vp[p]
        s.f_start_money[p] = c.start_money[p]
    for _ in range(c.hand_size):
        for p in range(2):
            s.deck_n -= 1
            to_hand(s, p, s.deck[s.deck_n])
    s.stock = c.total_vp - c.start_vp[0] - c.start_vp[1]
    s.act_card_disc = -1
    s.battle_target = -1
    s.cur = 0
    s.active = 0
    if c.swap_size > 0:
        s.phase = PH_SWAP
        s.swap_left = c.swap_size
    else:
        s.phase = PH_OPENING


@compiled
def deal_bonus_card(s, p, t):
    """Experiment knob: move the topmost copy of card type t from the shuffled deck into p's hand."""
    i = s.deck_n - 1
    while i >= 0 and s.deck[i] != t:
        i -= 1
    if i < 0:  # no copy in the deck (validation rules this out: card_copies of t > 0)
        return
    s.deck_n -= 1
    for j in range(i, s.deck_n):  # the rest keeps its order, so the deal matches the control's
        s.deck[j] = s.deck[j + 1]
    to_hand(s, p, t)


@compiled
def start_turn(s, c, p):
    """Phase 1 (VP for empty spaces) and phase 2 (roll) of p's turn."""
    if c.max_turns > 0 and s.turns >= c.max_turns:
        game_over(s, c, END_TURN_LIMIT)
        return
    s.active = p
    s.cur = p
    s.turns += 1
    s.f_turns[p] += 1
    loss = empty_spaces(s, c, p, False) * c.empty_loss
    loss = min(loss, s.vp[p])
    s.vp[p] -= loss
    s.stock += loss
    s.f_vp_lost_empty[p] += loss
    if check_end(s, c):
        return
    s.rerolls = 0
    roll_action_dice(s, c)


@compiled
def roll_action_dice(s, c):
    for i in range(MAX_DICE):
        s.used[i] = 1
    p = s.active
    for i in range(c.n_dice):
        s.dice[i] = roll(s, 6)
        s.used[i] = 0
        s.f_dice_rolled[p] += 1
        s.f_dice_pips[p] += s.dice[i]
    triple = c.n_dice >= 2
    for i in range(1, c.n_dice):
        if s.dice[i] != s.dice[0]:
            triple = False
    if triple and c.triple_reroll == 1 and (c.reroll_limit < 0 or s.rerolls < c.reroll_limit):
        s.phase = PH_REROLL
    else:
        s.phase = PH_ACTION


@compiled
def end_turn(s, c):
    p = s.active
    s.f_dice_unused[p] += unused_count(s, c)
    for d in range(SPACES):
        s.blocked[p, d] = 0  # the opponent's Praetorianus blocked p for this turn only
    s.essedum[0] = 0
    s.essedum[1] = 0
    start_turn(s, c, 1 - p)


@compiled
def resume(s):
    """Back to the action phase after an activation (unless the game ended)."""
    if s.phase != PH_OVER:
        s.phase = PH_ACTION
        s.cur = s.active


# ==============================================================================================
# what an ability can do (an activation is legal only if it can do something)
# ==============================================================================================
@compiled
def free_dice(s, c, exclude_v):
    """Unused dice, less one showing ``exclude_v`` (the die about to activate; 0: none)."""
    n = unused_count(s, c)
    if exclude_v > 0:
        n -= 1
    return n


@compiled
def consul_possible(s, c, exclude_v):
    skipped = exclude_v <= 0
    for i in range(c.n_dice):
        if s.used[i] == 1:
            continue
        v = s.dice[i]
        if not skipped and v == exclude_v:
            skipped = True
            continue
        if v + c.consul_step <= 6 or v - c.consul_step >= 1:
            return True
    return False


@compiled
def ability_ok(s, c, p, t, d, money, exclude_v, mask):
    """Can ability t, acting from p's space d, do something? ``money`` is what p holds after paying
    for the activation; ``exclude_v`` the pips of the activating die if it is still unused; ``mask`` the
    spaces of the Scaenicus chain."""
    if t == SCAENICUS:
        return scaenicus_targets(s, c, p, d, money, exclude_v, mask | (1 << d)) > 0
    return basic_ok(s, c, p, t, d, money, exclude_v)


@compiled
def basic_ok(s, c, p, t, d, money, exclude_v):
    """ability_ok for every card but Scaenicus."""
    q = 1 - p
    if t == SICARIUS or t == GLADIATOR or t == VELITES:
        return count_kind_on_board(s, c, q, False) > 0
    if t == NERO or t == ONAGER:
        return count_kind_on_board(s, c, q, True) > 0
    if t == ARCHITECTUS:
        return hand_has_kind(s, p, True)
    if t == SENATOR:
        return hand_has_kind(s, p, False)
    if t == CONSILIARIUS or t == MACHINA or t == PRAETORIANUS:
        return True
    if t == LEGAT:
        return c.legat_vp > 0 and empty_spaces(s, c, q, True) > 0
    if t == MERCATOR:
        return money >= c.mercator_price and s.vp[q] >= 1
    if t == CONSUL:
        return consul_possible(s, c, exclude_v)
    if t == LEGIONARIUS or t == CENTURIO:
        return s.board[q, d] >= 0
    if t == HARUSPEX:
        return s.deck_n > 0
    if t == ESSEDUM:
        return count_kind_on_board(s, c, q, False) + count_kind_on_board(s, c, q, True) > 0
    if t == TRIBUNUS:
        return s.vp[q] >= 1
    if t == AESCULAPINUM:
        for u in range(N_CHAR):
            if s.discard[u] > 0:
                return True
        return False
    if t == FORUM:
        return free_dice(s, c, exclude_v) >= 1
    if t == MERCATUS:
        return count_type_on_board(s, c, q, FORUM) > 0
    return False  # Basilica, Templum, Turris are never activated


@compiled
def scaenicus_targets(s, c, p, origin, money, exclude_v, mask):
    """How many non-Scaenicus own characters a Scaenicus at ``origin`` could copy (chain ``mask``)."""
    n = 0
    for e in range(c.spaces):
        t = s.board[p, e]
        if t < 0 or t >= N_CHAR or t == SCAENICUS or (mask >> e) & 1 == 1:
            continue
        if basic_ok(s, c, p, t, origin, money, exclude_v):
            n += 1
    return n


# ==============================================================================================
# legal actions: what each decision (PH_*) offers
# ==============================================================================================
@compiled
def legal(st, cf, buf):
    """The legal actions of the decision at hand (``phase``), written into ``buf``; returns how many."""
    s = st[0]
    c = cf[0]
    ph = s.phase
    p = s.cur
    q = 1 - p
    n = 0
    if ph == PH_ACTION:
        buf[n] = A_DONE
        n += 1
        for t in range(NCARDS):
            if s.hand[p, t] > 0 and s.money[p] >= c.cost[t]:
                for d in range(c.spaces):
                    buf[n] = A_LAY + t * 7 + d
                    n += 1
        for i in range(c.n_dice):
            if s.used[i] == 1 or value_seen_before(s, c, i):
                continue
            v = s.dice[i]
            buf[n] = A_MONEY + v - 1
            n += 1
            if cards_left(s.deck_n, s.discard) > 0:
                buf[n] = A_DRAW + v - 1
                n += 1
            d = v - 1
            t = s.board[p, d]
            if t >= 0 and s.blocked[p, d] == 0 and ability_ok(s, c, p, t, d, s.money[p], v, 0):
                buf[n] = A_ACT + d
                n += 1
            if c.bribe == 1:
                t = s.board[p, BRIBE]
                pay = v * c.bribe_pip_cost
                if (
                    t >= 0
                    and s.blocked[p, BRIBE] == 0
                    and s.money[p] >= pay
                    and ability_ok(s, c, p, t, BRIBE, s.money[p] - pay, v, 0)
                ):
                    buf[n] = A_BRIBE + v - 1
                    n += 1
    elif ph == PH_SWAP:
        for t in range(NCARDS):
            if s.hand[p, t] > 0:
                buf[n] = A_CARD + t
                n += 1
    elif ph == PH_OPENING:
        for t in range(NCARDS):
            if s.hand[p, t] > 0:
                for d in range(c.spaces):
                    if s.board[p, d] < 0:
                        buf[n] = A_LAY + t * 7 + d
                        n += 1
    elif ph == PH_REROLL:
        buf[0] = A_DONE
        buf[1] = A_YES
        n = 2
    elif ph == PH_DRAWKEEP:
        for t in range(NCARDS):
            for i in range(s.drawn_n):
                if s.drawn[i] == t:
                    buf[n] = A_CARD + t
                    n += 1
                    break
    elif ph == PH_TARGET:
        a = s.act_type
        if a == PRAETORIANUS:
            top = c.spaces if c.praetorianus_bribe == 1 else 6
            for e in range(top):
                buf[n] = A_DISC + e
                n += 1
        else:
            want_building = a == NERO or a == ONAGER
            for e in range(c.spaces):
                t = s.board[q, e]
                if t >= 0 and (t >= N_CHAR) == want_building:
                    buf[n] = A_DISC + e
                    n += 1
    elif ph == PH_FREELAY:
        buf[n] = A_DONE
        n += 1
        building = s.act_type == ARCHITECTUS
        for t in range(NCARDS):
            if s.hand[p, t] > 0 and (t >= N_CHAR) == building:
                for d in range(c.spaces):
                    if c.free_lay_self == 0 and d == s.act_card_disc:
                        continue
                    buf[n] = A_LAY + t * 7 + d
                    n += 1
    elif ph == PH_RELAY:
        for t in range(NCARDS):
            if s.relay[t] > 0:
                for d in range(c.spaces):
                    if s.relay_used[d] == 0:
                        buf[n] = A_LAY + t * 7 + d
                        n += 1
    elif ph == PH_MERCATOR:
        k_max = min(s.money[p] // c.mercator_price, s.vp[q])
        if c.mercator_cap > 0:
            k_max = min(k_max, c.mercator_cap)
        k_max = min(k_max, MAX_COUNT - 1)
        for k in range(1, k_max + 1):
            buf[n] = A_COUNT + k
            n += 1
    elif ph == PH_CONSUL:
        for i in range(c.n_dice):
            if s.used[i] == 1 or value_seen_before(s, c, i):
                continue
            v = s.dice[i]
            if v - c.consul_step >= 1:
                buf[n] = A_CONSUL + (v - 1) * 2
                n += 1
            if v + c.consul_step <= 6:
                buf[n] = A_CONSUL + (v - 1) * 2 + 1
                n += 1
    elif ph == PH_SCAENICUS:
        origin = s.act_disc
        others = scaenicus_targets(s, c, p, origin, s.money[p], 0, s.scaen_mask)
        for e in range(c.spaces):
            t = s.board[p, e]
            if t < 0 or t >= N_CHAR or (s.scaen_mask >> e) & 1 == 1:
                continue
            if t == SCAENICUS:
                if c.scaen_scaen == 1 and others > 0:
                    buf[n] = A_DISC + e
                    n += 1
            elif basic_ok(s, c, p, t, origin, s.money[p], 0):
                buf[n] = A_DISC + e
                n += 1
    elif ph == PH_HARUSPEX:
        seen = np.zeros(NCARDS, np.int32)
        for i in range(s.deck_n):
            seen[s.deck[i]] = 1
        for t in range(NCARDS):
            if seen[t] == 1:
                buf[n] = A_CARD + t
                n += 1
    elif ph == PH_AESCULAPINUM:
        for t in range(N_CHAR):
            if s.discard[t] > 0:
                buf[n] = A_CARD + t
                n += 1
    elif ph == PH_FORUM or ph == PH_TEMPLUM or ph == PH_CENTURIO:
        if ph != PH_FORUM:
            buf[n] = A_DONE
            n += 1
        for i in range(c.n_dice):
            if s.used[i] == 0 and not value_seen_before(s, c, i):
                buf[n] = A_DIE + s.dice[i] - 1
                n += 1
    return n


# ==============================================================================================
# applying actions
# ==============================================================================================
@compiled
def apply(st, cf, a):
    """Apply action ``a`` of the seat to decide (legal: the Python layer checks) and advance the turn."""
    s = st[0]
    c = cf[0]
    p = s.cur
    ph = s.phase
    s.decisions += 1
    if ph == PH_ACTION:
        apply_action(s, c, p, a)
    elif ph == PH_SWAP:
        t = a - A_CARD
        from_hand(s, p, t)
        s.pass_buf[p, t] += 1
        s.swap_left -= 1
        if s.swap_left == 0:
            if p == 0:
                s.cur = 1
                s.swap_left = c.swap_size
            else:  # both have chosen: the passed cards change hands
                for u in range(NCARDS):
                    for r in range(2):
                        for _ in range(s.pass_buf[r, u]):
                            to_hand(s, 1 - r, u)
                        s.pass_buf[r, u] = 0
                s.phase = PH_OPENING
                s.cur = 0
    elif ph == PH_OPENING:
        x = a - A_LAY
        t, d = x // 7, x % 7
        from_hand(s, p, t)
        s.board[p, d] = t
        s.f_laid[p, t] += 1
        if s.hand_n[p] == 0:
            if p == 0:
                s.cur = 1
            else:
                s.revealed = 1  # both reveal; the start player begins
                start_turn(s, c, 0)
    elif ph == PH_REROLL:
        if a == A_YES:
            s.rerolls += 1
            s.f_rerolls[p] += 1
            roll_action_dice(s, c)
        else:
            s.phase = PH_ACTION
    elif ph == PH_DRAWKEEP:
        t = a - A_CARD
        kept = False
        for i in range(s.drawn_n):
            u = s.drawn[i]
            if u == t and not kept:
                to_hand(s, p, u)
                kept = True
            else:
                s.discard[u] += 1
        s.drawn_n = 0
        s.phase = PH_ACTION
    elif ph == PH_TARGET:
        apply_target(s, c, p, a - A_DISC)
    elif ph == PH_FREELAY:
        if a == A_DONE:
            resume(s)
        else:
            x = a - A_LAY
            t, d = x // 7, x % 7
            from_hand(s, p, t)
            put_card(s, p, d, t)
            s.f_laid[p, t] += 1
    elif ph == PH_RELAY:
        x = a - A_LAY
        t, d = x // 7, x % 7
        s.relay[t] -= 1
        s.relay_n -= 1
        put_card(s, p, d, t)
        s.relay_used[d] = 1
        if s.relay_n == 0:
            resume(s)
    elif ph == PH_MERCATOR:
        k = a - A_COUNT
        price = k * c.mercator_price
        s.money[p] -= price
        s.money[1 - p] += price
        s.f_money_spent[p] += price
        take_vp(s, c, p, k, SRC_MERCATOR)
        resume(s)
    elif ph == PH_CONSUL:
        x = a - A_CONSUL
        i = first_die_with(s, c, x // 2 + 1)
        s.dice[i] += c.consul_step if x % 2 == 1 else -c.consul_step
        resume(s)
    elif ph == PH_SCAENICUS:
        e = a - A_DISC
        t = s.board[p, e]
        s.scaen_mask |= 1 << e
        if t != SCAENICUS:
            perform(s, c, p, t, s.act_disc)
    elif ph == PH_HARUSPEX:
        t = a - A_CARD
        for i in range(s.deck_n - 1, -1, -1):
            if s.deck[i] == t:
                s.deck[i] = s.deck[s.deck_n - 1]
                s.deck_n -= 1
                break
        to_hand(s, p, t)
        shuffle_deck(s)
        resume(s)
    elif ph == PH_AESCULAPINUM:
        t = a - A_CARD
        s.discard[t] -= 1
        to_hand(s, p, t)
        resume(s)
    elif ph == PH_FORUM:
        v = a - A_DIE + 1
        use_die(s, c, v)
        d = s.forum_disc
        s.forum_vp[0] = v
        nb = 0
        has_templum = False
        for e in range(c.spaces):
            if adjacent(c, d, e):
                if s.board[p, e] == BASILICA:
                    nb += 1
                elif s.board[p, e] == TEMPLUM:
                    has_templum = True
        if c.basilica_each == 0:
            nb = min(nb, 1)
        s.forum_vp[1] = nb * c.basilica_vp
        s.forum_vp[2] = 0
        if has_templum and unused_count(s, c) > 0:
            s.phase = PH_TEMPLUM
        else:
            forum_payout(s, c, p)
    elif ph == PH_TEMPLUM:
        if a != A_DONE:
            v = a - A_DIE + 1
            use_die(s, c, v)
            s.forum_vp[2] = v
        forum_payout(s, c, p)
    elif ph == PH_CENTURIO:
        if a != A_DONE:
            v = a - A_DIE + 1
            use_die(s, c, v)
            q = 1 - p
            e = s.battle_target
            if s.battle_roll + v >= defence(s, c, q, e):
                destroy(s, q, e)
                s.f_battles_won[p] += 1
        after_battle(s, c, p)
        resume(s)


@compiled
def forum_payout(s, c, p):
    amounts = np.empty(3, np.int32)
    srcs = np.empty(3, np.int32)
    for i in range(3):
        amounts[i] = s.forum_vp[i]
        srcs[i] = i  # SRC_FORUM, SRC_BASILICA, SRC_TEMPLUM
    gain_from_stock(s, c, p, amounts, srcs, 3)
    resume(s)


@compiled
def apply_action(s, c, p, a):
    if a == A_DONE:
        end_turn(s, c)
    elif a < A_MONEY:
        x = a - A_LAY
        t, d = x // 7, x % 7
        from_hand(s, p, t)
        s.money[p] -= c.cost[t]
        s.f_money_spent[p] += c.cost[t]
        put_card(s, p, d, t)
        s.f_laid[p, t] += 1
    elif a < A_DRAW:
        v = a - A_MONEY + 1
        use_die(s, c, v)
        s.money[p] += v
        s.f_money_taken[p] += v
    elif a < A_ACT:
        v = a - A_DRAW + 1
        use_die(s, c, v)
        s.f_draws[p] += 1
        s.drawn_n = 0
        distinct = 0
        for _ in range(v):
            t = draw_card(s)
            if t < 0:
                break
            new = True
            for i in range(s.drawn_n):
                if s.drawn[i] == t:
                    new = False
            if new:
                distinct += 1
            s.drawn[s.drawn_n] = t
            s.drawn_n += 1
        if distinct == 1:  # nothing to choose: keep one, discard the rest
            to_hand(s, p, s.drawn[0])
            for i in range(1, s.drawn_n):
                s.discard[s.drawn[i]] += 1
            s.drawn_n = 0
        else:
            s.phase = PH_DRAWKEEP
    elif a < A_BRIBE:
        d = a - A_ACT
        use_die(s, c, d + 1)
        activate(s, c, p, d)
    else:
        v = a - A_BRIBE + 1
        use_die(s, c, v)
        pay = v * c.bribe_pip_cost
        s.money[p] -= pay
        s.f_money_spent[p] += pay
        activate(s, c, p, BRIBE)


@compiled
def activate(s, c, p, d):
    t = s.board[p, d]
    s.f_act[p, t] += 1
    s.act_card_disc = d
    s.scaen_mask = 0
    perform(s, c, p, t, d)


@compiled
def perform(s, c, p, t, d):
    """Ability t acting from p's space d (d is the activated card's space, also for Scaenicus)."""
    q = 1 - p
    s.act_type = t
    s.act_disc = d
    if t == SICARIUS or t == GLADIATOR or t == VELITES or t == NERO or t == ONAGER or t == PRAETORIANUS:
        s.phase = PH_TARGET
    elif t == ARCHITECTUS or t == SENATOR:
        s.phase = PH_FREELAY
    elif t == CONSILIARIUS or t == MACHINA:
        building = t == MACHINA
        s.relay_n = 0
        for e in range(SPACES):
            s.relay_used[e] = 0
        for e in range(c.spaces):
            u = s.board[p, e]
            if u >= 0 and (u >= N_CHAR) == building:
                s.relay[u] += 1
                s.relay_n += 1
                s.board[p, e] = -1
        s.phase = PH_RELAY
    elif t == LEGAT:
        gain1(s, c, p, c.legat_vp * empty_spaces(s, c, q, True), SRC_LEGAT)
        resume(s)
    elif t == MERCATOR:
        s.phase = PH_MERCATOR
    elif t == CONSUL:
        s.phase = PH_CONSUL
    elif t == LEGIONARIUS:
        battle(s, c, p, d, False)
        if s.phase != PH_CENTURIO:
            resume(s)
    elif t == CENTURIO:
        battle(s, c, p, d, True)
        if s.phase != PH_CENTURIO:
            resume(s)
    elif t == SCAENICUS:
        s.scaen_mask |= 1 << d
        s.phase = PH_SCAENICUS
    elif t == HARUSPEX:
        s.phase = PH_HARUSPEX
    elif t == ESSEDUM:
        s.essedum[q] += c.essedum_reduction
        resume(s)
    elif t == TRIBUNUS:
        take_vp(s, c, p, c.tribunus_vp, SRC_TRIBUNUS)
        resume(s)
    elif t == AESCULAPINUM:
        s.phase = PH_AESCULAPINUM
    elif t == FORUM:
        s.forum_disc = d
        s.phase = PH_FORUM
    elif t == MERCATUS:
        k = c.mercatus_vp * count_type_on_board(s, c, q, FORUM)
        if c.mercatus_from_opponent == 1:
            take_vp(s, c, p, k, SRC_MERCATUS)
        else:
            gain1(s, c, p, k, SRC_MERCATUS)
        resume(s)


@compiled
def apply_target(s, c, p, e):
    q = 1 - p
    a = s.act_type
    if a == SICARIUS or a == NERO:
        destroy(s, q, e)
        # the Sicarius (Nero) is discarded too: the activated card, i.e. the Scaenicus that copied it
        own = s.board[p, s.act_card_disc]
        if own >= 0:
            s.board[p, s.act_card_disc] = -1
            s.discard[own] += 1
    elif a == GLADIATOR:
        t = s.board[q, e]
        s.board[q, e] = -1
        to_hand(s, q, t)
        s.f_returned[q] += 1
    elif a == PRAETORIANUS:
        s.blocked[q, e] = 1
    else:  # Velites, Onager
        battle(s, c, p, e, False)
        if s.phase == PH_CENTURIO:
            return
    resume(s)


@compiled
def battle(s, c, p, e, centurio):
    """The active player attacks q's card on space e with one roll of the battle die."""
    q = 1 - p
    r = roll(s, c.battle_sides)
    s.battle_roll = r
    s.battle_target = e
    s.f_battles[p] += 1
    dv = defence(s, c, q, e)
    s.battle_def = dv
    s.f_battle_odds[p] += min(max(c.battle_sides - dv + 1, 0), c.battle_sides)
    if r >= dv:
        s.f_battle_hits[p] += 1
        destroy(s, q, e)
        s.f_battles_won[p] += 1
    elif centurio and unused_count(s, c) > 0:
        s.phase = PH_CENTURIO  # add an unused die after seeing the roll, or not
        s.cur = p
        return
    after_battle(s, c, p)


@compiled
def after_battle(s, c, p):
    if c.essedum_whole_turn == 0:
        s.essedum[1 - p] = 0


# -- hidden information ------------------------------------------------------------------------------
@compiled
def determinize(st, cf, seat, rng):
    """Resample in place what ``seat`` cannot see: the opponent's hand, the draw pile's order and contents,
    the cards the opponent is passing (setup) and its face-down opening cards (until revealed).

    Hand sizes, occupied spaces, the face-up discard pile and everything public stay. While the seat searches
    the draw pile (Haruspex) its contents are known, so only its order is reshuffled. The unseen cards are laid
    out by type before the shuffle, so the result depends only on what the seat knows and on ``rng``
    (``below(rng, 0, n)``): the no-cheating check of the search bot rests on it. No allocation: the opponent's
    hand row counts the pool while it is gathered (in the Haruspex case the pile is sorted in place:
    ``shuffle_canonical``).
    """
    s = st[0]
    q = 1 - seat
    dn = s.deck_n
    if s.phase == PH_HARUSPEX and s.cur == seat:
        shuffle_canonical(rng, s.deck, dn)  # sorted first: the pile's order must not leak into the shuffle
        return
    hidden_board = s.revealed == 0
    hand_n = s.hand_n[q]
    pass_n = 0
    for t in range(NCARDS):
        pass_n += s.pass_buf[q, t]
        s.hand[q, t] += s.pass_buf[q, t]
        s.pass_buf[q, t] = 0
    for i in range(dn):
        s.hand[q, s.deck[i]] += 1
    if hidden_board:
        for d in range(SPACES):
            if s.board[q, d] >= 0:
                s.hand[q, s.board[q, d]] += 1
    k = deck_from_counts(s.deck, 0, s.hand[q])
    s.hand[q, :] = 0
    shuffle_from(rng, s.deck, k)  # from the seat's stream
    pos = 0
    for _ in range(hand_n):
        s.hand[q, s.deck[pos]] += 1
        pos += 1
    for _ in range(pass_n):
        s.pass_buf[q, s.deck[pos]] += 1
        pos += 1
    if hidden_board:
        for d in range(SPACES):
            if s.board[q, d] >= 0:
                s.board[q, d] = s.deck[pos]
                pos += 1
    for i in range(k - pos):
        s.deck[i] = s.deck[pos + i]
