"""No rule is guessed in the browser's JavaScript (issue #28): the front end draws the facts the server
sends (each table meld's ``as`` and ``wild``, the facts' ``wild_cards``) and asks the engine to order
what a player picks (``/api/tables/{id}/arrange`` and ``/layoffs``).  Each pattern below is a guess
that once lived in ``src/rummy/server/static`` and names the rule it copied."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

STATIC = Path(__file__).resolve().parents[1] / "src" / "rummy" / "server" / "static"

#: (pattern, the rule the JavaScript would be guessing)
GUESSES = [
    (r"\barrangeRun\b", "run order and where an ace stands (rules.md §4.4, ace_mode): ask /arrange"),
    (r"\borderForLayoff\b", "the order in which several lay-offs fit a meld: ask /layoffs"),
    (r"\bace_mode\b", "where an ace stands in a run (ace_mode): the engine places aces"),
    (r"\bwild_ranks\b", "which cards are wild, read off their rank: use facts.wild_cards and a meld's wild"),
    (r"[=!]==?\s*14\b|\?\s*14\s*:", "the ace above the king as value 14: the engine places aces"),
    (r"rank(?:Of|Value)\([^)]*\)\s*[=!]==?\s*(?:1\b|[\"']A[\"'])", "an ace found by its rank to place it in a run"),
    (r"rankOf\([^)]*\)\s*[=!]==?\s*[\"']2[\"']|[\"']2[\"']\s*[=!]==?\s*rankOf", "a two taken for a wild by its rank "
     "(twos may be natural in place): use a meld's wild"),
    (r"\bnaturals\b", "splitting picked cards into naturals and wilds to validate or order a meld: ask /arrange"),
    (r"new Set\([^)]*\.map\((?:suitOf|rankOf)\)\)", "meld validity (one suit for a run, one rank for a set): "
     "the engine's MeldError says why"),
]


def sources() -> list[Path]:
    return sorted(STATIC.glob("*.js"))


def test_the_front_end_sources_are_found() -> None:
    names = {p.name for p in sources()}
    assert {"cards.js", "melds.js", "play.js", "builder.js", "hand.js", "table.js"} <= names


@pytest.mark.parametrize(("pattern", "rule"), GUESSES, ids=[rule.split(":")[0] for _, rule in GUESSES])
def test_no_javascript_guesses_a_rule(pattern: str, rule: str) -> None:
    found = [f"{path.name}:{number}: {line.strip()}"
             for path in sources()
             for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if re.search(pattern, line)]
    assert not found, f"the browser guesses {rule}:\n" + "\n".join(found)


def test_the_patterns_catch_the_old_guesses() -> None:
    """Each pattern matches the guess it was written for (as the code stood before the server sent the facts)."""
    old = {
        r"\barrangeRun\b": "export function arrangeRun(cards, facts, spareLow = false) {",
        r"\borderForLayoff\b": "const cards = orderForLayoff(items.map((i) => i.card), meld, view.facts);",
        r"\bace_mode\b": 'const mode = facts?.ace_mode || "low_or_high";',
        r"\bwild_ranks\b": "const wild = facts?.wild_ranks || [];",
        r"[=!]==?\s*14\b|\?\s*14\s*:": "const value = (c) => (rankValue(c) === 1 && highAce ? 14 : rankValue(c));",
        r"rank(?:Of|Value)\([^)]*\)\s*[=!]==?\s*(?:1\b|[\"']A[\"'])": "if (rankValue(c) === 1) high = true;",
        r"rankOf\([^)]*\)\s*[=!]==?\s*[\"']2[\"']|[\"']2[\"']\s*[=!]==?\s*rankOf": 'if (rankOf(card) === "2") wild++;',
        r"\bnaturals\b": "const naturals = cards.filter((c) => !isWild(c, facts));",
        r"new Set\([^)]*\.map\((?:suitOf|rankOf)\)\)": "const suits = new Set(naturals.map(suitOf));",
    }
    assert set(old) == {pattern for pattern, _ in GUESSES}
    for pattern, line in old.items():
        assert re.search(pattern, line), pattern
