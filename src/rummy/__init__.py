"""rummy: a rules engine for the rummy family of card games.

>>> import rummy
>>> game = rummy.new_game("may-i", ["Ann", "Bob", "Cid"], seed=7)
>>> len(game.hand(0)), game.phase.value
(11, 'draw')
"""

from rummy import _old_paths
from rummy.engine import (
    JOKER,
    Action,
    DealError,
    Game,
    IllegalActionError,
    MeldError,
    Phase,
    RecordError,
    RecordSyntaxError,
    Rule,
    RummyError,
    Variant,
    VariantError,
    Verb,
    card_name,
    get_variant,
    new_game,
    parse_action,
    parse_card,
)

_old_paths.install()

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
