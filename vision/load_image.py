"""Stage 0: a photo file (or its bytes) to a BGR ``uint8`` array, safely and fast.

Phones save JPEG, HEIC/HEIF (iPhones), PNG or WebP, often sideways with an EXIF orientation tag.
We honour that tag, refuse anything over 50 megapixels *before* decoding it (a small file can
claim a gigantic size: a "decompression bomb"), and decode big JPEGs at a reduced scale with
OpenCV's reduced decode (libjpeg's DCT scaling, several times faster than a full decode; PIL
reads the header first, and decodes what OpenCV does not take). The board finder needs far
less than 12 MP; the cell reader wants about 64 px per cell or more after straightening, which a
long side of about 1600 px keeps for any kingdom that fills a third of the frame.
"""

from __future__ import annotations

import io
import os
import sys
import threading
import warnings
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import cv2
import numpy as np

if TYPE_CHECKING:
    from scoring.words import Message

MAX_PIXELS = 50_000_000
MAX_FILE_BYTES = 60 * 1024 * 1024
# The long side we aim for; JPEGs decode at 1/2, 1/4 or 1/8 scale but never below it.
DEFAULT_LONG_SIDE = 1600
_REDUCED_JPEG = {
    1: cv2.IMREAD_COLOR,
    2: cv2.IMREAD_REDUCED_COLOR_2,
    4: cv2.IMREAD_REDUCED_COLOR_4,
    8: cv2.IMREAD_REDUCED_COLOR_8,
}
_HEIF_BRANDS = (b"ftypheic", b"ftypheix", b"ftypheim", b"ftypheis", b"ftypmif1", b"ftypmsf1")

# libjpeg's warnings that part of the scan is missing or garbled (its "extraneous bytes" warning
# loses nothing), and the start of any line libjpeg writes while decoding.
_LOST_DATA = ("Corrupt JPEG data", "Premature end of JPEG file")
_LIBJPEG = (*_LOST_DATA, "Invalid SOS parameters", "Inconsistent progression", "Warning:")
_STDERR_CAPTURE = threading.Lock()

# JPEG markers that start a frame (SOF0-SOF15 except DHT, JPG and DAC): they carry the size.
_SOF_MARKERS = frozenset(range(0xC0, 0xD0)) - {0xC4, 0xC8, 0xCC}


def msg(text: str, **params: object) -> Message:
    """``scoring.words.msg``, imported when a sentence is first needed (a photo that cannot be
    read): the command line starts decoding a photo before it imports the scoring modules
    (``kingdomino.cli``), and this module is what it imports for that."""
    from scoring.words import msg as message

    return message(text, **params)


class ImageError(ValueError):
    """The input is not an image we can read; the message says why and what to do."""

    @property
    def message(self) -> Message | str:
        """The sentence, for a translator (``translations.Translator.say``); ``str(err)`` is
        its English."""
        return self.args[0] if self.args else str(self)


