"""simlab: Monte Carlo balance analysis for tabletop games.

The library surface a notebook uses: ``simlab.get_game(name)`` for the game contract, and the runner
functions re-exported here once the runner is imported.
"""

from simlab.core.errors import SimlabError
from simlab.core.registry import available_games, get_game

__version__ = "0.1.0"

__all__ = ["SimlabError", "__version__", "available_games", "get_game"]
