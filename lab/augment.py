"""What phones and imperfect straightening do to a cell, applied at random to training crops.

Each function takes and returns a (CROP, CROP, 3) BGR uint8 crop; ``phone_effects`` chains them
with the probabilities used in training. numpy/OpenCV only, seeded by the caller's generator.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.cells import CROP


def jittered_cell(
    image: np.ndarray, box: tuple[float, float, float, float], rng: np.random.Generator
) -> np.ndarray:
    """Cut ``box`` (x, y, w, h) out of ``image`` as a CROP×CROP crop, moved and scaled a little.

    Straightened boards are never perfectly aligned to the grid (tiles shift, corners are off by
    a few pixels), so the model must not rely on the cell sitting exactly in the crop.
    """
    x, y, w, h = box
    scale = rng.uniform(0.9, 1.12)
    cx = x + w / 2 + rng.uniform(-0.08, 0.08) * w
    cy = y + h / 2 + rng.uniform(-0.08, 0.08) * h
    sx, sy = CROP / (w * scale), CROP / (h * scale)
    matrix = np.array([[sx, 0, CROP / 2 - sx * cx], [0, sy, CROP / 2 - sy * cy]], dtype=np.float32)
    return cv2.warpAffine(
        image, matrix, (CROP, CROP), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT101
    )


def random_symmetry(crop: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One of the eight rotations/reflections: tiles lie in any orientation, crowns too."""
    crop = np.rot90(crop, int(rng.integers(4)))
    if rng.random() < 0.5:
        crop = crop[:, ::-1]
    return np.ascontiguousarray(crop)


