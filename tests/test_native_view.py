"""The per-seat view (:func:`~rummy.engine.view.player_view`) on both backends: the compiled ``view_record``
(``_native_src/view_fields.c``) makes the same :class:`~rummy.engine.view.PlayerView`, field for field, as the Python
reference (``view._view_fields``), for every seat and the spectator at every decision of random games of every
variant under house-rule mixes (hypothesis), at each round's end (the hands revealed) and at the game's end; it
declines, and the Python code answers, for what it does not read (docs/engine.md, "Backends")."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import rummy.engine.backends as switch
import rummy.engine.view as view_module
from rummy.engine import Game, new_game
from rummy.engine.cards import from_counts
from rummy.engine.errors import DealError, UsageError, VariantError
from rummy.engine.house_rules import get_variant
from rummy.engine.state import Phase
from rummy.engine.view import PlayerView, player_view
from tests.profiles import count, examples
from tests.random_games import random_play
from tests.test_native import running
from tests.variants import BUILT_IN

pytestmark = pytest.mark.skipif(switch.BUILT is None, reason="the compiled core rummy.engine._native is not built")

# House rules that change what a view holds, and the values tried.
VIEW_OPTIONS: dict[str, list[Any]] = {
    "show_discard_history": [True, False],
    "claim_mode": ["pre_draw", "active_first_then_others", "after_decline", "none"],
    "claims_per_window": ["one", "cascade"],
    "claim_limit": [None, 0, 1],
    "stock_refill": ["keep_top", "whole_pile_once", "none"],
    "upcard": [True, False],
    "max_turns": [None, 6, 20],  # rounds end early: round-over and game-over views
    "jokers_per_deck": [0, 2],
}


def fields_of(view: PlayerView) -> tuple[Any, ...]:
    return tuple(getattr(view, field.name) for field in dataclasses.fields(PlayerView))


def assert_same_views(game: Game) -> int:
    """Every seat's view and the spectator's equal on both backends, field for field (the legal actions included),
    made by the compiled ``view_record`` (it does not decline), each a ``PlayerView`` holding no hand but its seat's
    (all of them once the round is over); the number of views compared."""
    assert switch.BUILT is not None
    over = game.phase in (Phase.ROUND_OVER, Phase.GAME_OVER)
    for seat in (None, *range(game.n)):
        with running("python"):
            expected = player_view(game, seat)
        with running("native"):
            view = player_view(game, seat)
        assert type(view) is PlayerView and fields_of(view) == fields_of(expected), (seat, game.log[-1:])
        made = switch.BUILT.view_record(PlayerView, view_module._VIEW_FIELDS, game, seat, expected.legal_actions,
                                        view_module._VIEW_KIT)
        assert made is not None and fields_of(made) == fields_of(expected), seat
        assert view.hand == (() if seat is None else tuple(from_counts(game.hands[seat])))
        hands = tuple(tuple(from_counts(game.hands[s])) for s in range(game.n))
        assert view.revealed_hands == (hands if over else None)
        assert view.stock_count == len(game.stock)
    return game.n + 1


def played(game: Game, seed: int, policy: str, decisions: int, rounds: int | None = None) -> Iterator[Game]:
    """The game at each decision of a seeded random game (the first ``decisions``, or ``rounds`` rounds), at each
    round's end (before the next deal) and at its end."""
    ends: list[Game] = []

    def deal(dealt: Game) -> None:
        ends.append(dealt.copy())  # (read as the next decision comes: the round's end as it was)
        dealt.deal()

    for _turn in random_play(game, random.Random(seed), policy=policy, decisions=decisions, rounds=rounds,
                             deal=deal):
        while ends:
            yield ends.pop()
        yield game
    yield from ends
    if game.phase in (Phase.ROUND_OVER, Phase.GAME_OVER):
        yield game


@settings(max_examples=examples(40), deadline=None)
@given(st.sampled_from(BUILT_IN), st.lists(st.sampled_from(sorted(VIEW_OPTIONS)), max_size=4, unique=True),
       st.integers(2, 5), st.data())
