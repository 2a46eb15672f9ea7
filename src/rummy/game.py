"""The game state machine: dealing, turns, claim windows, table play, round and game end.

A :class:`Game` holds the whole (omniscient) state.  :meth:`Game.apply` validates an
:class:`~rummy.actions.Action` completely and raises :class:`IllegalActionError` with the state
unchanged, or applies it and appends it to :attr:`Game.log`.  :meth:`Game.legal_actions`
enumerates what a seat may do; :meth:`Game.view` gives one seat's view.

>>> game = new_game("basic", ["Ann", "Bob"], seed=1)
>>> game.phase, game.to_act == [game.active]
(<Phase.DRAW: 'draw'>, True)
>>> game.apply_text(f"p{game.active} draw")
>>> game.phase
<Phase.PLAY: 'play'>
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from rummy.actions import Action, Verb, parse_action
from rummy.cards import CARD_COUNT, Card, Counts, card_name, from_counts, pack, to_counts
from rummy.errors import DealError, IllegalActionError, UsageError
from rummy.melds import TableMeld
from rummy.scoring import RoundResult, ranking, settle, winners
from rummy.variants import RoundRules, Variant, get_variant

if TYPE_CHECKING:
    from rummy.view import PlayerView


class Phase(StrEnum):
    CLAIM = "claim"
    DRAW = "draw"
    PLAY = "play"
    ROUND_OVER = "round_over"
    GAME_OVER = "game_over"


class ClaimWindow:
    """An offer of the top discard to the eligible seats, in priority order."""

    __slots__ = ("card", "eligible", "answered", "claimants", "after_decline")

    def __init__(self, card: Card, eligible: list[int], after_decline: bool) -> None:
        self.card = card
        self.eligible = eligible
        self.answered: set[int] = set()
        self.claimants: set[int] = set()
        self.after_decline = after_decline

    def copy(self) -> ClaimWindow:
        other = ClaimWindow(self.card, self.eligible, self.after_decline)
        other.answered = set(self.answered)
        other.claimants = set(self.claimants)
        return other

    def waiting(self) -> list[int]:
        return sorted(p for p in self.eligible if p not in self.answered)


class Game:
    """One game of any variant; see the module docstring."""

    def __init__(
        self,
        variant: Variant,
        players: Sequence[str] | int,
        *,
        seed: int = 0,
        start_round: int = 1,
        totals: Sequence[int] | None = None,
        kitty: int = 0,
    ) -> None:
        names = [f"Player {i + 1}" for i in range(players)] if isinstance(players, int) else list(players)
        n = len(names)
        if not variant.players_min <= n <= variant.players_max:
            raise DealError(
                f"{variant.id} is for {variant.players_min}–{variant.players_max} players, not {n}"
            )
        if variant.round_count is not None and not 1 <= start_round <= variant.round_count:
            raise DealError(f"{variant.id} has rounds 1–{variant.round_count}, not {start_round}")
        if totals is not None and len(totals) != n:
            raise DealError(f"start totals need {n} entries, not {len(totals)}")
        self.variant = variant
        self.players = names
        self.start_round = start_round
        self.start_totals = list(totals) if totals is not None else [0] * n
        self.start_kitty = kitty
        self.n = n
        self.seed = seed
        self.rng = random.Random(seed)
        self.pack = pack(variant.decks_for(n), variant.jokers_per_deck)
        self.round_number = start_round - 1
        self.totals = list(totals) if totals is not None else [0] * n
        self.kitty = kitty
        self.pennies_paid = [0] * n
        self.match_wins = [0] * n
        self.results: list[RoundResult] = []
        self.log: list[Action] = []
        self.deals: list[dict[str, Any]] = []  # one per round dealt: the deal as supplied
        self.round_starts: list[int] = []  # index in ``log`` where each round's actions begin
        self.phase = Phase.ROUND_OVER
        self.dealer = -1
        self.active = -1
        self.turns_played = 0
        self.hidden_stock = 0  # set only in a redacted copy (rummy.search.determinize)
        #: In a redacted copy: per seat, cards all saw go into that hand and not come out (rummy.search.determinize).
        self.known_hands: list[Counts] | None = None
        #: In a redacted copy: per seat, the cards it discarded this round (rummy.search.determinize).
        self.discarded: list[Counts] | None = None
        #: In a redacted copy: per seat, the discards it left for the stock this round (rummy.search.determinize).
        self.declined: list[Counts] | None = None
        #: In a redacted copy: per seat, its latest discard this round, if it has taken no card from the pile
        #: since (rummy.search.determinize).
        self.last_discards: list[Card | None] | None = None
        self._reset_round_state()

    # -- round set-up ---------------------------------------------------------------------

    def _reset_round_state(self) -> None:
        n = self.n
        self.rules: RoundRules = self.variant.round_rules(max(self.round_number, 1), n)
        self.hands: list[Counts] = [[0] * CARD_COUNT for _ in range(n)]
        self.sizes = [0] * n
        self.stock: list[Card] = []  # top of the stock is the last element
        self.discard: list[Card] = []  # bottom first
        self.discarders: list[int] = []
        self.table: list[TableMeld] = []
        self.next_meld_id = 1
        self.down = [False] * n
        self.down_turn = [0] * n
        self.own_turns = [0] * n
        self.claims_used = [0] * n
        self.played_to_table = [False] * n
        self.purchase_cards: list[Card] | None = None
        self.window: ClaimWindow | None = None
        self.refills = 0
        self.depletions = 0
        self.dead = False
        self.after_claim = False
        self.taken_card: Card | None = None
        self.melds_this_turn = 0
        self.stolen_pending = 0
        self.played_before_turn = False
        self.purchase_done = False
        #: Cards that went face up from the discard pile into a hand this round: (log index, seat, card).
        self.pickups: list[tuple[int, int, Card]] = []

    def deal(
        self,
        *,
        dealer: int | None = None,
        hands: Sequence[Sequence[Card]] | None = None,
        upcard: Card | None = None,
        stock: Sequence[Card] | None = None,
        purchase_cards: Sequence[Card] | None = None,
    ) -> None:
        """Deal the next round: shuffled with the game's RNG, or the cards the caller supplies.

        ``stock`` runs from the top down and may list only its top part; the rest of the pack
        follows in canonical order.
        """
        if self.phase is not Phase.ROUND_OVER:
            raise DealError(f"cannot deal in phase {self.phase.value}")
        variant, n = self.variant, self.n
        number = self.round_number + 1
        if variant.round_count is not None and number > variant.round_count:
            raise DealError(f"{variant.id} has only {variant.round_count} rounds")
        expected_dealer = self._next_dealer()
        if dealer is None:
            dealer = expected_dealer
        elif not 0 <= dealer < n:
            raise DealError(f"dealer {dealer} out of range")
        elif expected_dealer >= 0 and dealer != expected_dealer:
            raise DealError(f"round {number}: dealer must be seat {expected_dealer} (rotation), not {dealer}")
        rules = variant.round_rules(number, n)
        uses_pc = variant.scoring == "book"
        if hands is None:
            cards = from_counts(self.pack)
            self.rng.shuffle(cards)
            order = [(dealer + 1 + i) % n for i in range(n)]
            dealt: list[list[Card]] = [[] for _ in range(n)]
            for _ in range(rules.deal_size):
                for seat in order:
                    dealt[seat].append(cards.pop())
            pcs = [cards.pop() for _ in order] if uses_pc else None
            if pcs is not None:
                pcs = [pcs[order.index(seat)] for seat in range(n)]
            up = cards.pop() if variant.upcard else None
            rest = cards[::-1]
        else:
            dealt = [list(h) for h in hands]
            pcs = list(purchase_cards) if purchase_cards is not None else None
            up = upcard
            rest = list(stock or [])
            self._check_supplied_deal(number, rules, dealt, up, rest, pcs)
            named = to_counts([c for h in dealt for c in h] + rest + ([up] if up is not None else []) + (pcs or []))
            rest += [c for c in range(CARD_COUNT) for _ in range(self.pack[c] - named[c])]
        self.round_number = number
        self._reset_round_state()
        self.rules = rules
        self.dealer = dealer
        self.deals = self.deals + [{
            "dealer": dealer,
            "hands": [list(h) for h in dealt],
            "upcard": up,
            "stock": list(rest),
            "purchase_cards": list(pcs) if pcs is not None else None,
        }]
        self.round_starts = self.round_starts + [len(self.log)]
        for seat, cards_in_hand in enumerate(dealt):
            self.hands[seat] = to_counts(cards_in_hand)
            self.sizes[seat] = len(cards_in_hand)
        self.stock = rest[::-1]
        if up is not None:
            self.discard = [up]
            self.discarders = [-1]
        self.purchase_cards = pcs
        self._start_turn((dealer + 1) % n)

    def _next_dealer(self) -> int:
        if self.dealer >= 0:
            return (self.dealer + 1) % self.n
        return -1

    def choose_first_dealer(self) -> int:
        """The first dealer by the variant's rule (random, high-card draw or seat 0)."""
        if self.variant.first_dealer == "first_seat":
            return 0
        return self.rng.randrange(self.n)

    def _check_supplied_deal(
        self,
        number: int,
        rules: RoundRules,
        hands: list[list[Card]],
        upcard: Card | None,
        stock: list[Card],
        pcs: list[Card] | None,
    ) -> None:
        variant = self.variant
        if len(hands) != self.n:
            raise DealError(f"round {number}: {self.n} hands needed, not {len(hands)}")
        for seat, hand in enumerate(hands):
            if len(hand) != rules.deal_size:
                raise DealError(
                    f"round {number}: hand of seat {seat} has {len(hand)} cards, the deal is {rules.deal_size}"
                )
        if variant.scoring == "book":
            if pcs is None or len(pcs) != self.n:
                raise DealError(f"round {number}: purchase_cards needs one card per seat")
        elif pcs is not None:
            raise DealError(f"round {number}: purchase_cards belong to the purchase variant only")
        if variant.upcard and upcard is None:
            raise DealError(f"round {number}: an upcard is needed")
        if not variant.upcard and upcard is not None:
            raise DealError(f"round {number}: this variant turns no upcard (upcard = false)")
        named = to_counts(
            [c for h in hands for c in h] + stock + ([upcard] if upcard is not None else []) + (pcs or [])
        )
        for card in range(CARD_COUNT):
            if named[card] > self.pack[card]:
                raise DealError(
                    f"round {number}: {named[card]} × {card_name(card)} named, the pack holds {self.pack[card]}"
                )

    # -- public queries -------------------------------------------------------------------

    @property
    def to_act(self) -> list[int]:
        """Seats the engine is waiting for."""
        if self.phase is Phase.CLAIM and self.window is not None:
            return self.window.waiting()
        if self.phase in (Phase.DRAW, Phase.PLAY):
            return [self.active]
        return []

    def next_to_act(self) -> int:
        """The waiting seat to ask first: in a claim window the nearest to the active player's left
        (the tie-break for simultaneous calls, rules.md §2.8)."""
        waiting = self.to_act
        if not waiting:
            raise UsageError(f"nobody is to act in phase {self.phase.value}")
        return min(waiting, key=lambda seat: (seat - self.active) % self.n)

    @property
    def game_over(self) -> bool:
        return self.phase is Phase.GAME_OVER

    def hand(self, seat: int) -> list[Card]:
        """The cards of ``seat``'s hand in canonical order."""
        return from_counts(self.hands[seat])

    @property
    def top_discard(self) -> Card | None:
        return self.discard[-1] if self.discard else None

    def winners(self) -> list[int]:
        """Winning seats once the game is over (co-winners share); empty before."""
        if not self.game_over:
            return []
        if self.variant.scoring == "book":
            best = max(self.match_wins)
            return [s for s in range(self.n) if self.match_wins[s] == best and best > 0]
        return winners(self.variant, self.totals, self.results)

    def ranking(self) -> list[int]:
        if self.variant.scoring == "book":
            return sorted(range(self.n), key=lambda s: (-self.match_wins[s], s))
        return ranking(self.variant, self.totals, self.results)

    def settlement(self) -> list[Any]:
        if not self.game_over:
            return []
        return settle(self.variant, self.totals, kitty=self.kitty, paid=self.pennies_paid, rounds=self.results)

    # -- applying actions -----------------------------------------------------------------

    def apply_text(self, text: str) -> None:
        """Parse and apply one action in record notation."""
        self.apply(parse_action(text, self.n))

    def apply(self, action: Action) -> None:
        """Validate and apply ``action``; on an :class:`IllegalActionError` nothing changed."""
        from rummy import play

        if not 0 <= action.seat < self.n:
            raise IllegalActionError("wrong-seat", str(action), f"there is no seat {action.seat}")
        if self.phase is Phase.CLAIM and action.seat == self.active and action.verb not in (Verb.BUY, Verb.PASS):
            saved = self.snapshot()
            try:
                self._close_window_implied()
                self._apply_in_phase(action, play)
            except IllegalActionError:
                self.restore(saved)
                raise
        else:
            self._apply_in_phase(action, play)
        self.log.append(action)

    def _apply_in_phase(self, action: Action, play: Any) -> None:
        phase = self.phase
        verb = action.verb
        if phase in (Phase.ROUND_OVER, Phase.GAME_OVER):
            what = "game" if phase is Phase.GAME_OVER else "round"
            raise IllegalActionError("round-over", str(action), f"the {what} is over")
        if phase is Phase.CLAIM:
            if verb not in (Verb.BUY, Verb.PASS):
                raise IllegalActionError(
                    "wrong-phase", str(action),
                    f"a claim window on {card_name(self.window.card if self.window else 0)} is open",
                )
            self._claim_answer(action)
            return
        if verb is Verb.PASS or (verb is Verb.BUY and action.seat != self.active):
            if action.seat == self.active:
                raise IllegalActionError("not-eligible", str(action), "the active player cannot pass a claim")
            raise IllegalActionError("not-eligible", str(action), "no claim window is open")
        if action.seat != self.active:
            raise IllegalActionError("wrong-seat", str(action), f"it is p{self.active}'s turn")
        if phase is Phase.DRAW:
            if verb is Verb.DRAW:
                self._draw(action)
            elif verb is Verb.TAKE:
                self._take(action)
            elif verb is Verb.BUY:
                self._own_buy(action)
            else:
                raise IllegalActionError("draw-first", str(action), f"p{self.active} must draw first")
            return
        # Phase.PLAY
        if verb in (Verb.DRAW, Verb.TAKE, Verb.BUY):
            raise IllegalActionError("already-drew", str(action), f"p{self.active} has already drawn this turn")
        play.play(self, action)

    # -- snapshots (cheap undo) -----------------------------------------------------------

    def snapshot(self) -> dict[str, Any]:
        """A copy of the mutable state, for :meth:`restore` (cheaper than deepcopy)."""
        state = dict(self.__dict__)
        state["hands"] = [list(h) for h in self.hands]
        for key in ("sizes", "stock", "discard", "discarders", "table", "down", "down_turn",
                    "own_turns", "claims_used", "played_to_table", "totals", "pennies_paid",
                    "match_wins", "results", "log", "deals", "round_starts", "pickups"):
            state[key] = list(state[key])
        if self.purchase_cards is not None:
            state["purchase_cards"] = list(self.purchase_cards)
        if self.window is not None:
            state["window"] = self.window.copy()
        state["rng"] = None
        state["rng_state"] = self.rng.getstate()
        return state

    def restore(self, state: dict[str, Any]) -> None:
        rng_state = state.pop("rng_state")
        state = dict(state)
        state["rng"] = self.rng
        self.__dict__.update(state)
        self.rng.setstate(rng_state)

    def clone(self) -> Game:
        """An independent copy of this game."""
        other = Game.__new__(Game)
        state = self.snapshot()
        rng = random.Random()
        rng.setstate(state.pop("rng_state"))
        state["rng"] = rng
        other.__dict__.update(state)
        return other

    # -- turns ----------------------------------------------------------------------------

    def _start_turn(self, seat: int) -> None:
        self.active = seat
        self.own_turns[seat] += 1
        self.dead = False
        self.after_claim = False
        self.taken_card = None
        self.melds_this_turn = 0
        self.stolen_pending = 0
        self.purchase_done = False
        self.played_before_turn = self.played_to_table[seat]
        self.window = None
        variant = self.variant
        if variant.max_turns is not None and self.turns_played >= variant.max_turns:
            self._end_round("stalemate", None)
            return
        self.turns_played += 1
        if variant.stock_refill == "whole_pile_once" and variant.depletion_check == "turn_start" and not self.stock:
            if not self._deplete():
                return
        if variant.stock_refill == "none" and variant.scoring == "winner_collects" and not self.stock:
            # basic without a refill: its first depletion is what the second is by rules.md §6.10, a
            # stalemate (the pile would otherwise pass round the table for ever).
            self._end_round("stalemate", None)
            return
        if self._window_mode() == "pre" and self._open_window_before_draw():
            return
        self._enter_draw()

    def _open_window_before_draw(self) -> bool:
        """Offer the top discard to the other seats before the active player draws, if anyone may claim."""
        if not self.discard:
            return False
        eligible = self._eligible(self.discard[-1], self.discarders[-1])
        if not eligible:
            return False
        self.window = ClaimWindow(self.discard[-1], eligible, after_decline=False)
        self.phase = Phase.CLAIM
        return True

    def _deplete(self) -> bool:
        """``basic`` stock depletion (rules.md §6.10); False when the hand ended in a stalemate."""
        if self.depletions >= 1:
            self._end_round("stalemate", None)
            return False
        self.depletions += 1
        keep = self.discard[-1:] if self.variant.refill_keeps_top_discard else []
        cards = self.discard[: len(self.discard) - len(keep)]
        keep_by = self.discarders[-1:] if keep else []
        self.discard, self.discarders = keep, keep_by
        self._shuffle_into_stock(cards)
        if not self.stock:
            self._end_round("stalemate", None)
            return False
        return True

    def _window_mode(self) -> str:
        mode = self.variant.claim_mode
        if mode == "pre_draw":
            return "decline" if self.variant.active_first_refusal else "pre"
        if mode == "after_decline":
            return "decline"
        if mode == "active_first_then_others":
            return "cascade"
        return "none"

    def _enter_draw(self) -> None:
        self.phase = Phase.DRAW
        if all(self.draw_error(verb) is not None for verb in (Verb.DRAW, Verb.TAKE, Verb.BUY)):
            # rules.md §2.9: no card can be drawn (the stock is out and cannot be refilled, and the
            # pile is empty or, in purchase, may not be taken): the round ends by exhaustion.
            self._end_round("exhausted", None)

    def _stock_drawable(self, count: int, *, removing_top: bool = False) -> bool:
        """Whether ``count`` cards can come from the stock, refilling from the discards."""
        if len(self.stock) >= count:
            return True
        if self.variant.stock_refill != "keep_top":
            return False
        pile = len(self.discard) - (1 if removing_top else 0)
        return len(self.stock) + max(0, pile - 1) >= count

    def _draw_from_stock(self) -> Card:
        if not self.stock:
            cards = self.discard[:-1]
            self.discard = self.discard[-1:]
            self.discarders = self.discarders[-1:]
            self._shuffle_into_stock(cards)
        card = self.stock.pop()
        if (
            not self.stock
            and self.variant.stock_refill == "whole_pile_once"
            and self.variant.depletion_check == "on_last_card_drawn"
        ):
            self._deplete_after_draw = True
        return card

    def _shuffle_into_stock(self, cards: list[Card]) -> None:
        rng = random.Random(self.seed + self.round_number + self.refills)
        self.refills += 1
        rng.shuffle(cards)
        self.stock = cards[::-1] + self.stock

    def _give(self, seat: int, card: Card) -> None:
        self.hands[seat][card] += 1
        self.sizes[seat] += 1

    def draw_error(self, verb: Verb) -> tuple[str, str] | None:
        """Why the active player may not ``draw``, ``take`` or ``buy`` now (rule, reason), or None."""
        stock_ok = self._stock_drawable(1)
        if verb is Verb.DRAW:
            if not stock_ok:
                return "stock-empty", "the stock is empty and cannot be refilled: take the discard"
            return None
        top = self.top_discard
        if verb is Verb.TAKE:
            if self.variant.scoring == "book":
                return "take-not-allowed", "in purchase every turn starts with a stock draw"
            if top is None:
                return "discard-empty", "the discard pile is empty"
            if stock_ok and self.after_claim and self.variant.after_claim_active_draw == "stock_only":
                return "stock-only-after-buy", "after a buy the active player must draw from the stock"
            return None
        if self._window_mode() != "cascade":
            return "no-own-buy", "the active player cannot buy in this variant"
        if not self.rules.claims_open:
            return "no-buying-this-round", f"there is no buying in round {self.round_number}"
        if top is None:
            return "discard-empty", "the discard pile is empty"
        if self.dead:
            return "discard-dead", "the discard pile is dead this turn"
        if not self._claim_allowance_left(self.active):
            return "claim-limit", f"p{self.active} has no buys left this round"
        if not self._stock_drawable(self.rules.penalty_cards, removing_top=True):
            return "no-penalty-card", "the stock cannot supply the blind card"
        return None

    def _check_draw(self, action: Action) -> None:
        error = self.draw_error(action.verb)
        if error is not None:
            raise IllegalActionError(error[0], str(action), error[1])

    def _draw(self, action: Action) -> None:
        self._check_draw(action)
        mode = self._window_mode()
        top = self.top_discard
        if mode in ("decline", "cascade") and top is not None and not self.dead and self.rules.claims_open:
            eligible = self._eligible(top, self.discarders[-1])
            if eligible:
                self.window = ClaimWindow(top, eligible, after_decline=True)
                self.phase = Phase.CLAIM
                return
        self._active_draws_stock()

    def _active_draws_stock(self) -> None:
        self._deplete_after_draw = False
        self._give(self.active, self._draw_from_stock())
        self.phase = Phase.PLAY
        if self._deplete_after_draw:
            self._deplete()

    _deplete_after_draw = False

    def _take(self, action: Action) -> None:
        self._check_draw(action)
        top = self.discard.pop()
        self.discarders.pop()
        self._give(self.active, top)
        self.pickups.append((len(self.log), self.active, top))
        self.taken_card = top
        self.phase = Phase.PLAY

    # -- claims -------------------------------------------------------------------------------

    def _eligible(self, card: Card, discarder: int, *, exclude_active: bool = True) -> list[int]:
        """Seats that may claim ``card`` now, nearest to the active player's left first."""
        variant, rules = self.variant, self.rules
        if not rules.claims_open:
            return []
        if not self._stock_drawable(rules.penalty_cards, removing_top=True):
            return []
        seats = []
        for distance in range(1, self.n):
            seat = (self.active + distance) % self.n
            if self._claim_allowance_left(seat) and (variant.claim_allowed_when_down or not self.down[seat]) and (
                variant.discarder_may_claim or seat != discarder
            ):
                seats.append(seat)
        return seats

    def _claim_allowance_left(self, seat: int) -> bool:
        limit = self.rules.claim_limit
        if limit is None:
            return True
        if self.variant.claim_limit_scope == "table":
            return sum(self.claims_used) < limit
        return self.claims_used[seat] < limit

    def _claim_answer(self, action: Action) -> None:
        window = self.window
        assert window is not None
        seat = action.seat
        if seat not in window.eligible:
            raise IllegalActionError(
                "not-eligible", str(action), f"p{seat} may not claim {card_name(window.card)} now"
            )
        if seat in window.answered:
            raise IllegalActionError("already-answered", str(action), f"p{seat} has already answered this window")
        window.answered.add(seat)
        if action.verb is Verb.BUY:
            if self.variant.claim_priority == "first_call":
                self._resolve_window(seat)
                return
            window.claimants.add(seat)
        self._try_resolve()

    def _try_resolve(self) -> None:
        window = self.window
        assert window is not None
        for seat in window.eligible:
            if seat in window.claimants:
                self._resolve_window(seat)
                return
            if seat not in window.answered:
                return
        self._resolve_window(None)

    def _close_window_implied(self) -> None:
        """The active player acted: every silent eligible seat passes."""
        window = self.window
        assert window is not None
        winner = next((s for s in window.eligible if s in window.claimants), None)
        self._resolve_window(winner)

    def _resolve_window(self, winner: int | None) -> None:
        window = self.window
        assert window is not None
        self.window = None
        if winner is not None:
            self._claim(winner)
            cascade = self.variant.claims_per_window == "cascade"
            if not cascade:
                self.dead = True
            if not window.after_decline:
                self.after_claim = True
                if cascade and self._open_window_before_draw():
                    return
                self._enter_draw()
                return
            if self._window_mode() == "cascade":
                self.after_claim = True
                self._enter_draw()
                return
        elif not window.after_decline:
            self._enter_draw()
            return
        # After a declined discard the active player's stock card comes now.
        if self._stock_drawable(1):
            self._active_draws_stock()
        else:
            self.dead = False
            self._enter_draw()

    def _claim(self, seat: int) -> None:
        """``seat`` takes the top discard, then its penalty (blind) cards, and pays."""
        card = self.discard.pop()
        self.discarders.pop()
        self._give(seat, card)
        self.pickups.append((len(self.log), seat, card))
        for _ in range(self.rules.penalty_cards):
            self._give(seat, self._draw_from_stock())
        self.claims_used[seat] += 1
        cost = self.variant.claim_cost + self.variant.blind_card_cost * self.rules.penalty_cards
        self.kitty += cost
        self.pennies_paid[seat] += cost

    def _own_buy(self, action: Action) -> None:
        self._check_draw(action)
        self._claim(self.active)
        self.after_claim = True
        if self.variant.claims_per_window != "cascade":
            self.dead = True
        self._enter_draw()

    # -- round end ------------------------------------------------------------------------

    def _end_round(self, end: str, went_out: int | None) -> None:
        variant = self.variant
        n = self.n
        self.window = None
        scores = [0] * n
        if variant.scoring == "penalty":
            if end == "out" or (end == "exhausted" and variant.exhaustion_scoring == "penalty"):
                for seat in range(n):
                    if seat != went_out:
                        scores[seat] = self.hand_points(seat)
        elif variant.scoring == "winner_collects" and end == "out" and went_out is not None:
            collected = sum(self.hand_points(s) for s in range(n) if s != went_out)
            if not self.played_before_turn:
                collected *= variant.rummy_multiplier
            scores[went_out] = collected
        elif variant.scoring == "book" and end == "book" and went_out is not None:
            self.match_wins[went_out] += 1
        for seat in range(n):
            self.totals[seat] += scores[seat]
        self.results.append(RoundResult(self.round_number, went_out, tuple(scores), end, tuple(self.claims_used)))
        self.phase = Phase.GAME_OVER if self._game_finished(end) else Phase.ROUND_OVER

    def _game_finished(self, end: str) -> bool:
        variant = self.variant
        if variant.scoring == "penalty":
            return self.round_number == variant.round_count
        if variant.scoring == "winner_collects":
            target = variant.target(self.n)
            return target is not None and max(self.totals) >= target
        if variant.max_turns is not None and self.turns_played >= variant.max_turns and end == "stalemate":
            return True
        return max(self.match_wins) >= variant.match_target

    def hand_points(self, seat: int) -> int:
        """Value of the cards in ``seat``'s hand."""
        points = self.variant.points
        return sum(points(card) * count for card, count in enumerate(self.hands[seat]) if count)

    # -- enumeration and views --------------------------------------------------------------

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """Every action ``seat`` (default: every seat in :attr:`to_act`) may take now.

        Composite moves (lay-downs, rearrangements, going out in one batch) are listed as
        the solver finds them rather than every variation; any other legal one is accepted
        by :meth:`apply` too.
        """
        from rummy.legal import legal_actions

        return legal_actions(self, seat)

    def view(self, seat: int | None) -> PlayerView:
        """What ``seat`` may see (None: a spectator's public view)."""
        from rummy.view import player_view

        return player_view(self, seat)


def new_game(
    variant: str | Variant,
    players: Sequence[str] | int,
    *,
    seed: int = 0,
    options: dict[str, Any] | None = None,
    dealer: int | None = None,
) -> Game:
    """A game with its first round dealt from a shuffle seeded by ``seed``."""
    rules = get_variant(variant, options) if isinstance(variant, str) else variant
    game = Game(rules, players, seed=seed)
    game.deal(dealer=game.choose_first_dealer() if dealer is None else dealer)
    return game
