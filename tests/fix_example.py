"""A rule-fix answer as ``FixResult.to_dict()`` gives it, for the tests of its words, its report section and its
folder: a money change and a table change on a four-seat game, certified or not."""

from __future__ import annotations

import copy
from typing import Any

CERTIFIED: dict[str, Any] = {
    "status": "certified",
    "change": {
        "settings": [
            {"knob": "start_money", "published": [6, 6, 6, 6], "value": [6, 6, 6, 8], "steps": 2},
            {"knob": "turn_tiles", "published": [2, 3, 4], "value": [2, 4, 4], "steps": 1},
        ],
        "cost": {"knobs": 2, "steps": 3},
    },
    "before": [
        {"seat": 0, "share": 0.291, "lo": 0.282, "hi": 0.300, "n": 20000},
        {"seat": 1, "share": 0.262, "lo": 0.253, "hi": 0.271, "n": 20000},
        {"seat": 2, "share": 0.240, "lo": 0.231, "hi": 0.249, "n": 20000},
        {"seat": 3, "share": 0.207, "lo": 0.198, "hi": 0.216, "n": 20000},
    ],
    "after": [
        {"seat": 0, "share": 0.252, "lo": 0.243, "hi": 0.261, "n": 20000},
        {"seat": 1, "share": 0.251, "lo": 0.242, "hi": 0.260, "n": 20000},
        {"seat": 2, "share": 0.248, "lo": 0.239, "hi": 0.257, "n": 20000},
        {"seat": 3, "share": 0.249, "lo": 0.240, "hi": 0.258, "n": 20000},
    ],
    "guards": [{"name": "length", "before": 21.4, "after": 21.9, "band": [19.26, 23.54], "ok": True}],
    "panel": [
        {"bot": "trader", "fair": True, "worst_deviation": 0.006, "lo": 0.001, "hi": 0.011, "n": 20000, "seats": []},
        {"bot": "priest", "fair": True, "worst_deviation": 0.008, "lo": 0.002, "hi": 0.013, "n": 20000, "seats": []},
    ],
    "alternatives": [
        {
            "change": {
                "settings": [{"knob": "start_money", "published": [6, 6, 6, 6], "value": [6, 6, 7, 9], "steps": 4}],
                "cost": {"knobs": 1, "steps": 4},
            },
            "worst_deviation": 0.009,
            "lo": 0.003,
            "hi": 0.015,
            "mean_length": 21.5,
            "n": 8000,
        }
    ],
    "games": {"explore": 24000, "race": 48000, "certify": 60000, "total": 132000},
    "tolerance": 2.0,
    "alpha": 0.05,
    "method": "paired race on shared seeds; certification on fresh seeds, one-sided at the tolerance",
}


def failed_for(bot: str) -> dict[str, Any]:
    """The same answer with ``bot``'s certification failed (its worst seat beyond the tolerance), status kept."""
    out = copy.deepcopy(CERTIFIED)
    for p in out["panel"]:
        if p["bot"] == bot:
            p.update(fair=False, worst_deviation=0.031, lo=0.024, hi=0.038)
    return out
