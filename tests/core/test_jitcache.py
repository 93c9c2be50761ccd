"""A change to any source of a game's compiled code drops that game's cache files, and only then."""

from pathlib import Path

from simlab.core import jitcache


def _touch_cache(folder: Path, stem: str) -> Path:
    cache = folder / "__pycache__"
    cache.mkdir(exist_ok=True)
    index = cache / f"{stem}.play-12.py311.nbi"
    index.write_text("index")
    (cache / f"{stem}.play-12.py311.1.nbc").write_text("code")
    return index


def test_refresh_drops_caches_only_when_a_source_changed(tmp_path: Path) -> None:
    rules = tmp_path / "rules.py"
    bots = tmp_path / "bots.py"
    rules.write_text("x = 1\n")
    bots.write_text("from rules import x\n")
    sources = [bots, rules]
    patterns = [(tmp_path / "__pycache__", "bots.*.nb[ic]")]
    stamp_dir = tmp_path / "__pycache__"
    jitcache.refresh(sources, patterns, stamp_dir)
    index = _touch_cache(tmp_path, "bots")
    other = _touch_cache(tmp_path, "other")  # not the game's: never dropped
    assert jitcache.refresh(sources, patterns, stamp_dir) is False
    assert index.exists()
    rules.write_text("x = 2\n")  # only the inlined module changed
    assert jitcache.refresh(sources, patterns, stamp_dir) is True
    assert not index.exists()
    assert not list((tmp_path / "__pycache__").glob("bots.*.nbc"))
    assert other.exists()
