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

from kingdomino.files import IMAGE_SUFFIXES, is_image, starts_like_image
from scoring import Board, BoardError, parse_board
from scoring.words import Message, msg

if TYPE_CHECKING:
    from vision.pipeline import Reading, TableReading

# A board file is a few hundred bytes; anything this big is not one (images are not limited).
MAX_BOARD_BYTES = 1_000_000
STDIN_CLOSED = msg(
    "<stdin>: standard input is closed; pipe a board or photo into it, or give a file name"
)


class InputError(Exception):
    """An input that cannot be scored; the message is one line naming the input."""

    def __init__(self, message: Message | str) -> None:
        super().__init__(str(message))
        self.message = message  # said in the CLI's language (``kingdomino.commands.say``)


def not_regular(name: str) -> Message:
    return msg(
        "{file}: not a regular file (a pipe, device or socket); give a file, or - for standard "
        "input",
        file=name,
    )


def no_such_file(name: str) -> Message:
    return msg("{file}: no such file", file=name)


class LoadedInput(NamedTuple):
    board: Board
    reading: Reading | None = None  # vision's per-cell reading for a photo; None for a board file


STDIN = "<stdin>"  # how standard input (``-``) is named in messages and output


def input_name(path: str) -> str:
    return STDIN if path == "-" else path


def load_input(
    path: str,
    size: int | None = None,
    corners: list[tuple[float, float]] | None = None,
    stdin_data: bytes | None = None,
) -> LoadedInput:
    """The board in ``path`` (``-`` = stdin): board text, a JSON board, or an image for vision
    (``size`` and ``corners`` as ``--size`` and ``--corners`` give them). ``stdin_data``:
    standard input's bytes when the caller has read them already (``read_stdin``).

    Raises ``InputError`` with a one-line message for anything else.
    """
    name = input_name(path)
    if path == "-":
        data = read_stdin() if stdin_data is None else stdin_data
    else:
        file = Path(path)
        if not file.exists():
            raise InputError(no_such_file(name))
        if file.is_dir():
            raise InputError(folder_advice(name))
        if not file.is_file():  # opening a FIFO would wait forever for a writer
            raise InputError(not_regular(name))
        if file.suffix.lower() in IMAGE_SUFFIXES or starts_like_image(file):
            return _photo_input(name, path, size, corners)
        try:
            with file.open("rb") as handle:
                data = handle.read(MAX_BOARD_BYTES + 1)
        except OSError as err:
            raise InputError(
                msg("{file}: cannot read ({reason})", file=name, reason=str(err.strerror or err))
            ) from None
    if is_image(data):
        return _photo_input(name, data if path == "-" else path, size, corners)
    if len(data) > MAX_BOARD_BYTES:
        raise InputError(
            msg(
                "{file}: over {limit} bytes, too big for a board file",
                file=name,
                limit=MAX_BOARD_BYTES,
            )
        )
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise InputError(msg("{file}: not a board text file (not UTF-8 text)", file=name)) from None
    if "\x00" in text:
        raise InputError(msg("{file}: not a board text file (binary data)", file=name))
    try:
        return LoadedInput(parse_board(text))
    except BoardError as err:
        reason = getattr(err, "message", None) or str(err)
        raise InputError(msg("{file}: {error}", file=name, error=reason)) from None


def read_stdin() -> bytes:
    """Standard input: as much as a board file may hold, or all of a photo up to vision's limit."""
    if sys.stdin is None:  # `kingdomino score - <&-`: Python leaves sys.stdin unset
        raise InputError(STDIN_CLOSED)
    try:
        data = sys.stdin.buffer.read(MAX_BOARD_BYTES + 1)
        if not is_image(data):
            return data
        from vision import load_image  # the photo's limit; vision reads it anyway

        limit = load_image.MAX_FILE_BYTES
        data += sys.stdin.buffer.read(limit + 1 - len(data))
    except (OSError, ValueError):  # a closed or unreadable descriptor 0
        raise InputError(STDIN_CLOSED) from None
    if len(data) > limit:
        raise InputError(
            msg(
                "<stdin>: the photo is over the {limit} MB limit: send a normal phone photo "
                "(a few MB)",
                limit=limit // 2**20,
            )
        )
    return data


def folder_advice(path: str) -> Message:
    """What to say of a folder given where a file belongs."""
    return msg(
        "{file}: is a folder, not a file; give the files in it, e.g. {example}",
        file=path,
        example=str(Path(path) / "*.jpg"),
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
        raise InputError(_cannot_read(name, err)) from None


def read_table(name: str, source: str | bytes, size: int | None) -> TableReading:
    """vision's reading of every complete kingdom in the image ``source`` (a path or its
    bytes)."""
    photo = _start_decoding(source)
    from vision.pipeline import read_table

    try:
        return read_table(photo, size=size)
    except Exception as err:  # vision's own errors; the CLI must never show a traceback
        raise InputError(_cannot_read(name, err)) from None


def photo_source(path: str) -> str | bytes:
    """What to read a photo from: the file ``path``, or standard input's bytes for ``-``.
    Raises ``InputError`` for a file that is not there or not a regular file, and for standard
    input that holds no image."""
    if path == "-":
        data = read_stdin()
        if not is_image(data):
            raise InputError(
                msg(
                    "<stdin>: not an image; pipe a photo into it (a JPEG, PNG, WebP or HEIC "
                    "file), or give a file name"
                )
            )
        return data
    file = Path(path)
    if not file.exists():
        raise InputError(no_such_file(path))
    if file.is_dir():
        raise InputError(folder_advice(path))
    if not file.is_file():
        raise InputError(not_regular(path))
    return path


def _start_decoding(source: str | bytes):
    """The photo decoding in a thread (``vision.load_image.LoadingImage``) while the caller
    imports the reader: a CLI run is mostly imports, and the decode need not wait for them."""
    from vision.load_image import LoadingImage, begun

    # The command line may have begun it already (``kingdomino.cli``).
    return begun(source) or LoadingImage(source)


def _cannot_read(name: str, err: Exception) -> Message:
    """vision's message, its advice to tap corners (in the app) as the option here."""
    reason = getattr(err, "message", None) or " ".join(str(err).split()) or type(err).__name__
    if isinstance(reason, Message) and re.search(r"\btap\b", reason):
        reason = _CornersHere(reason)
    return msg("{file}: cannot read the image ({reason})", file=name, reason=reason)


class _CornersHere(Message):
    """vision's advice to tap the corners, for the command line: in English the advice names
    the option instead ("use --corners to give the kingdom's four corners"); in another
    language the translated message is followed by where the corners go here."""

    def __new__(cls, reason: Message) -> _CornersHere:
        told = msg("{reason}; here, give the corners with --corners", reason=reason)
        self = str.__new__(cls, re.sub(r"\btap\b", "use --corners to give", reason))
        self.text, self.params, self.plural, self.n = told.text, told.params, None, 0
        return self
