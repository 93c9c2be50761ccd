"""One market vocabulary for every market (issue 33, item 7): the series are named after the roles a game
declares (``demand``, ``supply``), not after one game's pieces (Massilia's demand *marker* and *harbour*), and
what a reader sees (chart titles, axis labels, sentences) reads the same for a price-tile market (Massilia)
and a token-stack one (Merchant of Venus). The old names are still read: ``marker``/``harbour`` given as a
series, and a result folder written before the rename (``folders/massilia_market_v3``: 3 games made by the
previous simlab with ``folders/massilia_market_v3.toml``; its digest names the series ``marker``)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import polars as pl
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner
from polars.testing import assert_frame_equal

import simlab
import simlab.analysis as A
from simlab.analysis.digest import _decode, load_digest
from simlab.analysis.market_pass import market_summary, market_summary_from_partial, merge_market_partials
from simlab.analysis.markets import SERIES, series_name
from simlab.analysis.text import markets_text, shift_text
from simlab.cli import cli
from simlab.report import charts
from simlab.run.folder_layout import DIGEST_KEY

ROOT = Path(__file__).resolve().parents[2]
OLD = Path(__file__).parent / "folders" / "massilia_market_v3"
#: each market game's shipped market scenario, games per variant
MARKET_RUNS = {"massilia": ("market_shifts", 4), "merchant_of_venus": ("mov_market_shifts", 3)}
#: one game's pieces, never in a game-neutral name or a visible label
GAME_PIECES = ("marker", "harbour")


@pytest.fixture(scope="module", params=sorted(MARKET_RUNS))
def market_folder(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    name, games = MARKET_RUNS[request.param]
    out = tmp_path_factory.mktemp(request.param) / "results"
    return simlab.run_scenario(
        ROOT / "scenarios" / f"{name}.toml", games=games, jobs=1, out=out, progress=False, chunk_size=games
    )


def _title(fig) -> str:
    """A chart's title: the figure's (small multiples, one panel per item) or its one axes'."""
    return fig.get_suptitle() or fig.axes[0].get_title()


def _shown(fig) -> str:
    """The words a reader sees on a chart: its title, every axis label and legend entry."""
    labels = [t for ax in fig.axes for t in (ax.get_ylabel(), *ax.get_legend_handles_labels()[1])]
    return " ".join([_title(fig), fig.get_supylabel(), *labels])


def test_series_are_named_after_the_roles() -> None:
    assert dict(SERIES) == {
        "price": "market.price",
        "demand": "market.demand",
        "bought": "market.bought",
        "sold": "market.sale",
        "supply": "market.supply",
    }
    assert [series_name(s) for s in ("marker", "harbour", "price", "demand")] == ["demand", "supply", "price", "demand"]
    assert A.marker_collapses is A.demand_collapses  # the old name of the function still works


def test_both_markets_read_in_the_same_neutral_words(market_folder: Path) -> None:
    summary = market_summary(market_folder)
    assert "demand" in set(summary.trajectories["series"])
    assert not set(summary.trajectories["series"]) & set(GAME_PIECES)
    demand = charts.market_trajectories(summary.trajectories, "demand")
    assert _title(demand) == "Demand by round"
    assert "demand level" in _shown(demand)
    assert _title(charts.market_trajectories(summary.trajectories, "price")) == "Prices by round"
    text = " ".join([_shown(demand), *shift_text(summary.shift_winners), *markets_text(summary.collapses, None)])
    assert not [w for w in GAME_PIECES if w in text.lower()], text


def test_old_series_names_are_accepted_as_aliases(market_folder: Path) -> None:
    new = market_summary(market_folder, series=("demand",)).trajectories
    assert_frame_equal(market_summary(market_folder, series=("marker",)).trajectories, new)
    assert _title(charts.market_trajectories(new, "marker")) == "Demand by round"
    result = CliRunner().invoke(cli, ["markets", str(market_folder), "--json", "--series", "marker"])
    assert result.exit_code == 0, result.output
    assert {r["series"] for r in json.loads(result.output)["tables"]["trajectories"]} == {"demand"}


