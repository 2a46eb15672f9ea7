"""A seat's view as a language model reads it: compact text, or JSON.

Both forms are made from the seat's :class:`~rummy.engine.view.PlayerView` alone (its own hand, the public table,
hand sizes, the discard pile as the variant shows it, scores, claims left), so a prompt can hold nothing
the seat may not see.  Cards are written in record notation (``7H``, ``TS``, ``JK``).

>>> from rummy.engine import new_game
>>> game = new_game("may-i", ["Ann", "Bob", "Cid"], seed=1)
>>> print(observation_text(game.view(0)).splitlines()[0])
Game: may-i, round 1 of 7; contract: a set of 3 + a set of 3
>>> sorted(observation_json(game.view(0)))[:4]
['active', 'claim_card', 'claim_name', 'claims_left']
"""

from __future__ import annotations

import re
from typing import Any

from rummy.engine import PlayerView, UsageError, card_name, card_names, table_facts

PHASE_WORDS = {
    "claim": "claim window (the top discard is offered)",
    "draw": "draw",
    "play": "play (meld, lay off, then discard)",
    "round_over": "round over",
    "game_over": "game over",
}


def _facts(view: PlayerView) -> dict[str, Any]:
    if view.rules is None:
        raise UsageError("a view without its rules cannot be described to a model")
    return table_facts(view)


def _cards(cards: tuple[int, ...] | list[int]) -> str:
    return " ".join(card_names(cards)) or "(none)"


def _round_words(view: PlayerView, facts: dict[str, Any]) -> str:
    rounds = facts["rounds"]
    return f"round {view.round} of {rounds}" if rounds is not None else f"round {view.round}"


def seat_name(name: str) -> str:
    """A seat's name as the model is told it: a bot spec's bot name only, without its options (a model,
    an endpoint's URL, a log's path: ``llm:model=m:base_url=URL#2`` is ``llm#2``); other names unchanged."""
    head, colon, _ = name.partition(":")
    if not colon:
        return name
    repeat = re.search(r"#\d+$", name)
    return head.strip() + (repeat.group() if repeat and not head.endswith(repeat.group()) else "")


def _seat_line(view: PlayerView, seat: int, facts: dict[str, Any]) -> str:
    name = seat_name(view.players[seat])
    you = " (you)" if seat == view.seat else ""
    parts = [f"{view.hand_sizes[seat]} cards"]
    if facts["has_contracts"]:
        parts.append("down" if view.down[seat] else "not down")
    parts.append(f"total {view.totals[seat]}")
    claims_left = facts["claims_left"]
    if claims_left is not None and facts["claim_words"] is not None:
        left = claims_left[seat]
        plural = facts["claim_words"]["plural"]
        parts.append(f"{plural} left: unlimited" if left is None else f"{plural} left: {left}")
    if view.purchase_cards is not None:
        parts.append(f"purchase card {card_name(view.purchase_cards[seat])}")
    return f"  p{seat} {name}{you}: " + ", ".join(parts)


def _meld_line(meld: dict[str, Any]) -> str:
    cards = " ".join(meld["cards"])
    stands = meld["as"]
    shown = f" (as {' '.join(stands)})" if stands is not None and stands != meld["cards"] else ""
    return f"  meld {meld['id']}: {meld['kind']} by p{meld['owner']}: {cards}{shown}"


def observation_text(view: PlayerView) -> str:
    """The view as a few lines of text (the user message's first part)."""
    facts = _facts(view)
    if view.seat is None:
        raise UsageError("a spectator's view has no seat to play")
    contract = " + ".join(str(slot) for slot in view.contract)
    head = f"Game: {view.variant}, {_round_words(view, facts)}"
    lines = [head + (f"; contract: {contract}" if facts["has_contracts"] and contract else "")]
    lines.append(
        f"You are p{view.seat} ({seat_name(view.players[view.seat])}); dealer p{view.dealer}; "
        f"active player p{view.active}; phase: {PHASE_WORDS.get(view.phase, view.phase)}"
    )
    lines.append(f"Your hand ({len(view.hand)} cards): {_cards(view.hand)}")
    lines.append("Players:")
    lines += [_seat_line(view, seat, facts) for seat in range(len(view.players))]
    melds = view.table_json
    lines.append("Table melds:" if melds else "Table melds: (none)")
    lines += [_meld_line(meld) for meld in melds]
    if facts["discard_history"]:
        pile = f"{_cards(view.discard)} (top last)"
    else:
        pile = f"top {card_name(view.discard[-1])}" if view.discard else "empty"
    dead = "; dead this turn" if view.discard_dead else ""
    lines.append(f"Discard pile ({view.discard_count} cards): {pile}{dead}")
    lines.append(f"Stock: {view.stock_count} cards")
    if facts["money"]:
        lines.append(f"Kitty: {view.kitty}")
    return "\n".join(lines)


def observation_json(view: PlayerView) -> dict[str, Any]:
    """The view as a compact JSON object (the same facts as :func:`observation_text`)."""
    facts = _facts(view)
    full = view.to_json()
    keep = ("seat", "variant", "players", "round", "phase", "active", "dealer", "hand", "hand_sizes", "table",
            "discard", "discard_count", "stock_count", "down", "totals", "contract", "claim_card", "discard_dead",
            "purchase_cards")
    observation = {key: full[key] for key in keep}
    observation["players"] = [seat_name(name) for name in view.players]
    observation["claims_left"] = facts["claims_left"]
    observation["claim_name"] = facts["claim_name"]
    if facts["money"]:
        observation["kitty"] = view.kitty
    return observation
