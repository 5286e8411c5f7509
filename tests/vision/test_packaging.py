"""The model ships inside the package: an installed (non-editable) copy reads a board."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

READ_BOARD = """
import json, sys
import cv2
import vision.cells, vision.model
from vision.cells import classify_cells
image = cv2.imread(sys.argv[1])
readings = classify_cells(image, 5)
print(json.dumps({
    "module": vision.model.__file__,
    "rows": readings.board.rows_text(),
    "torch": "torch" in sys.modules,
    "sklearn": "sklearn" in sys.modules,
}))
"""


def test_installed_copy_loads_the_model_without_training_tools(shared_dir, tmp_path):
    target = tmp_path / "site"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--quiet",
            "--no-deps",
            "--no-build-isolation",
            "--target",
            str(target),
            str(REPO),
        ],
        check=True,
        capture_output=True,
    )
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {**os.environ, "PYTHONPATH": str(target)}
    image = shared_dir / "datasets/aau-boards/images/1.jpg"
    out = subprocess.run(
        [sys.executable, "-c", READ_BOARD, str(image)],
        cwd=elsewhere,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert Path(result["module"]).is_relative_to(target)
    expected = (shared_dir / "datasets/aau-boards/boards/1.txt").read_text().strip().splitlines()
    assert result["rows"] == expected
    assert not result["torch"] and not result["sklearn"]
