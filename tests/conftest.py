"""Shared fixtures: where the read-only shared data sets are (``../shared`` from the repo root)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("KINGDOMINO_SHARED", REPO.parent / "shared"))


@pytest.fixture(autouse=True, scope="session")
def _english_by_default():
    """The CLI follows LANGUAGE/LANG: tests that read its English text must not depend on the
    machine's locale (the language tests set their own)."""
    saved = {key: os.environ.get(key) for key in ("LANGUAGE", "LC_ALL", "LC_MESSAGES")}
    os.environ["LANGUAGE"] = "en"
    yield
    for key, value in saved.items():
        if value is None:
            os.environ.pop(key, None)
        else:
            os.environ[key] = value


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    if not SHARED.is_dir():
        pytest.skip(f"shared data not found at {SHARED} (set KINGDOMINO_SHARED)")
    return SHARED
