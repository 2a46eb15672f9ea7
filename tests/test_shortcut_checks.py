"""``RUMMY_CHECK_SHORTCUTS``: with the switch on, random games of every variant run the references beside the
listing's shortcuts and agree with them; a shortcut broken on purpose is caught."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

import rummy.engine.backends as backends
from rummy.engine import meld_offers, moves, shortcut_checks, table_offers
from rummy.engine.actions import Action, Verb
from rummy.engine.cards import CARD_COUNT, Card, parse_card
from rummy.engine.deadlock import Spare
from rummy.engine.errors import IllegalActionError
from rummy.engine.game import Game, new_game
from rummy.engine.house_rules import get_variant
from rummy.engine.melds import MeldSpec, TableMeld
from rummy.engine.state import GameState
from rummy.engine.table_offers import SpareBuild
from rummy.engine.variants import Variant
from tests.random_games import random_play
from tests.variants import BUILT_IN

# House rules that reach the shortcuts' other branches: owing a wild to the table, the wild policies.
HOUSE_RULE_MIXES = [pytest.param(variant, options, marks=pytest.mark.slow) for variant, options in [
    ("progressive-buy-it", {"stolen_joker_must_be_played": True}),
    ("progressive-buy-it", {"wild_policy": "at_most_one"}),
    ("progressive-15", {"wild_policy": "not_outnumber", "twos_natural_in_place": True}),
    ("may-i", {"twos_natural_in_place": True})]]


@pytest.fixture
def checking(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shortcut_checks, "CHECK_SHORTCUTS", True)


@pytest.mark.usefixtures("checking")
@pytest.mark.parametrize(("variant", "options"),
                         [pytest.param(variant, {}) for variant in BUILT_IN] + HOUSE_RULE_MIXES)
@pytest.mark.parametrize("policy", ["uniform", "steered"])
def test_random_games_agree_with_the_references(variant: str, options: dict[str, object], policy: str) -> None:
    for seed in range(2):
        game = new_game(variant, 4, seed=seed, options=options)
        made = sum(1 for _ in random_play(game, random.Random(seed), policy=policy, decisions=2500))
        assert made > 0


def _always_able(*args: object) -> bool:
    """Every hand can lay the contract down."""
    return True


def _lists_every_card(game: GameState, held: list[Card] | None = None) -> list[Action]:
    """Every card held, the one taken from the discard pile this turn too (rules.md §6.6 forbids it in basic)."""
    hand = game.hands[game.active]
    return [moves.simple_action(game.active, Verb.DISCARD, card) for card in range(CARD_COUNT) if hand[card]]


def _every_build_valid(variant: Variant, used: list[Spare], kind: str, cards: tuple[Card, ...], from_hand: int,
                       wild_count: int) -> SpareBuild:
    """Every spare-card meld judged valid, whatever the wild policy says."""
    return SpareBuild(used, kind, cards, from_hand, True, variant)


def _no_build_valid(variant: Variant, used: list[Spare], kind: str, cards: tuple[Card, ...], from_hand: int,
                    wild_count: int) -> SpareBuild:
    """Every spare-card meld judged invalid: nothing illegal is listed, but legal rearrangements go missing."""
    return SpareBuild(used, kind, cards, from_hand, False, variant)


_SWAP_OPTIONS = meld_offers._swap_options


def _relocations_to_both_ends(meld: TableMeld, variant: Variant) -> tuple[tuple[Verb, Card, str | None], ...]:
    """Every relocation offered at both ends of its run, one the run cannot grow at too."""
    both = [(verb, card, other) for verb, card, end in _SWAP_OPTIONS(meld, variant)
            for other in (("low", "high") if end is not None else (None,))]
    return tuple(dict.fromkeys(both))


# (module, name, broken stand-in, a game that meets it, the shortcut the error names)
BROKEN: list[tuple[object, str, Callable[..., object], str, dict[str, object], str]] = [
    (moves, "can_lay_down_now", _always_able, "may-i", {}, "can_lay_down_now"),
    (moves, "_discards", _lists_every_card, "basic", {}, "legal by construction"),  # the card taken stays
    (table_offers, "_new_build", _every_build_valid, "progressive-buy-it", {"wild_policy": "at_most_one"},
     "legal by construction"),  # a rearrangement listed unjudged
    (table_offers, "_new_build", _no_build_valid, "progressive-buy-it", {}, "SpareBuild.valid"),
    (meld_offers, "_swap_options", _relocations_to_both_ends, "may-i", {}, "legal by construction"),
]


@pytest.mark.usefixtures("checking")
@pytest.mark.parametrize(("module", "name", "broken", "variant", "options", "named"), BROKEN,
                         ids=[f"{case[1]}-{case[2].__name__}" for case in BROKEN])
def test_a_broken_shortcut_is_caught(monkeypatch: pytest.MonkeyPatch, module: object, name: str,
                                     broken: Callable[..., object], variant: str, options: dict[str, object],
                                     named: str) -> None:
    monkeypatch.setattr(module, name, broken)
    # The broken steps are Python's: the compiled listing takes them itself (play_actions.c, rearrangements.c).
    monkeypatch.setattr(backends, "NATIVE", None)
    with pytest.raises(AssertionError, match="shortcut") as caught:
        for seed in range(20):
            game = new_game(variant, 4, seed=seed, options=options)
            for turn in random_play(game, random.Random(seed), decisions=3000):
                list(turn.moves)
    message = str(caught.value)
    assert named in message and f"[{variant} " in message and "seed=" in message, message


def test_off_the_switch_runs_no_reference(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shortcut_checks, "CHECK_SHORTCUTS", False)

    def never(*args: object) -> None:
        raise AssertionError("a reference ran with the switch off")

    monkeypatch.setattr(shortcut_checks, "check_listing", never)
    monkeypatch.setattr(shortcut_checks, "check_lay_down_answer", never)
    game = new_game("progressive-buy-it", 4, seed=1)
    for turn in random_play(game, random.Random(1), decisions=600):
        list(turn.moves)


@pytest.mark.parametrize("compiled", [True, False], ids=["native", "python"])
def test_a_new_meld_leaving_only_the_card_taken_is_not_listed(monkeypatch: pytest.MonkeyPatch, compiled: bool) -> None:
    """``basic`` (rules.md §6.6 through §2.10): a new meld that would leave only the card taken from the discard pile
    this turn is illegal, so the listing leaves it out; with one card more it is legal, and listed unjudged."""
    if not compiled:
        monkeypatch.setattr(backends, "NATIVE", None)
    sevens = MeldSpec("set", tuple(sorted(parse_card(name) for name in ("7S", "7H", "7D"))))
    for hand, listed in (("7H 7S 7D", False), ("7H 7S 7D 2C", True)):
        cards = [parse_card(name) for name in hand.split()]
        game = Game(get_variant("basic", {"deal_size": len(cards)}), 2, seed=1)
        game.deal(dealer=1, hands=[cards, [parse_card(name) for name in "9C TC JC QC".split()[:len(cards)]]],
                  upcard=parse_card("KS"), stock=[parse_card(name) for name in "4D 5D 6D".split()])
        game.apply_text("p0 take")
        meld = Action(0, Verb.MELD, melds=(sevens,))
        assert (meld in game.legal_actions(0)) is listed
        if not listed:
            with pytest.raises(IllegalActionError) as refused:
                game.check(meld)
            assert refused.value.rule == "turn-not-completable"
