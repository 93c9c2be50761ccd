"""The checks protocol (``simlab.core.checks``): a game's checks module is found through the game."""

from __future__ import annotations

import numpy as np
import pytest

from simlab import available_games, get_game
from simlab.core.checks import GameChecks, checks_for, checks_module_name


@pytest.mark.parametrize("name", ["massilia", "roma"])
def test_builtin_games_ship_their_checks(name):
    game = get_game(name)
    checks = checks_for(game)
    assert checks.module == f"simlab.games.{name}.checks"
    import importlib

    module = importlib.import_module(checks.module)
    for hook in ("invariants", "hidden_fields", "determinized", "resampled"):
        assert getattr(checks, hook) is getattr(module, hook)
    state = game.new_state(game.make_config(), 1)
    checks.invariants(state.record[0], state.config)
    hidden = set(checks.hidden_fields(state.record[0], 0))
    assert hidden and hidden <= set(state.record.dtype.names)


class _Bare:
    """A game object from a module with no checks next to it."""


def test_a_game_without_a_checks_module_gets_the_defaults():
    game = _Bare()
    game.__class__.__module__ = "tests_no_such_package.game"
    checks = checks_for(game)
    assert checks == GameChecks(module=None)
    rec = np.zeros(1, dtype=[("a", np.int32), ("b", np.int32)])[0]
    assert checks.invariants(rec, None) is None
    assert set(checks.hidden_fields(rec, 0)) == {"a", "b"}  # every field hidden: no public-field check
    assert checks.resampled(None, None, 0) is True


def test_a_game_may_name_its_checks_module():
    class Plugin:
        checks_module = "simlab.games.roma.checks"

    assert checks_module_name(Plugin()) == "simlab.games.roma.checks"
    assert checks_for(Plugin()).module == "simlab.games.roma.checks"


def test_a_checks_module_that_fails_to_import_is_an_error(tmp_path, monkeypatch):
    (tmp_path / "broken_checks_pkg").mkdir()
    (tmp_path / "broken_checks_pkg" / "__init__.py").write_text("")
    (tmp_path / "broken_checks_pkg" / "checks.py").write_text("import no_such_module_xyz\n")
    monkeypatch.syspath_prepend(str(tmp_path))

    class Plugin:
        checks_module = "broken_checks_pkg.checks"

    with pytest.raises(ModuleNotFoundError, match="no_such_module_xyz"):
        checks_for(Plugin())


def test_every_registered_game_resolves_its_checks():
    for name in available_games():
        assert isinstance(checks_for(get_game(name)), GameChecks)
