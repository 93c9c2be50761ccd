"""A bot written in plain Python plugs into the same protocol as the compiled ones."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest

from simlab import get_game
from simlab.core.bots import BotInfo


class FirstLegal:
    """Always the first legal action (deterministic, so games can be compared)."""

    def __init__(self, name: str = "first") -> None:
        self.name = name
        self.calls = 0

    def act(self, state, legal_actions: Sequence[int], rng: np.random.Generator) -> int:
        self.calls += 1
        assert state.legal_actions() == list(legal_actions)
        return legal_actions[0]


def test_python_bot_plays_through_game_play_and_batch() -> None:
    game = get_game("massilia")
    config = game.make_config(players=3)
    compiled = game.make_bots(["trader", "random"], 2)
    bot = FirstLegal()
    state = game.play(config, 5, [bot, *compiled])
    assert state.is_terminal()
    assert bot.calls > 0
    records = game.play_batch(config, [5, 6], [FirstLegal(), *compiled])
    assert np.array_equal(records[0]["score"], state.record[0]["score"])
    assert abs(records["share"][:, :3].sum(axis=1) - 1).max() < 1e-12


def test_python_bot_sees_a_determinized_view() -> None:
    """The view keeps the seat's own hand, every hand size and the pool of unseen cards, but it is a
    copy whose unseen cards were reshuffled (so the real state is never handed to a Python bot)."""
    game = get_game("massilia")
    config = game.make_config(players=2)
    views: list = []
    pairs: list = []

    class Recorder(FirstLegal):
        def act(self, state, legal_actions, rng):
            views.append(state)
            return super().act(state, legal_actions, rng)

    def on_action(state, action):
        if state.current_player == 0:
            pairs.append((state.clone(), views[-1]))

    game.play(config, 9, [Recorder(), game.bots.make("trader")], on_action=on_action)
    assert pairs
    differs = 0
    for real, view in pairs:
        r, v = real.record[0], view.record[0]
        assert view is not real
        assert np.array_equal(r["hand"][0], v["hand"][0])
        assert np.array_equal(r["hand_n"], v["hand_n"])
        assert np.array_equal(r["discard"], v["discard"])
        unseen_real = np.bincount(r["deck"][: r["deck_n"]], minlength=9) + r["hand"][1]
        unseen_view = np.bincount(v["deck"][: v["deck_n"]], minlength=9) + v["hand"][1]
        assert np.array_equal(unseen_real, unseen_view)
        differs += not np.array_equal(r["deck"][: r["deck_n"]], v["deck"][: v["deck_n"]])
    assert differs > 0


def test_bots_can_be_registered_at_run_time(monkeypatch: pytest.MonkeyPatch) -> None:
    game = get_game("massilia")
    monkeypatch.setattr(game.bots, "_infos", dict(game.bots._infos))  # the bot leaves with the test
    game.bots.register(BotInfo("first", f"{__name__}:FirstLegal", "first legal action"))
    bot = game.bots.make("first")
    assert isinstance(bot, FirstLegal)
    assert "first" in game.bots.names()
