"""The driver of ``simlab fix``: the smallest change of the question's knobs that makes every seat fair, certified.

1. **Published first.** The published rules are played on fresh seeds (``PUBLISHED_START``) with the lineup, in
   looks (``fix_sequential``: it stops as soon as they are certified, or for futility once they clearly cannot
   be): their seat shares are the answer's "before", their guard measures the guards' reference. Fair within ±δ
   for the lineup and every panel bot: ``already_fair``, nothing is searched.
2. **Explore** on common random numbers (``Trials.batch`` of ``fix_play.explore_design``: the published rules and
   moves halfway to each end of every grid axis) until the response model (``analysis.fix_model``: compensation's
   softmax for per-seat offsets, a per-seat surrogate for other knobs) shows a clear slope, or half the budget.
3. **Shortlist and race, cheapest first.** The model (refitted every round on every game) scans the candidates
   cheapest first (``FixQuestion.candidates``) and shortlists those it cannot rule out: the 1% quantile of the
   predicted largest seat deviation, over draws of its coefficients, is within the tolerance. Each round
   plays one batch of every open candidate on shared seeds. The race only chooses which candidate to certify,
   so it decides at a modest level (``RACE_ALPHA``): a candidate *passes* when every seat's one-sided
   (1 − RACE_ALPHA) bounds lie inside 1/N ± δ and its guards hold on its games, and is *ruled out* when some
   seat's simultaneous interval at that level lies outside the band (``analysis.fix_bands``). The search stops
   when a candidate has passed and no cheaper one is open or left for the model to try ("settled"), when every
   candidate on the grid (the first ``MAX_SCAN``) was played and ruled out ("exhausted": once the model rules
   out all the untried ones, they are played cheapest first, since a model's word is no proof), or when the
   budget is spent.
4. **Certify** the passed candidates cheapest first (``fix_sequential.certify_attempts``), at most
   ``CERTIFY_ATTEMPTS``, each on its own fresh seeds (never used by the search or another attempt) in looks, with
   the lineup and with each panel bot in every seat, each at level α / CERTIFY_ATTEMPTS: an attempt stops at the
   first look where every seat of every lineup passes its one-sided tests at the look's group-sequential
   boundary (certified), when passing by the cap has become unlikely (futile: the next candidate is tried), or
   at the cap. Each attempt is an intersection-union test at level α / CERTIFY_ATTEMPTS on seeds independent of
   everything before it, so P(certify a change that is not fair within ±δ) ≤ α whatever the search chose.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from simlab.analysis.fix_bands import Measures, SeatBand, seat_band
from simlab.analysis.fix_model import ResponseFit, design, fitted_or_none
from simlab.core.errors import SimlabError
from simlab.experiments.engine import PUBLISHED_START, Trials
from simlab.experiments.fix_certify import Certification, alternatives, attempt_record, method_text, seat_shares
from simlab.experiments.fix_play import PlayLineup, arm_player, explore_design, features, guarded_facts
from simlab.experiments.fix_question import FixResult
from simlab.experiments.fix_sequential import certify_attempts, certify_in_looks
from simlab.experiments.fix_trials import MakeTrials, make_trials
from simlab.run.fix_question import Change, FixQuestion, FixQuestionError

#: the exploration stops once a slope is this many standard errors from 0
SLOPE_Z = 4.0
#: candidates raced at once (3: a lean race spends its games on few; 5 measured 14 of 40 Pig repetitions certified
#: at 49,800 games against 14 at 40,300 with 3 and a smaller budget: benchmarks/fix_vs_ntbea.py)
SHORTLIST = 3
#: candidates the model scans (cheapest first) for the shortlist each time it refills
MAX_SCAN = 100_000
SCAN_CHUNK = 2_000
#: a candidate is shortlisted unless this low quantile of its predicted largest deviation (over the model's
#: uncertainty) is above the tolerance: a model that is not yet sure rules nothing out
MODEL_QUANTILE = 0.01
#: the race's level: a candidate *passes* when every seat's one-sided (1 − RACE_ALPHA) bounds lie inside the band
#: (so its point estimate does too), and is *ruled out* when some seat's interval, simultaneous over the seats at
#: RACE_ALPHA, lies outside it. The race only chooses which candidate to certify: a wrong call costs optimality or
#: games, never validity (certification plays fresh seeds)
RACE_ALPHA = 0.2
#: candidates certification tries at most, in the race's order, each at level α / CERTIFY_ATTEMPTS
CERTIFY_ATTEMPTS = 2

Progress = Callable[[dict[str, Any]], None]


def find_fix(
    question: FixQuestion,
    *,
    jobs: int = 1,
    progress: Progress | None = None,
    play: PlayLineup | None = None,
    trials: MakeTrials = make_trials,
) -> FixResult:
    """Search the question's grid for the cheapest change that is fair within ±tolerance and certify it.

    ``progress(dict)`` is called after each round: ``phase`` (explore, race, certify), ``round``, ``games``
    (search games so far), ``candidates_left``, and the current ``best`` (its change described, its largest seat
    deviation and interval). ``play(lineup, change, start, seeds)`` replaces the game contract in tests.
    ``trials(play, seed, jobs, worker, scope)`` builds each lineup's ``Trials`` (``scope``: the lineup): a fix
    folder's ``fix_trials.stored_trials`` keeps every play there, so a stopped search resumes."""
    make = trials
    q = question
    say = progress or (lambda _info: None)
    layout = Measures(q.players, guarded_facts(q))
    fn, worker = arm_player(q, q.lineup, play)
    trials = make(fn, q.seed, jobs, worker, ",".join(q.lineup))
    check_budget(q)
    search = _Search(q, trials, layout, say)
    published = certify_in_looks(q, q.no_change(), trials, PUBLISHED_START, play, jobs, layout, q.alpha, make=make)
    if published.fair:
        return _result(q, "already_fair", None, published, None, [], trials, 0, published.games, layout=layout)

    search.explore()
    explored = trials.spent
    ended = search.run()
    order = search.passed_in_order()
    if ended == "budget":  # fallbacks after the passed ones: the best guesses the race has
        order += [c for c in search.best_guesses() if c not in order]
    if not order:
        status = "none_on_grid" if ended == "exhausted" else "budget"
        best = search.best_open()
        return _result(q, status, None, published, None, best, trials, explored, published.games, ended, layout)
    tried = certify_attempts(q, order, CERTIFY_ATTEMPTS, trials, play, jobs, layout, published, make)
    for k, att in enumerate(tried):
        say(
            {
                "phase": "certify",
                "attempt": k + 1,
                "games": trials.spent,
                "certify_games": published.games + sum(a.games for a in tried[: k + 1]),
                "best": att.change.describe(),
                "change": att.change.as_dict(),
                "fair": att.fair,
                "outcome": att.outcome,
            }
        )
    after = tried[-1]
    status = "certified" if after.fair and after.guards_ok else "not_certified"
    others = [c for c in order if c != after.change]
    spent = published.games + sum(a.games for a in tried)
    return _result(
        q, status, after.change, published, after, others, trials, explored, spent, ended, layout, tuple(tried)
    )


