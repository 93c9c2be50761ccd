"""A bot of a panel said with what it plays: core's search bot with its budget ("the search bot at 32 playouts per
decision" for ``race:iterations=32``), any other bot by its spec. A fix's certification panel names its bots this
way, so an answer says how strong the search it was tested against was (issue 34: "the search bot at a stated
budget"); the answer's JSON keeps the spec itself, which a rerun needs."""

from __future__ import annotations

from simlab.core import search_spec


def bot_words(spec: str) -> str:
    """``spec`` in words when it names core's search (its budget, and the settings it gives that change what a
    playout is), else ``spec`` as written. A spec the search would refuse is never in an answer (the panel is
    checked on load); one that does not parse here is returned as written."""
    name, _, rest = spec.strip().partition(":")
    if name.strip() not in search_spec.NAMES:
        return spec
    given: dict[str, str] = {}
    for item in filter(None, (p.strip() for p in rest.split(","))):
        key, eq, value = (part.strip() for part in item.partition("="))
        if not eq:
            return spec
        given[key] = value
    try:
        numbers = {k: float(v) for k, v in given.items() if k != "rollout"}
    except ValueError:
        return spec
    values = {**search_spec.DEFAULTS, **numbers}
    tree = values["candidates"] == 0
    unit = "iterations" if tree else "playouts"
    if values["iterations"] > 0:
        budget = f"{values['iterations']:g} {unit} per decision"
    else:
        budget = f"{values['seconds']:g} s per decision"
    said = f"the {'tree search' if tree else 'search bot'} at {budget}"
    if not tree and "candidates" in numbers and values["candidates"] != search_spec.DEFAULTS["candidates"]:
        said += f" over {values['candidates']:g} candidates"
    if values["depth"] > 0 and "depth" in numbers:
        said += f", each cut after {values['depth']:g} decisions"
    if "rollout" in given:
        said += f", rolled out by {given['rollout']}"
    return said
