"""The search bot's parameters are declared once (``simlab.core.search.PARAMS``): its vector slots, the spec
keys and defaults (simlab.core.search_spec), what ``simlab bots`` says each means and how a manifest names the
vector all come from that one layout, whose order old result folders' vectors hold."""

from __future__ import annotations

import pytest

from simlab.core import search_spec
from simlab.core.search import P_DEPTH, P_ITERATIONS, P_ROLLOUT_KIND, PARAMS, ROLLOUT_OFFSET

#: the slot order every search vector written so far holds (a result folder's identity): never reorder it
FROZEN_ORDER = ("iterations", "c", "rollout_kind", "seconds", "max_nodes")
FROZEN_ORDER += ("prior", "widen", "rank_weight", "candidates", "depth")


@pytest.fixture(scope="module")
def pig():
    from tests.examples.pig.game import GAME

    return GAME


def test_the_layout_keeps_the_order_old_vectors_hold():
    assert PARAMS.names == FROZEN_ORDER
    assert (P_ITERATIONS, P_ROLLOUT_KIND, P_DEPTH, ROLLOUT_OFFSET) == (0, 2, 9, 10)


def test_every_spec_key_lands_in_its_own_slot(pig):
    given = {"iterations": 3, "c": 1.5, "seconds": 0, "max_nodes": 7, "prior": 2, "widen": 0.5, "rank_weight": 0.25,
             "candidates": 0, "depth": 11}  # fmt: skip
    spec = "ismcts:" + ",".join(f"{k}={v}" for k, v in given.items()) + ",rollout=random"
    vector = pig.bots.make(spec).params
    assert set(given) == set(search_spec.DEFAULTS)  # every numeric key is set here
    assert {key: vector[PARAMS.index(key)] for key in given} == given
    assert vector[P_ROLLOUT_KIND] == pig.bots.make("random").kind


def test_names_docs_and_defaults_come_from_the_layout(pig):
    vector = pig.bots.make("race:rollout=holder").params
    names = search_spec.vector_names(len(vector))
    assert names[:ROLLOUT_OFFSET] == list(PARAMS.names) and names[ROLLOUT_OFFSET] == "rollout[0]"
    assert list(search_spec.PARAM_DOC) == [search_spec.SPEC_KEYS.get(n, n) for n in PARAMS.names]
    assert search_spec.PARAM_DOC["rollout"] == PARAMS.doc("rollout_kind")
    assert search_spec.PARAM_DOC["c"].endswith(PARAMS.doc("c")) and "tree only" in search_spec.PARAM_DOC["c"]
    assert search_spec.DEFAULTS == {"iterations": 64, "c": 0.7, "seconds": 0, "max_nodes": 200_000, "prior": 0,
                                    "widen": 0, "rank_weight": 0, "candidates": 4, "depth": 0}  # fmt: skip
