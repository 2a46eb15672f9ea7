"""Per-seat views: what one seat may see (rules.md §2.13), and nothing more.

A view holds the seat's own hand, the public table, hand sizes, the discard pile as the variant
shows it, scores and counters, and the seat's legal actions; its JSON form adds the table's resolved
facts (:mod:`rummy.engine.table_facts`: card points, wilds, what a claim is called and costs …).  It never
holds another hand or the stock order, so a server or a bot working from it cannot leak them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import rummy.engine.backends as backends
from rummy.engine.actions import Action
from rummy.engine.cards import Card, card_name, card_names, from_counts
from rummy.engine.errors import UsageError
from rummy.engine.melds import TableMeld, meld_json, meld_view_json
from rummy.engine.memo import memo_table, put
from rummy.engine.moves import legal_actions, seats_to_act
from rummy.engine.state import GameState, Phase
from rummy.engine.table_facts import table_facts
from rummy.engine.variants import Slot, Variant


@dataclass(frozen=True, slots=True)
class PlayerView:
    """One seat's view of the game (``seat`` None: a spectator)."""

    seat: int | None
    variant: str
    players: tuple[str, ...]
    round: int
    phase: str
    active: int
    dealer: int
    to_act: tuple[int, ...]
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    table: tuple[TableMeld, ...]
    discard: tuple[Card, ...]
    discard_count: int
    stock_count: int
    down: tuple[bool, ...]
    claims_used: tuple[int, ...]
    purchase_cards: tuple[Card, ...] | None
    totals: tuple[int, ...]
    kitty: int
    contract: tuple[Slot, ...]
    claim_card: Card | None
    discard_dead: bool
    legal_actions: tuple[Action, ...]
    revealed_hands: tuple[tuple[Card, ...], ...] | None = None
    rules: Variant | None = None
    #: A redacted copy of the game for search bots; the engine leaves it None and a bot's driver fills it
    #: (:func:`rummy.search.determinize.search_view`).
    public_game: GameState | None = None
    played_to_table: tuple[bool, ...] = ()  # per seat: has it put a card on the table this hand
    #: The seat that discarded the card a claim window offers (None: the upcard, or no window).
    claim_from: int | None = None

    @property
    def table_json(self) -> tuple[dict[str, object], ...]:
        """The table melds in JSON-ready form (worked out on demand: bots seldom need it)."""
        if self.rules is None:
            raise UsageError("a view without its rules cannot describe the table")
        return tuple(meld_json(m, self.rules) for m in self.table)

    def table_view_json(self) -> list[dict[str, object]]:
        """The table melds as the view's JSON sends them: :attr:`table_json` and, for each card, whether it
        plays as a wild (:func:`rummy.engine.melds.meld_view_json`), so a front end draws without rules."""
        if self.rules is None:
            raise UsageError("a view without its rules cannot describe the table")
        return [meld_view_json(m, self.rules) for m in self.table]

    def to_json(self) -> dict[str, Any]:
        """JSON-ready form (cards in record notation)."""
        return {
            "seat": self.seat,
            "variant": self.variant,
            "players": list(self.players),
            "round": self.round,
            "phase": self.phase,
            "active": self.active,
            "dealer": self.dealer,
            "to_act": list(self.to_act),
            "hand": card_names(self.hand),
            "hand_sizes": list(self.hand_sizes),
            "table": self.table_view_json(),
            "discard": card_names(self.discard),
            "discard_count": self.discard_count,
            "stock_count": self.stock_count,
            "down": list(self.down),
            "claims_used": list(self.claims_used),
            "purchase_cards": card_names(self.purchase_cards) if self.purchase_cards is not None else None,
            "totals": list(self.totals),
            "kitty": self.kitty,
            "contract": [str(slot) for slot in self.contract],
            "claim_card": card_name(self.claim_card) if self.claim_card is not None else None,
            "claim_from": self.claim_from,
            "discard_dead": self.discard_dead,
            "legal_actions": [str(a) for a in self.legal_actions],
            "revealed_hands": [card_names(h) for h in self.revealed_hands] if self.revealed_hands else None,
            "facts": table_facts(self) if self.rules is not None else None,
        }


