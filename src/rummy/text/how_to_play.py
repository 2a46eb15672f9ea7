"""How to play one variant, with its house rules, in words generated from the variant's data.

:func:`how_to_play` gives the help panel's sections (the game, cards, rounds and contracts, a turn,
buying, going out and scoring, and the house rules that differ from the seed's); :func:`glossary`
explains the table's short labels ("dead", "down", "bought 2" …); :func:`blurb` is the lobby's one line;
``rummy rules ID`` prints the same sentences.

>>> from rummy.engine import get_variant
>>> for part in claims_sentence(get_variant("progressive-buy-it")).split("; "):
...     print(part)
Before each draw, any player who is not the active player may buy the top discard, the player who discarded it included
the first to call gets it. A buy costs the top card of the stock too (a penalty card). There is no limit on buys.
>>> claims_sentence(get_variant("progressive-buy-it", {"discarder_may_claim": False})).split(";")[0]
'Before each draw, any player who is not the active player may buy the top discard, except the player who discarded it'
>>> changed_rules(get_variant("may-i", {"may_i_limit": 5}))
['Buys per hand: 5 (standard: 3)']
"""

from __future__ import annotations

from typing import Any

from rummy.engine import JOKER, JOKER_RANK, RANKS, VARIANTS, Scoring, Slot, Variant, claim_words, penalty_word
from rummy.text.house_rule_docs import RULE_DOCS, value_words, variant_value

Section = dict[str, Any]  # {"title": str, "lines": [str]}


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}" + ("" if count == 1 else "s")


def _join(parts: list[str]) -> str:
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def _claim_nouns(variant: Variant) -> tuple[str, str]:
    """The claim's noun, singular and plural: ``buy``/``buys`` or ``May I``/``May-I's``."""
    words = claim_words(variant)
    return words.name, words.plural


def blurb(variant: Variant) -> str:
    """One line for the lobby: players, rounds, what is special, how it is won."""
    players = f"{variant.players_min}–{variant.players_max} players"
    if variant.scoring is Scoring.BOOK:
        return f"{players}: swap cards with a face-up purchase card; the first to table a four-card book wins."
    wilds = _wild_words(variant)
    parts = [players]
    if variant.round_count:
        parts.append(f"{variant.round_count} rounds of growing contracts")
    else:
        parts.append("meld freely")
    if wilds != "no wild cards":
        parts.append(wilds + " wild")
    if variant.claim_mode != "none":
        one, many = _claim_nouns(variant)
        limit = variant.claim_limit
        if variant.buy_schedule is not None:
            parts.append("buying in some hands")
        elif limit is None:
            parts.append(f"unlimited {many}")
        else:
            parts.append(f"{_plural(limit, one) if one != 'May I' else f'{limit} {many}'} per hand")
    return ", ".join(parts) + "; " + _winning_words(variant, None) + "."


def _wild_words(variant: Variant) -> str:
    names = {JOKER_RANK: "jokers", 2: "2s"}
    ranks = [names[r] for r in sorted(variant.wild_ranks)]
    return _join(ranks) if ranks else "no wild cards"


def _winning_words(variant: Variant, players: int | None) -> str:
    if variant.scoring is Scoring.BOOK:
        return "the first to table a book of four wins"
    if variant.scoring is Scoring.WINNER_COLLECTS:
        target = variant.target(players) if players is not None else None
        goal = f"{target} points" if target is not None else "the target score (" + ", ".join(
            f"{t} with {p}" for p, t in variant.target_by_players) + " players)"
        return f"the winner of each hand collects the points left in the other hands; the first to {goal} wins"
    return "cards left in hand count against you; the lowest total after the last round wins"


def _points_words(variant: Variant) -> str:
    """``joker 25, ace 15, 2–9 5, 10–K 10`` from the point table (``2–10 face value`` where they are)."""
    parts = [f"joker {variant.points(JOKER)}"] if variant.jokers_per_deck else []
    parts.append(f"ace {variant.points(0)}")
    face = all(variant.points(rank - 1) == rank for rank in range(2, 11))  # 2–10 count their face value
    runs: list[tuple[int, int, int | None]] = []  # first rank, last rank, points (None: face value)
    for rank in range(2, 14):
        value = None if face and rank <= 10 else variant.points(rank - 1)
        if runs and runs[-1][2] == value:
            runs[-1] = (runs[-1][0], rank, value)
        else:
            runs.append((rank, rank, value))
    for first, last, value in runs:
        names = _rank_word(first) + ("" if first == last else "–" + _rank_word(last))
        parts.append(f"{names} {'face value' if value is None else value}")
    return ", ".join(parts)


