"""The Merchant of Venus invariant sweep at any size, by hand: random legal actions, the game's invariants
after every action, 2-4 players in turn, both purse readings on the shipped board, and games on the small
green-lines board of ``test_rules_asteroid_ports`` (purses raised so ports get built). Not collected by pytest.

    PYTHONPATH=. python -m tests.games.merchant_of_venus.sweep 2400 600   # shipped-board games, small-board games
"""

import json
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from simlab.games.merchant_of_venus import checks
from simlab.games.merchant_of_venus.config import MerchantOfVenusConfig
from simlab.games.merchant_of_venus.game import GAME
from tests.games.merchant_of_venus.test_rules_asteroid_ports import small_board


def main(n_shipped: int, n_small: int) -> None:
    """Play the games; an AssertionError names the first break."""
    path = str(Path(tempfile.mkdtemp()) / "green_lines_board.json")
    Path(path).write_text(json.dumps(small_board()))
    t0 = time.time()
    games = actions = bankrupt_games = 0
    for g in range(n_shipped + n_small):
        players = 2 + g % 3
        if g < n_shipped:
            config = GAME.make_config(players=players, preset=("standard", "literal_purses")[(g // 3) % 2])
        else:
            config = MerchantOfVenusConfig(players=players, board_file=path, purse_offset=(300, 300, 300, 300))
        st = GAME.new_state(config, 50_000 + g)
        rng = np.random.default_rng(50_000 + g)
        checks.invariants(st.record[0], config)
        while not st.is_terminal():
            legal = st.legal_actions()
            assert legal and len(set(legal)) == len(legal)
            st.apply(legal[int(rng.integers(len(legal)))])
            checks.invariants(st.record[0], config)
            actions += 1
        assert int(st.record[0]["round_no"]) == config.rounds
        games += 1
        bankrupt_games += int(st.record[0]["bankrupt"].any())
        if games % 250 == 0:
            print(f"{games} games, {actions} actions, {time.time() - t0:.0f} s", flush=True)
    print(
        f"done: {games} games ({n_shipped} shipped board, {n_small} green-lines board; {bankrupt_games} with a "
        f"bankrupt neutral port), {actions} actions, invariants after every action, 0 breaks, {time.time() - t0:.0f} s"
    )


if __name__ == "__main__":
    main(int(sys.argv[1]), int(sys.argv[2]))
