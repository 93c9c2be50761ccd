"""A change to any source of a compiled entry point drops the cache files of all of them."""

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
    kernel = tmp_path / "kernel.py"
    rules.write_text("x = 1\n")
    kernel.write_text("from rules import x\n")
    sources = [kernel, rules]
    jitcache.refresh(sources)
    index = _touch_cache(tmp_path, "kernel")
    assert jitcache.refresh(sources) is False
    assert index.exists()
    rules.write_text("x = 2\n")  # only the inlined module changed
    assert jitcache.refresh(sources) is True
    assert not index.exists()
    assert not list((tmp_path / "__pycache__").glob("kernel.*.nbc"))