def check_budget(q: FixQuestion) -> None:
    """Refuse a budget smaller than the first exploration round (every explored setting once), before any game is
    played or any folder written."""
    design = explore_design(q)
    first = q.batch * len(design)
    if first > q.budget:
        raise FixQuestionError(
            f"{q.source}: key 'fix.budget': the first exploration needs {first:,} games ({len(design)} "
            f"settings × batch {q.batch:,}), the budget is {q.budget:,}; raise the budget or lower the batch"
        )


class _Search:
    """The explore / shortlist / test loop on one ``Trials`` (its pool holds every candidate's games)."""

    def __init__(self, q: FixQuestion, trials: Trials, layout: Measures, say: Progress):
        self.q, self.trials, self.layout, self.say = q, trials, layout, say
        self.state: dict[Change, str] = {}  # open, passed, ruled, guard
        self.fit: ResponseFit | None = None
        self.design = explore_design(q)
        self.rounds = 0
        self._bands: dict[Change, SeatBand] = {}
        self._playable: dict[Change, bool] = {}
        self._scan: Iterator[Change] | None = itertools.islice(q.candidates(), MAX_SCAN)
        self._scanned: list[tuple[list[Change], np.ndarray]] = []

    def band(self, c: Change) -> SeatBand:
        """The candidate's seats on its games so far (kept until it plays more)."""
        cand = self.trials.pool[c]
        kept = self._bands.get(c)
        if kept is None or kept.games != cand.games:
            kept = seat_band(self.layout.shares(np.concatenate(cand.wins)), self.q.delta, RACE_ALPHA)
            self._bands[c] = kept
        return kept

    def explore(self) -> None:
        q, t = self.q, self.trials
        per_round = q.batch * len(self.design)
        while t.spent == 0 or t.spent + per_round <= q.budget // 2:  # half the budget at most: the test needs the rest
            t.batch(self.design, q.batch)
            self.rounds += 1
            self.refit()
            self.say(
                {
                    "phase": "explore",
                    "round": self.rounds,
                    "games": t.spent,
                    "candidates_left": None,
                    "slope_z": self.fit.slope_z() if self.fit else None,
                }
            )
            if self.fit is not None and self.fit.slope_z() >= SLOPE_Z:
                break
        for c in self.design[1:]:  # explored settings are candidates with games already
            self.judge(c)

    def refit(self) -> None:
        played = [c for c in self.trials.pool if self.trials.pool[c].games]
        if len(played) < 2:
            return
        offsets, common = features(self.q, played)
        x, slopes = design(offsets, common)
        cands = [self.trials.pool[c] for c in played]
        arm = np.repeat(np.arange(len(cands)), [c.games for c in cands])
        g = np.concatenate([np.concatenate(c.game) for c in cands])
        w = np.concatenate([self.layout.shares(np.concatenate(c.wins)) for c in cands])
        self.fit = fitted_or_none(g, arm, x, w, slopes) or self.fit

    def judge(self, c: Change) -> None:
        """The race's call on a candidate with games, at the modest level ``RACE_ALPHA``: ruled out, or passed, on
        its own games; passed too when its own point estimates lie inside the band and the model says its largest
        deviation is within the tolerance with probability ≥ 1 − RACE_ALPHA; "unlikely" when the model says it is
        beyond with that probability (it holds no cheaper candidate back, but is played on while nothing passed)."""
        b = self.band(c)
        if b.beyond:
            self.state[c] = "ruled"
            return
        low, high = self.model_bounds(c)
        if b.fair or (high is not None and high < self.q.delta and b.worst < self.q.delta):
            self.state[c] = "passed" if self.guards_hold(c) else "guard"
        elif low is not None and low > self.q.delta:
            self.state[c] = "unlikely"
        else:
            self.state[c] = "open"

    def model_bounds(self, c: Change) -> tuple[float | None, float | None]:
        """The model's RACE_ALPHA and 1 − RACE_ALPHA quantiles of the candidate's largest seat deviation (None, None:
        no model yet)."""
        if self.fit is None:
            return None, None
        offsets, common = features(self.q, [c])
        x = design(offsets, common)[0]
        low = self.fit.deviation_low(x, RACE_ALPHA, seed=self.q.seed)[0]
        high = self.fit.deviation_low(x, 1 - RACE_ALPHA, seed=self.q.seed)[0]
        return float(low), float(high)

    def rejudge(self) -> None:
        """Every candidate still in play judged again on its games and the refitted model."""
        for c, s in list(self.state.items()):
            if s in ("open", "passed", "unlikely") and self.trials.pool.get(c) and self.trials.pool[c].games:
                self.judge(c)

    def guards_hold(self, c: Change) -> bool:
        """The guards measurable on search games (not the luck share) hold at their point estimates."""
        pub = self.trials.pool.get(self.q.no_change())
        if pub is None or not pub.games:
            return True
        before, after = np.concatenate(pub.wins), np.concatenate(self.trials.pool[c].wins)
        return all(
            g.ok(self.layout.value(g.name, before), self.layout.value(g.name, after))
            for g in self.q.guards
            if g.name != "luck"
        )

    def open(self) -> list[Change]:
        return [c for c, s in self.state.items() if s == "open"]

    def passed_in_order(self) -> list[Change]:
        passed = [c for c, s in self.state.items() if s == "passed"]
        return sorted(passed, key=lambda c: (c.cost, self.band(c).worst))

    def best_guesses(self) -> list[Change]:
        """When the budget ran out: the candidates played and not ruled out whose own point estimates lie inside
        the band or whose predicted largest deviation (the model's) does, the smallest predicted deviation first
        (their own largest deviation without a model; then the cheapest). Certification on fresh seeds is their
        test."""
        alive = [c for c, s in self.state.items() if s in ("open", "unlikely") and self.trials.pool.get(c)]
        inside = [c for c in alive if min(self.band(c).worst, self.predicted(c)) < self.q.delta]
        return sorted(inside, key=lambda c: (self.predicted(c), c.cost))

    def predicted(self, c: Change) -> float:
        """The model's largest seat deviation of ``c`` (its own games' without a model)."""
        if self.fit is None:
            return self.band(c).worst
        offsets, common = features(self.q, [c])
        return float(self.fit.deviation(design(offsets, common)[0])[0])

    def chosen(self) -> Change | None:
        """The cheapest passed candidate (ties: the smallest deviation), or None."""
        passed = self.passed_in_order()
        return passed[0] if passed else None

    def settled(self) -> bool:
        best = self.chosen()
        return best is not None and not any(c.cost < best.cost for c in self.open())

    def refill(self) -> None:
        """Add untried candidates (cheaper than the best passed one, if any) up to ``SHORTLIST`` open: first the
        cheapest the model predicts within the tolerance; if there is none, those it cannot rule out (the low
        quantile of their predicted deviation within the tolerance), the best predicted first."""
        need = SHORTLIST - len(self.open())
        if need <= 0 or self.fit is None:
            return
        cap = self.chosen().cost if self.chosen() is not None else None
        found: list[Change] = []
        possible: list[tuple[float, Change]] = []
        for batch, x in self.scanned():
            if cap is not None and batch[0].cost >= cap:
                break  # cheapest first: nothing further is cheaper than the passed one
            fresh = np.array([c not in self.state and (cap is None or c.cost < cap) for c in batch])
            if not fresh.any():
                continue
            point = self.fit.deviation(x[fresh])
            chunk = [c for c, f in zip(batch, fresh, strict=True) if f]
            found += [c for c, d in zip(chunk, point, strict=True) if d < self.q.delta and self.playable(c)]
            if len(found) >= need:
                break
            if not found:
                low = self.fit.deviation_low(x[fresh], MODEL_QUANTILE, seed=self.q.seed)
                possible += [(float(d), c) for c, d, lb in zip(chunk, point, low, strict=True) if lb < self.q.delta]
        if not found:  # cheapest first among equal predictions (a stable sort of the cheapest-first scan)
            found = [c for _d, c in sorted(possible, key=lambda dc: dc[0]) if self.playable(c)]
        if not found and cap is None and not self.open():  # the model rules out all the rest: no proof, so play them
            found = self.untried(need)
        for c in found[:need]:
            self.state[c] = "open"

    def playable(self, c: Change) -> bool:
        """Whether the config accepts the change (each grid alone is checked on load, not every combination)."""
        if c not in self._playable:
            self._playable[c] = _playable(self.q, c)
        return self._playable[c]

    def untried(self, need: int) -> list[Change]:
        """The cheapest playable candidates not yet played: what is left before "none on the grid" can be said."""
        out: list[Change] = []
        for batch, _x in self.scanned():
            out += [c for c in batch if c not in self.state and self.playable(c)][: need - len(out)]
            if len(out) >= need:
                break
        return out

    def scanned(self) -> Iterator[tuple[list[Change], np.ndarray]]:
        """The candidates cheapest first in chunks with their designs, computed once (at most ``MAX_SCAN``)."""
        yield from self._scanned
        while self._scan is not None:
            batch = list(itertools.islice(self._scan, SCAN_CHUNK))
            if not batch:
                self._scan = None
                return
            offsets, common = features(self.q, batch)
            self._scanned.append((batch, design(offsets, common)[0]))
            yield self._scanned[-1]

    def run(self) -> str:
        """Rounds until settled, exhausted or the budget; returns which."""
        q, t = self.q, self.trials
        while True:
            self.refill()
            if self.settled():
                return "settled"
            best = self.chosen()
            todo = [c for c in self.open() if best is None or c.cost < best.cost]  # only cheaper ones matter now
            if best is None:  # nothing passed: the unlikely ones are played on (a model's word is no proof)
                todo += [c for c, s in self.state.items() if s == "unlikely"]
            if not todo:
                return "exhausted"
            if t.spent + q.batch * len(todo) > q.budget:
                return "budget"
            t.batch(todo, q.batch)
            self.rounds += 1
            self.refit()
            self.rejudge()
            best = self.best_open()
            info: dict[str, Any] = {
                "phase": "race",
                "round": self.rounds,
                "games": t.spent,
                "candidates_left": len(self.open()),
            }
            if best:
                b = self.band(best[0])
                lo, hi = b.worst_interval
                info |= {"best": best[0].describe(), "change": best[0].as_dict()}
                info |= {"worst_deviation": b.worst, "lo": lo, "hi": hi}
            self.say(info)

    def best_open(self) -> list[Change]:
        """Candidates not ruled out, the smallest upper bound of the largest seat deviation first."""
        alive = [c for c, s in self.state.items() if s in ("open", "passed") and self.trials.pool.get(c)]
        return sorted(alive, key=lambda c: self.band(c).worst_interval[1])[:SHORTLIST]


