"""A sound computer player built on the contract solver and a hand planner.

:class:`HeuristicBot` plays every variant from its :class:`~rummy.engine.view.PlayerView` alone.

Contract variants (``progressive-buy-it``, ``progressive-15``, ``may-i``):

* Hands are judged by the :class:`~rummy.bots.planning.ContractPlanner`: the **deficit** (cards
  still to be drawn before the contract can be laid down) and the **outs** (card kinds that would
  lower it), each out weighted by its unseen copies — the pack less the own hand, the table and
  the visible discard pile.
* Discards keep the deficit lowest, then the most unseen outs, then throw the most expensive card;
  the weight on points grows as the round's end nears (an opponent is down with few cards), so
  useless high cards go early.
* The top discard is taken when it lowers the deficit (or, once down, can be laid off).
* Buying/claiming (``buy``) only when the card lowers the deficit to within reach, the hand is
  not already swollen, and no opponent threatens to go out soon; in ``progressive-15`` the penny
  allowance is used where the contract cannot be met without it (hands 12–13: two buys are
  needed) and otherwise only for a card that helps.
* It lays down as soon as the solver's lay-down is offered (in ``progressive-buy-it`` round 8 the
  engine offers only lay-downs that go out or keep two cards), then plays every card it can:
  going-out batches first, rearrangements that place hand cards, joker swaps (``swap``) and wild
  relocations (``move``) for cards with no lay-off, lay-offs highest points first.

``basic`` and ``purchase`` are delegated to :mod:`rummy.bots.freeplay`.

>>> from rummy.bots import make_bot, play_game
>>> game = play_game("progressive-buy-it", [make_bot("heuristic", seed=s) for s in range(3)], seed=3)
>>> game.game_over
True
"""

from __future__ import annotations

import random

from rummy.bots.freeplay import BasicPlanner, PurchasePlanner
from rummy.bots.greedy import table_takes
from rummy.bots.planning import ContractPlanner, DiscardMemory, Plan, planner_for, unseen_counts
from rummy.engine import (
    CARD_COUNT,
    JOKER,
    Action,
    BotError,
    Card,
    Counts,
    PlayerView,
    Slot,
    Variant,
    Verb,
    rank_of,
    suit_of,
    to_counts,
)

__all__ = ["HeuristicBot"]

_TABLE_VERBS = (Verb.BATCH, Verb.REARRANGE, Verb.SWAP, Verb.MOVE, Verb.LAYOFF)


