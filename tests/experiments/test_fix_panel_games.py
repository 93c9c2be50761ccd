"""``fix.panel_games``: a panel bot certified on its own number of fresh games (issue 34's panel holds "the search
bot at a stated budget", whose games cost hundreds of times a heuristic's: 20,000 of them are out of reach where
the lineup's are not). Its entry says its n and its interval, the method says its games, and it is never called
fair on fewer games than its interval needs: the tests are the same one-sided tests at the tolerance."""

from __future__ import annotations

import pytest

from simlab.analysis.fix_looks import LookPlan
from simlab.experiments.fix import find_fix
from simlab.experiments.fix_question import FixQuestionError, fix_question
from tests.examples.pig.game import GAME as PIG
from tests.experiments.test_fix import surface


def _pig(**options):
    options = {"panel": ["holder", "random"], "budget": 30_000, "batch": 1000, "certify_games": 20_000, **options}
    return fix_question(PIG, PIG.make_config(players=2), ["holder", "holder"],
                        knobs={"start_points": {"seats": [0, 12], "step": 3}}, seed=1, **options)  # fmt: skip


def even_with_a_head_start(cfg):
    import numpy as np

    return np.array([0.5, 0.5]) if tuple(cfg.start_points[:2]) == (0, 6) else np.array([0.56, 0.44])


def test_a_panel_bot_plays_its_own_number_of_certification_games():
    q = _pig(panel_games={"random": 2_000})
    assert q.games_for("random") == 2_000 and q.games_for("holder") == 20_000
    d = find_fix(q, play=surface(even_with_a_head_start)).to_dict()
    lineup, rand = d["panel"]
    # certification in looks: the lineup's at fractions of 20,000, random's at the same fractions of its own 2,000
    own = LookPlan.of(2_000, 0.05).sizes
    assert lineup["n"] in LookPlan.of(20_000, 0.05).sizes and rand["bot"] == "random"
    assert rand["n"] in own and max(own) == 2_000, rand
    assert f"(random: {', '.join(f'{n:,}' for n in own)})" in d["method"], d["method"]
    # the bounds are the looks' tests: the JSON says 0.9 is their least coverage, not every interval's
    assert d["level"] == 0.9 and "the look it stopped at" in d["interval"] and "least coverage" in d["interval"]


def test_without_panel_games_every_lineup_plays_certify_games():
    q = _pig()
    assert q.games_for("random") == 20_000 and q.panel_games == ()


@pytest.mark.parametrize(
    ("value", "says"),
    [
        ({"greedy": 2_000}, "key 'fix.panel_games.greedy'"),
        ({"random": 10}, "key 'fix.panel_games.random'"),
        ({"random": 2_000.5}, "key 'fix.panel_games.random'"),
        ([2_000], "key 'fix.panel_games'"),
    ],
)
def test_a_bad_panel_games_table_is_refused_naming_its_key(value, says):
    with pytest.raises(FixQuestionError) as err:
        _pig(panel_games=value)
    assert says in str(err.value), str(err.value)


def test_the_report_states_a_panel_bot_s_own_games():
    from simlab.analysis import fix_words as W
    from simlab.report.fix_report import question_rows

    ident = {"certify_games": 20_000, "panel": ["builder", "race:iterations=32"],
             "panel_games": {"race:iterations=32": 4_000}}  # fmt: skip
    rows = dict(question_rows(ident, "", W.vocabulary("roma")))
    said = "the search bot at 32 playouts per decision (race:iterations=32): 4,000 fresh games"
    assert rows["fix.panel_games"] == said


def test_the_folder_identity_holds_panel_games_only_when_given(tmp_path, monkeypatch):
    """A folder made before panel_games has no such key in its identity: it still resumes; a value given is part
    of the question (another value on --resume is another question)."""
    from simlab.core import registry
    from simlab.experiments.fix_run import fix_question_of, identity_of
    from simlab.run.scenario import load_scenario

    monkeypatch.setitem(registry.BUILTIN_GAMES, "pig", "tests.examples.pig.game:GAME")
    text = (
        'game = "pig"\nplayers = 2\nlineup = ["holder", "holder"]\ngames = 1000\nseed = 3\n'
        '[fix]\npanel = ["holder", "random"]\n[fix.knobs]\nstart_points = { seats = [0, 12], step = 3 }\n'
    )
    path = tmp_path / "q.toml"
    path.write_text(text)
    sc = load_scenario(path)
    assert "panel_games" not in identity_of(sc, fix_question_of(sc, {}))
    path.write_text(text.replace("[fix.knobs]", "panel_games = { random = 500 }\n[fix.knobs]"))
    sc = load_scenario(path)
    assert identity_of(sc, fix_question_of(sc, {}))["panel_games"] == {"random": 500}


def test_the_method_names_a_search_bot_s_own_looks_in_words():
    from simlab.experiments.fix_certify import method_text

    q = _pig(panel=["holder", "race:iterations=32"], panel_games={"race:iterations=32": 1_600})
    own = ", ".join(f"{n:,}" for n in LookPlan.of(1_600, 0.05).sizes)
    said = method_text(q, "settled")
    assert f"(the search bot at 32 playouts per decision: {own})" in said and "race:iterations" not in said, said
