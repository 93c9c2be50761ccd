"""Getting result rows into a lazy frame and finding the columns an analysis needs.

Analyses accept a result folder path, a polars LazyFrame or a DataFrame, so a notebook can pass
``simlab.load_results(folder)``, a filtered frame, or synthetic rows in a test.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from simlab.core.errors import NotAvailableError as _NotAvailable
from simlab.core.errors import SimlabError
from simlab.core.facts import NotAvailable, Roles, not_available

Results = str | Path | pl.LazyFrame | pl.DataFrame

#: one row per game: these keys identify it (game i of every variant shares its seed)
GAME_KEYS = ("variant", "game")


class AnalysisError(SimlabError):
    """An analysis cannot answer for these rows (a needed column is missing, too few games...)."""


class NotAvailableError(AnalysisError, _NotAvailable):
    """The game does not declare what an analysis needs (a role, an intervention): the analysis is "not
    available for this game". Expected, not a failure: the CLI prints it and exits 0, a report says it."""


class NoMarketError(NotAvailableError):
    """The game declares no market (no ``market.price`` and ``market.demand`` roles)."""


def as_lazy(results: Results) -> pl.LazyFrame:
    """A LazyFrame over result rows given as a folder, a LazyFrame or a DataFrame."""
    if isinstance(results, pl.LazyFrame):
        return results
    if isinstance(results, pl.DataFrame):
        return results.lazy()
    if isinstance(results, str | Path):
        from simlab.run.reader import load_manifest, load_results

        lf = load_results(results)
        try:
            manifest = load_manifest(results)
        except SimlabError:  # bare Parquet parts without a manifest: roles come from the column names
            return lf
        remember(lf, roles=roles_from_manifest(manifest, names(lf)))
        return lf
    raise AnalysisError(f"expected a result folder or a polars frame of result rows, got {type(results).__name__}")


def names(lf: pl.LazyFrame | pl.DataFrame) -> list[str]:
    """The column names (a DataFrame's without resolving a schema: a worker asks for every chunk)."""
    return lf.columns if isinstance(lf, pl.DataFrame) else lf.collect_schema().names()


def require(lf: pl.LazyFrame | pl.DataFrame, columns: tuple[str, ...] | list[str], what: str) -> None:
    """Raise AnalysisError naming the missing columns, instead of a polars ColumnNotFoundError."""
    have = set(names(lf))
    missing = [c for c in columns if c not in have]
    if missing:
        raise AnalysisError(f"{what} needs the column(s) {', '.join(missing)}, which these results do not have")


def roles_from_manifest(manifest: dict[str, Any], columns: list[str] | None = None) -> Roles:
    """The roles of a result folder: its manifest's role map, or for a folder written before role maps
    existed, its columns matched against its game's declarations."""
    game = manifest.get("game")
    if manifest.get("facts", {}).get("roles") is not None:
        return Roles(manifest["facts"], game)
    from simlab.core.registry import get_game

    try:
        facts = get_game(game).fact_set if game else None
    except SimlabError:
        facts = None
    if facts is None or columns is None:
        return Roles({}, game)
    return Roles(facts.manifest_for(columns), game)


def roles(results: Results) -> Roles:
    """The roles of these rows: remembered from their folder's manifest, else matched from their column
    names against the declarations of the registered games (the game matching most columns)."""
    if isinstance(results, str | Path):
        results = as_lazy(results)
    lf = results
    if isinstance(lf, pl.LazyFrame):
        known = _known(lf).get("roles")
        if known is not None:
            return known
    return _roles_for_columns(tuple(names(lf)))


_ROLES_BY_COLUMNS: dict[tuple[str, ...], Roles] = {}


def _roles_for_columns(columns: tuple[str, ...]) -> Roles:
    if columns in _ROLES_BY_COLUMNS:
        return _ROLES_BY_COLUMNS[columns]
    from simlab.core.registry import available_games, get_game

    best: tuple[int, str | None, dict[str, Any]] = (0, None, {})
    for name in available_games():
        try:
            facts = get_game(name).fact_set
        except Exception:  # a plug-in that does not load here
            continue
        if facts is None:
            continue
        m = facts.manifest_for(columns)
        count = sum(len(v) for v in m["roles"].values())
        if count > best[0]:
            best = (count, name, m)
    out = Roles(best[2], best[1])
    if len(_ROLES_BY_COLUMNS) > 64:
        _ROLES_BY_COLUMNS.clear()
    _ROLES_BY_COLUMNS[columns] = out
    return out


