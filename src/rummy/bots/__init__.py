"""Computer players.

A bot answers every decision the engine asks of its seat, from that seat's
:class:`~rummy.engine.view.PlayerView` only (never the other hands or the stock order).  Bots are
deterministic for a given seed.

>>> from rummy.bots import make_bot, play_game
>>> game = play_game("basic", [make_bot("random", seed=1), make_bot("random", seed=2)], seed=5)
>>> game.game_over
True
"""

from __future__ import annotations

import functools
import importlib
import inspect
import random
import types
import typing
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from rummy.engine import Action, BotError, Game, PlayerView, Variant, new_game
from rummy.search.determinize import search_view
from rummy.search.playout import drive, random_choice


class Bot(Protocol):
    """A computer player: ``choose`` returns one of ``view.legal_actions``."""

    name: str
    #: True when the bot wants ``view.public_game`` (a redacted copy for search).
    needs_public_game: bool

    def choose(self, view: PlayerView) -> Action: ...


class RandomBot:
    """Uniformly random legal play that lays down whenever it can (the floor)."""

    name = "random"
    needs_public_game = False

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: PlayerView) -> Action:
        return random_choice(view.legal_actions, self.rng)


#: name -> "module:Class"; imported on first use so a bot's module loads only when wanted.  The layer test
#: (tests/test_layers.py) counts each entry as an import of this package: every bot here lives in
#: ``rummy.bots`` except ``llm``, a bot from the layer above seated by name (``rummy sim --players llm:…``).
BOTS: dict[str, str] = {
    "random": "rummy.bots:RandomBot",
    "greedy": "rummy.bots.greedy:GreedyBot",
    "heuristic": "rummy.bots.heuristic:HeuristicBot",
    "ismcts": "rummy.bots.ismcts:IsmctsBot",
    "llm": "rummy.llm.bot:LlmBot",  # a chat model behind an OpenAI-compatible endpoint (the ``llm`` extra)
    "learned": "rummy.bots.policies:LearnedBot",  # a shipped (or given) policy over rummy.features
}
LEVELS = {"easy": "random", "medium": "greedy", "hard": "heuristic", "expert": "ismcts"}


def make_bot(name: str, seed: int = 0, **options: object) -> Bot:
    """A bot by name (``random``, ``greedy``, ``heuristic``, ``ismcts``, ``learned``) or level (``easy`` …
    ``expert``)."""
    key = LEVELS.get(name, name)
    if key not in BOTS:
        known = ", ".join(sorted(BOTS) + sorted(LEVELS))
        raise BotError(f"unknown bot {name!r} (known: {known})")
    module_name, class_name = BOTS[key].split(":")
    cls = getattr(importlib.import_module(module_name), class_name)
    if options:
        check_bot_options(key, cls, options)
    bot: Bot = cls(seed=seed, **options)
    return bot


@functools.cache
def bot_options(cls: type) -> Mapping[str, Any]:
    """The options a bot class takes (keyword arguments besides ``seed``), with their types."""
    parameters = inspect.signature(cls, eval_str=True).parameters.values()
    return types.MappingProxyType({
        parameter.name: parameter.annotation for parameter in parameters
        if parameter.name != "seed" and parameter.kind is inspect.Parameter.KEYWORD_ONLY
    })


def check_bot_options(name: str, cls: type, options: dict[str, object]) -> None:
    """Refuse, with a BotError naming the option, an option ``cls`` does not take or a value of the
    wrong type (values come from command lines and files; the bot itself checks their ranges)."""
    known = bot_options(cls)
    for option, value in options.items():
        if option not in known:
            names = ", ".join(sorted(known)) or "none"
            raise BotError(f"unknown {name} option {option!r} (known: {names})")
        allowed = _allowed_types(known[option])
        if allowed and not any(_is_a(value, kind) for kind in allowed):
            wanted = " or ".join("null" if kind is type(None) else kind.__name__ for kind in allowed)
            raise BotError(f"{name} option {option!r} must be {wanted}, not {value!r}")


def _allowed_types(hint: object) -> tuple[type, ...]:
    """The plain types of an annotation (``int | None`` → int, NoneType); empty if it is not that simple."""
    parts = typing.get_args(hint) if isinstance(hint, types.UnionType) or typing.get_origin(hint) is typing.Union \
        else (hint,)
    if all(isinstance(part, type) and part in (bool, int, float, str, type(None)) for part in parts):
        return tuple(part for part in parts if isinstance(part, type))
    return ()


def _is_a(value: object, kind: type) -> bool:
    if kind is float:  # an integer is a fine float, a bool is neither
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if kind is int:
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, kind)


def bot_view(game: Game, seat: int, bot: Bot) -> PlayerView:
    """What ``bot`` is shown for ``seat``: the seat's view, with the redacted copy of the game when the
    bot searches (``needs_public_game``; :func:`rummy.search.determinize.search_view`)."""
    return search_view(game, seat) if bot.needs_public_game else game.view(seat)


def decide(game: Game, seat: int, bot: Bot) -> Action:
    """Ask ``bot`` for ``seat``'s next action, showing it only that seat's view."""
    return bot.choose(bot_view(game, seat, bot))


def play_game(
    variant: str | Variant,
    bots: Sequence[Bot],
    *,
    seed: int = 0,
    options: dict[str, object] | None = None,
    dealer: int | None = None,
    max_decisions: int = 500_000,
) -> Game:
    """Play a whole game with one bot per seat; the game's record is ``rummy.record.record_of(game)``."""
    game = new_game(variant, len(bots), seed=seed, options=options, dealer=dealer)
    drive(game, lambda g, seat: decide(g, seat, bots[seat]), max_actions=max_decisions)
    return game
