"""Unit tests of the engine's building blocks: cards, variants, melds, notation, records, views."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rummy.engine.actions import Action, Verb, parse_action, parse_meld
from rummy.engine.cards import JOKER, card_name, parse_card
from rummy.engine.errors import IllegalActionError, MeldError, RecordSyntaxError, UsageError, VariantError
from rummy.engine.game import new_game
from rummy.engine.house_rules import OPTION_PARSERS, get_variant, load_variant_file
from rummy.engine.melds import MeldSpec, TableMeld, lay_off, layoff_ends, table_meld
from rummy.engine.state import GameState, Phase
from rummy.engine.variants import VARIANTS, Variant
from rummy.record import dumps, loads, record_of, replay
from tests.test_native import running


def cards(text: str) -> tuple[int, ...]:
    return tuple(parse_card(t) for t in text.split())


def test_every_card_round_trips() -> None:
    for card in range(53):
        assert parse_card(card_name(card)) == card
        assert parse_card(card_name(card).lower()) == card
    assert parse_card("10h") == parse_card("TH")
    assert card_name(JOKER) == "JK"
    for bad in ("1H", "11S", "XH", "", "JKK", "7"):
        with pytest.raises(RecordSyntaxError):
            parse_card(bad)


def test_variants_have_the_spec_packs_and_rounds() -> None:
    assert get_variant("progressive-buy-it").pack_size(4) == 162
    assert get_variant("progressive-15").pack_size(4) == 108
    may_i = get_variant("may-i")
    assert [may_i.decks_for(n) for n in range(3, 9)] == [2, 2, 3, 3, 4, 4]
    assert get_variant("may-i", {"decks_for_5": 2}).decks_for(5) == 2
    assert get_variant("basic").round_rules(1, 2).deal_size == 10
    assert get_variant("basic").round_rules(1, 3).deal_size == 7
    buy_it = get_variant("progressive-buy-it")
    assert [buy_it.round_rules(r, 4).deal_size for r in range(1, 9)] == list(range(6, 14))
    assert not buy_it.round_rules(8, 4).final_discard_allowed
    p15 = get_variant("progressive-15")
    assert [p15.round_rules(h, 4).claim_limit for h in range(1, 16)] == [0] * 8 + [1, 1, 1, 2, 2, 1, 0]
    assert p15.round_rules(12, 4).penalty_cards == 1
    assert p15.settlement_payments(4) == (12, -2, -4, -6)
    assert p15.settlement_payments(5) == (20, -2, -4, -6, -8)


def test_every_option_key_of_the_spec_is_known() -> None:
    for key in ("claim_priority", "discarder_may_claim", "round8_mode", "kitty_split", "may_i_limit",
                "stalemate_detection", "pc_discard_position", "book_ace_mode", "players.max"):
        assert key in OPTION_PARSERS


@pytest.mark.parametrize("options,fragment", [
    ({"colour": "red"}, "'colour'"),
    ({"claim_priority": "loudest"}, "'claim_priority'"),
    ({"may_i_limit": -1}, "'may_i_limit'"),
    ({"discarder_may_claim": "maybe"}, "'discarder_may_claim'"),
])
def test_bad_options_name_the_key(options: dict[str, object], fragment: str) -> None:
    with pytest.raises(VariantError, match=fragment):
        get_variant("may-i", options)


@pytest.mark.parametrize("variant,options,fragment", [
    ("basic", {"jokers_per_deck": 2}, "jokers in the pack"),
    ("progressive-15", {"wild_ranks": ["2"]}, "jokers in the pack"),
    ("progressive-buy-it", {"run_min": 5, "contract_exact_sizes": True}, "a run of exactly 4"),
])
def test_options_that_no_round_could_be_played_with_are_refused(variant: str, options: dict[str, object],
                                                                 fragment: str) -> None:
    with pytest.raises(VariantError, match=fragment):
        get_variant(variant, options)
    get_variant(variant, {**options, "jokers_per_deck": 0} if "wild_ranks" in options else {})


@pytest.mark.parametrize("options", [{"run_min": 4}, {"claim_mode": "none"}])
def test_a_contract_no_hand_can_reach_ends_its_round_by_exhaustion(options: dict[str, object]) -> None:
    from rummy.bots import make_bot, play_game

    # progressive-15 hand 12: five runs of 3 (of 4 with run_min 4: 20 cards, a hand reaches 16 at most;
    # without buys 15 cards, a hand holds 12)
    game = play_game("progressive-15", [make_bot("heuristic", seed=seat) for seat in range(4)], seed=3,
                     options=options, max_decisions=50_000)
    assert game.game_over
    assert game.results[11].end == "exhausted"


def test_a_stock_that_cannot_be_drawn_ends_a_purchase_round() -> None:
    import random

    from rummy.engine.game import Game
    from rummy.search.playout import drive, random_choice

    game = new_game("purchase", 4, seed=2, options={"stock_refill": "none"})
    rng = random.Random(2)

    def choose(game: Game, seat: int) -> Action:
        actions = game.legal_actions(seat)
        assert actions, "a seat to act always has a legal action"
        return random_choice(actions, rng)

    drive(game, choose)
    assert "exhausted" in [result.end for result in game.results]
    assert replay(loads(dumps(record_of(game)))).exit_code == 0


def test_basic_without_a_refill_ends_a_hand_in_stalemate_when_the_stock_is_out() -> None:
    from rummy.bots import make_bot, play_game

    game = play_game("basic", [make_bot("heuristic", seed=506 + seat) for seat in range(4)], seed=506,
                     options={"stock_refill": "none"}, max_decisions=20_000)
    assert game.game_over
    stalemates = [result for result in game.results if result.end == "stalemate"]
    assert stalemates and all(not any(result.scores) for result in stalemates)


def test_a_reshuffle_is_seeded_by_the_seed_the_round_and_the_earlier_reshuffles() -> None:
    """docs/game-record.md §3: the cards reshuffled into the stock are ordered by ``random.Random(seed + round
    number + earlier reshuffles)``; a reshuffle of one card (its only order) counts among the earlier ones."""
    import random

    from rummy.engine.rules.stock import shuffle_into_stock

    game = new_game("progressive-buy-it", 4, seed=5)
    game.stock, before = [7], game.refills
    shuffle_into_stock(game, [11])
    assert game.stock == [11, 7] and game.refills == before + 1
    shuffle_into_stock(game, [])
    assert game.stock == [11, 7] and game.refills == before + 2
    cards = list(range(20, 32))
    expected = list(cards)
    random.Random(5 + game.round_number + before + 2).shuffle(expected)
    shuffle_into_stock(game, cards)
    assert game.stock == [*expected[::-1], 11, 7] and game.refills == before + 3


def test_a_rearrangement_takes_the_cards_beyond_the_table_s_from_the_hand() -> None:
    """rules.md §3.8: every table card stays in the new melds (the lowest left out is named), and what the new
    melds hold beyond them comes from the hand, ascending."""
    from rummy.engine.actions import Action, Verb
    from rummy.engine.rules.table import _cards_from_hand

    action = Action(0, Verb.REARRANGE)
    assert _cards_from_hand([3, 4, 5, 20, 20], [20, 33, 5, 4, 20, 3, 2, 33], action) == [2, 33, 33]
    assert _cards_from_hand([], [9, 1], action) == [1, 9]
    assert _cards_from_hand([1, 1], [1, 1], action) == []
    for table, new, lost in (([3, 4, 9, 9], [4, 9, 3], 9), ([3, 4, 9], [9, 4, 40], 3), ([5, 6], [5, 5, 7], 6)):
        with pytest.raises(IllegalActionError) as refusal:
            _cards_from_hand(table, new, action)
        assert refusal.value.rule == "rearrange-card-lost" and card_name(lost) in str(refusal.value)


def test_unknown_variant() -> None:
    with pytest.raises(VariantError, match="unknown variant"):
        get_variant("gin")


def test_variant_file(tmp_path: Path) -> None:
    path = tmp_path / "family.toml"
    path.write_text('id = "family"\nbase = "may-i"\nname = "Family May I"\n[options]\nmay_i_limit = 5\n')
    variant = load_variant_file(path)
    assert (variant.id, variant.claim_limit, variant.name) == ("family", 5, "Family May I")
    path.write_text('id = "family"\nbase = "may-i"\n[options]\nmay_i_limt = 5\n')
    with pytest.raises(VariantError, match="may_i_limt"):
        load_variant_file(path)


def test_meld_validation() -> None:
    buy_it = get_variant("progressive-buy-it")
    run = table_meld(MeldSpec("run", cards("JC QC KC AC")), buy_it, 1, 0)
    assert run.stands_for(buy_it) == ["JC", "QC", "KC", "AC"]
    assert table_meld(MeldSpec("run", cards("AC 2C 3C 4C")), buy_it, 1, 0).low == 1
    with pytest.raises(MeldError):
        table_meld(MeldSpec("run", cards("QC KC AC 2C")), buy_it, 1, 0)
    with pytest.raises(MeldError, match="declare"):
        table_meld(MeldSpec("set", cards("JK JK JK")), buy_it, 1, 0)
    trio = table_meld(MeldSpec("set", cards("JK JK JK"), 12), buy_it, 1, 0)
    assert trio.stands_for(buy_it) == ["Q*", "Q*", "Q*"]
    may_i = get_variant("may-i")
    with pytest.raises(MeldError, match="wild"):
        table_meld(MeldSpec("set", cards("7H JK 2C")), may_i, 1, 0)
    wild_trio = table_meld(MeldSpec("set", cards("JK 2C 2D")), may_i, 1, 0)
    assert wild_trio.stands_for(may_i) is None
    with pytest.raises(MeldError):
        lay_off(wild_trio, parse_card("7H"), None, may_i)
    assert len(lay_off(wild_trio, JOKER, None, may_i).cards) == 4


def test_layoff_ends_never_hides_a_fitting_card() -> None:
    """The quick filter before lay_off: a card that fits some end of a meld is always tried there."""

    def fits(meld: TableMeld, card: int, ends: tuple[str | None, ...], variant: Variant) -> bool:
        for end in ends:
            try:
                lay_off(meld, card, end, variant)
            except MeldError:
                continue
            return True
        return False

    for variant_id, specs in {
        "progressive-buy-it": ["run:JC-QC-KC-AC", "run:2H-3H-4H-5H", "set:7S-7D-7C"],
        "progressive-15": ["run:JK-2C-2D-JK=5H", "set:9S-9D-2C"],
        "may-i": ["set:JK-2C-2D", "run:AH-2H-3H-4H"],
        "basic": ["run:JD-QD-KD", "set:4S-4H-4D", "run:AS-2S-3S"],
    }.items():
        variant = get_variant(variant_id)
        for number, spec in enumerate(specs, 1):
            meld = table_meld(parse_meld(spec), variant, number, 0)
            for card in range(53):
                tried = layoff_ends(meld, card, variant)
                assert fits(meld, card, ("low", "high", None), variant) == fits(meld, card, tried, variant), \
                    (variant_id, spec, card_name(card))


def test_all_wild_run_declaration() -> None:
    p15 = get_variant("progressive-15")
    meld = table_meld(parse_meld("run:JK-2C-2D-JK=5H"), p15, 1, 0)
    assert meld.stands_for(p15) == ["5H", "6H", "7H", "8H"]


def test_action_notation_round_trip() -> None:
    for text in ("p0 draw", "p3 buy", "p1 down set:7H-7S-JK run:3D-JK-5D-6D", "p2 layoff 3 8H low",
                 "p2 rearrange 1,4 => run:3H-4H-5H-6H set:7C-7D-7S", "p0 purchase 9D 3C",
                 "p1 trade p2 KH", "p2 layoff 3 8H ; layoff 5 QS", "p0 book book:8C-8D-8H-8S"):
        assert str(parse_action(text, 4)) == text
    assert str(parse_action("p1 discard 10h  # comment", 4)) == "p1 discard TH"
    for bad in ("p9 draw", "p0 fly", "p0 discard", "p0 down set:7H-XX", "draw", "p0 layoff x 7H"):
        with pytest.raises(RecordSyntaxError):
            parse_action(bad, 4)


def test_illegal_action_changes_nothing() -> None:
    game = new_game("progressive-buy-it", 4, seed=5)
    before = json.dumps(record_of(game).__dict__, default=str)
    with pytest.raises(IllegalActionError) as info:
        game.apply_text(f"p{game.active} discard JK")
    assert info.value.rule == "draw-first"
    assert "p" in str(info.value) and "rule: draw-first" in str(info.value)
    assert json.dumps(record_of(game).__dict__, default=str) == before


@pytest.mark.parametrize("backend", ["python", "native"])
def test_an_action_built_by_hand_with_no_card_is_refused_and_changes_nothing(backend: str) -> None:
    """no-such-card: a card field, a meld's card or a declaration out of range is refused with a message that names
    it, on either backend, and the game is unchanged (a negative card would otherwise index the hand from its end)."""
    game = new_game("basic", 2, seed=1)
    game.apply(Action(game.active, Verb.DRAW))
    seat = game.active
    held = max(card for card in range(JOKER + 1) if game.hands[seat][card])
    before = json.dumps(record_of(game).__dict__, default=str)
    bad = [Action(seat, Verb.DISCARD, card=held - JOKER - 1), Action(seat, Verb.DISCARD, card=JOKER + 1),
           Action(seat, Verb.DISCARD, card="4"),  # type: ignore[arg-type]
           Action(seat, Verb.LAYOFF, card=10**30, meld=1),
           Action(seat, Verb.MELD, melds=(MeldSpec("set", (0, 13, 999)),)),
           Action(seat, Verb.MELD, melds=(MeldSpec("set", (0, 13, 26), 40),)),
           Action(seat, Verb.BATCH, steps=(Action(seat, Verb.LAYOFF, card=-1, meld=1),))]
    with running(backend):
        for action in bad:
            with pytest.raises(IllegalActionError) as info:
                game.apply(action)
            assert info.value.rule == "no-such-card", action
            assert "?" in str(info.value)  # the number that is no card, as the message writes it
            assert not game.is_legal(action)
    assert json.dumps(record_of(game).__dict__, default=str) == before
    assert card_name(53) == "?53" and card_name(-1) == "?-1"


def test_a_run_of_wilds_declares_a_natural_card() -> None:
    """A run of wilds only is placed by its declared suit and start (rules.md §3.4): a joker names neither."""
    p15 = get_variant("progressive-15")
    with pytest.raises(MeldError) as info:
        table_meld(parse_meld("run:JK-JK-JK=JK"), p15, 1, 0)
    assert info.value.rule == "declaration-required"
    assert table_meld(parse_meld("run:JK-JK-JK=4C"), p15, 1, 0).stands_for(p15) == ["4C", "5C", "6C"]


def test_a_copy_shares_no_mutable_field_and_its_rng_draws_alone() -> None:
    game = new_game("may-i", 4, seed=8)
    for _ in range(30):
        game.apply(game.legal_actions(game.next_to_act())[0])
    copy = game.copy()
    for name in GameState.__dataclass_fields__:
        value = getattr(game, name)
        if isinstance(value, (list, set, dict)) and name != "pack":  # the pack is never changed
            assert getattr(copy, name) is not value and getattr(copy, name) == value, name
    assert all(mine is not theirs for mine, theirs in zip(copy.hands, game.hands, strict=True))
    state = game.rng.getstate()
    assert copy.rng.getstate() == state and copy.rng is not game.rng
    copy.rng.random()
    assert game.rng.getstate() == state
    again = game.copy()
    game.rng.random()
    assert again.rng.getstate() == state != game.rng.getstate()


def test_record_round_trip_keeps_optional_fields() -> None:
    text = json.dumps({
        "format": "rummy-record/1", "variant": "may-i", "options": {"may_i_limit": 2},
        "players": ["A", "B", "C"], "start": {"round": 2, "totals": [5, 0, 10], "kitty": 0}, "seed": 9,
        "rounds": [{"dealer": 1, "hands": [[], [], []], "upcard": "KD", "stock": ["4C"],
                    "actions": ["p2 draw"], "x-note": "kept"}],
        "x-source": "test",
    })
    assert dumps(loads(text)) == text


def test_views_hide_other_hands_and_the_stock() -> None:
    game = new_game("progressive-buy-it", 4, seed=2)
    for seat in range(4):
        view = game.view(seat).to_json()
        assert view["hand"] == [card_name(c) for c in game.hand(seat)]
        text = json.dumps(view)
        assert "stock\": [" not in text
        assert "hands" not in view
        assert view["hand_sizes"] == [len(game.hand(s)) for s in range(4)]
    assert game.view(None).to_json()["hand"] == []


def test_engine_written_record_replays() -> None:
    from rummy.search.playout import random_game

    for variant in VARIANTS:
        game = random_game(variant, 3, seed=11)
        result = replay(loads(dumps(record_of(game))))
        assert result.exit_code == 0, result.error
        assert result.game is not None and result.game.totals == game.totals


def test_redacted_game_holds_nothing_hidden() -> None:
    import random

    from rummy.search.determinize import determinize, redact

    game = new_game("progressive-buy-it", 4, seed=9)
    public = redact(game, 2)
    assert all(sum(public.hands[s]) == 0 for s in (0, 1, 3))
    assert public.hands[2] == game.hands[2]
    assert public.stock == [] and public.deals == [] and public.log == [] and public.seed == 0
    guess = determinize(public, 2, random.Random(4))
    assert guess.sizes == game.sizes and len(guess.stock) == len(game.stock)
    assert sorted(c for s in range(4) for c in guess.hand(s)) + sorted(guess.stock) != []
    total = [0] * 53
    for s in range(4):
        for c, k in enumerate(guess.hands[s]):
            total[c] += k
    for c in guess.stock + guess.discard:
        total[c] += 1
    assert total == game.pack
    guess.apply(guess.legal_actions(guess.next_to_act())[0])


@pytest.mark.parametrize("variant_id", sorted(VARIANTS))
def test_a_hand_with_no_card_put_on_the_table_washes_out(variant_id: str) -> None:
    """rules.md §2.9 washout: once ``washout_laps`` times round the table pass with no card put on the
    table, the hand ends by exhaustion as the next turn would start; ``null`` turns the rule off."""
    from rummy.engine.actions import Verb
    from rummy.engine.game import Game, Phase

    quiet = (Verb.PASS, Verb.DRAW, Verb.DISCARD)

    def play_quietly(options: dict[str, object], turns: int) -> Game:
        game = new_game(variant_id, 3, seed=5, options=options)
        while game.phase is not Phase.ROUND_OVER and game.turns_played <= turns:
            seat = game.next_to_act()
            game.apply(next(a for a in game.legal_actions(seat) if a.verb in quiet))
        return game

    game = play_quietly({"washout_laps": 2}, 100)
    assert game.phase is Phase.ROUND_OVER
    assert game.turns_played == 2 * 3 and not game.table
    assert game.results[-1].end == "exhausted" and game.results[-1].went_out is None
    assert replay(loads(dumps(record_of(game)))).exit_code == 0
    never = play_quietly({"washout_laps": None}, 2 * 3 + 1)
    assert never.phase is not Phase.ROUND_OVER or never.results[-1].end != "exhausted"


def test_a_deal_larger_than_the_pack_is_refused_before_anything_is_dealt() -> None:
    """purchase with ten cards each at six seats would need 67 of its 52 cards: a clear DealError, no game."""
    from rummy.engine.errors import DealError

    with pytest.raises(DealError, match="67 cards to 6 players .* pack of 52"):
        new_game("purchase", 6, seed=1, options={"deal_size": 10})
    assert new_game("purchase", 4, seed=1, options={"deal_size": 10}).sizes == [10] * 4


def test_basic_beyond_its_four_players_needs_a_deal_size_and_a_target() -> None:
    """basic deals 10/7/7 and plays to 100/150/200 for 2/3/4 players (rules.md §6.2); raising players.max
    alone leaves five and more seats without a hand size or a target: a clear DealError, not an empty deal
    or a game without end."""
    from rummy.engine.errors import DealError

    with pytest.raises(DealError, match="no target score is set for 8 players"):
        new_game("basic", 8, seed=1, options={"players.max": 8})
    targets = {str(n): 200 for n in range(2, 9)}
    with pytest.raises(DealError, match="no deal size is set for 5 players .* set deal_size"):
        new_game("basic", 5, seed=1, options={"players.max": 8, "target_by_players": targets})
    game = new_game("basic", 5, seed=1, options={"players.max": 8, "target_by_players": targets, "deal_size": 6})
    assert game.sizes == [6] * 5


@pytest.mark.parametrize("backend", ["python", "native"])
def test_the_seat_to_ask_first(backend: str) -> None:
    """In a claim window the eligible seat nearest to the active player's left that has not answered (rules.md
    §2.8), else the active player; asking when nobody is to act is a usage error."""
    with running(backend):
        game = new_game("progressive-buy-it", 5, seed=7)
        window = game.window
        assert game.phase is Phase.CLAIM and window is not None
        first, second = window.eligible[0], window.eligible[1]
        assert (first - game.active) % 5 < (second - game.active) % 5
        assert game.next_to_act() == first
        game.apply(Action(first, Verb.PASS))
        assert game.next_to_act() == second
        over = game.copy()
        over.phase = Phase.ROUND_OVER
        with pytest.raises(UsageError, match="nobody is to act"):
            over.next_to_act()