class HeuristicBot:
    """Plans the contract with the solver and the planner; see the module docstring.

    Options (all keyword):

    * ``buy_depth`` — claim only when the card brings the deficit to at most this (default 2);
    * ``patience`` — where buying is required (``progressive-15`` hands 12–13), buy any card only
      after this many rounds of turns, before that only a card that helps (default 1);
    * ``outs_weight``, ``points_weight``, ``feed_penalty`` — the discard trade-off between unseen
      outs kept, points thrown, and a card an opponent who is down could lay off;
    * ``rummy`` (``off``, ``near``: when one card from it, ``hold``: until going out) and
      ``rummy_threat`` — in ``basic``, hold melds back to go rummy while every opponent holds more
      than ``rummy_threat`` cards (default ``hold``, 2).
    """

    name = "heuristic"
    needs_public_game = False

    def __init__(
        self,
        seed: int = 0,
        *,
        buy_depth: int = 2,
        patience: float = 1.0,
        outs_weight: float = 1.0,
        points_weight: float = 0.35,
        feed_penalty: float = 6.0,
        rummy: str = "hold",
        rummy_threat: int = 2,
        **options: object,
    ) -> None:
        if options:
            raise BotError(f"unknown heuristic bot options: {', '.join(sorted(options))}")
        if rummy not in ("off", "near", "hold"):
            raise BotError(f"rummy must be off, near or hold, not {rummy!r}")
        self.rng = random.Random(seed)  # the bot is deterministic; kept for the Bot convention
        self.buy_depth = buy_depth
        self.patience = patience
        self.outs_weight = outs_weight
        self.points_weight = points_weight
        self.feed_penalty = feed_penalty
        self.memory = DiscardMemory()
        #: The facts of the round being played (remade when the round changes).
        self.round_facts: _RoundFacts | None = None
        self._basic = BasicPlanner(rummy=rummy, rummy_threat=rummy_threat)
        self._purchase = PurchasePlanner()
        #: Other actions worth weighing against the last choice, best first (filled by :meth:`choose`).
        self.alternatives: list[Action] = []
        #: Whether :meth:`choose` names the alternatives of claims and draws too (only :meth:`candidates`
        #: reads them; a bot playing on its own skips the extra hand analyses they cost).
        self.weigh_alternatives = False
        #: The last hand seen and its count vector (a seat's hand stays the same through the claim windows
        #: between two of its turns; the vector is only read).
        self.last_hand: tuple[tuple[Card, ...], Counts] = ((), [0] * CARD_COUNT)

    def candidates(self, view: PlayerView, limit: int = 3) -> list[Action]:
        """The bot's choice first, then the close alternatives it weighed, at most ``limit`` in all.

        A single candidate means the choice is clear (a search need not look further): claims and
        draws of a card that does not help, lay-downs, plays to the table (but in ``basic``, holding
        the melds back for rummy and melding are each other's alternative).  Discards come ranked.
        """
        self.weigh_alternatives = True
        try:
            choice = self.choose(view)
        finally:
            self.weigh_alternatives = False
        ranked = [choice] + [action for action in self.alternatives if action != choice]
        return ranked[:limit]

    # -- entry point ---------------------------------------------------------------------

    def choose(self, view: PlayerView) -> Action:
        """One of ``view.legal_actions``."""
        self.alternatives = []
        actions = view.legal_actions
        if len(actions) == 1:
            return actions[0]
        variant = view.rules
        assert variant is not None, "the view carries the variant"
        if not variant.has_contracts:
            planner = self._purchase if variant.uses_books else self._basic
            planner.alternatives = []
            choice = planner.choose(view, variant)
            self.alternatives = planner.alternatives
            return choice
        return _ContractTurn(self, view, variant).choose()


class _RoundFacts:
    """What a contract decision needs of the round, worked out once per round (not per decision)."""

    __slots__ = ("contract", "need", "planners", "players", "points", "round", "rules", "variant", "wilds")

    def __init__(self, variant: Variant, round_number: int, players: int, contract: tuple[Slot, ...],
                 before: _RoundFacts | None) -> None:
        """``before``: the facts of the round the bot played last (what depends on the variant alone carries over)."""
        self.variant = variant
        self.contract = contract
        self.round = round_number
        self.players = players
        self.rules = variant.round_rules(round_number, players)
        self.need = sum(slot.min_size for slot in contract)
        #: Each card's points, and the wild cards (read per discard weighed).
        self.points: list[int]
        self.wilds: frozenset[Card]
        if before is not None and before.variant is variant:
            self.points, self.wilds = before.points, before.wilds
        else:
            self.points = [variant.points(card) for card in range(CARD_COUNT)]
            self.wilds = frozenset(card for card in range(CARD_COUNT) if variant.is_wild(card))
        #: The planners, by whether the hand must place a card beyond the contract (``planner_for``'s
        #: ``extra_card``), each fetched when first needed.
        self.planners: dict[bool, ContractPlanner] = {}

    def planner(self, hand_size: int) -> ContractPlanner:
        extra = not self.rules.final_discard_allowed and hand_size <= self.need + 1
        found = self.planners.get(extra)
        if found is None:
            found = self.planners[extra] = planner_for(self.variant, self.contract, extra_card=extra)
        return found


