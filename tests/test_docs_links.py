"""The README, docs/ and lab/README.md link to each other by relative paths: every such link
must reach a file that exists, and an anchor (``file.md#section``) a heading in it.

Also the README's own limits: a player reads it in five minutes (at most 300 lines), and it names
no model version, seed or development scene (those belong in docs/ and lab/).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), ROOT / "lab" / "README.md"]
README_MAX_LINES = 300

# [text](target) and ![alt](target); the target ends at whitespace or the closing bracket.
LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
FENCE = re.compile(r"^\s*(```|~~~)")
INLINE_CODE = re.compile(r"`[^`]*`")
EXTERNAL = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")  # http:, https:, mailto:, ...


def prose_lines(text: str) -> list[tuple[int, str]]:
    """(line number, line) outside fenced code blocks, with inline code removed."""
    lines, in_fence = [], False
    for number, line in enumerate(text.splitlines(), start=1):
        if FENCE.match(line):
            in_fence = not in_fence
            continue
        if not in_fence:
            lines.append((number, INLINE_CODE.sub("", line)))
    return lines


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[`*_]", "", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """Every heading's anchor in a Markdown file (repeated headings get -1, -2, ...)."""
    seen: dict[str, int] = {}
    found = set()
    for _, line in prose_lines(path.read_text(encoding="utf-8")):
        match = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if not match:
            continue
        base = slug(match.group(1))
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")
    return found


def broken_links(path: Path) -> list[str]:
    """What is wrong with each relative link of ``path``, as 'line N: target: why'."""
    problems = []
    for number, line in prose_lines(path.read_text(encoding="utf-8")):
        for target in LINK.findall(line):
            if EXTERNAL.match(target):
                continue
            file_part, _, anchor = target.partition("#")
            linked = (path.parent / file_part).resolve() if file_part else path
            if not linked.exists():
                problems.append(f"line {number}: {target}: no such file")
            elif anchor and linked.suffix == ".md" and anchor not in anchors(linked):
                problems.append(f"line {number}: {target}: no heading with that anchor")
    return problems


@pytest.mark.parametrize("path", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_relative_links_reach_their_files_and_headings(path: Path) -> None:
    assert path.exists(), f"{path.relative_to(ROOT)} is missing"
    assert broken_links(path) == []


def test_the_readme_leads_to_every_engineering_document() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    targets = [t for t in LINK.findall(readme) if not EXTERNAL.match(t)]
    linked = {(ROOT / target.partition("#")[0]).resolve() for target in targets}
    for path in DOCS[1:]:
        assert path.resolve() in linked, f"README.md does not link {path.relative_to(ROOT)}"


def test_a_broken_link_or_anchor_is_found(tmp_path: Path) -> None:
    (tmp_path / "other.md").write_text("# A section\n\n## Same\n\n## Same\n", encoding="utf-8")
    page = tmp_path / "page.md"
    page.write_text(
        "# Page\n"
        "[fine](other.md) [fine too](other.md#a-section) [second same](other.md#same-1)\n"
        "[here](#page) [web](https://example.com) `[code](nowhere.md)`\n"
        "```\n[in a block](nowhere.md)\n```\n"
        "[gone](missing.md) ![picture](img/none.png) [bad anchor](other.md#no-such)\n",
        encoding="utf-8",
    )
    assert broken_links(page) == [
        "line 7: missing.md: no such file",
        "line 7: img/none.png: no such file",
        "line 7: other.md#no-such: no heading with that anchor",
    ]


def test_the_readme_is_short_and_for_players() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= README_MAX_LINES
    for lab_word in (r"\bseeds?\b", r"\bmodel v\d", r"\bv\d+\b", r"development scenes?"):
        assert not re.search(lab_word, text, re.IGNORECASE), f"README names {lab_word!r}"
