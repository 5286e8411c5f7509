"""How the rules describe what they found, without choosing a language.

A ``Message`` is a sentence with what it takes to say it in any language: its English text,
which is also its key in the translation catalogs (``translations``), and its named values. As a
``str`` it is the English sentence (the CLI's default and the JSON output); the app and the CLI
put it into the player's language with ``translations.Translator.say``. Values may be numbers,
text, other messages, or lists of them (said as ``a, b and c``).

``msg`` and ``nmsg`` are the markers ``pybabel extract`` looks for (see docs/i18n.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from numbers import Integral, Real


class Message(str):
    """The English sentence (a ``str``, so it prints, compares and goes into JSON as English),
    carrying what a translator needs: the English template, its values and plural form."""

    text: str  # English, with named {placeholders}; the catalogs' msgid
    params: tuple[tuple[str, object], ...]
    plural: str | None  # English plural form, for a message that counts something
    n: int  # the count that chooses the plural form

    def __new__(
        cls,
        text: str,
        params: tuple[tuple[str, object], ...] = (),
        plural: str | None = None,
        n: int = 0,
    ) -> Message:
        template = text if plural is None or n == 1 else plural
        english = template.format_map({key: _english(value) for key, value in params})
        self = super().__new__(cls, english)
        self.text, self.params, self.plural, self.n = text, params, plural, n
        return self

    def __reduce__(self):
        return (Message, (self.text, self.params, self.plural, self.n))

    def __setattr__(self, name: str, value: object) -> None:
        if name in self.__dict__:
            raise AttributeError("a Message is immutable")
        super().__setattr__(name, value)


@dataclass(frozen=True)
class Joined:
    """Items said one after another with ``separator`` (cells: ``row 1, column 2; row 3, ...``,
    where "and" between them would read as part of a cell's name)."""

    items: tuple[object, ...]
    separator: str = "; "


def msg(text: str, **params: object) -> Message:
    return Message(text, tuple(params.items()))


def nmsg(singular: str, plural: str, count: int, /, **params: object) -> Message:
    """A message with a singular and a plural, chosen by ``count`` (each language has its own
    number of forms: Polish three, Vietnamese one)."""
    return Message(singular, tuple(params.items()), plural, count)


def joined(sentences: Sequence[Message | str], separator: str = " ") -> Message:
    """Sentences said one after another, as one message (a notice of several sentences).

    Not a catalog entry: there is nothing to translate but the sentences themselves."""
    return Message("{sentences}", (("sentences", Joined(tuple(sentences), separator)),))


def to_data(value: object) -> object:
    """A message (or text, number, list) as JSON-ready data that ``from_data`` turns back into
    the same message, so a saved draft still says it in whatever language the page speaks."""
    if isinstance(value, Message):
        params = [[key, to_data(item)] for key, item in value.params]
        return {"message": value.text, "params": params, "plural": value.plural, "n": value.n}
    if isinstance(value, Joined):
        return {"joined": [to_data(item) for item in value.items], "separator": value.separator}
    if isinstance(value, list | tuple):
        return {"list": [to_data(item) for item in value]}
    if isinstance(value, bool | str) or value is None:
        return value
    if isinstance(value, Integral):  # numpy's integers too (a cell's row from an array)
        return int(value)
    if isinstance(value, Real):
        return float(value)
    return str(value)


def from_data(data: object) -> object:
    """The message (or value) ``to_data`` gave ``data`` for; plain JSON values as they are."""
    if isinstance(data, dict) and "message" in data:
        params = tuple((str(key), from_data(item)) for key, item in data.get("params", ()))
        plural = data.get("plural")
        return Message(str(data["message"]), params, plural, int(data.get("n", 0)))
    if isinstance(data, dict) and "joined" in data:
        return Joined(tuple(from_data(item) for item in data["joined"]), str(data["separator"]))
    if isinstance(data, dict) and "list" in data:
        return [from_data(item) for item in data["list"]]
    return data


def _english(value: object) -> str:
    if isinstance(value, int) and not isinstance(value, bool):
        return f"{value:,}"
    if isinstance(value, list | tuple):
        return and_list([_english(item) for item in value])
    if isinstance(value, Joined):
        return value.separator.join(_english(item) for item in value.items)
    return str(value)


def where(row: int, col: int) -> Message:
    """A cell as people count it: ``str(where(0, 2)) == "row 1, column 3"`` (row 1 on top)."""
    return msg("row {row}, column {column}", row=int(row) + 1, column=int(col) + 1)


def and_list(items: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c`` (English; ``Translator.and_list`` in any language)."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]
