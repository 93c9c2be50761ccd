"""The game's documentation stays complete: every config field and every fact column is described."""

from pathlib import Path

from simlab import get_game
from simlab.core.config import SOURCES
from simlab.games.massilia.config import MassiliaConfig
from tests.games.doc_examples import run_position_examples

DOC = Path(__file__).resolve().parents[3] / "docs" / "games" / "massilia.md"


def test_every_config_field_is_documented_with_its_provenance() -> None:
    text = DOC.read_text()
    for field in MassiliaConfig.provenance():
        assert f"| `{field['name']}` |" in text, f"config field {field['name']} missing from {DOC.name}"
        assert field["source"] in SOURCES
        assert field["doc"], f"config field {field['name']} has no description"


def test_every_fact_column_has_a_description() -> None:
    game = get_game("massilia")
    config = game.make_config(players=3)
    state = game.new_state(config, seed=3)
    bots = game.make_bots(["random"] * 3, 3)
    records = game.play_batch(config, [3], bots)
    columns = game.fact_columns(records, config)
    schema = game.fact_schema(config)
    assert set(columns) == set(schema)
    assert all(len(v) == 3 for v in columns.values())
    assert state.current_player == 0


def test_the_position_examples_run(capsys) -> None:
    """The "Setting up a position" examples run as printed, one after the other."""
    run_position_examples(DOC, capsys, "turn ")
