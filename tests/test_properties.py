"""Property tests: random legal play of whole games never breaks the engine's invariants."""

from __future__ import annotations

import contextlib
import random

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from rummy.engine.actions import Action, Verb
from rummy.engine.cards import CARD_COUNT, JOKER, to_counts
from rummy.engine.errors import IllegalActionError, VariantError
from rummy.engine.game import Game, new_game
from rummy.engine.house_rules import OPTION_PARSERS, get_variant
from rummy.record import dumps, loads, record_of, replay, results_json, state_json
from rummy.search.playout import PlayoutLimit, drive
from tests.profiles import examples
from tests.random_games import random_play
from tests.variants import BUILT_IN, seat_counts

TABLES = [(variant, players) for variant in BUILT_IN for players in seat_counts(variant)]


def check_invariants(game: Game) -> None:
    held = [0] * CARD_COUNT
    for seat in range(game.n):
        assert game.sizes[seat] == sum(game.hands[seat]), "hand size out of step"
        assert min(game.hands[seat]) >= 0
        for card, count in enumerate(game.hands[seat]):
            held[card] += count
    others = to_counts(list(game.stock) + list(game.discard) + [c for m in game.table for c in m.cards]
                       + list(game.purchase_cards or []))
    total = [held[c] + others[c] for c in range(CARD_COUNT)]
    assert total == game.pack, "cards not conserved"
    assert len(game.discard) == len(game.discarders)
    if game.to_act:  # the seat asked first: the waiting seat nearest to the active player's left (rules.md §2.8)
        assert game.next_to_act() == min(game.to_act, key=lambda seat: (seat - game.active) % game.n)


def random_action(game: Game, rng: random.Random) -> Action:
    """A probably-illegal action: random seat, verb and card."""
    seat = rng.randrange(game.n)
    verb = rng.choice([Verb.DRAW, Verb.TAKE, Verb.BUY, Verb.PASS, Verb.DISCARD, Verb.LAYOFF, Verb.SWAP])
    card = rng.choice([JOKER, rng.randrange(52)])
    return Action(seat, verb, card=card, meld=rng.randrange(1, 6))


def play_checked(variant: str, players: int, seed: int, *, probe_every: int = 7) -> Game:
    rng = random.Random(seed)
    game = new_game(variant, players, seed=seed)
    for decisions, turn in enumerate(random_play(game, rng, policy="steered")):
        assert decisions < 100_000, "game does not end"
        check_invariants(game)
        actions = turn.moves
        assert actions, f"no legal action for p{turn.seat} in {game.phase}"
        if decisions % probe_every == 0:
            # every enumerated action applies (on a copy)
            for action in rng.sample(actions, min(4, len(actions))):
                copy = game.clone()
                copy.apply(action)
                check_invariants(copy)
            # a rejected action leaves no trace
            before = (state_json(game), results_json(game), len(game.log))
            bad = random_action(game, rng)
            try:
                game.clone().apply(bad)
            except IllegalActionError:
                try:
                    game.apply(bad)
                except IllegalActionError:
                    pass
                assert (state_json(game), results_json(game), len(game.log)) == before
    return game


@pytest.mark.parametrize("variant,players", TABLES)
def test_random_games_keep_invariants_and_replay(variant: str, players: int) -> None:
    for seed in range(2):
        game = play_checked(variant, players, seed)
        assert game.game_over
        record = loads(dumps(record_of(game)))
        result = replay(record)
        assert result.exit_code == 0, result.error
        assert result.game is not None
        assert state_json(result.game) == state_json(game)
        assert results_json(result.game) == results_json(game)


@settings(max_examples=examples(25))
@given(seed=st.integers(0, 2**31 - 1), table=st.sampled_from(TABLES))
def test_property_random_games(seed: int, table: tuple[str, int]) -> None:
    variant, players = table
    game = play_checked(variant, players, seed, probe_every=11)
    assert dumps(loads(dumps(record_of(game)))) == dumps(record_of(game))


# Values tried for each house-rule key (rules.md §8) in the random-options property test.  A yes/no or a mode
# key takes every value its declaration allows (rummy.engine.OPTION_PARSERS); a number or a table takes the few
# values listed here; the keys in LEFT_OUT are not tried.
LISTED_VALUES: dict[str, list[object]] = {
    "jokers_per_deck": [0, 1, 2], "wild_ranks": [[], ["JOKER"], ["2"], ["JOKER", "2"]], "run_min": [2, 3, 4, 5],
    "group_min": [2, 3, 4], "max_new_melds_per_turn": [None, 1, 2], "claim_limit": [None, 0, 1, 3],
    "claim_penalty_cards": [0, 1, 2], "deal_size": [None, 5, 7, 10], "max_turns": [None, 20],
    "washout_laps": [None, 1, 30],
}
LEFT_OUT = {
    "players.min", "players.max",  # the table size is drawn from the variant's range
    "may_i_limit",  # the same attribute as claim_limit
    "decks", "decks_for_5", "wild_group_min", "claim_cost", "blind_card_cost", "buy_schedule", "settlement_unit",
    "settlement_table", "two_points", "rummy_multiplier", "target_by_players", "ace_purchasable_by", "match_target",
}
OPTION_VALUES: dict[str, list[object]] = {
    key: LISTED_VALUES.get(key) or list(parser.control.get("choices") or [True, False])
    for key, (_, parser) in OPTION_PARSERS.items()
    if key not in LEFT_OUT and (key in LISTED_VALUES or parser.control["type"] in ("bool", "choice"))
}