def test_a_folder_made_before_the_rename_still_reads(tmp_path: Path) -> None:
    folder = tmp_path / "old"
    shutil.copytree(OLD, folder)
    digest = load_digest(folder)
    assert digest is not None
    (part,) = digest.files  # one part file, one chunk: its market frames as the old simlab wrote them
    old = {k.removeprefix("market."): _decode(v) for k, v in part.frames.items() if k.startswith("market.")}
    assert "marker" in set(old["columns"]["series"])
    assert set(digest.partial("market", ["rulebook"])["columns"]["series"]) == {"demand", "price"}
    from_digest = market_summary_from_partial(old, bots=digest.bots(["rulebook"])).trajectories
    from_rows = market_summary(folder, series=("demand", "price")).trajectories
    assert set(from_digest["series"]) == {"demand", "price"}
    assert_frame_equal(from_digest, from_rows, check_exact=False, rel_tol=1e-12)
    # a folder resumed by the new simlab holds old and new digests: they merge as one set of columns
    new = {
        k: v.with_columns(pl.col("series").replace({"marker": "demand"})) if k == "columns" else v
        for k, v in old.items()
    }
    merged = merge_market_partials([old, new])
    assert merged["columns"].height == old["columns"].height
    result = CliRunner().invoke(cli, ["markets", str(folder), "--json"])
    assert result.exit_code == 0, result.output
    assert {r["series"] for r in json.loads(result.output)["tables"]["trajectories"]} == {"demand"}


def test_the_cli_offers_the_neutral_series_and_still_takes_the_old_names():
    """`markets --series` defaults to demand; marker (its old name) answers under the new one."""
    from click.testing import CliRunner

    from simlab.cli import cli

    (option,) = [p for p in cli.commands["markets"].params if p.name == "series"]
    assert option.default == "demand"
    assert {"price", "demand", "bought", "sold", "supply", "marker", "harbour"} == set(option.type.choices)
    help_text = " ".join(CliRunner().invoke(cli, ["markets", "--help"]).output.split())
    assert "marker and harbour are the old names of demand and supply" in help_text


def test_market_items_are_named_item_and_an_old_digest_reads_its_colours_as_items(tmp_path: Path) -> None:
    """The market item's column is ``item`` for every market (Massilia's are goods colours, Merchant of Venus's
    cultures); a digest written before (its ``colours`` frame, ``colour`` columns) reads the same."""
    folder = tmp_path / "old"
    shutil.copytree(OLD, folder)
    digest = load_digest(folder)
    assert digest is not None
    assert len(digest.files) == 1
    raw = json.loads(pq.ParquetFile(next((folder / "parts").glob("*.parquet"))).metadata.metadata[DIGEST_KEY])
    assert "market.colours" in raw["frames"] and "colour" in _decode(raw["frames"]["market.collapses"]).columns
    merged = digest.partial("market", ["rulebook"])
    assert "colours" not in merged and merged["items"]["item"].to_list() == ["pink", "orange", "purple"]
    from_digest = market_summary_from_partial(merged).collapses
    from_rows = market_summary(folder).collapses
    assert "item" in from_digest.columns and "colour" not in from_digest.columns
    assert_frame_equal(from_digest, from_rows, check_exact=False, rel_tol=1e-12)
    # a resumed folder holds old and new digests: they merge as one set of items
    old = {k.removeprefix("market."): _decode(v) for k, v in raw["frames"].items() if k.startswith("market.")}
    new = {("items" if k == "colours" else k): v.rename({"colour": "item"}, strict=False) for k, v in old.items()}
    both = merge_market_partials([old, new])
    assert both["items"]["item"].to_list() == ["pink", "orange", "purple"]
    assert both["collapses"]["games"].sum() == 2 * merged["collapses"]["games"].sum()
    result = CliRunner().invoke(cli, ["markets", str(folder), "--json"])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.output)["tables"]["collapses"]
    assert {r["item"] for r in rows} == {"pink", "orange", "purple"} and not any("colour" in r for r in rows)
