"""What pairing buys is measured against an honest unpaired error: with independent seeds there is no shared
luck, so the unpaired standard error must equal the paired one (it was ×1.40 in win share: the control's seats,
whose shares add up to 1, were summed as if independent)."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from simlab.analysis.cards import card_value


def _independent_runs(n: int = 4000, seats: int = 4) -> pl.DataFrame:
    """A control and one variant per seat, every variant on its own luck (nothing for the pairing to share)."""
    rng = np.random.default_rng(5)
    frames = []
    for name in ["control", *(f"card_seat{k}" for k in range(seats))]:
        w = np.eye(seats)[rng.integers(0, seats, n)]
        s = rng.normal(10, 3, (n, seats)) + 5 * w
        for k in range(seats):
            frames.append(
                pl.DataFrame(
                    {
                        "variant": name,
                        "game": np.arange(n),
                        "seat": k,
                        "bot": "a",
                        "win_share": w[:, k],
                        "score": s[:, k],
                    }
                )
            )
    return pl.concat(frames)


@pytest.mark.parametrize("column", ["win_share_diff", "score_diff"])
def test_without_shared_luck_unpaired_and_paired_errors_agree(column):
    df = _independent_runs()
    paired, unpaired = card_value(df), card_value(df, paired=False)
    ratio = (unpaired[f"{column}_hi"] - unpaired[f"{column}_lo"])[0] / (
        paired[f"{column}_hi"] - paired[f"{column}_lo"]
    )[0]
    assert ratio == pytest.approx(1.0, abs=0.06)
