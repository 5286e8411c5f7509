"""The shipped model: its crown calibration (vision.model.reweight_crowns, lab.train's choice), its
second look and its second opinion."""

import json

import numpy as np
import pytest

from vision.model import load_model, reweight_crowns


def test_reweighting_tips_a_close_call_and_keeps_probabilities():
    probs = np.array([[0.0, 0.01, 0.6, 0.39], [0.9, 0.05, 0.04, 0.01]])
    out = reweight_crowns(probs, (1.0, 1.0, 1.0, 2.0))
    np.testing.assert_allclose(out.sum(axis=1), 1.0)
    assert out[0].argmax() == 3  # a close 2-vs-3 call moves to 3
    assert out[1].argmax() == 0  # a clear reading stays


def test_reweighting_checks_the_number_of_weights():
    with pytest.raises(ValueError, match="4 numbers"):
        reweight_crowns(np.ones((1, 4)) / 4, (1.0, 2.0))


def test_the_shipped_model_carries_its_calibration():
    info = load_model().info
    assert len(info.crown_weights) == 4 and all(w > 0 for w in info.crown_weights)
    assert 0.0 < info.uncertain_below < 1.0


def test_all_turns_reads_a_cell_the_same_whichever_way_it_lies(shared_dir):
    import cv2

    from vision.cells import cut_cells

    board = cv2.imread(str(shared_dir / "datasets" / "aau-boards" / "images" / "1.jpg"))
    crops = cut_cells(board, 5)[:6]
    model = load_model()
    terrain, crowns = model.predict(crops, all_turns=True)
    turned_terrain, turned_crowns = model.predict(np.rot90(crops, 1, axes=(1, 2)), all_turns=True)
    np.testing.assert_allclose(turned_terrain, terrain, atol=1e-5)
    np.testing.assert_allclose(turned_crowns, crowns, atol=1e-5)


def test_only_unsure_cells_get_a_second_look():
    from vision.cells import needs_second_look

    terrain = np.array([[0.99, 0.01] + [0.0] * 6, [0.5, 0.5] + [0.0] * 6])
    crowns = np.array([[0.98, 0.02, 0, 0], [0.98, 0.02, 0, 0]])
    assert needs_second_look(terrain, crowns).tolist() == [False, True]


def test_held_out_predictions_round_trip_and_mix_in_the_second_look(tmp_path):
    from lab.data import LabelledBoard, LabelledCrop
    from lab.train import OutOfFold

    rng = np.random.default_rng(0)
    blank = np.zeros((10, 10, 3), np.uint8)
    boards = [LabelledBoard("b", blank, np.zeros((5, 5), int), np.zeros((5, 5), int), 0)]
    crops = [LabelledCrop("c", blank, 1, 0, "g")]
    unsure = np.full(8, 1 / 8)  # a first look that is sure of nothing
    sure = np.eye(8)[0]
    probs = (
        np.tile(unsure, (1, 5, 5, 1)),
        np.tile(np.eye(4)[0], (1, 5, 5, 1)),
        rng.dirichlet(np.ones(8), 1),
        rng.dirichlet(np.ones(4), 1),
    )
    turned = (np.tile(sure, (1, 5, 5, 1)), probs[1], probs[2], probs[3])
    oof = OutOfFold.from_predictions(boards, np.zeros(1, int), crops, probs, turned=turned)
    oof.save(tmp_path / "oof.npz")
    loaded = OutOfFold.load(tmp_path / "oof.npz")
    np.testing.assert_array_equal(loaded.board_terrain_probs, probs[0])
    mixed = loaded.with_second_look()
    np.testing.assert_array_equal(mixed.board_terrain_probs, turned[0])  # the unsure cells
    first_look_only = OutOfFold.from_predictions(boards, np.zeros(1, int), crops, probs)
    np.testing.assert_array_equal(first_look_only.with_second_look().board_terrain_probs, probs[0])


def test_the_shipped_model_brings_its_second_opinion():
    assert load_model().networks == 2


