"""The rule facts the browser draws from come from the engine (issue #28): where an ace stands in a run,
where each wild stands, which cards play as wilds (a two natural in its own place under
``twos_natural_in_place``), and the order of several lay-offs.  Records keep their format: only the view's
JSON grows a ``wild`` list.
"""

from __future__ import annotations

import pytest

from rummy.engine import (
    MeldError,
    TableMeld,
    apply_options,
    arrange_json,
    arrange_meld,
    get_variant,
    layoff_bodies,
    meld_json,
    meld_view_json,
    new_game,
    order_layoffs,
    parse_card,
    table_facts,
)
from rummy.engine.actions import parse_meld
from rummy.engine.melds import table_meld
from rummy.engine.variants import Variant
from rummy.record import state_json

P15 = get_variant("progressive-15")  # jokers and twos wild, runs of 3, aces low or high
TWOS_IN_PLACE = apply_options(P15, {"twos_natural_in_place": True})


def cards(text: str) -> list[int]:
    return [parse_card(c) for c in text.split()]


def arranged(kind: str, text: str, variant: Variant = P15, declared: int | None = None) -> str:
    return str(arrange_meld(kind, cards(text), variant, declared))


def table_meld_of(spec: str, variant: Variant, meld_id: int = 1) -> TableMeld:
    return table_meld(parse_meld(spec), variant, meld_id, 0)


# -- aces in runs: the variant's ace_mode, never the browser's guess ------------------------------------


def test_ace_low_run_in_any_order() -> None:
    assert arranged("run", "3H AH 2S 4H") == "run:AH-2S-3H-4H"  # the two stands for 2H


def test_ace_high_run_in_any_order() -> None:
    assert arranged("run", "KH AH QH") == "run:QH-KH-AH"


def test_lone_ace_with_wilds_stands_low_and_spare_wilds_go_above() -> None:
    assert arrange_json("run:JK-AH-JK", P15)["as"] == ["AH", "2H", "3H"]
    high_only = apply_options(P15, {"ace_mode": "high_only"})
    assert arrange_json("run:JK-AH-JK", high_only)["as"] == ["QH", "KH", "AH"]


def test_spare_wild_goes_above_a_run_unless_the_top_is_reached() -> None:
    assert arrange_json("run:JK-KH-QH", P15)["as"] == ["QH", "KH", "AH"]  # an ace may stand high here
    low_only = apply_options(P15, {"ace_mode": "low_only"})
    assert arrange_json("run:JK-KH-QH", low_only)["as"] == ["JH", "QH", "KH"]


def test_ace_high_run_refused_where_aces_are_low_only() -> None:
    basic = get_variant("basic")  # low_only, no wilds
    assert arranged("run", "2C AC 3C", basic) == "run:AC-2C-3C"
    with pytest.raises(MeldError) as refused:
        arranged("run", "KC AC QC", basic)
    assert refused.value.rule.value == "run-not-consecutive"


def test_ace_low_run_refused_where_aces_are_high_only() -> None:
    purchase = get_variant("purchase")  # high_only, runs of 4
    assert arranged("run", "AS QS JS KS", purchase) == "run:JS-QS-KS-AS"
    with pytest.raises(MeldError):
        arranged("run", "AS 2S 3S 4S", purchase)


def test_wilds_fill_gaps_in_the_places_they_stand_for() -> None:
    answer = arrange_json("run:7D-JK-4D-2C", P15)
    assert answer["cards"] == ["4D", "2C", "JK", "7D"] or answer["cards"] == ["4D", "JK", "2C", "7D"]
    assert answer["as"] == ["4D", "5D", "6D", "7D"] and answer["wild"] == [False, True, True, False]


def test_cards_that_make_no_run_get_the_engine_reason() -> None:
    for text, rule in (("3H 4S 5H", "run-mixed-suits"), ("3H 4H 9H", "run-not-consecutive")):
        with pytest.raises(MeldError) as refused:
            arranged("run", text)
        assert refused.value.rule.value == rule


def test_all_wild_melds_need_a_declaration() -> None:
    with pytest.raises(MeldError) as refused:
        arranged("run", "JK JK 2C")
    assert refused.value.rule.value == "declaration-required"
    assert arrange_json("run:JK-JK-2C=5H", P15)["as"] == ["5H", "6H", "7H"]
    with pytest.raises(MeldError) as refused:
        arranged("set", "JK 2D JK")
    assert refused.value.rule.value == "declaration-required"


