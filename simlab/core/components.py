"""Compiled components every game needs: shuffles, decks from counts, draws with reshuffle, dice, ranking.

Each takes the state record ``s`` (for its chance generator ``s.rng`` and the forced outcomes of
``simlab.core.record``) and the arrays it works on, so one function serves every game and every pile of a
game. The order in which they consume the chance stream is part of every game's results: a change here
changes every game's dice (bump the games' ``rules_version``).
"""

from __future__ import annotations

from simlab.core.compiled import compiled
from simlab.core.rng import below


@compiled
def _forced(s):
    """The next forced outcome, or -1 when none is fixed (see ``simlab.core.record.force_chance``)."""
    if s.forced_i < s.forced_n:
        v = s.forced[s.forced_i]
        s.forced_i += 1
        return v
    return -1


@compiled
def shuffle(s, items, n):
    """Shuffle ``items[:n]`` in place from the game's chance stream (Fisher–Yates, from the last item down)."""
    shuffle_from(s.rng, items, n)


@compiled
def shuffle_from(rng, items, n):
    """Shuffle ``items[:n]`` in place drawing from the generator ``rng`` (Fisher–Yates, from the last item down):
    the game's chance stream in :func:`shuffle`, a search's own stream in a game's ``determinize``."""
    for i in range(n - 1, 0, -1):
        j = below(rng, 0, i + 1)
        tmp = items[i]
        items[i] = items[j]
        items[j] = tmp


@compiled
def shuffle_canonical(rng, items, n):
    """``items[:n]`` sorted, then shuffled from ``rng``: the result depends on what the items are, never on the
    order they were in (a ``determinize`` must not leak an order its seat cannot see)."""
    sort_in_place(items, n)
    shuffle_from(rng, items, n)


@compiled
def sort_in_place(items, n):
    """Sort ``items[:n]`` ascending in place (insertion sort: the piles it serves hold tens of items, and it
    compiles in a fraction of the time numba's quicksort takes, with no allocation)."""
    for i in range(1, n):
        v = items[i]
        j = i - 1
        while j >= 0 and items[j] > v:
            items[j + 1] = items[j]
            j -= 1
        items[j + 1] = v


@compiled
def deck_from_counts(items, start, counts):
    """Write ``counts[t]`` copies of each kind t, in kind order, into ``items`` from ``start``; the new end."""
    k = start
    for t in range(counts.shape[0]):
        for _ in range(counts[t]):
            items[k] = t
            k += 1
    return k


@compiled
def discard_into_deck(s, deck, n, discard):
    """The discard pile (counts by kind, emptied) goes under the deck's ``n`` cards and all are shuffled."""
    m = deck_from_counts(deck, n, discard)
    for t in range(discard.shape[0]):
        discard[t] = 0
    shuffle(s, deck, m)
    return m


@compiled
def draw(s, deck, n, discard):
    """The top card of a deck of ``n`` cards (the discard pile shuffled in first when it is empty).

    Returns (card, new deck size); card is -1 when deck and discard pile are both empty.
    """
    if n == 0:
        n = discard_into_deck(s, deck, 0, discard)
        if n == 0:
            return -1, 0
    return deck[n - 1], n - 1


@compiled
def roll(s, sides):
    """One die of ``sides`` faces: 1..sides (a forced face if one is fixed)."""
    v = _forced(s)
    if v >= 0:
        return v
    return below(s.rng, 0, sides) + 1


@compiled
def draw_counts(s, counts):
    """Draw one item at random from a bag of ``counts[k]`` items of each kind k; its kind, or -1 if empty.

    Each item is equally likely (kinds in proportion to their counts); a forced kind is taken if the bag
    holds one.
    """
    total = 0
    for k in range(counts.shape[0]):
        total += counts[k]
    if total == 0:
        return -1
    v = _forced(s)
    if v >= 0 and counts[v] > 0:
        counts[v] -= 1
        return v
    r = below(s.rng, 0, total)
    for k in range(counts.shape[0]):
        if r < counts[k]:
            counts[k] -= 1
            return k
        r -= counts[k]
    return -1


@compiled
def rank_and_share(keys, n, rank, share):
    """Ranks and win shares of ``n`` seats from their tie-break keys (``keys[p]``: higher is better,
    compared left to right): rank 1 + the number of seats strictly ahead; the seats ranked 1 split the win.
    """
    winners = 0
    for p in range(n):
        ahead = 0
        for q in range(n):
            if q != p and _ahead(keys, q, p):
                ahead += 1
        rank[p] = 1 + ahead
        if ahead == 0:
            winners += 1
    for p in range(n):
        share[p] = 1.0 / winners if rank[p] == 1 else 0.0


@compiled
def finish(s, keys, n):
    """End the game in record ``s``: ranks and win shares of its ``n`` seats from their tie-break keys (see
    :func:`rank_and_share`), and nobody left to decide (``cur`` -1, which ``is_terminal`` reads)."""
    rank_and_share(keys, n, s.rank, s.share)
    s.cur = -1


@compiled
def _ahead(keys, q, p):
    for k in range(keys.shape[1]):
        if keys[q, k] != keys[p, k]:
            return keys[q, k] > keys[p, k]
    return False


@compiled
def cards_left(deck_n, discard):
    """Cards that can still be drawn: the deck's ``deck_n`` plus the discard pile (counts by kind)."""
    n = deck_n
    for t in range(discard.shape[0]):
        n += discard[t]
    return n


@compiled
def current_player(st):
    """The seat that decides next (``cur``; -1 once the game is over): the record contract's reading."""
    return st[0].cur


@compiled
def is_terminal(st):
    """A game is over when nobody is to decide (``cur`` is -1; see simlab.core.record)."""
    return st[0].cur < 0
