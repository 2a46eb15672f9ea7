"""The resolved facts of a table that a front end shows, so that no rule is copied into it.

:func:`table_facts` reads them from a seat's view and its variant's data: what each card counts, which
ranks are wild, where an ace may stand, what a claim is called and costs, how many claims each seat has
left this round and what one costs a player who is down (:func:`claim_when_down`), whether the discard
is dead, whether the seat has played to the table this hand, the target score.  :func:`claim_name` and
:func:`penalty_word` are the vocabulary the move log uses too.

>>> from rummy.engine.game import new_game
>>> game = new_game("may-i", ["Ann", "Bob", "Cid"], seed=1)
>>> facts = table_facts(game.view(0))
>>> facts["claim_name"], facts["claim_limit"], facts["claims_left"], facts["card_points"]["2"]
('May I', 3, [3, 3, 3], 10)
>>> facts["claim_cost"]
{'penalty_cards': 1, 'penalty_word': 'penalty card', 'pennies': 0}
"""

from __future__ import annotations

from typing import Any, NamedTuple, Protocol

from rummy.engine.cards import CARD_COUNT, JOKER, RANKS, card_name
from rummy.engine.modes import ClaimCall, ClaimLimitScope, ClaimMode
from rummy.engine.variants import JOKER_RANK, Variant


class SeatView(Protocol):
    """What the facts read of a seat's view (:class:`rummy.engine.view.PlayerView`)."""

    @property
    def rules(self) -> Variant | None: ...
    @property
    def players(self) -> tuple[str, ...]: ...
    @property
    def round(self) -> int: ...
    @property
    def seat(self) -> int | None: ...
    @property
    def claims_used(self) -> tuple[int, ...]: ...
    @property
    def discard_dead(self) -> bool: ...
    @property
    def played_to_table(self) -> tuple[bool, ...]: ...
    @property
    def down(self) -> tuple[bool, ...]: ...

class ClaimWords(NamedTuple):
    """What a claim of the discard is called: its name and plural, what a player calls out (the button),
    and how the offer is asked (``Buy the 4♣?``)."""

    name: str
    plural: str
    call: str
    ask: str


_CLAIM_WORDS = {
    ClaimCall.MAY_I: ClaimWords("May I", "May-I's", "May I?", "May I take"),
    ClaimCall.ILL_BUY_IT: ClaimWords("buy", "buys", "I'll Buy It!", "Buy"),
    ClaimCall.BUY: ClaimWords("buy", "buys", "Buy it", "Buy"),
}


def claim_words(variant: Variant) -> ClaimWords:
    return _CLAIM_WORDS[variant.claim_call]


def claim_name(variant: Variant) -> str:
    """``buy``, or ``May I`` in the May-I game."""
    return claim_words(variant).name


def penalty_word(variant: Variant) -> str:
    """What the extra stock card of a claim is called: a blind card where buying goes by a schedule."""
    return "blind card" if variant.buy_schedule is not None else "penalty card"


def claim_when_down(variant: Variant, penalty_cards: int) -> str:
    """What a claim costs a player who is already down, in words: the cards go to a hand that may no
    longer start melds (unless the variant lets a down player meld), so buying costs more than it seems.

    >>> from rummy.engine.variants import builtin_variant
    >>> claim_when_down(builtin_variant("may-i"), 1)
    'You are down: the card and a penalty card go into your hand, and you can only lay them off.'
    """
    extra = "" if not penalty_cards else (
        f" and a {penalty_word(variant)}" if penalty_cards == 1 else f" and {penalty_cards} {penalty_word(variant)}s")
    them = "them" if penalty_cards else "it"
    use = f"lay {them} off or meld {them}" if variant.new_melds_after_laydown else f"only lay {them} off"
    return f"You are down: the card{extra} {'go' if penalty_cards else 'goes'} into your hand, and you can {use}."


def card_points(variant: Variant) -> dict[str, int]:
    """Points of every rank: ``JOKER``, then ranks in notation (``A``, ``2`` … ``T`` … ``K``)."""
    points = {"JOKER": variant.points(JOKER)}
    for rank in range(1, 14):
        points[RANKS[rank - 1]] = variant.points(rank - 1)  # the clubs card of that rank
    return points


def wild_ranks(variant: Variant) -> list[str]:
    """The wild ranks as house rules spell them: ``JOKER``, ``2``."""
    return ["JOKER" if rank == JOKER_RANK else str(rank) for rank in sorted(variant.wild_ranks)]


def wild_cards(variant: Variant) -> list[str]:
    """Every card that is wild at the table, in record notation (``JK``, ``2C`` …): what a hand marks wild."""
    return [card_name(card) for card in range(CARD_COUNT) if variant.is_wild(card)]


def claims_left(variant: Variant, limit: int | None, used: tuple[int, ...]) -> list[int | None]:
    """Claims each seat may still make this round (None: unlimited)."""
    if limit is None:
        return [None] * len(used)
    if variant.claim_limit_scope is ClaimLimitScope.TABLE:
        return [max(0, limit - sum(used))] * len(used)
    return [max(0, limit - count) for count in used]


def table_facts(view: SeatView) -> dict[str, Any]:
    """The facts of ``view``'s table as JSON (``PlayerView.to_json()["facts"]``)."""
    variant = view.rules
    if variant is None:
        raise ValueError("a view without its rules has no facts")
    players = len(view.players)
    rules = variant.round_rules(view.round, players)
    claims = variant.claim_mode != "none"
    seat = view.seat
    return {
        "card_points": card_points(variant),
        "wild_ranks": wild_ranks(variant),
        "wild_cards": wild_cards(variant),
        "ace_mode": variant.ace_mode,
        "run_min": variant.run_min,
        "group_min": variant.group_min,
        "rounds": variant.round_count,
        "scoring": variant.scoring,
        "higher_wins": variant.scoring != "penalty",
        "has_contracts": variant.has_contracts,
        "free_melding": variant.new_melds_after_laydown and not variant.has_contracts,
        "discard_history": variant.show_discard_history,
        "claim_name": claim_name(variant) if claims else None,
        "claim_words": claim_words(variant)._asdict() if claims else None,
        "claim_timing": variant.claim_mode if claims else None,
        "own_turn_claim": variant.claim_mode is ClaimMode.ACTIVE_FIRST_THEN_OTHERS,
        "claims_open": rules.claims_open,
        "claim_limit": rules.claim_limit if claims else None,
        "claims_left": claims_left(variant, rules.claim_limit, view.claims_used) if claims else None,
        "claim_cost": {
            "penalty_cards": rules.penalty_cards,
            "penalty_word": penalty_word(variant),
            "pennies": variant.claim_cost + variant.blind_card_cost * rules.penalty_cards,
        } if claims else None,
        "claim_when_down": claim_when_down(variant, rules.penalty_cards)
        if claims and variant.has_contracts and variant.claim_allowed_when_down
        and seat is not None and view.down[seat] else None,
        "discard_dead": view.discard_dead,
        "played_to_table": view.played_to_table[seat] if seat is not None and view.played_to_table else None,
        "target": variant.target(players),
        "money": variant.settlement_payments(players) is not None,
    }
