"""The finder's failures, forced: the real photos read from frames the finder could have got wrong.

    python -m lab.frame_faults                  # every fault on the eight photos at 0.5
    python -m lab.frame_faults --scales 1 0.5 0.35
    python -m lab.frame_faults --scenes 20         # also 20 synthetic camera scenes

The frame checks in ``vision.pipeline._read_at`` (ring of table, frame moved or refitted, open
sides, off the seams) each answer a way the finder can frame a kingdom wrongly. Today's finder
no longer makes those mistakes on the eight shared photos or the synthetic lines, so taking a
check out costs nothing there: a line on which the failure no longer happens cannot judge the
check made for it. The photos of kingdoms no one here has seen (off the lattice, other kingdoms
and clutter in frame) may still bring it about. This line brings it about on purpose: each real
photo is found as the product finds it (``vision.pipeline.locate``), then read by the rest of
the pipeline (``_read_at``, as ``read_image`` does) from a frame moved the way the finder fails:

- ``as found``: the finder's own frame (the control: it must read as the gate does);
- ``half a cell ...``: the lattice moved half a cell across, down or both (a lattice on the
  tiles' centres instead of their seams);
- ``a third of a cell right``: the same, less;
- ``pitch 8 % short`` / ``long``: the lattice's cells a little small or large about the
  kingdom's centre (a pitch taken off a checked cloth's squares);
- ``a cell right`` / ``a cell down``: the frame a whole cell off, a line of table in it and the
  kingdom's last line left out (tiles that look like the table left out of the blob);
- ``5×5 framed 7×7``: a 5×5 kingdom framed one cell larger all round.

Each faulty frame tells the reader the tiles fill it (``tile_span`` the whole frame), as the
finder's mistaken frame would. A reading is judged as ``lab.real_gate`` judges one: read with
the kingdom's size, and caught (the total right, or every wrong cell marked for a look). A
reading of the wrong size is not caught: fixing cells cannot mend it.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass

import cv2
import numpy as np

from lab import real_gate

# name: (rows down, columns right, pitch factor, size change), in cells of the found frame.
FAULTS: dict[str, tuple[float, float, float, int]] = {
    "as found": (0.0, 0.0, 1.0, 0),
    "half a cell right": (0.0, 0.5, 1.0, 0),
    "half a cell left": (0.0, -0.5, 1.0, 0),
    "half a cell down": (0.5, 0.0, 1.0, 0),
    "half a cell up": (-0.5, 0.0, 1.0, 0),
    "half a cell down and right": (0.5, 0.5, 1.0, 0),
    "a third of a cell right": (0.0, 1 / 3, 1.0, 0),
    "pitch 8 % short": (0.0, 0.0, 0.92, 0),
    "pitch 8 % long": (0.0, 0.0, 1.08, 0),
    "a cell right": (0.0, 1.0, 1.0, 0),
    "a cell down": (1.0, 0.0, 1.0, 0),
    "5×5 framed 7×7": (-1.0, -1.0, 1.0, 2),
}


@dataclass(frozen=True)
class FaultCase:
    """One real photo (a ``real_gate.Case`` of the plain photos) read from one faulty frame."""

    photo: real_gate.Case
    fault: str

    @property
    def key(self) -> str:
        return f"{self.photo.key} {self.fault}"


def faulty_frame(location, fault: str):
    """``location`` (a ``BoardLocation``) moved as ``FAULTS[fault]`` says; None when the fault
    does not apply: a 7×7 kingdom is not framed 9×9, and the finder never frames cells whose
    centres lie outside the photo (a kingdom filling the photo has no cell of table past it)."""
    from vision.find.location import SIZES, cells_in_photo, location_from_corners

    down, right, pitch, grow = FAULTS[fault]
    size = location.size + grow
    if size not in SIZES:
        return None
    # Board units of the found frame: its lattice, stretched about the kingdom's centre.
    middle = location.size / 2
    square = np.array([[0, 0], [size, 0], [size, size], [0, size]], float) + (right, down)
    square = middle + (square - middle) * pitch
    to_photo = np.linalg.inv(location.homography)
    corners = cv2.perspectiveTransform(square.reshape(-1, 1, 2), to_photo).reshape(4, 2)
    # The finder believed the tiles fill its frame: that belief is the failure.
    faulty = location_from_corners(
        corners,
        size,
        location.warnings,
        image_shape=location.image_shape,
        tile_span=(0, size, 0, size),
    )
    return faulty if cells_in_photo(faulty).all() else None


# The camera scenes' evaluation seeds (lab/README.md): a kingdom with table all round it, which
# the shared photos (most of them cropped close to the kingdom) rarely leave room for.
CAMERA_SEED = 7000


def fault_cases(scales=(0.5,), faults=tuple(FAULTS), scenes: int = 0) -> list[FaultCase]:
    """Every (photo, scale, fault) this line reads, in a stable order: the eight shared photos
    at ``scales``, then ``scenes`` synthetic camera scenes."""
    photos = real_gate.cases(sources=("photos",), scales=scales)
    photos += [
        real_gate.Case("camera scenes", str(seed), 1.0)
        for seed in range(CAMERA_SEED, CAMERA_SEED + scenes)
    ]
    return [FaultCase(photo, fault) for photo in photos for fault in faults]


def photo_and_truth(photo: real_gate.Case) -> tuple[bytes, list[list[str]]]:
    """The JPEG bytes of ``photo`` and its truth rows: a shared photo as ``lab.real_gate`` makes
    it, or a camera scene (``lab.synth.make_hard_scene``) as ``lab.evaluate`` encodes it."""
    if photo.source != "camera scenes":
        return real_gate.image_and_truth(photo)
    from lab.synth import make_hard_scene

    scene = make_hard_scene(int(photo.name), camera=True)
    ok, jpeg = cv2.imencode(".jpg", scene.image, [cv2.IMWRITE_JPEG_QUALITY, 92])
    assert ok
    return jpeg.tobytes(), [list(row) for row in scene.labels]


def find_in(data: bytes) -> tuple[np.ndarray, object]:
    """The photo ``data`` decoded and where the product finds its kingdom (a ``BoardLocation``),
    or the sentence saying why none was found."""
    from vision.pipeline import decode, locate

    image = decode(data)
    try:
        return image, locate(image, None, None)
    except ValueError as err:
        return image, f"not found ({str(err)[:80]})"


def read_fault(
    case: FaultCase, data: bytes, truth_rows: list[list[str]], found_in=None
) -> real_gate.Outcome:
    """``case``'s photo (``data``, the gate's JPEG) read from its faulty frame, judged against
    ``truth_rows`` as ``lab.real_gate.read_case`` judges a reading. ``found_in``: ``find_in``
    of ``data``, when it was made already (every fault of one photo starts from it)."""
    from vision.pipeline import ImageError, _read_at

    image, found = found_in if found_in is not None else find_in(data)
    if isinstance(found, str):
        return real_gate.Outcome(case.photo, 0, problem=found)
    location = found if case.fault == "as found" else faulty_frame(found, case.fault)
    if location is None:
        return real_gate.Outcome(case.photo, 0, problem="does not apply")
    try:
        reading = _read_at(data, image, location, None)
    except (ImageError, ValueError) as err:
        return real_gate.Outcome(case.photo, len(truth_rows) ** 2, problem=str(err)[:80])
    return real_gate.judge(case.photo, reading, truth_rows)


def read_all(cases: list[FaultCase], inputs: dict) -> list[tuple[FaultCase, real_gate.Outcome]]:
    """Each case read, its photo's bytes and truth from ``inputs`` (``photo_and_truth`` of its
    photo); each photo decoded and its kingdom found once, for all its faults."""
    found: dict[real_gate.Case, tuple] = {}
    results = []
    for case in cases:
        data, truth_rows = inputs[case.photo]
        if case.photo not in found:
            found[case.photo] = find_in(data)
        results.append((case, read_fault(case, data, truth_rows, found[case.photo])))
    return results


def applies(outcome: real_gate.Outcome) -> bool:
    return outcome.problem != "does not apply"


def fault_figures(results) -> dict[str, dict[str, float]]:
    """Per fault: kingdoms read with their size, caught, and flags per kingdom read."""
    figures = {}
    for fault in dict.fromkeys(case.fault for case, _ in results):
        outcomes = [o for case, o in results if case.fault == fault and applies(o)]
        found = [o for o in outcomes if o.found]
        figures[fault] = {
            "cases": len(outcomes),
            "read": len(found),
            "caught": sum(o.caught for o in outcomes),
            "exact": sum(not o.wrong for o in found),
            "flags": sum(o.flags for o in found) / max(len(found), 1),
        }
    return figures


def table(figures: dict[str, dict[str, float]]) -> str:
    header = f"{'fault':<30}{'cases':>6}{'read':>6}{'exact':>7}{'caught':>8}{'flags':>7}"
    lines = [header, "-" * len(header)]
    for fault, f in figures.items():
        lines.append(
            f"{fault:<30}{f['cases']:>6}{f['read']:>6}{f['exact']:>7}{f['caught']:>8}"
            f"{f['flags']:>7.2f}"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scales", nargs="+", type=float, default=[0.5])
    parser.add_argument("--faults", nargs="+", choices=list(FAULTS), default=list(FAULTS))
    parser.add_argument("--scenes", type=int, default=0, help="also this many camera scenes")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    cases = fault_cases(args.scales, args.faults, args.scenes)
    inputs = {c.photo: photo_and_truth(c.photo) for c in cases}
    results = read_all(cases, inputs)
    print(table(fault_figures(results)))
    for case, outcome in results:
        if applies(outcome) and not outcome.caught:
            print(f"  not caught: {case.key}: {outcome.problem or f'{len(outcome.wrong)} wrong'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
