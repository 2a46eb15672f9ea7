"""Scoring rules: a round's scores, the game's end, winners, ranking and the money settlement.

Each :class:`~rummy.engine.modes.Scoring` mode has one :class:`ScoringRule`, chosen by data with
:func:`scoring_rule`: :class:`PenaltyScoring` (the contract variants: cards left in hand count
against, lowest total after the last round wins), :class:`WinnerCollectsScoring` (``basic``: who goes
out collects the other hands, first to the target wins) and :class:`BookScoring` (``purchase``: a
book wins the round, rounds won decide).  A rule reads the game through :class:`Scoreboard`, which
:class:`~rummy.engine.game.Game` satisfies.

>>> from rummy.engine.house_rules import get_variant
>>> rule = scoring_rule(get_variant("progressive-15"))
>>> board = Board(totals=(40, 10, 10, 90))
>>> rule.ranking(board), rule.winners(board)
([1, 2, 0, 3], [1, 2])
>>> rows = rule.settle(board, kitty=6, paid=[2, 1, 3, 0])
>>> [(r.seat, r.position, str(r.payment), str(r.kitty), str(r.net)) for r in rows]
[(0, '3', '-4', '0', '-6'), (1, '1', '5', '3', '7'), (2, '1', '5', '3', '5'), (3, '4', '-6', '0', '-6')]
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import ClassVar, Protocol

from rummy.engine.cards import Counts
from rummy.engine.modes import ExhaustionScoring, KittySplit, RoundEnd, Scoring, TieBreak
from rummy.engine.variants import Variant


@dataclass(frozen=True, slots=True)
class RoundResult:
    """How one round ended and what each seat was credited."""

    round: int
    went_out: int | None
    scores: tuple[int, ...]
    end: RoundEnd
    claims: tuple[int, ...] = ()  # successful claims (buys, May-I's) of each seat in the round


@dataclass(frozen=True, slots=True)
class Settlement:
    """One seat's money at the end of a ``progressive-15`` game (exact fractions)."""

    seat: int
    position: str
    payment: Fraction
    kitty: Fraction
    net: Fraction


@dataclass(frozen=True, slots=True)
class RoundEnding:
    """What a scoring rule is told about a round that just ended."""

    end: RoundEnd
    went_out: int | None  # the seat that went out or tabled the book
    hands: Sequence[Counts]  # every seat's hand as it ended
    went_rummy: bool = False  # the seat went out having played nothing to the table before this turn


@dataclass(frozen=True, slots=True)
class RoundScore:
    """What a round credits: points per seat, and the seat credited a round (match) win, if any."""

    scores: tuple[int, ...]
    round_winner: int | None = None


class Scoreboard(Protocol):
    """The standing a scoring rule decides on (a :class:`~rummy.engine.game.Game` is one)."""

    @property
    def round_number(self) -> int: ...

    @property
    def totals(self) -> Sequence[int]: ...

    @property
    def match_wins(self) -> Sequence[int]: ...

    @property
    def results(self) -> Sequence[RoundResult]: ...

    @property
    def turns_played(self) -> int: ...


@dataclass(frozen=True, slots=True)
class Board:
    """A :class:`Scoreboard` built from values (for callers without a game at hand)."""

    totals: Sequence[int]
    match_wins: Sequence[int] = ()
    results: Sequence[RoundResult] = ()
    round_number: int = 0
    turns_played: int = 0


def hand_points(variant: Variant, hand: Counts) -> int:
    """The points of the cards of ``hand`` (a count vector) under ``variant``'s card values."""
    points = variant.points
    return sum(points(card) * count for card, count in enumerate(hand) if count)


