"""Merchant of Venus checks, found by the contract suite (see ``simlab.core.checks`` for the protocol).

Invariants after every action: goods tokens conserved between supply areas, markets and holds; every
discovered culture has its three market tokens; holds never over capacity; credits never negative; port
and drill tokens within 12 per colour; a bankrupt neutral port has a merchant port three green lines away;
fame only from its listed sources (the final total adds up from them); a finished game is scored as the
rules say. Hidden information: a seat cannot see the cultures on undiscovered systems, the unrevealed order
of market stacks, nor the chance stream (future passenger, encounter and mission draws and dice).
"""

from __future__ import annotations

from collections.abc import Collection

import numpy as np

from simlab.games.merchant_of_venus import rules as R


def _holds_used(s: np.void, config, p: int) -> int:
    n = int(s["cargo"][p].sum())
    holds = config.passenger_holds
    for i in range(len(config.passenger_origin)):
        if int(s["pass_loc"][i]) == R.LOC_HOLD + p:
            n += holds[i]
    return n


def invariants(s: np.void, config) -> None:
    """Component conservation and rule bounds on one state record."""
    n = config.players
    goods = s["supply"].sum(0) + s["market_goods"] + s["cargo"][:n].sum(0)
    assert goods.tolist() == list(config.goods_tokens), f"goods tokens not conserved: {goods.tolist()}"
    assert (s["supply"] >= 0).all() and (s["market_goods"] >= 0).all() and (s["cargo"] >= 0).all()
    for cu in range(R.NC):
        sy = int(s["culture_sys"][cu])
        if sy >= 0:
            assert int(s["sys_culture"][sy]) == cu and int(s["discovered"][sy]) == 1
            assert sorted(s["stack"][cu].tolist()) == [0, 1, 2], f"culture {cu}: market tokens {s['stack'][cu]}"
            assert 1 <= int(s["stack_seen"][cu]) <= 3
        else:
            assert int(s["market_goods"][cu]) == 0, f"undiscovered culture {cu} has goods on its market"
    assert sorted(s["sys_culture"].tolist()) == list(range(R.NSYS)), "contact cards lost"
    for p in range(n):
        assert int(s["credits"][p]) >= 0, f"seat {p}: credits negative"
        assert _holds_used(s, config, p) <= int(s["holds"][p]) <= config.max_holds, f"seat {p}: holds over capacity"
        assert 0 <= int(s["ports"][p]) + int(s["drills"][p]) <= config.tokens_per_colour
        assert int((s["port_owner"] == p).sum()) == int(s["ports"][p])
        assert int((s["drill_owner"] == p).sum()) == int(s["drills"][p])
        assert 1 <= int(s["pilot"][p]) <= 4 and 0 <= int(s["upgrades"][p]) <= config.upgrade_slots
        assert int(s["laser"][p]) <= config.max_dial and int(s["shield"][p]) <= config.max_dial
    _bankrupt_ports(s, config)
    assert (s["iou_left"] >= 0).all()
    assert int(s["rewards_left"]) + int(s["rewards"][:n].sum()) == config.reward_cards
    loc = s["pass_loc"][: len(config.passenger_origin)]
    assert ((loc >= R.LOC_DELIVERED) & (loc < R.LOC_HOLD + n)).all()
    assert ((s["pass_bag"][: len(loc)] == 1) == (loc == R.LOC_BAG)).all(), "passenger pile out of step"
    assert int((s["tech_owner"] >= n).sum()) == 0
    ph = int(s["phase"])
    if ph == R.PH_OVER:
        assert int(s["cur"]) == -1
        final(s, config)
    else:
        assert 0 <= int(s["cur"]) < n and (s["rank"] == 0).all()
        assert 1 <= int(s["round_no"]) <= config.rounds


