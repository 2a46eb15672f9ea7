"""What a finished game leaves for a player's history, worked out from a table's event log.

For every game of a table that ended, :func:`finished_games` replays its events through the engine and
gives one :class:`GameResult`: each seat's final score (the number the variant ranks by: penalty
points, points collected, or books won), whether it won, how many rounds it went out, and how many buys
it made (claims of the discard it won, and in purchase-card games the cards it bought with its purchase
card; ``None`` in a game without buying), and how many of its moves the computer made for a person who
had dropped out or whose turn timer ran out (the log's ``by``).  A game still being played gives nothing.

>>> from rummy.engine import new_game
>>> from rummy.search.playout import random_game
>>> game = random_game("basic", 2, seed=4)
>>> result = result_of(game, 1)
>>> [seat.won for seat in result.seats] == [seat in game.winners() for seat in range(2)]
True
>>> result.seats[0].buys is None  # basic has no buying
True
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from rummy.engine import ClaimMode, Game, Variant, Verb, parse_action, scoring_rule
from rummy.server.events.log import follow_log


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One seat's part of a finished game."""

    seat: int
    name: str
    score: int
    won: bool
    rounds_out: int
    buys: int | None
    moves: int = 0  # the seat's actions in the game
    computer_moves: int = 0  # of them, made by the computer for a person (``by``: ``takeover`` or ``timer``)

    @property
    def by_computer(self) -> bool:
        """The computer made most of the seat's moves: the game is not the person's own (docs/history.md)."""
        return self.computer_moves * 2 > self.moves


@dataclass(frozen=True, slots=True)
class GameResult:
    """A finished game: its number at the table, the seats' results, and the event that ended it."""

    game: int
    variant: str
    higher_is_better: bool
    rounds: int
    seats: tuple[SeatResult, ...]
    end_seq: int

    @property
    def players(self) -> list[str]:
        return [seat.name for seat in self.seats]


def has_buys(variant: Variant) -> bool:
    """Whether a player can buy at all in ``variant``: claims of the discard, or purchase cards."""
    return variant.claim_mode is not ClaimMode.NONE or variant.uses_purchase_cards


def result_of(game: Game, number: int, end_seq: int = 0, moves: Counter[int] | None = None,
              computer_moves: Counter[int] | None = None) -> GameResult:
    """The result of the finished ``game`` (game ``number`` of its table); ``moves`` and ``computer_moves``
    count each seat's actions and those the computer made for it."""
    if not game.game_over:
        raise ValueError("the game is not over")
    rule = scoring_rule(game.variant)
    scores = rule.game_scores(game)
    winners = set(game.winners())
    buying = has_buys(game.variant)
    purchases = Counter(action.seat for action in game.log if action.verb is Verb.PURCHASE)
    seats = tuple(
        SeatResult(
            seat=seat,
            name=game.players[seat],
            score=int(scores[seat]),
            won=seat in winners,
            rounds_out=sum(1 for r in game.results if r.went_out == seat),
            buys=sum(r.claims[seat] for r in game.results if r.claims) + purchases[seat] if buying else None,
            moves=(moves or Counter())[seat],
            computer_moves=(computer_moves or Counter())[seat],
        )
        for seat in range(game.n)
    )
    return GameResult(number, game.variant.id, rule.higher_is_better, len(game.results), seats, end_seq)


#: Who made an action for a person who did not (``by`` of an ``action`` event): the computer, after
#: they dropped out or when their turn timer ran out.
COMPUTER_FOR_PERSON = frozenset({"takeover", "timer"})


@dataclass(slots=True)
class _Moves:
    """Each seat's actions in the game being replayed, and those the computer made for it."""

    all: Counter[int]
    computer: Counter[int]


def _ended_games(rules: Variant, events: Iterable[tuple[int, str, dict[str, Any]]]
                 ) -> Iterator[tuple[Game, int, int, _Moves]]:
    moves = _Moves(Counter(), Counter())
    for seq, kind, payload, position in follow_log(rules, events):
        game, start = position.game, position.start
        if kind == "start":
            moves = _Moves(Counter(), Counter())
        if game is None or start is None:
            continue
        if kind == "action":
            action = parse_action(payload["action"], game.n)
            game.apply(action)
            moves.all[action.seat] += 1
            if payload.get("by") in COMPUTER_FOR_PERSON:
                moves.computer[action.seat] += 1
        if kind in ("action", "deal") and game.game_over:  # (a deal ends the game when the turn cap is reached)
            yield game, int(start["game"]), seq, moves


def ended_games(rules: Variant, events: Iterable[tuple[int, str, dict[str, Any]]]
                ) -> Iterator[tuple[Game, int, int]]:
    """Replay a table's event log and give every game in it that ended, in order: the game, its number at
    the table and the ``seq`` of the event that ended it."""
    for game, number, seq, _ in _ended_games(rules, events):
        yield game, number, seq


def finished_games(rules: Variant, events: Iterable[tuple[int, str, dict[str, Any]]]) -> Iterator[GameResult]:
    """The result of every game of a table's event log that ended, in order."""
    for game, number, end_seq, moves in _ended_games(rules, events):
        yield result_of(game, number, end_seq, moves.all, moves.computer)


def game_of_log(rules: Variant, events: Iterable[tuple[int, str, dict[str, Any]]], number: int) -> Game | None:
    """Game ``number`` of a table's event log as it ended; None when the log holds no such finished game."""
    return next((game for game, ended, _ in ended_games(rules, events) if ended == number), None)
