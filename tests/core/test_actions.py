"""ActionLayout: action ids declared by family, the constants the compiled rules read, encode and decode."""

from __future__ import annotations

import importlib

import pytest

from simlab.core.actions import ActionLayout, reserved

GAME_RULES = (
    "simlab.games.massilia.rules",
    "simlab.games.roma.rules",
    "simlab.games.pantheon.rules",
    "simlab.games.merchant_of_venus.rules",
    "tests.examples.pig.rules",
)


def test_families_take_consecutive_ids_in_declared_order():
    layout = ActionLayout("pass", "roll[4]", "keep[16]", "take[2,4,6]")
    assert layout.starts("pass", "roll", "keep", "take") == (0, 1, 5, 21)
    assert layout.size == 21 + 48


def test_encode_is_row_major_as_the_compiled_arithmetic():
    layout = ActionLayout("pass", "take[2,4,6]")
    # the compiled rules write A_TAKE + source * 24 + colour * 6 + value - 1
    assert layout.encode("take", 1, 2, 4) == layout.start("take") + 1 * 24 + 2 * 6 + 4
    assert layout.encode("pass") == 0


def test_decode_inverts_encode_for_every_id():
    layout = ActionLayout("pass", "roll[4]", "move[3,2]")
    for a in range(layout.size):
        family, index = layout.decode(a)
        again = layout.encode(family, *(index if isinstance(index, tuple) else (index,)))
        assert again == a
    assert layout.decode(layout.encode("move", 2, 1)) == ("move", (2, 1))
    assert layout.decode(3) == ("roll", 2)


def test_a_reserved_block_keeps_later_ids_where_they_were():
    layout = ActionLayout("a[3]", reserved(5, "ids kept for result folders"), "b[2]")
    assert layout.start("b") == 8
    assert layout.size == 10
    assert layout.find(4) is None
    with pytest.raises(ValueError, match="belongs to no action family"):
        layout.decode(4)
    assert layout.describe(4) == "action 4"


def test_out_of_range_and_misspelt_are_refused():
    layout = ActionLayout("pass", "roll[4]", "take[2,3]")
    with pytest.raises(ValueError, match="out of range"):
        layout.encode("roll", 4)
    with pytest.raises(ValueError, match="takes 2 index"):
        layout.encode("take", 1)
    with pytest.raises(ValueError, match="did you mean 'roll'"):
        layout.encode("rol", 1)
    with pytest.raises(ValueError, match="belongs to no action family"):
        layout.decode(layout.size)
    with pytest.raises(ValueError, match="belongs to no action family"):
        layout.decode(-1)


@pytest.mark.parametrize("bad", ["Roll[4]", "roll[]", "roll[0]", "roll[4", "two words"])
def test_a_malformed_declaration_is_refused(bad):
    with pytest.raises(ValueError, match="action family"):
        ActionLayout(bad)


def test_a_family_declared_twice_is_refused():
    with pytest.raises(ValueError, match="declared twice"):
        ActionLayout("roll[2]", "hold", "roll[3]")


def test_default_description_names_the_family_and_index():
    layout = ActionLayout("pass", "roll_die[4]", "take[2,3]")
    assert [layout.describe(a) for a in (0, 2, layout.encode("take", 1, 2))] == ["pass", "roll die 1", "take 1,2"]
    assert layout.describe(99) == "action 99"


@pytest.mark.parametrize("module", GAME_RULES)
def test_every_game_declares_its_actions_and_reads_them_back(module):
    """The generated constants are plain ints (numba freezes them) and every id below MAX_ACTIONS that a
    family holds decodes to it: the layout is the one place a game's action ids are written."""
    rules = importlib.import_module(module)
    layout = rules.ACTIONS
    assert layout.size == rules.MAX_ACTIONS
    constants = {name: value for name, value in vars(rules).items() if name.startswith("A_")}
    assert constants and all(type(v) is int for v in constants.values())
    for family in layout.families:
        assert layout.decode(family.start).family == family.name
        assert layout.decode(family.start + family.size - 1).family == family.name
        assert constants[f"A_{family.name.upper()}"] == family.start, family.name


def test_massilia_ids_stay_where_result_folders_hold_them():
    """Massilia's ids from before the layout (hand-placed offsets, 471..479 unused): result folders and golden
    transcripts hold them."""
    from simlab.games.massilia import rules as R

    assert (R.A_VENUS_FEWER, R.A_TAKE, R.A_EXTRA_TOKEN, R.A_EXTRA_JUNON) == (13, 16, 64, 112)
    assert (R.A_CHANGE_TOKEN, R.A_MOD_TOKEN, R.A_MOVE, R.A_CUBE, R.A_COUNT) == (160, 168, 264, 304, 432)
    assert (R.A_KEEPDIE_MARS, R.A_TAKE_EXEC, R.MAX_ACTIONS) == (470, 480, 528)
    assert all(R.ACTIONS.find(a) is None for a in range(471, 480))
