"""What ships: an installed (non-editable) copy reads a board and scores a photo, no lab."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
RUNTIME = ["app.py", "ui", "scoring", "vision", "games", "kingdomino"]

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


def _imported_modules(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def test_the_runtime_never_imports_the_lab():
    files = [REPO / "app.py"]
    for folder in RUNTIME[1:]:
        files += sorted((REPO / folder).rglob("*.py"))
    offenders = {
        str(path.relative_to(REPO)): sorted(
            n for n in _imported_modules(path) if n == "lab" or n.startswith("lab.")
        )
        for path in files
    }
    assert {k: v for k, v in offenders.items() if v} == {}
    assert len(files) > 20  # the walk found the packages


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """``pip install .`` (with build isolation, as a user's pip does) into an empty folder."""
    target = tmp_path_factory.mktemp("site")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--quiet",
            "--no-deps",
            "--target",
            str(target),
            str(REPO),
        ],
        check=True,
        capture_output=True,
    )
    return target


def _run(installed: Path, tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir(exist_ok=True)
    env = {**os.environ, "PYTHONPATH": str(installed)}
    return subprocess.run(
        [sys.executable, *args], cwd=elsewhere, env=env, capture_output=True, text=True, check=False
    )


def test_install_holds_no_lab(installed):
    packages = {p.name for p in installed.iterdir() if p.is_dir() and not p.name.endswith("-info")}
    assert {"scoring", "vision", "games", "kingdomino"} <= packages
    assert "lab" not in packages
    assert "tests" not in packages
    assert not list((installed / "vision").glob("train*.py"))


def test_installed_copy_loads_the_model_without_training_tools(installed, shared_dir, tmp_path):
    image = shared_dir / "datasets/aau-boards/images/1.jpg"
    out = _run(installed, tmp_path, "-c", READ_BOARD, str(image))
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert Path(result["module"]).is_relative_to(installed)
    expected = (shared_dir / "datasets/aau-boards/boards/1.txt").read_text().strip().splitlines()
    assert result["rows"] == expected
    assert not result["torch"] and not result["sklearn"]


def test_installed_command_scores_a_photo(installed, shared_dir, tmp_path):
    photo = shared_dir / "datasets/photos/game1.jpg"
    out = _run(installed, tmp_path, "-m", "kingdomino", "score", "--json", str(photo))
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    assert result["size"] == 7
    assert (
        result["grid"]
        == (shared_dir / "datasets/photos/game1.txt").read_text().strip().splitlines()
    )
    assert result["total"] == 136
