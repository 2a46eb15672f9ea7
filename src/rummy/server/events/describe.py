"""Move-log sentences: what an action, a deal or the end of a round did, in words for everyone.

A sentence names only public cards (discards, cards played to the table, purchase cards); a card
drawn from the stock or taken as a penalty card is never named.  Sentences are built from the state
before and after the action, so a claim resolved by someone else's answer is told as it happened.

>>> from rummy.engine import new_game
>>> game = new_game("progressive-buy-it", ["Ann", "Bob", "Cid", "Dee"], seed=42)
>>> before = Before.of(game)
>>> action = game.legal_actions(2)[0]
>>> _ = game.apply(action)
>>> describe_action(before, game, action)
['Cid bought the A♣ and took a penalty card']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rummy.engine import (
    JOKER,
    Action,
    Card,
    Game,
    Phase,
    RoundEnd,
    Scoring,
    Verb,
    card_name,
    claim_name,
    parse_card,
    penalty_word,
)

SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}


def card_text(card: Card) -> str:
    """``7♥``, ``10♠``, ``joker``.

    >>> card_text(35), card_text(52)
    ('10♥', 'joker')
    """
    if card == JOKER:
        return "joker"
    name = card_name(card)
    rank = "10" if name[0] == "T" else name[0]
    return rank + SUIT_SYMBOLS[name[1]]


def join_words(parts: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def _count(number: int, noun: str) -> str:
    return f"a {noun}" if number == 1 else f"{number} {noun}s"


@dataclass(frozen=True, slots=True)
class Before:
    """The few facts about the state before an action that its sentences need."""

    phase: Phase
    active: int
    top_discard: Card | None
    window_card: Card | None
    claims_used: tuple[int, ...]
    sizes: tuple[int, ...]
    results: int
    purchase_cards: tuple[Card, ...] | None

    @classmethod
    def of(cls, game: Game) -> Before:
        return cls(
            phase=game.phase,
            active=game.active,
            top_discard=game.top_discard,
            window_card=game.window.card if game.window is not None else None,
            claims_used=tuple(game.claims_used),
            sizes=tuple(game.sizes),
            results=len(game.results),
            purchase_cards=tuple(game.purchase_cards) if game.purchase_cards is not None else None,
        )


def describe_action(before: Before, game: Game, action: Action) -> list[str]:
    """Sentences for ``action``, just applied to ``game`` (whose state before is ``before``)."""
    name = game.players[action.seat]
    sentences: list[str] = []
    verb = action.verb
    buyers = [s for s in range(game.n) if game.claims_used[s] > before.claims_used[s]]
    if verb is Verb.DRAW:
        if game.phase is Phase.CLAIM and before.top_discard is not None:
            sentences.append(f"{name} passed on the {card_text(before.top_discard)}")
        else:
            sentences.append(f"{name} drew from the stock")
    elif verb is Verb.TAKE and before.top_discard is not None:
        sentences.append(f"{name} took the {card_text(before.top_discard)} from the discard pile")
    elif verb is Verb.BUY and not buyers:
        sentences.append(f"{name} {_call_words(game)} the {card_text(before.window_card or 0)}")
    elif verb not in (Verb.BUY, Verb.PASS):
        sentences.append(f"{name} {join_words(_play_phrases(before, game, action))}")
    card = before.window_card if before.window_card is not None else before.top_discard
    for buyer in buyers:
        sentences.append(_bought(game, buyer, card))
    stock_draw = verb in (Verb.BUY, Verb.PASS) and before.phase is Phase.CLAIM and before.active not in buyers
    if stock_draw and game.sizes[before.active] == before.sizes[before.active] + 1:
        sentences.append(f"{game.players[before.active]} drew from the stock")
    if len(game.results) > before.results:
        sentences.extend(describe_round_end(game))
    return sentences


def _call_words(game: Game) -> str:
    return "called May I for" if claim_name(game.variant) == "May I" else "called for"


def _bought(game: Game, seat: int, card: Card | None) -> str:
    name = game.players[seat]
    what = f"the {card_text(card)}" if card is not None else "the top discard"
    penalty = game.rules.penalty_cards
    may_i = claim_name(game.variant) == "May I"
    text = f"{name} called May I and took {what}" if may_i else f"{name} bought {what}"
    if penalty:
        extra = _count(penalty, penalty_word(game.variant))
        text += f" and {extra}" if may_i else f" and took {extra}"
    return text


def _melds_words(kinds: Sequence[str]) -> str:
    order = ["set", "run", "pair", "book"]
    counted = [_count(kinds.count(kind), kind) for kind in order if kinds.count(kind)]
    return join_words(counted)


def _play_phrases(before: Before, game: Game, action: Action) -> list[str]:
    steps = action.steps if action.verb is Verb.BATCH else (action,)
    phrases = []
    for step in steps:
        verb, card = step.verb, step.card if step.card is not None else 0
        if verb is Verb.DOWN:
            phrases.append("laid down " + _melds_words([m.kind for m in step.melds]))
        elif verb is Verb.MELD:
            phrases.append("melded " + _melds_words([m.kind for m in step.melds]))
        elif verb is Verb.LAYOFF:
            phrases.append(f"laid off the {card_text(card)}")
        elif verb is Verb.SWAP:
            phrases.append(f"swapped the {card_text(card)} for a wild card from the table")
        elif verb is Verb.MOVE:
            phrases.append(f"put the {card_text(card)} in place of a wild card")
        elif verb is Verb.REARRANGE:
            noun = "meld" if len(step.sources) == 1 else "melds"
            phrases.append(f"rearranged {noun} " + join_words([str(s) for s in step.sources]))
        elif verb is Verb.DISCARD:
            phrases.append(f"discarded the {card_text(card)}")
        elif verb is Verb.BOOK:
            phrases.append("tabled a book")
        elif verb in (Verb.PURCHASE, Verb.TRADE, Verb.EXCHANGE):
            phrases.append(_purchase_phrase(before, game, step))
        else:
            phrases.append(verb.value)
    return phrases


def _purchase_phrase(before: Before, game: Game, step: Action) -> str:
    seat = step.seat
    old = before.purchase_cards[seat] if before.purchase_cards is not None else None
    new = card_text(step.new_pc if step.new_pc is not None else 0)
    old_text = card_text(old) if old is not None else "the purchase card"
    if step.verb is Verb.PURCHASE:
        return f"purchased the {card_text(step.card or 0)} with the {old_text} (new purchase card: the {new})"
    if step.verb is Verb.TRADE:
        target = game.players[step.target if step.target is not None else seat]
        return f"traded purchase cards with {target} (new purchase card: the {new})"
    return f"took the {old_text} back (new purchase card: the {new})"


def describe_round_end(game: Game) -> list[str]:
    """How the last round ended, its scores, and the winner when the game is over."""
    result = game.results[-1]
    names = game.players
    sentences = []
    if result.end is RoundEnd.OUT and result.went_out is not None:
        sentences.append(f"{names[result.went_out]} went out")
    elif result.end is RoundEnd.BOOK and result.went_out is not None:
        sentences.append(f"{names[result.went_out]} wins the hand with a book")
    elif result.end is RoundEnd.EXHAUSTED and game.washed_out:
        sentences.append(f"Nobody put a card on the table for {game.variant.washout_laps} times round the table: "
                         "the hand is dead")
    elif result.end is RoundEnd.EXHAUSTED:
        sentences.append("The cards ran out: nobody can go out")
    elif result.end is RoundEnd.STALEMATE:
        sentences.append("Stalemate: the hand ends with no winner")
    if game.variant.scoring is not Scoring.BOOK:  # a book round scores no points
        scores = ", ".join(f"{names[s]} {result.scores[s]}" for s in range(game.n))
        sentences.append(f"Round {result.round} scores: {scores}")
    if game.game_over:
        winners = game.winners()
        if not winners:
            sentences.append("Game over: nobody wins")
        else:
            verb = "wins" if len(winners) == 1 else "share the win"
            sentences.append(f"Game over: {join_words([names[s] for s in winners])} {verb}")
    return sentences


def describe_deal(game: Game) -> list[str]:
    """The deal of the current round: who dealt, how many cards, the contract."""
    rules = game.rules
    text = f"Round {game.round_number}: {game.players[game.dealer]} deals {rules.deal_size} cards each"
    if rules.contract:
        text += "; contract: " + join_words([str(slot) for slot in rules.contract])
    sentences = [text]
    if game.variant.buy_schedule is not None and rules.claims_open:
        sentences.append(f"Buying is open this hand: {_count(rules.claim_limit or 0, 'buy')} each")
    return sentences


def cards_in_words(meld: str) -> str:
    """``set:7H-7S-JK`` → ``7♥ 7♠ joker``."""
    names = meld.split(":", 1)[-1].split("=")[0].split("-")
    return " ".join(card_text(parse_card(name)) for name in names if name)


def move_in_words(move: str) -> str:
    """One move in words: ``layoff 3 8H`` → ``lay off the 8♥ on meld 3``."""
    verb, *args = move.split()
    if verb in ("down", "meld", "book"):
        what = " + ".join(cards_in_words(meld) for meld in args)
        return {"down": "lay down ", "meld": "meld ", "book": "declare the book "}[verb] + what
    if verb in ("layoff", "swap", "move") and len(args) >= 2:
        action = {"layoff": "lay off", "swap": "swap in", "move": "play"}[verb]
        return f"{action} the {card_text(parse_card(args[1]))} on meld {args[0]}"
    if verb == "discard" and args:
        return f"discard the {card_text(parse_card(args[0]))}"
    words = {"draw": "draw from the stock", "take": "take the top discard", "buy": "claim the card",
             "pass": "let the card go"}
    return words.get(verb, move)


def stood_in_words(turns: int, rounds: Sequence[int]) -> str:
    """What the computer did for a person while they were away, told when they come back.

    >>> stood_in_words(23, [2, 3, 4, 5])
    'While you were away the computer played for you: 23 turns, in rounds 2–5.'
    >>> stood_in_words(1, [6])
    'While you were away the computer played for you: 1 turn, in round 6.'
    """
    first, last = min(rounds), max(rounds)
    where = f"round {first}" if first == last else f"rounds {first}–{last}"
    return f"While you were away the computer played for you: {turns} turn{'' if turns == 1 else 's'}, in {where}."


def sentence_case(words: str) -> str:
    """``words`` with its first letter raised (``str.capitalize`` would lower the rest: "a♣" for the A♣)."""
    return words[:1].upper() + words[1:]


def hint_words(game: Game, seat: int, action: Action) -> str:
    """What the hint suggests, as a sentence for ``seat``: the move, and for a discard why no table move
    came first (a player who is down may only lay off; one who is not yet down keeps their contract)."""
    sentence = sentence_case(move_in_words(str(action).split(" ", 1)[1])) + "."
    if action.verb is not Verb.DISCARD:
        return sentence
    if game.down[seat] and not game.variant.new_melds_after_laydown and game.variant.has_contracts:
        return sentence + " You are down: only lay-offs now, and none fits."
    if game.variant.has_contracts and not game.down[seat]:
        return sentence + " No lay-down yet: keep what builds your contract."
    return sentence + " It helps your hand least."