def _bankrupt_ports(s: np.void, config) -> None:
    """A bankrupt space is a neutral port with a merchant port on one of its sites three green lines away;
    a merchant port no surface city reaches by a green line was built from a neutral port, now bankrupt."""
    board = R.board_for(config)
    far = board["port_far"]
    for sp in np.flatnonzero(s["bankrupt"]):
        sp = int(sp)
        assert int(board["kind"][sp]) == R.K_STATION, f"space {sp}: bankrupt but not a neutral port"
        sites = far[sp, : int(board["port_far_n"][sp])]
        assert (s["port_owner"][sites] >= 0).any(), f"neutral port {sp}: bankrupt without a port three lines away"
    for sp in np.flatnonzero(s["port_owner"][: len(board["names"])] >= 0):
        if R.city_site(board, int(sp)):
            continue
        builders = np.flatnonzero((far == sp).any(axis=1))
        assert (s["bankrupt"][builders] == 1).any(), f"merchant port {int(sp)}: no city below and no bankrupt port"


def fame_sources(s: np.void, config, p: int) -> int:
    """Fame from the listed sources: tokens, rewards, missions, dashboard, Fuzzy Dice, less infamy."""
    f = int(s["fame_tokens"][p]) + int(s["rewards"][p]) * config.reward_fame
    f += int(s["mission_fame_won"][p])
    f += (int(s["holds"][p]) - config.start_holds) * config.hold_fame
    f += sum(config.upgrade_slot_fame[: int(s["upgrades"][p])])
    f += int(s["laser"][p]) * config.laser_fame_per_point + int(s["shield"][p]) * config.shield_fame_per_point
    f += int(s["pilot"][p]) - config.pilot_fame_offset
    f += int(s["fuzzy_dice"][p].sum())
    return f - int(s["infamy"][p])


def final(s: np.void, config) -> None:
    """Scores are the final credits; the fame total adds up from its sources; ranks by (not eliminated,
    credits, fame), the best share the win."""
    n = config.players
    keys = []
    for p in range(n):
        assert int(s["total_fame"][p]) == fame_sources(s, config, p), f"seat {p}: fame from an unlisted source"
        assert int(s["score"][p]) == int(s["credits"][p])
        keys.append((1 - int(s["eliminated"][p]), int(s["credits"][p]), int(s["total_fame"][p])))
    best = max(keys)
    winners = [p for p in range(n) if keys[p] == best]
    for p in range(n):
        assert (int(s["rank"][p]) == 1) == (p in winners)
        assert abs(float(s["share"][p]) - (1.0 / len(winners) if p in winners else 0.0)) < 1e-12


def hidden_fields(s: np.void, player: int) -> Collection[str]:
    """The cultures on undiscovered systems, the market stacks' unrevealed order, the chance stream."""
    return {"sys_culture", "stack", "rng"}


def determinized(orig, det, player: int) -> None:
    """A determinized copy keeps every discovered system's culture, the same set of hidden cultures, every
    revealed market token in place and each stack's three tokens."""
    a, b = orig.record[0], det.record[0]
    known = a["discovered"] == 1
    assert (a["sys_culture"][known] == b["sys_culture"][known]).all()
    assert sorted(a["sys_culture"][~known].tolist()) == sorted(b["sys_culture"][~known].tolist())
    for cu in range(R.NC):
        if int(a["culture_sys"][cu]) < 0:
            assert (a["stack"][cu] == b["stack"][cu]).all()
            continue
        top, seen = int(a["stack_top"][cu]), int(a["stack_seen"][cu])
        for k in range(seen):
            i = (top - k) % 3
            assert a["stack"][cu, i] == b["stack"][cu, i], "a revealed market token moved"
        assert sorted(b["stack"][cu].tolist()) == [0, 1, 2]


def resampled(orig, det, player: int) -> bool:
    a, b = orig.record[0], det.record[0]
    return not (
        np.array_equal(a["sys_culture"], b["sys_culture"])
        and np.array_equal(a["stack"], b["stack"])
        and np.array_equal(a["rng"], b["rng"])
    )
