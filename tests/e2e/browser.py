"""Debian's chromium and the flags every browser run here uses (tests, speed and load scripts).

The flags keep a headless chromium from reaching for the network: this machine has none but the
package registries, and chromium's background connections would be refused many at a time.
"""

from pathlib import Path

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    # The app follows the browser's language: English unless a test asks for another (a context's
    # own ``locale``), whatever this machine's locale is.
    "--lang=en-US",
]
