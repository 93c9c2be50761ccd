"""Games and bots that travel: a bot registry is bound to its Game object, so the bots of a game no registry
lists (Pig, tests/examples/pig) are checked and act like any other's; a Game pickles as its name and importable
address, so joblib workers rebuild the very game object (registered or not)."""

from __future__ import annotations

import pickle
import subprocess
import sys

import numpy as np
import pytest

import simlab
from simlab.core.errors import BotSpecError, SimlabError, UnknownGameError
from simlab.core.game import game_target, rebuild_game
from tests.examples.pig import rules as PIG_RULES
from tests.examples.pig.game import GAME as PIG
from tests.examples.pig.game import PigGame


def test_pig_is_registered_nowhere() -> None:
    with pytest.raises(UnknownGameError):
        simlab.get_game("pig")


def test_a_compiled_bot_of_an_unregistered_game_acts() -> None:
    """It used to look its game up by name in the global registry (UnknownGameError for Pig)."""
    bot = PIG.bots.make("holder")
    assert bot.game is PIG
    state = PIG.new_state(PIG.make_config(), 3)
    state.apply(0)  # roll once: holding is legal after a roll that did not bust
    while state.record[0]["turn_total"] == 0:
        state = PIG.new_state(PIG.make_config(), int(state.seed) + 1)
        state.apply(0)
    action = bot.act(state, state.legal_actions(), np.random.default_rng(1))
    assert action == (PIG_RULES.A_HOLD if state.record[0]["turn_total"] >= 20 else PIG_RULES.A_ROLL)


class _Unsearchable(PigGame):
    """Pig declaring no determinize hook (its rules still define one: binding its kernel would say so)."""

    hooks = ("score_now",)


UNSEARCHABLE = _Unsearchable()


def test_the_search_bot_checks_the_hooks_of_an_unregistered_game() -> None:
    """The determinize check was skipped for a game the registry did not know."""
    with pytest.raises(BotSpecError, match=r"cannot play 'pig'.*determinize"):
        UNSEARCHABLE.bots.make("ismcts")
    assert PIG.bots.make("ismcts:iterations=4").game is PIG


def test_a_registry_read_from_two_game_objects_binds_each() -> None:
    assert PIG.bots.owner is PIG
    assert UNSEARCHABLE.bots.owner is UNSEARCHABLE
    assert UNSEARCHABLE.bots.names() == PIG.bots.names()


@pytest.mark.parametrize("game", [simlab.get_game("roma"), PIG], ids=["registered", "unregistered"])
def test_a_game_and_its_bots_pickle_to_the_same_objects(game) -> None:
    assert pickle.loads(pickle.dumps(game)) is game
    bot = game.make_bots([game.default_lineup(2)[0]], 1)[0]
    assert pickle.loads(pickle.dumps(bot)).game is game
    assert len(pickle.dumps(game)) < 200  # by address, not by value


def test_a_game_pickles_by_the_address_it_is_importable_at() -> None:
    assert game_target(PIG) == "tests.examples.pig.game:GAME"
    assert game_target(simlab.get_game("massilia")) == "simlab.games.massilia.game:GAME"
    assert game_target(UNSEARCHABLE) == f"{__name__}:UNSEARCHABLE"
    fresh = PigGame()  # held by no module attribute: rebuilt from its class
    assert game_target(fresh) == "tests.examples.pig.game:PigGame"
    assert type(pickle.loads(pickle.dumps(fresh))) is PigGame


def test_a_game_whose_class_no_worker_can_import_is_refused_when_pickled() -> None:
    class Local(PigGame):
        pass

    with pytest.raises(pickle.PicklingError, match=r"defined inside a function.*jobs=1"):
        pickle.dumps(Local())


def test_a_worker_that_cannot_import_the_game_says_so() -> None:
    with pytest.raises(SimlabError, match=r"cannot import no_such_module:GAME.*workers can import"):
        rebuild_game("no_such_module:GAME", "mygame")
    with pytest.raises(SimlabError, match=r"holds 'pig'.*not 'other'"):
        rebuild_game("tests.examples.pig.game:GAME", "other")


FRESH_PROCESS = """
import pickle, sys
game = pickle.loads(sys.stdin.buffer.read())
print(game.name, game.bots.owner is game, type(game).__module__)
"""


def test_an_unregistered_game_unpickles_in_a_fresh_process() -> None:
    done = subprocess.run(
        [sys.executable, "-c", FRESH_PROCESS], input=pickle.dumps(PIG), capture_output=True, check=False
    )
    assert done.returncode == 0, done.stderr.decode()
    assert done.stdout.decode().split() == ["pig", "True", "tests.examples.pig.game"]


def _play(game, seeds):
    config = game.make_config()
    bots = game.make_bots(["holder", "random"], 2)
    return game.play_batch(config, seeds, bots)["score"][:, :2].tolist()


def test_joblib_workers_play_an_unregistered_game_handed_to_them_as_an_object() -> None:
    from joblib import Parallel, delayed

    parts = [[1, 2, 3], [4, 5, 6]]
    here = [_play(PIG, part) for part in parts]
    there = Parallel(n_jobs=2, backend="loky")(delayed(_play)(PIG, part) for part in parts)
    assert there == here


def test_the_compensation_search_plays_an_unregistered_game_on_two_workers() -> None:
    """It handed its workers the game's name, which a worker could not look up for a game no registry lists."""
    from simlab.experiments.adaptive import find_fair_offset
    from simlab.experiments.knob_search import KnobSearch

    config = PIG.make_config("short")
    one, two = (
        find_fair_offset(KnobSearch(PIG, config, "start_points", ["holder", "holder"], 40, 160, 5, jobs=jobs), 1)
        for jobs in (1, 2)
    )
    assert one.games == two.games == 160
    assert (one.win_share == two.win_share).all() and (one.offset == two.offset).all()


def test_games_json_lists_what_each_game_declares() -> None:
    import json

    from click.testing import CliRunner

    from simlab.cli import cli

    out = CliRunner().invoke(cli, ["games", "--json"])
    assert out.exit_code == 0, out.output
    games = {g["name"]: g for g in json.loads(out.output)}
    assert set(games) == set(simlab.available_games())
    mov = games["merchant_of_venus"]
    assert set(mov["hooks"]) == {"determinize", "score_now", "estimate_now"} and mov["searchable"]
    assert "money.start" in mov["roles"] and {i["kind"] for i in mov["interventions"]} >= {"money"}
    assert games["roma"]["players"] == {"min": 2, "max": 2}
    assert PIG.info().hooks.keys() == {"determinize", "score_now"} and PIG.info().cuttable


def test_a_subclass_s_game_object_keeps_one_bound_registry() -> None:
    assert UNSEARCHABLE.bots is UNSEARCHABLE.bots and PIG.bots is PIG.bots