def test_same_views_under_house_rules(variant_id: str, keys: list[str], players: int, data: st.DataObject) -> None:
    options = {key: data.draw(st.sampled_from(VIEW_OPTIONS[key])) for key in keys}
    seed = data.draw(st.integers(0, 10**6))
    try:
        game = new_game(get_variant(variant_id, options), players, seed=seed)
    except (VariantError, DealError):
        assume(False)
        raise
    policy = data.draw(st.sampled_from(["uniform", "steered"]))
    for state in played(game, seed, policy, decisions=100):
        assert_same_views(state)


@pytest.mark.parametrize("variant", BUILT_IN)
def test_same_views_in_whole_rounds(variant: str) -> None:
    """Two whole rounds, and a game cut short by ``max_turns``: the claim windows, the purchase cards, the discard
    pile as the variant shows it, each round's end with its hands revealed and the game's end all met."""
    seen = {"round over": 0, "game over": 0, "claim window": 0, "purchase cards": 0, "whole pile": 0}
    games = [(new_game(variant, 4, seed=seed), seed, 2) for seed in range(count(2))]
    games.append((new_game(get_variant(variant, {"max_turns": 12}), 4, seed=5), 5, None))
    for game, seed, rounds in games:
        for state in played(game, seed, "steered" if seed % 2 else "uniform", decisions=3000, rounds=rounds):
            assert_same_views(state)
            with running("native"):
                view = player_view(state, 0)
            seen["round over"] += state.phase is Phase.ROUND_OVER
            seen["game over"] += state.phase is Phase.GAME_OVER
            seen["claim window"] += view.claim_card is not None
            seen["purchase cards"] += view.purchase_cards is not None
            seen["whole pile"] += len(view.discard) > 1
    assert seen["round over"] and seen["game over"], seen
    if variant in ("progressive-buy-it", "may-i"):
        assert seen["claim window"], seen
    if variant == "purchase":
        assert seen["purchase cards"], seen
    assert bool(seen["whole pile"]) == get_variant(variant).show_discard_history, seen


def test_what_view_record_does_not_read_goes_to_python() -> None:
    """``view_record`` answers None, and the Python code makes the view, for what it does not read; a bad seat is the
    Python code's error on both backends."""
    assert switch.BUILT is not None
    view_record = switch.BUILT.view_record
    game = new_game("progressive-buy-it", 4, seed=3)
    kit, fields = view_module._VIEW_KIT, view_module._VIEW_FIELDS
    with running("python"):
        expected = player_view(game, 1)
    actions = expected.legal_actions
    assert view_record(PlayerView, fields, game, 1, actions, kit) == expected
    assert view_record(PlayerView, fields, game, None, (), kit) == player_view(game, None)
    for given_fields, seat, given_actions, given_kit in (
            (fields, 1, actions, kit[:-1]),  # a kit of another shape
            (fields, 1, actions, (*kit[:-1], kit[-1][:-1])),  # a slot short
            (fields, 1, actions, (*kit[:-1], (*kit[-1][:-1], PlayerView.__dict__["seat"]))),  # another type's slot
            (fields, 1, list(actions), kit),  # actions not a tuple
            (fields, 4, actions, kit), (fields, -1, actions, kit), (fields, True, actions, kit),  # not a seat
            (fields[:-1], 1, actions, kit)):  # a record type's fields short: new_record declines
        assert view_record(PlayerView, given_fields, game, seat, given_actions, given_kit) is None, seat
    for bad in (4, -1):
        for name in ("python", "native"):
            with running(name), pytest.raises(UsageError, match="no seat"):
                player_view(game, bad)
    for field, value in (("hands", [*game.hands[:1], game.hands[1][:52], *game.hands[2:]]),  # not 53 counts
                         ("round_number", 1.0),  # not an int
                         ("phase", "claim")):  # not a Phase member
        odd = game.copy()
        setattr(odd, field, value)
        assert view_record(PlayerView, fields, odd, 1, actions, kit) is None, field
    assert view_record(PlayerView, fields, game, 1, actions, kit) == expected  # (and still reads the right state)
