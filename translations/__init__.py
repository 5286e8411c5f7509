"""The app's words in each language: gettext catalogs read with Babel, and the one place where
a sentence is put into words.

Code marks each message once in English (``gettext``/``ngettext`` in the app and CLI, or a
``scoring.words.Message`` built by ``msg``/``nmsg`` where the rules describe what they found).
The catalogs are ``translations/locale/<lang>/LC_MESSAGES/messages.po``; each is compiled in
memory on first use (no ``.mo`` in the repository). How to add a language: docs/i18n.md.

Babel is imported only when another language than English is asked for (or an English number
that is not a whole one): its import costs about a twentieth of a second, a tenth of a whole
``kingdomino score`` run, which in English needs none of it.
"""

from __future__ import annotations

import gettext as _gettext
import io
import os
import re
from collections.abc import Iterable
from functools import cache
from pathlib import Path

from scoring.words import Joined, Message

LOCALE_DIR = Path(__file__).resolve().parent / "locale"
DOMAIN = "messages"
DEFAULT = "en"
# Each language named in itself, as the language picker shows it.
LANGUAGES = {"en": "English", "pl": "Polski", "it": "Italiano", "vi": "Tiếng Việt"}

_LANGUAGE_TAG = re.compile(r"[A-Za-z]{2,3}")


def catalog_path(language: str) -> Path:
    return LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def match_language(*tags: str | None) -> str | None:
    """The first supported language among locale tags or header values, in order:
    ``pl-PL``, ``vi_VN.UTF-8``, ``it-IT,it;q=0.9,en;q=0.8`` or ``pl:en`` (``LANGUAGE``)."""
    for tag in tags:
        if not tag:
            continue
        # Accept-Language lists its choices by weight; the others list them in order.
        choices = []
        for position, part in enumerate(re.split(r"[,:]", tag)):
            code, _, params = part.strip().partition(";")
            weight = 1.0
            if params.strip().startswith("q="):
                try:
                    weight = float(params.strip()[2:])
                except ValueError:
                    weight = 0.0
            choices.append((-weight, position, code))
        for _weight, _position, code in sorted(choices):
            found = _LANGUAGE_TAG.match(code)
            if found and found.group(0).lower() in LANGUAGES:
                return found.group(0).lower()
    return None


def language_from_environment(environ: os._Environ | dict | None = None) -> str:
    """The CLI's language from ``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES`` or ``LANG`` (as gettext
    reads them); English when none names a supported language."""
    env = os.environ if environ is None else environ
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(variable)
        if value and value not in ("C", "POSIX") and not value.startswith("C."):
            return match_language(value) or DEFAULT
    return DEFAULT


class Translator:
    """Messages in one language: ``gettext``/``ngettext`` with named ``{placeholders}``, numbers
    in the language's format, and ``say`` for a ``Message``."""

    def __init__(self, language: str, translations: _gettext.NullTranslations) -> None:
        self.language = language
        self._translations = translations

    def gettext(self, text: str, /, **params: object) -> str:
        return self._fill(self._translations.gettext(text), params)

    def ngettext(self, singular: str, plural: str, n: int, /, **params: object) -> str:
        return self._fill(self._translations.ngettext(singular, plural, n), params)

    def pgettext(self, context: str, text: str, /, **params: object) -> str:
        return self._fill(self._translations.pgettext(context, text), params)

    def number(self, value: int | float, pattern: str | None = None) -> str:
        """``1234`` as the language writes it: ``1,234`` in English, ``1 234`` in Polish;
        ``pattern`` as Babel's (``"0.00"``: two decimals, ``0.93`` or ``0,93``)."""
        if self.language == DEFAULT and isinstance(value, int) and pattern is None:
            return f"{value:,}"  # what Babel writes for an English whole number
        from babel.numbers import format_decimal

        return format_decimal(value, format=pattern, locale=self.language)

    def and_list(self, items: Iterable[object]) -> str:
        """``a``, ``a and b``, ``a, b and c`` in the language's words."""
        words = [self._value(item) for item in items]
        if not words:
            return ""
        if len(words) == 1:
            return words[0]
        return self.gettext("{items} and {last}", items=", ".join(words[:-1]), last=words[-1])

    def say(self, message: Message | str) -> str:
        """A message from the rules (or the games) in this language; plain text as it is."""
        if not isinstance(message, Message) or self.language == DEFAULT:
            return str(message)  # a Message is its English sentence already
        if message.plural is None:
            return self.gettext(message.text, **dict(message.params))
        return self.ngettext(message.text, message.plural, message.n, **dict(message.params))

    def _value(self, value: object) -> str:
        if isinstance(value, Message):
            return self.say(value)
        if isinstance(value, bool):
            return str(value)
        if isinstance(value, int | float):
            return self.number(value)
        if isinstance(value, list | tuple):
            return self.and_list(value)
        if isinstance(value, Joined):
            return value.separator.join(self._value(item) for item in value.items)
        return str(value)

    def _fill(self, template: str, params: dict[str, object]) -> str:
        if not params:
            return template
        return template.format_map({key: self._value(value) for key, value in params.items()})


@cache
def translator(language: str | None = None) -> Translator:
    """The translator for ``language`` (English for anything not supported), built once."""
    language = language if language in LANGUAGES else DEFAULT
    if language == DEFAULT:
        return Translator(DEFAULT, _gettext.NullTranslations())
    return Translator(language, _compile(catalog_path(language), language))


def _compile(path: Path, language: str) -> _gettext.GNUTranslations:
    """The ``.po`` catalog compiled to ``.mo`` in memory (the ``.po`` is the one source)."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with path.open("rb") as po:
        catalog = read_po(po, locale=language)
    buffer = io.BytesIO()
    write_mo(buffer, catalog, use_fuzzy=False)
    buffer.seek(0)
    return _gettext.GNUTranslations(buffer)
