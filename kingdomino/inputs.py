"""What the ``kingdomino`` commands read: a board file (text or JSON), a photo, or standard input.

Every input either becomes a ``LoadedInput`` or raises ``InputError`` with a one-line message
that names the input and says what to do. Photos go to ``vision.pipeline``, imported only when a
photo comes: OpenCV and the model take several times longer to load than scoring a board file.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from scoring import Board, BoardError, parse_board

if TYPE_CHECKING:
    from vision.pipeline import Reading, TableReading

# A board file is a few hundred bytes; anything this big is not one (images are not limited).
MAX_BOARD_BYTES = 1_000_000
IMAGE_SUFFIXES = {".jpg", ".jpeg", ".png", ".webp", ".bmp", ".tif", ".tiff", ".heic", ".heif"}
STDIN_CLOSED = "standard input is closed; pipe a board or photo into it, or give a file name"
NOT_REGULAR = "not a regular file (a pipe, device or socket); give a file, or - for standard input"
_IMAGE_MAGIC = (b"\xff\xd8\xff", b"\x89PNG\r\n\x1a\n", b"BM", b"II*\x00", b"MM\x00*", b"GIF8")


class InputError(Exception):
    """An input that cannot be scored; the message is one line naming the input."""


class LoadedInput(NamedTuple):
    board: Board
    reading: Reading | None = None  # vision's per-cell reading for a photo; None for a board file


def load_input(
    path: str, size: int | None = None, corners: list[tuple[float, float]] | None = None
) -> LoadedInput:
    """The board in ``path`` (``-`` = stdin): board text, a JSON board, or an image for vision
    (``size`` and ``corners`` as ``--size`` and ``--corners`` give them).

    Raises ``InputError`` with a one-line message for anything else.
    """
    name = "<stdin>" if path == "-" else path
    if path == "-":
        data = _read_stdin()
    else:
        file = Path(path)
        if not file.exists():
            raise InputError(f"{name}: no such file")
        if file.is_dir():
            raise InputError(f"{name}: {folder_advice(name)}")
        if not file.is_file():  # opening a FIFO would wait forever for a writer
            raise InputError(f"{name}: {NOT_REGULAR}")
        if file.suffix.lower() in IMAGE_SUFFIXES or starts_like_image(file):
            return _photo_input(name, path, size, corners)
        try:
            with file.open("rb") as handle:
                data = handle.read(MAX_BOARD_BYTES + 1)
        except OSError as err:
            raise InputError(f"{name}: cannot read ({err.strerror or err})") from None
    if _is_image(data):
        return _photo_input(name, data if path == "-" else path, size, corners)
    if len(data) > MAX_BOARD_BYTES:
        raise InputError(f"{name}: over {MAX_BOARD_BYTES:,} bytes, too big for a board file")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise InputError(f"{name}: not a board text file (not UTF-8 text)") from None
    if "\x00" in text:
        raise InputError(f"{name}: not a board text file (binary data)")
    try:
        return LoadedInput(parse_board(text))
    except BoardError as err:
        raise InputError(f"{name}: {err}") from None


def _read_stdin() -> bytes:
    """Standard input: as much as a board file may hold, or all of a photo up to vision's limit."""
    if sys.stdin is None:  # `kingdomino score - <&-`: Python leaves sys.stdin unset
        raise InputError(f"<stdin>: {STDIN_CLOSED}")
    try:
        data = sys.stdin.buffer.read(MAX_BOARD_BYTES + 1)
        if not _is_image(data):
            return data
        from vision import load_image  # the photo's limit; vision reads it anyway

        limit = load_image.MAX_FILE_BYTES
        data += sys.stdin.buffer.read(limit + 1 - len(data))
    except (OSError, ValueError):  # a closed or unreadable descriptor 0
        raise InputError(f"<stdin>: {STDIN_CLOSED}") from None
    if len(data) > limit:
        raise InputError(
            f"<stdin>: the photo is over the {limit // 2**20} MB limit: send a normal phone"
            " photo (a few MB)"
        )
    return data


def folder_advice(path: str) -> str:
    """What to say of a folder given where a file belongs."""
    return f"is a folder, not a file; give the files in it, e.g. {Path(path) / '*.jpg'}"


def is_image_file(path: str) -> bool:
    """Whether ``path`` is a regular file that is an image by its name or its first bytes."""
    file = Path(path)
    if path == "-" or not file.is_file():
        return False
    return file.suffix.lower() in IMAGE_SUFFIXES or starts_like_image(file)


def starts_like_image(file: Path) -> bool:
    try:
        with file.open("rb") as handle:
            return _is_image(handle.read(16))
    except OSError:
        return False  # reading it again reports the error


def _is_image(data: bytes) -> bool:
    return (
        data.startswith(_IMAGE_MAGIC)
        or (data[:4] == b"RIFF" and data[8:12] == b"WEBP")
        or data[4:12] in (b"ftypheic", b"ftypheix", b"ftypmif1", b"ftypheim")
    )


def _photo_input(
    name: str, source: str | bytes, size: int | None, corners: list | None
) -> LoadedInput:
    reading = read_photo(name, source, size, corners)
    return LoadedInput(reading.board, reading)


def read_photo(
    name: str, source: str | bytes, size: int | None = None, corners: list | None = None
) -> Reading:
    """vision's whole reading of one kingdom in the image ``source`` (a path or its bytes)."""
    # Given corners are in the file's own pixels: read_image decodes it whole, not reduced.
    photo = _start_decoding(source) if corners is None else source
    from vision.pipeline import read_image

    try:
        return read_image(photo, size=size, corners=corners)
    except Exception as err:  # vision's own errors; the CLI must never show a traceback
        raise InputError(f"{name}: cannot read the image ({_vision_message(err)})") from None


def read_table(path: str, size: int | None) -> TableReading:
    """vision's reading of every complete kingdom in the photo at ``path``."""
    photo = _start_decoding(path)
    from vision.pipeline import read_table

    try:
        return read_table(photo, size=size)
    except Exception as err:  # vision's own errors; the CLI must never show a traceback
        raise InputError(f"{path}: cannot read the image ({_vision_message(err)})") from None


def _start_decoding(source: str | bytes):
    """The photo decoding in a thread (``vision.load_image.LoadingImage``) while the caller
    imports the reader: a CLI run is mostly imports, and the decode need not wait for them."""
    from vision.load_image import LoadingImage

    return LoadingImage(source)


def _vision_message(err: Exception) -> str:
    """vision's message on one line, its advice to tap corners (in the app) as the option here."""
    message = " ".join(str(err).split()) or type(err).__name__
    return re.sub(r"\btap\b", "use --corners to give", message)
