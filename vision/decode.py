"""Joint decoding: the most probable board that the real set of 48 dominoes could build.

The cell model reads each cell alone. A kingdom is more than 25 or 49 independent cells: it has
exactly one castle, each half carries only the crowns real halves of its terrain carry, and the
tiles split into adjacent pairs that are *distinct real dominoes* (a hole is a cell no domino
covers). ``decode_board`` finds, among all boards that satisfy this, the one with the highest
summed log-probability of its cells, and proves it the best:

- Labels per cell: the castle, a hole, or one of the 16 real halves (terrain and crowns), each
  scored ``log P(terrain) + log P(crowns)``. Halves far less likely than the cell's best half are
  dropped (``PRUNE_NATS``), which keeps the search small without touching plausible readings.
- Each domino laid also scores ``KIND_PRIOR_WEIGHT × log(how many the set has of its kind)``
  (against the set's average domino, so that a hole gains or loses nothing by it): a cell the
  model cannot read (a crown hidden behind the castle figure, say) takes the half that more real
  dominoes would put there. Four dominoes are forest-with-crown beside wheat and one is plain
  forest beside wheat, so a forest cell read 60/40 as no crown / one crown next to wheat is more
  likely the crowned one.
- An exact upper bound: a dynamic program over the cells in reading order with the usual
  "broken profile" of the next N cells already covered (a horizontal domino covers the next
  cell, a vertical one the cell below). It ignores how often each domino exists, so it bounds
  every completion from above.
- Branch and bound in the same order, following the bound's best choices first and counting
  each domino kind against the set; a branch is cut when its bound cannot beat the best board
  found. When the bound's own optimum uses no domino too often (the usual case) the first
  descent is optimal and proven.
- When the counts bind and the bound is far off (``QUICK_BUDGET`` nodes), the same problem as
  an integer program for HiGHS (``scipy.optimize.milp``), within ``MILP_SECONDS``.

A board far less probable than the model's own reading (``MAX_COST_NATS``), or no proof in
time, leaves the model's reading as it was, with a note saying so.

A hole is evidence too. A cell that the model and the photo's table check both call a hole
(``sure_holes``, from ``vision.holes.judge_holes``) is never made a tile to complete a domino:
when the best board would fill one, the board is decoded again with those cells kept as holes,
and the hole and the cells its domino would have joined are flagged (``Decoded.doubtful``), so
the user looks at them rather than trusting a filled-in tile. Any other cell read as a hole
that the board makes a tile is flagged with the tile its domino joins, for the same reason.
``decode_game`` decodes the kingdoms of one game together, so that no domino is used more often
than the set has it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cache

import numpy as np

from scoring.board import Cell, Terrain
from scoring.tileset import cover_kingdom, kinds_in_set, squares_in_set
from scoring.words import Message, msg, nmsg, where
from vision.labels import CROWN_CLASSES, TERRAINS

# Halves more than this many nats (a factor of about 1,100) below the cell's best half are not
# considered for that cell.
PRUNE_NATS = 7.0
# The most a consistent board may lose against the model's own reading before decoding gives
# up: a factor of e**9 ≈ 8,000, e.g. two cells each read 1 % against 99 % plus some slack.
MAX_COST_NATS = 9.0
# Half the log of the kind's count, not all of it: the model's probabilities already carry the
# frequencies of its training cells (real kingdoms), so the whole count would count them twice.
# On hard synthetic development scenes (lab.synth 5000-5799) 0.5 turned 7 boards right and 1
# wrong. A first form, the plain log count, made a two-hole gap a wheat domino (the set has two)
# in one more, and at weight 1.0 turned 10 boards right and 11 wrong.
KIND_PRIOR_WEIGHT = 0.5
_FLOOR = 1e-9  # probabilities are clipped here before the log: a model's "never" is not a proof
_NEVER = -1e6  # the score of a label ruled out (finite, so that sums stay numbers)
_TIE = 1e-9

_CASTLE = TERRAINS.index(Terrain.CASTLE)
_EMPTY = TERRAINS.index(Terrain.EMPTY)


@dataclass(frozen=True)
class Decoded:
    """The decoded board as label indices, and what decoding did.

    ``terrain`` (N, N) indexes ``TERRAINS``; ``crowns`` (N, N) 0–3; ``corrected`` (N, N) True
    where the board differs from the model's own first choice; ``note`` says what happened in
    one sentence; ``status`` is ``"unchanged"``, ``"corrected"`` or ``"kept"`` (decoding found
    nothing close enough, or ran out of steps, and left the model's reading).
    """

    terrain: np.ndarray
    crowns: np.ndarray
    corrected: np.ndarray
    note: str
    status: str
    nodes: int = 0
    # (N, N) True where decoding could not settle the cell: a sure hole the best board wanted
    # as a tile, or a cell read as a hole that it made one, and the cells its domino joins
    # (would have joined). None: no such cell.
    doubtful: np.ndarray | None = None


@cache
def _halves() -> tuple[tuple[int, int], ...]:
    """The real halves as (terrain index, crowns), in a fixed order."""
    return tuple(sorted((TERRAINS.index(cell.terrain), cell.crowns) for cell in squares_in_set()))


@cache
def _kinds() -> tuple[tuple[tuple[int, int], ...], tuple[int, ...]]:
    """Each domino kind as (half index, half index), and how many the set has of it."""
    index = {half: h for h, half in enumerate(_halves())}
    pairs, counts = [], []
    for (a, b), n in kinds_in_set().items():
        pairs.append(
            (
                index[(TERRAINS.index(a.terrain), a.crowns)],
                index[(TERRAINS.index(b.terrain), b.crowns)],
            )
        )
        counts.append(n)
    return tuple(pairs), tuple(counts)


@cache
def _kind_prior() -> np.ndarray:
    """Per domino kind, what laying one adds to a board's score (see KIND_PRIOR_WEIGHT): the log
    of its count against that of the set's average domino, so that the counts favour common
    kinds over rare ones but neither over a hole."""
    counts = np.array(_kinds()[1], float)
    average_domino = (counts * np.log(counts)).sum() / counts.sum()
    return KIND_PRIOR_WEIGHT * (np.log(counts) - average_domino)


def label_log_probs(terrain_probs: np.ndarray, crown_probs: np.ndarray) -> np.ndarray:
    """(N*N, 16 + 2) log-probabilities per cell: each real half, then the castle, then a hole."""
    t = np.log(np.clip(terrain_probs.reshape(-1, len(TERRAINS)), _FLOOR, 1.0))
    c = np.log(np.clip(crown_probs.reshape(-1, CROWN_CLASSES), _FLOOR, 1.0))
    halves = np.array(_halves())
    half_lp = t[:, halves[:, 0]] + c[:, halves[:, 1]]
    return np.concatenate([half_lp, t[:, [_CASTLE]], t[:, [_EMPTY]]], axis=1)


@cache
def _orientations() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every domino kind laid both ways: (half at the first cell, half at the second, kind)."""
    first, second, kind = [], [], []
    for k, (a, b) in enumerate(_kinds()[0]):
        for x, y in ((a, b), (b, a)) if a != b else ((a, b),):
            first.append(x)
            second.append(y)
            kind.append(k)
    return np.array(first), np.array(second), np.array(kind)


class _Problem:
    """One board's cells and candidate dominoes, and the search for its best consistent reading.

    Cells are numbered row by row (``i = row * size + col``). A domino at cell i lies to the
    right (``h``, with cell i + 1) or down (``v``, with cell i + size).
    """

    def __init__(self, size: int, lp: np.ndarray, allowed: np.ndarray):
        self.size, self.n = size, size * size
        self.lp = lp
        n_halves = len(_halves())
        self.castle_lp = lp[:, n_halves]
        self.empty_lp = lp[:, n_halves + 1]
        self.castle_col, self.empty_col = n_halves, n_halves + 1
        first, second, self.kind_of = _orientations()
        cells = np.arange(self.n)
        cols, rows = cells % size, cells // size
        # pair[d][i, o]: log-probability of the domino laid as orientation o on cell i and its
        # neighbour in direction d (-inf where the neighbour is off the board or a half pruned).
        self.pair = {}
        for direction, step, fits in (("h", 1, cols < size - 1), ("v", size, rows < size - 1)):
            other = np.minimum(cells + step, self.n - 1)
            score = lp[cells][:, first] + lp[other][:, second]
            ok = allowed[cells][:, first] & allowed[other][:, second] & fits[:, None]
            score = score + _kind_prior()[self.kind_of][None, :]
            self.pair[direction] = np.where(ok, score, -np.inf)
        self.available = list(_kinds()[1])

    def probability_of(self, labels: list[int]) -> float:
        """Summed log-probability of a labelling (lp columns per cell), without the counts."""
        return float(self.lp[np.arange(self.n), labels].sum())

    def bound(self) -> np.ndarray:
        """Upper bounds ``table[i, castle_used, mask]`` on the score of cells i.. onwards,
        ignoring how often each domino exists; ``mask`` bit b says cell i + b is already
        covered by an earlier domino ("broken profile" dynamic programming)."""
        size, n = self.size, self.n
        best = {d: p.max(axis=1) for d, p in self.pair.items()}
        masks = np.arange(1 << size)
        table = np.full((n + 1, 2, 1 << size), -np.inf)
        table[n, 1, 0] = 0.0
        shifted = masks >> 1
        covered = (masks & 1) == 1
        right_free = (masks & 2) == 0
        after_h, after_v = (masks | 2) >> 1, (masks | 1 << size) >> 1
        for i in range(n - 1, -1, -1):
            nxt = table[i + 1]
            free = nxt[:, shifted] + self.empty_lp[i]
            free[0] = np.maximum(free[0], nxt[1, shifted] + self.castle_lp[i])
            if best["h"][i] > -np.inf:
                horizontal = np.where(right_free, nxt[:, after_h] + best["h"][i], -np.inf)
                free = np.maximum(free, horizontal)
            if best["v"][i] > -np.inf:
                free = np.maximum(free, nxt[:, after_v] + best["v"][i])
            table[i] = np.where(covered, nxt[:, shifted], free)
        return table

    def solve_exactly(self, time_limit: float):
        """The same problem as an integer program (``_solve_together``): (score, labels) when
        proven optimal, None when the time limit came first."""
        solved = _solve_together([self], time_limit)
        return None if solved is None else solved[0]

    def placements(self) -> list[tuple]:
        """Every candidate domino: (score, cell, other cell, kind, half there, half at other)."""
        first, second, _ = _orientations()
        out = []
        for direction, step in (("h", 1), ("v", self.size)):
            cells, orientation = np.nonzero(self.pair[direction] > -np.inf)
            for i, o in zip(cells.tolist(), orientation.tolist(), strict=True):
                out.append(
                    (self.pair[direction][i, o], i, i + step, self.kind_of[o], first[o], second[o])
                )
        return out

    def search(self, floor: float, budget: int):
        """Branch and bound: (score, labels per cell as lp columns or None, nodes visited).

        Only readings scoring above ``floor`` count; raises ``_OutOfSteps`` after ``budget``.
        """
        size, n = self.size, self.n
        bound = self.bound().tolist()
        first, second, _ = _orientations()
        options = {}  # options[d][i]: dominoes from cell i in direction d, best first
        for d, pair in self.pair.items():
            options[d] = _ranked_options(pair, self.kind_of, first, second)
        available = list(self.available)
        labels = [-1] * n
        found = {"score": floor, "labels": None}
        nodes = 0
        castle_lp, empty_lp = self.castle_lp.tolist(), self.empty_lp.tolist()

        def visit(i: int, mask: int, castle: int, score: float) -> None:
            nonlocal nodes
            nodes += 1
            if nodes > budget:
                raise _OutOfSteps
            while i < n and mask & 1:  # cells covered by an earlier domino
                i, mask = i + 1, mask >> 1
            if i == n:
                if castle and mask == 0 and score > found["score"] + _TIE:
                    found["score"], found["labels"] = score, labels.copy()
                return
            after = bound[i + 1]
            moves = []  # (bound, move)
            if not castle:
                moves.append((score + castle_lp[i] + after[1][mask >> 1], "castle"))
            moves.append((score + empty_lp[i] + after[castle][mask >> 1], "hole"))
            if options["h"][i] and not mask & 2:
                top = options["h"][i][0][0]
                moves.append((score + top + after[castle][(mask | 2) >> 1], "h"))
            if options["v"][i]:
                top = options["v"][i][0][0]
                moves.append((score + top + after[castle][(mask | 1 << size) >> 1], "v"))
            moves.sort(reverse=True)
            for limit, move in moves:
                if limit <= found["score"] + _TIE:
                    break
                if move == "castle":
                    labels[i] = self.castle_col
                    visit(i + 1, mask >> 1, 1, score + castle_lp[i])
                elif move == "hole":
                    labels[i] = self.empty_col
                    visit(i + 1, mask >> 1, castle, score + empty_lp[i])
                else:
                    j, next_mask = (
                        (i + 1, (mask | 2) >> 1)
                        if move == "h"
                        else (i + size, (mask | 1 << size) >> 1)
                    )
                    rest = after[castle][next_mask]
                    for pair_score, k, hi, hj in options[move][i]:
                        if score + pair_score + rest <= found["score"] + _TIE:
                            break  # sorted: none further can do better
                        if not available[k]:
                            continue
                        available[k] -= 1
                        labels[i], labels[j] = hi, hj
                        visit(i + 1, next_mask, castle, score + pair_score)
                        available[k] += 1
                    labels[j] = -1
            labels[i] = -1

        visit(0, 0, 0, 0.0)
        return found["score"], found["labels"], nodes


def _ranked_options(
    pair: np.ndarray, kind_of: np.ndarray, first: np.ndarray, second: np.ndarray
) -> list[list[tuple[float, int, int, int]]]:
    """Per cell (row of ``pair``, (cells, orientations)), its possible dominoes best first:
    (score, kind, half at the cell, half at the other), those scoring -inf left out.

    Ranked in whole arrays (each row sorted as ``np.argsort(-pair[i])`` sorts it alone, so ties
    keep the same order): one numpy comparison per orientation and cell was most of a decode.
    """
    order = np.argsort(-pair, axis=1)
    ranked = np.take_along_axis(pair, order, axis=1)
    # -inf (and NaN) sort after every finite score, so the first ``counts`` are the kept ones.
    counts = (ranked > -np.inf).sum(axis=1).tolist()
    scores, kinds = ranked.tolist(), kind_of[order].tolist()
    firsts, seconds = first[order].tolist(), second[order].tolist()
    return [
        list(zip(scores[i][:c], kinds[i][:c], firsts[i][:c], seconds[i][:c], strict=True))
        for i, c in enumerate(counts)
    ]


class _OutOfSteps(Exception):
    pass


def _solve_together(problems: list[_Problem], time_limit: float):
    """Boards decoded at once as one integer program solved by HiGHS (``scipy.optimize.milp``),
    sharing one set of dominoes: [(score, labels)] per board when proven optimal, else None.

    One binary per castle cell, hole cell and candidate domino placement; each cell covered
    once, one castle per board, each kind used at most as often as the set has it (over all
    boards together).
    """
    from scipy.optimize import Bounds, LinearConstraint, milp
    from scipy.sparse import coo_matrix

    kinds = len(_kinds()[1])
    gains, rows, cols, layout = [], [], [], []
    var = row = 0
    for problem in problems:
        n = problem.n
        placements = problem.placements()
        layout.append((var, n, placements))
        gains += [problem.castle_lp, problem.empty_lp, np.array([p[0] for p in placements])]
        for i in range(n):  # cover: castle_i + hole_i + dominoes on i = 1
            rows += [row + i, row + i]
            cols += [var + i, var + n + i]
        for v, (_, i, j, *_rest) in enumerate(placements):
            rows += [row + i, row + j]
            cols += [var + 2 * n + v] * 2
        rows += [row + n] * n  # one castle
        cols += list(range(var, var + n))
        var += 2 * n + len(placements)
        row += n + 1
    for start, n, placements in layout:  # domino counts, shared by every board
        for v, placement in enumerate(placements):
            rows.append(row + int(placement[3]))
            cols.append(start + 2 * n + v)
    gain = np.concatenate(gains)
    matrix = coo_matrix((np.ones(len(rows)), (rows, cols)), shape=(row + kinds, var))
    lower = np.concatenate([np.ones(row), np.zeros(kinds)])
    upper = np.concatenate([np.ones(row), np.array(_kinds()[1], float)])
    result = milp(
        -gain,
        constraints=LinearConstraint(matrix.tocsr(), lower, upper),
        integrality=np.ones(var),
        bounds=Bounds(0, 1),
        options={"time_limit": time_limit},
    )
    if result.status != 0 or result.x is None:
        return None
    chosen = result.x > 0.5
    out = []
    for problem, (start, n, placements) in zip(problems, layout, strict=True):
        labels = [-1] * n
        for i in np.flatnonzero(chosen[start : start + n]):
            labels[i] = problem.castle_col
        for i in np.flatnonzero(chosen[start + n : start + 2 * n]):
            labels[i] = problem.empty_col
        for v in np.flatnonzero(chosen[start + 2 * n : start + 2 * n + len(placements)]):
            _, i, j, _, hi, hj = placements[v]
            labels[i], labels[j] = int(hi), int(hj)
        own = chosen[start : start + 2 * n + len(placements)]
        out.append((float(gain[start : start + len(own)] @ own), labels))
    return out


# The branch and bound gets this many nodes (a few ms); real kingdoms need a few dozen. Past it
# (many cells ambiguous and the domino counts binding) the integer program takes over for at
# most MILP_SECONDS.
QUICK_BUDGET = 3_000
MILP_SECONDS = 0.2


def _problem_of(
    terrain_probs, crown_probs, model_terrain, model_crowns, holes_kept=None
) -> tuple[_Problem, float]:
    """The board's search problem and the model's own reading's score. ``holes_kept`` (N, N):
    cells that may only be holes."""
    size = terrain_probs.shape[0]
    lp = label_log_probs(terrain_probs, crown_probs)
    n_halves = len(_halves())
    half_lp = lp[:, :n_halves]
    allowed = half_lp >= half_lp.max(axis=1, keepdims=True) - PRUNE_NATS
    allowed = np.concatenate([allowed, np.ones((len(lp), 2), bool)], axis=1)
    model_score = _score_of(lp, model_terrain.ravel(), model_crowns.ravel())
    if holes_kept is not None and holes_kept.any():
        kept = holes_kept.ravel()
        allowed[kept, :n_halves] = False
        lp = lp.copy()
        lp[kept, n_halves] = _NEVER  # no castle there either
    return _Problem(size, lp, allowed), model_score


def _kept(model_terrain, model_crowns, note: Message, nodes: int) -> Decoded:
    """The model's own reading, kept because no board of real dominoes is close to it: a
    reading that contradicts itself, so the cells that could explain it are flagged
    (``contradiction_cells``) whatever the model's confidence."""
    unchanged = np.zeros(model_terrain.shape, bool)
    doubtful = contradiction_cells(model_terrain, model_crowns)
    return Decoded(
        model_terrain.copy(),
        model_crowns.copy(),
        unchanged,
        note,
        "kept",
        nodes,
        doubtful if doubtful.any() else None,
    )


def contradiction_cells(terrain: np.ndarray, crowns: np.ndarray) -> np.ndarray:
    """(N, N) bool: the cells of a board that real dominoes cannot build which could explain
    why: every cell read as a hole (a plain tile read as the table is the commonest misreading
    on real photos, kd_czech_01 and _04 in ../shared, and a hole is what breaks a domino in
    two), and the cells the split into real dominoes fails on (``scoring.tileset``: a cell no
    neighbour pairs with, or the cells of the kind that cannot all be paired), with their
    neighbours, which one misread tile leaves without a partner as often as itself.
    Fixing these cells is what makes the board one real dominoes can build."""
    board = _board_of_grid(terrain, crowns)
    doubtful = terrain == _EMPTY
    land = [(r, c) for r, c, cell in board.iter_cells() if cell.terrain.is_land]
    failed: list[tuple[int, int]] = []
    if len(land) % 2 == 0:
        result = cover_kingdom(board)
        failed = [land[i] for i in (*result.unpairable, *result.hardest)]
    size = terrain.shape[0]
    for r, c in failed:
        for dr, dc in ((0, 0), (-1, 0), (1, 0), (0, -1), (0, 1)):
            if 0 <= r + dr < size and 0 <= c + dc < size:
                doubtful[r + dr, c + dc] = terrain[r + dr, c + dc] != _CASTLE
    return doubtful


_NOTHING_CLOSE = msg(
    "No reading close to the model's splits into distinct real dominoes; the model's own "
    "reading is kept: check the flagged cells."
)
_OUT_OF_TIME = msg(
    "Joint decoding ran out of time before proving a reading from real dominoes; the model's "
    "own reading is kept: check the flagged cells."
)


def decode_board(
    terrain_probs: np.ndarray,
    crown_probs: np.ndarray,
    model_terrain: np.ndarray,
    model_crowns: np.ndarray,
    max_cost: float = MAX_COST_NATS,
    node_budget: int = QUICK_BUDGET,
    time_limit: float = MILP_SECONDS,
    sure_holes: np.ndarray | None = None,
) -> Decoded:
    """The most probable board real dominoes can build, or the model's own reading with a note.

    ``terrain_probs`` (N, N, 8) and ``crown_probs`` (N, N, 4) are the model's probabilities;
    ``model_terrain`` and ``model_crowns`` (N, N) its own first choice (one castle, crowns a
    real half carries), which is kept when decoding finds nothing within ``max_cost`` nats of
    it, or when neither ``node_budget`` search nodes nor ``time_limit`` seconds of the integer
    program prove a reading. ``sure_holes`` (N, N): cells the model and the table check both
    call a hole; the board never fills them (see the module's docstring).
    """
    args = (terrain_probs, crown_probs, model_terrain, model_crowns)
    decoded = _decode_alone(*args, max_cost, node_budget, time_limit)
    if sure_holes is None:
        return decoded
    filled = sure_holes & (decoded.terrain != _EMPTY)
    if not filled.any():
        return decoded
    kept = _decode_alone(*args, max_cost, node_budget, time_limit, holes_kept=sure_holes)
    return _with_holes_kept(kept, decoded, filled)


def _with_holes_kept(kept: Decoded, filling: Decoded, filled: np.ndarray) -> Decoded:
    """``kept`` (decoded with the sure holes kept) flagging the holes ``filling`` filled and the
    cells their dominoes there would have joined, and saying so."""
    partners = _domino_partners(filling.terrain, filling.crowns, filled)
    doubtful = filled | partners
    if kept.doubtful is not None:
        doubtful = doubtful | kept.doubtful
    wanted = [
        msg(
            "{cell} as {tile}",
            cell=where(r, c),
            tile=_name(filling.terrain[r, c], filling.crowns[r, c]),
        )
        for r, c in zip(*np.nonzero(filled), strict=True)
    ]
    others = [where(r, c) for r, c in zip(*np.nonzero(partners & ~filled), strict=True)]
    n = int(filled.sum())
    # Whole sentences (a translator never joins "a hole"/"holes", "it"/"them" to the rest).
    if others:
        shows_through = nmsg(
            "{note} The table shows through {n} cell read as a hole that a complete domino "
            "would need as a tile ({tiles}): kept as a hole; check it and {cells}.",
            "{note} The table shows through {n} cells read as a hole that a complete domino "
            "would need as a tile ({tiles}): kept as holes; check them and {cells}.",
            n,
            note=kept.note,
            n=n,
            tiles=wanted,
            cells=others,
        )
    else:
        shows_through = nmsg(
            "{note} The table shows through {n} cell read as a hole that a complete domino "
            "would need as a tile ({tiles}): kept as a hole; check it.",
            "{note} The table shows through {n} cells read as a hole that a complete domino "
            "would need as a tile ({tiles}): kept as holes; check them.",
            n,
            note=kept.note,
            n=n,
            tiles=wanted,
        )
    return replace(kept, doubtful=doubtful, note=shows_through)


def _domino_partners(terrain: np.ndarray, crowns: np.ndarray, cells: np.ndarray) -> np.ndarray:
    """(N, N) the cells that ``cells`` pair with in a split of the (consistent) board into real
    dominoes; none if it does not split."""
    index = {half: h for h, half in enumerate(_halves())}
    kinds = {frozenset(pair) for pair in _kinds()[0]}
    size = terrain.shape[0]
    halves = [
        index.get((int(t), int(c))) for t, c in zip(terrain.ravel(), crowns.ravel(), strict=True)
    ]
    partner = [-1] * (size * size)

    def split(i: int) -> bool:
        while i < size * size and (halves[i] is None or partner[i] >= 0):
            i += 1  # castle, hole, or covered already
        if i == size * size:
            return True
        for j in (i + 1 if (i + 1) % size else -1, i + size):
            free = 0 <= j < size * size and halves[j] is not None and partner[j] < 0
            if free and frozenset((halves[i], halves[j])) in kinds:
                partner[i], partner[j] = j, i
                if split(i + 1):
                    return True
                partner[i] = partner[j] = -1
        return False

    out = np.zeros(cells.shape, bool)
    if split(0):
        for i in np.flatnonzero(cells.ravel()):
            if partner[i] >= 0:
                out.flat[partner[i]] = True
    return out


def _decode_alone(
    terrain_probs,
    crown_probs,
    model_terrain,
    model_crowns,
    max_cost: float,
    node_budget: int,
    time_limit: float,
    holes_kept: np.ndarray | None = None,
) -> Decoded:
    size = terrain_probs.shape[0]
    problem, model_score = _problem_of(
        terrain_probs, crown_probs, model_terrain, model_crowns, holes_kept
    )
    # How far a board may stray from the model's reading is measured in the model's
    # probabilities; the search ranks boards with the set's counts added, which can take up to
    # `rare` off a board made of the set's rarest dominoes, so it looks that much further.
    floor = model_score - max_cost
    rare = (size * size // 2) * min(0.0, float(_kind_prior().min()))
    try:
        _, labels, nodes = problem.search(floor + rare, node_budget)
    except _OutOfSteps:
        # The bound that ignores how often each domino exists is far off: solve it as an
        # integer program instead, within a time limit.
        solved = problem.solve_exactly(time_limit)
        if solved is None:
            return _kept(model_terrain, model_crowns, _OUT_OF_TIME, node_budget)
        (_, labels), nodes = solved, node_budget
    if labels is None or problem.probability_of(labels) < floor:
        return _kept(model_terrain, model_crowns, _NOTHING_CLOSE, nodes)
    return _decoded(labels, size, model_terrain, model_crowns, nodes)


def _decoded(
    labels, size, model_terrain, model_crowns, nodes: int, with_game: bool = False
) -> Decoded:
    """``with_game``: decoded together with the game's other kingdoms (the note says so)."""
    terrain, crowns = _labels_to_grid(labels, size)
    corrected = (terrain != model_terrain) | (crowns != model_crowns)
    if not corrected.any():
        note = (
            msg(
                "As read, this kingdom and the others of the game split into distinct real "
                "dominoes; nothing changed."
            )
            if with_game
            else msg("As read, the kingdom splits into distinct real dominoes; nothing changed.")
        )
        return Decoded(terrain, crowns, corrected, note, "unchanged", nodes)
    changes = [
        msg(
            "{cell} ({read} → {decoded})",
            cell=where(r, c),
            read=_name(model_terrain[r, c], model_crowns[r, c]),
            decoded=_name(terrain[r, c], crowns[r, c]),
        )
        for r, c in zip(*np.nonzero(corrected), strict=True)
    ]
    n = len(changes)
    if with_game:
        note = nmsg(
            "Changed {n} cell so that this kingdom and the others of the game split into "
            "distinct real dominoes: {changes}.",
            "Changed {n} cells so that this kingdom and the others of the game split into "
            "distinct real dominoes: {changes}.",
            n,
            n=n,
            changes=changes,
        )
    else:
        note = nmsg(
            "Changed {n} cell so that the kingdom splits into distinct real dominoes: {changes}.",
            "Changed {n} cells so that the kingdom splits into distinct real dominoes: {changes}.",
            n,
            n=n,
            changes=changes,
        )
    return Decoded(
        terrain,
        crowns,
        corrected,
        note,
        "corrected",
        nodes,
        _holes_filled(terrain, crowns, model_terrain),
    )


def _holes_filled(terrain: np.ndarray, crowns: np.ndarray, model_terrain: np.ndarray):
    """(N, N) the cells read as holes that the board made tiles, and the cells their dominoes
    join; None if none. A hole filled to complete a domino and the tile it completes stand or
    fall together: if the hole was one, so is the tile read beside it (a whole domino missing,
    its second cell misread), and only the first was changed, so both are flagged."""
    filled = (model_terrain == _EMPTY) & (terrain != _EMPTY)
    if not filled.any():
        return None
    return filled | _domino_partners(terrain, crowns, filled)


def decode_game(
    readings: Sequence[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]],
    max_cost: float = MAX_COST_NATS,
    time_limit: float = 1.0,
) -> tuple[Decoded, ...]:
    """Kingdoms of one game decoded together, so that no domino is used more often than the
    one set has it (in a two-player 7×7 game the two kingdoms use all 48).

    ``readings``: per kingdom (terrain probs, crown probs, model terrain, model crowns) as for
    ``decode_board``, and optionally its ``sure_holes``. Each kingdom is decoded alone first;
    only when those boards together need a domino too often is the game solved as one integer
    program, every sure hole kept a hole. Kingdoms whose own decoding kept the model's reading
    stay as they are. If the joint program finds nothing close, or no proof within
    ``time_limit`` seconds, the separate decodings are returned (the game check in
    ``scoring.tileset.check_game`` will then name the doubled domino).
    """
    readings = [(*reading, None)[:5] for reading in readings]
    alone = [decode_board(*r[:4], max_cost=max_cost, sure_holes=r[4]) for r in readings]
    decoded = [i for i, d in enumerate(alone) if d.status != "kept"]
    boards = [_board_of(d) for d in (alone[i] for i in decoded)]
    if len(decoded) < 2 or not _overuse(boards):
        return tuple(alone)
    problems, floors = [], []
    for i in decoded:
        problem, model_score = _problem_of(*readings[i])
        problems.append(problem)
        floors.append(model_score - max_cost)
    solved = _solve_together(problems, time_limit)
    if solved is None or sum(
        problem.probability_of(labels)
        for problem, (_, labels) in zip(problems, solved, strict=True)
    ) < sum(floors):
        return tuple(alone)
    out = list(alone)
    for i, (_, labels) in zip(decoded, solved, strict=True):
        terrain, crowns = readings[i][2], readings[i][3]
        together = _decoded(labels, terrain.shape[0], terrain, crowns, 0, with_game=True)
        doubtful = [d for d in (together.doubtful, alone[i].doubtful) if d is not None]
        out[i] = replace(together, doubtful=np.logical_or.reduce(doubtful) if doubtful else None)
    return tuple(out)


def _board_of(decoded: Decoded):
    return _board_of_grid(decoded.terrain, decoded.crowns)


def _board_of_grid(terrain: np.ndarray, crowns: np.ndarray):
    from scoring.board import Board

    return Board(
        tuple(
            tuple(
                Cell(TERRAINS[t], int(c) if TERRAINS[t].is_land else 0)
                for t, c in zip(t_row, c_row, strict=True)
            )
            for t_row, c_row in zip(terrain, crowns, strict=True)
        )
    )


def _overuse(boards) -> bool:
    """True when the boards together cannot be built from one set (scoring's game check)."""
    from scoring.tileset import check_game

    return bool(check_game({f"kingdom {k + 1}": board for k, board in enumerate(boards)}))


def _score_of(lp: np.ndarray, terrain: np.ndarray, crowns: np.ndarray) -> float:
    """Summed log-probability of a labelling given as terrain indices and crown counts."""
    index = {half: h for h, half in enumerate(_halves())}
    n_halves = len(index)
    total = 0.0
    for i, (t, c) in enumerate(zip(terrain.tolist(), crowns.tolist(), strict=True)):
        if t == _CASTLE:
            total += lp[i, n_halves]
        elif t == _EMPTY:
            total += lp[i, n_halves + 1]
        elif (t, c) in index:
            total += lp[i, index[(t, c)]]
        else:  # a half the set does not have: as unlikely as the floor allows
            total += 2 * np.log(_FLOOR)
    return total


def _labels_to_grid(labels: list[int], size: int) -> tuple[np.ndarray, np.ndarray]:
    halves = _halves()
    terrain = np.empty(size * size, int)
    crowns = np.zeros(size * size, int)
    for i, label in enumerate(labels):
        if label < len(halves):
            terrain[i], crowns[i] = halves[label]
        else:
            terrain[i] = _CASTLE if label == len(halves) else _EMPTY
    return terrain.reshape(size, size), crowns.reshape(size, size)


def _name(terrain: int, crowns: int) -> str:
    cell = Cell(TERRAINS[terrain], int(crowns) if TERRAINS[terrain].is_land else 0)
    return cell.token
