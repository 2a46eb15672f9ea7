"""``--db`` / ``--redis`` from a flag, a file (``--db-file``, ``--redis-file``) or the environment
(``RUMMY_DB``, ``RUMMY_REDIS``): which wins, and the clear errors (issue 31, item 8)."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

import pytest

from rummy.server.flags import URLSourceError, resolve_urls


def args(**given: str | None) -> argparse.Namespace:
    values: dict[str, str | None] = {"db": None, "db_file": None, "redis": None, "redis_file": None}
    values.update(given)
    return argparse.Namespace(**values)


@pytest.fixture
def clean_environment(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    monkeypatch.delenv("RUMMY_DB", raising=False)
    monkeypatch.delenv("RUMMY_REDIS", raising=False)
    return monkeypatch


def test_flag_then_file_then_environment(tmp_path: Path, clean_environment: pytest.MonkeyPatch) -> None:
    url_file = tmp_path / "db-url"
    url_file.write_text("postgresql://rummy:from-file@db/rummy\n")
    redis_file = tmp_path / "redis-url"
    redis_file.write_text("  redis://:from-file@cache:6379/0  \n")
    clean_environment.setenv("RUMMY_DB", "postgresql://rummy:from-env@db/rummy")
    clean_environment.setenv("RUMMY_REDIS", "redis://:from-env@cache:6379/0")

    flag = args(db="postgresql://rummy:from-flag@db/rummy", redis="redis://:from-flag@cache:6379/0")
    resolve_urls(flag)
    assert (flag.db, flag.redis) == ("postgresql://rummy:from-flag@db/rummy", "redis://:from-flag@cache:6379/0")

    from_file = args(db_file=str(url_file), redis_file=str(redis_file))
    resolve_urls(from_file)
    assert (from_file.db, from_file.redis) == ("postgresql://rummy:from-file@db/rummy",
                                               "redis://:from-file@cache:6379/0")

    from_environment = args()
    resolve_urls(from_environment)
    assert (from_environment.db, from_environment.redis) == ("postgresql://rummy:from-env@db/rummy",
                                                             "redis://:from-env@cache:6379/0")


def test_nothing_given_leaves_the_defaults(clean_environment: pytest.MonkeyPatch) -> None:
    clean_environment.setenv("RUMMY_REDIS", "")  # set but empty: not given
    nothing = args()
    resolve_urls(nothing)
    assert (nothing.db, nothing.redis) == (None, None)
    migrate_args = argparse.Namespace(db=None)  # `rummy migrate` has no --db-file flag object to read
    clean_environment.setenv("RUMMY_DB", "sqlite:///x.db")
    resolve_urls(migrate_args)
    assert migrate_args.db == "sqlite:///x.db"


@pytest.mark.parametrize(("given", "expected"), [
    ({"db": "sqlite:///a.db", "db_file": "FILE"}, "give --db or --db-file, not both"),
    ({"redis_file": "MISSING"}, "cannot read --redis-file MISSING: No such file or directory"),
    ({"db_file": "EMPTY"}, "--db-file EMPTY is empty: it must hold the URL on one line"),
    ({"db_file": "TWO"}, "--db-file TWO holds more than one line: it must hold only the URL"),
])
def test_clear_errors(tmp_path: Path, clean_environment: pytest.MonkeyPatch, given: dict[str, str],
                      expected: str) -> None:
    (tmp_path / "FILE").write_text("sqlite:///b.db\n")
    (tmp_path / "EMPTY").write_text(" \n\n")
    (tmp_path / "TWO").write_text("sqlite:///b.db\nsqlite:///c.db\n")
    clean_environment.chdir(tmp_path)
    with pytest.raises(URLSourceError) as refused:
        resolve_urls(args(**given))
    assert str(refused.value) == expected


def rummy(tmp_path: Path, *arguments: str, **environment: str) -> subprocess.CompletedProcess[str]:
    env = {key: value for key, value in os.environ.items() if key not in ("RUMMY_DB", "RUMMY_REDIS")}
    return subprocess.run([sys.executable, "-m", "rummy", *arguments], cwd=tmp_path, capture_output=True,
                          text=True, timeout=120, env={**env, **environment})


def test_the_commands_read_them(tmp_path: Path) -> None:
    """``rummy migrate`` takes the database from ``RUMMY_DB`` or ``--db-file``; ``rummy serve`` refuses an
    empty file with one line and exit code 2, before it opens anything."""
    done = rummy(tmp_path, "migrate", RUMMY_DB="sqlite:///from-env.db")
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "from-env.db").exists() and not (tmp_path / "rummy.db").exists()
    (tmp_path / "db-url").write_text("sqlite:///from-file.db\n")
    done = rummy(tmp_path, "migrate", "--db-file", "db-url", RUMMY_DB="sqlite:///from-env.db")
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "from-file.db").exists()
    (tmp_path / "empty").write_text("")
    refused = rummy(tmp_path, "serve", "--db-file", "empty", "--port", "0")
    assert refused.returncode == 2
    assert refused.stderr.strip() == "rummy: --db-file empty is empty: it must hold the URL on one line"
    refused = rummy(tmp_path, "serve", "--redis-file", "nowhere", "--port", "0")
    assert refused.returncode == 2
    assert refused.stderr.strip() == "rummy: cannot read --redis-file nowhere: No such file or directory"
