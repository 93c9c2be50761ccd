"""One package per game, each with the same shape: config.py, data.py, rules.py, bots.py, game.py."""
