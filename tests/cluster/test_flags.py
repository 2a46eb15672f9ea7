"""``rummy serve``'s cluster flags: what cannot work is refused at once, with one line."""

from __future__ import annotations

from pathlib import Path

import pytest

from rummy.cli import main


@pytest.mark.parametrize(("flags", "words"), [
    (["--workers", "2"], "--workers needs --redis"),
    (["--workers", "0"], "--workers must be 1 or more"),
    (["--redis", "redis://127.0.0.1:1/0"], "--redis needs a PostgreSQL --db"),
])
def test_cluster_flags_that_cannot_work_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                    flags: list[str], words: str) -> None:
    database = tmp_path / "rummy.db"
    assert main(["serve", "--db", str(database), "--port", "0", *flags]) == 2
    assert words in capsys.readouterr().err
    assert not database.exists()  # refused before anything was created


def test_an_unreachable_redis_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["serve", "--db", "postgresql://nobody@127.0.0.1:1/none", "--redis", "redis://:secret@127.0.0.1:1/0"])
    assert code == 2
    error = capsys.readouterr().err
    assert "cannot reach Redis at redis://:***@127.0.0.1:1/0" in error and "secret" not in error
