"""The app draws only the open kingdom tab: tests open a player's tab as a tap on it would."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

TAB_KEY = "player_tab"  # the key of the kingdoms' st.tabs in ui/pages.py


def open_kingdom_tab(at: AppTest, slot: int) -> AppTest:
    """Bring player ``slot``'s kingdom tab to the front (the first tab set holds the kingdoms)."""
    label = at.tabs[slot].label
    if at.session_state[TAB_KEY] != label:
        at.session_state[TAB_KEY] = label
        at.run()
    assert not at.exception
    return at


def text_box(at: AppTest, slot: int, size: int = 5):
    """Player ``slot``'s board text box, with their tab open."""
    return open_kingdom_tab(at, slot).text_area(key=f"text_{size}_{slot}")
