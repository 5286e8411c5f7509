"""Warm and cold light for training and evaluation (lab.augment)."""

from __future__ import annotations

import numpy as np
import pytest

from lab.augment import (
    REFERENCE_KELVIN,
    glare,
    light_gains,
    phone_effects,
    sheen,
    shift_light,
)


def test_daylight_changes_nothing_and_warm_light_is_red_cold_light_blue():
    assert np.allclose(light_gains(REFERENCE_KELVIN), 1.0)
    blue, green, red = light_gains(3000)
    assert red > green == 1.0 > blue
    blue, green, red = light_gains(7500)
    assert blue > 1.0 > red
    half = light_gains(3000, strength=0.5)
    assert np.allclose(half, light_gains(3000) ** 0.5)


def test_shift_light_keeps_the_image_and_moves_its_colour():
    grey = np.full((8, 8, 3), 128, np.uint8)
    warm = shift_light(grey, 3000)
    assert warm.shape == grey.shape and warm.dtype == np.uint8
    assert warm[..., 2].mean() > 128 > warm[..., 0].mean()


def test_light_shifts_vary_the_colour_of_training_crops():
    rng = np.random.default_rng(0)
    crop = np.full((64, 64, 3), 128, np.uint8)
    plain = [phone_effects(crop, rng).reshape(-1, 3).mean(0) for _ in range(100)]
    lit = [phone_effects(crop, rng, light_shifts=1.0).reshape(-1, 3).mean(0) for _ in range(100)]
    # Blue against red: light shifts spread it much further than white balance alone.
    spread = [np.std(np.log(np.array(x)[:, 0] / np.array(x)[:, 2])) for x in (plain, lit)]
    assert spread[1] > 1.5 * spread[0]


def test_printed_cloths_are_patterned_and_often_the_colour_of_a_terrain():
    import cv2

    from lab.data import printed_cloth

    rng = np.random.default_rng(3)
    cloths = [printed_cloth(rng, 64) for _ in range(60)]
    assert all(c.shape == (64, 64, 3) and c.dtype == np.uint8 for c in cloths)
    assert np.median([c.std(axis=(0, 1)).max() for c in cloths]) > 8  # a pattern, not a colour
    hues = [np.median(cv2.cvtColor(c, cv2.COLOR_BGR2HSV)[..., 0]) for c in cloths]
    assert sum(95 <= h <= 125 for h in hues) >= 5  # lake-blue grounds among them


def test_glare_washes_part_of_a_crop_out_towards_white():
    rng = np.random.default_rng(3)
    crop = np.full((64, 64, 3), 60, np.uint8)
    glared = [glare(crop, rng) for _ in range(20)]
    assert all(g.shape == crop.shape and g.dtype == np.uint8 for g in glared)
    brightest = np.array([g.max() for g in glared])
    assert np.all(brightest > 150)  # a reflection's core is near white
    # ... but it lies over part of the tile, not all of it, in most crops
    covered = np.array([np.mean(g > 120) for g in glared])
    assert np.median(covered) < 0.8
    assert np.array_equal(crop, np.full((64, 64, 3), 60, np.uint8))  # the input is untouched


@pytest.mark.parametrize("share", ["glare_share", "sheen_share"])
def test_each_reflection_share_is_how_often_phone_effects_add_that_reflection(share):
    crop = np.full((64, 64, 3), 40, np.uint8)

    def bright_share(value: float) -> float:
        rng = np.random.default_rng(5)
        out = [phone_effects(crop, rng, **{share: value}) for _ in range(200)]
        return float(np.mean([o.max() > 120 for o in out]))

    assert bright_share(0.0) < 0.05
    assert bright_share(1.0) > 0.9


def _wheat_with_speckles() -> np.ndarray:
    """A wheat-yellow tile (BGR) with a dark speckle every 8 px, as crops of the plain wheat."""
    crop = np.zeros((64, 64, 3), np.uint8)
    crop[:] = (60, 190, 220)
    crop[4::8, 4::8] = (30, 50, 60)
    return crop


def test_sheen_burns_light_colours_out_and_keeps_the_dark_strokes():
    rng = np.random.default_rng(7)
    crop = _wheat_with_speckles()
    speckles = np.zeros((64, 64), bool)
    speckles[4::8, 4::8] = True
    burnt_shares, speckle_levels = [], []
    for _ in range(40):
        out = sheen(crop, rng)
        assert out.shape == crop.shape and out.dtype == np.uint8
        assert out.astype(int).sum() > crop.astype(int).sum()  # light is only ever added
        burnt = out.min(axis=2) > 230  # near-white: even yellow's blue channel lifted
        burnt_shares.append(burnt.mean())
        beside_burnt = speckles & np.roll(burnt, 1, axis=0)
        if beside_burnt.any():
            speckle_levels.append(out[beside_burnt].min(axis=1).mean())
    # Some sheens burn part of the tile out to white (the rest wash it paler), few all of it ...
    assert np.mean(np.array(burnt_shares) > 0.05) > 0.15
    assert np.mean(np.array(burnt_shares) > 0.98) < 0.1
    # ... and next to the burnt-out parts the speckles still show as grey marks.
    assert max(speckle_levels) < 230
    assert np.array_equal(crop, _wheat_with_speckles())  # the input is untouched
