"""Labelled data as training and evaluation read it (lab.data)."""

from __future__ import annotations

import cv2
import numpy as np

from lab.data import CROP_LABEL_FIXES, load_cell_crops
from vision.labels import terrain_index


def test_crop_label_fixes_replace_only_the_named_crops_labels(tmp_path):
    (folder, name), (terrain, crowns) = next(iter(CROP_LABEL_FIXES.items()))
    for file_name in (name, "untouched.jpg"):
        (tmp_path / "datasets" / "cell-crops" / folder).mkdir(parents=True, exist_ok=True)
        path = tmp_path / "datasets" / "cell-crops" / folder / file_name
        cv2.imwrite(str(path), np.full((20, 20, 3), 90, np.uint8))
    filed_terrain, _, filed_crowns = folder.rpartition("_")

    fixed = {c.name: (c.terrain, c.crowns) for c in load_cell_crops(tmp_path)}
    as_filed = {c.name: (c.terrain, c.crowns) for c in load_cell_crops(tmp_path, fixed=False)}

    assert fixed[name] == (terrain_index(terrain), crowns)
    assert as_filed[name] == (terrain_index(filed_terrain), int(filed_crowns))
    assert fixed["untouched.jpg"] == as_filed["untouched.jpg"] == as_filed[name]


def test_every_crop_label_fix_names_a_shared_crop_and_changes_its_label(shared_dir):
    for (folder, name), (terrain, crowns) in CROP_LABEL_FIXES.items():
        assert (shared_dir / "datasets" / "cell-crops" / folder / name).is_file(), name
        assert folder != f"{terrain}_{crowns}", name
        terrain_index(terrain)  # a terrain the model knows
