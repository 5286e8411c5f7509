"""escape_markdown: user text shows exactly as typed, whatever Markdown it holds."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from ui.text import WORD_JOINER, escape_markdown

SPECIAL = set("\\`*_{}[]()<>#+-.!|~$:&")


def _unescape(escaped: str) -> str:
    return re.sub(r"\\(.)", r"\1", escaped).replace(WORD_JOINER, "")


def _every_special_is_escaped(escaped: str) -> bool:
    index = 0
    while index < len(escaped):
        char = escaped[index]
        if char == "\\":
            index += 2  # an escape and the character it escapes
            continue
        if char in SPECIAL:
            return False
        index += 1
    return True


def test_links_and_images_in_names_are_escaped():
    assert escape_markdown("![x](http://127.0.0.1:9/t)") == (
        "\\!\\[x\\]\\(h\u2060ttp\\://127\\.0\\.0\\.1\\:9/t\\)"
    )
    assert escape_markdown("[Ben](https://evil.example)") == (
        "\\[Ben\\]\\(h\u2060ttps\\://evil\\.example\\)"
    )
    assert escape_markdown("Anna") == "Anna"
    assert escape_markdown("Björn O'Neil") == "Björn O'Neil"


def test_bare_urls_and_addresses_are_not_linked():
    # GitHub-flavoured Markdown links these even with their punctuation escaped.
    for text in ("https://evil.example", "HTTP://X.Y", "www.evil.example", "ben@evil.example"):
        escaped = escape_markdown(text)
        assert not re.search(r"(?i)https?\\?:|www\\?\.|@[^\u2060]", escaped), escaped
        assert _unescape(escaped) == text


def test_line_breaks_become_spaces():
    assert escape_markdown("Anna\n# big\r\n- item") == "Anna \\# big \\- item"


@given(st.text(max_size=60))
def test_any_text_renders_as_typed(text):
    escaped = escape_markdown(text)
    assert _every_special_is_escaped(escaped)
    one_line = re.sub(r"[\r\n\u2028\u2029\x0b\x0c\x85]+", " ", text)
    assert _unescape(escaped) == one_line.replace(WORD_JOINER, "")


def test_icon_and_emoji_shortcodes_are_broken_by_an_invisible_word_joiner():
    """Streamlit draws :material/home: and :smile: after parsing Markdown, escaped or not."""
    for name in ("Anna :material/home:", "Ben :smile:", ":+1:", "x:heart:y"):
        escaped = escape_markdown(name)
        assert not re.search(r":[\w+/-]+(?:\\)?:", escaped.replace("\\", "")), escaped
        assert _unescape(escaped) == name
    assert escape_markdown("Anna: 3 wins") == "Anna\\: 3 wins"  # a colon alone is left alone