def _rank_word(rank: int) -> str:
    return RANKS[rank - 1].replace("T", "10")


def _deal_words(variant: Variant, players: int | None) -> str:
    jokers = f", each with {variant.jokers_per_deck} jokers" if variant.jokers_per_deck else ""
    if variant.decks is not None or players is not None:
        return _plural(variant.decks_for(players or variant.players_min), "deck") + jokers
    spans: list[tuple[int, int, int]] = []  # first and last player count, decks
    for count in range(variant.players_min, variant.players_max + 1):
        decks = variant.decks_for(count)
        if spans and spans[-1][2] == decks:
            spans[-1] = (spans[-1][0], count, decks)
        else:
            spans.append((count, count, decks))
    by_players = ", ".join(f"{decks} for {first}" + (f"–{last}" if last != first else "")
                           for first, last, decks in spans)
    return f"decks by the number of players ({by_players} players){jokers}"


def claims_sentence(variant: Variant) -> str:
    """Who may claim the discard, when, and what it costs (rules.md §2.8 and the variant's keys)."""
    if variant.claim_mode == "none":
        return "Nobody may buy the discard out of turn."
    one, many = _claim_nouns(variant)
    verb = "call May I for" if one == "May I" else "buy"
    who = "any player who is not the active player"
    when = {
        "pre_draw": f"Before each draw, {who} may {verb} the top discard",
        "active_first_then_others": (f"On their turn the active player may {verb} the top discard before drawing; "
                                     f"once they draw from the stock instead, {who} may {verb} it"),
        "after_decline": f"Once the active player draws from the stock instead of taking it, {who} may {verb} the "
                         "top discard",
    }[variant.claim_mode]
    when += (", the player who discarded it included" if variant.discarder_may_claim
             else ", except the player who discarded it")
    if not variant.claim_allowed_when_down:
        when += " (but not a player who has laid down)"
    priority = ("the first to call gets it" if variant.claim_priority == "first_call"
                else "if several want it, the one nearest the active player's left gets it")
    sentences = [f"{when}; {priority}."]
    penalty = penalty_word(variant)
    if variant.buy_schedule is None:
        if variant.claim_penalty_cards:
            count = variant.claim_penalty_cards
            cards = "the top card" if count == 1 else f"the top {count} cards"
            sentences.append(f"A {one} costs {cards} of the stock too (a {penalty}).")
        limit = variant.claim_limit
        scope = "each player" if variant.claim_limit_scope == "player" else "the whole table"
        sentences.append(f"There is no limit on {many}." if limit is None
                         else f"{scope[0].upper()}{scope[1:]} has {limit} {many if limit != 1 else one} per hand.")
    else:
        schedule = value_words("buy_schedule", variant_value(variant, "buy_schedule"))
        sentences.append(f"Buying by hand: {schedule} (each blind card is the top of the stock, taken with the "
                         "bought card).")
    if variant.claim_cost or variant.blind_card_cost:
        price = f"{variant.claim_cost}¢ per {one}"
        if variant.blind_card_cost:
            price += f" and {variant.blind_card_cost}¢ per {penalty}"
        sentences.append(f"It costs {price}, paid into the kitty.")
    return " ".join(sentences)


def _dead_words(variant: Variant) -> str:
    one, _ = _claim_nouns(variant)
    if variant.claims_per_window == "cascade":
        return f"After a {one} the card beneath becomes the top discard and may be bought in turn."
    return (f"After a {one} the rest of the discard pile is dead for this turn: nobody may take it or call for "
            "it until the active player discards.")


