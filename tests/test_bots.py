"""Computer players: whole games without an illegal action, determinism, and views that hide the rest.

``play_game`` raises on an illegal action (the engine validates every action), so a finished game
is the test.  The bigger runs are marked ``slow``.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from rummy.bots import Bot, bot_view, make_bot, play_game
from rummy.bots.greedy import GreedyBot
from rummy.bots.heuristic import HeuristicBot
from rummy.bots.planning import ContractPlanner
from rummy.engine.actions import Action, Verb
from rummy.engine.cards import from_counts, pack, parse_card, to_counts
from rummy.engine.game import Game, Phase, new_game
from rummy.engine.house_rules import get_variant
from rummy.engine.solver import can_lay_down
from rummy.engine.view import PlayerView
from rummy.record import dumps, record_of
from tests.random_games import play
from tests.variants import BUILT_IN, CONTRACT_VARIANTS, seat_counts

BOT_NAMES = ("random", "greedy", "heuristic")
VARIANT_PLAYERS = {variant: seat_counts(variant, most=6) for variant in BUILT_IN}
TABLES = [(variant, players) for variant, counts in VARIANT_PLAYERS.items() for players in counts]


def mixed_table(players: int, seed: int) -> list[Bot]:
    """Random, greedy and heuristic bots in a seat order that changes with ``seed``."""
    names = [BOT_NAMES[(seed + seat) % len(BOT_NAMES)] for seat in range(players)]
    return [make_bot(name, seed=seed * 31 + seat) for seat, name in enumerate(names)]


@pytest.mark.parametrize(("variant", "players"), TABLES)
def test_mixed_tables_play_whole_games(variant: str, players: int) -> None:
    for seed in range(3):
        game = play_game(variant, mixed_table(players, seed), seed=seed)
        assert game.game_over


@pytest.mark.parametrize("name", BOT_NAMES)
@pytest.mark.parametrize("variant", list(VARIANT_PLAYERS))
def test_single_bot_tables_play_whole_games(variant: str, name: str) -> None:
    for seed in range(2):
        game = play_game(variant, [make_bot(name, seed=seed + s) for s in range(4)], seed=100 + seed)
        assert game.game_over


@pytest.mark.parametrize(("variant", "options"), [
    ("may-i", {"twos_natural_in_place": True}),  # lay-downs mixing natural and wild twos
    ("progressive-15", {"twos_natural_in_place": True}),
])
def test_bots_play_whole_games_under_house_rules(variant: str, options: dict[str, object]) -> None:
    for seed in range(3):
        bots = [make_bot(("heuristic", "greedy", "random", "heuristic")[seat], seed=seed + seat) for seat in range(4)]
        game = play_game(variant, bots, seed=seed, options=options)
        assert game.game_over


#: Games per table in the slow run: 15 tables × 140 = 2,100 random-seeded games with random seatings.
MANY_GAMES = 140


@pytest.mark.slow
@pytest.mark.parametrize(("variant", "players"), TABLES)
def test_many_games(variant: str, players: int) -> None:
    rng = random.Random(f"{variant}/{players}")
    for _ in range(MANY_GAMES):
        seed = rng.randrange(1 << 30)
        names = [rng.choice(BOT_NAMES) for _ in range(players)]
        game = play_game(variant, [make_bot(n, seed=seed + i) for i, n in enumerate(names)], seed=seed)
        assert game.game_over


@pytest.mark.parametrize("variant", list(VARIANT_PLAYERS))
def test_same_seeds_same_record(variant: str) -> None:
    def record() -> str:
        bots = [make_bot(name, seed=7 + seat) for seat, name in enumerate(("heuristic", "greedy", "random"))]
        return dumps(record_of(play_game(variant, bots, seed=11)))

    assert record() == record()


class Spy:
    """Wraps a bot and checks every view it is shown against the game."""

    def __init__(self, bot: Bot, game: Callable[[], Game]) -> None:
        self.bot = bot
        self.game = game
        self.name = bot.name
        self.needs_public_game = bot.needs_public_game
        self.calls = 0

    def choose(self, view: PlayerView) -> Action:
        game = self.game()
        seat = view.seat
        assert seat is not None
        assert view.public_game is None
        assert view.revealed_hands is None
        assert list(view.hand) == game.hand(seat), "the view holds the seat's own hand"
        assert len(view.hand) == view.hand_sizes[seat]
        assert "hands" not in view.to_json()
        visible = game.discard if game.variant.show_discard_history else game.discard[-1:]
        assert list(view.discard) == list(visible), "only the discards the variant shows"
        self.calls += 1
        action = self.bot.choose(view)
        assert action in view.legal_actions
        return action


@pytest.mark.parametrize("variant", list(VARIANT_PLAYERS))
def test_bots_see_only_their_view(variant: str) -> None:
    game = new_game(variant, 4, seed=3)
    spies = [Spy(make_bot(name, seed=seat), lambda: game) for seat, name in
             enumerate(("heuristic", "greedy", "random", "heuristic"))]
    play(game, random.Random(), policy=lambda turn: spies[turn.seat].choose(
        bot_view(game, turn.seat, spies[turn.seat])))
    assert all(spy.calls for spy in spies)


def test_planner_deficit_zero_exactly_when_the_solver_lays_down() -> None:
    rng = random.Random(5)
    house = [get_variant("may-i", {"run_min": 5}), get_variant("progressive-buy-it", {"group_min": 4}),
             get_variant("progressive-15", {"wild_policy": "at_most_one"}),
             get_variant("progressive-buy-it", {"wild_policy": "at_most_one"})]
    for variant in [get_variant(v) for v in CONTRACT_VARIANTS] + house:
        cards = from_counts(pack(variant.decks_for(4), variant.jokers_per_deck))
        for number in range(1, len(variant.rounds) + 1):
            rules = variant.round_rules(number, 4)
            planner = ContractPlanner(variant, rules.contract)
            for _ in range(25):
                rng.shuffle(cards)
                size = sum(variant.meld_size(s) for s in rules.contract) + rng.randrange(0, 3)
                hand = to_counts(cards[:size])
                plan = planner.analyze(hand)
                assert (plan.deficit == 0) == can_lay_down(hand, rules.contract, variant)
                for card in set(cards[:size]):
                    assert planner.without(hand, card).deficit >= plan.deficit


def test_planner_outs_lower_the_deficit() -> None:
    variant = get_variant("may-i")
    contract = variant.round_rules(2, 4).contract  # a set of 3 and a run of 4
    planner = ContractPlanner(variant, contract)
    hand = to_counts(map(parse_card, "5H 6H 8H 9C 9D KS QD 3C 4D AS JC".split()))
    plan = planner.analyze(hand)
    assert plan.deficit == 2
    for card in plan.outs:
        assert planner.with_card(hand, card).deficit == plan.deficit - 1


def dealt(variant: str, hands: list[str], *, upcard: str, stock: str = "") -> Game:
    """A game whose first round is dealt from the given hands (dealer: the last seat)."""
    game = Game(get_variant(variant), len(hands), seed=1)
    game.deal(dealer=len(hands) - 1, hands=[[parse_card(c) for c in h.split()] for h in hands],
              upcard=parse_card(upcard), stock=[parse_card(c) for c in stock.split()])
    return game


def play_phase(game: Game) -> PlayerView:
    """Seat 0 draws from the stock (everybody passes the claim window); its play-phase view."""
    game.apply_text("p0 draw")
    while game.phase is Phase.CLAIM:
        game.apply(Action(game.next_to_act(), Verb.PASS))
    assert game.phase is Phase.PLAY
    return game.view(0)


def test_greedy_passes_and_heuristic_buys_a_card_that_completes_a_set() -> None:
    game = dealt("progressive-buy-it", ["2C 3D 9S TH JD QS", "7H 7S 8D 8C 5H KH", "4C 4D 6S AH AD 3S"], upcard="7D")
    assert game.phase is Phase.CLAIM
    view = game.view(1)
    assert view.claim_card == parse_card("7D")
    assert GreedyBot(seed=1).choose(view).verb is Verb.PASS
    assert HeuristicBot(seed=1).choose(view).verb is Verb.BUY


def test_bots_lay_down_when_they_can() -> None:
    game = dealt("may-i", ["7H 7S 7D 9C 9D 9S 3H 4C 5D KS QD", "2C 3D 9H TH JD QS AC AD 4S 6H 8S",
                           "4D 6S AH 3S 5C 6C 8H TC JC JH KD"], upcard="KC", stock="4H")
    view = play_phase(game)
    for bot in (GreedyBot(seed=0), HeuristicBot(seed=0)):
        assert bot.choose(view).verb is Verb.DOWN


def test_bots_discard_a_useless_expensive_card() -> None:
    game = dealt("may-i", ["7H 7S 9C 9D 4H 5H 6H KS 3C 8D JC", "2C 3D 9H TH JD QS AC AD 4S 6C 8S",
                           "4D 6S AH 3S 5C TC 8H QC JH KD QH"], upcard="3D", stock="TD")
    view = play_phase(game)
    expensive_singletons = {parse_card(c) for c in ("KS", "JC", "8D", "TD")}
    for bot in (GreedyBot(seed=0), HeuristicBot(seed=0)):
        action = bot.choose(view)
        assert action.verb is Verb.DISCARD and action.card in expensive_singletons


def test_heuristic_takes_a_discard_that_lowers_the_deficit() -> None:
    game = dealt("may-i", ["7H 7S 9C 9D 4H 5H 6H KS 3C 8D JC", "2C 3D 9H TH JD QS AC AD 4S 6C 8S",
                           "4D 6S AH 3S 5C TC 8H QC JH KD QH"], upcard="7D")
    assert HeuristicBot(seed=0).choose(game.view(0)).verb is Verb.TAKE
    assert GreedyBot(seed=0).choose(game.view(0)).verb is Verb.TAKE


def test_bots_are_deterministic_for_a_seed() -> None:
    game = dealt("basic", ["2C 3D 9S TH JD QS 5C 8H 4S 6D", "7H 7S 8D 8C 5H KH 4C 4D 6S AH"], upcard="7D")
    view = game.view(0)
    for name in BOT_NAMES:
        first = [make_bot(name, seed=4).choose(view) for _ in range(3)]
        assert first[0] == first[1] == first[2]


def test_basic_holding_back_for_rummy_names_melding_as_its_alternative() -> None:
    game = dealt("basic", ["7H 7S 7D 2C 5D 9S JC", "AC 3D 4H 8C TD QS KH", "2H 3S 6C 8D 9H JD QC"],
                 upcard="KC", stock="KD")
    view = play_phase(game)
    bot = HeuristicBot(seed=0)
    candidates = bot.candidates(view, 3)
    assert candidates[0].verb is Verb.DISCARD  # nobody threatens to go out: hold the set back for rummy
    assert [str(a) for a in candidates[1:2]] == ["p0 meld set:7D-7H-7S"]
    assert bot.choose(view) == candidates[0]


def test_claim_alternatives_are_weighed_only_for_a_search() -> None:
    game = new_game("may-i", 4, seed=1)
    bots = [make_bot("heuristic", seed=seat) for seat in range(4)]
    for _ in range(2):
        seat = game.next_to_act()
        game.apply(bots[seat].choose(game.view(seat)))
    assert game.phase is Phase.CLAIM
    view = game.view(game.next_to_act())
    bot = HeuristicBot(seed=0)
    choice = bot.choose(view)
    assert bot.alternatives == []  # playing on its own, the bot skips the analysis of the alternative
    candidates = bot.candidates(view, 3)
    assert candidates[0] == choice and {a.verb for a in candidates} == {Verb.BUY, Verb.PASS}
    assert not bot.weigh_alternatives


def test_purchase_book_values_match_a_scan_of_every_book() -> None:
    from rummy.bots.freeplay import _BOOKS, PurchasePlanner, _book_in

    def scanned(cards: list[int], reach: list[float]) -> float:
        scores = sorted((sum(1 for c in book if c in cards)
                         + sum(r * 0.8 ** i for i, r in enumerate(sorted((reach[c] for c in book if c not in cards),
                                                                         reverse=True)))
                         for book in _BOOKS if any(c in cards for c in book)), reverse=True)
        return (scores[0] if scores else 0.0) + 0.15 * (scores[1] if len(scores) > 1 else 0.0)

    rng = random.Random(5)
    planner = PurchasePlanner()
    for _ in range(500):
        cards = rng.sample(range(52), rng.choice((4, 6, 7)))
        reach = [rng.choice((0.12, 0.2, 0.45, 0.55, 0.7, 1.0)) for _ in range(52)]
        assert planner._value(cards, reach) == pytest.approx(scanned(cards, reach), abs=1e-12)
        assert _book_in(cards) == any(all(c in cards for c in book) for book in _BOOKS)
    assert _book_in([0, 13, 26, 39])  # the four aces