def test_sets_list_naturals_first_and_refuse_mixed_ranks() -> None:
    assert arranged("set", "JK 7H 2C 7S") == "set:7H-7S-2C-JK"
    with pytest.raises(MeldError) as refused:
        arranged("set", "7H 8H 7S")
    assert refused.value.rule.value == "set-mixed-ranks"


# -- twos natural in place ---------------------------------------------------------------------------


def test_two_in_its_own_place_is_natural_under_the_house_rule() -> None:
    answer = arrange_json("run:4H-2H-3H", TWOS_IN_PLACE)
    assert answer["cards"] == ["2H", "3H", "4H"] and answer["wild"] == [False, False, False]
    plain = arrange_json("run:4H-2H-3H", P15)  # without it the two is a wild, spare above the naturals
    assert plain["cards"] == ["3H", "4H", "2H"] and plain["wild"] == [False, False, True]


def test_a_set_of_twos_is_natural_under_the_house_rule() -> None:
    answer = arrange_json("set:2S-2H-2C", TWOS_IN_PLACE)
    assert answer["as"] == ["2S", "2H", "2C"] or answer["as"] == ["2C", "2H", "2S"]
    assert answer["wild"] == [False, False, False]


def test_the_view_marks_which_cards_play_as_wilds() -> None:
    game = new_game(TWOS_IN_PLACE, ["Ann", "Bob", "Cid"], seed=1)
    game.table = [table_meld_of("run:2H-3H-2S", TWOS_IN_PLACE, 1), table_meld_of("set:7H-7S-2D-JK", TWOS_IN_PLACE, 2),
                  table_meld_of("set:2C-2D-2H", TWOS_IN_PLACE, 3)]
    table = game.view(0).to_json()["table"]
    assert [m["wild"] for m in table] == [[False, False, True], [False, False, True, True], [False, False, False]]
    assert table[0]["as"] == ["2H", "3H", "4H"]
    facts = table_facts(game.view(0))
    assert facts["wild_cards"] == ["2C", "2D", "2H", "2S", "JK"]


def test_records_keep_their_format() -> None:
    meld = table_meld_of("run:2H-3H-2S", TWOS_IN_PLACE)
    assert set(meld_json(meld, TWOS_IN_PLACE)) == {"id", "kind", "owner", "cards", "as"}
    assert meld_view_json(meld, TWOS_IN_PLACE) == {**meld_json(meld, TWOS_IN_PLACE), "wild": [False, False, True]}
    game = new_game(P15, ["Ann", "Bob", "Cid"], seed=1)
    game.table = [table_meld_of("run:3H-4H-JK", P15)]
    assert state_json(game)["table"] == [{"id": 1, "kind": "run", "owner": 0, "cards": ["3H", "4H", "JK"],
                                          "as": ["3H", "4H", "5H"]}]


def test_a_book_holds_no_wilds() -> None:
    purchase = get_variant("purchase")
    book = table_meld_of("book:9C-9D-9H-9S", purchase)
    assert meld_view_json(book, purchase)["wild"] == [False] * 4


# -- several lay-offs on one meld ---------------------------------------------------------------------


def test_layoffs_in_an_order_that_fits() -> None:
    run = table_meld_of("run:5H-6H-7H", P15, 4)
    assert layoff_bodies(run, ["3H", "8H", "4H"], P15) == ["layoff 4 4H", "layoff 4 3H", "layoff 4 8H"]


def test_layoffs_name_the_end_where_a_card_fits_both() -> None:
    run = table_meld_of("run:5H-6H-7H", P15, 4)
    order = order_layoffs(run, cards("JK 8H"), P15)
    assert order == [(parse_card("8H"), None), (parse_card("JK"), "high")]
    ace_run = table_meld_of("run:2C-3C-4C", get_variant("basic"), 2)  # low_only: the ace fits below only
    assert layoff_bodies(ace_run, ["AC", "5C"], get_variant("basic")) == ["layoff 2 AC", "layoff 2 5C"]


def test_layoffs_that_cannot_all_fit_are_refused() -> None:
    run = table_meld_of("run:5H-6H-7H", P15, 4)
    with pytest.raises(MeldError) as refused:
        order_layoffs(run, cards("3H 9H"), P15)
    assert refused.value.rule.value == "layoff-does-not-fit"
