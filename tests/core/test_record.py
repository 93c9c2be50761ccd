"""The record contract (simlab.core.record): every state starts with the core fields, and every knob
reaches the config record the compiled rules read — or is declared as used only in Python.

Both are checked for every game by the shipped kit (simlab.testing: checks "record" and "knobs", run by
tests/core/test_contract.py): a knob that silently does nothing fails there, each knob changed to every nearby
valid value, on the default config, every preset, every choice of the knobs that take names and one nearby
change of any other knob, until the record changes. Here: the record's own functions.
"""

from __future__ import annotations

import numpy as np
import pytest

from simlab.core.config import knob
from simlab.core.record import MAX_FORCED, config_record, force_chance
from tests.examples.pig.game import GAME as PIG


def test_the_record_contract_is_checked_by_the_shipped_kit() -> None:
    """The checks that every state dtype starts with the core fields and that every knob reaches the config
    record run for every game in the contract suite (simlab.testing, checks "record" and "knobs"); here one
    knob that reaches nothing is caught by them."""
    import dataclasses as dc

    from simlab.testing import ContractFailure, check_game
    from tests.examples.pig.config import PigConfig

    @dc.dataclass(frozen=True)
    class SilentConfig(PigConfig):
        lucky_number: int = knob(7, "assumption", "a knob the rules never read", record=None)

    class SilentPig(type(PIG)):
        config_class = SilentConfig

    with pytest.raises(ContractFailure, match=r"check 'knobs' failed: knobs that never reach .*lucky_number"):
        check_game(SilentPig(), ["record", "knobs"])


def test_a_knob_without_a_record_field_is_named() -> None:
    from tests.examples.pig import rules

    narrow = np.dtype([d for d in rules.CONFIG_DTYPE.descr if d[0] != "bust_face"], align=True)
    with pytest.raises(TypeError, match=r"PigConfig.bust_face: no config-record field 'bust_face'"):
        config_record(PIG.make_config(), narrow)


def test_forced_chance_outcomes_come_first_then_the_stream() -> None:
    """A die fixed by value is rolled as that value; afterwards the chance stream continues as before."""
    config = PIG.make_config()
    plain = PIG.new_state(config, 5)
    forced = PIG.new_state(config, 5)
    force_chance(forced.record, [4, 6])
    forced.apply(0)
    forced.apply(0)
    assert int(forced.record[0]["turn_total"]) == 10
    plain.apply(0)
    forced.apply(0)
    assert int(forced.record[0]["last_roll"]) == int(plain.record[0]["last_roll"])
    with pytest.raises(ValueError, match=f"at most {MAX_FORCED}"):
        force_chance(forced.record, [1] * (MAX_FORCED + 1))