#: The slots of :class:`PlayerView`'s fields, for :func:`~rummy.engine.backends.frozen_record`.
_VIEW_FIELDS = backends.record_slots(PlayerView)

# A hand's count vector (as bytes) -> its cards: views are asked for again and again between two moves of a
# seat (every claim window), so the tuple is made once per hand.
_HANDS: dict[bytes, tuple[Card, ...]] = memo_table("cards of a hand", 20_000)


def cards_held(counts: list[int]) -> tuple[Card, ...]:
    """The cards of the count vector ``counts`` in canonical order (memoised on the counts)."""
    key = bytes(counts)
    cards = _HANDS.get(key)
    if cards is None:
        cards = put(_HANDS, key, tuple(from_counts(counts)))
    return cards


def player_view(game: GameState, seat: int | None, *, with_actions: bool = True) -> PlayerView:
    """The view of ``seat`` (None for a spectator); ``with_actions`` false leaves ``legal_actions`` empty
    (for callers that number the moves themselves, such as :mod:`rummy.env`)."""
    if seat is not None and not 0 <= seat < game.n:
        raise UsageError(f"there is no seat {seat}")
    actions = tuple(legal_actions(game, seat)) if seat is not None and with_actions else ()
    native = backends.NATIVE  # compiled (_native_src/view_fields.c); None where it does not read the state
    view: PlayerView | None = (native.view_record(PlayerView, _VIEW_FIELDS, game, seat, actions, _VIEW_KIT)
                               if native is not None else None)
    if view is None:
        view = backends.frozen_record(PlayerView, _VIEW_FIELDS, *_view_fields(game, seat, actions))
    return view


#: The state's fields the compiled view reads from their slots, in its order.
_STATE_READ = ("variant", "players", "round_number", "phase", "active", "dealer", "window", "hands", "sizes", "table",
               "discard", "stock", "down", "claims_used", "purchase_cards", "totals", "kitty", "rules", "dead",
               "played_to_table", "discarders")
#: What the compiled ``view_record`` compares the phase with (the view holds the matched member's value), and the
#: slots of the state's fields it reads.
_VIEW_KIT = (Phase.CLAIM, Phase.DRAW, Phase.PLAY, Phase.ROUND_OVER, Phase.GAME_OVER,
             tuple(GameState.__dict__[name] for name in _STATE_READ))


def _view_fields(game: GameState, seat: int | None, actions: tuple[Action, ...]) -> tuple[Any, ...]:
    """The values of a :class:`PlayerView`'s fields in their order, for :func:`~rummy.engine.backends.frozen_record`
    (the dataclass's ``__init__`` took a third of a view): ``seat``'s view with its legal ``actions``."""
    # At the end of a round every hand is laid open for the count.
    phase = game.phase.value
    over = phase in ("round_over", "game_over")
    revealed = tuple(tuple(from_counts(game.hands[s])) for s in range(game.n)) if over else None
    visible = tuple(game.discard) if game.variant.show_discard_history else tuple(game.discard[-1:])
    return (
        seat,
        game.variant.id,
        tuple(game.players),
        max(game.round_number, 1),  # round
        phase,
        game.active,
        game.dealer,
        tuple(seats_to_act(game)),  # to_act
        cards_held(game.hands[seat]) if seat is not None else (),  # hand
        tuple(game.sizes),  # hand_sizes
        tuple(game.table),
        visible,  # discard
        len(game.discard),  # discard_count
        len(game.stock),  # stock_count: the stock's order stays hidden
        tuple(game.down),
        tuple(game.claims_used),
        tuple(game.purchase_cards) if game.purchase_cards is not None else None,
        tuple(game.totals),
        game.kitty,
        game.rules.contract,
        game.window.card if game.window is not None else None,  # claim_card
        game.dead,  # discard_dead
        actions,  # legal_actions
        revealed,  # revealed_hands
        game.variant,  # rules
        None,  # public_game
        tuple(game.played_to_table),
        _claim_from(game),
    )


def _claim_from(game: GameState) -> int | None:
    """Who discarded the card the claim window offers (it is the pile's top); None for the upcard."""
    if game.window is None or not game.discarders or game.discarders[-1] < 0:
        return None
    return game.discarders[-1]
