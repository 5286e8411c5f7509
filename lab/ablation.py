"""What each evidence term of the reader is worth: the reader with one term taken out at a time.

    python -m lab.ablation                         # the real photos at 0.5, the aau boards
    python -m lab.ablation --scales 1 0.5 0.35     # every size (three times as long)
    python -m lab.ablation --guards 10             # also 10 scenes of every synthetic kind
    python -m lab.ablation --terms "far halves"    # only these terms (and the full reader)
    python -m lab.ablation --motivating            # each term on the scenes it was made for
    python -m lab.ablation --no-real --faults 20   # the forced frame faults (lab.frame_faults)

The reader is one chain of evidence (docs/vision.md): the cell network's probabilities, moved by
what the photo adds (the table round the kingdom, the cell's art, the castle figure's far halves),
then decoded under the priors (one castle, the real domino set), and frame checks that mark
cells for a look. Each term is taken out here by replacing its function with one that adds
nothing, in this process only (``unittest.mock``); the product is not changed. A term stays in
the reader only if taking it out costs something on the real photos (``lab.real_gate``'s
cases) or on a synthetic guard line (``lab.evaluate`` kinds, judged by caught): the table this
prints is the one in docs/vision.md.
"""

from __future__ import annotations

import argparse
import contextlib
import io
from collections.abc import Callable, Iterator
from dataclasses import replace
from unittest import mock

import numpy as np

from lab import real_gate


def _decode_nothing(terrain_probs, crown_probs, model_terrain, model_crowns, **_):
    from vision.decode import Decoded

    unchanged = np.zeros(model_terrain.shape, bool)
    return Decoded(model_terrain.copy(), model_crowns.copy(), unchanged, "off", "off")


def _judge_holes_without_sure_holes(cells, likeness):
    from vision.holes import judge_holes

    return replace(judge_holes(cells, likeness), sure_holes=None)


# Each term: the patches that take it out (target, replacement).
TERMS: dict[str, tuple[tuple[str, Callable], ...]] = {
    "second look (turns, second network)": (
        ("vision.cells.needs_second_look", lambda t, c: np.zeros(len(t), bool)),
    ),
    "table likeness": (("vision.pipeline.judge_holes", lambda cells, likeness: cells),),
    "sure holes": (("vision.pipeline.judge_holes", _judge_holes_without_sure_holes),),
    "art check (no table in view)": (
        ("vision.pipeline.judge_holes_by_art", lambda cells, image: cells),
    ),
    "far halves": (("vision.pipeline.read_far_halves", lambda image, cells: cells),),
    "domino set (joint decoding)": (("vision.cells.decode_board", _decode_nothing),),
    "contradiction marks": (
        ("vision.decode.contradiction_cells", lambda t, c: np.zeros(t.shape, bool)),
    ),
    "unconfirmed holes marked": (
        (
            "vision.cells.CellReadings._unconfirmed_holes",
            lambda self: np.zeros((self.size, self.size), bool),
        ),
    ),
    "ring of table (7×7 → 5×5)": (("vision.pipeline._ring_of_table", lambda loc, cells: False),),
    "frame moved or refitted": (
        (
            "vision.pipeline._over_left_out_tiles",
            lambda image, framed, others: framed,
        ),
    ),
    "open sides marked": (("vision.pipeline._open_sides_in_doubt", lambda cells: cells),),
    "off the seams": (("vision.pipeline.off_the_seams", lambda board_image, board: False),),
    "castle to the centre": (("vision.pipeline.centre_on_castle", lambda loc, castle: loc),),
}


def _seeds(kind: str, first: int, count: int) -> tuple[tuple[str, int], ...]:
    return tuple((kind, seed) for seed in range(first, first + count))


