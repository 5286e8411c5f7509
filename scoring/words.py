"""How messages name things for people: cells counted from 1, counts, lists joined with "and"."""

from __future__ import annotations

from collections.abc import Sequence


def where(row: int, col: int) -> str:
    """A cell as people count it: ``where(0, 2) == "row 1, column 3"`` (row 1 on top)."""
    return f"row {row + 1}, column {col + 1}"


def and_list(items: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def count(n: int, noun: str) -> str:
    """``count(1, "cell") == "1 cell"``, ``count(3, "cell") == "3 cells"``."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"
