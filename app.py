"""Kingdomino Scorer: `streamlit run app.py`.

Two pages (scoring a game, and the saved-games history); the widgets live in ``ui``, the rules in
``scoring``, the image work in ``vision``, and saving and sharing in ``games``.
"""

import streamlit as st

from ui import state
from ui.pages import navigation

st.set_page_config(page_title="Kingdomino Scorer", page_icon="👑", layout="centered")
state.keep_widget_values()
navigation()
