"""``np.median`` and ``np.percentile`` (linear), computed as numpy computes them, without the
import of ``numpy.ma`` that numpy's own make on first use (its NaN check asks whether the data
is a masked array): about a fiftieth of a ``kingdomino score`` run, for a module the reader
never uses. Same values, same dtypes; ``tests/vision/test_stats.py`` holds them to numpy's.
"""

from __future__ import annotations

import numpy as np


def median(values, axis: int | None = None):
    """``np.median(values, axis)``: the middle value, or the mean of the two middle ones, of
    the flattened values (``axis`` None) or along ``axis``; NaN where a NaN is among them."""
    a = np.asanyarray(values)
    if a.ndim == 0:
        return a.item()
    size = a.size if axis is None else a.shape[axis]
    if size == 0:
        raise ValueError("median of no values")
    half = size // 2
    even = size % 2 == 0
    part = np.partition(a, [half - 1, half] if even else [half], axis=axis)
    along = 0 if axis is None else axis
    indexer = [slice(None)] * part.ndim
    indexer[along] = slice(half - 1, half + 1) if even else slice(half, half + 1)
    result = np.mean(part[tuple(indexer)], axis=along)
    if np.issubdtype(a.dtype, np.inexact):
        has_nan = np.isnan(a).any(axis=axis)
        if np.any(has_nan):
            result = np.where(has_nan, np.nan, result)
            result = result[()] if result.ndim == 0 else result
    return result


def percentile(values, q: float) -> float:
    """``np.percentile(values, q)`` (its default, linear method) of all the values, as a float."""
    a = np.asanyarray(values).ravel()
    if a.size == 0:
        raise ValueError("percentile of no values")
    virtual = (a.size - 1) * np.true_divide(q, 100)
    below = int(np.floor(virtual))
    above = min(below + 1, a.size - 1)
    part = np.partition(a, [below, above])
    low, high = part[below], part[above]
    weight = virtual - below
    # numpy's _lerp: from the nearer end, so that the ends themselves come out exactly.
    step = high - low
    if weight >= 0.5:
        return float(high - step * (1 - weight))
    return float(low + step * weight)
