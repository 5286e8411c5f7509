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
    # The photo reader's sentences are checked the same way.
    catalog.get("{file} is empty (0 bytes): choose the photo again").string = "pusty plik"
    holes = catalog.get(
        (
            "{note} The table shows through {n} cell read as a hole that a complete domino would "
            "need as a tile ({tiles}): kept as a hole; check it.",
            "{note} The table shows through {n} cells read as a hole that a complete domino "
            "would need as a tile ({tiles}): kept as holes; check them.",
        )
    )
    holes.string = (*holes.string[:2], "Stół prześwituje przez kwadraty ({tiles}).")
    problems = _problems(template, catalog)
    assert len(problems) == 6
    assert any("'Result'" in problem for problem in problems)
    assert any("'koron'" in problem for problem in problems)
    assert any("'pusty plik'" in problem for problem in problems)
    assert any("Stół prześwituje przez kwadraty" in problem for problem in problems)


def test_every_module_that_marks_messages_is_extracted():
    """babel.cfg names every package whose code marks messages (vision's included), so that
    ``pybabel extract`` and the template test above see them."""
    from babel.util import pathmatch

    config = (ROOT / "babel.cfg").read_text().splitlines()
    patterns = [line[len("[python: ") : -1] for line in config if line.startswith("[python: ")]
    marker = re.compile(r"\b(?:msg|nmsg|_|_n|N_|ngettext)\(\s*[\"']")
    unmapped = [
        str(path.relative_to(ROOT))
        for path in ROOT.rglob("*.py")
        # Hidden folders hold virtual environments (CI's .venv-ci) and caches, not our code.
        if path.relative_to(ROOT).parts[0] not in {"tests", "lab", "build"}
        and not path.relative_to(ROOT).parts[0].startswith(".")
        and marker.search(path.read_text(encoding="utf-8"))
        and not any(pathmatch(p, str(path.relative_to(ROOT))) for p in patterns)
    ]
    assert unmapped == []
    assert any(pathmatch(p, "vision/find/search.py") for p in patterns)


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
