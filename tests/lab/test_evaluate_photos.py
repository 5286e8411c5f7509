"""The photo-pipeline evaluation runs and prints its table (a few scenes, CI-sized)."""

from __future__ import annotations

from lab import evaluate_photos


def test_evaluation_prints_the_table(shared_dir, capsys):
    evaluate_photos.main(["--n", "3", "--no-real"])
    out = capsys.readouterr().out
    for row in (
        "kingdoms found",
        "grid size right",
        "corner error, mean (cells)",
        "cells right",
        "totals exactly right",
        "ms per photo, mean",
        "peak memory (MB)",
        "empty tables refused",
    ):
        assert row in out
    assert "3/3 = 100.0 %" in out  # found
