"""The truth a benchmark judges answers by: each setting's seat shares on many fresh games, cached on disk.

A truth table is a JSON file: its ``provenance`` (game, rules version, base config, lineup, games per setting,
root seed, first game index, the grid's dimensions, and the simlab commit that wrote each entry) and one entry
per setting played (per-seat win share, its standard error, the worst seat deviation ``max_k |p_k − 1/N|`` with
the standard error of that seat's share, and the games). Every setting is played on the same games (indices from
``TRUTH_START`` under the table's own root seed): far from any game a method under test plays. For an expensive
game a ``screen`` (say 20,000 games) settles the settings whose verdict against δ is already clear; the others
are played to the full count (each entry says how many games it has). A file whose
provenance differs from the question's is refused (delete it or name another file), so a cached figure is
never read for another question.
"""

from __future__ import annotations

import datetime
import json
import subprocess
from collections.abc import Callable, Hashable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from simlab.run.seeds import game_seeds

#: first game index of a truth run: beyond compensate's and fix's confirmations (2**40, 2**41)
TRUTH_START = 3 << 40
#: games are played in parts of this many (memory), the same seeds whatever the part size
PART = 50_000

#: fields of the provenance that may differ between entries (who wrote them, when)
_ANNOTATIONS = ("written_by", "written_at")


def key_of(setting: Sequence[Any]) -> str:
    """The table's key of a setting (its values, comma-separated)."""
    return ",".join(str(v) for v in setting)


def commit() -> str:
    """The simlab commit this is run from ('unknown' outside a git checkout)."""
    try:
        out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=True,
                             cwd=Path(__file__).parent)  # fmt: skip
        return out.stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


class TruthTable:
    """Seat shares by setting, played on demand and kept in ``path``."""

    def __init__(self, path: Path, provenance: dict[str, Any]):
        self.path, self.provenance = Path(path), json.loads(json.dumps(provenance))  # tuples as JSON reads them
        self.points: dict[str, dict[str, Any]] = {}
        if self.path.exists():
            data = json.loads(self.path.read_text())
            theirs = {k: v for k, v in data["provenance"].items() if k not in _ANNOTATIONS}
            ours = {k: v for k, v in self.provenance.items() if k not in _ANNOTATIONS}
            if theirs != ours:
                diff = sorted(k for k in set(theirs) | set(ours) if theirs.get(k) != ours.get(k))
                raise ValueError(
                    f"{self.path}: a truth table of another question (differs in {', '.join(diff)}); delete it or "
                    "pass another --truth file"
                )
            self.points = data["points"]

    @property
    def games(self) -> int:
        return int(self.provenance["games"])

    def entry(self, setting: Sequence[Any], play: Callable[[Hashable, int, np.ndarray], np.ndarray]) -> dict:
        """The setting's entry, played now (``play(setting, start, seeds)``) if the table does not have it.

        With a ``screen`` of g games and a tolerance ``delta`` in the provenance (an expensive game), the first
        g games decide a setting whose worst seat deviation is more than 4 standard errors from δ (its verdict
        is clear); only the others are played to the full ``games``."""
        key = key_of(setting)
        if key not in self.points:
            screen = int(self.provenance.get("screen", 0))
            wins = self._play(setting, play, 0, screen or self.games)
            if screen:
                first = summarise(wins)
                if abs(first["deviation"] - float(self.provenance["delta"])) <= 4 * first["deviation_se"]:
                    wins = np.concatenate([wins, self._play(setting, play, screen, self.games)])
            self.points[key] = summarise(wins)
            self.points[key]["written_by"] = commit()
            self.save()
        return self.points[key]

    def _play(self, setting: Sequence[Any], play: Callable, a: int, b: int) -> np.ndarray:
        """Games a..b of the table's run (indices TRUTH_START + a ..), in parts of at most PART."""
        seed = int(self.provenance["seed"])
        lo, hi = TRUTH_START + a, TRUTH_START + b
        parts = [
            np.asarray(play(tuple(setting), s, game_seeds(seed, s, min(s + PART, hi))), dtype=float)
            for s in range(lo, hi, PART)
        ]
        return np.concatenate(parts)

    def save(self) -> None:
        prov = dict(self.provenance, written_at=datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%dT%H:%MZ"))
        self.path.parent.mkdir(parents=True, exist_ok=True)
        body = {"provenance": prov, "points": dict(sorted(self.points.items()))}
        tmp = self.path.with_suffix(".tmp")
        tmp.write_text(json.dumps(body, indent=1) + "\n")
        tmp.replace(self.path)


def summarise(wins: np.ndarray) -> dict[str, Any]:
    """Per-seat share and SE, the worst seat's deviation and the SE of that seat's share."""
    n, seats = wins.shape
    shares = wins.mean(axis=0)
    se = wins.std(axis=0, ddof=1) / np.sqrt(n)
    worst = int(np.argmax(np.abs(shares - 1.0 / seats)))
    return {
        "games": int(n),
        "shares": [round(float(x), 6) for x in shares],
        "se": [round(float(x), 6) for x in se],
        "deviation": round(float(abs(shares[worst] - 1.0 / seats)), 6),
        "deviation_se": round(float(se[worst]), 6),
    }


def truly_fair(entry: dict[str, Any], delta: float) -> bool:
    """Whether the truth's worst seat deviation is within ±δ (its point estimate)."""
    return bool(entry["deviation"] <= delta)


def borderline(entry: dict[str, Any], delta: float) -> bool:
    """Whether the truth's worst seat deviation is within 2 SE of δ (the verdict could go either way)."""
    return bool(abs(entry["deviation"] - delta) < 2 * entry["deviation_se"])
