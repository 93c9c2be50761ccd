"""A run until settled: play a scenario in looks and stop when every headline verdict is settled, or at its cap.

The driver of ``simlab run SCENARIO --until settled`` (and of a scenario with ``until = "settled"``). It drives the
runner (``simlab.run.runner.run_scenario`` with ``looks=``, see ``simlab.run.looks``), so the result folder, its
lock, resume and integrity are the runner's, and game i is game i: a run stopped at n games holds exactly the rows
of a fixed run of n games, on any worker count. After each look the verdicts come from the analyses
(``simlab.analysis.sequential.settled_verdicts``: intervals valid at every look, so stopping on them keeps their
error rate): each *within* ±δ, *beyond* ±δ or *open*.

**Look schedule.** Looks fall on a geometric grid, each about √2 times the last (rounded up to whole chunks): a
verdict that settles at n games is seen settled by about 1.41 n at most (1.2 n on average), and a run of N games
looks only about 2 log2(N / chunk) times, so judging the folder (one pass over its digests) costs a small constant
share of the run however long it goes. A fixed batch would overshoot less late in a run but look ever more often;
doubling looks half as often and overshoots twice as much. The intervals are valid at every look whatever the
schedule, so the schedule is chosen for cost alone.

**Games go where the question is open.** A variant whose verdicts (those naming it in ``variants``) are all
settled or out of reach stops receiving games; the others play on (the control of a card-value design plays as
long as one card is open and in reach).

**Futility.** An open verdict is *out of reach* at a look when its predictive probability of settling by the cap
(``simlab.analysis.futility``) is below ``Rule.futility`` (0 disables): it would most likely end "open", as the
fixed run leaves it, so its games stop. It stays open (no within or beyond claim, so the error guarantee is
untouched), keeps being read while a variant it needs plays on, and may still settle; the record says at which
look it went out of reach, its probability and the games it would need at its current estimate.

A verdict, once settled, keeps the state, estimate and interval it was settled with (``settled_at``);
a variant, once stopped, stays stopped. The manifest's ``stopping`` records the rule and every decision, so a
``--resume`` continues the same rule and stops at the same n.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import math
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import IO, Any

from simlab.run.errors import ResultFolderError, ScenarioError
from simlab.run.manifest import DEFAULT_SETTLE, SETTLE_FAMILIES
from simlab.run.progress import format_duration
from simlab.run.scenario import DEFAULT_ALPHA, DEFAULT_FUTILITY, UNTIL, Scenario, load_scenario

#: each look plays about this many times the games of the last (rounded up to whole chunks)
LOOK_RATIO = math.sqrt(2)
#: the manifest key of the rule's record
KEY = "stopping"
#: open verdicts the progress line shows (the widest)
SHOWN = 3
#: the fewest games per variant between looks when the step is cut to an eighth of the cap: each look costs a
#: chunk per open variant (Merchant of Venus's item values at 300 games per variant in steps of 36 took 4x the
#: fixed run's wall time)
MIN_STEP = 100

#: the verdicts of a folder: (folder, tolerance in points of win share, alpha) -> objects with key, label, variants,
#: estimate, lo, hi, n, state ("within", "beyond", "open") and direction, and optionally p_settle (the predictive
#: probability an open one settles by the cap; absent or None: in reach) and needed (games at its estimate)
Judge = Callable[[Path, float, float], Sequence[Any]]


def default_judge(
    folder: Path, tolerance: float, alpha: float, settle: str = "every", cap: int | None = None
) -> Sequence[Any]:
    """The verdicts of the family ``settle`` ("every", "headline") with intervals valid at every look, simultaneous
    over that family (``simlab.analysis.sequential``); with ``cap``, each open one's chance to settle by then."""
    from simlab.analysis.sequential import settled_verdicts

    return settled_verdicts(folder, tolerance, alpha, family=settle, cap=cap)


def family_judge(settle: str, cap: int | None = None) -> Judge:
    """The default judge for the family ``settle`` (and the cap its open verdicts' chances are read against)."""
    return lambda folder, tolerance, alpha: default_judge(folder, tolerance, alpha, settle, cap)


