"""Stage 0: a photo file (or its bytes) to a BGR ``uint8`` array, safely and fast.

Phones save JPEG, HEIC/HEIF (iPhones), PNG or WebP, often sideways with an EXIF orientation tag.
We honour that tag, refuse anything over 50 megapixels *before* decoding it (a small file can
claim a gigantic size: a "decompression bomb"), and decode big JPEGs at a reduced scale with
PIL's draft mode, which is several times faster than a full decode. The board finder needs far
less than 12 MP; the cell reader wants about 64 px per cell or more after straightening, which a
long side of about 1600 px keeps for any kingdom that fills a third of the frame.
"""

from __future__ import annotations

import io
import os
import warnings
from pathlib import Path

import numpy as np
from PIL import Image, ImageOps, UnidentifiedImageError

try:  # HEIC/HEIF support is optional at import time so the rest still works without it.
    import pillow_heif

    pillow_heif.register_heif_opener()
except ImportError:  # pragma: no cover - pillow-heif is a declared dependency
    pillow_heif = None

MAX_PIXELS = 50_000_000
MAX_FILE_BYTES = 60 * 1024 * 1024
# The long side we aim for; JPEG draft mode decodes at 1/2, 1/4 or 1/8 scale but never below it.
DEFAULT_LONG_SIDE = 1600

# PIL warns above MAX_IMAGE_PIXELS when it opens an image, and raises DecompressionBombError above
# twice that. We turn the warning into an error while opening, so PIL itself refuses anything over
# our limit before decoding, and we check the header size again in case a caller changed this.
Image.MAX_IMAGE_PIXELS = MAX_PIXELS


class ImageError(ValueError):
    """The input is not an image we can read; the message says why and what to do."""


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
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            image = Image.open(io.BytesIO(data))
            width, height = image.size  # from the header only: nothing is decoded yet
            if width * height > MAX_PIXELS:
                raise ImageError(
                    f"{name} is {width}×{height} = {width * height / 1e6:.0f} megapixels, over the"
                    f" {MAX_PIXELS // 1_000_000} MP limit: resize it or use the phone's normal"
                    " photo mode"
                )
            if width < 16 or height < 16:
                raise ImageError(f"{name} is only {width}×{height} pixels: take a real photo")
            if long_side and image.format == "JPEG" and max(width, height) > long_side:
                scale = long_side / max(width, height)
                image.draft("RGB", (int(width * scale), int(height * scale)))
            image = ImageOps.exif_transpose(image)
            image = image.convert("RGB")
    except ImageError:
        raise
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise ImageError(
            f"{name} claims to be larger than {MAX_PIXELS // 1_000_000} megapixels:"
            " refusing to decode it; resize it or send the original photo"
        ) from None
    except UnidentifiedImageError:
        raise ImageError(
            f"{name} is not an image we can read: send a JPEG, PNG, WebP or HEIC photo"
        ) from None
    except (OSError, SyntaxError, ValueError) as err:
        raise ImageError(
            f"{name} is damaged or incomplete ({err}): take or export the photo again"
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


def _read_bytes(source: str | os.PathLike | bytes | bytearray) -> bytes:
    if isinstance(source, bytes | bytearray | memoryview):
        data = bytes(source)
    else:
        path = Path(source)
        if not path.is_file():
            raise ImageError(f"{path}: no such file")
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise ImageError(
                f"{path} is {size / 2**20:.0f} MB, over the {MAX_FILE_BYTES // 2**20} MB limit:"
                " send a normal phone photo (a few MB)"
            )
        data = path.read_bytes()
    if len(data) > MAX_FILE_BYTES:
        raise ImageError(
            f"the image is {len(data) / 2**20:.0f} MB, over the {MAX_FILE_BYTES // 2**20} MB"
            " limit: send a normal phone photo (a few MB)"
        )
    if not data:
        raise ImageError(f"{_describe(source)} is empty (0 bytes): choose the photo again")
    return data


def _describe(source: object) -> str:
    if isinstance(source, bytes | bytearray | memoryview):
        return "the uploaded file"
    return str(source)