class ScoringRule(ABC):
    """How a variant scores: what a round credits, when the game ends, and how seats rank.

    A subclass says how a round is scored (:meth:`score_round`), when the game is over
    (:meth:`game_finished`), which number ranks the seats (:meth:`game_scores`) and which way
    (:attr:`higher_is_better`); ranking, positions, winners and the settlement follow from those.
    """

    scoring: ClassVar[Scoring]
    higher_is_better: ClassVar[bool]
    description: ClassVar[str]  # one sentence for rule summaries
    score_meaning: ClassVar[str]  # what the number of :meth:`game_scores` counts

    def __init__(self, variant: Variant) -> None:
        self.variant = variant

    @abstractmethod
    def score_round(self, ending: RoundEnding) -> RoundScore:
        """The round's scores from the hands and how it ended."""

    @abstractmethod
    def game_finished(self, board: Scoreboard, end: RoundEnd) -> bool:
        """Whether the game is over after the round that just ended (already on ``board``)."""

    def capped(self, board: Scoreboard, end: RoundEnd) -> bool:
        """Whether the turn cap ended the round that just ended: ``max_turns`` turns played (rules.md §7.7 gives the cap
        to ``purchase``; the engine takes the option in every variant, and there too it ends the game as a draw)."""
        cap = self.variant.max_turns
        return cap is not None and board.turns_played >= cap and end is RoundEnd.STALEMATE

    def game_over(self, board: Scoreboard, end: RoundEnd) -> bool:
        """Whether the game is over after the round that just ended: the turn cap ended it, or the rule's own end
        (:meth:`game_finished`)."""
        return self.capped(board, end) or self.game_finished(board, end)

    def game_scores(self, board: Scoreboard) -> Sequence[int]:
        """Each seat's number in the game's standing: its total points."""
        return board.totals

    def _keys(self, board: Scoreboard) -> list[tuple[int, ...]]:
        """Each seat's sort key, best first: its game score, then (``tie_break = last_round``) its
        scores from the latest round back."""
        sign = -1 if self.higher_is_better else 1
        scores = self.game_scores(board)
        last_round = self.variant.tie_break is TieBreak.LAST_ROUND
        return [
            (sign * scores[seat], *(sign * r.scores[seat] for r in reversed(board.results) if last_round))
            for seat in range(len(scores))
        ]

    def ranking(self, board: Scoreboard) -> list[int]:
        """Seats from best to worst; equal standing keeps seat order."""
        return _best_first(self._keys(board))

    def positions(self, board: Scoreboard) -> list[int]:
        """Competition rank (1, 2, 2, 4) of every seat."""
        keys = self._keys(board)
        order = _best_first(keys)
        result = [0] * len(keys)
        for index, seat in enumerate(order):
            if index and keys[order[index - 1]] == keys[seat]:
                result[seat] = result[order[index - 1]]
            else:
                result[seat] = index + 1
        return result

    def winners(self, board: Scoreboard) -> list[int]:
        """Every seat in first position (co-winners share); nobody when the turn cap ended the game (a draw)."""
        if board.results and self.capped(board, board.results[-1].end):
            return []
        place = self.positions(board)
        return [seat for seat, position in enumerate(place) if position == 1]

    def settle(self, board: Scoreboard, *, kitty: int, paid: Sequence[int]) -> list[Settlement]:
        """Position payments and kitty shares, averaged over tied positions (rules.md §4.12); empty
        without money (no ``settlement_unit`` or ``settlement_table``)."""
        variant = self.variant
        n = len(board.totals)
        payments = variant.settlement_payments(n)
        if payments is None:
            return []
        shares = [Fraction(0)] * n
        if variant.kitty_split is KittySplit.TWO_THIRDS_ONE_THIRD and n >= 2:
            shares[0] = Fraction(2 * kitty, 3)
            shares[1] = Fraction(kitty, 3)
        else:
            shares[0] = Fraction(kitty)
        place = self.positions(board)
        rows = []
        for seat in range(n):
            first = place[seat]
            tied = place.count(first)
            span = range(first - 1, first - 1 + tied)
            payment = Fraction(sum(payments[i] for i in span), tied)
            share = sum((shares[i] for i in span), Fraction(0)) / tied
            rows.append(Settlement(seat, str(first), payment, share, payment + share - paid[seat]))
        return rows


def _best_first(keys: Sequence[tuple[int, ...]]) -> list[int]:
    """Seats by sort key, equal keys in seat order."""
    return sorted(range(len(keys)), key=lambda seat: (keys[seat], seat))


class PenaltyScoring(ScoringRule):
    """The contract variants: each seat is charged the cards left in its hand; after the last round
    the lowest total wins.  A round that ran out of cards charges every hand, unless
    ``exhaustion_scoring = void``."""

    scoring = Scoring.PENALTY
    higher_is_better = False
    description = "penalty points for cards left in hand; lowest total wins"
    score_meaning = "penalty points, lower is better"

    def score_round(self, ending: RoundEnding) -> RoundScore:
        variant = self.variant
        charged = ending.end is RoundEnd.OUT or (
            ending.end is RoundEnd.EXHAUSTED and variant.exhaustion_scoring is ExhaustionScoring.PENALTY
        )
        return RoundScore(tuple(
            hand_points(variant, hand) if charged and seat != ending.went_out else 0
            for seat, hand in enumerate(ending.hands)
        ))

    def game_finished(self, board: Scoreboard, end: RoundEnd) -> bool:
        return board.round_number == self.variant.round_count


class WinnerCollectsScoring(ScoringRule):
    """``basic``: the seat that goes out collects the points left in the other hands (times
    ``rummy_multiplier`` when it went out in one turn); the first total to reach the target wins."""

    scoring = Scoring.WINNER_COLLECTS
    higher_is_better = True
    description = "the winner of a hand collects the points in the other hands; first to the target wins"
    score_meaning = "points collected, higher is better"

    def score_round(self, ending: RoundEnding) -> RoundScore:
        scores = [0] * len(ending.hands)
        winner = ending.went_out
        if ending.end is RoundEnd.OUT and winner is not None:
            collected = sum(hand_points(self.variant, hand) for seat, hand in enumerate(ending.hands) if seat != winner)
            scores[winner] = collected * (self.variant.rummy_multiplier if ending.went_rummy else 1)
        return RoundScore(tuple(scores))

    def game_finished(self, board: Scoreboard, end: RoundEnd) -> bool:
        target = self.variant.target(len(board.totals))
        return target is not None and max(board.totals) >= target


class BookScoring(ScoringRule):
    """``purchase``: the seat that tables a book wins the round; rounds won rank the seats and the first
    to ``match_target`` wins.  Nobody wins a game in which no book was tabled (the turn cap ended it)."""

    scoring = Scoring.BOOK
    higher_is_better = True
    description = "first player to table a four-card book wins"
    score_meaning = "books won"

    def score_round(self, ending: RoundEnding) -> RoundScore:
        booked = ending.end is RoundEnd.BOOK and ending.went_out is not None
        return RoundScore((0,) * len(ending.hands), ending.went_out if booked else None)

    def game_finished(self, board: Scoreboard, end: RoundEnd) -> bool:
        return max(board.match_wins) >= self.variant.match_target

    def game_scores(self, board: Scoreboard) -> Sequence[int]:
        """Each seat's rounds won (books tabled)."""
        return board.match_wins

    def winners(self, board: Scoreboard) -> list[int]:
        if max(board.match_wins) == 0:
            return []
        return super().winners(board)


_RULES: dict[Scoring, type[ScoringRule]] = {rule.scoring: rule for rule in (PenaltyScoring, WinnerCollectsScoring,
                                                                             BookScoring)}


def scoring_rule(variant: Variant) -> ScoringRule:
    """The scoring rule ``variant.scoring`` names, for ``variant``."""
    return _RULES[variant.scoring](variant)
