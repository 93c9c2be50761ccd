"""Roma's documentation stays complete, and its result and fact columns are flat, typed and described."""

from pathlib import Path

import numpy as np

from simlab.core.config import SOURCES
from simlab.games.roma import data
from simlab.games.roma.config import RomaConfig
from simlab.games.roma.game import GAME
from tests.games.doc_examples import run_position_examples

DOC = Path(__file__).resolve().parents[3] / "docs" / "games" / "roma.md"


def test_every_config_field_is_documented_with_its_provenance() -> None:
    text = DOC.read_text()
    for field in RomaConfig.provenance():
        assert f"| `{field['name']}` |" in text, f"config field {field['name']} missing from {DOC.name}"
        assert field["source"] in SOURCES
        assert field["doc"], f"config field {field['name']} has no description"
    for preset in GAME.presets():
        assert f"`{preset}`" in text


def test_every_decision_is_in_the_decision_table() -> None:
    from simlab.games.roma import rules as R

    text = DOC.read_text()
    for name in R.PHASE_NAMES[:-1]:
        assert f"| {name} |" in text, f"decision {name!r} missing from {DOC.name}"


def test_fact_and_result_columns_are_flat_typed_and_described() -> None:
    config = GAME.make_config()
    bots = GAME.make_bots(["builder", "warrior"], 2)
    records = GAME.play_batch(config, [3, 4, 5], bots)
    columns = GAME.fact_columns(records, config)
    schema = GAME.fact_schema()
    assert set(columns) == set(schema)
    luck = {"dice_luck", "battle_luck"}  # chance facts: luck above a declared expectation, in halves and thirds
    assert all(v.dtype == np.int32 and v.shape == (6,) for k, v in columns.items() if k not in luck)
    assert all(columns[k].dtype == np.float64 and columns[k].shape == (6,) for k in luck)
    for key in data.CARD_KEYS:
        assert {f"laid_{key}", f"activated_{key}", f"destroyed_{key}"} <= set(columns)
    results = GAME.result_columns(records, config)
    assert results["score"].dtype == np.float64 and results["rank"].dtype == np.int32
    assert results["win_share"].dtype == np.float64 and results["turns"].dtype == np.int32
    # game-major rows: game i, seat p at row 2 i + p
    assert results["score"].tolist() == records["vp"].reshape(-1).astype(float).tolist()
    assert columns["final_vp"].tolist() == records["vp"].reshape(-1).tolist()
    assert columns["game_turns"].tolist() == np.repeat(records["turns"], 2).tolist()
    assert (columns["turns_taken"].reshape(3, 2).sum(1) == records["turns"]).all()
    assert set(columns["end_reason"].tolist()) <= {1, 2}
    assert (GAME.decisions(records) > 0).all()
    # VP by source add up to the final VP
    gained = sum(columns[f"vp_{src}"] for src in data.VP_SOURCES)
    lost = columns["vp_lost_empty_discs"] + columns["vp_lost_to_opponent"]
    assert (columns["start_vp"] + gained - lost == columns["final_vp"]).all()


def test_the_position_examples_run(capsys) -> None:
    """The "Setting up a position" examples run as printed, one after the other."""
    run_position_examples(DOC, capsys, "action ")
