"""Warm and cold light for training and evaluation (lab.augment)."""

from __future__ import annotations

import numpy as np

from lab.augment import REFERENCE_KELVIN, light_gains, phone_effects, shift_light


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
