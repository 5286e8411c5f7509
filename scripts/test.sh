#!/usr/bin/env bash
# Runs every test: lint, unit and property tests, vision checks and the browser (e2e) tests.
# Installs what it needs first: the project with its dev extra, and Debian's chromium for the
# browser tests when it is missing (never a downloaded browser build).
set -euo pipefail
cd "$(dirname "$0")/.."

python -m pip install --quiet --disable-pip-version-check -e ".[dev]"

if ! command -v chromium >/dev/null 2>&1; then
    echo "Installing Debian's chromium for the browser tests..."
    sudo_cmd=""
    [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
    $sudo_cmd apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq chromium >/dev/null
fi

ruff check .
ruff format --check .
python -m pytest "$@"