def require_roles(results: Results, what: str, *needed: str, error: type = NotAvailableError) -> Roles:
    """The roles of these rows, or ``error`` ("<what> is not available for this game: ... declares no
    role ...") if one of ``needed`` is not declared."""
    r = roles(results)
    try:
        r.require(what, *needed)
    except NotAvailable as exc:
        raise error(str(exc)) from None
    return r


def require_intervention(r: Roles, what: str, kind: str) -> dict[str, Any]:
    """The game's intervention of ``kind`` (card, money, points), or NotAvailableError."""
    found = r.intervention(kind)
    if found is None:
        raise NotAvailableError(not_available(what, f"{kind} intervention", [f"({kind})"], r.game))
    return found


#: what is known about a LazyFrame's rows (players, game range, bots), by its serialized plan: every scan of a
#: large result folder reads the footers of all its part files (seconds for thousands of files), so an
#: analysis asks for them once, and the report registers what the manifest already says
_REMEMBERED: dict[bytes, dict[str, Any]] = {}
_MAX_REMEMBERED = 64


def _plan_key(lf: pl.LazyFrame) -> bytes | None:
    """A key for a LazyFrame over files (None for in-memory frames, which are cheap to scan anyway)."""
    try:
        if "DF [" in lf.explain(optimized=False):
            return None
        return lf.serialize()
    except Exception:
        return None


def remember(lf: pl.LazyFrame, **known: Any) -> None:
    """Record what is known about these rows (``players``, ``game_min``, ``game_max``, ``variants``, ``bots``,
    ``games`` per variant)."""
    key = _plan_key(lf)
    if key is None:
        return
    if key not in _REMEMBERED and len(_REMEMBERED) >= _MAX_REMEMBERED:
        _REMEMBERED.pop(next(iter(_REMEMBERED)))
    _REMEMBERED.setdefault(key, {}).update(known)


def _known(lf: pl.LazyFrame) -> dict[str, Any]:
    """What is remembered about these rows ({} for in-memory frames or nothing remembered yet)."""
    key = _plan_key(lf)
    return _REMEMBERED.get(key, {}) if key is not None else {}


def row_extent(lf: pl.LazyFrame) -> dict[str, Any]:
    """Players, game index range and number of variants of the rows (one scan, remembered per plan)."""
    known = _known(lf)
    if all(k in known for k in ("players", "game_min", "game_max", "variants")):
        return known
    df = lf.select(
        pl.col("seat").max().alias("seat"),
        pl.col("game").min().alias("lo"),
        pl.col("game").max().alias("hi"),
        pl.col("variant").n_unique().alias("v"),
    ).collect()
    if df["seat"][0] is None:
        raise AnalysisError("no result rows")
    out = {
        "players": int(df["seat"][0]) + 1,
        "game_min": int(df["lo"][0]),
        "game_max": int(df["hi"][0]),
        "variants": int(df["v"][0]),
    }
    remember(lf, **out)
    return {**known, **out}


def players(lf: pl.LazyFrame) -> int:
    """Seats per game (the highest seat number plus one)."""
    return int(row_extent(lf)["players"])