# The development scenes each term was made for, as its comment or commit names them (kinds as
# ``lab.evaluate.evaluate_scenes`` draws them), or, for a term made for a kind of scene, that
# kind's first development seeds (lab/README.md). ``--motivating`` reads them with and without it.
MOTIVATING: dict[str, tuple[tuple[str, int], ...]] = {
    "second look (turns, second network)": _seeds("hard", 5000, 20),
    "table likeness": (("soft wood", 11105), *_seeds("hard", 5000, 10)),
    "sure holes": (("camera", 7564), ("soft wood", 11201)),
    "art check (no table in view)": _seeds("tight_cloth", 9300, 40),
    "far halves": _seeds("camera", 7100, 20),
    "domino set (joint decoding)": _seeds("hard", 5000, 20),
    "unconfirmed holes marked": (("soft wood", 11028), *_seeds("tight_cloth", 9300, 20)),
    "ring of table (7×7 → 5×5)": (("camera", 7858),),  # ba59039
    # 8df296d (moved: 7463), 9fc8ea7 (refitted: 7529), and 8447.
    "frame moved or refitted": (("camera", 7463), ("camera", 7529), ("camera", 8447)),
    "open sides marked": (("camera", 8459), ("camera", 8474), ("camera", 8796)),
    "off the seams": (("camera", 7812),),
}


def motivating_figures(scenes: tuple[tuple[str, int], ...]) -> dict[str, int]:
    """Kingdoms found, totals right and caught over ``scenes``, one ``evaluate_scenes`` each."""
    from lab.evaluate import evaluate_scenes

    found = totals = caught = 0
    for kind, seed in scenes:
        options = {
            "hard": {},
            "camera": {"camera": True},
            "soft wood": {"soft_wood": True},
        }.get(kind, {"kind": kind})
        with contextlib.redirect_stdout(io.StringIO()):
            figures = evaluate_scenes(1, seed, **options)
        found += round(figures["found"])
        totals += round(figures["totals"] * figures["found"])
        caught += round(figures["totals_or_caught"] * figures["found"])
    return {"scenes": len(scenes), "found": found, "totals": totals, "caught": caught}


def print_motivating(terms: list[str]) -> None:
    """For each term with scenes in ``MOTIVATING``: those scenes read by the whole reader and
    without the term (found, totals right, caught)."""
    header = f"{'term':<38}{'scenes':>7}{'whole reader':>22}{'taken out':>22}"
    print(header + "\n" + "-" * len(header) + f"\n{'':<45}{'found/totals/caught':>22}")
    for term in terms:
        scenes = MOTIVATING.get(term)
        if not scenes:
            continue
        whole = motivating_figures(scenes)
        with without(term):
            out = motivating_figures(scenes)
        cells = [f"{f['found']}/{f['totals']}/{f['caught']}" for f in (whole, out)]
        print(f"{term:<38}{len(scenes):>7}{cells[0]:>22}{cells[1]:>22}", flush=True)


@contextlib.contextmanager
def without(term: str | None) -> Iterator[None]:
    """The reader with ``term`` taken out (None: the whole reader)."""
    with contextlib.ExitStack() as stack:
        for target, replacement in TERMS[term] if term else ():
            stack.enter_context(mock.patch(target, replacement))
        yield


def real_figures(cases: list[real_gate.Case], inputs: dict) -> dict[str, float]:
    """Cells right, kingdoms exact, caught and flags per kingdom over ``cases``, whose images
    (``real_gate.image_and_truth``) are made once by the whole reader: ``inputs``."""
    with mock.patch("lab.real_gate.image_and_truth", inputs.__getitem__):
        outcomes = real_gate.read_all(cases)
    if not outcomes:
        return {"cells wrong": 0, "exact": float("nan"), "caught": float("nan"), "flags": 0.0}
    found = [o for o in outcomes if o.found]
    wrong = sum(len(o.wrong) for o in found) + sum(o.cells for o in outcomes if not o.found)
    return {
        "cells wrong": wrong,
        "exact": sum(not o.wrong for o in found) / len(outcomes),
        "caught": sum(o.caught for o in outcomes) / len(outcomes),
        "flags": sum(o.flags for o in found) / max(len(found), 1),
    }


def guard_figures(count: int, kinds: list[str] | None, seed: int | None) -> dict[str, float]:
    """Caught and totals right, worst over the synthetic ``kinds`` (all: None), ``count``
    scenes each, from ``seed`` on (None: each kind's evaluation seeds)."""
    from lab.evaluate import evaluate_kinds

    with contextlib.redirect_stdout(io.StringIO()):
        figures = evaluate_kinds(count, kinds, seed)
    flags = [f["flags"] for f in figures.values() if "flags" in f]  # the tables do not count
    return {
        "guard caught": min(f["totals_or_caught"] for f in figures.values()),
        "guard totals": sum(f["totals"] for f in figures.values()) / len(figures),
        "guard flags": sum(flags) / len(flags) if flags else float("nan"),
    }


