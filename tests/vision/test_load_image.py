"""load_image: formats, EXIF orientation, early downscaling, and a clear refusal for bad input."""

from __future__ import annotations

import io
import os
import struct
import zlib
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from vision import load_image as load_image_module
from vision.load_image import ImageError, LoadingImage, load_image

SAMPLE = Path(__file__).resolve().parents[2] / "sample_images" / "synthetic-scene-20.jpg"


def _encoded(image: Image.Image, fmt: str, **options) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, format=fmt, **options)
    return buffer.getvalue()


def _gradient(width: int = 64, height: int = 48) -> Image.Image:
    x = np.linspace(0, 255, width, dtype=np.uint8)
    rgb = np.zeros((height, width, 3), np.uint8)
    rgb[..., 0] = x  # red grows to the right
    rgb[..., 2] = 200
    return Image.fromarray(rgb)


@pytest.mark.parametrize("fmt", ["JPEG", "PNG", "WEBP"])
def test_common_formats_decode_to_bgr(fmt):
    image = load_image(_encoded(_gradient(), fmt))
    assert image.shape == (48, 64, 3) and image.dtype == np.uint8
    # BGR: blue is channel 0 (constant 200), red channel 2 grows to the right.
    assert abs(int(image[:, :, 0].mean()) - 200) < 10
    assert image[24, 60, 2] > image[24, 3, 2] + 150


def test_heic_decodes():
    pillow_heif = pytest.importorskip("pillow_heif")
    pillow_heif.register_heif_opener()  # to encode the test file; load_image registers it itself
    try:
        data = _encoded(_gradient(), "HEIF")
    except Exception as err:  # pillow-heif built without an encoder: decoding is what we ship
        pytest.skip(f"cannot encode HEIF here ({err})")
    assert pillow_heif is not None
    assert load_image(data).shape == (48, 64, 3)


def test_exif_orientation_is_applied():
    exif = Image.Exif()
    exif[0x0112] = 6  # "rotate 90° clockwise to display"
    data = _encoded(_gradient(64, 48), "JPEG", exif=exif.tobytes())
    image = load_image(data)
    assert image.shape == (64, 48, 3)  # upright: portrait
    # Red grew to the right before; after a clockwise turn it grows downward.
    assert image[60, 24, 2] > image[3, 24, 2] + 150


def test_large_jpeg_is_decoded_reduced(tmp_path):
    path = tmp_path / "big.jpg"
    _gradient(3200, 2400).save(path, quality=80)
    image = load_image(path)
    assert 1600 <= max(image.shape[:2]) < 3200  # draft mode: half size
    assert load_image(path, long_side=None).shape == (2400, 3200, 3)


def test_missing_empty_and_non_image_inputs(tmp_path):
    with pytest.raises(ImageError, match="no such file"):
        load_image(tmp_path / "nope.jpg")
    with pytest.raises(ImageError, match="empty"):
        load_image(b"")
    with pytest.raises(ImageError, match="not an image we can read"):
        load_image(b"kingdom, but as text\n" * 10)


