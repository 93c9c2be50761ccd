"""``simlab.run.store`` was split into modules with one job each (issue 33); its old import path still works.

docs/running.md names ``simlab.run.store.folder_contents``, docs/scaling's scripts import from it and notebooks
may: every name the old module defined is still importable from it, and is the very object of its new home
(so ``except``/``warnings`` filters and monkeypatching the new module see the same class or function).
"""

from __future__ import annotations

import importlib
import warnings

import pytest

from simlab.run import store

#: every public name ``simlab/run/store.py`` defined before the split, and the module that holds it now
HOMES = {
    "folder_layout": "MANIFEST FAILURES PARTS PANEL FORMAT PART_RE META_KEY CHUNKS_KEY FILE_KEY DIGEST_KEY "
    "PART_FILE COMPACTED_FILE part_name identity_hash",
    "atomic_file": "atomic_write write_temporary",
    "part_file": "PartFile file_records read_part_file split_leftovers",
    "manifest": "manifest_damage sanitized_manifest read_manifest",
    "reader": "load_manifest load_results result_files result_parts",
    "folder_contents": "ResultFolderWarning Skipped FolderContents folder_contents verify_parts",
    "folder_writer": "ResultFolder REBUILT",
    "lock": "LOCK folder_lock",
    "errors": "FolderInUse ResultFolderError ResultWriteError",
}
OLD_NAMES = [(module, name) for module, names in HOMES.items() for name in names.split()]


@pytest.mark.parametrize(("module", "name"), OLD_NAMES, ids=[n for _, n in OLD_NAMES])
def test_every_old_name_imports_from_store_as_the_object_of_its_new_module(module, name):
    assert getattr(store, name) is getattr(importlib.import_module(f"simlab.run.{module}"), name)


def test_store_exports_exactly_the_old_names():
    assert sorted(store.__all__) == sorted(name for _, name in OLD_NAMES)


def test_the_package_readers_are_the_reader_modules():
    import simlab
    from simlab.run import reader

    assert simlab.load_results is reader.load_results
    assert simlab.run.load_manifest is reader.load_manifest


def test_a_folder_read_through_the_old_path_warns_with_the_same_class(tmp_path):
    """A notebook filtering ``store.ResultFolderWarning`` still catches what the readers warn about."""
    folder = tmp_path / "bare"
    (folder / "parts").mkdir(parents=True)
    (folder / "parts" / "junk.parquet").write_bytes(b"")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        contents = store.folder_contents(folder)
    assert contents.files == [] and [s.path.name for s in contents.skipped] == ["junk.parquet"]
    assert [w.category for w in caught] == [store.ResultFolderWarning]
