"""Retake the README's screenshots: ``python -m tests.e2e.screenshots`` (into docs/screenshots/).

The browser tests take them on the way; an ordinary test run leaves the checkout untouched, so
this is the one command that writes them.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def main() -> int:
    env = dict(os.environ, KINGDOMINO_SCREENSHOTS=str(REPO / "docs" / "screenshots"))
    return subprocess.call([sys.executable, "-m", "pytest", "tests/e2e", "-q"], cwd=REPO, env=env)


if __name__ == "__main__":
    raise SystemExit(main())
