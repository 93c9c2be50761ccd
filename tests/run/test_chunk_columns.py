"""The chunk's Arrow columns built from numpy buffers equal what ``pa.array`` builds."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pytest

from simlab.run.chunk import arrow_column, string_column


@pytest.mark.parametrize("values", [["trader", "priest"], ["", "é", "a much longer name", "x"], ["only"]])
def test_string_column_equals_pa_array(values):
    rng = np.random.default_rng(1)
    for size in (0, 1, 7, 1000):
        index = rng.integers(0, len(values), size=size)
        got = string_column(values, index)
        got.validate(full=True)
        assert got.equals(pa.array([values[i] for i in index], type=pa.string()))


@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.int64, np.uint16, np.float32, np.float64, np.bool_])
def test_arrow_column_equals_pa_array(dtype):
    rng = np.random.default_rng(2)
    for size in (0, 1, 9, 1001):
        x = rng.integers(0, 2, size=size * 2) if dtype is np.bool_ else rng.integers(-50, 50, size=size * 2)
        x = x.astype(dtype)
        for arr in (x[:size], x[::2][:size]):  # contiguous and strided (a record field is strided)
            got = arrow_column(arr)
            got.validate(full=True)
            assert got.equals(pa.array(arr))
