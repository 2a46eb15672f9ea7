"""The modes of a variant as enums (rummy.engine.modes): parsing, refusal, string compatibility, family facts."""

from __future__ import annotations

import dataclasses
import json
import re
from enum import StrEnum
from pathlib import Path
from typing import get_type_hints

import pytest

from rummy.engine.errors import VariantError
from rummy.engine.house_rules import OPTION_PARSERS, apply_options, get_variant, variant_from_data
from rummy.engine.modes import AceMode, ClaimsPerWindow, GoingOutMode, Round8Mode, Scoring, TieBreak
from rummy.engine.variants import VARIANTS, Variant
from tests.variants import BUILT_IN

MODE_FIELDS = {name: hint for name, hint in get_type_hints(Variant).items()
               if isinstance(hint, type) and issubclass(hint, StrEnum)}
# Option keys whose value is a mode, with the mode's enum.
MODE_OPTIONS = [(key, MODE_FIELDS[attribute]) for key, (attribute, _) in sorted(OPTION_PARSERS.items())
                if attribute in MODE_FIELDS]


def test_every_mode_but_scoring_and_the_claim_call_is_a_house_rule_key() -> None:
    """The scoring family and what players call out to claim (words, not a rule) are the variant's own."""
    assert len(MODE_FIELDS) == 24
    keyed = {OPTION_PARSERS[key][0] for key, _ in MODE_OPTIONS}
    assert set(MODE_FIELDS) - keyed == {"scoring", "claim_call"}


@pytest.mark.parametrize("key,mode", MODE_OPTIONS)
def test_the_parser_accepts_every_value_of_the_mode_and_returns_the_member(key: str, mode: type[StrEnum]) -> None:
    _, parse = OPTION_PARSERS[key]
    for member in mode:
        parsed = parse(key, member.value)
        assert parsed is member
        assert parsed == member.value and json.dumps(parsed) == json.dumps(member.value)


@pytest.mark.parametrize("key,mode", MODE_OPTIONS)
@pytest.mark.parametrize("bad", ["sideways", "", "LOW_ONLY", 7, None, ["none"]])
def test_the_parser_refuses_other_values_listing_the_allowed_ones(key: str, mode: type[StrEnum], bad: object) -> None:
    _, parse = OPTION_PARSERS[key]
    with pytest.raises(VariantError) as error:
        parse(key, bad)
    message = str(error.value)
    assert repr(key) in message and repr(bad) in message
    assert all(member.value in message for member in mode)


def test_a_refused_mode_names_the_choices_in_order_and_changes_nothing() -> None:
    base = get_variant("basic")
    with pytest.raises(VariantError, match=re.escape(
            "option 'ace_mode' must be one of 'low_or_high', 'low_only', 'high_only', not 'sideways'")):
        apply_options(base, {"ace_mode": "sideways"})
    assert base.ace_mode is AceMode.LOW_ONLY


def test_claims_per_window_is_written_1_or_cascade() -> None:
    _, parse = OPTION_PARSERS["claims_per_window"]
    assert parse("claims_per_window", 1) is ClaimsPerWindow.ONE
    assert parse("claims_per_window", "1") is ClaimsPerWindow.ONE
    assert parse("claims_per_window", "cascade") is ClaimsPerWindow.CASCADE


def test_a_mode_is_its_string_everywhere() -> None:
    variant = get_variant("progressive-buy-it", {"tie_break": "last_round"})
    assert variant.tie_break is TieBreak.LAST_ROUND
    assert variant.tie_break == "last_round" and f"{variant.tie_break}" == "last_round"
    assert json.loads(json.dumps({"mode": variant.claim_mode})) == {"mode": "pre_draw"}
    assert {"pre_draw": 1}[variant.claim_mode] == 1


def test_every_built_in_mode_is_a_member() -> None:
    for variant in VARIANTS.values():
        for name, mode in MODE_FIELDS.items():
            assert type(getattr(variant, name)) is mode, (variant.id, name)


