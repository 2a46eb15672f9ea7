"""What the model is asked to do now, in words: the claim window's offer and its cost, the draw, the play.

The words come from the seat's legal moves and the table facts (:mod:`rummy.engine.table_facts`), so each
variant's own vocabulary is used ("May I" in ``may-i``, "buy" elsewhere; penalty or blind cards; pennies).

>>> from rummy.engine import new_game
>>> game = new_game("may-i", ["Ann", "Bob", "Cid"], seed=1)
>>> _ = game.apply_text(f"p{game.active} draw")
>>> seat = game.to_act[0]
>>> print(phase_instructions(game.view(seat)))  # doctest: +NORMALIZE_WHITESPACE
The 2H is offered: May I take the 2H? A May I costs 1 penalty card (the top card of the stock, unseen);
you have 3 May-I's left this round. Answer BUY to call "May I?" for it, or PASS to let it go.
"""

from __future__ import annotations

from typing import Any

from rummy.engine import PlayerView, Verb, card_name, table_facts

#: What each play verb does, in one line (the record format's meanings, docs/game-record.md).
VERB_WORDS: dict[Verb, str] = {
    Verb.DOWN: "down MELD ...: lay down the round's whole contract at once",
    Verb.MELD: "meld MELD ...: lay down new melds from your hand",
    Verb.LAYOFF: "layoff M CARD [low|high]: add CARD to table meld M",
    Verb.SWAP: "swap M CARD: put the natural CARD in place of the joker it stands for in meld M; the joker "
               "comes to your hand",
    Verb.MOVE: "move M CARD low|high: put the natural CARD in place of the wild it stands for in run M; the wild "
               "moves to that end of the run",
    Verb.REARRANGE: "rearrange M,M => MELD ...: rebuild table melds M,... with cards from your hand",
    Verb.DISCARD: "discard CARD: discard a card, which ends your turn",
    Verb.PURCHASE: "purchase CARD NEWPC: buy CARD from the discard pile with your purchase card, then make NEWPC "
                   "your purchase card",
    Verb.TRADE: "trade pK NEWPC: trade purchase cards with seat K, then make NEWPC your purchase card",
    Verb.EXCHANGE: "exchange NEWPC: take your purchase card into your hand and make NEWPC the new one",
    Verb.BOOK: "book MELD: table a four-card book and win",
    Verb.BATCH: "several steps joined by ' ; ' are one move, judged together",
}


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}" + ("" if count == 1 else "s")


def claim_instructions(view: PlayerView, facts: dict[str, Any]) -> str:
    """The offer of a claim window: the card, what a claim costs, how many claims are left."""
    words = facts["claim_words"]
    cost = facts["claim_cost"]
    card = card_name(view.claim_card) if view.claim_card is not None else "top discard"
    parts = []
    if cost["penalty_cards"]:
        parts.append(f"{_plural(cost['penalty_cards'], cost['penalty_word'])} (the top card of the stock, unseen)")
    if cost["pennies"]:
        parts.append("1 penny" if cost["pennies"] == 1 else f"{cost['pennies']} pennies")
    cost_words = " and ".join(parts) or "nothing extra"
    left = facts["claims_left"][view.seat] if facts["claims_left"] is not None and view.seat is not None else None
    left_words = "no limit on them" if left is None else f"{left} {words['plural']} left this round"
    return (
        f"The {card} is offered: {words['ask']} the {card}? A {words['name']} costs {cost_words}; "
        f"you have {left_words}. Answer BUY to call \"{words['call']}\" for it, or PASS to let it go."
    )


def draw_instructions(view: PlayerView, verbs: set[Verb], facts: dict[str, Any]) -> str:
    """The start of a turn: draw from the stock or take the top discard (or buy it first)."""
    top = card_name(view.discard[-1]) if view.discard else None
    choices = []
    if Verb.DRAW in verbs:
        choices.append("draw the top card of the stock (draw)")
    if Verb.TAKE in verbs and top is not None:
        choices.append(f"take the top discard {top} (take)")
    if Verb.BUY in verbs and facts["claim_words"] is not None:
        choices.append(f"{facts['claim_words']['name']} the top discard {top} before your draw (buy)")
    if Verb.PURCHASE in verbs or Verb.TRADE in verbs or Verb.EXCHANGE in verbs:
        choices.append("use your purchase card (purchase, trade or exchange)")
    return "It is your turn: " + "; or ".join(choices) + "."


def play_instructions(verbs: set[Verb]) -> str:
    """The play of a turn: which kinds of moves are open now, each explained in one line."""
    lines = ["You have drawn: play to the table if you want, then discard to end your turn. Moves open now:"]
    lines += [f"- {words}" for verb, words in VERB_WORDS.items() if verb in verbs]
    lines.append("MELD is KIND:CARD-CARD-... (KIND set, run, pair or book); a run lists its cards low to high, a "
                 "wild's place saying what it stands for (run:3D-JK-5D-6D).")
    return "\n".join(lines)


def phase_instructions(view: PlayerView) -> str:
    """The instruction for the seat's decision now (claim window, draw or play)."""
    facts = table_facts(view)
    verbs = {action.verb for action in view.legal_actions}
    if verbs and verbs <= {Verb.BUY, Verb.PASS} and view.claim_card is not None and facts["claim_words"]:
        return claim_instructions(view, facts)
    if verbs & {Verb.DRAW, Verb.TAKE}:
        return draw_instructions(view, verbs, facts)
    return play_instructions(verbs)
