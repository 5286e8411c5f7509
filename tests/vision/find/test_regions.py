"""Candidate regions: blobs, their splitting, and outlines as quadrilaterals."""

from __future__ import annotations

import cv2
import numpy as np

from vision.find.regions import initial_quads, largest_part, open_necks, split_blob
from vision.find.table import TableModel


def test_initial_quads_fit_a_turned_square():
    mask = np.zeros((400, 400), np.uint8)
    square = cv2.boxPoints(((200, 200), (220, 220), 20)).astype(np.int32)
    cv2.fillConvexPoly(mask, square, 255)
    quads = initial_quads(mask)
    assert 2 <= len(quads) <= 3
    best = min(np.abs(np.sort(q, axis=0) - np.sort(square, axis=0)).max() for q in quads)
    assert best < 4


def test_split_blob_follows_the_table_between_two_kingdoms():
    not_table = np.zeros((200, 300), np.uint8)
    not_table[50:150, 20:130] = 255
    not_table[50:150, 140:260] = 255  # 10 px of table between them (at half resolution)
    joined = cv2.morphologyEx(not_table, cv2.MORPH_CLOSE, np.ones((15, 15), np.uint8))
    blob = cv2.resize(joined, (600, 400), interpolation=cv2.INTER_NEAREST)
    parts = split_blob(TableModel(not_table, joined), blob)
    assert len(parts) == 2 and all(p.shape == (400, 600) for p in parts)
    assert split_blob(TableModel(joined, joined), blob) == []  # one piece: nothing to split


def test_split_blob_breaks_a_thin_join_but_not_a_kingdom():
    not_table = np.zeros((200, 300), np.uint8)
    not_table[50:150, 20:132] = 255
    not_table[50:150, 138:260] = 255
    cv2.circle(not_table, (135, 100), 3, 255, -1)  # a cloth's dot in the gap, touching both
    blob = cv2.resize(not_table, (600, 400), interpolation=cv2.INTER_NEAREST)
    parts = split_blob(TableModel(not_table, not_table), blob)
    assert len(parts) == 2
    # A kingdom with a notch (a missing tile) is not a thin join: still one piece.
    one = np.zeros((200, 300), np.uint8)
    one[50:150, 20:130] = 255
    one[50:70, 60:80] = 0
    blob = cv2.resize(one, (600, 400), interpolation=cv2.INTER_NEAREST)
    assert split_blob(TableModel(one, one), blob) == []


def test_a_wider_bridge_breaks_a_join_the_default_keeps():
    not_table = np.zeros((200, 300), np.uint8)
    not_table[50:150, 20:130] = 255
    not_table[50:150, 138:260] = 255
    cv2.circle(not_table, (134, 100), 6, 255, -1)  # a big dot of the cloth, overlapping both
    blob = cv2.resize(not_table, (600, 400), interpolation=cv2.INTER_NEAREST)
    model = TableModel(not_table, not_table)
    assert split_blob(model, blob) == []
    assert len(split_blob(model, blob, bridge_px=15)) == 2


def test_open_necks_parts_a_blob_the_table_model_sees_in_pieces():
    # A kingdom in small pieces (lake tiles on a blue cloth) and a sleeve, joined by a neck.
    joined = np.zeros((200, 300), np.uint8)
    joined[50:150, 20:130] = 255
    joined[95:105, 130:160] = 255  # the neck, 10 px wide
    joined[60:140, 160:290] = 255
    not_table = np.zeros_like(joined)
    not_table[60:140, 160:290] = 255
    for x in range(25, 125, 20):
        for y in range(55, 145, 20):
            not_table[y : y + 10, x : x + 10] = 255  # the kingdom's pieces, each too small
    blob = cv2.resize(joined, (600, 400), interpolation=cv2.INTER_NEAREST)
    model = TableModel(not_table, joined)
    assert split_blob(model, blob, bridge_px=15) == []  # the table model alone cannot part them
    parts = open_necks(model, blob, neck_px=15)
    assert len(parts) == 2
    assert sorted(p[200, 150] for p in parts) == [0, 255]  # the kingdom whole in one part
    assert open_necks(model, blob, neck_px=7) == []  # a neck wider than the opening holds


def test_largest_part_fills_holes_and_drops_small_ones():
    mask = np.zeros((100, 100), np.uint8)
    mask[10:60, 10:60] = 255
    mask[30:40, 30:40] = 0  # a hole
    mask[80:90, 80:90] = 255
    part = largest_part(mask, min_area=100)
    assert part[35, 35] == 255 and part[85, 85] == 0
    assert largest_part(mask, min_area=5000) is None