def test_a_variant_built_with_strings_holds_members() -> None:
    built = dataclasses.replace(get_variant("basic"), ace_mode="high_only", scoring="winner_collects")  # type: ignore[arg-type]
    assert built.ace_mode is AceMode.HIGH_ONLY and built.scoring is Scoring.WINNER_COLLECTS
    with pytest.raises(VariantError, match="'scoring' must be one of 'penalty', 'winner_collects', 'book'"):
        dataclasses.replace(get_variant("basic"), scoring="golf")  # type: ignore[arg-type]


def test_ace_modes_give_the_run_bounds() -> None:
    assert AceMode.LOW_OR_HIGH.run_bounds == (1, 14) and AceMode.LOW_OR_HIGH.ace_high
    assert AceMode.LOW_ONLY.run_bounds == (1, 13) and not AceMode.LOW_ONLY.ace_high
    assert AceMode.HIGH_ONLY.run_bounds == (2, 14) and AceMode.HIGH_ONLY.ace_high


# -- family facts ----------------------------------------------------------------------------------


@pytest.mark.parametrize("variant_id,contracts,books,purchase_cards,free", [
    ("progressive-buy-it", True, False, False, False),
    ("progressive-15", True, False, False, False),
    ("may-i", True, False, False, False),
    ("basic", False, False, False, True),
    ("purchase", False, True, True, False),
])
def test_family_facts_of_the_built_in_variants(variant_id: str, contracts: bool, books: bool, purchase_cards: bool,
                                               free: bool) -> None:
    variant = get_variant(variant_id)
    assert (variant.has_contracts, variant.uses_books, variant.uses_purchase_cards, variant.free_melding) == (
        contracts, books, purchase_cards, free)


@pytest.mark.parametrize("variant_id,mode", [
    ("basic", GoingOutMode.BOOK), ("may-i", GoingOutMode.BOOK), ("purchase", GoingOutMode.MELD_ONLY),
    ("purchase", GoingOutMode.DISCARD_OR_MELD),
])
def test_going_out_by_book_belongs_to_book_scoring_only(variant_id: str, mode: GoingOutMode) -> None:
    with pytest.raises(VariantError, match="going_out_mode = book belongs to book scoring"):
        get_variant(variant_id, {"going_out_mode": mode.value})


def _last_round_rules(base: str, round8_mode: Round8Mode) -> tuple[bool, bool, bool]:
    rounds = [{"contract": [["set", 3], ["set", 3]], "deal": 10},
              {"contract": [["run", 4], ["set", 3]], "deal": 10, "final_discard_allowed": False}]
    variant = variant_from_data({"id": "house", "base": base, "rounds": rounds,
                                 "options": {"round8_mode": round8_mode.value}})
    rules = variant.round_rules(2, 4)
    return rules.final_discard_allowed, rules.must_discard_to_go_out, rules.must_go_out_on_laydown


def test_round8_mode_reads_the_last_round_of_the_000_family_only() -> None:
    assert _last_round_rules("progressive-buy-it", Round8Mode.KEEP_ONE_FOR_DISCARD) == (True, True, False)
    assert _last_round_rules("progressive-buy-it", Round8Mode.MUST_GO_OUT_ON_LAYDOWN) == (False, False, True)
    assert _last_round_rules("may-i", Round8Mode.KEEP_ONE_FOR_DISCARD) == (False, False, False)
    assert _last_round_rules("may-i", Round8Mode.MUST_GO_OUT_ON_LAYDOWN) == (False, False, False)


ENGINE = Path(__file__).resolve().parents[1] / "src" / "rummy"
BUILT_IN_IDS = BUILT_IN
VARIANT_IDS = "|".join(re.escape(variant_id) for variant_id in BUILT_IN_IDS)
VARIANT_ID_TEST = re.compile(rf"""(==|!=|\bin)\s*\(?\s*["']({VARIANT_IDS})["']""")


def test_no_variant_id_is_tested_in_engine_or_bot_code() -> None:
    files = [*ENGINE.glob("*.py"), *(ENGINE / "solver").glob("*.py"), *(ENGINE / "bots").glob("*.py")]
    offenders = [f"{path.name}:{number}" for path in files
                 for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
                 if VARIANT_ID_TEST.search(line) and not line.lstrip().startswith(">>>")]
    assert offenders == []