def test_every_house_rule_key_is_tried_or_left_out() -> None:
    """A new key is tried by the property test below from its declaration alone, or it names its values here."""
    assert set(OPTION_PARSERS) == set(OPTION_VALUES) | LEFT_OUT and not set(OPTION_VALUES) & LEFT_OUT


VARIANT_IDS = sorted({variant for variant, _ in TABLES})


@st.composite
def house_tables(draw: st.DrawFn) -> tuple[str, dict[str, object], int]:
    variant = draw(st.sampled_from(VARIANT_IDS))
    keys = draw(st.lists(st.sampled_from(sorted(OPTION_VALUES)), min_size=1, max_size=4, unique=True))
    options = {key: draw(st.sampled_from(OPTION_VALUES[key])) for key in keys}
    try:
        rules = get_variant(variant, options)
    except VariantError:
        assume(False)
    dealable = [n for n in range(rules.players_min, min(rules.players_max, 6) + 1) if rules.deal_problem(n) is None]
    assume(dealable)  # too large a deal for the pack is refused by new_game (test_engine_units)
    players = draw(st.sampled_from(dealable))
    return variant, options, players


@settings(max_examples=examples(30))
@given(table=house_tables(), seed=st.integers(0, 2**31 - 1), kinds=st.lists(
    st.sampled_from(["random", "greedy", "heuristic"]), min_size=8, max_size=8))
def test_property_house_rules_never_strand_a_seat(table: tuple[str, dict[str, object], int], seed: int,
                                                  kinds: list[str]) -> None:
    """Under any accepted mix of house rules every seat to act has a legal action, every bot's action
    applies, cards are conserved, and the record replays to the same state (the first 1,500 decisions)."""
    from rummy.bots import decide, make_bot

    variant, options, players = table
    game = new_game(variant, players, seed=seed, options=options)
    bots = [make_bot(kinds[seat], seed=seed + seat) for seat in range(players)]

    def checked(game: Game, seat: int) -> Action:
        check_invariants(game)
        assert game.legal_actions(seat), f"p{seat} has no legal action in {game.phase}"
        return decide(game, seat, bots[seat])

    with contextlib.suppress(PlayoutLimit):
        drive(game, checked, max_actions=1_500)
    result = replay(loads(dumps(record_of(game))))
    assert result.exit_code == 0, result.error
    assert result.game is not None and state_json(result.game) == state_json(game)


# A wild taken from the table that must be played again that turn (``stolen_joker_must_be_played``) may only be
# taken when it can be: not on the lay-down turn when lay-offs wait for the next (``joker_swap_timing``
# "same_turn", ``layoff_timing`` "next_turn"), nor as the last card where a hand may only be emptied by a discard
# (docs/options.md).  These seeds used to leave the player to act with no legal move, on both backends.
STOLEN_WILD_RULES = {"stolen_joker_must_be_played": True, "joker_swap_timing": "same_turn"}


@pytest.mark.parametrize(("seed", "options", "decisions"), [
    (0, STOLEN_WILD_RULES, 1600), (1, STOLEN_WILD_RULES, 300), (4, STOLEN_WILD_RULES, 400),
    (31, {"stolen_joker_must_be_played": True, "going_out_mode": "must_discard", "joker_swap_timing": "same_turn",
          "layoff_timing": "same_turn"}, 500),
])
def test_a_stolen_wild_never_strands_its_taker(seed: int, options: dict[str, object], decisions: int) -> None:
    game = new_game("progressive-buy-it", 4, seed=seed, options=options)
    for turn in random_play(game, random.Random(seed), decisions=decisions):
        assert turn.moves, f"p{turn.seat} has no legal action in {game.phase}"


@st.composite
def stolen_wild_tables(draw: st.DrawFn) -> tuple[str, dict[str, object]]:
    """A variant with wilds taken to the hand that must be played that turn, swaps allowed on the lay-down turn,
    and up to four other house rules."""
    variant = draw(st.sampled_from(["progressive-buy-it", "progressive-buy-it", "progressive-15", "may-i"]))
    keys = draw(st.lists(st.sampled_from(sorted(set(OPTION_VALUES) - set(STOLEN_WILD_RULES) - {"joker_swap"})),
                         max_size=4, unique=True))
    options = {key: draw(st.sampled_from(OPTION_VALUES[key])) for key in keys}
    options.update(STOLEN_WILD_RULES, joker_swap="to_hand")
    try:
        rules = get_variant(variant, options)
    except VariantError:
        assume(False)
    assume(rules.deal_problem(4) is None)
    return variant, options


@settings(max_examples=examples(30), deadline=None)
@given(table=stolen_wild_tables(), seed=st.integers(0, 2**31 - 1))
def test_property_stolen_wilds_never_strand_a_seat(table: tuple[str, dict[str, object]], seed: int) -> None:
    """Under ``stolen_joker_must_be_played`` with same-turn swaps and any few other house rules, uniform random
    play (which swaps often, and on the lay-down turn) never leaves the seat to act without a legal action."""
    variant, options = table
    game = new_game(variant, 4, seed=seed, options=options)
    for turn in random_play(game, random.Random(seed), decisions=1_500):
        assert turn.moves, f"p{turn.seat} has no legal action in {game.phase} ({options}, seed {seed})"
