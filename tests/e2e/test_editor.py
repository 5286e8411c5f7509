"""The board editor in a real browser, on a desktop and on a 390×844 touch phone (issue 43).

Cells are buttons named by where they are and what they hold (``row 2, column 3: lake, 1 crown``),
so every check here reads the board as a screen reader would. A tap is answered in the page at
once; the board reaches the app after a short pause, and the text box and the result follow.
"""

from games.editing import blank_board, move_castle, paint
from scoring import Cell, Terrain, parse_board
from tests.app_boards import BOARD_51
from tests.e2e.conftest import (
    DEVICES,
    board_cell,
    cell_named,
    choose_brush,
    enter_board_text,
    expect,
    kingdom_choice,
    open_app,
    set_name,
    show_kingdom,
    tap,
    total_of,
    upload_photo,
    wait_for_app_run,
)
from ui.board_component import cell_name

FLAGGED = "button[aria-description^='flagged']"


def text_box(page, slot: int = 0):
    return page.locator(f".st-key-text_5_{slot} textarea")


def names_of(board_text: str) -> list[str]:
    """Every cell's accessible name for a board, as the editor must give them."""
    names = []
    for r, c, cell in parse_board(board_text).iter_cells():
        name = f"row {r + 1}, column {c + 1}: {cell_name(cell.terrain)}"
        if cell.crowns:
            name += f", {cell.crowns} crown{'' if cell.crowns == 1 else 's'}"
        names.append(name)
    return names


def test_paint_by_tap(device_page):
    page = device_page
    set_name(page, 0, "Anna")
    choose_brush(page, "Mine", 2)
    tap(page, board_cell(page, 1, 1))
    expect(cell_named(page, "row 1, column 1: mine, 2 crowns")).to_be_visible()
    tap(page, board_cell(page, 1, 2))
    expect(cell_named(page, "row 1, column 2: mine, 2 crowns")).to_be_visible()
    # Two mine cells side by side: one region of 2 cells × 4 crowns = 8, plus the Middle
    # Kingdom's 10 for the centred castle (Harmony needs a full kingdom).
    expect(text_box(page)).to_have_value(
        "M2 M2 . . .\n. . . . .\n. . C . .\n. . . . .\n. . . . .\n"
    )
    expect(total_of(page, "Anna")).to_contain_text("18")


def test_the_brush_offers_only_the_crowns_the_terrain_can_carry(device_page):
    page = device_page
    crowns = page.get_by_role("group", name="Brush: crowns").get_by_role("button")
    choose_brush(page, "Mine")
    expect(crowns).to_have_count(4)
    for count in range(4):
        expect(crowns.nth(count)).to_be_visible()
    choose_brush(page, "Wheat")
    expect(page.get_by_role("button", name="1 crown", exact=True)).to_be_visible()
    expect(page.get_by_role("button", name="2 crowns", exact=True)).to_be_hidden()
    expect(page.get_by_text("Wheat carries at most 1 crown")).to_be_visible()
    choose_brush(page, "Hole")
    expect(page.get_by_role("button", name="0 crowns", exact=True)).to_be_hidden()


def test_paint_by_keyboard(page):
    first = board_cell(page, 1, 1)
    first.focus()
    first.press("ArrowRight")
    second = board_cell(page, 1, 2)
    expect(second).to_be_focused()
    second.press("l")
    second.press("1")
    expect(cell_named(page, "row 1, column 2: lake, 1 crown")).to_be_visible()
    second.press("ArrowDown")
    below = board_cell(page, 2, 2)
    expect(below).to_be_focused()
    below.press("G")
    below.press("3")  # more than any grassland half carries: refused, in words
    expect(page.get_by_text("Grassland carries at most 2 crowns")).to_be_visible()
    below.press("2")
    expect(cell_named(page, "row 2, column 2: grassland, 2 crowns")).to_be_visible()
    below.press("ArrowLeft")
    board_cell(page, 2, 1).press("c")  # the castle moves here; its old cell becomes a hole
    expect(cell_named(page, "row 2, column 1: castle")).to_be_visible()
    expect(cell_named(page, "row 3, column 3: hole")).to_be_visible()
    # The same board as the app's own editing rules make (games.editing, which the page mirrors).
    board = paint(blank_board(5), 0, 1, Terrain.LAKE, 1)
    board = paint(paint(board, 1, 1, Terrain.GRASSLAND, 2), 1, 0, Terrain.CASTLE)
    assert board.to_text() == ". L1 . . .\nC G2 . . .\n. . . . .\n. . . . .\n. . . . .\n"
    expect(text_box(page)).to_have_value(board.to_text())


