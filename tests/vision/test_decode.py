"""Joint decoding with the real dominoes (vision.decode, through CellReadings)."""

from __future__ import annotations

import numpy as np
import pytest

from scoring.board import Board, Cell, Terrain, parse_board
from scoring.tileset import check_game, check_kingdom, dominoes, kinds_in_set
from vision.cells import CellReadings
from vision.decode import decode_board, decode_game, label_log_probs
from vision.labels import CROWN_CLASSES, TERRAINS


def random_kingdom(size: int, seed: int, holes: int = 0, tiles=None) -> Board:
    """A kingdom of distinct real dominoes (from ``tiles``, all 48 by default): castle in the
    middle, a random domino tiling; ``holes`` whole dominoes taken away."""
    return tiled_kingdom(size, seed, holes, tiles)[0]


def tiled_kingdom(size: int, seed: int, holes: int = 0, tiles=None):
    """``random_kingdom`` and its dominoes as {cell: partner cell}."""
    rng = np.random.default_rng(seed)
    middle = size // 2
    grid: list[list[Cell | None]] = [[None] * size for _ in range(size)]
    grid[middle][middle] = Cell(Terrain.CASTLE, 0)
    tiles = list(dominoes() if tiles is None else tiles)
    rng.shuffle(tiles)
    partner: dict[tuple[int, int], tuple[int, int]] = {}

    def tile(pos: int) -> bool:
        while pos < size * size and grid[pos // size][pos % size] is not None:
            pos += 1
        if pos == size * size:
            return True
        r, c = divmod(pos, size)
        moves = [(r, c + 1), (r + 1, c)]
        rng.shuffle(moves)
        for r2, c2 in moves:
            if r2 < size and c2 < size and grid[r2][c2] is None and tiles:
                domino = tiles.pop()
                a, b = (domino.first, domino.second)
                if rng.random() < 0.5:
                    a, b = b, a
                grid[r][c], grid[r2][c2] = a, b
                partner[(r, c)], partner[(r2, c2)] = (r2, c2), (r, c)
                if tile(pos + 1):
                    return True
                grid[r][c] = grid[r2][c2] = None
                tiles.append(domino)
        return False

    assert tile(0)
    board = Board(tuple(tuple(row) for row in grid))
    outline = [(0, c) for c in range(size)] + [(size - 1, c) for c in range(size)]
    for cell in outline[:: max(1, len(outline) // max(holes, 1))][:holes]:
        if board[cell].terrain.is_land:
            for r, c in (cell, partner[cell]):
                board = board.replace(r, c, Cell(Terrain.EMPTY, 0))
    return board, partner


def probabilities(board: Board, sure: float = 0.9) -> tuple[np.ndarray, np.ndarray]:
    """Model-like probabilities whose first choice is ``board``: ``sure`` on the truth."""
    size = board.size
    terrain = np.full((size, size, len(TERRAINS)), (1 - sure) / (len(TERRAINS) - 1))
    crowns = np.full((size, size, CROWN_CLASSES), (1 - sure) / (CROWN_CLASSES - 1))
    for r, c, cell in board.iter_cells():
        terrain[r, c, TERRAINS.index(cell.terrain)] = sure
        crowns[r, c, cell.crowns] = sure
    return terrain, crowns


def misread(terrain, crowns, r, c, cell: Cell, share: float = 0.55):
    """Make the model prefer ``cell`` at (r, c), the truth a close second."""
    terrain, crowns = terrain.copy(), crowns.copy()
    truth_t, truth_c = terrain[r, c].argmax(), crowns[r, c].argmax()
    terrain[r, c] = 0.0
    terrain[r, c, truth_t] = 1 - share
    terrain[r, c, TERRAINS.index(cell.terrain)] += share
    crowns[r, c] = 0.0
    crowns[r, c, truth_c] = 1 - share
    crowns[r, c, cell.crowns] += share
    return terrain, crowns


@pytest.mark.parametrize("size,seed", [(5, 1), (5, 2), (7, 3), (7, 4)])
def test_a_right_board_is_never_changed(size, seed):
    board = random_kingdom(size, seed)
    readings = CellReadings(*probabilities(board, sure=0.6), 0.5)
    assert readings.board == board == readings.model_board
    assert not readings.corrected.any() and readings.corrected.shape == (size, size)
    assert "nothing changed" in readings.decoding


def test_a_hole_read_as_a_hole_stays():
    board = random_kingdom(5, 5, holes=2)
    assert sum(cell.terrain is Terrain.EMPTY for _, _, cell in board.iter_cells()) == 4
    readings = CellReadings(*probabilities(board), 0.5)
    assert readings.board == board and not readings.corrected.any()


@pytest.mark.parametrize("seed", range(6))
def test_an_impossible_reading_gets_the_consistent_one(seed):
    board = random_kingdom(5, seed)
    terrain, crowns = probabilities(board)
    # Find a one-cell misreading that no set of real dominoes can build.
    rng = np.random.default_rng(seed)
    land = [(r, c) for r, c, cell in board.iter_cells() if cell.terrain.is_land]
    for index in rng.permutation(len(land)):
        r, c = land[index]
        wrong = (
            Cell(Terrain.MINE, 3)
            if board[r, c] != Cell(Terrain.MINE, 3)
            else Cell(Terrain.WHEAT, 0)
        )
        if check_kingdom(board.replace(r, c, wrong)):
            break
    readings = CellReadings(*misread(terrain, crowns, r, c, wrong), 0.5)
    assert readings.model_board[r, c] == wrong  # the model alone reads it wrong
    assert readings.board == board
    assert readings.corrected.sum() == 1 and readings.corrected[r, c]
    assert "row" in readings.decoding and "M3" in readings.decoding or "W0" in readings.decoding
    cells = readings.cells_json()
    assert [cell["corrected"] for cell in cells].count(True) == 1
    corrected = cells[r * 5 + c]
    assert corrected["corrected"] and (corrected["terrain"], corrected["crowns"]) == (
        board[r, c].terrain.value,
        board[r, c].crowns,
    )
    assert (corrected["model_terrain"], corrected["model_crowns"]) == (
        wrong.terrain.value,
        wrong.crowns,
    )
    unchanged = [cell for cell in cells if not cell["corrected"]]
    assert all(
        (cell["model_terrain"], cell["model_crowns"]) == (cell["terrain"], cell["crowns"])
        for cell in unchanged
    )


def test_a_misplaced_castle_moves_back():
    board = random_kingdom(5, 7)
    terrain, crowns = probabilities(board)
    castle = TERRAINS.index(Terrain.CASTLE)
    # The cell above the castle looks a little more like the castle than the castle itself
    # (a 3D figure leaning into it).
    terrain[1, 2] = terrain[1, 2] * 0.3
    terrain[1, 2, castle] = 0.7
    terrain[1, 2] /= terrain[1, 2].sum()
    terrain[2, 2] = terrain[2, 2] * 0.0 + 0.05
    terrain[2, 2, castle] = 0.4
    terrain[2, 2] /= terrain[2, 2].sum()
    readings = CellReadings(terrain, crowns, 0.5)
    assert readings.model_board.castle == (1, 2)
    assert readings.board == board and readings.board.castle == (2, 2)


def hidden_crown_beside_wheat() -> tuple[Board, tuple[int, int]]:
    """A kingdom with a crowned forest half on a domino with plain wheat (the set has four such
    dominoes) whose plain forest-and-wheat domino (the set has one) is still in the box."""
    forest_wheat = (Cell(Terrain.WHEAT, 0), Cell(Terrain.FOREST, 0))
    for seed in range(200):
        board, partner = tiled_kingdom(5, seed)
        laid = {frozenset((board[a], board[b])) for a, b in partner.items()}
        if frozenset(forest_wheat) in laid:
            continue
        for cell, other in partner.items():
            if board[cell] == Cell(Terrain.FOREST, 1) and board[other] == forest_wheat[0]:
                return board, cell
    raise AssertionError("no such kingdom in 200 seeds")


@pytest.mark.parametrize("no_crown,decoded_crowns", [(0.6, 1), (0.8, 0)])
def test_a_crown_the_model_cannot_see_follows_the_set(no_crown, decoded_crowns):
    """The castle figure hides the crown of a forest half beside wheat; the model, seeing none,
    reads "no crown" 60/40. Four dominoes of the set are crowned forest with wheat and one is
    plain forest with wheat, so the decoded board takes the crown. Read 80/20, the model's own
    reading outweighs the count and stays."""
    board, (r, c) = hidden_crown_beside_wheat()
    terrain, crowns = probabilities(board)
    crowns[r, c] = (no_crown, 1 - no_crown, 0.0, 0.0)
    readings = CellReadings(terrain, crowns, 0.5)
    assert readings.model_board[r, c] == Cell(Terrain.FOREST, 0)
    assert readings.board[r, c] == Cell(Terrain.FOREST, decoded_crowns)
    assert readings.corrected[r, c] == (decoded_crowns == 1)


def all_leaning_to_wheat(board: Board) -> tuple[np.ndarray, np.ndarray]:
    """Every land cell leans to W0 (0.5 against the truth's 0.45): the set cannot build that."""
    wheat = TERRAINS.index(Terrain.WHEAT)
    terrain, crowns = probabilities(board, sure=0.45)
    for r, c, cell in board.iter_cells():
        if cell.terrain.is_land and cell.terrain is not Terrain.WHEAT:
            terrain[r, c, wheat] = 0.5
            crowns[r, c, 0] = max(crowns[r, c, 0], 0.5)
    terrain /= terrain.sum(axis=2, keepdims=True)
    crowns /= crowns.sum(axis=2, keepdims=True)
    return terrain, crowns


def test_domino_counts_bind():
    """A buildable board comes back, at least as probable as the real kingdom (which is one
    of the candidates), although every cell is ambiguous."""
    truth = random_kingdom(5, 11)
    terrain, crowns = all_leaning_to_wheat(truth)
    model = CellReadings(terrain, crowns, 0.5, joint_decoding=False)
    assert check_kingdom(model.board)  # the model alone: not buildable
    t, c, _ = model._decision
    # A generous time limit: the test is about the answer, not the speed on a busy machine.
    decoded = decode_board(terrain, crowns, t, c, time_limit=30.0)
    board = _board(decoded.terrain, decoded.crowns)
    assert check_kingdom(board) == ()
    lp = label_log_probs(terrain, crowns)
    assert _score(lp, board) >= _score(lp, truth) - 1e-9
    assert decoded.corrected.any() and decoded.status == "corrected"


def test_running_out_of_time_keeps_the_model_reading_with_a_warning():
    board = random_kingdom(5, 11)
    terrain, crowns = all_leaning_to_wheat(board)
    model = CellReadings(terrain, crowns, 0.5, joint_decoding=False)
    t, c, _ = model._decision
    decoded = decode_board(terrain, crowns, t, c, node_budget=3, time_limit=0.0)
    assert decoded.status == "kept" and "ran out of time" in decoded.note
    assert np.array_equal(decoded.terrain, t) and not decoded.corrected.any()


def test_nothing_close_keeps_the_model_reading_with_a_warning():
    wheat, castle = TERRAINS.index(Terrain.WHEAT), TERRAINS.index(Terrain.CASTLE)
    terrain = np.full((5, 5, len(TERRAINS)), 1e-4)
    terrain[..., wheat] = 1.0
    terrain[2, 2, castle] = 2.0
    terrain /= terrain.sum(axis=2, keepdims=True)
    crowns = np.full((5, 5, CROWN_CLASSES), 1e-4)
    crowns[..., 0] = 1.0
    crowns /= crowns.sum(axis=2, keepdims=True)
    readings = CellReadings(terrain, crowns, 0.5)
    assert readings.board == readings.model_board
    assert not readings.corrected.any()
    assert "No reading close" in readings.decoding


# kd_czech_01 (../shared) as the reader once read it: six plain tiles taken for holes, confidently.
PLAIN_TILES_READ_AS_HOLES = """
G0 . . F0 .
F0 W1 G0 F0 F1
C . F0 F1 F0
. . F0 L0 L1
S2 S1 L1 L0 L0
"""


def test_a_reading_that_contradicts_itself_flags_its_holes_and_what_cannot_pair():
    board = parse_board(PLAIN_TILES_READ_AS_HOLES)
    terrain, crowns = probabilities(board, sure=0.999)
    readings = CellReadings(terrain, crowns, 0.5)
    assert readings.board == board  # nothing real dominoes can build is close: kept
    assert "No reading close" in readings.decoding
    holes = np.array([[cell.terrain is Terrain.EMPTY for cell in row] for row in board.cells])
    assert readings.uncertain[holes].all()  # every hole, however sure the model was
    # The cells the split fails on, with their neighbours: the swamps no neighbour pairs with.
    assert readings.uncertain[4, 0] and readings.uncertain[4, 1]
    assert not readings.uncertain[2, 0]  # never the castle
    assert not readings.uncertain[0, 0]  # a tile nothing speaks against stays as read


def test_a_reading_real_dominoes_build_flags_only_the_holes_no_table_confirms():
    board = random_kingdom(5, 7, holes=1)
    holes = np.array([[cell.terrain is Terrain.EMPTY for cell in row] for row in board.cells])
    assert holes.sum() == 2
    alone = CellReadings(*probabilities(board, sure=0.999), 0.5)
    assert alone.board == board
    assert np.array_equal(alone.uncertain, holes)  # a hole nothing but the model saw: a look
    confirmed = CellReadings(*probabilities(board, sure=0.999), 0.5, sure_holes=holes)
    assert confirmed.board == board and not confirmed.uncertain.any()


def test_when_decoding_mends_a_reading_even_a_sure_hole_is_marked():
    # Soft-wood evaluation scene 11028: decoding changed cells of a 7×7 framed off its castle,
    # and a grassland corner read as a hole the table "confirmed" was the one wrong cell left
    # unmarked. A reading that needed mending asks for a look at its holes too.
    board = random_kingdom(5, 7, holes=1)
    holes = np.array([[cell.terrain is Terrain.EMPTY for cell in row] for row in board.cells])
    terrain, crowns = probabilities(board, sure=0.999)
    confirmed = CellReadings(terrain, crowns, 0.5, sure_holes=holes)
    assert not confirmed.uncertain.any()
    r, c = next((r, c) for r, c, cell in board.iter_cells() if cell == Cell(Terrain.WHEAT, 0))
    mended = CellReadings(
        *misread(terrain, crowns, r, c, Cell(Terrain.WHEAT, 1), share=0.52), 0.5, sure_holes=holes
    )
    assert mended.corrected[r, c] and mended.board == board
    assert mended.uncertain[holes].all()


@pytest.mark.parametrize("slack,corrected", [(-0.1, False), (0.1, True)])
def test_how_far_decoding_may_stray_is_measured_in_the_models_probabilities(slack, corrected):
    """The set's counts rank the boards, but not how far one may be from the model's reading:
    with ``max_cost`` just under what the consistent board costs in the model's probabilities
    the model's reading is kept, although that board's counts would more than make up for it."""
    board = random_kingdom(5, 0)
    terrain, crowns = probabilities(board)
    r, c = next((r, c) for r, c, cell in board.iter_cells() if cell.terrain.is_land)
    wrong = Cell(Terrain.MINE, 3) if board[r, c] != Cell(Terrain.MINE, 3) else Cell(Terrain.LAKE, 0)
    terrain, crowns = misread(terrain, crowns, r, c, wrong)
    model_terrain, model_crowns = _model(terrain, crowns)
    lp = label_log_probs(terrain, crowns)
    cost = _score(lp, _board(model_terrain, model_crowns)) - _score(lp, board)
    decoded = decode_board(terrain, crowns, model_terrain, model_crowns, max_cost=cost + slack)
    assert (_board(decoded.terrain, decoded.crowns) == board) == corrected
    assert decoded.status == ("corrected" if corrected else "kept")


def _board(terrain: np.ndarray, crowns: np.ndarray) -> Board:
    return Board(
        tuple(
            tuple(Cell(TERRAINS[t], int(c)) for t, c in zip(t_row, c_row, strict=True))
            for t_row, c_row in zip(terrain, crowns, strict=True)
        )
    )


def _score(lp: np.ndarray, board: Board) -> float:
    from vision.decode import _halves

    index = {half: h for h, half in enumerate(_halves())}
    total = 0.0
    for r, c, cell in board.iter_cells():
        i = r * board.size + c
        t = TERRAINS.index(cell.terrain)
        if cell.terrain is Terrain.CASTLE:
            total += lp[i, len(index)]
        elif cell.terrain is Terrain.EMPTY:
            total += lp[i, len(index) + 1]
        else:
            total += lp[i, index[(t, cell.crowns)]]
    return total


def test_kingdoms_of_one_game_never_share_a_domino():
    """Two kingdoms from one set. The second one's model leans (0.7 against 0.3, more than the
    set's counts weigh) towards a domino the first kingdom surely holds and the set has once:
    alone it reads that domino; decoded with the first kingdom it takes its own."""
    tiles = list(dominoes())
    np.random.default_rng(0).shuffle(tiles)
    first = random_kingdom(5, 1, tiles=tiles[:12])  # a 5×5 kingdom uses all 12
    second, partner = tiled_kingdom(5, 2, tiles=tiles[12:24])
    once = [d.kind for d in tiles[:12] if kinds_in_set()[d.kind] == 1]
    (cell, other), kind = next(iter(partner.items())), once[0]
    terrain, crowns = probabilities(second)
    for (r, c), half in zip((cell, other), kind, strict=True):
        terrain, crowns = misread(terrain, crowns, r, c, half, share=0.7)
    alone = decode_board(terrain, crowns, *_model(terrain, crowns))
    assert alone.status == "unchanged"  # alone, the borrowed domino is a fine reading
    assert _board(alone.terrain, alone.crowns)[cell] == kind[0]
    first_probs = probabilities(first)
    readings = [(*first_probs, *_model(*first_probs)), (terrain, crowns, *_model(terrain, crowns))]
    together = decode_game(readings, time_limit=30.0)
    boards = [_board(d.terrain, d.crowns) for d in together]
    assert boards[0] == first
    assert check_game({"first": boards[0], "second": boards[1]}) == ()
    assert {boards[1][cell], boards[1][other]} != set(kind)  # the domino is not used twice
    assert together[1].corrected.any() and "others of the game" in together[1].note


def game_sharing_a_domino():
    """Two kingdoms of one set as the model reads them: the second leans (0.7) towards a domino
    the first surely holds and the set has once. Returns the two (terrain, crown) probability
    pairs, the first kingdom's board and the two cells of the second that borrow the domino."""
    tiles = list(dominoes())
    np.random.default_rng(0).shuffle(tiles)
    first = random_kingdom(5, 1, tiles=tiles[:12])
    second, partner = tiled_kingdom(5, 2, tiles=tiles[12:24])
    kind = next(d.kind for d in tiles[:12] if kinds_in_set()[d.kind] == 1)
    cell, other = next(iter(partner.items()))
    terrain, crowns = probabilities(second)
    for (r, c), half in zip((cell, other), kind, strict=True):
        terrain, crowns = misread(terrain, crowns, r, c, half, share=0.7)
    return probabilities(first), (terrain, crowns), first, (cell, other)


def test_readings_of_one_game_are_decoded_together():
    from vision.cells import decode_together

    first_probs, second_probs, first, cells = game_sharing_a_domino()
    alone = [CellReadings(*probs, 0.5) for probs in (first_probs, second_probs)]
    assert check_game({"a": alone[0].board, "b": alone[1].board}) != ()  # one domino twice
    together = decode_together(alone)
    assert together[0].board == first
    assert check_game({"a": together[0].board, "b": together[1].board}) == ()
    assert together[1].corrected[cells[0]] and "others of the game" in together[1].decoding
    # Without joint decoding a reading stays the model's own; one decodable reading stays alone.
    off = CellReadings(*second_probs, 0.5, joint_decoding=False)
    assert decode_together([alone[0], off])[1] is off
    assert decode_together([alone[1]])[0] is alone[1]


def _model(terrain, crowns):
    model = CellReadings(terrain, crowns, 0.5, joint_decoding=False)
    t, c, _ = model._decision
    return t, c


@pytest.mark.parametrize("seed", range(8))
def test_branch_and_bound_and_the_integer_program_agree(seed):
    """Two exact methods, one optimum: the search's proven best equals HiGHS's."""
    from vision.decode import _problem_of

    rng = np.random.default_rng(seed)
    board = random_kingdom(5, 100 + seed)
    terrain, crowns = probabilities(board, sure=0.6)
    terrain = terrain * rng.dirichlet(np.ones(len(TERRAINS)), (5, 5)) ** 0.5
    crowns = crowns * rng.dirichlet(np.ones(CROWN_CLASSES), (5, 5)) ** 0.5
    terrain /= terrain.sum(axis=2, keepdims=True)
    crowns /= crowns.sum(axis=2, keepdims=True)
    problem, _ = _problem_of(terrain, crowns, *_model(terrain, crowns))
    searched, _, _ = problem.search(-np.inf, 10**6)
    solved, _ = problem.solve_exactly(60.0)
    assert searched == pytest.approx(solved, abs=1e-6)


def _hole_read_as_wheat():
    """A kingdom with one domino missing: the model reads its first hole as W1 (0.9, a hole
    0.02) and the second as a hole (0.95), S0 its second choice. W1 + S0 is a real domino, and
    making the second cell a swamp costs the model's probabilities less than making the first a
    hole."""
    board = random_kingdom(5, 5, holes=1)
    first, second = [(r, c) for r, c, cell in board.iter_cells() if cell.terrain is Terrain.EMPTY]
    terrain, crowns = probabilities(board)
    wheat, swamp = TERRAINS.index(Terrain.WHEAT), TERRAINS.index(Terrain.SWAMP)
    empty = TERRAINS.index(Terrain.EMPTY)
    terrain[first] = 0.002
    terrain[first][wheat], terrain[first][empty] = 0.9, 0.02
    crowns[first] = 0.01
    crowns[first][1] = 0.97
    terrain[second] = 0.001
    terrain[second][empty], terrain[second][swamp] = 0.95, 0.04
    terrain /= terrain.sum(axis=2, keepdims=True)
    crowns /= crowns.sum(axis=2, keepdims=True)
    return board, first, second, terrain, crowns


def test_without_the_table_check_decoding_fills_a_hole_to_complete_a_domino():
    board, first, second, terrain, crowns = _hole_read_as_wheat()
    readings = CellReadings(terrain, crowns, 0.5)
    assert readings.board[first] == Cell(Terrain.WHEAT, 1)
    assert readings.board[second] == Cell(Terrain.SWAMP, 0)  # the old rule: filled


def test_a_hole_filled_to_complete_a_domino_is_flagged_with_the_tile_it_completes():
    """The W1 is read surely (0.87, over the 0.5 threshold), but it and the hole filled beside
    it stand or fall together: if that cell is a hole after all, a whole domino is missing and
    the W1 is a hole too. Both are flagged, not the changed cell alone."""
    board, first, second, terrain, crowns = _hole_read_as_wheat()
    readings = CellReadings(terrain, crowns, 0.5)
    assert readings.confidence[first] > 0.5
    assert readings.corrected[second] and not readings.corrected[first]
    flagged = {tuple(int(v) for v in cell) for cell in np.argwhere(readings.uncertain)}
    assert flagged == {first, second}
    # Tiles decoding changes between themselves are not holes filled: nothing more is flagged.
    other = random_kingdom(5, 9)
    terrain, crowns = misread(*probabilities(other), 2, 3, Cell(Terrain.MINE, 3), share=0.6)
    readings = CellReadings(terrain, crowns, 0.5)
    assert readings.corrected.any()
    assert readings._decoded.doubtful is None


def test_a_sure_hole_is_kept_and_flagged_not_filled_to_complete_a_domino():
    board, first, second, terrain, crowns = _hole_read_as_wheat()
    sure = np.zeros((5, 5), bool)
    sure[second] = True  # the model and the table check both call it a hole
    readings = CellReadings(terrain, crowns, 0.5, sure_holes=sure)
    assert readings.board[second].terrain is Terrain.EMPTY
    assert readings.board == board  # the wheat it wanted a partner for is a hole after all
    assert readings.corrected[first] and not readings.corrected[second]
    flagged = {tuple(int(v) for v in cell) for cell in np.argwhere(readings.uncertain)}
    assert flagged == {first, second}
    assert "kept as a hole" in readings.decoding and "S0" in readings.decoding
    cells = readings.cells_json()
    assert cells[second[0] * 5 + second[1]]["uncertain"]


def test_sure_holes_are_kept_when_kingdoms_are_decoded_together():
    board, first, second, terrain, crowns = _hole_read_as_wheat()
    sure = np.zeros((5, 5), bool)
    sure[second] = True
    other = random_kingdom(5, 6)
    decoded = decode_game(
        [
            (terrain, crowns, *_model(terrain, crowns), sure),
            (*probabilities(other), *_model(*probabilities(other))),
        ]
    )
    assert decoded[0].terrain[second] == TERRAINS.index(Terrain.EMPTY)
    assert decoded[0].doubtful[first] and decoded[0].doubtful[second]


def test_ranked_options_are_each_cells_dominoes_best_first_as_sorting_it_alone_gives():
    """The decoder's options, ranked in whole arrays, are those of sorting each cell's row on
    its own (ties in the same order, -inf and NaN left out)."""
    from vision.decode import _orientations, _ranked_options

    first, second, kind = _orientations()
    rng = np.random.default_rng(5)
    for size in (5, 7):
        pair = np.round(rng.normal(-5, 3, (size * size, len(first))), 1)  # ties
        pair[rng.random(pair.shape) < 0.6] = -np.inf
        pair[0, :3] = np.nan
        pair[1] = -np.inf  # a cell no domino fits
        expected = [
            [
                (float(pair[i, o]), int(kind[o]), int(first[o]), int(second[o]))
                for o in np.argsort(-pair[i])
                if pair[i, o] > -np.inf
            ]
            for i in range(len(pair))
        ]
        assert _ranked_options(pair, kind, first, second) == expected
        assert expected[1] == []
