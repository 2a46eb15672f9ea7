"""House rules in words (rummy.text.house_rule_docs), how to play (rummy.text.how_to_play) and a table's resolved facts
(rummy.engine.table_facts): one source for the create-table panel, the help panel, the table and ``rummy rules``."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from rummy.cli import main
from rummy.engine.game import Game, new_game
from rummy.engine.house_rules import OPTION_PARSERS, get_variant
from rummy.engine.variants import VARIANTS
from rummy.text.house_rule_docs import GROUPS, RULE_DOCS, choice_words, rules_in_words, value_words, variant_value
from rummy.text.how_to_play import claims_sentence, how_to_play

RAW = re.compile(r"\b[a-z0-9]+_[a-z0-9_]+\b")  # an engine spelling such as low_or_high


def test_every_house_rule_key_has_words() -> None:
    assert set(RULE_DOCS) == set(OPTION_PARSERS)
    for key, doc in RULE_DOCS.items():
        assert doc.group in GROUPS, key
        assert doc.label and doc.label[0].isupper() and not RAW.search(doc.label), key
        assert doc.description.endswith(".") and not RAW.search(doc.description), key
        control = OPTION_PARSERS[key][1].control
        assert control["type"] in ("bool", "int", "choice", "set", "per_players", "payments", "schedule"), key
        for choice in choice_words(key):
            assert not RAW.search(choice["label"]), (key, choice)


@pytest.mark.parametrize("variant_id", list(VARIANTS))
def test_values_read_as_words_and_rummy_rules_prints_them(capsys: pytest.CaptureFixture[str], variant_id: str) -> None:
    variant = get_variant(variant_id)
    rows = rules_in_words(variant)
    assert {row.group for row in rows} >= {"cards", "scoring"} - ({"cards"} if variant.scoring == "book" else set())
    assert main(["rules", variant_id]) == 0
    out = capsys.readouterr().out
    for row in rows:
        assert not RAW.search(row.words), (row.key, row.words)
        assert f"  {row.label}: {row.words}\n" in out
        assert f"    {row.key} = {json.dumps(row.value)} — {row.description}" in out


def test_rummy_rules_says_who_may_buy_as_the_rules_do(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "progressive-buy-it"]) == 0
    out = capsys.readouterr().out
    # rules.md §3.7 and seed 000: any player who is not the active player, the discarder included
    assert ("Before each draw, any player who is not the active player may buy the top discard, the player who "
            "discarded it included; the first to call gets it.") in out
    assert "any other player" not in out
    strict = get_variant("progressive-buy-it", {"discarder_may_claim": False, "claim_allowed_when_down": False})
    sentence = claims_sentence(strict)
    assert "except the player who discarded it (but not a player who has laid down)" in sentence
    assert "Each player has 3 May-I's per hand." in claims_sentence(get_variant("may-i"))
    assert "The whole table has 4 May-I's per hand." in claims_sentence(
        get_variant("may-i", {"may_i_limit": 4, "claim_limit_scope": "table"}))


def test_the_help_follows_house_rules() -> None:
    variant = get_variant("basic", {"target_by_players": {"2": 50, "3": 150, "4": 200}, "run_min": 4})
    text = "\n".join(line for section in how_to_play(variant, 2) for line in section["lines"])
    assert "the first to 50 points wins" in text and "a run is 4 or more cards" in text
    assert "Target score: 50 for 2 players, 150 for 3 players, 200 for 4 players" in text
    money = "\n".join(line for section in how_to_play(get_variant("progressive-15"), 5) for line in section["lines"])
    assert "Settlement in pennies by place, best first: +20¢, -2¢, -4¢, -6¢, -8¢." in money
    assert value_words("buy_schedule", variant_value(get_variant("progressive-15"), "buy_schedule")) == (
        "hands 9–11: 1 buy; hands 12–13: 2 buys, 1 blind card each; hand 14: 1 buy; other hands: none")


def test_the_views_facts_follow_house_rules() -> None:
    options = {"may_i_limit": 5, "two_points": 3, "wild_ranks": ["JOKER"], "ace_mode": "low_only"}
    game = new_game(get_variant("may-i", options), ["Ann", "Bob", "Cid"], seed=4)
    facts = game.view(1).to_json()["facts"]
    assert facts["claim_limit"] == 5 and facts["claims_left"] == [5, 5, 5] and facts["claim_name"] == "May I"
    assert facts["card_points"]["2"] == 3 and facts["card_points"]["JOKER"] == 10 and facts["card_points"]["A"] == 15
    assert facts["wild_ranks"] == ["JOKER"] and facts["ace_mode"] == "low_only"
    assert facts["played_to_table"] is False and facts["discard_dead"] is False
    basic = new_game("basic", ["Ann", "Bob", "Cid"], seed=4).view(None).to_json()["facts"]
    assert basic["target"] == 150 and basic["claim_name"] is None and basic["higher_wins"] is True
    assert basic["played_to_table"] is None and basic["free_melding"] is True
    twelfth = Game(get_variant("progressive-15"), ["Ann", "Bob", "Cid"], seed=4, start_round=12)
    twelfth.deal()
    p15 = twelfth.view(0).to_json()["facts"]
    assert p15["claim_limit"] == 2 and p15["claim_cost"] == {"penalty_cards": 1, "penalty_word": "blind card",
                                                              "pennies": 1}
    assert p15["claim_words"]["call"] == "Buy it" and p15["own_turn_claim"] is True
