"""The shipped cell classifier: an ONNX network run with OpenCV's dnn module (no torch at run time).

``vision/models/cell_model.onnx`` takes a batch of CROP×CROP BGR crops scaled to 0–1 (NCHW
float32) and returns two logit arrays: terrain (batch, 8) in ``labels.TERRAINS`` order and crown
count (batch, 4). ``cell_model.json`` beside it holds the crop size, the class order it was trained
with and the confidence threshold below which a cell is flagged uncertain (chosen by
``lab.train`` from held-out folds). When the JSON names a ``second_opinion`` network (the same
recipe trained from another seed, ``lab.second_opinion``), the terrain of the cells the first
network is unsure of is read by both and their answers averaged.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from vision.labels import CROWN_CLASSES, TERRAINS

# The shipped networks' folder, read as files beside this module: importlib.resources would cost
# the CLI its import (tempfile, shutil, zipfile) for a package that is never run from a zip.
MODELS_DIR = Path(__file__).resolve().parent / "models"
MODEL_FILE = "cell_model.onnx"
META_FILE = "cell_model.json"


@dataclass(frozen=True)
class ModelInfo:
    crop: int
    terrains: tuple[str, ...]
    uncertain_below: float  # cells with confidence under this are flagged for the user to check
    # Scales each crown count's probability before renormalising (see ``reweight_crowns``).
    crown_weights: tuple[float, ...] = (1.0,) * CROWN_CLASSES


class CellModel:
    """Runs the network(s) on batches of crops. One instance per process (see ``load_model``)."""

    def __init__(self, onnx_bytes: bytes, info: ModelInfo, second_opinion: bytes | None = None):
        if info.terrains != tuple(t.value for t in TERRAINS):
            raise ValueError(f"model was trained for terrains {info.terrains}, code has {TERRAINS}")
        self.info = info
        self._nets = [
            cv2.dnn.readNetFromONNX(np.frombuffer(network, np.uint8))
            for network in (onnx_bytes, second_opinion)
            if network is not None
        ]
        self._outputs = [net.getUnconnectedOutLayersNames() for net in self._nets]
        # cv2.dnn.Net is not safe to call from two threads at once (the app may do that).
        self._lock = threading.Lock()

    @property
    def networks(self) -> int:
        """1, or 2 with a second opinion."""
        return len(self._nets)

    def predict(self, crops: np.ndarray, all_turns: bool = False) -> tuple[np.ndarray, np.ndarray]:
        """Probabilities for (B, CROP, CROP, 3) uint8 BGR crops: terrain (B, 8), crowns (B, 4).

        ``all_turns`` is the second look for cells the first was unsure of: the answers for the
        crops turned by 0, 90, 180 and 270 degrees averaged (crowns and tiles lie in any of the
        four orientations). With a second opinion the terrain is the mean of both networks: two
        networks trained alike from different seeds err on different cells, so their mean errs
        less than either (held-out cell-crops: 24 terrains wrong against 29 and 25), and reading
        only the unsure cells twice costs next to nothing. The crowns stay the first network's:
        averaged too they gained no crop and turned two synthetic one-crown cells plain.
        """
        self._check(crops)
        if len(crops) == 0:
            return np.zeros((0, len(TERRAINS))), np.zeros((0, CROWN_CLASSES))
        looks = self._looks(crops, 4 if all_turns else 1, len(self._nets) if all_turns else 1)
        return self._answer(*looks)

    def predict_twice(
        self, crops: np.ndarray, unsure: Callable[[np.ndarray, np.ndarray], np.ndarray]
    ) -> tuple[np.ndarray, np.ndarray]:
        """``predict(crops)``, with the cells ``unsure(terrain, crowns)`` picks (a (B,) bool
        array) replaced by ``predict(crops[unsure], all_turns=True)``: the same numbers.

        The first network's answer for an unsure crop as it lies (turn 0) is the first look's,
        taken from it instead of asked again: per crop, a forward pass gives the same answer bit
        for bit whatever else is in the batch, so this saves a forward pass per unsure cell.
        """
        self._check(crops)
        if len(crops) == 0:
            return self.predict(crops)
        first_terrain, first_crowns = self._looks(crops, 1, 1)
        terrain, crowns = self._answer(first_terrain, first_crowns)
        picked = unsure(terrain, crowns)
        if picked.any():
            turned = self._looks(
                crops[picked],
                4,
                len(self._nets),
                (first_terrain[0][:, picked], first_crowns[:, picked]),
            )
            terrain[picked], crowns[picked] = self._answer(*turned)
        return terrain, crowns

    def _check(self, crops: np.ndarray) -> None:
        crop = self.info.crop
        if crops.ndim != 4 or crops.shape[1:] != (crop, crop, 3) or crops.dtype != np.uint8:
            raise ValueError(
                f"crops must be (batch, {crop}, {crop}, 3) uint8, got {crops.shape} {crops.dtype}"
            )

    def _looks(
        self,
        crops: np.ndarray,
        turns: int,
        nets: int,
        unturned: tuple[np.ndarray, np.ndarray] | None = None,
    ) -> tuple[list[np.ndarray], np.ndarray]:
        """Per network, the terrain probabilities of each turn, (turns, B, 8); and the first
        network's crown probabilities, (turns, B, 4). ``unturned``: the first network's
        (1, B, 8) and (1, B, 4) for the crops as they lie, known already (not asked again)."""
        batch = np.concatenate([np.rot90(crops, k, axes=(1, 2)) for k in range(turns)])
        blob = np.ascontiguousarray(batch.transpose(0, 3, 1, 2), dtype=np.float32) / 255.0
        terrain, crowns = [], None
        with self._lock:
            for n, (net, names) in enumerate(
                zip(self._nets[:nets], self._outputs[:nets], strict=True)
            ):
                skip = len(crops) if n == 0 and unturned is not None else 0
                outputs = _forward_in_chunks(net, names, blob[skip:])
                asked = turns - (1 if skip else 0)
                by_width = {o.shape[1]: o.reshape(asked, len(crops), -1) for o in outputs}
                net_terrain = _softmax(by_width[len(TERRAINS)])
                if n == 0:  # the crowns are the first network's
                    crowns = _softmax(by_width[CROWN_CLASSES])
                    if skip:
                        net_terrain = np.concatenate([unturned[0], net_terrain])
                        crowns = np.concatenate([unturned[1], crowns])
                terrain.append(net_terrain)
        return terrain, crowns

    def _answer(
        self, terrain: list[np.ndarray], crowns: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """``_looks``' answers averaged over turns (and networks): terrain (B, 8), crowns (B, 4)."""
        terrain_mean = np.concatenate(terrain).mean(axis=0)
        return terrain_mean, reweight_crowns(crowns.mean(axis=0), self.info.crown_weights)