def test_truncated_jpeg_is_damaged():
    data = _encoded(_gradient(400, 300), "JPEG")
    with pytest.raises(ImageError, match="damaged|not an image"):
        load_image(data[: len(data) // 2])


def _png_header_only(width: int, height: int) -> bytes:
    """A PNG that claims width×height but carries (almost) no pixels: a decompression bomb."""

    def chunk(kind: bytes, payload: bytes) -> bytes:
        body = kind + payload
        return struct.pack(">I", len(payload)) + body + struct.pack(">I", zlib.crc32(body))

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    idat = zlib.compress(b"\x00" * 64)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", idat) + chunk(b"IEND", b"")


def test_decompression_bomb_is_refused_before_decoding():
    with pytest.raises(ImageError, match="megapixels"):
        load_image(_png_header_only(20_000, 20_000))  # 400 MP in a few hundred bytes
    with pytest.raises(ImageError, match="megapixels"):
        load_image(_png_header_only(8_000, 7_000))  # 56 MP: over our 50 MP limit


def test_huge_file_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(load_image_module, "MAX_FILE_BYTES", 1000)
    path = tmp_path / "huge.jpg"
    path.write_bytes(_encoded(_gradient(300, 300), "JPEG") + b"\0" * 2000)
    with pytest.raises(ImageError, match="MB limit"):
        load_image(path)


@pytest.mark.parametrize(
    "options",
    [{}, {"progressive": True}, {"exif": b"Exif\x00\x00" + b"\x00" * 40}, {"quality": 30}],
    ids=["baseline", "progressive", "exif-segment", "low-quality"],
)
def test_the_jpeg_frame_header_gives_the_size_pil_reads(options):
    data = _encoded(_gradient(123, 77), "JPEG", **options)
    assert load_image_module._jpeg_size(data) == Image.open(io.BytesIO(data)).size == (123, 77)


def test_what_is_not_a_jpeg_header_goes_to_pil():
    png = _encoded(_gradient(), "PNG")
    jpeg = _encoded(_gradient(), "JPEG")
    assert load_image_module._jpeg_size(png) is None
    assert load_image_module._jpeg_size(jpeg[:20]) is None  # cut before the frame header
    assert load_image_module._jpeg_size(b"\xff\xd8" + b"\x00" * 50) is None
    assert load_image(png).shape == (48, 64, 3)


def _jpeg_claiming(width: int, height: int) -> bytes:
    """A real JPEG whose frame header is rewritten to claim ``width``×``height``."""
    data = bytearray(_encoded(_gradient(64, 48), "JPEG"))
    at = data.index(b"\xff\xc0")
    data[at + 5 : at + 9] = height.to_bytes(2, "big") + width.to_bytes(2, "big")
    return bytes(data)


def test_a_jpeg_claiming_too_many_pixels_is_refused_before_decoding():
    with pytest.raises(ImageError, match="megapixels"):
        load_image(_jpeg_claiming(65_000, 65_000))
    with pytest.raises(ImageError, match="only 8×8 pixels"):
        load_image(_jpeg_claiming(8, 8))


@pytest.mark.parametrize(
    "module",
    [
        # A complete JPEG is checked and decoded without PIL (its import is a tenth of a CLI run).
        "PIL",
        # libjpeg's lines are caught in a file in memory: ``tempfile`` (with ``shutil`` and
        # ``random``) is not imported before the photo can begin decoding.
        pytest.param(
            "tempfile",
            marks=pytest.mark.skipif(
                not hasattr(os, "memfd_create"), reason="libjpeg's lines go to a temp file"
            ),
        ),
    ],
)
def test_a_phone_jpeg_is_read_without_importing(module, tmp_path):
    import subprocess
    import sys

    path = tmp_path / "photo.jpg"
    _gradient(640, 480).save(path)
    code = (
        "import sys; from vision.load_image import load_image; "
        f"print(load_image({str(path)!r}).shape, {module!r} in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["(480,", "640,", "3)", "False"]


def test_the_long_side_is_the_files_own_whatever_its_orientation():
    exif = Image.Exif()
    exif[0x0112] = 6  # shown turned: 48 wide, 64 high
    turned = _encoded(_gradient(64, 48), "JPEG", exif=exif.tobytes())
    assert load_image_module.long_side(turned) == 64
    assert load_image_module.upright_size(turned) == (48, 64)
    assert load_image_module.long_side(_encoded(_gradient(30, 70), "PNG")) == 70


def test_a_jpeg_with_lost_scan_data_is_damaged_and_libjpeg_stays_quiet(capfd):
    """libjpeg reports lost data on file descriptor 2 itself; that becomes our error instead."""
    data = bytearray(SAMPLE.read_bytes())
    middle = len(data) // 2
    data[middle : middle + 4000] = bytes(4000)  # lost scan data; the end-of-image marker kept
    with pytest.raises(ImageError, match=r"is damaged \(Corrupt JPEG data"):
        load_image(bytes(data))
    assert capfd.readouterr().err == ""


def test_other_output_during_a_decode_still_reaches_stderr(capfd):
    """The capture takes libjpeg's lines only: a log line another thread writes meanwhile stays."""
    with load_image_module._libjpeg_messages() as messages:
        os.write(2, b"Corrupt JPEG data: premature end of data segment\nserver log line\n")
    assert messages == ["Corrupt JPEG data: premature end of data segment"]
    assert capfd.readouterr().err == "server log line\n"


def test_an_image_loading_in_a_thread_gives_what_load_image_gives(tmp_path):
    """``LoadingImage`` (the CLI decodes while it imports the reader) changes nothing: the same
    pixels, and the same refusal, raised when the image is asked for."""
    path = tmp_path / "big.jpg"
    _gradient(3200, 2400).save(path, quality=80)
    np.testing.assert_array_equal(LoadingImage(path).image(), load_image(path))
    loading = LoadingImage(tmp_path / "nope.jpg")  # does not raise here: in its thread
    with pytest.raises(ImageError, match="no such file"):
        loading.image()


def test_a_reading_from_a_loading_image_is_the_files_own():
    from vision.pipeline import read_image, read_table

    photo = SAMPLE
    alone, loaded = read_image(photo), read_image(LoadingImage(photo))
    assert loaded.source == alone.source == str(photo)
    assert loaded.board.rows_text() == alone.board.rows_text()
    table = read_table(LoadingImage(photo))
    assert table.source == str(photo) and table.photo_scale == read_table(photo).photo_scale
