"""The screen's text, as Rich markup, from a :class:`~rummy.tui.snapshot.Snapshot`: the hand (sorted by
suit or by rank), the players, the table melds, the claim prompt and the score sheet.

>>> hand_text(["2C", "7H", "JK", "7S"], by_rank=True)
'[b]2♣[/b]  [b red]7♥[/b red]  [b]7♠[/b]  [b magenta]joker[/b magenta]'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rummy.engine import parse_card, rank_of, suit_of
from rummy.server.events.describe import card_text
from rummy.tui.snapshot import Snapshot


def card_markup(name: str) -> str:
    """One card in colour: red suits red, the joker magenta."""
    card = parse_card(name)
    style = "b magenta" if rank_of(card) == 0 else "b red" if suit_of(card) in (1, 2) else "b"
    return f"[{style}]{card_text(card)}[/{style}]"


def sorted_hand(hand: Sequence[str], by_rank: bool) -> list[str]:
    """The hand by suit then rank (the record's canonical order), or by rank then suit; jokers last."""
    def key(name: str) -> tuple[int, int]:
        card = parse_card(name)
        if rank_of(card) == 0:
            return (99, 99)
        return (rank_of(card), suit_of(card)) if by_rank else (suit_of(card), rank_of(card))
    return sorted(hand, key=key)


def hand_text(hand: Sequence[str], by_rank: bool) -> str:
    return "  ".join(card_markup(name) for name in sorted_hand(hand, by_rank)) or "(no cards)"


def status_text(snap: Snapshot) -> str:
    """Variant, round, contract, stock and discard, and whose turn it is."""
    view = snap.view
    table = snap.table
    title = f"[b]{table.get('variant_name') or table.get('variant', '')}[/b]"
    if view is None:
        seated = ", ".join(name for name in snap.names)
        return f"{title} — waiting for the host to start ({seated})"
    names = snap.names
    parts = [title, f"round {view['round']}"]
    if view["contract"]:
        parts.append("contract: " + ", ".join(view["contract"]))
    parts.append(f"stock {view['stock_count']}")
    top = view["discard"][-1] if view["discard"] else None
    parts.append("discard " + (card_markup(top) if top else "empty") + (" (dead)" if view["discard_dead"] else ""))
    active = names[view["active"]] if 0 <= view["active"] < len(names) else "?"
    line2 = {"draw": f"{active} to draw", "play": f"{active} to play", "claim": offered_text(snap),
             "round_over": "round over", "game_over": "game over"}.get(view["phase"], str(view["phase"]))
    if snap.my_turn:
        line2 = "[reverse] Your turn [/reverse] — " + ("draw" if view["phase"] == "draw" else "play, then discard")
    return "  ·  ".join(parts) + "\n" + line2


def offered_text(snap: Snapshot) -> str:
    """Whose discard a claim window offers: the discarder's (not the player in turn's), yours, or the upcard."""
    view = snap.view or {}
    discarder = view.get("claim_from")
    if discarder is None:
        return "the upcard is offered"
    if discarder == snap.seat:
        return "your own discard is offered"
    return f"{snap.names[discarder]}'s discard is offered"


def players_text(snap: Snapshot) -> str:
    """One line a seat: marker for the active player, name, cards in hand, down, total."""
    view = snap.view
    if view is None:
        return ""
    lines = []
    for seat, name in enumerate(snap.names):
        marker = "▶" if seat == view["active"] else " "
        you = " (you)" if seat == snap.seat and name != "You" else ""
        down = "  down" if view["down"][seat] else ""
        claims = view.get("claims_used", [0] * len(snap.names))[seat]
        bought = f"  bought {claims}" if claims else ""
        total = view["totals"][seat]
        lines.append(f"{marker} {name}{you}: {view['hand_sizes'][seat]} cards{down}{bought}  — {total} points")
    return "\n".join(lines)


def table_text(snap: Snapshot) -> str:
    """The melds on the table, numbered as actions name them."""
    view = snap.view
    if view is None or not view["table"]:
        return "(no melds on the table)"
    names = snap.names
    lines = []
    for meld in view["table"]:
        owner = names[meld["owner"]] if 0 <= meld["owner"] < len(names) else "?"
        cards = " ".join(card_markup(name) for name in meld["cards"])
        wilds = _stands_for(meld)
        lines.append(f"[b]{meld['id']:>2}[/b] {meld['kind']:<4} {cards}  [dim]{owner}{wilds}[/dim]")
    return "\n".join(lines)


def _stands_for(meld: dict[str, Any]) -> str:
    stands = meld.get("as")
    if not stands:
        return ""
    shown = [f"{card}={what}" for card, what in zip(meld["cards"], stands, strict=False)
             if card != what and not what.endswith("*")]
    return f"  ({', '.join(shown)})" if shown else ""


def claim_text(snap: Snapshot, seconds_left: float | None) -> str:
    """The claim prompt: which card, what a claim costs, the keys, and the countdown."""
    view = snap.view
    if view is None or view.get("claim_card") is None:
        return ""
    facts = view.get("facts") or {}
    words = facts.get("claim_words") or {"ask": "Buy", "call": "Buy"}
    cost = facts.get("claim_cost") or {}
    penalty = cost.get("penalty_cards") or 0
    price = f", with {penalty} penalty card{'s' if penalty != 1 else ''}" if penalty else ""
    pennies = f", {cost['pennies']}¢" if cost.get("pennies") else ""
    left = f"  [b]{seconds_left:.0f}s[/b] left" if seconds_left is not None else ""
    if "buy" not in snap.legal:
        return f"The {card_markup(view['claim_card'])} is offered; you may not claim it now.  [b]p[/b] = pass{left}"
    down = f"\n{facts['claim_when_down']}" if facts.get("claim_when_down") else ""  # the server's words
    return (f"{words['ask']} the {card_markup(view['claim_card'])}{price}{pennies}?  "
            f"[b]b[/b] = {words['call']}  [b]p[/b] = pass{left}{down}")


def scores_text(snap: Snapshot) -> str:
    """The score sheet: one row a finished round, then the totals (and the winners at the end)."""
    sheet = snap.table.get("score_sheet") or []
    names = snap.names
    if not sheet:
        return "(no round finished yet)"
    width = max(6, *(len(name) for name in names))
    head = "round  " + "  ".join(f"{name:>{width}}" for name in names)
    rows = [head]
    for row in sheet:
        rows.append(f"{row['round']:>5}  " + "  ".join(f"{score:>{width}}" for score in row["scores"]))
    totals = snap.table.get("totals") or [sum(r["scores"][s] for r in sheet) for s in range(len(names))]
    rows.append("total  " + "  ".join(f"{total:>{width}}" for total in totals))
    winners = snap.table.get("winners")
    if winners:
        rows.append("Winner: " + " and ".join(names[s] for s in winners))
    return "\n".join(rows)


def revealed_text(snap: Snapshot) -> str:
    """Every hand laid open at the end of a round."""
    view = snap.view
    if view is None or not view.get("revealed_hands"):
        return ""
    return "\n".join(f"{name}: " + (" ".join(card_markup(c) for c in hand) or "out")
                     for name, hand in zip(snap.names, view["revealed_hands"], strict=False))