class _ContractTurn:
    """One decision in a contract variant: the facts of the view, each worked out once when first needed."""

    def __init__(self, bot: HeuristicBot, view: PlayerView, variant: Variant) -> None:
        self.bot = bot
        self.view = view
        self.variant = variant
        self.me = view.seat if view.seat is not None else view.active
        players = len(view.players)
        facts = bot.round_facts
        if facts is None or facts.variant is not variant or facts.round != view.round or facts.players != players \
                or (facts.contract is not view.contract and facts.contract != view.contract):
            facts = bot.round_facts = _RoundFacts(variant, view.round, players, view.contract, facts)
        self.players = players
        self.rules = facts.rules
        self.need = facts.need
        self.facts = facts
        bot.memory.observe(view.round, view.dealer, players, view.discard_count, view.discard)
        self.down = view.down[self.me]
        self.hand = view.hand
        hand, counts = bot.last_hand
        if view.hand is not hand and view.hand != hand:
            counts = to_counts(view.hand)
            bot.last_hand = (view.hand, counts)
        self.counts = counts
        self.planner = facts.planner(len(view.hand))
        self._table_takes: frozenset[Card] | None = None  # the cards the table melds take (see _table_cards)
        # Worked out when first read (plain attributes: cheaper than cached_property on every decision).
        self._late: float | None = None
        self._deficit: int | None = None
        self._unseen: Counts | None = None
        self._wild_unseen = 0

    @property
    def late(self) -> float:
        """0 (nobody is down) … 1 (an opponent is down with one or two cards)."""
        if self._late is None:
            view = self.view
            threats = [view.hand_sizes[s] for s in range(self.players) if s != self.me and view.down[s]]
            self._late = 0.0 if not threats else min(1.0, 0.4 + 1.2 / max(1, min(threats)))
        return self._late

    @property
    def deficit(self) -> int:
        """The hand's deficit (:meth:`ContractPlanner.deficit`)."""
        if self._deficit is None:
            self._deficit = self.planner.deficit(self.counts)
        return self._deficit

    # -- helpers ---------------------------------------------------------------------------

    @property
    def unseen(self) -> Counts:
        """Copies of each card this seat has not seen (worked out when a discard is weighed)."""
        if self._unseen is None:
            seen = [*self.hand, *(c for meld in self.view.table for c in meld.cards), *self.bot.memory.known()]
            self._unseen = unseen_counts(self.variant, self.players, seen)
            self._wild_unseen = sum(self._unseen[c] for c in self.planner.wild_cards)
        return self._unseen

    def outs(self, plan: Plan) -> float:
        """Unseen copies of the cards that would lower the deficit (``JOKER`` standing for any wild)."""
        unseen = self.unseen
        total = sum(map(unseen.__getitem__, plan.outs))
        if JOKER in plan.outs:
            total += self._wild_unseen - unseen[JOKER]
        return float(total)

    def actions(self, verb: Verb) -> list[Action]:
        return [a for a in self.view.legal_actions if a.verb is verb]

    def first(self, verb: Verb) -> Action | None:
        for action in self.view.legal_actions:
            if action.verb is verb:
                return action
        return None

    # -- decisions -------------------------------------------------------------------------

    def choose(self) -> Action:
        phase = self.view.phase
        if phase == "claim":
            return self._claim()
        if phase == "draw":
            return self._draw()
        down = self.first(Verb.DOWN)
        if down is not None:
            return down
        play = self._table_play()
        if play is not None:
            return play
        return self._discard()

    def _claim(self) -> Action:
        """A claim window on ``view.claim_card``: buy or pass."""
        card = self.view.claim_card
        buy, passing = self.first(Verb.BUY), self.first(Verb.PASS)
        assert passing is not None
        if self.bot.weigh_alternatives and buy is not None and card is not None and not self.down \
                and self._helps(card):
            self.bot.alternatives = [buy, passing]
        if buy is not None and card is not None and self._wants_buy(card, own_turn=False):
            return buy
        return passing

    def _helps(self, card: Card) -> bool:
        """Whether ``card`` brings the contract closer (or is a wild)."""
        if self.variant.is_wild(card):
            return True
        return self._lowers(card)

    def _lowers(self, card: Card) -> bool:
        """Whether the hand with ``card`` has a smaller deficit (a deficit of 0 cannot be lowered, so the
        hand with the card is analysed only when it could be)."""
        before = self.deficit
        return before > 0 and self._with_card_deficit(card, before - 1) < before

    def _with_card_deficit(self, card: Card, ceiling: int) -> int:
        """The deficit of the hand with ``card``, or ``ceiling + 1`` when it is certainly above ``ceiling``
        (the full analysis is run only when the card may bring the hand that low)."""
        if not self.planner.with_card_within(self.counts, card, ceiling):
            return ceiling + 1
        return self.planner.with_card(self.counts, card).deficit

    def _wants_buy(self, card: Card, *, own_turn: bool) -> bool:
        if self.down:
            return False
        if self.need > len(self.view.hand) + 1:
            # The contract cannot be met without buying (progressive-15 hands 12–13): buy a card that
            # helps, or any card once the round has gone on for a while.
            if self._elapsed() >= self.bot.patience * self.players or self.variant.is_wild(card):
                return True
            return self._lowers(card)
        depth = self._buy_depth(own_turn=own_turn)
        if depth is None:
            return False
        before = self.deficit
        if before > depth + 1 or before == 0:
            return False  # too far, or nothing to lower
        after = self._with_card_deficit(card, min(before - 1, depth))
        return after < before and after <= depth

    def _buy_depth(self, *, own_turn: bool) -> int | None:
        """The deficit a bought card must bring the hand to (None: the hand is too swollen to buy at all)."""
        surplus = len(self.view.hand) + 1 + self.rules.penalty_cards + 1 - self.need
        if surplus > 4 - (1 if self.rules.penalty_cards else 0) + (1 if own_turn else 0):
            return None  # a swollen hand: every extra card is penalty risk
        depth = self.bot.buy_depth
        if self.late >= 0.6:
            depth = 0
        elif self.late > 0:
            depth = min(depth, 1)
        return depth

    def _elapsed(self) -> int:
        """Cards drawn from the stock so far this round (until the first reshuffle)."""
        dealt = self.rules.deal_size * self.players + (1 if self.variant.upcard else 0)
        return max(0, self.variant.pack_size(self.players) - dealt - self.view.stock_count)

    def _draw(self) -> Action:
        top = self.view.discard[-1] if self.view.discard else None
        draw, take, buy = self.first(Verb.DRAW), self.first(Verb.TAKE), self.first(Verb.BUY)
        if self.bot.weigh_alternatives and top is not None and (self._fits(top) if self.down else self._helps(top)):
            self.bot.alternatives = [a for a in (take, buy if not self.down else None, draw) if a is not None]
        if top is not None and buy is not None and not self.down:
            if self.need > len(self.view.hand) + 1:
                if self._wants_buy(top, own_turn=True):
                    return buy
            elif self._buy_depth(own_turn=True) is not None and self.deficit > 1:
                # The card and still a normal draw: a spare card for the lay-down, when the card lowers the
                # deficit but not to 0 (a deficit of 1 or less cannot be lowered to above 0).
                before = self.deficit
                after = self._with_card_deficit(top, before - 1)
                if 0 < after < before and self._wants_buy(top, own_turn=True):
                    return buy
        if take is not None and (draw is None or (top is not None and self._wants_take(top))):
            return take
        if draw is not None:
            return draw
        return next(a for a in self.view.legal_actions if a.verb is not Verb.BUY)

    def _wants_take(self, card: Card) -> bool:
        if self.down:
            return self._fits(card)
        before = self.deficit
        if before == 0:  # nothing to lower; a wild is still taken while the hand stays within reach
            return self.variant.is_wild(card) and self._with_card_deficit(card, 0) == 0
        return self._with_card_deficit(card, before - 1) < before

    def _table_play(self) -> Action | None:
        """The best play onto the table once down (None: nothing to play)."""
        size = len(self.hand)
        options: list[tuple[tuple[float, ...], Action]] = []
        for action in self.view.legal_actions:
            if action.verb not in _TABLE_VERBS:
                continue
            played, points = self._placed(action)
            if played >= size:
                return action  # goes out
            wild = action.verb is Verb.LAYOFF and self.variant.is_wild(action.card or 0)
            if action.verb is Verb.SWAP:
                # Worth it only for a card no lay-off can place; the wild comes back to play.
                if any(a.verb is Verb.LAYOFF and a.card == action.card for a in self.view.legal_actions):
                    continue
                key: tuple[float, ...] = (1, 0, points, -(action.card or 0))
            else:
                key = (played, 0 if wild else 1, points, -(action.card or 0))
            options.append((key, action))
        if not options:
            return None
        return max(options, key=lambda item: item[0])[1]

    def _placed(self, action: Action) -> tuple[int, int]:
        """Hand cards a table play places, and their points."""
        points = self.variant.points
        if action.verb is Verb.BATCH:
            cards = [s.card for s in action.steps if s.verb is Verb.LAYOFF and s.card is not None]
            return len(cards), sum(points(c) for c in cards)
        if action.verb is Verb.REARRANGE:
            result = [c for m in action.melds for c in m.cards]
            table = to_counts(c for meld in self.view.table if meld.id in action.sources for c in meld.cards)
            mine = to_counts(result)
            cards = [c for c in range(53) for _ in range(max(0, mine[c] - table[c]))]
            return len(cards), sum(points(c) for c in cards)
        card = action.card if action.card is not None else 0
        if action.verb is Verb.SWAP:
            return 0, points(card)
        return 1, points(card)

    def _discard(self) -> Action:
        discards = self.actions(Verb.DISCARD)
        if not discards:
            return self.view.legal_actions[0]
        if self.down:
            ranked = sorted(discards, key=lambda a: self._down_discard_key(a.card or 0), reverse=True)
            self.bot.alternatives = ranked
            return ranked[0]
        weight = self.bot.points_weight + 0.9 * self.late
        outs_weight = self.bot.outs_weight * (1.0 - 0.5 * self.late)
        # A card that fits the table feeds any opponent who is down (they take it and lay it off).
        feeders = sum(1 for s, down in enumerate(self.view.down) if down and s != self.me)
        plans = self.planner.discard_plans(self.counts, [a.card for a in discards if a.card is not None])

        outs_of: dict[int, float] = {}  # by plan (spare cards often share one)
        feed = self.bot.feed_penalty * (1 + self.late) if feeders else 0.0
        fits = self._table_cards() if feeders else frozenset()
        points, wilds = self.facts.points, self.facts.wilds

        def key(action: Action) -> tuple[float, ...]:
            card = action.card if action.card is not None else 0
            plan = plans[card]
            outs = outs_of.get(id(plan))
            if outs is None:
                outs = outs_of[id(plan)] = self.outs(plan)
            return (-plan.deficit, 0 if card in wilds else 1,
                    outs_weight * outs + weight * points[card] - (feed if card in fits else 0.0), -card)

        ranked = sorted(discards, key=key, reverse=True)
        self.bot.alternatives = ranked
        return ranked[0]

    def _fits(self, card: Card) -> bool:
        """Whether ``card`` can be laid off on the table (:func:`~rummy.bots.greedy.fits_table`)."""
        return card in self._table_cards()

    def _table_cards(self) -> frozenset[Card]:
        """The cards the table melds take (:func:`~rummy.bots.greedy.table_takes`)."""
        if self._table_takes is None:
            self._table_takes = table_takes(self.view.table, self.variant)
        return self._table_takes

    def _down_discard_key(self, card: Card) -> tuple[float, ...]:
        """Once down: throw the card least likely ever to be laid off, most expensive first."""
        variant = self.variant
        if variant.is_wild(card):
            return (-1.0, 0.0, -card)
        hope = 0.0
        values = {rank_of(card), 14} if rank_of(card) == 1 else {rank_of(card)}
        for meld in self.view.table:
            if meld.is_run and suit_of(card) == meld.suit and values & {meld.low - 2, meld.high + 2}:
                hope += 1.0
        return (1.0, variant.points(card) - 4 * hope, card)

