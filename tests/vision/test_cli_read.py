"""``kingdomino read`` and image input to ``kingdomino score``."""

from __future__ import annotations

import json

from kingdomino.cli import main


def test_read_prints_the_board_and_json(shared_dir, capsys):
    image = shared_dir / "datasets/aau-boards/images/1.jpg"
    expected = (shared_dir / "datasets/aau-boards/boards/1.txt").read_text().split("\n")[:5]
    assert main(["read", str(image)]) == 0
    out = capsys.readouterr().out
    assert all(row in out for row in expected)
    assert main(["read", "--json", "--size", "5", str(image)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["file"] == str(image) and data["size"] == 5 and data["grid"] == expected
    assert len(data["cells"]) == 25
    assert set(data["cells"][0]) == {
        "row",
        "col",
        "terrain",
        "crowns",
        "confidence",
        "uncertain",
        "corrected",
        "model_terrain",
        "model_crowns",
    }
    assert "real dominoes" in data["decoding"]


def test_score_accepts_an_image_and_adds_cells(shared_dir, capsys):
    image = shared_dir / "datasets/aau-boards/images/1.jpg"
    assert main(["score", "--json", str(image)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert len(data["cells"]) == 25 and data["grid"][0] == "G0 L0 F0 F0 F0"
    assert "real dominoes" in data["decoding"]
    assert not any(cell["corrected"] for cell in data["cells"])


def test_unreadable_image_exits_2_with_one_line(tmp_path, capsys):
    bogus = tmp_path / "broken.jpg"
    bogus.write_bytes(b"\xff\xd8\xff not really a jpeg")
    assert main(["read", str(bogus)]) == 2
    err = capsys.readouterr().err.strip()
    assert "broken.jpg" in err and len(err.splitlines()) == 1
