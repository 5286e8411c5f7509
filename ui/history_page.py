"""Page script for the saved-games history (see ``ui.pages.history_page``)."""

from ui.pages import history_page

history_page()
