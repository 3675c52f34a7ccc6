"""The media-items data set: a fixed dictionary of 100,000 words, and the items of one seed.

The study (restream/reindexer-benchmarks ``repo/dataset.go``, ``repo/item.go``) draws, per item:
``name`` = a random adjective + " " + a random animal (67 × 113 words in its code; the issue that asked
for this study says ~1,000 values: here 32 × 32 = 1,024), ``year`` = 2000 + rand % 50 (2000 … 2049),
``description`` = 50 random words of an English word list downloaded at start (``english-words.json``
from GitHub, unreachable from here), each followed by a space. Here the dictionary is 100,000 made-up
words of 5 to 9 lowercase letters (consonant-vowel syllables: no word is any store's stop word or
shorter than MariaDB's 3-letter minimum, and no store stems them), sorted, so that a prefix's words
are one range of word numbers. An item is ~470 bytes as the study's JSON.

Deterministic: the dictionary is the same everywhere; the items are a function of ``media.seed`` and
``recordcount`` only (every worker process makes the same ones).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from ycsbctl.workload.media_items.contract import Item

DICTIONARY_WORDS = 100_000
WORDS_PER_DESCRIPTION = 50
YEARS = (2000, 2050)  # rand % 50: 2000 … 2049
NAME_PARTS = 32  # adjectives × animals: 1,024 names
PREFIX_LETTERS = 4  # the study's randStringPref: a word's first 4 letters (the word itself when shorter)
_CONSONANTS = "bdfgklmnprstvz"
_VOWELS = "aeiou"


@cache
def dictionary() -> tuple[str, ...]:
    """The 100,000 words, sorted (a word's number is its rank)."""
    rng = np.random.default_rng(20171023)  # fixed: the dictionary is the same for every seed
    out: set[str] = set()
    while len(out) < DICTIONARY_WORDS:
        syllables = rng.integers(2, 5, size=4096)
        finals = rng.integers(0, len(_CONSONANTS) + 1, size=4096)
        letters = rng.integers(0, 10**6, size=(4096, 8))
        for n, f, row in zip(syllables.tolist(), finals.tolist(), letters.tolist()):
            word = "".join(_CONSONANTS[row[2 * i] % len(_CONSONANTS)] + _VOWELS[row[2 * i + 1] % len(_VOWELS)]
                           for i in range(n))
            if f < len(_CONSONANTS):
                word += _CONSONANTS[f]
            if 5 <= len(word) <= 9:
                out.add(word)
    return tuple(sorted(out)[:DICTIONARY_WORDS])


@cache
def name_parts() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The two word lists a name is made of (32 "adjectives", 32 "animals"), from the dictionary."""
    rng = np.random.default_rng(1917)
    picked = rng.choice(DICTIONARY_WORDS, size=2 * NAME_PARTS, replace=False).tolist()
    words = dictionary()
    return tuple(words[i] for i in picked[:NAME_PARTS]), tuple(words[i] for i in picked[NAME_PARTS:])


def name_text(number: int) -> str:
    """Name number ``number`` (0 … 1,023): adjective ``number // 32``, a space, animal ``number % 32``."""
    first, second = name_parts()
    return f"{first[number // NAME_PARTS]} {second[number % NAME_PARTS]}"


NAMES = NAME_PARTS * NAME_PARTS


def description_text(word_numbers: list[int]) -> str:
    """A description: each word followed by one space (the study's ``randTextString``)."""
    words = dictionary()
    return "".join(words[w] + " " for w in word_numbers)


def prefix_of(word: str) -> str:
    """The study's ``randStringPref``: the first 4 letters of a word longer than 4, else the word."""
    return word[:PREFIX_LETTERS] if len(word) > PREFIX_LETTERS else word


@dataclass(frozen=True)
class Items:
    """The items of one seed as arrays (item ``i`` is row ``i``): name numbers, years, word numbers."""

    names: np.ndarray  # int32 (n,)
    years: np.ndarray  # int32 (n,)
    words: np.ndarray  # int32 (n, 50)

    @property
    def count(self) -> int:
        return len(self.years)

    def item(self, i: int) -> Item:
        return Item(i, name_text(int(self.names[i])), int(self.years[i]), description_text(self.words[i].tolist()))


@cache
def items(seed: int, count: int) -> Items:
    """The ``count`` items of ``seed`` (cached per process: the load's and the truth's are the same)."""
    rng = np.random.default_rng([seed, 0x6D65646961])
    names = rng.integers(0, NAMES, size=count, dtype=np.int32)
    years = rng.integers(*YEARS, size=count, dtype=np.int32)
    words = rng.integers(0, DICTIONARY_WORDS, size=(count, WORDS_PER_DESCRIPTION), dtype=np.int32)
    return Items(names, years, words)


def random_item(rng: np.random.Generator, item_id: int) -> Item:
    """A new random item under ``item_id`` (the study's UPDATE: ``newItem(id)``)."""
    return Item(item_id, name_text(int(rng.integers(0, NAMES))), int(rng.integers(*YEARS)),
                description_text(rng.integers(0, DICTIONARY_WORDS, size=WORDS_PER_DESCRIPTION).tolist()))
