"""User text (player names, file names, board text) shown safely in Streamlit's Markdown.

Streamlit renders Markdown in ``st.markdown``, alerts, captions, widget and tab labels and table
cells: a player named ``![x](http://host/t)`` would make every viewer's browser fetch that URL,
and ``[Ben](https://evil.example)`` would be a link disguised as a name. ``escape_markdown``
makes such text show literally, and a name like ``:material/home:`` stays text, not an icon.
"""

from __future__ import annotations

import re

# Every ASCII punctuation mark may be backslash-escaped in (GitHub-flavoured) Markdown; these are
# the ones that start or end something: emphasis, links, images, code, HTML, headings, lists,
# tables, LaTeX ($) and Streamlit's :colour[...] and :material/icon: directives.
_SPECIAL = re.compile(r"([\\`*_{}\[\]()<>#+\-.!|~$:&])")
_LINE_BREAKS = re.compile(r"[\r\n\u2028\u2029\x0b\x0c\x85]+")
# GitHub-flavoured Markdown links bare URLs and e-mail addresses even with their punctuation
# escaped; an invisible word joiner after their first letter (or the @) breaks the pattern.
_AUTOLINK = re.compile(r"(?i)[hwmx](?=ttps?:|ww\.|ailto:|mpp:)|@")
# Streamlit turns :smile: into an emoji and :material/home: into an icon after Markdown is parsed,
# so escaping the colons does not stop it; a word joiner after a colon that could start one does.
_SHORTCODE = re.compile(r":(?=[\w+/-]+:)")
WORD_JOINER = "\u2060"


def escape_markdown(text: object) -> str:
    """``text`` as Markdown that renders exactly as typed (bare URLs unlinked by an invisible
    word joiner), on one line: line breaks become spaces, so a name cannot start a heading."""
    one_line = _LINE_BREAKS.sub(" ", str(text))
    unlinked = _AUTOLINK.sub(lambda m: m.group(0) + WORD_JOINER, one_line)
    plain = _SHORTCODE.sub(":" + WORD_JOINER, unlinked)
    return _SPECIAL.sub(r"\\\1", plain)