def game_batches(lf: pl.LazyFrame, games_per_batch: int, of: pl.LazyFrame | None = None) -> list[pl.LazyFrame]:
    """The rows split by game index into batches of about ``games_per_batch`` games (over all variants).

    A per-game pipeline holds one state per game in flight; batches bound its memory. Each batch is a
    scan of its own, so batches are as few as the memory allows. ``of``: the frame whose row extent (game
    range, variants) to use, when ``lf`` is a projection of it.
    """
    f = row_extent(of if of is not None else lf)
    lo, hi, variants = f["game_min"], f["game_max"], max(f["variants"], 1)
    span = hi - lo + 1
    count = max(1, -(-span * variants // games_per_batch))
    if count == 1:
        return [lf]
    step = -(-span // count)
    cuts = list(range(lo + step, hi + 1, step))
    # the first batch is open below and the last open above, so every row is in exactly one batch even if
    # the game range given for these rows (e.g. by a manifest) were off
    bounds = [None, *cuts, None]
    game = pl.col("game")
    out = []
    for a, b in itertools.pairwise(bounds):
        cond = (game >= a) if b is None else (game < b) if a is None else (game >= a) & (game < b)
        out.append(lf.filter(cond))
    return out


def sample(lf: pl.LazyFrame) -> dict[str, Any]:
    """Games, variants and bots behind a set of rows, for chart captions and printed headers."""
    df = lf.select(
        pl.struct("variant", "game").n_unique().alias("games"),
        pl.col("variant").n_unique().alias("variants"),
        pl.col("bot").unique().sort().implode().alias("bots"),
    ).collect()
    return {"games": int(df["games"][0]), "variants": int(df["variants"][0]), "bots": df["bots"][0].to_list()}


def games_per_variant(lf: pl.LazyFrame) -> dict[str, int] | None:
    """Games per variant behind these rows if known without a scan (a report registers the manifest's
    ``games_done`` with ``remember(lf, games=...)``), else None: counting distinct games is a costly hash."""
    return _known(lf).get("games")


def remembered_bots(lf: pl.LazyFrame) -> list[str] | None:
    """The bots of these rows if already known (remembered), else None."""
    return _known(lf).get("bots")


def bots_label(lf: pl.LazyFrame) -> str:
    """The bots in a set of rows, comma-separated (chart captions state them; remembered per plan)."""
    if "bot" not in names(lf):
        return ""
    bots = remembered_bots(lf)
    if bots is None:
        bots = sorted(b for b in lf.select(pl.col("bot").unique()).collect()["bot"].to_list() if b is not None)
        remember(lf, bots=bots)
    return ", ".join(bots)


@dataclass(frozen=True)
class GameMajor:
    """Rows as a run writes a chunk: one variant, each game's seats 0..n-1 on consecutive rows, games in
    ascending order. Per-seat values then reshape to a (games, seats) matrix without any group-by."""

    rows: pl.DataFrame
    variant: str
    seats: int
    game: np.ndarray  # each game's index, ascending

    def matrix(self, column: str) -> np.ndarray:
        """A column as a float (games, seats) matrix; NaN for a null."""
        s = self.rows[column]
        values = s.cast(pl.Float64).to_numpy() if s.null_count() or not s.dtype.is_float() else s.to_numpy()
        return np.asarray(values, dtype=np.float64).reshape(-1, self.seats)

    def codes(self) -> np.ndarray:
        """Each row's seat (0..n-1) as int64: the group code of a per-seat aggregate."""
        return np.tile(np.arange(self.seats, dtype=np.int64), len(self.game))


#: the last frame's layout: a chunk's partials each ask for it
_LAST_LAYOUT: list[tuple[pl.DataFrame, GameMajor | None]] = []


def game_major(rows: pl.DataFrame) -> GameMajor | None:
    """The rows' ``GameMajor`` layout, or None if they are laid out otherwise (several variants, a user's
    sorted or filtered frame): then the callers group by key instead. Remembered for the last frame asked
    about (held, so its identity cannot be reused by another)."""
    if _LAST_LAYOUT and _LAST_LAYOUT[0][0] is rows:
        return _LAST_LAYOUT[0][1]
    layout = _game_major(rows)
    _LAST_LAYOUT[:] = [(rows, layout)]
    return layout


def _game_major(rows: pl.DataFrame) -> GameMajor | None:
    if rows.is_empty() or any(rows[c].null_count() for c in ("variant", "game", "seat")):
        return None
    variant = rows["variant"]
    if variant.n_unique() != 1:
        return None
    seat, game = rows["seat"].to_numpy(), rows["game"].to_numpy()
    n = int(seat.max()) + 1
    if rows.height % n:
        return None
    if not np.array_equal(seat.reshape(-1, n), np.broadcast_to(np.arange(n), (rows.height // n, n))):
        return None
    games = game.reshape(-1, n)
    if not (games == games[:, :1]).all() or (np.diff(games[:, 0]) <= 0).any():
        return None
    return GameMajor(rows, str(variant[0]), n, games[:, 0].astype(np.int64))
