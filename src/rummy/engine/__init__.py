"""The rules engine, and its public API: everything outside the engine imports from here, never from a
submodule (``tests/test_layers.py`` holds that).

The façade is :class:`Game` (:func:`new_game`); under it lie the state as data (:class:`GameState`), the
rules as pure checks and applies (:mod:`~rummy.engine.rules`), the candidate moves
(:func:`legal_actions`, :class:`CandidateMoves`), the action space (:class:`ActionSpace`), the contract
solver (:func:`can_lay_down`, :func:`best_melds_from`) and the data a variant is made of
(:class:`Variant`, its modes, its house rules).  The engine imports nothing outside the standard library;
see ``docs/engine.md``.

>>> from rummy.engine import new_game, parse_card, card_name
>>> game = new_game("basic", ["Ann", "Bob"], seed=3)
>>> card_name(parse_card("10h")), game.variant.id
('TH', 'basic')
"""

from rummy.engine import rules
from rummy.engine.action_space import (
    ACTION_SPACE_SIZE,
    ACTION_SPACE_VERSION,
    COMPOSITE_SLOTS,
    COMPOSITE_VERBS,
    DEFAULT_COMPOSITE_SLOTS,
    MAX_PLAYERS,
    MELD_SLOTS,
    ActionSpace,
    ActionSpaceError,
)
from rummy.engine.actions import PLAY_STEP_VERBS, Action, Verb, parse_action
from rummy.engine.arrange import arrange_json, arrange_meld, layoff_bodies, order_layoffs
from rummy.engine.backends import backend, native_query
from rummy.engine.candidates import CandidateMoves
from rummy.engine.cards import (
    CARD_COUNT,
    JOKER,
    RANKS,
    Card,
    Counts,
    card_name,
    card_names,
    from_counts,
    make_card,
    pack,
    parse_card,
    rank_of,
    suit_of,
    to_counts,
)
from rummy.engine.errors import (
    BotError,
    DealError,
    IllegalActionError,
    MeldError,
    RecordError,
    RecordSyntaxError,
    Rule,
    RummyError,
    UsageError,
    VariantError,
)
from rummy.engine.fair_shuffle import ShuffleFormatError, ShuffleSecret, check_digest, check_secret, new_shuffle
from rummy.engine.game import ClaimWindow, Game, Phase, new_game
from rummy.engine.house_rules import OPTION_PARSERS, apply_options, get_variant, load_variant_file
from rummy.engine.meld_rules import compiled_meld_rules
from rummy.engine.melds import TableMeld, meld_json, meld_view_json
from rummy.engine.memo import clear_all as clear_memos
from rummy.engine.modes import AceMode, ClaimMode, JokerSwap, RoundEnd, Scoring, WildPolicy
from rummy.engine.moves import legal_actions, seats_to_act
from rummy.engine.rules.purchase import purchase_allowed
from rummy.engine.scoring import RoundResult, scoring_rule
from rummy.engine.solver import best_melds_from, can_lay_down
from rummy.engine.state import GameState
from rummy.engine.table_facts import claim_name, claim_words, penalty_word, table_facts
from rummy.engine.table_offers import accepted_layoffs
from rummy.engine.variants import GROUP, JOKER_RANK, RUN, VARIANTS, Slot, Variant, register_variant
from rummy.engine.view import PlayerView, player_view

__all__ = [
    # the game
    "Game", "new_game", "Phase", "ClaimWindow", "PlayerView", "player_view", "RoundResult",
    # actions and the action space
    "Action", "Verb", "parse_action", "PLAY_STEP_VERBS", "ActionSpace", "ACTION_SPACE_VERSION",
    "COMPOSITE_VERBS", "DEFAULT_COMPOSITE_SLOTS", "ACTION_SPACE_SIZE", "COMPOSITE_SLOTS", "MELD_SLOTS", "MAX_PLAYERS",
    "ActionSpaceError",
    # cards
    "Card", "Counts", "CARD_COUNT", "JOKER", "RANKS", "card_name", "card_names", "parse_card", "make_card",
    "rank_of", "suit_of", "pack", "from_counts", "to_counts",
    # melds and the table
    "TableMeld", "meld_json", "table_facts", "claim_name", "claim_words", "penalty_word",
    "meld_view_json", "arrange_meld", "arrange_json", "order_layoffs", "layoff_bodies",
    # variants, modes and house rules
    "Variant", "VARIANTS", "Slot", "GROUP", "RUN", "JOKER_RANK", "register_variant", "get_variant",
    "apply_options", "load_variant_file", "OPTION_PARSERS", "AceMode", "ClaimMode", "JokerSwap", "RoundEnd",
    "Scoring", "WildPolicy", "scoring_rule",
    # errors
    "RummyError", "Rule", "IllegalActionError", "MeldError", "DealError", "RecordError", "RecordSyntaxError",
    "VariantError", "UsageError", "BotError",
    # the shuffle's commitment
    "ShuffleSecret", "ShuffleFormatError", "new_shuffle", "check_digest", "check_secret",
    # below the façade: the state, the rules, the candidate moves and the solver
    "GameState", "rules", "legal_actions", "seats_to_act", "CandidateMoves", "accepted_layoffs",
    "purchase_allowed", "can_lay_down", "best_melds_from",
    # the engine's memo tables (bounded; a long-running server may drop them)
    "clear_memos",
    # which backend runs: "native" (the compiled core, rummy.engine._native) or "python" (RUMMY_ENGINE); a query of
    # the compiled core for the engine's consumers (None on the Python backend), and a variant's meld rules as every
    # compiled reader takes them
    "backend", "native_query", "compiled_meld_rules",
]
