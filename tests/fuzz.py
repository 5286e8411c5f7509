"""A seeded random mutator for fuzz tests: hostile variations of valid inputs, reproducible.

Each case is a seed text with a few random edits: characters from an alphabet of troublemakers
(brackets, quotes, escapes, non-ASCII digits and letters that upper-case into ours, control
characters), deletions, duplicated or swapped pieces, deep nesting and very long numbers.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence

TROUBLE = (
    list('WFLGSMC.wflgsmc0123456789 \t\n\r#[]{}",:\\/-+eE')
    + ["²", "١", "٣", "０", "𝟙", "½", "ſ", "ı", "ß", "\x00", "\u200b", "\u2028", "\ufeff", "é"]
    + ["null", "true", "1e999", "-0", "NaN", "Infinity", '"grid"', "\\u0000", "\\ud800"]
)


def mutate(rng: random.Random, text: str) -> str:
    """``text`` with one to four random edits."""
    for _ in range(rng.randint(1, 4)):
        at = rng.randint(0, len(text))
        kind = rng.random()
        if kind < 0.35:
            text = text[:at] + rng.choice(TROUBLE) + text[at:]
        elif kind < 0.55:
            text = text[:at] + text[at + rng.randint(1, 6) :]
        elif kind < 0.7:
            end = min(len(text), at + rng.randint(1, 40))
            text = text[:at] + text[at:end] * rng.randint(2, 5) + text[at:]
        elif kind < 0.8:
            other = rng.randint(0, len(text))
            a, b = sorted((at, other))
            text = text[b:] + text[a:b] + text[:a]
        elif kind < 0.9:
            depth = rng.choice((5, 30, 2_000, 50_000))
            text = text[:at] + rng.choice("[{") * depth + text[at:]
        else:
            digits = rng.choice((20, 400, 4_301, 10_000))
            text = text[:at] + "1" * digits + text[at:]
    return text


def cases(seeds: Sequence[str], count: int, seed: int) -> Iterator[str]:
    """``count`` mutated texts (every tenth a seed unchanged), the same for the same ``seed``."""
    rng = random.Random(seed)
    for index in range(count):
        text = rng.choice(seeds)
        yield text if index % 10 == 0 else mutate(rng, text)
