"""The ``rummy`` command line through ``rummy.cli.main``: ``variants``, ``rules ID``, ``rules --errors``,
``replay`` and its exit codes, and house variants given with ``--variant-file`` (README "Command line";
game-record.md §5; docs/options.md)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rummy.cli import main
from rummy.engine import OPTION_PARSERS
from rummy.engine import variants as variants_module
from rummy.engine.errors import Rule
from tests.variants import BUILT_IN

VARIANT_IDS = list(BUILT_IN)

OPTIONS_DOC = Path(__file__).resolve().parents[1] / "docs" / "options.md"


def documented_keys() -> list[str]:
    """The house-rule keys docs/options.md lists (the first column of its table: `a`, `b`), in its order."""
    keys: list[str] = []
    for line in OPTIONS_DOC.read_text(encoding="utf-8").splitlines():
        if line.startswith("| `"):
            keys += re.findall(r"`([a-z0-9_.]+)`", line.split("|")[1])
    return keys


# every house-rule key of rules.md §8 that is an attribute's own name (not players.min/max, not an alias)
SECTION_8_KEYS = [key for key in documented_keys() if OPTION_PARSERS[key][0] == key]


def test_options_doc_lists_every_declared_key_once() -> None:
    """docs/options.md is the contract: it names each key declared on the Variant fields, and no other."""
    keys = documented_keys()
    assert len(keys) == len(set(keys)) and set(keys) == set(OPTION_PARSERS)

BASIC_HANDS = [
    ["7C", "7D", "7H", "3S", "4S", "5S", "KC", "KD", "KH", "9D"],
    ["AC", "2D", "3C", "4D", "AH", "2H", "3D", "4C", "AS", "2S"],
]

MAY_I_HANDS = [
    ["7C", "7D", "7H", "9C", "9D", "9S", "KC", "KD", "4S", "5H", "6D"],
    ["8C", "8D", "8H", "QC", "QD", "QH", "3S", "4C", "5D", "6H", "TS"],
    ["3C", "3D", "3H", "JC", "JD", "JS", "AC", "5S", "6S", "TH", "KH"],
    ["4D", "4H", "TC", "TD", "5C", "6C", "8S", "QS", "AD", "AH", "KS"],
]
# p1 May-I's on p0's turn, then again on p2's turn after p3 and p0 pass (rules.md §5.7)
TWO_MAY_IS = [
    "p0 draw", "p1 buy", "p0 discard 4S",
    "p1 draw", "p1 discard TS",
    "p2 draw", "p3 pass", "p0 pass", "p1 buy",
]


@pytest.fixture(autouse=True)
def _restore_registry() -> Iterator[None]:
    """``--variant-file`` registers the house variant; keep the registry as it was for other tests."""
    saved = dict(variants_module.VARIANTS)
    yield
    variants_module.VARIANTS.clear()
    variants_module.VARIANTS.update(saved)


def _basic_record(actions: list[str], **extra: Any) -> dict[str, Any]:
    record: dict[str, Any] = {
        "format": "rummy-record/1",
        "variant": "basic",
        "players": ["Ann", "Bob"],
        "rounds": [{"dealer": 1, "hands": BASIC_HANDS, "upcard": "8C", "stock": ["6S"], "actions": actions}],
    }
    record.update(extra)
    return record


def _may_i_record(variant: str, actions: list[str]) -> dict[str, Any]:
    return {
        "format": "rummy-record/1",
        "variant": variant,
        "players": ["Ann", "Bob", "Cid", "Dee"],
        "rounds": [{
            "dealer": 3,
            "hands": MAY_I_HANDS,
            "upcard": "JH",
            "stock": ["AS", "8D", "9H", "2S", "JK", "3D", "5H", "6H", "7S", "QC"],
            "actions": actions,
        }],
    }


def _write(path: Path, data: Any) -> str:
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


def _run(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, str]:
    code = main(argv)
    return code, capsys.readouterr().out


def _run_json(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, dict[str, Any]]:
    code, out = _run(capsys, argv)
    return code, json.loads(out)


# -- rummy variants / rummy rules -----------------------------------------------------------------


def test_variants_lists_every_variant(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = _run(capsys, ["variants"])
    assert code == 0
    for variant_id in VARIANT_IDS:
        assert variant_id in out
    for name in ["I'll Buy It", "15 Contracts", "May I", "Basic Rummy", "Purchase"]:
        assert name in out


def test_variants_shows_player_ranges(capsys: pytest.CaptureFixture[str]) -> None:
    _, out = _run(capsys, ["variants"])
    rows = {line.split()[0]: line for line in out.splitlines() if line.split()}
    # rules.md §0: players 3-8, 3-6, 3-8, 2-4, 2-6
    for variant_id, low, high in [("progressive-buy-it", 3, 8), ("progressive-15", 3, 6), ("may-i", 3, 8),
                                  ("basic", 2, 4), ("purchase", 2, 6)]:
        row = rows[variant_id]
        assert str(low) in row and str(high) in row


@pytest.mark.parametrize("variant_id", VARIANT_IDS)
def test_rules_prints_every_section_8_key(capsys: pytest.CaptureFixture[str], variant_id: str) -> None:
    code, out = _run(capsys, ["rules", variant_id])
    assert code == 0
    assert variant_id in out
    missing = [key for key in SECTION_8_KEYS if key not in out]
    assert not missing


def _option_line(out: str, key: str) -> str:
    lines = [line for line in out.splitlines() if line.strip().startswith(key) and line.strip()[len(key):][:1] in " =:"]
    assert lines, f"no line for {key}"
    return lines[0]


def test_rules_may_i_values(capsys: pytest.CaptureFixture[str]) -> None:
    _, out = _run(capsys, ["rules", "may-i"])
    # rules.md §8 may-i column
    assert "not_outnumber" in _option_line(out, "wild_policy")
    assert "3" in _option_line(out, "claim_limit")
    assert "player" in _option_line(out, "claim_limit_scope")
    assert "10" in _option_line(out, "two_points")
    assert "3" in _option_line(out, "decks_for_5")
    assert "relocate_in_run" in _option_line(out, "joker_swap")


def test_rules_basic_values(capsys: pytest.CaptureFixture[str]) -> None:
    _, out = _run(capsys, ["rules", "basic"])
    assert "low_only" in _option_line(out, "ace_mode")
    assert "2" in _option_line(out, "rummy_multiplier")
    assert "100" in _option_line(out, "target_by_players")


def test_rules_lists_the_eight_buy_it_rounds(capsys: pytest.CaptureFixture[str]) -> None:
    _, out = _run(capsys, ["rules", "progressive-buy-it"])
    for deal in range(6, 14):  # rules.md §3.3: 6 to 13 cards dealt
        assert str(deal) in out


def test_rules_unknown_variant_fails(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "no-such-variant"]) != 0


def test_rules_errors_lists_every_rule_key_with_its_description(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = _run(capsys, ["rules", "--errors"])
    assert code == 0
    lines = out.splitlines()
    assert len(lines) == len(Rule)
    for line, rule in zip(lines, Rule, strict=True):
        key, description = line.split(maxsplit=1)
        assert (key, description) == (rule.value, rule.description)


def test_rules_without_a_variant_or_errors_fails(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules"]) == 2
    assert "--errors" in capsys.readouterr().err


# -- rummy replay: exit codes (game-record.md §5) ---------------------------------------------------


def test_replay_legal_record_exit_0(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path / "legal.json", _basic_record(
        ["p0 draw", "p0 meld set:7C-7D-7H run:3S-4S-5S-6S set:KC-KD-KH", "p0 discard 9D"]))
    code, data = _run_json(capsys, ["replay", path, "--json"])
    assert code == 0
    assert data["ok"] is True
    assert data["state"]["phase"] == "round_over"
    # rules.md §6.8: going rummy doubles p1's 23 points
    assert data["results"]["rounds"] == [{"round": 1, "went_out": 0, "scores": [46, 0], "end": "out"}]
    assert data["results"]["game_over"] is False


def test_replay_illegal_action_exit_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path / "illegal.json", _basic_record(["p0 discard 9D"]))
    code, data = _run_json(capsys, ["replay", path, "--json"])
    assert code == 1
    assert data["ok"] is False
    assert data["error"]["round"] == 1
    assert data["error"]["index"] == 0
    assert data["error"]["action"] == "p0 discard 9D"
    assert isinstance(data["error"]["rule"], str) and data["error"]["rule"]
    assert data["state"]["phase"] == "draw"
    assert "results" not in data


def test_replay_malformed_record_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path / "malformed.json", _basic_record(["p0 draw"], options={"no_such_option": True}))
    code, data = _run_json(capsys, ["replay", path, "--json"])
    assert code == 2
    assert data["ok"] is False
    assert isinstance(data["error"]["message"], str)
    assert "state" not in data


def test_replay_bad_json_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "broken.json"
    path.write_text("{not json", encoding="utf-8")
    code, data = _run_json(capsys, ["replay", str(path), "--json"])
    assert code == 2
    assert data["ok"] is False


def test_replay_missing_file_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["replay", str(tmp_path / "nowhere.json"), "--json"])
    capsys.readouterr()
    assert code == 2


@pytest.mark.parametrize("actions, expected", [
    (["p0 draw", "p0 meld set:7C-7D-7H run:3S-4S-5S-6S set:KC-KD-KH", "p0 discard 9D"], 0),
    (["p0 discard 9D"], 1),
    (["p0 fly away"], 2),
])
def test_replay_text_output_same_exit_codes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], actions: list[str], expected: int
) -> None:
    path = _write(tmp_path / "record.json", _basic_record(actions))
    code, out = _run(capsys, ["replay", path])
    assert code == expected
    assert out.strip()


# -- rummy replay --variant-file --------------------------------------------------------------------


def test_variant_file_toml_house_rule_applies(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    vfile = tmp_path / "house.toml"
    vfile.write_text(
        'id = "family-may-i"\nbase = "may-i"\nname = "May I? (our family)"\n\n[options]\nmay_i_limit = 1\n',
        encoding="utf-8",
    )
    path = _write(tmp_path / "game.json", _may_i_record("family-may-i", TWO_MAY_IS))
    code, data = _run_json(capsys, ["replay", path, "--variant-file", str(vfile), "--json"])
    # the house limit of one May-I per player per hand makes p1's second May-I illegal
    assert code == 1
    assert data["error"]["round"] == 1
    assert data["error"]["index"] == 8
    assert data["state"]["claims_used"] == [0, 1, 0, 0]


def test_same_record_legal_in_base_variant(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path / "game.json", _may_i_record("may-i", TWO_MAY_IS))
    code, data = _run_json(capsys, ["replay", path, "--json"])
    # rules.md §5.7.7: three May-I's per player per hand by default
    assert code == 0
    assert data["state"]["claims_used"] == [0, 2, 0, 0]
    assert data["state"]["phase"] == "play"
    assert data["state"]["active"] == 2


def test_variant_file_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    vfile = _write(tmp_path / "house.json", {
        "id": "strict-may-i", "base": "may-i", "options": {"claim_limit": 1, "claim_limit_scope": "table"},
    })
    # p1's first May-I uses the table's single allowance; p2 may not claim on p1's turn
    actions = ["p0 draw", "p1 buy", "p0 discard 4S", "p1 draw", "p2 buy"]
    path = _write(tmp_path / "game.json", _may_i_record("strict-may-i", actions))
    code, data = _run_json(capsys, ["replay", path, "--variant-file", vfile, "--json"])
    assert code == 1
    assert data["error"]["index"] == 4


def test_variant_file_with_record_options(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    vfile = _write(tmp_path / "house.json", {"id": "family-basic", "base": "basic", "options": {"run_min": 4}})
    actions = ["p0 take", "p0 discard 8C"]
    # basic forbids discarding the card just taken from the pile (rules.md §6.6) ...
    plain = _write(tmp_path / "plain.json", _basic_record(actions, variant="family-basic"))
    code, data = _run_json(capsys, ["replay", plain, "--variant-file", vfile, "--json"])
    assert code == 1
    assert data["error"]["index"] == 1
    # ... and the record's own options apply on top of the house variant
    record = _basic_record(actions, variant="family-basic", options={"may_discard_card_taken_from_discard": True})
    allowed = _write(tmp_path / "allowed.json", record)
    code, data = _run_json(capsys, ["replay", allowed, "--variant-file", vfile, "--json"])
    assert code == 0
    assert data["state"]["discard"] == ["8C"]


def test_variant_file_run_min_rejects_short_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    vfile = _write(tmp_path / "house.json", {"id": "family-basic", "base": "basic", "options": {"run_min": 4}})
    short = _write(tmp_path / "short.json", _basic_record(["p0 draw", "p0 meld run:3S-4S-5S"], variant="family-basic"))
    code, data = _run_json(capsys, ["replay", short, "--variant-file", vfile, "--json"])
    assert code == 1
    assert data["error"]["index"] == 1
    long = _write(tmp_path / "long.json", _basic_record(
        ["p0 draw", "p0 meld run:3S-4S-5S-6S", "p0 discard 9D"], variant="family-basic"))
    code, data = _run_json(capsys, ["replay", long, "--variant-file", vfile, "--json"])
    assert code == 0
    assert data["state"]["table"][0]["cards"] == ["3S", "4S", "5S", "6S"]


def test_variant_file_record_for_other_variant_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    vfile = _write(tmp_path / "house.json", {"id": "family-may-i", "base": "may-i", "options": {"may_i_limit": 1}})
    path = _write(tmp_path / "game.json", _may_i_record("may-i", ["p0 draw"]))
    code, data = _run_json(capsys, ["replay", path, "--variant-file", vfile, "--json"])
    assert code == 2
    assert data["ok"] is False


def test_variant_file_unknown_option_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    vfile = _write(tmp_path / "house.json", {"id": "odd-may-i", "base": "may-i", "options": {"no_such_key": 1}})
    path = _write(tmp_path / "game.json", _may_i_record("odd-may-i", ["p0 draw"]))
    code, data = _run_json(capsys, ["replay", path, "--variant-file", vfile, "--json"])
    assert code == 2
    assert data["ok"] is False
    assert "no_such_key" in data["error"]["message"]


def test_variant_file_bad_option_value_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    options = {"claim_mode": "sometimes"}
    vfile = _write(tmp_path / "house.json", {"id": "odd-may-i", "base": "may-i", "options": options})
    path = _write(tmp_path / "game.json", _may_i_record("odd-may-i", ["p0 draw"]))
    code, data = _run_json(capsys, ["replay", path, "--variant-file", vfile, "--json"])
    assert code == 2
    assert "claim_mode" in data["error"]["message"]


def test_variant_file_unknown_base_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    vfile = _write(tmp_path / "house.json", {"id": "odd", "base": "canasta"})
    path = _write(tmp_path / "game.json", _may_i_record("odd", ["p0 draw"]))
    code, data = _run_json(capsys, ["replay", path, "--variant-file", vfile, "--json"])
    assert code == 2
    assert data["ok"] is False


def test_variant_file_missing_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path / "game.json", _may_i_record("may-i", ["p0 draw"]))
    code, data = _run_json(capsys, ["replay", path, "--variant-file", str(tmp_path / "none.toml"), "--json"])
    assert code == 2
    assert data["ok"] is False
