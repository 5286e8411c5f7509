"""The table model: what is table and what lies on it."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tests.vision.find.conftest import lay, table
from vision.find.search import WORK_LONG_SIDE
from vision.find.table import table_model


def test_tiles_stand_out_and_the_table_does_not(aau_board):
    photo = table("wood", 900, 1200, seed=2)
    lay(photo, aau_board(1), 350, 200)
    model = table_model(photo)
    assert model.not_table.shape == (450, 600) and model.joined.shape == (450, 600)
    kingdom = model.joined[100:350, 175:425]
    assert kingdom.mean() > 0.95 * 255  # the kingdom is one solid blob once joined
    assert model.joined[:, :150].mean() < 0.02 * 255  # the table beside it is table


def test_a_kingdom_cut_by_the_top_edge_does_not_become_table(aau_board):
    """Tile colours along one side of the photo must not be learnt as table colours."""
    photo = table("plain", 900, 1200, seed=4)
    lay(photo, aau_board(5), 100, -250)  # cut by the top edge
    lay(photo, aau_board(6), 650, 300)
    model = table_model(photo)
    assert model.joined[175:400, 340:560].mean() > 0.9 * 255
    assert model.joined[0:100, 60:290].mean() > 0.9 * 255


def test_a_hue_mix_is_no_table_colour():
    """A border of many hues (clutter all round) leaves the table as its one common colour."""
    rng = np.random.default_rng(0)
    photo = table("plain", 600, 800, seed=1)
    photo[:30] = rng.integers(0, 256, (30, 800, 3), dtype=np.uint8)  # confetti along the top
    model = table_model(photo)
    assert model.joined[100:500, 100:700].mean() < 0.05 * 255


def test_the_dots_of_a_patterned_cloth_are_table():
    """White dots mix with the cloth at their rims, so no tight colour is learnt for them; their
    many equal specks along the border mark them as the table's pattern."""
    from lab.tables import _table

    cloth = _table(np.random.default_rng(1), "patterned_cloth", 900, 1500)
    model = table_model(cloth.clip(0, 255).astype(np.uint8))
    assert model.not_table.mean() < 0.01 * 255
    assert model.joined.mean() < 0.01 * 255


