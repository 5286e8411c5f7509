"""Page script for scoring a game (see ``ui.pages.score_page``)."""

from ui.pages import score_page

score_page()