def test_a_second_opinion_joins_only_the_second_look(shared_dir):
    import cv2

    from vision.cells import cut_cells
    from vision.model import META_FILE, MODEL_FILE, CellModel, _read_resource

    board = cv2.imread(str(shared_dir / "datasets" / "aau-boards" / "images" / "1.jpg"))
    crops = cut_cells(board, 5)[:6]
    pair = load_model()
    first = CellModel(_read_resource(MODEL_FILE), pair.info)
    second_file = json.loads(_read_resource(META_FILE))["second_opinion"]["file"]
    second = CellModel(_read_resource(second_file), pair.info)
    for got, alone in zip(pair.predict(crops), first.predict(crops), strict=True):
        np.testing.assert_allclose(got, alone, atol=1e-6)
    (terrain, crowns), (t1, c1), (t2, c2) = (
        m.predict(crops, all_turns=True) for m in (pair, first, second)
    )
    np.testing.assert_allclose(terrain, (t1 + t2) / 2, atol=1e-6)
    assert not np.allclose(t1, t2, atol=1e-6)  # two networks indeed, not one read twice
    np.testing.assert_allclose(crowns, c1, atol=1e-6)  # crowns are the first network's
    assert not np.allclose(c1, c2, atol=1e-6)


def test_the_model_loads_in_the_background_once(monkeypatch):
    """The pipeline starts loading the model while it finds the kingdom; the cells then get that
    one model, and once it is loaded no thread is started again."""
    import vision.model as model_module

    model_module._load_model_once.cache_clear()
    model_module.load_model_in_background()
    loaded = model_module.load_model()  # waits for the thread's load, not a second one
    assert model_module._load_model_once.cache_info().misses == 1

    def no_thread(*args, **kwargs):
        raise AssertionError("a loaded model is not loaded again")

    monkeypatch.setattr(model_module.threading, "Thread", no_thread)
    model_module.load_model_in_background()
    assert model_module.load_model() is loaded


class _CountingNet:
    """A network that passes each batch on and counts the crops it was asked about."""

    def __init__(self, net):
        self._net, self.crops, self.largest = net, 0, 0

    def setInput(self, blob):  # noqa: N802 (cv2.dnn.Net's name)
        self.crops += len(blob)
        self.largest = max(self.largest, len(blob))
        self._net.setInput(blob)

    def forward(self, names):
        return self._net.forward(names)


def test_the_second_look_reuses_the_first_networks_unturned_answer(shared_dir):
    """``predict_twice`` gives the numbers of a first look followed by ``predict(all_turns)`` on
    the unsure cells, bit for bit, without asking the first network about an unsure crop as it
    lies a second time."""
    import cv2

    from vision.cells import cut_cells, needs_second_look
    from vision.model import CellModel, _read_resource

    board = cv2.imread(str(shared_dir / "datasets" / "aau-boards" / "images" / "1.jpg"))
    crops = cut_cells(cv2.GaussianBlur(board, (0, 0), 3), 5)  # a blur leaves six cells unsure
    shipped = load_model()
    second = json.loads(_read_resource("cell_model.json"))["second_opinion"]["file"]
    model = CellModel(_read_resource("cell_model.onnx"), shipped.info, _read_resource(second))
    terrain, crowns = model.predict(crops)
    unsure = needs_second_look(terrain, crowns)
    assert 0 < unsure.sum() < len(crops)
    terrain[unsure], crowns[unsure] = model.predict(crops[unsure], all_turns=True)

    first, other = (_CountingNet(net) for net in model._nets)
    model._nets = [first, other]
    twice_terrain, twice_crowns = model.predict_twice(crops, needs_second_look)
    np.testing.assert_array_equal(twice_terrain, terrain)
    np.testing.assert_array_equal(twice_crowns, crowns)
    assert first.crops == len(crops) + 3 * unsure.sum()  # turns 90, 180, 270 only
    assert other.crops == 4 * unsure.sum()


def test_a_7x7_board_is_read_a_few_crops_per_pass_with_the_answers_of_one_pass(shared_dir):
    """The networks see FORWARD_CHUNK crops at a time (a first pass of all 49 spent a third of
    its time faulting in its buffers), and answer as one pass over all of them does."""
    import cv2

    from vision.cells import cut_cells
    from vision.model import FORWARD_CHUNK, CellModel, _read_resource

    board = cv2.imread(str(shared_dir / "datasets" / "aau-boards" / "images" / "2.jpg"))
    crops = cut_cells(board, 7)
    model = CellModel(_read_resource("cell_model.onnx"), load_model().info)
    net, names = model._nets[0], model._outputs[0]
    net.setInput(np.ascontiguousarray(crops.transpose(0, 3, 1, 2), dtype=np.float32) / 255.0)
    by_width = {output.shape[1]: output for output in net.forward(names)}
    counting = _CountingNet(net)
    model._nets = [counting]
    terrain, crowns = model.predict(crops)
    assert 1 < counting.largest <= FORWARD_CHUNK < len(crops)
    exp = np.exp(by_width[8] - by_width[8].max(axis=1, keepdims=True))
    np.testing.assert_array_equal(terrain, exp / exp.sum(axis=1, keepdims=True))
