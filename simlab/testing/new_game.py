"""``simlab new-game NAME``: write a complete, runnable game package to edit into a new game.

The package has every file a game has (config, data, rules, bots, facts, checks, position, game) and a test file
that runs the whole contract (``simlab.testing.check_game``) and two rule tests; as written it is a small dice
race that passes them, so a designer starts from green and changes one rule at a time. The files are the
templates in ``simlab/testing/template/`` with the game's id, class prefix and title filled in.
"""

from __future__ import annotations

import keyword
import re
from pathlib import Path

from simlab.core.errors import SimlabError

TEMPLATE = Path(__file__).resolve().parent / "template"
NAME_RE = re.compile(r"[a-z][a-z0-9_]{0,39}")


class NewGameError(SimlabError):
    """A name or folder ``simlab new-game`` cannot write a game package to."""


def class_prefix(name: str) -> str:
    """``merchant_of_venus`` -> ``MerchantOfVenus``: the prefix of the package's class names."""
    return "".join(part[:1].upper() + part[1:] for part in name.split("_") if part)


def render(template: str, name: str) -> str:
    """A template's text with the game's id, class prefix and title filled in."""
    title = " ".join(part.capitalize() for part in name.split("_") if part)
    return template.replace("__Class__", class_prefix(name)).replace("__Title__", title).replace("__game__", name)


def write_game(name: str, where: Path | str = ".") -> Path:
    """Write the package ``<where>/<name>/``; its path. The name must be a Python package name (lower case) and
    the folder must not exist yet."""
    if not NAME_RE.fullmatch(name) or keyword.iskeyword(name):
        raise NewGameError(
            f"NAME: {name!r} cannot name a game package; use lower-case letters, digits and _ (a Python package "
            "name, starting with a letter, at most 40 characters), e.g. my_game"
        )
    package = Path(where) / name
    if package.exists():
        raise NewGameError(f"{package} exists; pick another NAME or --out folder (or delete it)")
    package.mkdir(parents=True)
    for template in sorted(TEMPLATE.glob("*.py.tmpl")):
        target = template.name.removesuffix(".tmpl")
        if target == "test_game.py":
            target = f"test_{name}.py"
        (package / target).write_text(render(template.read_text(encoding="utf-8"), name), encoding="utf-8")
    return package