def _playable(q: FixQuestion, c: Change) -> bool:
    try:
        c.apply(q.config)
    except SimlabError:
        return False
    return True


def _result(
    q: FixQuestion,
    status: str,
    change: Change | None,
    published: Certification,
    after: Certification | None,
    others: list[Change],
    trials: Trials,
    explored: int,
    certify_games: int,
    ended: str = "",
    layout: Measures | None = None,
    tried: tuple[Certification, ...] = (),
) -> FixResult:
    """The answer: seats before/after, guards, panel, alternatives and the games spent."""
    games = {"explore": explored, "race": trials.spent - explored, "certify": certify_games}
    games["total"] = sum(games.values())
    shown = after if after is not None else published
    layout = layout or Measures(q.players, guarded_facts(q))
    return FixResult(
        status=status,
        change=change,
        before=seat_shares(published.band),
        after=seat_shares(after.band) if after is not None else (),
        guards=after.guards if after is not None else (),
        panel=shown.panel if status not in ("budget", "none_on_grid") else (),
        alternatives=alternatives(others, trials, q, layout),
        games=games,
        tolerance=q.tolerance,
        alpha=q.alpha,
        method=method_text(q, ended, status, RACE_ALPHA, CERTIFY_ATTEMPTS),
        search=ended,
        published_panel=published.panel if status != "already_fair" else (),
        attempts=tuple(attempt_record(a, k) for k, a in enumerate(tried)),
    )
