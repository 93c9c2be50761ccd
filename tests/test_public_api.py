"""`dir(simlab)` (tab-completion on `simlab.` in a notebook) is the public API, not the module's imports."""

from __future__ import annotations

import simlab


def test_dir_lists_the_public_api_only():
    names = dir(simlab)
    for public in ("run_scenario", "load_results", "load_manifest", "load_scenario", "get_game", "available_games"):
        assert public in names
    for private in ("Any", "TYPE_CHECKING", "annotations", "Path"):
        assert private not in names
    assert set(simlab.__all__) <= set(names)


def test_every_listed_name_resolves():
    import importlib

    for name in dir(simlab):
        if name in ("analysis", "core", "report", "run"):
            importlib.import_module(f"simlab.{name}")
        else:
            assert getattr(simlab, name) is not None, name
