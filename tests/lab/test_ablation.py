"""lab.ablation: each evidence term is taken out for the duration, and only then."""

from __future__ import annotations

import numpy as np
import pytest

from lab import ablation


@pytest.mark.parametrize("term", list(ablation.TERMS))
def test_every_term_names_a_function_the_reader_has(term):
    # mock.patch refuses a target the reader no longer has: a renamed stage fails here, not
    # silently in a table that takes nothing out.
    with ablation.without(term):
        pass


def test_a_term_is_taken_out_inside_only():
    import vision.pipeline as pipeline

    before = pipeline.judge_holes
    with ablation.without("table likeness"):
        cells = object()
        assert pipeline.judge_holes(cells, np.ones((5, 5))) is cells
    assert pipeline.judge_holes is before


def test_the_real_figures_of_a_board_read_right(shared_dir):
    from lab.real_gate import Case, image_and_truth

    case = Case("aau boards", "1", 0.5)
    row = ablation.real_figures([case], {case: image_and_truth(case)})
    assert row["cells wrong"] == 0 and row["exact"] == 1.0 and row["caught"] == 1.0


def test_each_terms_own_scenes_name_a_term_and_a_kind_the_lab_draws():
    from lab.synth import KINDS

    assert set(ablation.MOTIVATING) <= set(ablation.TERMS)
    for scenes in ablation.MOTIVATING.values():
        assert scenes
        for kind, seed in scenes:
            assert kind in ("hard", "camera", "soft wood") or kind in KINDS
            assert isinstance(seed, int)


def test_guards_alone_print_no_real_columns(monkeypatch, capsys):
    figures = {"guard caught": 1.0, "guard totals": 0.989, "guard flags": 0.42}
    monkeypatch.setattr(ablation, "guard_figures", lambda count, kinds, seed: figures)
    ablation.main(["--no-real", "--guards", "1", "--terms", "off the seams"])
    out = capsys.readouterr().out
    assert "nan" not in out and "cells wrong" not in out
    assert "off the seams" in out and out.count("100.0%") == 2 and out.count("98.9%") == 2
    assert out.count("0.42") == 2


def test_the_fault_line_names_the_fault_caught_least(monkeypatch):
    from lab import frame_faults
    from lab.real_gate import Case, Outcome

    photo = Case("photos", "game1", 0.5)
    miss = Outcome(photo, 25, ((0, 0, "L0", "G0", False),), flags=0)
    caught = Outcome(photo, 25, ((0, 0, "L0", "G0", True),), flags=25)
    results = [
        (frame_faults.FaultCase(photo, "half a cell down"), caught),
        (frame_faults.FaultCase(photo, "a cell down"), caught),
        (frame_faults.FaultCase(photo, "a cell down"), miss),
    ]
    monkeypatch.setattr(frame_faults, "read_all", lambda cases, inputs: results)
    row = ablation.fault_line_figures([], {})
    assert row["fault caught"] == 2 / 3 and row["worst fault"] == "a cell down 1/2"
    assert row["fault flags"] == 50 / 3
    monkeypatch.setattr(frame_faults, "read_all", lambda cases, inputs: results[:2])
    assert ablation.fault_line_figures([], {})["worst fault"] == "(none missed)"
