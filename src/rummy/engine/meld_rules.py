"""A variant's meld rules as tables: which cards are wild, and the bytes the compiled core reads (``core.h``'s
``MeldRules``), each worked out once per variant."""

from __future__ import annotations

from rummy.engine.cards import JOKER, Card
from rummy.engine.memo import per_object
from rummy.engine.modes import POLICY_CODES
from rummy.engine.variants import Variant


@per_object("wild cards of a variant")
def wild_cards(variant: Variant) -> tuple[Card, ...]:
    """The wild card kinds of ``variant``, ascending (memoised per variant)."""
    flags = wild_flags(variant)
    return tuple(card for card in range(JOKER + 1) if flags[card])


@per_object("wild flags of a variant")
def wild_flags(variant: Variant) -> tuple[bool, ...]:
    """Whether each card (by index, the joker last) is wild under ``variant`` (memoised per variant)."""
    return tuple(variant.is_wild(card) for card in range(JOKER + 1))


@per_object("compiled rules of a variant")
def compiled_meld_rules(variant: Variant) -> bytes:
    """``variant``'s rules as the compiled core reads them, one layout for every reader (``core.h``'s
    ``MeldRules``; memoised per variant): a wild flag per card kind (53 bytes, the joker last), then the lowest and
    highest run value, the wild policy's code (:data:`~rummy.engine.modes.POLICY_CODES`), ``twos_natural_in_place``,
    ``pair_extendable`` and ``all_wild_melds``."""
    low, high = variant.ace_mode.run_bounds
    return bytes([*wild_flags(variant), low, high, POLICY_CODES[variant.wild_policy], variant.twos_natural_in_place,
                  variant.pair_extendable, variant.all_wild_melds])
