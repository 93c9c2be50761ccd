"""The transcripts' wording: counts agree with their nouns, a count says what it counts, and the default
line-up is the game's own bots (issue 17: "[dice to roll] 0", "1 stalls", "1 sesterces", random churn)."""

from __future__ import annotations

import re

import pytest

from simlab import get_game
from simlab.core.transcript import count, play_with_transcript
from simlab.run.bench import seat_specs

#: a count of 1 followed by a plural noun of either game's transcript
PLURAL_AFTER_ONE = re.compile(r"(?<![\d.-])1 (stalls|sesterces|sestertii|tokens|points|dice|cubes)\b")


def test_count_agrees_with_the_noun() -> None:
    assert count(1, "stall") == "1 stall"
    assert count(2, "stall") == "2 stalls"
    assert count(0, "grey die", "grey dice") == "0 grey dice"
    assert count(-1, "point") == "-1 point"
    assert count(-55, "point") == "-55 points"


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_massilia_transcript_names_what_each_count_counts(seed: int) -> None:
    game = get_game("massilia")
    config = game.make_config(players=4)
    lines = play_with_transcript(game, config, seed, ["trader", "priest", "random", "trader"]).lines
    if seed == 2:  # a game in which a consul's tax is paid
        assert any("[pay consul tax]" in ln for ln in lines)
    rolls = [ln for ln in lines if "[dice to roll]" in ln]
    assert rolls, "no roll decisions narrated"
    for line in rolls:
        assert re.search(r"\] roll \d+ (grey|brown|black|beige) (die|dice)$", line), line
        n = int(re.search(r"roll (\d+)", line)[1])
        assert line.endswith(" die") == (n == 1), line
    for line in (ln for ln in lines if "[coloured cubes to buy]" in ln):
        assert re.search(r"\] buy \d+ (pink|orange|purple) cubes?( and \d+ beige cubes?)?$", line), line
    for line in (ln for ln in lines if "[pay consul tax]" in ln):
        assert re.search(r"\] pay the tax on \d+ cubes?(, give up \d+ cubes?)?$", line), line
    for line in (ln for ln in lines if "[keep rolled die]" in ln):
        assert re.search(r"\] (grey|brown|black|beige) [1-6]: ", line), line
    assert not [ln for ln in lines if PLURAL_AFTER_ONE.search(ln)]


def test_massilia_scores_say_one_stall_and_one_sesterce() -> None:
    game = get_game("massilia")
    config = game.make_config(players=2)
    state = play_with_transcript(game, config, 5, ["trader", "priest"]).state
    s = state.record[0]
    s["money"][0], s["tokens"][0], s["score"][0] = 1, 1, 1
    s["stall_owner"][:] = -1
    s["stall_owner"][3] = 0
    line = state.narrate_scores()[0]
    assert "1 point (" in line and "1 stall," in line and "1 sesterce," in line and "1 token)" in line, line
    s["money"][0] = 2
    assert "2 sesterces," in state.narrate_scores()[0]


def test_roma_scores_say_one_sestertius() -> None:
    game = get_game("roma")
    state = play_with_transcript(game, game.make_config(), 5, ["builder", "warrior"]).state
    state.record[0]["money"][0] = 1
    state.record[0]["money"][1] = 3
    first, second = state.narrate_scores()
    assert "1 sestertius," in first and "3 sestertii," in second


@pytest.mark.parametrize(
    ("name", "players", "lineup"),
    [
        ("massilia", 4, ["trader", "priest", "trader", "priest"]),
        ("massilia", 3, ["trader", "priest", "trader"]),
        ("roma", 2, ["builder", "warrior"]),
    ],
)
def test_the_default_lineup_is_the_games_declared_bots(name: str, players: int, lineup: list[str]) -> None:
    game = get_game(name)
    assert seat_specs(game, [], players) == lineup
    assert "random" not in game.default_lineup(players)
    for bot in game.default_bots:  # a declared default is one of the game's bots
        assert bot in game.bots.names()


#: a count of 1 followed by a plural noun of Pantheon's or Merchant of Venus's transcript, or 0 by a singular
ONE_PLURAL = re.compile(
    r"(?<![\d.,-])1 (points|credits|feet|columns|holds|cards|eras|nations|rounds|tiles|fame points|MPs)\b"
)
ZERO_SINGULAR = re.compile(r"(?<![\d.,-])0 (point|credit|foot|column|hold|card|era|nation|round|tile)\b(?! \w+ slot)")


@pytest.mark.parametrize(("name", "unit"), [("pantheon", "point"), ("merchant_of_venus", "credit")])
@pytest.mark.parametrize("seed", [3, 4])
def test_pantheon_and_mov_counts_agree_with_their_nouns_and_amounts_carry_the_unit(
    name: str, unit: str, seed: int
) -> None:
    game = get_game(name)
    config = game.make_config()
    lines = play_with_transcript(game, config, seed, game.default_lineup(config.players)).lines
    assert not [ln for ln in lines if ONE_PLURAL.search(ln)]
    assert not [ln for ln in lines if ZERO_SINGULAR.search(ln)]
    changes = [ln for ln in lines if re.match(r"    seat \d: [+-]\d", ln)]
    assert changes, "no score or money change narrated"
    for line in changes:  # every change of the score or the purse says its unit
        amount = re.match(r"    seat \d: ([+-][\d,]+) (\w+)", line)
        assert amount[2] in (unit, f"{unit}s", "fame"), line
        assert (amount[2] == unit) == (amount[1] in ("+1", "-1")) or amount[2] == "fame", line
