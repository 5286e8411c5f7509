"""The first page's modules import no image library: OpenCV, the cell model and the tables'
pandas load with the first photo or result (or in the background after the first page)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
HEAVY = ["cv2", "onnxruntime", "pandas", "vision.pipeline", "vision.annotate", "vision.render"]
# The image-tap component of the corner fallback: only for a photo whose grid is tapped.
HEAVY.append("streamlit_image_coordinates")


def test_the_score_pages_modules_import_nothing_heavy():
    script = (
        "import json, sys, ui.pages\n"
        f"print(json.dumps([name for name in {HEAVY!r} if name in sys.modules]))\n"
    )
    found = subprocess.run(
        [sys.executable, "-c", script], cwd=REPO, capture_output=True, text=True, check=True
    )
    assert json.loads(found.stdout) == []
