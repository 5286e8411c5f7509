"""Photos in a real browser: a sample upload scored right, a corrupt file answered by a message."""

from pathlib import Path

from tests.app_boards import SAMPLES
from tests.e2e.conftest import (
    click_when_idle,
    enter_board_text,
    expect,
    screenshot,
    set_name,
    show_kingdom,
    total_of,
)


def upload(page, slot: int, path: Path | None = None, *, name: str = "", data: bytes = b""):
    chooser = page.locator(f".st-key-upload_{slot} input[type=file]")
    if path is not None:
        chooser.set_input_files(path)
    else:
        chooser.set_input_files(files=[{"name": name, "mimeType": "image/jpeg", "buffer": data}])


def test_a_straightened_sample_photo_scores_right(page):
    set_name(page, 0, "Anna")
    upload(page, 0, SAMPLES / "aau-board-1.jpg")
    expect(total_of(page, "Anna")).to_contain_text("51", timeout=20_000)
    expect(page.locator(".st-key-text_5_0 textarea")).to_have_value(
        (SAMPLES / "aau-board-1.txt").read_text()
    )
    screenshot(page, "photo-editor", top=page.get_by_role("heading", name="Kingdoms"))
    screenshot(page, "photo-result", top=page.get_by_role("heading", name="Result"))


def test_a_photo_stays_with_its_player_when_another_tab_was_open(page):
    upload(page, 0, SAMPLES / "aau-board-1.jpg")
    expect(total_of(page, "Player 1")).to_contain_text("51", timeout=20_000)
    show_kingdom(page, "Player 2")
    expect(page.locator(".st-key-text_5_1 textarea")).to_be_visible()
    show_kingdom(page, "Player 1")
    # Streamlit empties the uploader it did not draw; the app says where the kingdom came from.
    expect(page.get_by_text("Read from aau-board-1.jpg; upload another photo")).to_be_visible()
    expect(page.locator(".st-key-text_5_0 textarea")).to_have_value(
        (SAMPLES / "aau-board-1.txt").read_text()
    )
    expect(total_of(page, "Player 1")).to_contain_text("51")


def test_a_photo_of_a_table_scene_scores_right(page):
    set_name(page, 0, "Anna")
    upload(page, 0, SAMPLES / "synthetic-scene-12.jpg")
    expect(total_of(page, "Anna")).to_contain_text("51", timeout=20_000)
    click_when_idle(page, page.get_by_text("What the app saw in synthetic-scene-12.jpg"))
    expect(page.get_by_text("The grid found in the photo")).to_be_visible()
    screenshot(page, "photo-grid", top=page.get_by_text("What the app saw in"))


def test_a_corrupt_upload_is_answered_with_a_message(page):
    upload(page, 0, name="broken.jpg", data=b"\xff\xd8\xff\xe0 this is not really a photo")
    message = page.get_by_test_id("stAlertContentError").filter(
        has_text="Could not read broken.jpg"
    )
    expect(message).to_be_visible(timeout=20_000)
    expect(message).to_contain_text("take or export the photo again")
    expect(page.get_by_test_id("stException")).to_have_count(0)


# The kingdom's corners in synthetic-scene-12.jpg (1200×1600), from lab.synth's ground truth.
SCENE_12_CORNERS = [(707.5, 112.2), (1158.6, 887.2), (520.7, 1280.2), (6.6, 693.3)]


def test_tapping_the_four_corners_reads_the_kingdom_again(page):
    set_name(page, 0, "Anna")
    upload(page, 0, SAMPLES / "synthetic-scene-12.jpg")
    expect(total_of(page, "Anna")).to_contain_text("51", timeout=20_000)
    click_when_idle(page, page.locator(".st-key-fix_grid_5_0").get_by_text("The grid is wrong"))

    # Each tap reruns the page, and for a moment the old picture's iframe is still there beside
    # the new one: the newest is the one that takes the next tap.
    photo = page.locator(".st-key-corners_5_0 iframe").last.content_frame.locator("img")
    for number, (x, y) in enumerate(SCENE_12_CORNERS, start=1):
        expect(page.get_by_text(f"({number} of 4:")).to_be_visible()
        box = photo.bounding_box()
        photo.click(position={"x": x * box["width"] / 1200, "y": y * box["height"] / 1600})
    read_again = page.get_by_role("button", name="Read again from these corners")
    expect(read_again).to_be_visible()
    # Overwrite the board by hand first, so that the 51 below can only come from the new reading.
    enter_board_text(page, 0, "W0 W0 W0 W0 W0\n" * 2 + "W0 W0 C W0 W0\n" + "W0 W0 W0 W0 W0\n" * 2)
    expect(total_of(page, "Anna")).to_contain_text("15")
    click_when_idle(page, read_again)
    expect(total_of(page, "Anna")).to_contain_text("51", timeout=20_000)