@dataclasses.dataclass(frozen=True)
class Rule:
    """Stop when every verdict of the family ``settle`` ("headline" or "every") is within or beyond ±``tolerance``
    (points of win share: 1.0 = 0.01) at error rate ``alpha``, or out of reach (its predictive probability of
    settling by the cap below ``futility``; 0: never), or at ``max_games`` per variant."""

    tolerance: float
    alpha: float
    max_games: int
    settle: str = "every"
    futility: float = DEFAULT_FUTILITY


def look_grid(step: int, cap: int, ratio: float = LOOK_RATIO) -> list[int]:
    """Games per variant at each look: ``step`` · ⌈ratio^k⌉ (whole steps, distinct), the last one ``cap`` (a look
    that would leave less than a step before the cap is moved to the cap: a last batch of a few games would cost
    a look for nothing)."""
    out: list[int] = []
    k = 0
    while not out or out[-1] < cap:
        n = min(cap, step * math.ceil(ratio**k - 1e-9))
        n = cap if cap - n < step else n
        if not out or n > out[-1]:
            out.append(n)
        k += 1
    return out


def look_step(sc: Scenario, max_games: int) -> int:
    """The grid's unit: whole chunks (parts line up with a fixed run's) and whole lineup rotations (every seat
    sees every bot equally often at each look); but at most an eighth of ``max_games`` (in whole rotations), so
    that a cap of a few chunks still gets looks before it, and then not below ``MIN_STEP`` games."""
    rotation = sc.players if sc.rotate else 1
    whole = math.lcm(sc.chunk_size, rotation)
    eighth = max(rotation, max_games // 8 // rotation * rotation)
    return whole if whole <= eighth else max(eighth, min(whole, -(-MIN_STEP // rotation) * rotation))


def _frozen(v: Any) -> dict[str, Any]:
    """A verdict as the manifest records it."""
    return {
        "key": str(v.key),
        "label": str(v.label),
        "variants": [str(x) for x in v.variants],
        "state": str(v.state),
        "direction": v.direction,
        "estimate": _num(v.estimate),
        "lo": _num(v.lo),
        "hi": _num(v.hi),
        "n": int(v.n),
        "settled_at": None,
        "p_settle": _num(getattr(v, "p_settle", None)),
        "needed": _count(getattr(v, "needed", None)),
        "out_of_reach_at": None,
    }


def _num(x: Any) -> float | None:
    return None if x is None or (isinstance(x, float) and not math.isfinite(x)) else float(x)


def _count(x: Any) -> int | None:
    return None if x is None else int(x)


class Settle:
    """The rule a run until settled plays by (``simlab.run.looks.Looks``): where the next look is, which variants
    play to it, and the record of every decision."""

    def __init__(
        self,
        rule: Rule,
        variants: Sequence[str],
        step: int,
        judge: Judge = default_judge,
        clock: Callable[[], float] = time.perf_counter,
        players: int = 0,
    ):
        self.rule = rule
        self.players = players
        self.variants = list(variants)
        self.step = step
        self.judge = judge
        self.clock = clock
        self.looks: list[int] = []
        self.stopped: dict[str, int] = {}  # variant -> the look it stopped at
        self.verdicts: dict[str, dict[str, Any]] = {}  # key -> its record (frozen once settled)
        self.outcome: str | None = None
        self.reached: dict[str, int] = dict.fromkeys(self.variants, 0)
        self._marks: list[tuple[float, int]] = []  # (time, games on disk) at each look of this session

    # -- the runner's hook -------------------------------------------------------------------------------
    def begin(self, previous: Mapping[str, Any]) -> None:
        record = previous.get(KEY)
        if not isinstance(record, Mapping):
            return  # a new run (a folder with games but no record is refused at the first look)
        for key in ("tolerance", "alpha"):
            if not math.isclose(float(record.get(key, -1)), getattr(self.rule, key), rel_tol=1e-9):
                said, now = _show(key, record.get(key)), _show(key, getattr(self.rule, key))
                raise ScenarioError(
                    f"--resume: the run began with {key} {said}, not {now}: "
                    "a run until settled keeps its rule (its looks were judged by it); resume with the same "
                    f"{key}, or run into a new folder with --out"
                )
        began_futility = float(record.get("futility", 0.0))  # a record without the key: the rule had no futility
        if not math.isclose(began_futility, self.rule.futility, rel_tol=1e-9, abs_tol=1e-12):
            raise ScenarioError(
                f"--resume: the run began with futility {began_futility:g}, not {self.rule.futility:g}: a run until "
                "settled keeps its rule (its looks stopped games by it); resume with the same --futility "
                f"{began_futility:g}, or run into a new folder with --out"
            )
        began = str(record.get("settle", "every"))  # a record without the key: the rule then waited for every one
        if began != self.rule.settle:
            raise ScenarioError(
                f"--resume: the run began waiting for the {began} verdicts (settle = {began!r}), not "
                f"{self.rule.settle!r}: a run until settled keeps its family (its looks were judged, and its "
                f"intervals split alpha, over it); resume with --settle {began}, or run into a new folder with --out"
            )
        self.looks = [int(n) for n in record.get("looks", [])]
        if isinstance(record.get("step"), int) and record["step"] > 0:  # the grid the run began on
            self.step = int(record["step"])
        for name, v in (record.get("variants") or {}).items():
            if v.get("stopped_at") is not None and name in self.variants:
                self.stopped[name] = int(v["stopped_at"])
        self.verdicts = {str(v["key"]): dict(v) for v in record.get("verdicts", []) if isinstance(v, Mapping)}
        if self.looks and self.looks[-1] > self.rule.max_games:
            raise ScenarioError(
                f"--max-games {self.rule.max_games:,}: the run has judged {self.looks[-1]:,} games per variant "
                "already; resume with at least as many (or without --max-games)"
            )
        if record.get("outcome") == "out_of_reach" and int(record.get("max_games", 0)) != self.rule.max_games:
            raise ScenarioError(
                f"--max-games {self.rule.max_games:,}: the run stopped with every verdict settled or out of reach of "
                f"{int(record.get('max_games', 0)):,} games; its stopped variants stay stopped, so another cap would "
                "change nothing but what its record says; run into a new folder with --out for another cap"
            )
        if record.get("outcome") in ("settled", "out_of_reach") or (
            self.looks and self.looks[-1] == self.rule.max_games
        ):
            self.outcome = str(record.get("outcome"))  # finished: a larger --max-games plays on from a capped run

    def targets(self, folder: Path, reached: Mapping[str, int]) -> dict[str, int]:
        self.reached = {v: int(reached.get(v, 0)) for v in self.variants}
        if self.outcome is not None:
            return dict(self.reached)
        want = self._wanted()
        beyond = [v for v in self.variants if self.reached[v] > want[v]]
        if beyond:
            v = beyond[0]
            raise ResultFolderError(
                f"{folder} holds {self.reached[v]:,} games of variant '{v}', more than the {want[v]:,} its run "
                "until settled has reached: it holds games of another run (a fixed one?); a run until settled "
                "starts in a new folder (--out) or resumes one of its own"
            )
        if any(self.reached[v] < want[v] for v in self.variants):
            return want  # the look in flight is not yet played to the end
        self._look(folder, self._next_look())
        return self._wanted() if self.outcome is None else dict(self.reached)

    def record(self) -> tuple[str, dict[str, Any]]:
        games = {v: self.reached.get(v, 0) for v in self.variants}
        return KEY, {
            "rule": "settled",
            "settle": self.rule.settle,
            "futility": self.rule.futility,
            "tolerance": self.rule.tolerance,
            "alpha": self.rule.alpha,
            "max_games": self.rule.max_games,
            "step": self.step,
            "look_ratio": round(LOOK_RATIO, 6),
            "looks": list(self.looks),
            "outcome": self.outcome,
            "variants": {v: {"games": games[v], "stopped_at": self.stopped.get(v)} for v in self.variants},
            "verdicts": list(self.verdicts.values()),
        }

    def note(self) -> str:
        """Where the run is: the look it plays to, the widest open verdicts narrowing, the time to settle."""
        open_ = self._open()
        if not self.looks:
            return f"| to the first look at {self._next_look():,} games per variant"
        far = sum(r.get("out_of_reach_at") is not None for r in open_)
        head = f"| look {len(self.looks)} at {self.looks[-1]:,}: {len(open_)} of {len(self.verdicts)} open" + (
            f" ({far} out of reach)" if far else ""
        )
        if not open_ or self.outcome is not None:
            return head + (f", {self.outcome}" if self.outcome else "")
        reachable = [r for r in open_ if r.get("out_of_reach_at") is None] or open_
        widest = sorted(reachable, key=lambda r: -_half(r))[:SHOWN]
        shown = "; ".join(f"{r['key']} {_pts(self._off(r), True)} ±{_pts(_half(r))}" for r in widest)
        eta = self.eta()
        return f"{head} ({shown}; points of win share, ±{self.rule.tolerance:g} settles)" + (
            f"  settles in ~{format_duration(eta)}" if eta is not None else ""
        )

    # -- the rule ------------------------------------------------------------------------------------
    def _next_look(self) -> int:
        last = self.looks[-1] if self.looks else 0
        if last >= self.rule.max_games:
            return last
        return next(n for n in look_grid(self.step, self.rule.max_games) if n > last)

    def _wanted(self) -> dict[str, int]:
        """Games per variant when the next look is played: a stopped variant keeps what it has."""
        nxt = self._next_look()
        return {v: self.stopped.get(v, nxt) for v in self.variants}

    def _look(self, folder: Path, n: int) -> None:
        """Judge the folder at look ``n``: settle verdicts, stop the variants whose verdicts are all settled."""
        self.looks.append(n)
        self._marks.append((self.clock(), sum(self.reached.values())))
        for v in self.judge(folder, self.rule.tolerance, self.rule.alpha):
            key = str(v.key)
            if key in self.verdicts and self.verdicts[key]["settled_at"] is not None:
                continue  # settled: kept as it was settled
            entry = _frozen(v)
            if entry["state"] != "open":
                entry["settled_at"] = n
            elif n >= self.rule.max_games:  # the cap: nothing more to decide; one put out of reach stays so
                entry["out_of_reach_at"] = self.verdicts.get(key, {}).get("out_of_reach_at")
            elif self._hopeless(entry):  # out of reach since the first of its run of such looks
                entry["out_of_reach_at"] = self.verdicts.get(key, {}).get("out_of_reach_at") or n
            self.verdicts[key] = entry
        for name in self.variants:
            if name in self.stopped:
                continue
            mine = [r for r in self.verdicts.values() if name in r["variants"]]
            if all(_done(r) for r in mine):  # a variant no verdict needs stops at once
                self.stopped[name] = self.reached[name]
        if not self._open():
            self.outcome = "settled"
        elif n >= self.rule.max_games:
            self.outcome = "max_games"
        elif all(v in self.stopped for v in self.variants):
            # every open verdict out of reach; (or open verdicts that need no variant: none can settle)
            self.outcome = "out_of_reach" if all(_done(r) for r in self._open()) else "max_games"

    def _hopeless(self, entry: Mapping[str, Any]) -> bool:
        """An open verdict out of reach: its chance of settling by the cap below the rule's futility."""
        p = entry.get("p_settle")
        return self.rule.futility > 0 and p is not None and p < self.rule.futility

    def _open(self) -> list[dict[str, Any]]:
        return [r for r in self.verdicts.values() if r["settled_at"] is None]

    def eta(self) -> float | None:
        """Seconds until every open verdict settles, if their bands keep shrinking as 1/√n: a verdict of
        half-width w at n games whose estimate lies d from ±δ needs about n (w / d)² games (at most the cap)."""
        if len(self._marks) < 2:
            return None
        (t0, g0), (t1, g1) = self._marks[0], self._marks[-1]
        if t1 <= t0 or g1 <= g0:
            return None
        need: dict[str, int] = {}
        for r in self._open():
            if r.get("out_of_reach_at") is not None:
                continue  # it waits for no game
            w, d = _half(r), abs(self.rule.tolerance / 100 - abs(self._off(r)))
            n_star = self.rule.max_games if d <= 0 or w <= 0 else min(self.rule.max_games, r["n"] * (w / d) ** 2)
            for v in r["variants"]:
                if v not in self.stopped:
                    need[v] = max(need.get(v, 0), math.ceil(n_star))
        left = sum(max(0, n - self.reached.get(v, 0)) for v, n in need.items())
        return left / ((g1 - g0) / (t1 - t0))

    def _off(self, r: Mapping[str, Any]) -> float:
        """A verdict's estimate as its distance from the value it is asked against: 1/N for one seat's share
        (key ``seats/<variant>/seat k``, as ``simlab.analysis.sequential`` names it), 0 for a change, a card's
        value or the equal-seats question (whose estimate is already the largest seat's distance)."""
        seat = str(r["key"]).startswith("seats/") and str(r["key"]).count("/") == 2 and self.players
        return (r["estimate"] or 0.0) - (1 / self.players if seat else 0.0)

    # -- after the run ----------------------------------------------------------------------------------
    def lines(self) -> list[str]:
        """What the run concluded, for the log."""
        played = sum(self.reached.values())
        fixed = self.rule.max_games * len(self.variants)
        far = [r for r in self._open() if r.get("out_of_reach_at") is not None]
        reach = (
            f" ({len(far)} out of reach: P(settle by {self.rule.max_games:,}) below {self.rule.futility:g})"
            if far
            else ""
        )
        head = {
            "settled": f"settled: every {self.rule.settle} verdict ({len(self.verdicts)}) is settled",
            "out_of_reach": f"stopped: every {self.rule.settle} verdict ({len(self.verdicts)}) is settled or out "
            f"of reach, {len(self._open())} not settled{reach}",
        }.get(
            str(self.outcome),
            f"stopped at max_games ({self.rule.max_games:,} per variant): {len(self._open())} of "
            f"{len(self.verdicts)} verdict(s) still open{reach}",
        )
        early = [v for v in self.variants if self.stopped.get(v, self.rule.max_games) < self.rule.max_games]
        return [
            f"{head}; {played:,} games played, {fixed:,} at max_games for every variant "
            f"({fixed / max(played, 1):.1f}x as many); looks at {', '.join(f'{n:,}' for n in self.looks)} games per "
            f"variant; {len(early)} of {len(self.variants)} variant(s) stopped before the cap "
            f"(tolerance ±{self.rule.tolerance:g} points, alpha {self.rule.alpha:g}, futility "
            f"{self.rule.futility:g}, waiting for the {self.rule.settle} verdicts)"
        ]


def _done(r: Mapping[str, Any]) -> bool:
    """A verdict that needs no more games: settled, or out of reach."""
    return r.get("settled_at") is not None or r.get("out_of_reach_at") is not None


def _half(r: Mapping[str, Any]) -> float:
    lo, hi = r.get("lo"), r.get("hi")
    return (hi - lo) / 2 if lo is not None and hi is not None else math.inf


def _pts(share: float | None, sign: bool = False) -> str:
    if share is None or not math.isfinite(share):
        return "?"
    return f"{share * 100:+.1f}" if sign else f"{share * 100:.1f}"


def _show(key: str, value: Any) -> str:
    if key == "tolerance" and isinstance(value, int | float):
        return f"{value:g} points"
    return str(value)


# -- the entry point ------------------------------------------------------------------------------------
def settle_rule(
    sc: Scenario,
    *,
    until: str | None = None,
    tolerance: float | None = None,
    alpha: float | None = None,
    max_games: int | None = None,
    games: int | None = None,
    out: str | Path | None = None,
    resume: bool = False,
    settle: str | None = None,
    futility: float | None = None,
) -> Rule | None:
    """The rule a run plays by (None: a fixed run), from the options, the scenario and, on ``resume``, the
    record of the run in ``out``; refuses options that do not go together (ScenarioError)."""
    record = _previous_record(Path(out) if out is not None else Path("results") / sc.name) if resume else None
    if until is not None and until not in UNTIL:
        raise ScenarioError(f"--until: expected one of {', '.join(UNTIL)}, found {until!r}")
    settled = until == "settled" or sc.until == "settled" or record is not None
    if settle is not None and settle not in SETTLE_FAMILIES:
        raise ScenarioError(
            f"--settle: expected one of {', '.join(SETTLE_FAMILIES)} (the verdicts a run until settled waits for), "
            f"found {settle!r}"
        )
    given = [
        name
        for name, value in (
            ("--tolerance", tolerance),
            ("--max-games", max_games),
            ("--settle", settle),
            ("--futility", futility),
        )
        if value is not None
    ]
    if not settled:
        if given:
            raise ScenarioError(
                f"{given[0]}: belongs to a run until settled; add --until settled (or leave {given[0]} out)"
            )
        return None
    if games is not None:
        raise ScenarioError(
            "--games: a run until settled plays until its verdicts are settled; give its cap per variant with "
            "--max-games instead"
        )
    if tolerance is not None and not (math.isfinite(tolerance) and 0 < tolerance < 100):
        raise ScenarioError(
            f"--tolerance: expected points of win share above 0 and below 100 (1.0 = one point), found {tolerance!r}"
        )
    if alpha is not None and not (0 < alpha < 0.5):
        raise ScenarioError(f"alpha: expected an error rate above 0 and below 0.5, found {alpha!r}")
    if futility is not None and not (math.isfinite(futility) and 0 <= futility < 1):
        raise ScenarioError(
            f"--futility: expected a probability from 0 (never give up on a verdict) to below 1, found {futility!r}"
        )
    rec = record or {}
    return Rule(
        tolerance=tolerance if tolerance is not None else float(rec.get("tolerance", sc.tolerance)),
        alpha=alpha if alpha is not None else float(rec.get("alpha", sc.alpha if sc.until else DEFAULT_ALPHA)),
        max_games=max_games if max_games is not None else int(rec.get("max_games", sc.games)),
        # resumed: the family the run began with (a record without one waited for every verdict)
        settle=settle if settle is not None else str(rec.get("settle", "every")) if rec else _scenario_settle(sc),
        # resumed: the threshold the run began with (a record without one had none)
        futility=futility
        if futility is not None
        else float(rec.get("futility", 0.0))
        if rec
        else sc.futility
        if sc.until
        else DEFAULT_FUTILITY,
    )


def _scenario_settle(sc: Scenario) -> str:
    """The family a new run waits for: the scenario's ``settle`` when it is a run until settled, else the default."""
    return sc.settle if sc.until else DEFAULT_SETTLE


def _previous_record(folder: Path) -> dict[str, Any] | None:
    """The ``stopping`` record of the manifest in ``folder`` (None: none there, or no readable manifest)."""
    with contextlib.suppress(OSError, ValueError):
        record = json.loads((folder / "manifest.json").read_text(encoding="utf-8")).get(KEY)
        if isinstance(record, dict):
            return record
    return None


def run_scenario(
    scenario: str | Path | Scenario,
    *,
    until: str | None = None,
    tolerance: float | None = None,
    alpha: float | None = None,
    max_games: int | None = None,
    settle: str | None = None,
    futility: float | None = None,
    judge: Judge | None = None,
    **options: Any,
) -> Path:
    """Play ``scenario`` until settled when the options, the scenario (``until = "settled"``) or the run being
    resumed say so (``tolerance`` in points of win share, ``max_games`` per variant), else as a fixed run; the other
    options are ``simlab.run.runner.run_scenario``'s."""
    from simlab.run.runner import run_scenario as run

    sc = scenario if isinstance(scenario, Scenario) else load_scenario(scenario)
    rule = settle_rule(
        sc,
        until=until,
        tolerance=tolerance,
        alpha=alpha,
        max_games=max_games,
        games=options.get("games"),
        out=options.get("out"),
        resume=bool(options.get("resume")),
        settle=settle,
        futility=futility,
    )
    if rule is None:
        return run(sc, **options)
    sc = sc.with_options(games=rule.max_games, chunk_size=options.get("chunk_size"))
    rule_judge = judge or family_judge(rule.settle, rule.max_games)
    looks = Settle(rule, sc.variant_names, look_step(sc, rule.max_games), rule_judge, players=sc.players)
    folder = run(sc, **(options | {"games": rule.max_games}), looks=looks)
    if options.get("progress", True):
        log: IO[str] = options.get("stream") or sys.stderr
        for line in looks.lines():
            log.write(line + "\n")
    return folder