def load_image(
    source: str | os.PathLike | bytes | bytearray, long_side: int | None = DEFAULT_LONG_SIDE
) -> np.ndarray:
    """Decode ``source`` (a path or the file's bytes) to an H×W×3 BGR ``uint8`` array.

    The result is upright (EXIF orientation applied) and, if ``long_side`` is given, reduced so
    its long side is about ``long_side`` (at least that for JPEGs, which reduce by powers of two).
    Raises ``ImageError`` for missing, huge, corrupt or non-image input.
    """
    data = _read_bytes(source)
    name = _describe(source)
    # The common case, a complete JPEG, needs no PIL: its size comes from the frame header, so
    # a phone photo is checked and decoded without PIL's import (a tenth of a CLI run).
    size = _jpeg_size(data)
    if size is not None and _complete_jpeg(data):
        _check_size(name, *size)
        bgr = _decode_jpeg(name, data, *size, long_side)
        if bgr is not None:
            return bgr
    if data[4:12] in _HEIF_BRANDS:
        _register_heif()
    Image, ImageOps, UnidentifiedImageError = _pil()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            image = Image.open(io.BytesIO(data))
            width, height = image.size  # from the header only: nothing is decoded yet
            _check_size(name, width, height)
            if long_side and image.format == "JPEG" and max(width, height) > long_side:
                scale = long_side / max(width, height)
                image.draft("RGB", (int(width * scale), int(height * scale)))
            image = ImageOps.exif_transpose(image)
            image = image.convert("RGB")
    except ImageError:
        raise
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise ImageError(
            msg(
                "{file} claims to be larger than {limit} megapixels: refusing to decode it; "
                "resize it or send the original photo",
                file=name,
                limit=MAX_PIXELS // 1_000_000,
            )
        ) from None
    except UnidentifiedImageError:
        raise ImageError(
            msg(
                "{file} is not an image we can read: send a JPEG, PNG, WebP or HEIC photo",
                file=name,
            )
        ) from None
    except (OSError, SyntaxError, ValueError) as err:
        raise ImageError(
            msg(
                "{file} is damaged or incomplete ({error}): take or export the photo again",
                file=name,
                error=str(err),
            )
        ) from None
    if long_side and max(image.size) > long_side * 1.5:
        # Non-JPEG formats (or a JPEG already near the target) are reduced here instead.
        factor = max(image.size) / long_side
        image = image.resize(
            (round(image.width / factor), round(image.height / factor)), Image.Resampling.BOX
        )
    rgb = np.asarray(image, dtype=np.uint8)
    if rgb.ndim != 3 or rgb.shape[2] != 3:
        raise ImageError(f"{name} decoded to an unexpected shape {rgb.shape}")
    return np.ascontiguousarray(rgb[:, :, ::-1])


class LoadingImage:
    """``load_image(source)`` running in a thread, begun as early as a caller knows the file.

    OpenCV decodes without holding Python's lock, so the CLI imports the rest of the reader
    (a few dozen modules) while the photo decodes: the two overlap instead of adding up.
    ``image()`` waits for the pixels, or raises what ``load_image`` raised.
    """

    def __init__(
        self, source: str | os.PathLike | bytes | bytearray, long_side: int = DEFAULT_LONG_SIDE
    ) -> None:
        self.source = source
        self._image: np.ndarray | None = None
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._load, args=(long_side,), name="load_image")
        self._thread.start()

    def _load(self, long_side: int) -> None:
        try:
            self._image = load_image(self.source, long_side)
        except BaseException as err:  # handed to whoever waits for the image
            self._error = err

    def image(self) -> np.ndarray:
        self._thread.join()
        if self._error is not None:
            raise self._error
        assert self._image is not None
        return self._image


# Photos the command line began decoding as soon as it saw their names (``begin_decoding``),
# by the name given, each taken once by ``begun``.
_BEGUN: dict[str, LoadingImage] = {}


def begin_decoding(path: str) -> None:
    """Start decoding the photo at ``path`` reduced (as ``LoadingImage(path)``), for ``begun``
    to hand over: the command line calls this before it imports the scoring modules and the
    reader, so that the decode overlaps all of those imports."""
    _BEGUN[path] = LoadingImage(path)


def begun(source: object) -> LoadingImage | None:
    """The decode ``begin_decoding(source)`` started, once; None when none was started."""
    return _BEGUN.pop(source, None) if isinstance(source, str) else None


def forget_begun() -> None:
    """Drop the decodes begun and not taken (a command that stopped before reading its photo):
    the file may have changed before a later command in this process reads it."""
    _BEGUN.clear()


def long_side(source: str | os.PathLike | bytes | bytearray) -> int:
    """The photo file's own long side in pixels, from its header only (turning it by its EXIF
    orientation does not change it)."""
    size = _jpeg_size(_read_bytes(source))
    return max(size) if size is not None else max(upright_size(source))


