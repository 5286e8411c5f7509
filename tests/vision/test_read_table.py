"""vision.pipeline.read_table: the interface the app builds on."""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np
import pytest

from vision.find import NoBoardFound
from vision.pipeline import Reading, TableReading, read_table


def _labels(path) -> list[str]:
    return [" ".join(line.split()) for line in path.read_text().splitlines() if line.strip()]


def test_two_real_photos_side_by_side_read_as_two_kingdoms(shared_dir):
    photos = shared_dir / "datasets" / "photos"
    joined = np.hstack([cv2.imread(str(photos / f"{name}.jpg")) for name in ("game1", "game2")])
    ok, data = cv2.imencode(".jpg", joined, [cv2.IMWRITE_JPEG_QUALITY, 92])
    assert ok
    reading = read_table(data.tobytes())
    assert isinstance(reading, TableReading) and dataclasses.is_dataclass(reading)
    assert reading.source == "the uploaded file" and reading.cut_off == ()
    assert all(isinstance(k, Reading) for k in reading.kingdoms)
    grids = [k.board.rows_text() for k in reading.kingdoms]
    assert grids == [_labels(photos / "game1.txt"), _labels(photos / "game2.txt")]
    h, w = reading.image.shape[:2]
    assert reading.photo_scale == pytest.approx(joined.shape[1] / w)
    for kingdom, half in zip(reading.kingdoms, (0, 1), strict=True):
        corners = kingdom.location.corners  # in reading.image pixels
        assert (corners[:, 0] > half * w / 2 - 0.05 * w).all()
        assert (corners[:, 0] < (half + 1) * w / 2 + 0.05 * w).all()
    with pytest.raises(dataclasses.FrozenInstanceError):
        reading.kingdoms = ()


def test_no_kingdom_is_refused():
    with pytest.raises(NoBoardFound, match="^no kingdom found"):
        read_table(np.full((900, 1200, 3), 200, np.uint8))
    with pytest.raises(ValueError, match="5 or 7"):
        read_table(np.full((900, 1200, 3), 200, np.uint8), size=4)


def test_each_kingdoms_holes_are_judged_with_the_likeness_the_finder_measured(monkeypatch):
    """The finder measures every kingdom's table likeness (to refuse frames that are mostly
    table); reading the kingdom uses that measurement, it does not warp the photo again. (Only
    a frame the reader tries besides, a cell past a side with more holes than tiles, is new and
    measured: the second kingdom's last column has three holes.)"""
    import vision.pipeline
    from lab.tables import make_table_scene

    calls = []
    measure = vision.pipeline.table_likeness
    monkeypatch.setattr(
        vision.pipeline,
        "table_likeness",
        lambda *args: calls.append(args) or measure(*args),
    )
    reading = read_table(make_table_scene(1).image)  # two complete kingdoms
    assert len(reading.kingdoms) == 2
    assert all(k.location.table_likeness is not None for k in reading.kingdoms)
    found = [k.location.homography for k in reading.kingdoms]  # neither frame was moved
    assert all(not np.allclose(h, args[1]) for args in calls for h in found)
    assert len(calls) <= 1


def test_kingdoms_read_while_the_finder_searches_read_as_read_after_it(monkeypatch):
    """With two threads, each kingdom's cells are read in a thread of their own as soon as the
    finder has found it (``vision.pipeline._ReadAhead``); the answer is the one read after
    the search, in the reading thread alone."""
    import threading

    import vision.pipeline
    from lab.tables import make_table_scene

    photo = make_table_scene(1).image  # two complete kingdoms
    read_in = []
    read_cells = vision.pipeline._read_cells
    monkeypatch.setattr(
        vision.pipeline,
        "_read_cells",
        lambda *args: read_in.append(threading.current_thread().name) or read_cells(*args),
    )
    monkeypatch.setattr(vision.pipeline, "reading_threads", lambda: 2)
    ahead = read_table(photo)
    assert len(ahead.kingdoms) == 2
    assert read_in[:2] == ["read_ahead_0", "read_ahead_0"]
    read_in.clear()
    monkeypatch.setattr(vision.pipeline, "reading_threads", lambda: 1)
    after = read_table(photo)
    assert read_in[:2] == ["MainThread", "MainThread"]
    for a, b in zip(ahead.kingdoms, after.kingdoms, strict=True):
        assert a.to_json() == b.to_json() and a.warnings == b.warnings
        assert np.array_equal(a.board_image, b.board_image)
        assert np.array_equal(a.cells.terrain_probs, b.cells.terrain_probs)
        assert np.array_equal(a.cells.crown_probs, b.cells.crown_probs)
        assert np.array_equal(a.location.corners, b.location.corners)
