"""The catalogs: every message translated in every language, with the same placeholders, and the
template in step with the code (docs/i18n.md)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from translations import LANGUAGES, catalog_path, translator

ROOT = Path(__file__).resolve().parents[2]
TEMPLATE = ROOT / "translations" / "messages.pot"
TRANSLATED = [code for code in LANGUAGES if code != "en"]
PLACEHOLDER = re.compile(r"\{(\w*)\}")
# gettext's Plural-Forms: how many forms each language has (Polish: 1 korona, 2 korony, 5 koron).
PLURAL_FORMS = {"pl": 3, "it": 2, "vi": 1}


def _read(path: Path):
    with path.open("rb") as file:
        return read_po(file)


def placeholders(text: str) -> set[str]:
    return set(PLACEHOLDER.findall(text))


def _problems(template, catalog) -> list[str]:
    problems = []
    for message in template:
        if not message.id:
            continue
        found = catalog.get(message.id)
        key = message.id if isinstance(message.id, str) else message.id[0]
        if found is None or not found.string or "fuzzy" in found.flags:
            problems.append(f"not translated: {key!r}")
            continue
        english = placeholders(key)
        if isinstance(message.id, tuple):
            english |= placeholders(message.id[1])
            forms = found.string
        else:
            forms = (found.string,)
        for form in forms:
            if not form:
                problems.append(f"a plural form is empty: {key!r}")
            elif placeholders(form) != english:
                problems.append(
                    f"placeholders {sorted(placeholders(form))} instead of {sorted(english)} "
                    f"in {form!r}"
                )
    return problems


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_message_is_translated_with_its_placeholders(language):
    catalog = _read(catalog_path(language))
    assert catalog.num_plurals == PLURAL_FORMS[language]
    assert _problems(_read(TEMPLATE), catalog) == []


def test_a_missing_translation_or_a_dropped_placeholder_is_caught(tmp_path):
    template = _read(TEMPLATE)
    catalog = _read(catalog_path("pl"))
    catalog.get("{player} wins").string = "wygrywa"  # the name dropped
    catalog.get("{player}'s total").string = "{gracz}: razem"  # a placeholder renamed
    catalog.get("Result").string = ""  # left untranslated
    plural = catalog.get(("{n} crown", "{n} crowns"))
    plural.string = ("{n} korona", "{n} korony", "koron")  # a form lost its number
    problems = _problems(template, catalog)
    assert len(problems) == 4
    assert any("'Result'" in problem for problem in problems)
    assert any("'koron'" in problem for problem in problems)


def test_the_template_is_up_to_date_with_the_code(tmp_path):
    """Extracting again (the command in docs/i18n.md) finds exactly the template's messages."""
    pybabel = shutil.which("pybabel")
    assert pybabel is not None, "pybabel (Babel) is a dependency"
    fresh = tmp_path / "messages.pot"
    subprocess.run(
        [pybabel, "extract", "-F", "babel.cfg", "-k", "msg", "-k", "nmsg:1,2", "-k", "_n:1,2"]
        + ["-k", "_beats:1,2"]
        + ["-o", str(fresh), "."],
        cwd=ROOT,
        check=True,
        capture_output=True,
    )
    ids = {message.id for message in _read(fresh) if message.id}
    committed = {message.id for message in _read(TEMPLATE) if message.id}
    assert sorted(map(str, ids - committed)) == [], "run pybabel extract (docs/i18n.md)"
    assert sorted(map(str, committed - ids)) == [], "run pybabel extract (docs/i18n.md)"


@pytest.mark.parametrize("language", TRANSLATED)
def test_each_catalog_compiles_and_says_the_bonus_names_of_its_rulebook(language):
    names = {
        "pl": ("Zamek centralny", "Harmonia"),
        "it": ("Regno di Mezzo", "Armonia"),
        "vi": ("Vương quốc trung tâm", "Hài hòa"),
    }[language]
    words = translator(language)
    assert (words.gettext("Middle Kingdom"), words.gettext("Harmony")) == names


def test_an_unknown_language_falls_back_to_english():
    assert translator("xx").gettext("Result") == "Result"
    assert translator(None).language == "en"
