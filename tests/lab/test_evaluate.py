"""The evaluation command runs end to end on a small split (the shipped model, no training)."""

from __future__ import annotations

from lab.evaluate import main


def test_quick_evaluation_prints_the_table(shared_dir, capsys):
    figures = main(["--quick"])
    out = capsys.readouterr().out
    for line in (
        "terrain confusion",
        "terrain accuracy",
        "crown-count accuracy",
        "board totals right",
        "ms per 500×500 board",
        "model load ms",
    ):
        assert line in out
    assert figures["terrain"] > 0.95 and figures["crowns"] > 0.95
    assert figures["load_ms"] < 2000
