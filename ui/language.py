"""The page's language: the one the player picked (kept in the game's draft), else the browser's,
else English; and the gettext calls the ui modules use (``_``, ``ngettext``, ``say``).

Widget keys and stored values stay English or codes (drafts and links work in every language);
only what is shown goes through the translator (``translations``, docs/i18n.md).
"""

from __future__ import annotations

import contextlib

import streamlit as st

from scoring.words import Message
from translations import DEFAULT, LANGUAGES, Translator, match_language, translator

CHOSEN = "setup_language"  # "" follows the browser; kept in the draft with the setup
_PICKER = "language_picker"


def browser_language() -> str | None:
    """The browser's language: its locale (``navigator.language``), else Accept-Language."""
    locale, headers = None, {}
    with contextlib.suppress(Exception):  # no browser behind this run (a bare script run)
        locale = st.context.locale
        headers = st.context.headers or {}
    return match_language(locale, headers.get("Accept-Language"))


def current() -> str:
    chosen = st.session_state.get(CHOSEN)
    if chosen in LANGUAGES:
        return chosen
    return browser_language() or DEFAULT


def tr() -> Translator:
    return translator(current())


def _(text: str, /, **params: object) -> str:
    """``text`` (English, marked for the catalogs) in the page's language."""
    return tr().gettext(text, **params)


def ngettext(singular: str, plural: str, n: int, /, **params: object) -> str:
    return tr().ngettext(singular, plural, n, **params)


def pgettext(context: str, text: str, /, **params: object) -> str:
    return tr().pgettext(context, text, **params)


def say(message: Message | str | BaseException) -> str:
    """A message of the rules or the games (or an error carrying one) in the page's language."""
    if isinstance(message, BaseException):
        message = getattr(message, "message", None) or str(message)
    return tr().say(message)


def sentence(message: Message | str | BaseException) -> str:
    """``say``, starting with a capital and ending with one full stop (error texts are clauses)."""
    text = say(message).strip().rstrip(".")
    return f"{text[:1].upper()}{text[1:]}."


def N_(text: str) -> str:  # noqa: N802 (gettext's name for "mark now, translate when shown")
    return text


def _picked() -> None:
    st.session_state[CHOSEN] = st.session_state[_PICKER]


def _css_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def streamlit_words() -> None:
    """Streamlit's own words on the photo uploader ("Upload", "200MB per file"), which it does
    not translate, drawn in the page's language instead (CSS over the same button)."""
    if current() == DEFAULT:
        return
    limit = _("{size} MB per file", size=st.get_option("server.maxUploadSize"))
    limit += " • JPG, PNG, WEBP, HEIC, HEIF"  # the photo uploaders take these (ui.photo)
    upload_word = _css_string(_("Upload"))
    upload = "[data-testid='stFileUploaderDropzone'] button [data-testid='stMarkdownContainer'] p"
    instructions = "[data-testid='stFileUploaderDropzoneInstructions'] span"
    st.html(
        "<style>"
        f"{upload}, {instructions} {{font-size: 0}}"
        f"{upload}::after {{content: {upload_word}; font-size: 1rem}}"
        f"{instructions}::after {{content: {_css_string(limit)}; font-size: 0.875rem}}"
        "</style>"
    )


def language_picker() -> None:
    """A small choice of language; the choice overrides the browser's and stays with the game."""
    codes = list(LANGUAGES)
    st.session_state[_PICKER] = current()
    st.selectbox(
        _("Language"),
        codes,
        format_func=LANGUAGES.__getitem__,
        key=_PICKER,
        on_change=_picked,
        label_visibility="collapsed",
        width=160,
    )