def _modelled_scene(seed: int):
    """A development scene of ``lab.tables`` (not an evaluated one): its table model at the
    finder's working size, and a mask, at the model's size, of where its kingdoms lie (1)."""
    import cv2

    from lab.tables import make_table_scene

    scene = make_table_scene(seed)
    scale = 800 / max(scene.image.shape[:2])
    small = cv2.resize(scene.image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    kingdoms = np.zeros((small.shape[0] // 2, small.shape[1] // 2), np.uint8)
    for kingdom in scene.kingdoms:
        cv2.fillConvexPoly(kingdoms, np.round(kingdom.corners * scale / 2).astype(np.int32), 1)
    return scene, table_model(small), kingdoms


def test_a_dark_cloth_whose_colour_spreads_is_table():
    """On a deep blue cloth the camera's noise spreads every pixel's chromaticity (a cluster's
    spread 9-12, over the 8 of one table colour): a colour on all four sides of the photo and
    common there is still the table, not the cloth's white dots."""
    scene, model, kingdoms = _modelled_scene(7266)
    assert scene.table == "patterned_cloth"
    assert model.joined[kingdoms == 0].mean() < 0.15 * 255  # was 0.90: the cloth stood out
    assert model.joined[kingdoms == 1].mean() > 0.7 * 255


def test_a_mottled_cloth_on_three_sides_is_table_not_the_score_pad_in_a_corner():
    """Development scene 7950: kingdoms cut by the left and right edges leave the mottled
    teal cloth on three sides only (its spread 8-10, just over one table colour's), while a
    score pad fills one corner with one tight colour. The cloth is the table, not the pad."""
    _, model, kingdoms = _modelled_scene(7950)
    assert model.joined[kingdoms == 0].mean() < 0.3 * 255  # 0.93 before: all but the pad stood out
    assert model.joined[kingdoms == 1].mean() > 0.7 * 255


def test_a_blue_cloth_is_table_though_its_white_dots_are_the_tighter_colour():
    """Development scene 9029: a deep blue cloth with white dots. The dots are one tight colour
    on all four sides; the blue, spread by the camera's noise (11-14), covers far more of the
    border. The blue is the table too, not only the dots."""
    scene, model, kingdoms = _modelled_scene(9029)
    assert scene.table == "patterned_cloth"
    assert model.joined[kingdoms == 0].mean() < 0.2 * 255  # was 0.88: the cloth stood out
    assert model.joined[kingdoms == 1].mean() > 0.7 * 255


@pytest.mark.parametrize("by_texture", [False, True])
def test_lake_tiles_on_a_blue_cloth_stand_out_from_it_by_texture(by_texture):
    """Development scene 9348: kingdoms with lake tiles on a blue checked cloth. By colour alone
    the lake tiles are the cloth (a tenth of their pixels marked) and its dark checks are not
    (14 % of the cloth marked); the pixel network tells them apart by texture and surroundings."""
    from lab.tables import make_table_scene

    scene = make_table_scene(9348)
    scale = min(1.0, WORK_LONG_SIDE / max(scene.image.shape[:2]))
    small = cv2.resize(scene.image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    model = table_model(small, by_texture=by_texture)
    lake, kingdoms = (np.zeros(model.not_table.shape, np.uint8) for _ in range(2))
    for kingdom in scene.kingdoms:
        n, corners = kingdom.size, np.float32(kingdom.corners * scale / 2)
        cv2.fillConvexPoly(kingdoms, np.int32(corners), 1)
        square = np.float32([[0, 0], [n, 0], [n, n], [0, n]])
        to_mask = cv2.getPerspectiveTransform(square, corners)
        for r, c in np.ndindex(n, n):
            if kingdom.labels[r][c].startswith("L"):
                inner = np.float32([[[c + a, r + b] for a, b in _INNER]])
                cv2.fillConvexPoly(lake, np.int32(cv2.perspectiveTransform(inner, to_mask)[0]), 1)
    assert lake.sum() > 1000
    lake_marked = model.not_table[lake > 0].mean() / 255
    cloth_marked = model.not_table[kingdoms == 0].mean() / 255
    assert (lake_marked > 0.7 and cloth_marked < 0.1) == by_texture


_INNER = ((0.15, 0.15), (0.85, 0.15), (0.85, 0.85), (0.15, 0.85))  # a cell less its rim


def test_the_pixel_network_must_read_the_features_the_code_computes():
    from vision.find.table import PIXEL_FEATURES, _pixel_network, _PixelNetwork

    network = _pixel_network()
    n = len(PIXEL_FEATURES)
    assert network.mean.shape == (n,) and network.hidden_weights.shape[0] == n
    with pytest.raises(ValueError, match="features"):
        _PixelNetwork(
            *(
                np.zeros(shape, np.float32)
                for shape in [(n - 1,), (n - 1,), (n - 1, 4), (4,), (4, 1), (1,)]
            )
        )


def test_both_models_measure_the_border_colours_once(aau_board, monkeypatch):
    """The colour and the texture model share their first pass's distance to the border's
    colours: three measurements for the two (one shared, one second pass each), and each
    model the same as when made alone."""
    from vision.find import table as table_module

    photo = table("wood", 900, 1200, seed=2)
    lay(photo, aau_board(1), 350, 200)
    alone = table_model(photo), table_model(photo, by_texture=True)
    measured = []
    real_distance = table_module._table_distance

    def counting(*args):
        measured.append(args[2] is not None)  # by the photo's sides: the first pass
        return real_distance(*args)

    monkeypatch.setattr(table_module, "_table_distance", counting)
    models = table_module.TableModels(photo)
    both = models.by_colour, models.by_texture
    assert measured == [True, False, False]
    for made, own in zip(both, alone, strict=True):
        assert np.array_equal(made.not_table, own.not_table)
        assert np.array_equal(made.joined, own.joined)


def test_the_pixel_network_judges_a_photo_with_one_hidden_layer_in_memory():
    """``unlike_table`` works in place: one (pixels × hidden) array at a time, not three (fresh
    memory costs a CLI run its page faults). The answer is that of the plain formula."""
    import tracemalloc

    from vision.find.table import DISTANCE_FEATURE, TableModels, _PixelJudge, _scaled

    rng = np.random.default_rng(4)
    small = rng.integers(0, 256, (400, 300, 3), np.uint8)
    models = TableModels(small)
    judge = _PixelJudge(models._lab, models._lab[..., 0])
    _, distance = models._border
    net, k = judge._net, DISTANCE_FEATURE
    standard = (_scaled(distance).reshape(-1, 1) - net.mean[k]) / net.scale[k]
    hidden = np.maximum(judge._hidden + standard * net.hidden_weights[k], 0)
    expected = (hidden @ net.out_weights + net.out_bias).reshape(judge._shape) > 0
    del hidden
    tracemalloc.start()
    unlike = judge.unlike_table(distance)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    np.testing.assert_array_equal(unlike, expected)
    assert peak < 1.5 * judge._hidden.nbytes


def test_the_texture_model_begun_in_a_helper_thread_is_the_one_made_when_asked(
    aau_board, monkeypatch
):
    """``begin_by_texture`` makes the pixel network's model in the helper thread while the
    caller goes on; asked for, it is the model made in the caller's thread, array for array.
    Without a helper it is made when asked."""
    import threading
    from concurrent.futures import ThreadPoolExecutor

    from vision.find import table as table_module

    photo = table("wood", 900, 1200, seed=2)
    lay(photo, aau_board(1), 350, 200)
    made_in = []
    real = table_module.TableModels._texture_model

    def recording(self):
        made_in.append(threading.current_thread().name)
        return real(self)

    monkeypatch.setattr(table_module.TableModels, "_texture_model", recording)
    begun = table_module.TableModels(photo)
    with ThreadPoolExecutor(1, "helper") as helper:
        begun.begin_by_texture(helper)
        begun.begin_by_texture(helper)  # once only
        in_thread = begun.by_texture
    asked = table_module.TableModels(photo).by_texture
    assert made_in == ["helper_0", "MainThread"]
    assert np.array_equal(in_thread.not_table, asked.not_table)
    assert np.array_equal(in_thread.joined, asked.joined)
    alone = table_module.TableModels(photo)
    alone.begin_by_texture(None)
    assert np.array_equal(alone.by_texture.not_table, asked.not_table)
    assert made_in[2:] == ["MainThread"]
