"""Opponent-model calibration: how far on the guessed hands are against the real ones.

Run: ``python bench/determinize.py [--games N] [--kept-draws 0,0.5,1,2] [--discard-weight 0,1]
[--declined-weight 0,1]``.
Four ``heuristic`` bots play; at a sample of seat 0's draw decisions the real hands of seats 1–3 are compared with
determinizations of seat 0's information set (``rummy.search.determinize.determinize``) at each
``kept_draws``.  The figure is the mean number of cards of a hand that lie in a complete meld (three
or more of a rank, or three or more in a row of a suit; wild cards not counted), a simple measure of
how close a hand is to going down; the second is how many cards a guessed hand shares with the real
one (higher is a better guess).  The ``kept_draws`` whose guesses hold as many meld cards as the real
hands is the calibrated opponent model (``rummy.bots.ismcts.DEFAULT_KEPT_DRAWS``); the weight of the
discards' evidence (``rummy.bots.ismcts.DEFAULT_DISCARD_WEIGHT``) is the one that shares the most cards;
the discards an opponent left for the stock are weighed the same way (``DEFAULT_DECLINED_WEIGHT``, off
until a strength run backs it).
Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import random
import statistics

from rummy.bots import decide, make_bot
from rummy.engine import Phase, make_card, new_game
from rummy.search.determinize import determinize, redact

VARIANTS = ["progressive-buy-it", "progressive-15", "may-i", "basic", "purchase"]


def cards_in_melds(hand: list[int]) -> int:
    """Cards of ``hand`` (counts) in a group of three or more, or in a run of three or more (ace low)."""
    melded: set[int] = set()
    for rank in range(1, 14):
        cards = [make_card(rank, suit) for suit in range(4) if hand[make_card(rank, suit)]]
        if len(cards) >= 3:
            melded.update(cards)
    for suit in range(4):
        run: list[int] = []
        for rank in range(1, 15):
            card = make_card(rank, suit) if rank <= 13 else None
            if card is not None and hand[card]:
                run.append(card)
                continue
            if len(run) >= 3:
                melded.update(run)
            run = []
    return len(melded)


def overlap(guess: list[int], real: list[int]) -> int:
    """Cards the guessed hand shares with the real one (counts)."""
    return sum(min(g, r) for g, r in zip(guess, real, strict=True))


Model = tuple[float, float, float]  # (kept_draws, discard_weight, declined_weight)


def calibrate(variant: str, games: int, models: list[Model], *, samples: int = 3,
              seed: int = 1) -> tuple[float, dict[Model, tuple[float, float]], int]:
    """Mean cards in melds of the real opponent hands; per model, the guesses' mean cards in melds and
    mean overlap with the real hand; the number of hands compared."""
    rng = random.Random(seed)
    real: list[int] = []
    melds: dict[Model, list[int]] = {model: [] for model in models}
    shared: dict[Model, list[int]] = {model: [] for model in models}
    for game_seed in range(seed, seed + games):
        game = new_game(variant, 4, seed=game_seed)
        bots = [make_bot("heuristic", seed=game_seed * 10 + seat) for seat in range(4)]
        while not game.game_over:
            if game.phase is Phase.ROUND_OVER:
                game.deal()
                continue
            seat = game.next_to_act()
            if seat == 0 and game.phase is Phase.DRAW and rng.random() < 0.3:
                public = redact(game, 0)
                real.extend(cards_in_melds(game.hands[other]) for other in (1, 2, 3))
                for model in models:
                    kept_draws, discard_weight, declined_weight = model
                    for _ in range(samples):
                        guess = determinize(public, 0, rng, kept_draws=kept_draws, discard_weight=discard_weight,
                                            declined_weight=declined_weight)
                        for other in (1, 2, 3):
                            melds[model].append(cards_in_melds(guess.hands[other]))
                            shared[model].append(overlap(guess.hands[other], game.hands[other]))
            game.apply(decide(game, seat, bots[seat]))
    means = {model: (statistics.fmean(melds[model]), statistics.fmean(shared[model])) for model in models}
    return statistics.fmean(real), means, len(real)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", action="append", help="variant(s) (default: all)")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--kept-draws", default="0,0.5,1,1.5,2,3")
    parser.add_argument("--discard-weight", default="0,0.5,1", help="weights of the discards' evidence")
    parser.add_argument("--declined-weight", default="0,1", help="weights of the declined discards' evidence")
    args = parser.parse_args()
    models = [(float(k), float(w), float(d)) for k in args.kept_draws.split(",")
              for w in args.discard_weight.split(",") for d in args.declined_weight.split(",")]
    print("per opponent hand: cards in complete melds (real, then guessed), and cards shared with the real hand")
    print("models are kept_draws/discard_weight/declined_weight")
    for variant in args.variant or VARIANTS:
        real, guessed, hands = calibrate(variant, args.games, models)
        print(f"{variant}: {hands} hands; real hands hold {real:.2f} cards in melds")
        for model in models:
            in_melds, common = guessed[model]
            name = "/".join(f"{value:g}" for value in model)
            print(f"  {name}: in melds {in_melds:.2f}, shared with the real hand {common:.3f}", flush=True)


if __name__ == "__main__":
    main()
