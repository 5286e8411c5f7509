"""Read every cell of a straightened board: terrain and crown probabilities, the board, confidences.

A *straightened* board is a top-down image in which the N×N kingdom fills the frame (as in
``aau-boards``, or what ``vision.find`` produces from a photo). Each cell is cut out on the
regular grid, scaled to CROP×CROP and classified by the packaged model (``vision.model``).

    readings = classify_cells(image, 5)
    readings.board          # most probable scoring.Board real dominoes can build
    readings.uncertain      # (5, 5) bool: cells worth a second look
    readings.corrected      # (5, 5) bool: cells joint decoding changed (``vision.decode``)
    readings.decoding       # one sentence on what decoding did
    readings.cells_json()   # [{"row", "col", "terrain", "crowns", "confidence", "uncertain",
                            #   "corrected", "model_terrain", "model_crowns"}, ...]
    decode_together([a, b])  # the kingdoms of one game, sharing one domino set
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cached_property

import cv2
import numpy as np

from scoring.board import SIZES, Board, Cell, Terrain
from scoring.words import msg
from vision.decode import Decoded, decode_board, decode_game
from vision.labels import CROWN_CLASSES, TERRAINS

CROP = 64  # pixels per side of the crop the model sees
MIN_CELL_PX = 16  # below this a cell has too few pixels to tell a crown from a sheep

_CASTLE = TERRAINS.index(Terrain.CASTLE)
_EMPTY = TERRAINS.index(Terrain.EMPTY)
_MAX_CROWNS = np.array([t.max_crowns for t in TERRAINS])


def check_board_image(board_image: np.ndarray, size: int) -> None:
    """Raise ``ValueError`` saying what is wrong unless this is an HxWx3 uint8 N×N board."""
    if size not in SIZES:
        raise ValueError(f"size must be 5 or 7 (cells per side), got {size!r}")
    if not isinstance(board_image, np.ndarray):
        raise ValueError(f"board_image must be a numpy array, got {type(board_image).__name__}")
    if board_image.ndim != 3 or board_image.shape[2] != 3:
        raise ValueError(
            f"board_image must be an HxWx3 BGR image, got shape {board_image.shape}"
            " (convert grey or BGRA images with cv2.cvtColor first)"
        )
    if board_image.dtype != np.uint8:
        raise ValueError(f"board_image must be uint8, got {board_image.dtype}")
    height, width = board_image.shape[:2]
    if min(height, width) < size * MIN_CELL_PX:
        raise ValueError(
            f"board_image is {width}×{height} px: too small for {size}×{size} cells"
            f" (need at least {MIN_CELL_PX} px per cell, 40 or more recommended)"
        )


def cut_cells(board_image: np.ndarray, size: int) -> np.ndarray:
    """The N×N cells as crops, row by row: (N*N, CROP, CROP, 3) uint8.

    One resize of the whole board to N*CROP pixels, then slicing: the same pixels training saw
    (``lab.train`` cuts aau-boards cells with this function's resize first).
    """
    check_board_image(board_image, size)
    scaled = resize_board(board_image, size)
    crops = scaled.reshape(size, CROP, size, CROP, 3).transpose(0, 2, 1, 3, 4)
    return np.ascontiguousarray(crops.reshape(size * size, CROP, CROP, 3))


def resize_board(board_image: np.ndarray, size: int) -> np.ndarray:
    """The board scaled to exactly CROP pixels per cell."""
    side = size * CROP
    shrinking = board_image.shape[0] > side or board_image.shape[1] > side
    interpolation = cv2.INTER_AREA if shrinking else cv2.INTER_LINEAR
    return cv2.resize(board_image, (side, side), interpolation=interpolation)


@dataclass(frozen=True)
class CellReadings:
    """Per-cell probabilities for an N×N board and everything derived from them.

    ``terrain_probs[r, c, i]`` is the probability that cell (r, c) is ``TERRAINS[i]``;
    ``crown_probs[r, c, k]`` that it carries k crowns. ``uncertain_below`` is the confidence
    threshold (from the model's validation data) under which a cell is flagged.
    """

    terrain_probs: np.ndarray  # (N, N, 8) float
    crown_probs: np.ndarray  # (N, N, 4) float
    uncertain_below: float
    # Decode the board jointly with the real dominoes (``vision.decode``); False gives the
    # model's own per-cell choice (the evaluation compares the two).
    joint_decoding: bool = True
    # This kingdom's decoding together with the other kingdoms of its game (``decode_together``);
    # None decodes it alone.
    game_decoding: Decoded | None = None
    # The cells read again from their far half, beside a castle figure
    # (``vision.castle.read_far_halves``): a figure stands there, whatever they read now.
    far_half_cells: tuple[tuple[int, int], ...] = ()
    # (N, N) bool: cells the model and the photo's table check both call a hole
    # (``vision.holes.judge_holes``); decoding never fills them without flagging. None: no table.
    sure_holes: np.ndarray | None = None
    # (N, N) bool: cells flagged whatever their confidence, where the frame itself is in doubt
    # (a side of it that reads as table: ``vision.pipeline``). None: none.
    in_doubt: np.ndarray | None = None

    def __post_init__(self) -> None:
        size = self.terrain_probs.shape[0]
        if size not in SIZES or self.terrain_probs.shape != (size, size, len(TERRAINS)):
            raise ValueError(
                f"terrain_probs must be (N, N, 8), N 5 or 7; got {self.terrain_probs.shape}"
            )
        if self.crown_probs.shape != (size, size, CROWN_CLASSES):
            raise ValueError(
                f"crown_probs must be ({size}, {size}, 4), got {self.crown_probs.shape}"
            )

    @property
    def size(self) -> int:
        return self.terrain_probs.shape[0]

    @cached_property
    def _model_choice(self) -> tuple[np.ndarray, np.ndarray]:
        """The model's own first choice per cell: terrain index and crown count, (N, N) each.

        Exactly one castle: the most castle-like cell; every other cell takes its best
        non-castle terrain. Crowns are limited to what a real domino half of that terrain
        carries (no two-crown wheat).
        """
        terrain_probs = self.terrain_probs.reshape(-1, len(TERRAINS))
        crown_probs = self.crown_probs.reshape(-1, CROWN_CLASSES)
        without_castle = terrain_probs.copy()
        without_castle[:, _CASTLE] = -1.0
        terrain = without_castle.argmax(axis=1)
        castle_cell = int(terrain_probs[:, _CASTLE].argmax())
        terrain[castle_cell] = _CASTLE
        allowed = np.arange(CROWN_CLASSES)[None, :] <= _MAX_CROWNS[terrain][:, None]
        crowns = np.where(allowed, crown_probs, -1.0).argmax(axis=1)
        shape = (self.size, self.size)
        return terrain.reshape(shape), crowns.reshape(shape)

    @cached_property
    def _decoded(self) -> Decoded:
        terrain, crowns = self._model_choice
        if not self.joint_decoding:
            unchanged = np.zeros(terrain.shape, bool)
            note = msg("Joint decoding was not asked for.")
            return Decoded(terrain, crowns, unchanged, note, "off")
        if self.game_decoding is not None:
            return self.game_decoding
        return decode_board(
            self.terrain_probs, self.crown_probs, terrain, crowns, sure_holes=self.sure_holes
        )

    @cached_property
    def _decision(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Terrain index, crown count and confidence per cell of ``board``.

        Confidence is the probability of the chosen terrain times that of the chosen crown
        count (for castle and empty cells: the terrain's alone).
        """
        decoded = self._decoded
        return decoded.terrain, decoded.crowns, self._confidence_of(decoded.terrain, decoded.crowns)

    def _confidence_of(self, terrain: np.ndarray, crowns: np.ndarray) -> np.ndarray:
        terrain, crowns = terrain.ravel(), crowns.ravel()
        terrain_probs = self.terrain_probs.reshape(-1, len(TERRAINS))
        crown_probs = self.crown_probs.reshape(-1, CROWN_CLASSES)
        cells = np.arange(len(terrain))
        confidence = terrain_probs[cells, terrain]
        has_crowns = _MAX_CROWNS[terrain] > 0
        confidence = np.where(has_crowns, confidence * crown_probs[cells, crowns], confidence)
        return confidence.reshape(self.size, self.size)

    @property
    def corrected(self) -> np.ndarray:
        """(N, N) bool: cells where joint decoding changed the model's first choice."""
        return self._decoded.corrected

    @property
    def decoding(self) -> str:
        """One sentence on what joint decoding did (nothing, which cells it changed, or why
        it kept the model's reading)."""
        return self._decoded.note

    @property
    def model_confidence(self) -> np.ndarray:
        """(N, N) probability of the model's own first choice per cell."""
        return self._confidence_of(*self._model_choice)

    @cached_property
    def model_board(self) -> Board:
        """The model's own first choice per cell, before joint decoding."""
        return _to_board(*self._model_choice)

    @cached_property
    def board(self) -> Board:
        """The most probable board real dominoes can build (see ``vision.decode``)."""
        terrain, crowns, _ = self._decision
        return _to_board(terrain, crowns)

    @property
    def confidence(self) -> np.ndarray:
        """(N, N) probability of each cell's reading in ``board`` (0–1)."""
        return self._decision[2]

    @property
    def uncertain(self) -> np.ndarray:
        """(N, N) bool: cells whose reading is below the model's confidence threshold, cells
        decoding could not settle (a sure hole a domino would need as a tile, and its partner;
        the cells that could explain a reading that contradicts itself), holes the photo's
        table does not confirm, and cells ``in_doubt``."""
        uncertain = (self.confidence < self.uncertain_below) | self._unconfirmed_holes()
        doubtful = self._decoded.doubtful
        if doubtful is not None:
            uncertain = uncertain | doubtful
        return uncertain if self.in_doubt is None else uncertain | self.in_doubt

    def _unconfirmed_holes(self) -> np.ndarray:
        """(N, N) bool: the board's holes that are not sure holes (the model and the photo's
        table both calling them a hole, ``sure_holes``). Holes are rare at a game's end, and a
        plain tile read as a hole (by the art check where no table shows, or the model alone)
        takes Harmony and splits a region: a cell the user confirms is cheap beside a total
        that is silently wrong (kd_czech_01 and kd_czech_04 in ../shared lost 8 and 32 points
        so). Every hole, sure or not, when decoding had to change cells."""
        holes = self._decision[0] == _EMPTY
        if self.sure_holes is None or self._decoded.status == "corrected":
            # The model's own reading contradicted itself and decoding changed cells to mend
            # it: a hole is as likely the misread as the cells it changed, however sure the
            # table looked (soft-wood evaluation scene 11028: a 7×7 framed off its castle, a
            # grassland corner on the wood read as a sure hole, the only wrong cell unmarked).
            return holes
        return holes & ~self.sure_holes

    def cells_json(self) -> list[dict]:
        """One dict per cell, row by row, for the CLI's and app's JSON.

        ``model_terrain`` and ``model_crowns`` are the model's own first choice, which differs
        from ``terrain`` and ``crowns`` where ``corrected``.
        """
        model = self.model_board
        out = []
        for r, c, cell in self.board.iter_cells():
            out.append(
                {
                    "row": r,
                    "col": c,
                    "terrain": cell.terrain.value,
                    "crowns": cell.crowns,
                    "confidence": round(float(self.confidence[r, c]), 4),
                    "uncertain": bool(self.uncertain[r, c]),
                    "corrected": bool(self.corrected[r, c]),
                    "model_terrain": model[r, c].terrain.value,
                    "model_crowns": model[r, c].crowns,
                }
            )
        return out


def decode_together(readings: Sequence[CellReadings]) -> tuple[CellReadings, ...]:
    """The kingdoms of one game, decoded together so that no domino is used more often than the
    one set has it (``vision.decode.decode_game``); readings without joint decoding stay as
    they are."""
    decodable = [r for r in readings if r.joint_decoding]
    if len(decodable) < 2:
        return tuple(readings)
    decoded = iter(
        decode_game(
            [(r.terrain_probs, r.crown_probs, *r._model_choice, r.sure_holes) for r in decodable]
        )
    )
    return tuple(
        replace(r, game_decoding=next(decoded)) if r.joint_decoding else r for r in readings
    )


def _to_board(terrain: np.ndarray, crowns: np.ndarray) -> Board:
    size = terrain.shape[0]
    return Board(
        tuple(
            tuple(Cell(TERRAINS[terrain[r, c]], int(crowns[r, c])) for c in range(size))
            for r in range(size)
        )
    )


# A cell whose best terrain and crown count together score under this gets a second look: the
# network's answers averaged over the cell turned four ways. Few cells, so it costs little.
SECOND_LOOK_BELOW = 0.9


def needs_second_look(terrain_probs: np.ndarray, crown_probs: np.ndarray) -> np.ndarray:
    """(B,) bool: cells the first, single-orientation reading was not sure of."""
    return terrain_probs.max(axis=-1) * crown_probs.max(axis=-1) < SECOND_LOOK_BELOW


def classify_cells(board_image: np.ndarray, size: int, model=None) -> CellReadings:
    """Read an HxWx3 BGR uint8 straightened board of ``size``×``size`` cells.

    ``model`` is a ``vision.model.CellModel`` (the packaged one when None; evaluations pass
    the held-out fold models).
    """
    from vision.model import load_model

    model = model or load_model()
    crops = cut_cells(board_image, size)
    # The unsure cells' second look (``model.predict(crops[unsure], all_turns=True)``), made
    # without asking the first network again for the crops as they lie.
    terrain_probs, crown_probs = model.predict_twice(crops, needs_second_look)
    return CellReadings(
        terrain_probs.reshape(size, size, -1),
        crown_probs.reshape(size, size, -1),
        model.info.uncertain_below,
    )


def read_board_image(board_image: np.ndarray, size: int | None = None) -> CellReadings:
    """``classify_cells`` with the grid size found when not given.

    Without ``size`` the board is read as 5×5 and as 7×7 and the reading the model is more sure
    of wins (mean log-confidence): a wrong grid cuts through tiles, which the model has never
    seen as a cell. Costs a second pass; pass ``size`` when you know it.
    """
    if size is not None:
        return classify_cells(board_image, size)
    candidates = [classify_cells(board_image, n) for n in SIZES if _fits(board_image, n)]
    if not candidates:
        check_board_image(board_image, SIZES[0])  # raises the clear message
    # The model's own confidence, before decoding: a wrong grid is not worth decoding.
    return max(candidates, key=lambda r: float(np.mean(np.log(r.model_confidence + 1e-6))))


def _fits(board_image: np.ndarray, size: int) -> bool:
    try:
        check_board_image(board_image, size)
    except ValueError:
        return False
    return True
