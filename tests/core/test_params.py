"""ParamLayout: a compiled bot's parameters declared once, their vector slots, and defaults set by name."""

from __future__ import annotations

import importlib

import pytest

from simlab import get_game
from simlab.core.params import ParamLayout

BOT_MODULES = {
    "massilia": "simlab.games.massilia.bots",
    "roma": "simlab.games.roma.bots",
    "pantheon": "simlab.games.pantheon.bots",
    "merchant_of_venus": "simlab.games.merchant_of_venus.bots",
}


def layout() -> ParamLayout:
    return ParamLayout(money_value="points per coin", token_cost="points a token costs", keep="least gain kept")


def test_slots_follow_the_declared_order():
    params = layout()
    assert params.names == ("money_value", "token_cost", "keep")
    assert params.indices("keep", "money_value") == (2, 0)
    assert len(params) == 3
    assert params.doc("token_cost") == "points a token costs"


def test_values_are_set_by_name_and_come_out_in_vector_order():
    values = layout().values(keep=5, token_cost=2.5, money_value=0.45)
    assert list(values.items()) == [("money_value", 0.45), ("token_cost", 2.5), ("keep", 5.0)]
    assert all(type(v) is float for v in values.values())


def test_a_missing_parameter_is_refused_unless_a_fill_is_given():
    with pytest.raises(ValueError, match="missing: token_cost, keep"):
        layout().values(money_value=1.0)
    assert layout().values(0.0, keep=1.0) == {"money_value": 0.0, "token_cost": 0.0, "keep": 1.0}


def test_a_misspelt_parameter_is_refused_with_the_closest_name():
    with pytest.raises(ValueError, match="no bot parameter 'token_cots' \\(did you mean 'token_cost'"):
        layout().values(0.0, token_cots=1.0)
    with pytest.raises(ValueError, match="no bot parameter 'kept'"):
        layout().index("kept")


def test_every_parameter_says_what_it_means():
    with pytest.raises(ValueError, match="say in a few words"):
        ParamLayout(hold_at="")
    with pytest.raises(ValueError, match="at least one"):
        ParamLayout()


@pytest.mark.parametrize("game", sorted(BOT_MODULES))
def test_every_game_declares_its_bot_parameters_once(game):
    """Each heuristic's defaults cover the game's ParamLayout in its order, so the vector the registry builds
    (and a manifest names) reads every slot where the compiled policy expects it."""
    bots = importlib.import_module(BOT_MODULES[game])
    registry = get_game(game).bots
    heuristics = [name for name in registry.names() if registry.info(name).params]
    assert heuristics
    for name in heuristics:
        info = registry.info(name)
        assert tuple(info.params) == bots.PARAMS.names, name
        vector = registry.make(name).params
        for key, value in info.params.items():
            assert vector[bots.PARAMS.index(key)] == value, (name, key)


TABLE = """
    parameter    trader  priest  meaning
    money_value  0.45    0.45    points per coin
    token_cost   2.5     3       points a token costs, a long meaning that goes on
                                 over a second line
    keep         5.0     -1e3    least gain kept
"""


def test_a_table_declares_the_parameters_and_every_bots_values_once():
    params = ParamLayout.table(TABLE)
    assert params.names == ("money_value", "token_cost", "keep")
    assert params.doc("token_cost") == "points a token costs, a long meaning that goes on over a second line"
    trader, priest = params.defaults("trader", "priest")
    assert list(trader.items()) == [("money_value", 0.45), ("token_cost", 2.5), ("keep", 5.0)]
    assert priest == params.values(money_value=0.45, token_cost=3.0, keep=-1000.0)
    assert all(type(v) is float for v in priest.values())
    trader["keep"] = 0.0  # a copy: the layout's own values stay
    assert params.defaults("trader")[0]["keep"] == 5.0


def test_a_malformed_table_is_refused_saying_what_a_row_holds():
    with pytest.raises(ValueError, match=r"header 'parameter BOT\.\.\. meaning'"):
        ParamLayout.table("name trader meaning\nx 1 a thing")
    with pytest.raises(ValueError, match="'keep': one number per bot \\(trader, priest\\), then what it means"):
        ParamLayout.table("parameter trader priest meaning\nkeep 1.0 least gain kept")
    with pytest.raises(ValueError, match="'keep' is declared twice"):
        ParamLayout.table("parameter trader meaning\nkeep 1 a\nkeep 2 b")
    with pytest.raises(ValueError, match="say in a few words"):
        ParamLayout.table("parameter trader meaning\nkeep 1")
    with pytest.raises(ValueError, match="no bot column 'prest' \\(did you mean 'priest'"):
        ParamLayout.table(TABLE).defaults("prest")
    with pytest.raises(ValueError, match="no bot column 'trader'; declared: none"):
        layout().defaults("trader")