def test_move_the_castle_by_tapping_it_then_its_new_cell(device_page):
    page = device_page
    tap(page, cell_named(page, "row 3, column 3: castle"))
    expect(page.get_by_text("Now tap the cell where the castle belongs")).to_be_visible()
    tap(page, board_cell(page, 1, 1))
    expect(cell_named(page, "row 1, column 1: castle")).to_be_visible()
    expect(cell_named(page, "row 3, column 3: wheat")).to_be_visible()  # the brush: wheat, 0
    moved = move_castle(blank_board(5), 0, 0, Cell(Terrain.WHEAT, 0))
    assert moved.to_text() == "C . . . .\n. . . . .\n. . W0 . .\n. . . . .\n. . . . .\n"
    expect(text_box(page)).to_have_value(moved.to_text())


def test_the_text_box_and_the_board_agree(device_page):
    page = device_page
    enter_board_text(page, 0, BOARD_51)
    for name in names_of(BOARD_51):
        expect(cell_named(page, name)).to_be_visible()
    expect(total_of(page, "Player 1")).to_contain_text("51")
    choose_brush(page, "Swamp", 1)
    tap(page, board_cell(page, 5, 5))
    changed = BOARD_51.splitlines()
    changed[4] = " ".join([*changed[4].split()[:4], "S1"])
    expect(text_box(page)).to_have_value("\n".join(changed) + "\n")


def flagged_names(page) -> list[str]:
    return [cell.get_attribute("aria-label") for cell in page.locator(FLAGGED).all()]


def test_flags_are_cleared_one_by_one(device_page, blurred_photo):
    page = device_page
    upload_photo(page, 0, blurred_photo)
    expect(page.get_by_text("framed in magenta")).to_be_visible(timeout=30_000)
    expect(page.locator(FLAGGED).first).to_be_visible()
    wait_for_app_run(page)
    flagged = flagged_names(page)
    assert len(flagged) >= 3, flagged
    choose_brush(page, "Hole")
    for painted, name in enumerate(flagged[:2], start=1):
        tap(page, cell_named(page, name))
        # That cell only: every other flagged cell (the castle too) keeps its frame, in the
        # page at once and once the app has the board (its own list of cells to check).
        expect(page.locator(FLAGGED)).to_have_count(len(flagged) - painted)
        expect(checking(page, len(flagged) - painted)).to_be_visible()
        expect(page.locator(FLAGGED)).to_have_count(len(flagged) - painted)
    left = flagged_names(page)
    assert all(name.split(":")[0] in " ".join(left) for name in flagged[2:]), (flagged, left)
    # Right as read: the next one is confirmed as it is, not painted.
    tap(page, page.get_by_role("button", name="Right as read"))
    tap(page, cell_named(page, flagged[2]))
    expect(page.locator(FLAGGED)).to_have_count(len(flagged) - 3)
    expect(cell_named(page, flagged[2])).to_be_visible()  # still what the photo read
    expect(checking(page, len(flagged) - 3)).to_be_visible()
    expect(page.locator(FLAGGED)).to_have_count(len(flagged) - 3)


def checking(page, count: int):
    """The app's own warning naming how many cells are left to check."""
    cells = f"{count} cell{'' if count == 1 else 's'} ("
    return page.get_by_test_id("stAlertContentWarning").filter(has_text=f"Check {cells}").first


def test_a_reload_keeps_the_board_and_the_open_player(device_page, app_server):
    page = device_page
    set_name(page, 1, "Ben")
    show_kingdom(page, "Ben")
    choose_brush(page, "Forest", 1)
    tap(page, board_cell(page, 2, 4))
    expect(text_box(page, 1)).to_have_value(
        ". . . . .\n. . . F1 .\n. . C . .\n. . . . .\n. . . . .\n"
    )
    wait_for_app_run(page)
    page.reload()
    expect(kingdom_choice(page, "Ben")).to_be_checked(timeout=20_000)
    expect(cell_named(page, "row 2, column 4: forest, 1 crown")).to_be_visible()
    # One forest cell with its crown, and the Middle Kingdom's 10 (holes: no Harmony).
    expect(total_of(page, "Ben")).to_contain_text("11")


def test_a_burst_of_taps_is_one_board_for_the_app(page):
    """Taps faster than the pause all land: none is lost to the runs they cause."""
    choose_brush(page, "Wheat", 1)
    for column in range(1, 6):
        board_cell(page, 1, column).click()
    expect(text_box(page)).to_have_value(
        "W1 W1 W1 W1 W1\n. . . . .\n. . C . .\n. . . . .\n. . . . .\n"
    )
    for column in range(1, 6):
        expect(cell_named(page, f"row 1, column {column}: wheat, 1 crown")).to_be_visible()


def test_on_a_phone_the_whole_board_fits_the_screen_in_finger_sized_cells(browser, app_server):
    context = browser.new_context(**DEVICES["phone"])
    page = context.new_page()
    try:
        open_app(page, app_server.url)
        corner = board_cell(page, 5, 5)
        expect(corner).to_be_visible()
        box = corner.bounding_box()
        assert box["x"] + box["width"] <= DEVICES["phone"]["viewport"]["width"]
        assert box["width"] >= 44  # the smallest comfortable target for a finger
    finally:
        context.close()
