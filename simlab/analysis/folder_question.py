"""Whether a result folder holds the experiment an analysis command answers, and if not, which scenario would.

``simlab cards`` on a seat run said only "no control variant 'control'": true, but it does not tell a newcomer
that card values come from another experiment, nor which. Here the folder's own scenario is named beside the
game's shipped scenario of the right kind (``Game.scenarios``) and the two commands that answer.
"""

from __future__ import annotations

from pathlib import Path

from simlab.analysis.frames import AnalysisError, roles_from_manifest
from simlab.core.suggest import did_you_mean

#: the experiment each kind of question needs, as the error says it (``{noun}``: the game's word, card, god, item)
KIND_TEXT = {"card_value": "a {noun}-value run (a control variant and <{noun}>_seat<k> variants)"}


def scenario_of(manifest: dict) -> str:
    """The scenario a folder was run from, as its manifest names it."""
    scenario = manifest.get("scenario") or {}
    return str(scenario.get("source") or scenario.get("name") or "an unnamed scenario")


def answering_scenario(game_id: str, kind: str) -> str:
    """``; card values come from scenarios/X.toml: simlab run ..., then simlab cards results/X`` or ""."""
    import simlab

    try:
        shipped = simlab.get_game(game_id).scenarios.get(kind)
    except Exception:  # a plug-in game not installed here: the error still says what is missing
        return ""
    if not shipped:
        return f"; {game_id} ships no such scenario: write one with simlab new-scenario {game_id}"
    return f"; that run is {shipped}: simlab run {shipped}, then simlab cards results/{Path(shipped).stem}"


def require_card_run(folder: str | Path, control: str) -> None:
    """AnalysisError naming the folder's scenario and the one that answers, when ``folder`` has no ``control``
    variant; nothing when it has one, or when its game declares no card intervention (that analysis then says
    it is not available for the game)."""
    from simlab.run.reader import load_manifest

    manifest = load_manifest(folder)
    names = [v["name"] for v in manifest["variants"]]
    found = roles_from_manifest(manifest)
    if control in names or found.intervention("card") is None:
        return
    hint = did_you_mean(control, names)
    shown = ", ".join(names[:6]) + (f" and {len(names) - 6} more" if len(names) > 6 else "")
    kind = KIND_TEXT["card_value"].format(noun=found.noun())
    raise AnalysisError(
        f"{folder} holds {scenario_of(manifest)} (variants {shown}), not {kind}: it has no "
        f"control variant {control!r}"
        + (f" ({hint} give it with --control)" if hint else "")
        + answering_scenario(str(manifest["game"]), "card_value")
    )