def fault_line_figures(cases: list, inputs: dict) -> dict[str, float]:
    """Caught and flags over the forced frame faults (``lab.frame_faults``, the finder's own
    frames left out), and the fault caught least often."""
    from lab import frame_faults

    figures = frame_faults.fault_figures(frame_faults.read_all(cases, inputs))
    faults = {f: v for f, v in figures.items() if f != "as found" and v["cases"]}
    worst = min(faults, key=lambda f: faults[f]["caught"] / faults[f]["cases"])
    read = sum(v["read"] for v in faults.values())
    return {
        "fault caught": sum(v["caught"] for v in faults.values())
        / sum(v["cases"] for v in faults.values()),
        "fault flags": sum(v["flags"] * v["read"] for v in faults.values()) / max(read, 1),
        "worst fault": f"{worst} {faults[worst]['caught']}/{faults[worst]['cases']}"
        if faults[worst]["caught"] < faults[worst]["cases"]
        else "(none missed)",
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scales", nargs="+", type=float, default=[0.5])
    parser.add_argument("--guards", type=int, default=0, help="scenes of every synthetic kind")
    parser.add_argument("--kind", action="append", help="only these synthetic kinds")
    parser.add_argument("--seed", type=int, help="synthetic scenes from this seed on")
    parser.add_argument("--no-real", action="store_true", help="only the synthetic guards")
    parser.add_argument(
        "--faults",
        type=int,
        metavar="SCENES",
        help="also the forced frame faults (lab.frame_faults) on the eight photos at --scales"
        " and this many camera scenes",
    )
    parser.add_argument("--terms", nargs="+", choices=list(TERMS), default=list(TERMS))
    parser.add_argument(
        "--motivating",
        action="store_true",
        help="only each term's own development scenes (MOTIVATING), with and without it",
    )
    args = parser.parse_args(argv)
    if args.motivating:
        print_motivating(args.terms)
        return 0
    cases = [] if args.no_real else real_gate.cases(scales=args.scales)
    if cases:
        print(f"{len(cases)} real cases ({', '.join(real_gate.SOURCES)}) at {args.scales}")
    faults, fault_inputs = [], {}
    if args.faults is not None:
        from lab import frame_faults

        faults = frame_faults.fault_cases(args.scales, scenes=args.faults)
        faults = [c for c in faults if c.fault != "as found"]
        fault_inputs = {c.photo: frame_faults.photo_and_truth(c.photo) for c in faults}
        print(f"frame faults: the eight photos at {args.scales} and {args.faults} camera scenes")
    if args.guards:
        kinds = ", ".join(args.kind or ["every kind"])
        seeds = "evaluation seeds" if args.seed is None else f"seeds from {args.seed}"
        print(f"guards: {args.guards} scenes of {kinds} ({seeds})")
    # Without real cases their columns would be 0/0: they are left out rather than printed nan.
    header = f"{'taken out':<38}"
    if cases:
        header += f"{'cells wrong':>12}{'exact':>8}{'caught':>8}{'flags':>7}"
    if args.guards:
        header += f"{'guard caught (worst)':>22}{'guard totals':>14}{'guard flags':>13}"
    if faults:
        header += f"{'fault caught':>14}{'fault flags':>13}  {'fault caught least'}"
    print(header)
    print("-" * len(header))
    # A soft frame is calibrated on the tiles the reader finds: made once, by the whole reader.
    inputs = {case: real_gate.image_and_truth(case) for case in cases}
    for term in [None, *args.terms]:
        with without(term):
            row = real_figures(cases, inputs) if cases else {}
            if args.guards:
                row |= guard_figures(args.guards, args.kind, args.seed)
            if faults:
                row |= fault_line_figures(faults, fault_inputs)
        line = f"{term or '(nothing: the whole reader)':<38}"
        if cases:
            line += (
                f"{row['cells wrong']:>12}{row['exact']:>8.1%}{row['caught']:>8.1%}"
                f"{row['flags']:>7.2f}"
            )
        if args.guards:
            line += (
                f"{row['guard caught']:>22.1%}{row['guard totals']:>14.1%}"
                f"{row['guard flags']:>13.2f}"
            )
        if faults:
            line += f"{row['fault caught']:>14.1%}{row['fault flags']:>13.2f}  {row['worst fault']}"
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
