"""Pantheon (Hans im Glück, 2011): data tables, board, rules, bots; rules page shared/rules/pantheon.md."""