def colour_cast(crop: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """White balance (per-channel gain), exposure and gamma."""
    gains = rng.uniform(0.8, 1.2, 3) * rng.uniform(0.65, 1.35)
    out = crop.astype(np.float32) / 255.0 * gains
    out = np.clip(out, 0, 1) ** rng.uniform(0.75, 1.35)
    return (out * 255).astype(np.uint8)


# A white surface under a black-body light of each temperature, as sRGB with no white balance
# (the usual black-body colour table). Gains between two rows turn one light into the other.
BLACK_BODY_RGB = {
    2700: (255, 169, 87),
    3000: (255, 180, 107),
    3500: (255, 196, 137),
    4000: (255, 209, 163),
    4500: (255, 219, 186),
    5000: (255, 228, 206),
    5500: (255, 236, 224),
    6000: (255, 243, 239),
    6500: (255, 249, 253),
    7000: (245, 243, 255),
    7500: (235, 238, 255),
}
REFERENCE_KELVIN = 5500  # the light a photo is taken to be balanced for


def light_gains(kelvin: float, strength: float = 1.0) -> np.ndarray:
    """BGR gains (green 1) that move a photo balanced for daylight to ``kelvin``.

    ``strength`` 1 is the full change of light (no white balance at all); a phone's automatic
    white balance leaves part of it, so training draws strengths between 0 and 1. Temperatures
    are interpolated in mired (1e6 / kelvin), where equal steps look about equally different.
    """
    temperatures = np.array(sorted(BLACK_BODY_RGB), float)
    rgb = np.array([BLACK_BODY_RGB[int(t)] for t in temperatures], float)
    mired = 1e6 / temperatures
    order = np.argsort(mired)
    at = np.array([np.interp(1e6 / kelvin, mired[order], rgb[order, k]) for k in range(3)])
    gains = at / np.array(BLACK_BODY_RGB[REFERENCE_KELVIN], float)
    gains = (gains / gains[1]) ** strength
    return gains[::-1].copy()  # RGB -> BGR


def shift_light(image: np.ndarray, kelvin: float, strength: float = 1.0) -> np.ndarray:
    """The image (BGR uint8, any size) as if lit by ``kelvin`` light (see ``light_gains``)."""
    out = image.astype(np.float32) * light_gains(kelvin, strength).astype(np.float32)
    return np.clip(out, 0, 255).astype(np.uint8)


def warm_or_cold_light(crop: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Indoor tungsten to overcast shade (2,700–7,500 K, uniform in mired), with a green or
    magenta tint (fluorescent light, another camera's colour science)."""
    kelvin = 1e6 / rng.uniform(1e6 / 7500, 1e6 / 2700)
    strength = 1.0 if rng.random() < 0.4 else rng.uniform(0.2, 1.0)
    gains = light_gains(kelvin, strength) * np.array([1.0, np.exp(rng.normal(0, 0.06)), 1.0])
    out = crop.astype(np.float32) * gains.astype(np.float32)
    return np.clip(out, 0, 255).astype(np.uint8)


def low_resolution(crop: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Down to 24–56 px and back: a far-away camera or a 40 px-per-cell board."""
    side = int(rng.integers(24, 57))
    small = cv2.resize(crop, (side, side), interpolation=cv2.INTER_AREA)
    return cv2.resize(small, (CROP, CROP), interpolation=cv2.INTER_LINEAR)


def blur(crop: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    if rng.random() < 0.5:
        return cv2.GaussianBlur(crop, (0, 0), rng.uniform(0.4, 1.6))
    length = int(rng.integers(3, 8))  # motion blur: a short line kernel at a random angle
    kernel = np.zeros((length, length), np.float32)
    kernel[length // 2, :] = 1.0 / length
    rotation = cv2.getRotationMatrix2D((length / 2 - 0.5, length / 2 - 0.5), rng.uniform(0, 180), 1)
    kernel = cv2.warpAffine(kernel, rotation, (length, length))
    return cv2.filter2D(crop, -1, kernel / max(kernel.sum(), 1e-6))


def noise(crop: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    sigma = rng.uniform(2, 12)
    return np.clip(crop + rng.normal(0, sigma, crop.shape), 0, 255).astype(np.uint8)


def jpeg(crop: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    ok, data = cv2.imencode(".jpg", crop, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(25, 90))])
    return cv2.imdecode(data, cv2.IMREAD_COLOR) if ok else crop


def shadow(crop: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A soft linear light gradient: the photographer's shadow or uneven light across a cell."""
    yy, xx = np.mgrid[0:CROP, 0:CROP].astype(np.float32) / CROP
    angle = rng.uniform(0, 2 * np.pi)
    ramp = np.cos(angle) * (xx - 0.5) + np.sin(angle) * (yy - 0.5)
    factor = 1.0 + ramp[..., None] * rng.uniform(-0.8, 0.8)
    return np.clip(crop * factor, 0, 255).astype(np.uint8)


def glare(crop: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A lamp's reflection on the glossy tile: a soft, washed-out ellipse, white at its core.

    Most of the held-out cell-crops v5 misread are such reflections (wheat washed white read as
    the castle, mines whose crowns fade into a white patch); the crowns stay part visible.
    """
    yy, xx = np.mgrid[0:CROP, 0:CROP].astype(np.float32)
    centre = rng.uniform(-0.2, 1.2, 2) * CROP
    axes = rng.uniform(0.25, 0.9, 2) * CROP
    angle = rng.uniform(0, np.pi)
    dx, dy = xx - centre[0], yy - centre[1]
    u = (np.cos(angle) * dx + np.sin(angle) * dy) / axes[0]
    v = (-np.sin(angle) * dx + np.cos(angle) * dy) / axes[1]
    alpha = rng.uniform(0.5, 0.95) * np.exp(-((u**2 + v**2) ** 2))  # flat top, soft rim
    white = rng.uniform(225, 255)
    out = crop.astype(np.float32) * (1 - alpha[..., None]) + white * alpha[..., None]
    return np.clip(out, 0, 255).astype(np.uint8)


def sheen(crop: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A window's or ceiling light's sheen over most of the glossy tile: light *added* to the
    artwork, so light colours burn out to white while the darker strokes stay as grey marks.

    Unlike ``glare`` (a lamp's small white spot), it covers from a fifth of the cell to nearly
    all of it. Most of the held-out cell-crops v7 misreads are such cells: wheat burnt out to
    near-white, with only its dark speckles left, read as the castle's white tile. Trained at
    ``Recipe.sheen_share`` 0.25 it moved those misreads to swamp rather than fixing them
    (lab/README.md, "Tried and dropped"; measured in commit 430b4b5), so it is off in the
    shipped recipe.
    """
    yy, xx = np.mgrid[0:CROP, 0:CROP].astype(np.float32) / CROP
    angle = rng.uniform(0, 2 * np.pi)
    # A broad band whose edge crosses the cell somewhere: the shape a window's reflection takes.
    edge = rng.uniform(0.05, 0.8)
    across = np.cos(angle) * (xx - 0.5) + np.sin(angle) * (yy - 0.5)
    alpha = 1.0 / (1.0 + np.exp(-(across + 0.5 - edge) / rng.uniform(0.04, 0.2)))
    alpha *= 1.0 + 0.15 * cv2.GaussianBlur(
        rng.normal(0, 1, (CROP, CROP)).astype(np.float32), (0, 0), CROP / 8
    )  # gloss is never even
    added = rng.uniform(70, 200) * np.clip(alpha, 0, 1.2)
    out = crop.astype(np.float32) * rng.uniform(0.9, 1.15) + added[..., None]
    return np.clip(out, 0, 255).astype(np.uint8)


def phone_effects(
    crop: np.ndarray,
    rng: np.random.Generator,
    light_shifts: float = 0.0,
    glare_share: float = 0.0,
    sheen_share: float = 0.0,
) -> np.ndarray:
    """All of the above at random; ``light_shifts`` is the share of crops given a warm or cold
    light first (0 trains as the v3 model did), ``glare_share`` the share given a lamp's
    reflection, ``sheen_share`` the share given a broad sheen (drawn after the glare's share)."""
    crop = random_symmetry(crop, rng)
    if light_shifts and rng.random() < light_shifts:
        crop = warm_or_cold_light(crop, rng)
    if glare_share and rng.random() < glare_share:
        crop = glare(crop, rng)
    elif sheen_share and rng.random() < sheen_share:
        crop = sheen(crop, rng)
    if rng.random() < 0.8:
        crop = colour_cast(crop, rng)
    if rng.random() < 0.3:
        crop = shadow(crop, rng)
    if rng.random() < 0.3:
        crop = low_resolution(crop, rng)
    if rng.random() < 0.3:
        crop = blur(crop, rng)
    if rng.random() < 0.3:
        crop = noise(crop, rng)
    if rng.random() < 0.3:
        crop = jpeg(crop, rng)
    return crop
