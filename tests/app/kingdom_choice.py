"""The app draws one player's kingdom at a time: tests choose whose, as a tap on the name would."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

CHOICE_KEY = "kingdom_shown"  # the key of the "Whose kingdom" control in ui/pages.py


def show_kingdom(at: AppTest, slot: int) -> AppTest:
    """Show player ``slot``'s kingdom (uploader, editor, text box)."""
    if at.session_state[CHOICE_KEY] != slot:
        at.session_state[CHOICE_KEY] = slot
        at.run()
    assert not at.exception
    return at


def text_box(at: AppTest, slot: int, size: int = 5):
    """Player ``slot``'s board text box, with their kingdom shown."""
    return show_kingdom(at, slot).text_area(key=f"text_{size}_{slot}")