# Crops per forward pass. Each crop's answer is the same bit for bit whatever else is in the
# batch, and so is the time per crop once the network's buffers exist; but a process's first
# pass allocates them, and for 49 crops at once it faulted in some 26 MB of fresh memory. In
# chunks of 8 the buffers are a sixth of that (reading the 9 MP photo's cells in a fresh
# process: 5,800-8,300 page faults and 66-68 ms of CPU in one pass; 300 and 54-57 ms in
# chunks of 8, 1,100-1,600 and 57-63 ms in chunks of 16; the same once warm).
FORWARD_CHUNK = 8


def _forward_in_chunks(net, names, blob: np.ndarray) -> list[np.ndarray]:
    """``net.forward(names)`` of ``blob`` (B, 3, CROP, CROP), FORWARD_CHUNK crops at a time:
    each output (B, width), as one pass over the whole batch gives it."""
    parts = []
    for start in range(0, len(blob), FORWARD_CHUNK):
        net.setInput(blob[start : start + FORWARD_CHUNK])
        # Copies: a later pass may reuse the network's output buffers.
        parts.append([np.array(output, copy=True) for output in net.forward(names)])
    return [np.concatenate(outputs) for outputs in zip(*parts, strict=True)]


def reweight_crowns(crown_probs: np.ndarray, weights) -> np.ndarray:
    """Crown-count probabilities (..., 4) scaled per count by ``weights`` and renormalised.

    The network sees far fewer three-crown mines than two-crown ones (the set has one M3 and
    three M2) and leans towards the commoner count when unsure. ``lab.train`` picks weights
    that undo that lean on held-out cell-crops, and ships them with the model.
    """
    weights = np.asarray(weights, dtype=float)
    if weights.shape != (CROWN_CLASSES,):
        raise ValueError(f"crown weights must be {CROWN_CLASSES} numbers, got {weights.shape}")
    scaled = crown_probs * weights
    return scaled / scaled.sum(axis=-1, keepdims=True)


def _softmax(logits: np.ndarray) -> np.ndarray:
    shifted = np.exp(logits - logits.max(axis=-1, keepdims=True))
    return shifted / shifted.sum(axis=-1, keepdims=True)


def _read_resource(name: str) -> bytes:
    return (MODELS_DIR / name).read_bytes()


def load_model() -> CellModel:
    """The packaged model, loaded once per process, even when threads ask at the same moment
    (the app warms it up in the background while a first photo may already be read)."""
    with _LOAD_LOCK:
        return _load_model_once()


_LOAD_LOCK = threading.Lock()


def load_model_in_background() -> None:
    """Begin loading the packaged model in a thread, unless it is loaded already.

    OpenCV parses the networks without holding Python's lock, so a caller that will read cells
    after other work (the pipeline, after finding the kingdom) does not wait for them then.
    """
    if _load_model_once.cache_info().currsize == 0:
        threading.Thread(target=load_model, name="load_model").start()


@lru_cache(maxsize=1)
def _load_model_once() -> CellModel:
    meta = json.loads(_read_resource(META_FILE))
    info = ModelInfo(
        crop=int(meta["crop"]),
        terrains=tuple(meta["terrains"]),
        uncertain_below=float(meta["uncertain_below"]),
        crown_weights=tuple(float(w) for w in meta.get("crown_weights", (1.0,) * CROWN_CLASSES)),
    )
    second = meta.get("second_opinion")
    return CellModel(
        _read_resource(MODEL_FILE),
        info,
        _read_resource(second["file"]) if second else None,
    )
