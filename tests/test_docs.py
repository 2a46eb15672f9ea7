"""The references the project cites ship with it: every "rules.md §x" and "game-record.md §x" cited in the
code, the tests, the scenarios and the docs names a section that docs/rules.md or docs/game-record.md has."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
CITE = re.compile(r"(game-record(?:\.md)?\s*)?§(\d+(?:\.\d+)?)")


def _sections(name: str) -> set[str]:
    """The section numbers of a doc's headings (``## 3. …``, ``### 3.7 …``)."""
    text = (DOCS / name).read_text(encoding="utf-8")
    return set(re.findall(r"^#+ (\d+(?:\.\d+)?)\.? ", text, re.MULTILINE))


def _citing_files() -> list[Path]:
    files = [ROOT / "README.md", *sorted(DOCS.glob("*.md"))]
    for folder in (ROOT / "src", ROOT / "tests", ROOT / "bench"):
        files += sorted(p for p in folder.rglob("*") if p.suffix in (".py", ".json", ".md", ".js", ".html"))
    return [p for p in files if "node_modules" not in p.parts]


@pytest.mark.parametrize("name", ["rules.md", "game-record.md", "errors.md"])
def test_the_cited_references_ship_in_docs(name: str) -> None:
    assert (DOCS / name).is_file()


def test_every_cited_section_exists() -> None:
    rules, record = _sections("rules.md"), _sections("game-record.md")
    assert {"2.8", "3.7", "8"} <= rules and {"4", "5"} <= record
    missing = []
    for path in _citing_files():
        for match in CITE.finditer(path.read_text(encoding="utf-8")):
            # §3.7.6 is item 6 of §3.7: the heading it lives under must exist.
            wanted = record if match.group(1) else rules
            if match.group(2) not in wanted:
                missing.append(f"{path.relative_to(ROOT)}: {match.group(0)}")
    assert not missing, "citations of sections the shipped docs do not have:\n" + "\n".join(missing)


def test_the_docs_speak_of_the_project_only() -> None:
    for path in sorted(DOCS.glob("*.md")):
        text = path.read_text(encoding="utf-8")
        assert "shared/" not in text and "/work/" not in text, path.name
