"""Small scenarios several test folders run, and the one way tests run a scenario given as text.

Kept in one module (imported as ``tests.scenario_runs``) so the Massilia card design the words, analysis and
report tests share is written once: a change to it reaches every test that reads its folder.
"""

from __future__ import annotations

from pathlib import Path

#: Massilia, a control, two cards granted (seats 1 and 2) and two money offsets for seat 3: seats, compensation,
#: card value, markets and the general metrics all have something to show
MASSILIA_CARDS = """\
game = "massilia"
players = 4
lineup = ["trader", "priest", "trader", "priest"]
preset = "rulebook"
[variants.control]
[variants.mercure_seat1]
set = { bonus_card = "mercure", bonus_card_seat = 1 }
[variants.pluton_seat2]
set = { bonus_card = "pluton", bonus_card_seat = 2 }
[variants.money2_seat3]
set = { start_money = [6, 6, 6, 8] }
[variants.money4_seat3]
set = { start_money = [6, 6, 6, 10] }
"""


def with_head(body: str, description: str, games: int, seed: int, chunk_size: int | None = None) -> str:
    """``body`` (a scenario's game, lineup and variants) under the top keys a test picks."""
    chunks = "" if chunk_size is None else f"chunk_size = {chunk_size}\n"
    return f'description = "{description}"\ngames = {games}\nseed = {seed}\n{chunks}{body}'


def run_text(text: str, folder: Path, name: str = "scenario", **options: object) -> Path:
    """Write ``text`` as ``folder/NAME.toml`` and run it into ``folder/results`` (one job, no progress bar);
    ``options`` go to :func:`simlab.run_scenario` (e.g. ``games=40``). Returns the result folder."""
    import simlab

    scenario = folder / f"{name}.toml"
    scenario.write_text(text)
    return simlab.run_scenario(scenario, jobs=1, out=folder / "results", progress=False, **options)