def _turn_lines(variant: Variant) -> list[str]:
    if variant.scoring is Scoring.BOOK:
        return [
            "Draw the top card of the stock.",
            "Then you may do one of: purchase a card from the discard pile with your purchase card (a card of "
            "equal or lower rank; " + value_words("ace_purchasable_by", variant_value(variant, "ace_purchasable_by"))
            + " buy an ace), trade purchase cards with another player, or exchange your purchase card for a card "
            "of your hand.",
            "Declare a book — four of a kind or four in a row of one suit — to win, or discard one card.",
        ]
    draw = "Draw the top card of the stock or take the top discard."
    if not variant.may_discard_card_taken_from_discard:
        draw += " You may not discard the card you took in the same turn."
    if variant.scoring is Scoring.WINNER_COLLECTS:
        melds = RULE_DOCS["max_new_melds_per_turn"]
        limit = value_words("max_new_melds_per_turn", variant.max_new_melds_per_turn)
        return [draw, f"Lay down sets (3 or more of a rank) and runs ({variant.run_min} or more in a row of one "
                f"suit) and lay off cards on any meld ({melds.label.lower()}: {limit}).",
                "Discard one card to end your turn."]
    lines = [draw, "Lay down the round's contract in one go when you can (" + (
        "melds may be longer than asked" if not variant.contract_sizes_exact else "each meld exactly its size") + (
        "; extra melds too" if variant.contract_extra_melds else "; no extra melds") + ")."]
    timing = value_words("layoff_timing", variant.layoff_timing)
    lines.append(f"Once down, lay off cards on any meld on the table, {timing}."
                 + (" You may also lay new melds." if variant.new_melds_after_laydown else ""))
    if variant.rearrange_mode != "none":
        lines.append("You may rearrange melds on the table together with cards from your hand "
                     f"({value_words('rearrange_mode', variant.rearrange_mode)}).")
    if variant.joker_swap != "none":
        lines.append(f"Taking a wild back: put the natural card it stands for in its place — "
                     f"{value_words('joker_swap', variant.joker_swap)} "
                     f"({value_words('joker_swap_timing', variant.joker_swap_timing)}).")
    lines.append("End your turn by discarding one card.")
    return lines


def _slot_words(variant: Variant, slot: Slot) -> str:
    """``a set of 3``; a run slot raised by the shortest run reads ``a run of 5``."""
    size = variant.meld_size(slot)
    return str(slot) if size == slot.min_size else str(Slot(slot.kind, size))


def _rounds_lines(variant: Variant, players: int | None) -> list[str]:
    lines = []
    count = players if players is not None else variant.players_min
    for number in range(1, len(variant.rounds) + 1):
        rules = variant.round_rules(number, count)
        contract = " + ".join(_slot_words(variant, slot) for slot in rules.contract)
        extra = []
        if variant.buy_schedule is not None and rules.claim_limit:
            extra.append(f"{_plural(rules.claim_limit, 'buy')}" + (
                f", {_plural(rules.penalty_cards, 'blind card')}" if rules.penalty_cards else ""))
        if not rules.final_discard_allowed:
            extra.append("no discard at the end: go out by playing every card")
        elif rules.must_discard_to_go_out:
            extra.append("go out with a discard")
        if rules.must_go_out_on_laydown:
            extra.append("the lay-down must use every card")
        note = f" ({'; '.join(extra)})" if extra else ""
        lines.append(f"Round {number}: {_plural(rules.deal_size, 'card')} — {contract}{note}")
    return lines


def how_to_play(variant: Variant, players: int | None = None) -> list[Section]:
    """The help panel's sections for ``variant`` (with its house rules) at a table of ``players``."""
    game = [blurb(variant)[0].upper() + blurb(variant)[1:]]
    deal = variant.round_rules(1, players).deal_size if players is not None else None
    pack = f"Cards: {_deal_words(variant, players)}."
    if deal:
        pack += f" Each player is dealt {_plural(deal, 'card')}" + (" in the first round." if variant.rounds else ".")
    elif variant.deal_size_by_players:
        sizes = ", ".join(f"{d} cards with {p}" for p, d in variant.deal_size_by_players)
        pack += f" Each player is dealt {sizes} players."
    game.append(pack)
    sections: list[Section] = [{"title": "The game", "lines": game}]
    if variant.scoring != "book":
        wild = (f"Wild cards: {_wild_words(variant)}. A wild may stand for any card in a meld." if variant.wild_ranks
                else "Wild cards: none.")
        cards = [wild, f"Aces in runs: {value_words('ace_mode', variant.ace_mode)}.",
                 f"A set is {variant.group_min} or more cards of one rank; a run is {variant.run_min} or more cards "
                 "in a row of one suit.",
                 f"Card points: {_points_words(variant)}."]
        if variant.wild_ranks and variant.wild_policy != "none":
            cards.append(f"Wilds in a meld: {value_words('wild_policy', variant.wild_policy)}.")
        sections.append({"title": "Cards and melds", "lines": cards})
    if variant.rounds:
        sections.append({"title": "Rounds and contracts", "lines": _rounds_lines(variant, players)})
    sections.append({"title": "Your turn", "lines": _turn_lines(variant)})
    if variant.claim_mode != "none":
        one, _ = _claim_nouns(variant)
        sections.append({"title": "May I?" if one == "May I" else "Buying the discard",
                         "lines": [claims_sentence(variant), _dead_words(variant)]})
    sections.append({"title": "Going out and scoring", "lines": _scoring_lines(variant, players)})
    changes = changed_rules(variant)
    if changes:
        sections.append({"title": "House rules at this table", "lines": changes})
    return sections


