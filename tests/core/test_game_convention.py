"""A game's rules and bots are found by convention, like its ``facts`` and ``checks`` companions: ``rules.py`` and
``bots.py`` beside its ``game.py``; a package laid out otherwise names them on the Game class."""

from __future__ import annotations

import random
import sys
import textwrap

import pytest

from simlab.core.errors import SimlabError
from simlab.core.registry import get_game
from tests.examples.pig import rules as pig_rules
from tests.examples.pig.game import GAME as PIG
from tests.examples.pig.game import PigGame

GAME_BODY = """
from simlab.core.bots import BotRegistry, heuristic
from simlab.core.game import Game
from tests.examples.pig.bots import HOLDER
from tests.examples.pig.config import MAX_PLAYERS, PigConfig


class OddGame(Game):
    name = "{name}"
    title = "Odd"
    rules_version = "odd-1.0"
    config_class = PigConfig
    min_players = 2
    max_players = MAX_PLAYERS
    hooks = ("determinize", "score_now")
    bots = BotRegistry("{name}", [heuristic("holder", "holds at hold_at", HOLDER)])
{extra}

GAME = OddGame()
"""


@pytest.fixture
def package(tmp_path, monkeypatch):
    """Write a package ``name`` with ``files`` (name -> source) and import its ``game.GAME``; forgotten after."""
    monkeypatch.syspath_prepend(str(tmp_path))
    made: list[str] = []

    def write(name: str, files: dict[str, str]):
        root = tmp_path / name
        root.mkdir()
        (root / "__init__.py").write_text("")
        for file, source in files.items():
            (root / file).write_text(textwrap.dedent(source))
        made.append(name)
        return __import__(f"{name}.game", fromlist=["GAME"]).GAME

    yield write
    for mod in [m for m in sys.modules if m.split(".")[0] in made]:
        del sys.modules[mod]


@pytest.mark.parametrize("name", ["massilia", "roma", "pantheon", "merchant_of_venus"])
def test_each_shipped_game_finds_its_rules_and_bots_beside_its_game_py(name: str) -> None:
    game = get_game(name)
    assert "rules_module" not in type(game).__dict__ and "policy" not in type(game).__dict__  # nothing named
    assert game.rules_module == f"simlab.games.{name}.rules"
    assert game.policy == f"simlab.games.{name}.bots:heuristic_policy"


def test_pig_found_by_convention_plays() -> None:
    assert (PIG.rules_module, PIG.policy) == ("tests.examples.pig.rules", "tests.examples.pig.bots:heuristic_policy")
    record = PIG.play_batch(PIG.make_config(players=2), [1, 2], PIG.make_bots(["holder", "holder"], 2))
    assert len(record) == 2 and PIG.phase_names == pig_rules.PHASE_NAMES


def test_a_package_with_rules_py_and_bots_py_needs_name_neither(package) -> None:
    game = package(
        "conv_plain",
        {
            "rules.py": "from tests.examples.pig.rules import *\n",
            "bots.py": "from tests.examples.pig.bots import *\n",
            "game.py": GAME_BODY.format(name="conv_plain", extra=""),
        },
    )
    assert (game.rules_module, game.policy) == ("conv_plain.rules", "conv_plain.bots:heuristic_policy")


def test_the_explicit_form_is_still_accepted(package) -> None:
    """A plug-in laid out otherwise names its modules: ``rules_module`` and ``bots_module``, or ``policy`` whole."""
    files = {
        "engine.py": "from tests.examples.pig.rules import *\n",
        "players.py": "from tests.examples.pig.bots import *\n",
    }
    named = package(
        "conv_named",
        files
        | {"game.py": GAME_BODY.format(name="conv_named", extra='    rules_module = "conv_named.engine"\n'
                                                                   '    bots_module = "conv_named.players"\n')},
    )  # fmt: skip
    assert (named.rules_module, named.policy) == ("conv_named.engine", "conv_named.players:heuristic_policy")
    extra = '    rules_module = "conv_target.engine"\n    policy = "conv_target.players:heuristic_policy"\n'
    target = package("conv_target", files | {"game.py": GAME_BODY.format(name="conv_target", extra=extra)})
    assert (target.rules_module, target.policy) == ("conv_target.engine", "conv_target.players:heuristic_policy")


def test_a_variant_defined_elsewhere_finds_its_parent_s_rules() -> None:
    """A test's subclass of a game (defined in a folder without rules.py) plays its parent's rules and bots."""

    class Variant(PigGame):
        name = "pig_variant"

    assert (Variant().rules_module, Variant().policy) == (PIG.rules_module, PIG.policy)


def test_a_package_without_rules_py_is_refused_naming_the_file(package) -> None:
    game = package(
        "conv_missing",
        {
            "bots.py": "from tests.examples.pig.bots import *\n",
            "game.py": GAME_BODY.format(name="conv_missing", extra=""),
        },
    )
    with pytest.raises(SimlabError, match=r"no rules module found: by convention it is rules\.py beside game\.py "
                                          r"in conv_missing"):  # fmt: skip
        _ = game.rules_module
    assert game.policy == "conv_missing.bots:heuristic_policy"


def test_a_state_s_fact_columns_read_under_their_old_name_too() -> None:
    """``State.fact_columns()`` (the per-seat columns a run writes) was ``State.facts()``; the old name still reads."""
    state = PIG.new_state(PIG.make_config(players=2), seed=3)
    rng = random.Random(3)
    for _ in range(100_000):
        if state.is_terminal():
            break
        state.apply(rng.choice(state.legal_actions()))
    assert state.facts() == state.fact_columns() and set(state.fact_columns()) == set(PIG.fact_schema())
