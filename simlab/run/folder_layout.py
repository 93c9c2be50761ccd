"""A result folder's layout: its file names, the part-file name pattern and the keys of a part's footer.

Layout of a result folder::

    manifest.json      scenario text and hash, variants and their configs, versions, seeds, chunks, timings
    failures.jsonl     one line per game that raised: seed, variant, game index, error, replay command
    parts/<variant>__<start>-<stop>.parquet    rows of games start..stop-1 of one variant
    parts/<variant>__<start>-<stop>.parquet    after ``simlab compact``: consecutive parts merged into one file
    .simlab.lock       flock'ed by a run or a compaction while it works (holds its pid, for the refusal message)
    panel/             optional: the scenario played again per bot of a panel (``simlab robust``; see ``panel``)
    fix/               optional: a rule-fix search of the scenario's [fix] question (``simlab fix``; ``fix_folder``)

The part files are the truth: each is written to a temporary name and renamed into place, and carries its
own chunk record (range, failures, timing) in its Parquet metadata. So a run killed at any moment leaves
only whole parts, and ``--resume`` rebuilds the manifest from them and plays exactly the missing games.
A compacted file (see ``compact``) carries the list of the chunk records of the parts it merged, under
another key and with a format marker, so the chunk records read back are the same before and after.

Both sides use these names: the writer (``folder_writer``, ``chunk``, ``compact``) and the readers
(``reader``, ``folder_contents``, ``part_file``, ``manifest``).
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

MANIFEST = "manifest.json"
FAILURES = "failures.jsonl"
PARTS = "parts"
PANEL = "panel"  # a bot panel's runs of the same scenario (simlab.experiments.panel), beside parts/
FIX = "fix"  # a rule-fix search of the scenario's [fix] question (simlab fix; simlab.run.fix_folder), beside parts/
#: 2: the identity holds the data files' hashes and the resolved bots (simlab.run.content); 1 still loads
FORMAT = "simlab-results/2"
PART_RE = re.compile(r"^(?P<variant>.+)__(?P<start>\d{10})-(?P<stop>\d{10})\.parquet$")
META_KEY = b"simlab.chunk"  # a part file: its chunk record (a JSON object)
CHUNKS_KEY = b"simlab.chunks"  # a compacted file: the chunk records of the parts it merged (a JSON list)
FILE_KEY = b"simlab.file"  # format marker; absent in part files (written before compaction existed)
DIGEST_KEY = b"simlab.digest"  # the file's chunks' analysis partials (``simlab.analysis.digest``); optional
PART_FILE = b"part"
COMPACTED_FILE = b"compacted/1"


def part_name(variant: str, start: int, stop: int) -> str:
    return f"{variant}__{start:010d}-{stop:010d}.parquet"


def identity_hash(identity: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(identity, sort_keys=True).encode()).hexdigest()[:16]
