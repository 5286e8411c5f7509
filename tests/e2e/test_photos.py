"""Photos in a real browser: a sample upload scored right, a corrupt file answered by a message."""

from pathlib import Path

from tests.e2e.conftest import expect, screenshot, set_name, total_of

SAMPLES = Path(__file__).resolve().parents[2] / "sample_images"


def upload(page, slot: int, path: Path | None = None, *, name: str = "", data: bytes = b""):
    chooser = page.locator(f".st-key-upload_5_{slot} input[type=file]")
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


def test_a_photo_of_a_table_scene_scores_right(page):
    set_name(page, 0, "Anna")
    upload(page, 0, SAMPLES / "synthetic-scene-12.jpg")
    expect(total_of(page, "Anna")).to_contain_text("51", timeout=20_000)
    page.get_by_text("What the app saw in synthetic-scene-12.jpg").click()
    expect(page.get_by_text("The grid found in the photo")).to_be_visible()
    screenshot(page, "photo-grid", top=page.get_by_text("What the app saw in"))


def test_a_corrupt_upload_is_answered_with_a_message(page):
    upload(page, 0, name="broken.jpg", data=b"\xff\xd8\xff\xe0 this is not really a photo")
    message = page.get_by_test_id("stAlertContentError").filter(
        has_text="Could not read broken.jpg"
    )
    expect(message).to_be_visible(timeout=20_000)
    expect(message).to_contain_text("by hand")
    expect(page.get_by_test_id("stException")).to_have_count(0)