def _scoring_lines(variant: Variant, players: int | None) -> list[str]:
    lines = [_winning_words(variant, players)[0].upper() + _winning_words(variant, players)[1:] + "."]
    if variant.scoring is Scoring.BOOK:
        return lines
    lines.insert(0, "Go out by emptying your hand: " + value_words("going_out_mode", variant.going_out_mode) + ".")
    if variant.scoring is Scoring.WINNER_COLLECTS and variant.rummy_multiplier > 1:
        lines.append(f"Going rummy — your whole hand in one turn, having played nothing before — multiplies the "
                     f"points by {variant.rummy_multiplier}.")
    payments = variant.settlement_payments(players) if players is not None else None
    if variant.settlement_unit is not None or variant.settlement_table:
        if payments is not None:
            money = ", ".join(f"{'+' if p > 0 else ''}{p}¢" for p in payments)
            lines.append(f"Settlement in pennies by place, best first: {money}.")
        else:
            lines.append(f"Settlement in pennies: each place down the ranking pays {variant.settlement_unit}¢ more; "
                         "the winner receives what the others pay.")
        lines.append(f"The kitty (pennies paid for buys) goes to {value_words('kitty_split', variant.kitty_split)}.")
    return lines


def changed_rules(variant: Variant) -> list[str]:
    """House rules of ``variant`` that differ from its seed variant, in words."""
    base = VARIANTS.get(variant.id_base)
    if base is None or base is variant:
        return []
    lines = []
    for key, doc in RULE_DOCS.items():
        if key == "may_i_limit":
            continue
        value, seed = variant_value(variant, key), variant_value(base, key)
        if value != seed:
            lines.append(f"{doc.label}: {value_words(key, value)} (standard: {value_words(key, seed)})")
    return lines


def glossary(variant: Variant) -> dict[str, str]:
    """Explanations of the table's short labels, for tooltips."""
    one, many = _claim_nouns(variant)
    terms = {
        "dealer": "Deals this round; the player on the dealer's left plays first.",
        "hand_size": "Cards in this player's hand.",
        "total": ("Points so far; " + ("the highest total wins." if variant.scoring != "penalty"
                                        else "the lowest total wins.")),
        "away": "This player has lost the connection; the table does not wait for them to buy.",
        "computer": "A computer player plays this seat.",
        "scoring": _winning_words(variant, None)[0].upper() + _winning_words(variant, None)[1:] + ".",
    }
    if variant.has_contracts:
        terms["down"] = "This player has laid down the round's contract."
        terms["contract"] = "The melds each player must lay down, in one go, before playing other cards to the table."
    if variant.claim_mode != "none":
        terms["dead"] = _dead_words(variant)
        terms["claims_left"] = f"{many[0].upper()}{many[1:]} this player may still make this hand."
        terms["claimed"] = f"{many[0].upper()}{many[1:]} this player has made this hand."
    if variant.settlement_unit is not None or variant.settlement_table:
        terms["kitty"] = (f"Pennies paid for {many}; at the end it goes to "
                          f"{value_words('kitty_split', variant.kitty_split)}.")
    if variant.scoring is Scoring.BOOK:
        terms["purchase_card"] = "A face-up card used to purchase a discard of equal or lower rank."
    return terms
