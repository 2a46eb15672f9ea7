"""Tests of the ISMCTS computer player: legal whole games, determinism, no hidden information, budget."""

from __future__ import annotations

import math
import random
from typing import Any

import pytest

from rummy.bots import Bot, bot_view, make_bot, play_game
from rummy.bots.ismcts import (
    DEFAULT_CEILING_MS,
    DEFAULT_CONFIDENCE,
    DEFAULT_CONFIDENCE_BY_VERB,
    DEFAULT_SIMULATIONS,
    IsmctsBot,
    default_simulations,
)
from rummy.bots.rewards import game_rewards, round_rewards
from rummy.engine.actions import Action, Verb
from rummy.engine.game import Game, Phase, new_game
from rummy.engine.house_rules import get_variant
from rummy.engine.view import PlayerView
from rummy.record import dumps, loads, record_of, replay
from rummy.search.determinize import determinize, redact, search_view
from rummy.search.playout import random_choice
from tests.random_games import play
from tests.variants import BUILT_IN

VARIANTS = list(BUILT_IN)
# A small budget with fast rollouts: the whole-game tests check legality, not strength.
FAST: dict[str, Any] = {"simulations": 8, "rollout": "random", "max_rollout": 8}


class Spy:
    """Wraps a bot, keeping every view it is shown and checking every answer is legal."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.name = bot.name
        self.needs_public_game = bot.needs_public_game
        self.views: list[PlayerView] = []

    def choose(self, view: PlayerView) -> Action:
        self.views.append(view)
        action = self.bot.choose(view)
        assert action in view.legal_actions, f"{action} is not among the legal actions"
        return action


@pytest.mark.parametrize("variant", VARIANTS)
def test_plays_whole_games_legally(variant: str) -> None:
    players = get_variant(variant).players_min
    ismcts = IsmctsBot(seed=3, **FAST)
    spy = Spy(ismcts)
    bots: list[Bot] = [spy] + [make_bot("greedy", seed=s) for s in range(1, players)]
    game = play_game(variant, bots, seed=11)
    assert game.game_over
    assert spy.views, "ismcts was never asked"
    assert ismcts.engine_errors == 0
    assert replay(loads(dumps(record_of(game)))).exit_code == 0


def test_heuristic_rollouts_play_a_game() -> None:
    bots: list[Bot] = [make_bot("ismcts", seed=1, simulations=4, max_rollout=20), make_bot("greedy", seed=2)]
    game = play_game("basic", bots, seed=4, options={"target_by_players": {"2": 30}})
    assert game.game_over


@pytest.mark.parametrize("rollout", ["random", "heuristic"])
def test_deterministic_for_a_seed_with_a_simulation_budget(rollout: str) -> None:
    def play() -> list[str]:
        bots: list[Bot] = [
            make_bot("ismcts", seed=7, simulations=5, rollout=rollout, max_rollout=15) for _ in range(3)
        ]
        game = new_game("may-i", 3, seed=2)
        for _ in range(80):
            if game.phase is not Phase.DRAW and game.phase is not Phase.PLAY and game.phase is not Phase.CLAIM:
                break
            seat = game.next_to_act()
            game.apply(bots[seat].choose(search_view(game, seat)))
        return [str(action) for action in game.log]

    assert play() == play()


@pytest.mark.parametrize("variant", VARIANTS)
def test_never_sees_hidden_information(variant: str) -> None:
    spy = Spy(IsmctsBot(seed=1, **FAST))  # type: ignore[arg-type]
    bots: list[Bot] = [make_bot("greedy", seed=5), spy, make_bot("greedy", seed=6)]
    game = new_game(variant, 3, seed=9)
    play(game, random.Random(), decisions=150,
                         policy=lambda turn: bots[turn.seat].choose(bot_view(game, turn.seat, bots[turn.seat])))
    assert spy.views
    for view in spy.views:
        public = view.public_game
        assert public is not None and public is not game
        assert view.seat == 1
        for other in (0, 2):
            assert sum(public.hands[other]) == 0, "another hand is visible"
            assert public.sizes[other] == view.hand_sizes[other]
        assert public.hand(1) == list(view.hand)
        assert public.stock == [], "the stock order is visible"
        assert public.hidden_stock == view.stock_count
        assert public.log == [] and public.deals == [] and public.round_starts == []
        # The whole pile is public (every card in it was discarded face up); the view shows its top.
        assert public.discard[len(public.discard) - len(view.discard):] == list(view.discard)


def test_a_single_legal_action_is_returned_at_once() -> None:
    bot = IsmctsBot(seed=1, simulations=1000)
    game = new_game("progressive-buy-it", 4, seed=42)
    game.apply_text("p2 buy")  # after a buy the active player must draw from the stock
    view = search_view(game, 1)
    assert [str(a) for a in view.legal_actions] == ["p1 draw"]
    assert str(bot.choose(view)) == "p1 draw"
    assert bot.last_search["iterations"] == 0


def test_search_visits_every_root_action_and_votes() -> None:
    bot = IsmctsBot(seed=2, simulations=40, rollout="random", max_rollout=20)
    game = new_game("basic", 2, seed=3)
    game.apply_text(f"p{game.active} draw")
    view = search_view(game, game.active)
    action = bot.choose(view)
    visits = bot.last_search["visits"]
    assert isinstance(visits, dict)
    assert set(visits) == {str(a) for a in view.legal_actions}
    # whole batches: every root action once per determinization
    assert len(set(visits.values())) == 1
    assert sum(visits.values()) == bot.last_search["iterations"] >= 40
    means = bot.last_search["mean_reward"]
    assert isinstance(means, dict)
    assert means[str(action)] == max(means.values())


def first_discard_view() -> tuple[int, PlayerView]:
    """The seat and search view of the first play phase, in a progressive-buy-it game, of a player who
    must discard."""
    game = new_game("progressive-buy-it", 4, seed=11)
    while True:
        seat = game.next_to_act()
        legal = game.legal_actions(seat)
        if game.phase is Phase.PLAY and all(a.verb is Verb.DISCARD for a in legal):
            return seat, search_view(game, seat)
        game.apply(next((a for a in legal if a.verb in (Verb.DRAW, Verb.PASS)), legal[0]))


def test_heuristic_candidates_bound_the_root_and_its_choice_stands_without_evidence() -> None:
    seat, view = first_discard_view()
    advisor = make_bot("heuristic", seed=5)
    candidates = [str(a) for a in advisor.candidates(view, 3)]  # type: ignore[attr-defined]
    assert len(candidates) == 3 and all(c.startswith(f"p{seat} discard") for c in candidates)
    assert candidates[0] == str(make_bot("heuristic", seed=5).choose(view))
    bot = IsmctsBot(seed=5, simulations=6, max_rollout=10, confidence=50.0)
    assert str(bot.choose(view)) == candidates[0]  # no alternative clears 50 standard errors
    visits = bot.last_search["visits"]
    assert isinstance(visits, dict) and set(visits) == set(candidates)


def test_a_clear_heuristic_choice_is_not_searched() -> None:
    game = new_game("progressive-buy-it", 4, seed=11)
    seat = game.next_to_act()
    view = search_view(game, seat)
    advisor = make_bot("heuristic", seed=0)
    if len(advisor.candidates(view, 3)) == 1:  # type: ignore[attr-defined]
        bot = IsmctsBot(seed=1, simulations=100)
        bot.choose(view)
        assert bot.last_search["iterations"] == 0


def test_determinizations_deal_seen_pickups_back_to_their_taker() -> None:
    game = new_game("basic", 3, seed=4)
    taker = game.active
    card = game.top_discard
    assert card is not None
    game.apply_text(f"p{taker} take")
    observer = (taker + 1) % 3
    public = redact(game, observer)
    assert public.known_hands is not None and public.known_hands[taker][card] == 1
    for draw in range(20):
        guess = determinize(public, observer, random.Random(draw))
        assert guess.hands[taker][card] >= 1
        assert sum(guess.hands[taker]) == game.sizes[taker]


def _mid_round(variant: str, decisions: int, seed: int) -> Game:
    game = new_game(variant, 4, seed=seed)
    bots = [make_bot("heuristic", seed=seat) for seat in range(4)]
    for _ in range(decisions):  # stop short of the round's end
        seat = game.next_to_act()
        ahead = game.clone()
        ahead.apply(bots[seat].choose(ahead.view(seat)))
        if ahead.phase in (Phase.ROUND_OVER, Phase.GAME_OVER):
            break
        game = ahead
    return game


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_opponent_model_deals_consistent_hands_that_kept_their_best_cards(variant: str) -> None:
    from rummy.search.determinize import _keep_value

    game = _mid_round(variant, 24, seed=7)
    observer = game.next_to_act()
    public = redact(game, observer)
    unseen = sorted(c for s in range(4) if s != observer for c in game.hand(s)) + sorted(game.stock)
    value = {0.0: 0.0, 1.5: 0.0}
    for kept_draws in value:
        for draw in range(30):
            guess = determinize(public, observer, random.Random(draw), kept_draws=kept_draws)
            assert guess.sizes == game.sizes and guess.hands[observer] == game.hands[observer]
            assert guess.discard == game.discard and guess.table == game.table
            dealt = sorted(c for s in range(4) if s != observer for c in guess.hand(s)) + sorted(guess.stock)
            assert dealt != []
            assert sorted(dealt) == sorted(unseen), "the guess deals exactly the unseen cards"
            for other in range(4):
                if other != observer:
                    hand = guess.hands[other]
                    value[kept_draws] += sum(_keep_value(hand, card, guess) for card in guess.hand(other))
    assert value[1.5] > value[0.0], "hands that kept their best cards hold more meld material"


def test_the_opponent_model_keeps_out_cards_that_declined_discards_would_have_suited() -> None:
    from rummy.search.determinize import _relations, declined_by_seat

    game = _mid_round("basic", 30, seed=5)
    observer = game.next_to_act()
    declined = declined_by_seat(game)
    public = redact(game, observer)
    assert public.declined == declined
    others = [other for other in range(4) if other != observer and any(declined[other])]
    assert others, "some opponent drew from the stock over a discard"
    suited = {0.0: 0.0, 5.0: 0.0}
    for weight in suited:
        for draw in range(30):
            guess = determinize(public, observer, random.Random(draw), kept_draws=1.0, declined_weight=weight)
            for other in others:
                related = _relations(declined[other])
                suited[weight] += sum(related[card] for card in guess.hand(other))
    assert suited[5.0] < suited[0.0]


def test_redact_keeps_each_seat_s_latest_discard_of_the_round() -> None:
    game = _mid_round("basic", 30, seed=5)
    latest: list[int | None] = [None] * 4
    for action in game.log[game.round_starts[-1]:]:
        if action.verb is Verb.DISCARD:
            latest[action.seat] = action.card
    assert any(card is not None for card in latest)
    assert redact(game, 0).last_discards == latest


def _counts(text: str) -> list[int]:
    from rummy.engine.cards import parse_card, to_counts

    return to_counts(parse_card(card) for card in text.split())


def test_missed_plays_in_basic_going_out() -> None:
    from rummy.bots.inference import could_have_gone_out, missed_play_check

    public = redact(new_game("basic", 4, seed=1), 0)
    assert missed_play_check(public.variant) is could_have_gone_out
    assert public.table == []
    assert could_have_gone_out(public, 1, _counts("7H 8H 9H 5C 5D 5S TH KD"))  # meld seven, discard the king
    assert not could_have_gone_out(public, 1, _counts("7H 8H 9H 5C 5D 5S 2C KD"))  # two cards stuck
    assert could_have_gone_out(public, 1, _counts("7H 8H 9H 5C 5D 5S KD"))  # six melded, one discard


def test_missed_plays_in_contract_variants_laying_down() -> None:
    from rummy.bots.inference import could_have_laid_down, missed_play_check

    assert missed_play_check(get_variant("purchase")) is None
    public = redact(new_game("progressive-buy-it", 4, seed=1), 0)  # round 1: two sets of three
    assert missed_play_check(public.variant) is could_have_laid_down
    assert could_have_laid_down(public, 1, _counts("7H 7S 7D 9C 9D 9H 4S"))
    assert not could_have_laid_down(public, 1, _counts("7H 7S 7D 9C 9D 4S 5S"))
    public.down[1] = True  # a seat already down has nothing left to lay down
    assert not could_have_laid_down(public, 1, _counts("7H 7S 7D 9C 9D 9H 4S"))


def test_a_claim_out_of_turn_voids_a_seat_s_latest_discard() -> None:
    game = new_game("progressive-buy-it", 4, seed=2)
    for _ in range(200):
        seat = game.next_to_act()
        if game.phase is Phase.CLAIM and game.round_number == 1 and game.own_turns[seat] > 0 \
                and game.discarders[-1] != seat:
            break
        game.apply(make_bot("heuristic", seed=seat).choose(game.view(seat)))
    else:
        pytest.fail("no claim window for a seat that has discarded")
    before = redact(game, (seat + 1) % 4).last_discards
    assert before is not None and before[seat] is not None
    game.apply(Action(seat, Verb.BUY))
    after = redact(game, (seat + 1) % 4).last_discards
    assert after is not None and after[seat] is None


def test_the_opponent_model_deals_again_a_hand_its_holder_would_have_gone_out_with() -> None:
    game = _mid_round("basic", 30, seed=5)
    observer = game.next_to_act()
    public = redact(game, observer)
    assert public.last_discards is not None
    others = [other for other in range(4) if other != observer and public.last_discards[other] is not None]
    assert others
    unseen = sorted([c for s in range(4) if s != observer for c in game.hand(s)] + game.stock)
    assert public.known_hands is not None
    free = [card for card in unseen if not any(known[card] for known in public.known_hands)]
    marked = free[len(free) // 2]  # a check that calls any hand holding this card a missed play
    checked: list[list[int]] = []

    def holds_marked(seen: Game, holder: int, cards: list[int]) -> bool:
        assert seen is public and holder in others
        checked.append(list(cards))
        return cards[marked] > 0

    held = {False: 0, True: 0}
    for ruled_out in held:
        for draw in range(40):
            guess = determinize(public, observer, random.Random(draw), kept_draws=1.0,
                                missed_play=holds_marked if ruled_out else None)
            dealt = sorted(c for s in range(4) if s != observer for c in guess.hand(s)) + sorted(guess.stock)
            assert sorted(dealt) == unseen and guess.sizes == game.sizes, "a redeal loses or invents no card"
            held[ruled_out] += sum(guess.hands[other][marked] for other in others)
    assert held[True] < held[False] / 4, "hands the check rules out are dealt again"
    # the check sees a hand as it was before its holder's last discard: one card more than it holds now
    assert checked and all(sum(cards) in {game.sizes[other] + 1 for other in others} for cards in checked)


@pytest.mark.parametrize("variant", VARIANTS)
def test_missed_plays_setting(variant: str) -> None:
    from rummy.bots.ismcts import DEFAULT_EXCLUDE_MISSED_PLAYS

    rules = get_variant(variant)
    default = DEFAULT_EXCLUDE_MISSED_PLAYS.get(variant, False)
    assert IsmctsBot().settings(rules).exclude_missed_plays is default
    assert IsmctsBot(exclude_missed_plays=not default).settings(rules).exclude_missed_plays is not default
    with pytest.raises(ValueError, match="exclude_missed_plays"):
        make_bot("ismcts", exclude_missed_plays="yes")
    game = _mid_round(variant, 30, seed=5)
    seat = game.next_to_act()
    bot = IsmctsBot(seed=2, simulations=8, exclude_missed_plays=True)
    assert bot.choose(search_view(game, seat)) in game.legal_actions(seat)


def test_widening_grows_the_tree_below_the_root_from_the_rollout_policy_s_move() -> None:
    game = _mid_round("may-i", 9, seed=3)
    seat = game.next_to_act()
    view = search_view(game, seat)
    sizes = {}
    for widening in (0.0, 4.0):
        bot = IsmctsBot(seed=4, simulations=40, width=0, widening=widening, max_rollout=30, rollout="random")
        bot.choose(view)
        sizes[widening] = bot.last_search["widest_below_root"]
    # without widening a node below the root gains a child only when no child's move is legal in the guess
    assert isinstance(sizes[0.0], int) and isinstance(sizes[4.0], int) and sizes[0.0] < sizes[4.0]


def test_budget_settings() -> None:
    bot = IsmctsBot()
    assert bot.default_budget and bot.ceiling_ms == DEFAULT_CEILING_MS < 1000
    assert set(DEFAULT_SIMULATIONS) == set(VARIANTS)
    for variant in VARIANTS:
        assert default_simulations(get_variant(variant)) == DEFAULT_SIMULATIONS[variant] > 0
    timed = IsmctsBot(seed=1, time_ms=30, rollout="random")
    assert not timed.default_budget and timed.simulations is None and timed.ceiling_ms is None
    game = new_game("may-i", 4, seed=1)
    seat = game.next_to_act()
    timed.choose(search_view(game, seat))
    assert isinstance(timed.last_search["iterations"], int) and timed.last_search["iterations"] >= 1


def test_bad_options_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown ismcts option 'colour'"):
        make_bot("ismcts", colour="red")
    with pytest.raises(ValueError, match="'simulations' must be int or null, not 2.5"):
        make_bot("ismcts", simulations=2.5)
    with pytest.raises(ValueError, match="'exploration' must be float, not True"):
        make_bot("ismcts", exploration=True)
    with pytest.raises(TypeError):
        IsmctsBot(colour="red")
    with pytest.raises(ValueError):
        IsmctsBot(rollout="ismcts")
    with pytest.raises(ValueError):
        IsmctsBot(rollout="clever")
    with pytest.raises(ValueError):
        IsmctsBot(simulations=0)
    with pytest.raises(ValueError):
        IsmctsBot(width=-1)
    with pytest.raises(ValueError):
        IsmctsBot(confidence=-0.5)
    with pytest.raises(ValueError):
        IsmctsBot(widening=-1.0)
    with pytest.raises(ValueError):
        IsmctsBot(max_rollout=-1)
    with pytest.raises(ValueError):
        IsmctsBot(kept_draws=-0.1)
    with pytest.raises(ValueError):
        IsmctsBot(declined_weight=-1.0)
    with pytest.raises(ValueError):
        IsmctsBot().choose(new_game("basic", 2, seed=1).view(0))  # no public game


def test_heuristic_rollout_falls_back_when_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib

    real = importlib.import_module

    def without_heuristic(name: str, package: str | None = None) -> object:
        if name == "rummy.bots.heuristic":
            raise ImportError(name)
        return real(name, package)

    monkeypatch.setattr(importlib, "import_module", without_heuristic)
    assert IsmctsBot(rollout="heuristic").rollout == "greedy"
    assert IsmctsBot(rollout="random").rollout == "random"


def _finish_round(game: Game, rng: random.Random) -> None:
    while game.phase not in (Phase.ROUND_OVER, Phase.GAME_OVER):
        game.apply(random_choice(game.legal_actions(game.next_to_act()), rng))


@pytest.mark.parametrize("variant", VARIANTS)
def test_round_rewards_lie_in_zero_one(variant: str) -> None:
    for seed in range(2):
        game = new_game(variant, 4, seed=seed)
        truncated = round_rewards(game, len(game.results))  # scored by hand points (or book progress)
        assert len(truncated) == 4 and all(0.0 <= r <= 1.0 for r in truncated)
        _finish_round(game, random.Random(seed))
        last = round_rewards(game, len(game.results) - 1)
        assert all(0.0 <= r <= 1.0 for r in last)
        went_out = game.results[-1].went_out
        if went_out is not None:
            assert last[went_out] == max(last)


@pytest.mark.parametrize("variant", ["may-i", "basic"])
def test_a_round_cut_short_prefers_fewer_hand_points(variant: str) -> None:
    game = new_game(variant, 4, seed=5)
    rewards = round_rewards(game, len(game.results))
    points = [game.hand_points(s) for s in range(game.n)]
    assert rewards[points.index(min(points))] == max(rewards)
    assert rewards[points.index(max(points))] == min(rewards)


def test_the_default_bot_has_a_budget() -> None:
    """Without options the search bot thinks within its default budget (its speed: bench/ismcts.py)."""
    assert IsmctsBot(seed=1).default_budget


def test_the_vote_keeps_the_advice_unless_an_alternative_wins_clearly() -> None:
    advice = "p0 discard 9S"

    def vote(rewards: dict[str, list[float]], advice: str | None, confidence: float) -> str:
        return IsmctsBot._vote(rewards, advice, dict.fromkeys(rewards, confidence))

    noisy = {advice: [0.5, 0.6, 0.4, 0.5], "p0 discard 3C": [0.6, 0.5, 0.5, 0.5]}
    assert vote(noisy, advice, 1.0) == advice
    clear = {advice: [0.5, 0.6, 0.4, 0.5], "p0 discard 3C": [0.7, 0.8, 0.6, 0.71]}
    assert vote(clear, advice, 1.0) == "p0 discard 3C"
    assert vote(clear, advice, 100.0) == advice
    assert IsmctsBot._vote(clear, advice, {advice: 1.0, "p0 discard 3C": 100.0}) == advice  # its own confidence
    assert vote(clear, None, 1.0) == "p0 discard 3C"  # no advice: the best mean
    few = {text: values[:3] for text, values in clear.items()}
    assert vote(few, advice, 1.0) == advice  # three batches are too few to overrule it
    assert set(DEFAULT_CONFIDENCE) <= set(VARIANTS)
    assert set(DEFAULT_CONFIDENCE_BY_VERB) <= set(VARIANTS)


def test_confidence_by_verb() -> None:
    for variant in VARIANTS:
        settings = IsmctsBot(simulations=4).settings(get_variant(variant))
        assert settings.confidence_by_verb == DEFAULT_CONFIDENCE_BY_VERB.get(variant, {})
    chosen = IsmctsBot(confidence_by_verb={"meld": 1.0}).settings(get_variant("basic"))
    assert chosen.confidence_by_verb == {"meld": 1.0} and chosen.confidence == DEFAULT_CONFIDENCE["basic"]
    for bad in ({"melt": 1.0}, {"meld": -1.0}, {"meld": "high"}, {"meld": True}, ["meld"]):
        with pytest.raises(ValueError, match="confidence_by_verb"):
            IsmctsBot(confidence_by_verb=bad)  # type: ignore[arg-type]
    _, view = first_discard_view()  # the heuristic names three discards there
    advice = str(make_bot("heuristic", seed=5).choose(view))
    bot = IsmctsBot(seed=5, simulations=6, max_rollout=10, confidence_by_verb={"discard": math.inf})
    assert str(bot.choose(view)) == advice  # alternatives that may never overrule are not even searched
    assert bot.last_search["iterations"] == 0


@pytest.mark.parametrize("variant", VARIANTS)
def test_game_rewards_are_chances_that_sum_to_one_and_end_as_the_result(variant: str) -> None:
    game = new_game(variant, 4, seed=2)
    rng = random.Random(2)
    while not game.game_over:
        rewards = game_rewards(game, len(game.results))  # a round stopped early
        assert all(0.0 <= r <= 1.0 for r in rewards)
        if variant != "purchase":
            assert sum(rewards) == pytest.approx(1.0)
        _finish_round(game, rng)
        if game.phase is Phase.ROUND_OVER:
            game.deal()
    final = game_rewards(game, len(game.results) - 1)
    winners = game.winners()
    assert final == [1.0 / len(winners) if seat in winners else 0.0 for seat in range(4)]


def test_game_rewards_favour_the_lower_total_and_sharpen_as_rounds_run_out() -> None:
    def rewards_at(game: Game, totals: list[int]) -> list[float]:
        probe = game.clone()
        probe.totals = totals
        probe.hands = [[0] * len(hand) for hand in probe.hands]  # no hand points: the totals alone
        return game_rewards(probe, len(probe.results))

    game = new_game("may-i", 4, seed=4)
    early = rewards_at(game, [0, 40, 40, 40])
    assert early[0] == max(early) and early[1] == early[2] == early[3]
    rng = random.Random(4)
    while len(game.results) < len(game.variant.rounds) - 1:
        _finish_round(game, rng)
        game.deal()
    late = rewards_at(game, [0, 40, 40, 40])
    assert late[0] > early[0]


def test_basic_game_rewards_weigh_a_lead_lightly() -> None:
    game = new_game("basic", 4, seed=4)
    game.totals = [150, 0, 0, 0]  # a round won short of the target: the next winner usually ends the game
    rewards = game_rewards(game, len(game.results))
    assert rewards[0] == max(rewards) and 0.25 < rewards[0] < 0.4


def test_unknown_reward_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown reward"):
        IsmctsBot(reward="points")
    assert IsmctsBot(reward="game").settings(get_variant("basic")).reward == "game"
