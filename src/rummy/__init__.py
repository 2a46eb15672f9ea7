"""rummy: a rules engine for the rummy family of card games.

>>> import rummy
>>> game = rummy.new_game("may-i", ["Ann", "Bob", "Cid"], seed=7)
>>> len(game.hand(0)), game.phase.value
(11, 'draw')
"""

from rummy.actions import Action, Verb, parse_action
from rummy.cards import JOKER, card_name, parse_card
from rummy.errors import (
    DealError,
    IllegalActionError,
    MeldError,
    RecordError,
    RecordSyntaxError,
    Rule,
    RummyError,
    VariantError,
)
from rummy.game import Game, Phase, new_game
from rummy.house_rules import get_variant
from rummy.variants import Variant

__all__ = [
    "JOKER",
    "Action",
    "DealError",
    "Game",
    "IllegalActionError",
    "MeldError",
    "Phase",
    "RecordError",
    "RecordSyntaxError",
    "Rule",
    "RummyError",
    "Variant",
    "VariantError",
    "Verb",
    "card_name",
    "get_variant",
    "new_game",
    "parse_action",
    "parse_card",
]
