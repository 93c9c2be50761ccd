"""The shared position machinery (``simlab.core.position``): names, counts and the forced-outcome queue."""

from __future__ import annotations

import numpy as np
import pytest

from simlab.core.errors import PositionError
from simlab.core.position import check_count, count_vector, force, forced_pending, has_forcing, per_seat, resolve

NAMES = ("pink", "orange", "purple", "beige")


class FakeState:
    """A state whose record carries the core forced-outcome fields (``forced`` int32[16], ``forced_n``,
    ``forced_i``), as every engine's record does once the core record contract lands."""

    def __init__(self):
        dtype = np.dtype([("forced", np.int32, (16,)), ("forced_n", np.int32), ("forced_i", np.int32)])
        self.record = np.zeros(1, dtype=dtype)


def test_force_queues_values_after_those_still_pending_and_reuses_the_queue():
    st = FakeState()
    assert has_forcing(st.record) and forced_pending(st) == []
    force(st, [3, 5])
    force(st, [6])
    assert forced_pending(st) == [3, 5, 6]
    st.record[0]["forced_i"] = 2  # the engine used two of them
    force(st, [1, 2])
    rec = st.record[0]
    assert rec["forced_i"] == 0 and rec["forced_n"] == 3 and forced_pending(st) == [6, 1, 2]
    with pytest.raises(PositionError, match=r"^force: at most 16 chance outcomes can be queued, got 17"):
        force(st, [1] * 14)
    assert forced_pending(st) == [6, 1, 2]  # unchanged


def test_force_on_a_record_without_the_fields_is_a_clear_error():
    class Old:
        record = np.zeros(1, dtype=[("rng", np.uint64, (1,))])

    assert not has_forcing(Old.record)
    with pytest.raises(PositionError, match="no forced-outcome fields"):
        force(Old(), [1])


def test_names_counts_and_seats():
    assert resolve("bag", "Pink", NAMES) == 0 and resolve("bag", 3, NAMES) == 3
    with pytest.raises(PositionError, match=r"^bag: unknown 'red'; allowed: pink, orange, purple, beige$"):
        resolve("bag", "red", NAMES)
    with pytest.raises(PositionError, match=r"^bag: 4 is not one of 0\.\.3"):
        resolve("bag", 4, NAMES)
    assert count_vector("bag", {"pink": 2, "beige": 1}, NAMES).tolist() == [2, 0, 0, 1]
    assert count_vector("bag", ["pink", "pink", "purple"], NAMES).tolist() == [2, 0, 1, 0]
    assert count_vector("bag", [1, 2, 3, 4], NAMES).tolist() == [1, 2, 3, 4]
    assert count_vector("bag", [], NAMES).tolist() == [0, 0, 0, 0]
    assert count_vector("hand", [1, 1], NAMES, items_only=True).tolist() == [0, 2, 0, 0]
    with pytest.raises(PositionError, match=r"^bag: give a mapping"):
        count_vector("bag", [1, 2], NAMES)
    with pytest.raises(PositionError, match=r"^bag\[pink\]: -2 is negative"):
        count_vector("bag", {"pink": -2}, NAMES)
    with pytest.raises(PositionError, match=r"^x: expected a whole number, got 1\.5"):
        check_count("x", 1.5)
    assert per_seat("money", 3, 2, [0, 0]) == [3, 3]
    assert per_seat("money", {1: 4}, 2, [7, 7]) == [7, 4]
    assert per_seat("money", None, 2, [7, 8]) == [7, 8]
    with pytest.raises(PositionError, match=r"^money: seat 2 is not one of 0\.\.1"):
        per_seat("money", {2: 1}, 2, [0, 0])
