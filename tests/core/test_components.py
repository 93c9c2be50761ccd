"""The shared compiled components (simlab.core.components): shuffles, decks, draws, dice and ranking."""

from __future__ import annotations

import itertools

import numpy as np
from numba import njit

from simlab.core import components as K
from simlab.core.record import force_chance, state_dtype
from simlab.core.rng import seed_to_state

DTYPE = state_dtype(4, [("deck", np.int32, (16,)), ("deck_n", np.int32), ("discard", np.int32, (3,))])


def _record(seed: int = 1) -> np.recarray:
    rec = np.zeros(1, dtype=DTYPE).view(np.recarray)
    rec[0]["rng"][0] = seed_to_state(seed)
    return rec


@njit
def _shuffle_many(st, times, n):
    out = np.empty((times, n), np.int32)
    s = st[0]
    for k in range(times):
        for i in range(n):
            s.deck[i] = i
        K.shuffle(s, s.deck, n)
        out[k] = s.deck[:n]
    return out


@njit
def _deck_and_draws(st, counts):
    s = st[0]
    s.deck_n = K.deck_from_counts(s.deck, 0, counts)
    drawn = np.full(12, -2, np.int32)
    for i in range(12):
        t, left = K.draw(s, s.deck, s.deck_n, s.discard)
        s.deck_n = left
        drawn[i] = t
        if t >= 0 and i < 3:
            s.discard[t] += 1  # the first three cards drawn are discarded, to come back in a reshuffle
    return drawn


@njit
def _rolls(st, sides, times):
    out = np.empty(times, np.int32)
    for i in range(times):
        out[i] = K.roll(st[0], sides)
    return out


@njit
def _bag_draws(st, counts, times):
    out = np.empty(times, np.int32)
    for i in range(times):
        out[i] = K.draw_counts(st[0], counts)
    return out


def test_shuffle_is_a_uniform_permutation_and_reproducible() -> None:
    orders = _shuffle_many(_record(3), 6000, 3)
    assert all(sorted(row) == [0, 1, 2] for row in orders.tolist())
    counts = {perm: 0 for perm in itertools.permutations(range(3))}
    for row in orders.tolist():
        counts[tuple(row)] += 1
    assert all(850 <= c <= 1150 for c in counts.values()), counts  # 1000 expected each, sd ~29
    assert np.array_equal(orders, _shuffle_many(_record(3), 6000, 3))


def test_deck_from_counts_then_draws_reshuffle_the_discard_pile() -> None:
    drawn = _deck_and_draws(_record(), np.array([2, 0, 3], np.int32))
    first, rest = drawn[:5].tolist(), drawn[5:].tolist()
    assert sorted(first) == [0, 0, 2, 2, 2]  # the deck of counts 2, 0, 3 (kind order), top card last
    assert first == [2, 2, 2, 0, 0]  # unshuffled: drawn from the top (the end)
    assert sorted(rest[:3]) == [2, 2, 2]  # then the three discarded cards, reshuffled
    assert rest[3:] == [-1] * 4  # both piles empty


def test_roll_gives_faces_and_takes_forced_faces_first() -> None:
    rec = _record()
    rolls = _rolls(rec, 6, 6000)
    assert set(rolls.tolist()) == {1, 2, 3, 4, 5, 6}
    assert all(800 <= c <= 1200 for c in np.bincount(rolls, minlength=7)[1:])
    plain, forced = _record(9), _record(9)
    force_chance(forced, [6, 6, 2])
    assert _rolls(forced, 6, 5).tolist() == [6, 6, 2, *_rolls(plain, 6, 2).tolist()]


def test_draw_counts_is_proportional_and_takes_a_forced_kind_only_if_there() -> None:
    draws = _bag_draws(_record(), np.array([3000, 0, 1000], np.int32), 4000)
    assert set(draws.tolist()) == {0, 2}
    assert 2850 <= int((draws == 0).sum()) <= 3150
    assert _bag_draws(_record(), np.array([0, 0, 0], np.int32), 1).tolist() == [-1]
    rec = _record()
    force_chance(rec, [2, 1])
    bag = np.array([5, 0, 1], np.int32)
    first, second = _bag_draws(rec, bag, 2).tolist()
    assert first == 2  # forced and available
    assert second == 0  # kind 1 forced but the bag holds none: drawn at random (only kind 0 is left)
    assert bag.tolist() == [4, 0, 0]


def test_rank_and_share_breaks_ties_left_to_right_and_splits_the_rest() -> None:
    rank, share = np.zeros(4, np.int32), np.zeros(4)
    K.rank_and_share(np.array([[5, 1], [5, 2], [3, 9]], np.int64), 3, rank, share)
    assert rank[:3].tolist() == [2, 1, 3] and share[:3].tolist() == [0.0, 1.0, 0.0]
    K.rank_and_share(np.array([[5, 1], [5, 1], [3, 0], [5, 1]], np.int64), 4, rank, share)
    assert rank.tolist() == [1, 1, 4, 1]
    assert share.tolist() == [1 / 3, 1 / 3, 0.0, 1 / 3]


@njit
def _canonical(items, seed):
    rng = np.empty(1, np.uint64)
    rng[0] = seed
    out = items.copy()
    K.shuffle_canonical(rng, out, out.shape[0])
    return out


def test_sort_in_place_sorts_only_the_head() -> None:
    items = np.array([5, 3, 9, 1, 1, 7, 0, 2], np.int32)
    njit(lambda a, n: K.sort_in_place(a, n))(items, 6)
    assert items.tolist() == [1, 1, 3, 5, 7, 9, 0, 2]


def test_shuffle_canonical_depends_on_the_items_not_their_order() -> None:
    """A determinize's view must not leak an order its seat cannot see: any order of the same items, one
    result for one generator state; another state, another permutation of the same items."""
    items = np.array([4, 0, 2, 2, 7, 1, 3, 3, 5], np.int32)
    seed = np.uint64(seed_to_state(11))
    first = _canonical(items, seed)
    for order in (items[::-1].copy(), np.sort(items), np.roll(items, 4)):
        assert _canonical(order, seed).tolist() == first.tolist()
    assert sorted(first.tolist()) == sorted(items.tolist())
    assert _canonical(items, np.uint64(seed_to_state(12))).tolist() != first.tolist()
