"""Which command-line inputs are photos: by their name or their first bytes.

Kept apart from ``kingdomino.inputs`` (which imports the scoring modules) so that the command
line can tell a photo before anything else is imported, and start decoding it
(``kingdomino.cli``).
"""

from __future__ import annotations

from pathlib import Path

IMAGE_SUFFIXES = {".jpg", ".jpeg", ".png", ".webp", ".bmp", ".tif", ".tiff", ".heic", ".heif"}
_IMAGE_MAGIC = (b"\xff\xd8\xff", b"\x89PNG\r\n\x1a\n", b"BM", b"II*\x00", b"MM\x00*", b"GIF8")


def is_image_file(path: str) -> bool:
    """Whether ``path`` is a regular file that is an image by its name or its first bytes."""
    file = Path(path)
    if path == "-" or not file.is_file():
        return False
    return file.suffix.lower() in IMAGE_SUFFIXES or starts_like_image(file)


def starts_like_image(file: Path) -> bool:
    try:
        with file.open("rb") as handle:
            return is_image(handle.read(16))
    except OSError:
        return False  # reading it again reports the error


def is_image(data: bytes) -> bool:
    """Whether ``data`` (a file's first 16 bytes or more) starts as an image file does."""
    return (
        data.startswith(_IMAGE_MAGIC)
        or (data[:4] == b"RIFF" and data[8:12] == b"WEBP")
        or data[4:12] in (b"ftypheic", b"ftypheix", b"ftypmif1", b"ftypheim")
    )
