"""Hostile player names in a real browser: shown literally, no request to the URL in a name and no
link disguised as a name (the audit saw 8 requests from one image name)."""

from tests.app_boards import BOARD_51, FOREST_16
from tests.e2e.conftest import (
    enter_board_text,
    expect,
    show_kingdom,
    total_of,
    wait_for_app_run,
)

IMAGE_NAME = "![x](http://127.0.0.1:9/t)"  # port 9 (discard): a request would be visible here
LINK_NAME = "[Ben](https://evil.example)"
# As shown: an invisible word joiner keeps Markdown from linking the bare URL (ui.text).
SHOWN_IMAGE = "![x](h\u2060ttp://127.0.0.1:9/t)"
SHOWN_LINK = "[Ben](h\u2060ttps://evil.example)"


def _name(page, slot: int, name: str) -> None:
    field = page.locator(f".st-key-setup_name_{slot} input")
    field.fill(name)
    field.press("Enter")
    # Not waiting for the new name to show: text typed while a rename is applied must survive
    # it (with keyed st.tabs it did not, under load: the renamed tabs were drawn afresh).
    wait_for_app_run(page)


def test_names_that_are_markdown_show_literally_and_load_nothing(page):
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    _name(page, 0, IMAGE_NAME)
    _name(page, 1, LINK_NAME)
    expect(page.get_by_text(f"{SHOWN_IMAGE}'s kingdom as board text")).to_be_attached()
    enter_board_text(page, 0, BOARD_51)
    expect(total_of(page, SHOWN_IMAGE)).to_contain_text("51", timeout=20_000)
    # A label holding a link could not be selected before the URL was unlinked.
    show_kingdom(page, SHOWN_LINK)
    enter_board_text(page, 1, FOREST_16)
    expect(total_of(page, SHOWN_IMAGE)).to_contain_text("51", timeout=20_000)
    expect(total_of(page, SHOWN_LINK)).to_be_attached()  # in the second (hidden) result tab
    winner = page.get_by_role("heading").filter(has_text="wins this game").first
    expect(winner).to_contain_text(f"{SHOWN_IMAGE} wins this game")
    expect(page.locator("a[href*='evil.example']")).to_have_count(0)
    expect(page.locator("a[href*='127.0.0.1:9/']")).to_have_count(0)
    expect(page.locator("img[src*='127.0.0.1:9/']")).to_have_count(0)
    assert not [url for url in requests if "127.0.0.1:9/" in url or "evil.example" in url]


ICON_NAME = "Anna :material/home:"
EMOJI_NAME = "Ben :smile:"
# As shown: an invisible word joiner after each colon that could start a shortcode (ui.text).
SHOWN_ICON = "Anna :\u2060material/home:"
SHOWN_EMOJI = "Ben :\u2060smile:"


def test_icon_and_emoji_shortcodes_in_names_show_as_typed(page):
    _name(page, 0, ICON_NAME)
    _name(page, 1, EMOJI_NAME)
    enter_board_text(page, 0, BOARD_51)
    expect(total_of(page, SHOWN_ICON)).to_contain_text("51", timeout=20_000)
    show_kingdom(page, SHOWN_EMOJI)
    enter_board_text(page, 1, FOREST_16)
    winner = page.get_by_role("heading").filter(has_text="wins this game").first
    expect(winner).to_contain_text(f"{SHOWN_ICON} wins this game")
    expect(total_of(page, SHOWN_EMOJI)).to_be_attached()
    # No name became an icon or an emoji anywhere on the page.
    icons = page.get_by_test_id("stIconMaterial").filter(has_text="home")
    expect(icons).to_have_count(0)
    expect(page.get_by_text("\N{SMILING FACE WITH OPEN MOUTH AND SMILING EYES}")).to_have_count(0)
