"""The app under AppTest: a fresh session on the first page, with its own games database."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

APP = str(Path(__file__).resolve().parents[2] / "app.py")


@pytest.fixture
def app(tmp_path, monkeypatch) -> AppTest:
    monkeypatch.setenv("KINGDOMINO_DB", str(tmp_path / "games.db"))
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    assert not at.exception
    return at