def upright_size(source: str | os.PathLike | bytes | bytearray) -> tuple[int, int]:
    """(width, height) of the photo as shown (EXIF orientation applied), from its header only."""
    data = _read_bytes(source)
    if data[4:12] in _HEIF_BRANDS:
        _register_heif()
    Image, _, UnidentifiedImageError = _pil()
    try:
        with Image.open(io.BytesIO(data)) as image:
            width, height = image.size
            turned = image.getexif().get(0x0112, 1) in (5, 6, 7, 8)
    except (OSError, SyntaxError, ValueError, UnidentifiedImageError) as err:
        raise ImageError(
            msg(
                "{file} is not an image we can read ({error})",
                file=_describe(source),
                error=str(err),
            )
        ) from None
    return (height, width) if turned else (width, height)


def _pil():
    """PIL's Image, ImageOps and UnidentifiedImageError, imported on first use.

    PIL warns above MAX_IMAGE_PIXELS when it opens an image, and raises DecompressionBombError
    above twice that. ``load_image`` turns the warning into an error while opening, so PIL itself
    refuses anything over our limit before decoding; the header size is checked again too.
    """
    from PIL import Image, ImageOps, UnidentifiedImageError

    Image.MAX_IMAGE_PIXELS = MAX_PIXELS
    return Image, ImageOps, UnidentifiedImageError


def _check_size(name: str, width: int, height: int) -> None:
    if width * height > MAX_PIXELS:
        raise ImageError(
            msg(
                "{file} is {size} = {megapixels} megapixels, over the {limit} MP limit: resize "
                "it or use the phone's normal photo mode",
                file=name,
                size=f"{width}×{height}",
                megapixels=round(width * height / 1e6),
                limit=MAX_PIXELS // 1_000_000,
            )
        )
    if width < 16 or height < 16:
        raise ImageError(
            msg(
                "{file} is only {size} pixels: take a real photo",
                file=name,
                size=f"{width}×{height}",
            )
        )


