"""The event log of a table: what each event holds, and rebuilding a table's game from it.

Events (``seq`` from 1, no gaps): ``join`` (a player took a seat), ``start`` (a game began: its number,
seed and player names), ``shuffle`` (the secret seed and salt of the round dealt next, and their
commitment: :mod:`rummy.server.events.fair_deal`), ``deal`` (every card of a round's deal, so a restart needs
no shuffle) and
``action`` (one action in record notation, and who made it: ``player``, ``bot``, ``takeover``,
``timer``, or ``auto`` for a pass the table made for a player who passes on claims or is away).

>>> from rummy.engine import new_game
>>> game = new_game("basic", ["Ann", "Bob"], seed=3)
>>> payload = deal_payload(game)
>>> copy = replay_start(payload, "basic", ["Ann", "Bob"], 3)
>>> copy.hand(0) == game.hand(0), copy.rng.getstate() == game.rng.getstate()
(True, True)
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from rummy.engine import Game, ShuffleSecret, Variant, card_name, card_names, get_variant, parse_action, parse_card
from rummy.server.events.describe import Before, describe_action, describe_deal


def deal_payload(game: Game, index: int = -1) -> dict[str, Any]:
    """The ``deal`` event of the round just dealt (or of ``game.deals[index]``): every card, so a restart
    needs no shuffle."""
    deal = game.deals[index]
    upcard = deal["upcard"]
    purchase = deal["purchase_cards"]
    return {
        "round": game.start_round + (index if index >= 0 else len(game.deals) + index),
        "dealer": deal["dealer"],
        "hands": [card_names(hand) for hand in deal["hands"]],
        "upcard": card_name(upcard) if upcard is not None else None,
        "stock": card_names(deal["stock"]),
        "purchase_cards": card_names(purchase) if purchase is not None else None,
    }


def game_events(game: Game, *, by: str = "player") -> list[tuple[int, str, dict[str, Any]]]:
    """The event log a server writes for ``game`` from its start (no ``join`` or ``shuffle`` events): every
    action made ``by`` one kind of actor.  For tests and benchmarks of what reads the log."""
    events: list[tuple[str, dict[str, Any]]] = [("start", {"game": 1, "seed": game.seed, "players": game.players})]
    for index in range(len(game.deals)):
        events.append(("deal", deal_payload(game, index)))
        last = game.round_starts[index + 1] if index + 1 < len(game.deals) else len(game.log)
        events += [("action", {"action": str(a), "by": by}) for a in game.log[game.round_starts[index]:last]]
    return [(seq, kind, payload) for seq, (kind, payload) in enumerate(events, start=1)]


def replay_deal(game: Game, payload: dict[str, Any], shuffle: ShuffleSecret | None = None) -> None:
    """Deal the round of ``payload`` again: by the game's seeded shuffle (or the round's ``shuffle``
    secret) when that gives the same cards (so later shuffles stay as they were), else from the cards
    written in the log."""
    saved = game.snapshot()
    game.deal(dealer=payload["dealer"], shuffle=shuffle)
    if deal_payload(game) == payload:
        return
    game.restore(saved)
    upcard = payload["upcard"]
    purchase = payload["purchase_cards"]
    game.deal(
        dealer=payload["dealer"],
        hands=[[parse_card(c) for c in hand] for hand in payload["hands"]],
        upcard=parse_card(upcard) if upcard is not None else None,
        stock=[parse_card(c) for c in payload["stock"]],
        purchase_cards=[parse_card(c) for c in purchase] if purchase is not None else None,
        shuffle=shuffle,
    )


def replay_start(payload: dict[str, Any], variant: str | Variant, players: list[str], seed: int,
                 shuffle: ShuffleSecret | None = None) -> Game:
    """A game as its ``start`` event made it, with its first ``deal`` replayed."""
    rules = get_variant(variant) if isinstance(variant, str) else variant
    game = Game(rules, players, seed=seed)
    game.choose_first_dealer()  # the live game drew its first dealer from the seeded RNG before dealing
    replay_deal(game, payload, shuffle)
    return game


@dataclass
class Rebuilt:
    """A table's game as its event log leaves it."""

    game: Game | None = None
    game_number: int = 0
    seq: int = 0
    sentences: list[str] = field(default_factory=list)


@dataclass
class LogPosition:
    """Where :func:`follow_log` stands: the current game's ``start`` event and the game as dealt so far."""

    start: dict[str, Any] | None = None
    game: Game | None = None


def follow_log(rules: Variant, events: Iterable[tuple[int, str, dict[str, Any]]]
               ) -> Iterator[tuple[int, str, dict[str, Any], LogPosition]]:
    """Give each event with the position after its ``start``, ``shuffle`` and ``deal`` are taken in (each
    round dealt with its ``shuffle`` secret, so a reshuffle of the stock comes out as it did); ``action``
    events are left to the caller to apply."""
    position = LogPosition()
    shuffle: ShuffleSecret | None = None  # the secret of the next deal (a ``shuffle`` event)
    for seq, kind, payload in events:
        if kind == "start":
            position.start, position.game = payload, None
        elif kind == "shuffle":
            shuffle = ShuffleSecret(payload["seed"], payload["salt"])
        elif kind == "deal":
            if position.start is None:
                raise ValueError(f"event {seq}: a deal before the game's start")
            if position.game is None:
                position.game = replay_start(payload, rules, position.start["players"], position.start["seed"],
                                             shuffle)
            else:
                replay_deal(position.game, payload, shuffle)
            shuffle = None
        elif kind == "action" and position.game is None:
            raise ValueError(f"event {seq}: an action before the first deal")
        yield seq, kind, payload, position


def rebuild(rules: Variant, events: Iterable[tuple[int, str, dict[str, Any]]]) -> Rebuilt:
    """Replay a table's events (``join`` events change no game) and tell the moves as they happened."""
    result = Rebuilt()
    for seq, kind, payload, position in follow_log(rules, events):
        if kind == "deal":
            assert position.game is not None and position.start is not None
            if position.game is not result.game:  # the first deal of a game
                result.game_number = position.start["game"]
                result.sentences.append(f"Game {result.game_number}: {rules.name}")
            result.sentences.extend(describe_deal(position.game))
        elif kind == "action":
            game = position.game
            assert game is not None
            action = parse_action(payload["action"], game.n)
            before = Before.of(game)
            game.apply(action)
            result.sentences.extend(describe_action(before, game, action))
        result.game = position.game
        result.seq = seq
    return result
