"""The page's language: the one the player picked (kept in the game's draft), else the browser's,
else English; and the gettext calls the ui modules use (``_``, ``ngettext``, ``say``).

Widget keys and stored values stay English or codes (drafts and links work in every language);
only what is shown goes through the translator (``translations``, docs/i18n.md).
"""

from __future__ import annotations

import contextlib
import json

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


def streamlit_words() -> None:
    """Streamlit's own words on the photo uploader ("Upload", "200MB per file", its file input's
    "file upload"), which it does not translate, put in the page's language in the page itself:
    the words a screen reader reads, not only the ones drawn. A small script (``st.html`` with
    JavaScript) sets them on every uploader as Streamlit draws it, changing the text of
    Streamlit's own text nodes (never replacing them, so Streamlit keeps them in hand)."""
    if current() == DEFAULT:
        return
    limit = _("{size} MB per file", size=st.get_option("server.maxUploadSize"))
    limit += " • JPG, PNG, WEBP, HEIC, HEIF"  # the photo uploaders take these (ui.photo)
    words = json.dumps({"upload": _("Upload"), "limit": limit})
    st.html(_UPLOADER_WORDS.replace("WORDS", words), unsafe_allow_javascript=True)


_UPLOADER_WORDS = """<script>
(() => {
  window.kdUploaderWords = WORDS;
  const say = (element, text) => {
    if (!element) return;
    const nodes = [];
    const walk = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    while (walk.nextNode()) nodes.push(walk.currentNode);
    if (nodes.length === 0 || element.textContent === text) return;
    nodes.forEach((node, index) => { node.nodeValue = index === 0 ? text : ""; });
  };
  const apply = () => {
    const words = window.kdUploaderWords;
    for (const zone of document.querySelectorAll("[data-testid='stFileUploaderDropzone']")) {
      say(zone.querySelector("button [data-testid='stMarkdownContainer'] p"), words.upload);
      say(zone.querySelector("[data-testid='stFileUploaderDropzoneInstructions'] span"),
          words.limit);
      const input = zone.querySelector("input[type=file]");
      if (input && input.getAttribute("aria-label") !== words.upload) {
        input.setAttribute("aria-label", words.upload);
      }
    }
  };
  if (!window.kdUploaderObserver) {
    window.kdUploaderObserver = new MutationObserver(apply);
    window.kdUploaderObserver.observe(document.body,
      {subtree: true, childList: true, characterData: true});
  }
  apply();
})();
</script>"""


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