def _jpeg_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) from a JPEG's frame header, as stored (before EXIF orientation).

    Walks the marker segments from the start of the file to the first frame header. None for
    anything that is not a well-formed JPEG up to there; PIL then has its say.
    """
    if data[:2] != b"\xff\xd8":
        return None
    at = 2
    while at + 4 <= len(data):
        if data[at] != 0xFF:
            return None
        marker = data[at + 1]
        if marker == 0xFF:  # fill byte before a marker
            at += 1
            continue
        length = int.from_bytes(data[at + 2 : at + 4], "big")
        if length < 2:
            return None
        if marker in _SOF_MARKERS:
            if at + 9 > len(data) or length < 7:
                return None
            height = int.from_bytes(data[at + 5 : at + 7], "big")
            width = int.from_bytes(data[at + 7 : at + 9], "big")
            return (width, height) if width and height else None
        if marker == 0xDA:  # the scan started with no frame header
            return None
        at += 2 + length
    return None


def _complete_jpeg(data: bytes) -> bool:
    """Whether the last scan of the JPEG is followed by an end-of-image marker.

    OpenCV fills the missing part of a truncated JPEG with grey instead of failing; PIL refuses
    it, so a file that fails this cheap check goes the PIL way.
    """
    return data.rfind(b"\xff\xd9") > data.rfind(b"\xff\xda") > 0


def _decode_jpeg(
    name: str, data: bytes, width: int, height: int, long_side: int | None
) -> np.ndarray | None:
    """BGR pixels of a JPEG decoded by OpenCV at the coarsest 1/2^k scale keeping ``long_side``.

    OpenCV applies the EXIF orientation itself. None when OpenCV cannot decode it; ``ImageError``
    when libjpeg found part of the picture missing (OpenCV would fill it with grey).
    """
    factor = 1
    if long_side:
        while factor < 8 and max(width, height) / (2 * factor) >= long_side:
            factor *= 2
    with _libjpeg_messages() as messages:
        bgr = cv2.imdecode(np.frombuffer(data, np.uint8), _REDUCED_JPEG[factor])
    lost = [m for m in messages if m.startswith(_LOST_DATA) and "extraneous bytes" not in m]
    if lost:
        raise ImageError(
            msg(
                "{file} is damaged ({error}): take or export the photo again",
                file=name,
                error=lost[0],
            )
        )
    if bgr is None or bgr.ndim != 3 or bgr.shape[2] != 3:
        return None
    return bgr


@contextmanager
def _libjpeg_messages() -> Iterator[list[str]]:
    """libjpeg's warnings while decoding, in the list (filled when the block ends), instead of
    on the process's stderr: OpenCV leaves libjpeg's default handler, which writes them straight
    to file descriptor 2, where the CLI's one-line errors and the server's log are.

    File descriptor 2 is shared by every thread, so one capture runs at a time, and whatever else
    was written meanwhile (another thread's log line) is passed on to stderr afterwards.
    """
    messages: list[str] = []
    with _STDERR_CAPTURE, ExitStack() as cleanup:
        try:
            if sys.stderr is not None:
                sys.stderr.flush()
            captured = cleanup.enter_context(_capture_file())
            saved = os.dup(2)
        except (OSError, ValueError):  # no stderr, or no temporary file: decode uncaptured
            yield messages
            return
        os.dup2(captured.fileno(), 2)
        try:
            yield messages
        finally:
            os.dup2(saved, 2)
            os.close(saved)
        captured.seek(0)
        others = []
        for line in captured.read().decode(errors="replace").splitlines(keepends=True):
            (messages if line.startswith(_LIBJPEG) else others).append(line.strip())
        if others:
            os.write(2, ("\n".join(others) + "\n").encode())


def _capture_file():
    """A file, open for reading and writing, where fd 2 can point while libjpeg writes: one in
    memory where the system has them (Linux), else a temporary file (``tempfile``, imported
    only then: with ``shutil`` and ``random`` it cost a CLI run a few milliseconds before its
    photo could begin decoding)."""
    if hasattr(os, "memfd_create"):
        return open(os.memfd_create("libjpeg-messages"), "w+b")  # noqa: SIM115 (closed by caller)
    import tempfile

    return tempfile.TemporaryFile()


def _register_heif() -> None:
    """Teach PIL to open HEIC/HEIF (iPhone photos), only when one comes (the import is slow)."""
    try:
        import pillow_heif
    except ImportError:  # pragma: no cover - pillow-heif is a declared dependency
        return
    pillow_heif.register_heif_opener()


def _read_bytes(source: str | os.PathLike | bytes | bytearray) -> bytes:
    if isinstance(source, bytes | bytearray | memoryview):
        data = bytes(source)
    else:
        path = Path(source)
        if not path.is_file():
            raise ImageError(msg("{file}: no such file", file=str(path)))
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise ImageError(
                msg(
                    "{file} is {megabytes} MB, over the {limit} MB limit: send a normal phone "
                    "photo (a few MB)",
                    file=str(path),
                    megabytes=round(size / 2**20),
                    limit=MAX_FILE_BYTES // 2**20,
                )
            )
        data = path.read_bytes()
    if len(data) > MAX_FILE_BYTES:
        raise ImageError(
            msg(
                "the image is {megabytes} MB, over the {limit} MB limit: send a normal phone "
                "photo (a few MB)",
                megabytes=round(len(data) / 2**20),
                limit=MAX_FILE_BYTES // 2**20,
            )
        )
    if not data:
        raise ImageError(
            msg("{file} is empty (0 bytes): choose the photo again", file=_describe(source))
        )
    return data


def _describe(source: object) -> str:
    if isinstance(source, bytes | bytearray | memoryview):
        return msg("the uploaded file")
    return str(source)
