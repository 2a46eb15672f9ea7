"""Train the re-ranker policies the ``learned`` bot ships (``src/rummy/bots/policies/<variant>.npz``).

One step of policy improvement over the ``heuristic`` bot, distilled into a linear re-ranker of its own
candidate moves (:mod:`rummy.bots.expert`):

1. **Rollouts.**  Four ``heuristic`` bots play whole games (seeds from ``--seed``).  At every decision where
   the heuristic names alternatives (``HeuristicBot.candidates``), each alternative is played in a copy of
   the game (the bots copied with it) and the round is played out by the heuristic bots; the
   alternative's *advantage* is the deciding seat's result in that round (its score against the others'
   mean, signed so that more is better; in ``purchase``, +1 for the book, −⅓ when another seat tables one)
   minus the same in the game as it went on with the heuristic's choice.  The rest of the pack is the
   game's own, so both continuations meet the same cards: the difference is the alternative's.
2. **Regression.**  The advantage is fitted by ridge regression on the candidate's features minus the
   heuristic choice's (``rummy.bots.expert.FEATURES``, ``rank:first`` left out: it is the margin); the
   first fifth of the games is held out, and the script prints the held-out curve: for each margin, the
   share of decisions where the re-ranker would leave the heuristic and the advantage it would gain per
   decision, as measured by the rollouts.
3. **Selection.**  The candidate margins are played against three ``heuristic`` bots on ``--check-deals``
   deals of their own (seed ``--seed`` + 1000; ``rummy eval`` uses other seeds), each deal with the seats
   rotated (``rummy sim --duplicate``'s games, the measure ``rummy eval`` makes): the margin with the best
   mean score difference is kept if the lower end of its 95 % interval is above 0; otherwise the policy
   is the heuristic itself (the margin set so high that it never leaves it).

    nice -n 10 python bench/train_expert.py                       # every variant; writes src/rummy/bots/policies/
    python bench/train_expert.py --variants basic --games 40 --out /tmp/p
    python bench/train_expert.py --quick --out /tmp/p             # a smoke test (seconds)

Everything derives from ``--seed``: the same seed gives the same files.  One process.
"""

from __future__ import annotations

import argparse
import copy
import json
import math
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import numpy.typing as npt

from rummy.bots import play_game
from rummy.bots.expert import FEATURES, FIRST, RerankBot, Reranker, candidate_features, save_reranker
from rummy.bots.heuristic import HeuristicBot
from rummy.engine import VARIANTS, Game, Phase, get_variant, new_game, scoring_rule
from rummy.sim.evaluation import mean_interval
from rummy.sim.run import SimConfig, derive_seed

POLICIES = Path(__file__).resolve().parents[1] / "src" / "rummy" / "bots" / "policies"
#: Rollout games per variant by default (the long contract games give many more decisions each).
GAMES = {"basic": 240, "purchase": 400, "may-i": 60, "progressive-15": 24, "progressive-buy-it": 24}
#: Deals of the selection per variant by default (each played with the seats rotated: 4 games a deal).
CHECK_DEALS = {"basic": 150, "purchase": 200, "may-i": 60, "progressive-15": 30, "progressive-buy-it": 30}
MARGINS = (0.0, 0.05, 0.1, 0.2, 0.35, 0.5)
NEVER = 1e6  # a margin no alternative reaches: the heuristic's play
Matrix = npt.NDArray[np.float64]


# -- rollouts ------------------------------------------------------------------------------------


def clone(bot: HeuristicBot) -> HeuristicBot:
    """A copy of ``bot`` that plays on as it would (its memories copied, its memoised facts shared)."""
    other = copy.copy(bot)
    memory = copy.copy(bot.memory)
    memory.cards = dict(bot.memory.cards)
    other.memory = memory
    basic = copy.copy(bot._basic)
    basic._seen = set(bot._basic._seen)
    other._basic = basic
    other.alternatives = []
    return other


def round_result(game: Game, seat: int, round_index: int) -> float:
    """``seat``'s result in round ``round_index`` (0-based) of ``game``, more is better."""
    variant = game.variant
    if variant.uses_books:
        wins = game.match_wins
        return 1.0 if wins[seat] else (-1.0 / (game.n - 1) if sum(wins) else 0.0)
    if len(game.results) <= round_index:
        return 0.0
    scores = game.results[round_index].scores
    sign = 1.0 if scoring_rule(variant).higher_is_better else -1.0
    return sign * (scores[seat] - (sum(scores) - scores[seat]) / (game.n - 1))


def finish_round(game: Game, bots: Sequence[HeuristicBot]) -> None:
    """Play ``game`` on with ``bots`` until the round being played ends."""
    while not game.game_over and game.phase is not Phase.ROUND_OVER:
        seat = game.next_to_act()
        game.apply(bots[seat].choose(game.view(seat)))


@dataclass
class Decision:
    """One decision with alternatives: its candidates' feature rows and each alternative's advantage."""

    rows: Matrix
    advantages: list[float] = field(default_factory=list)


def rollout_game(variant: str, players: int, seed: int, limit: int, options: dict[str, object]) -> list[Decision]:
    """The decisions of one game of ``heuristic`` bots, each alternative's advantage measured by rollouts."""
    game = new_game(variant, players, seed=seed)
    bots = [HeuristicBot(derive_seed(seed, "bot", s), **options) for s in range(players)]  # type: ignore[arg-type]
    decisions: list[Decision] = []
    open_: list[tuple[Decision, int, int, list[float]]] = []  # decision, seat, round index, alternatives' results
    while not game.game_over:
        if game.phase is Phase.ROUND_OVER:
            game.deal()
            continue
        seat = game.next_to_act()
        view = game.view(seat)
        candidates = bots[seat].candidates(view, limit)
        if len(candidates) > 1:
            round_index = len(game.results)
            results = []
            for action in candidates[1:]:
                branch = game.copy()
                branch_bots = [clone(bot) for bot in bots]
                branch.apply(action)
                finish_round(branch, branch_bots)
                results.append(round_result(branch, seat, round_index))
            open_.append((Decision(candidate_features(view, candidates)), seat, round_index, results))
        game.apply(candidates[0])
        if game.phase is Phase.ROUND_OVER or game.game_over:
            for decision, who, round_index, results in open_:
                base = round_result(game, who, round_index)
                decision.advantages = [r - base for r in results]
                decisions.append(decision)
            open_ = []
    return decisions


# -- regression ----------------------------------------------------------------------------------


def differences(decisions: Sequence[Decision]) -> tuple[Matrix, npt.NDArray[np.float64]]:
    """One row per alternative: its features minus the heuristic choice's, and its advantage."""
    rows = [d.rows[i] - d.rows[0] for d in decisions for i in range(1, len(d.rows))]
    targets = [a for d in decisions for a in d.advantages]
    if not rows:
        return np.zeros((0, len(FEATURES))), np.zeros(0)
    return np.array(rows), np.array(targets)


def ridge(x: Matrix, y: npt.NDArray[np.float64], l2: float) -> Matrix:
    """Ridge weights (the margin column left at 0: the selection sets it)."""
    columns = [i for i in range(x.shape[1]) if i != FIRST]
    a = x[:, columns]
    w = np.zeros(x.shape[1])
    if len(y):
        gram = a.T @ a + l2 * len(y) * np.eye(len(columns))
        w[columns] = np.linalg.solve(gram, a.T @ y)
    return w


def gain_curve(w: Matrix, decisions: Sequence[Decision], margins: Sequence[float]) -> list[tuple[float, float, float]]:
    """Per margin: the share of decisions where the re-ranker leaves the heuristic, and the mean advantage
    (rollout-measured, per decision) of what it plays instead."""
    curve = []
    for margin in margins:
        changed = 0
        gained = 0.0
        for d in decisions:
            scores = (d.rows - d.rows[0]) @ w
            scores[0] = margin
            best = int(np.argmax(scores))
            if best:
                changed += 1
                gained += d.advantages[best - 1]
        n = max(1, len(decisions))
        curve.append((margin, changed / n, gained / n))
    return curve


# -- selection by duplicate games against heuristic ------------------------------------------------


def play_check(variant: str, policy: Reranker, deals: int, seed: int, players: int) -> tuple[list[float], float]:
    """The re-ranker against ``players − 1`` heuristic bots on ``deals`` deals, seats rotated (the games
    of ``rummy sim --duplicate``, seeded as they are): each deal's mean score difference (the re-ranker's
    score minus its opponents' mean, more is better), and the share of its decisions it changed."""
    rules = get_variant(variant)
    names = ("learned",) + tuple(f"heuristic#{i}" for i in range(1, players))
    sim = SimConfig(rules, names, ("learned",) + ("heuristic",) * (players - 1), deals * players, seed,
                    duplicate=True)
    sign = 1 if scoring_rule(rules).higher_is_better else -1
    by_deal: dict[int, list[float]] = {}
    changed = decided = 0
    for index in range(sim.games):
        deal_seed, seating = sim.plan(index)
        learner = RerankBot(policy, seed=derive_seed(seed, "bot", index, 0))
        bots = [learner if p == 0 else HeuristicBot(derive_seed(seed, "bot", index, p)) for p in seating]
        game = play_game(rules, bots, seed=deal_seed)
        changed += learner.changed
        decided += learner.decisions
        scores = scoring_rule(rules).game_scores(game)
        seat = seating.index(0)
        others = [o for o in range(players) if o != seat]
        diff = sign * (scores[seat] - sum(scores[o] for o in others) / len(others))
        by_deal.setdefault(index // players, []).append(diff)
    return [sum(v) / len(v) for _, v in sorted(by_deal.items())], changed / max(1, decided)


# -- a variant ---------------------------------------------------------------------------------------


def train_variant(variant: str, args: argparse.Namespace) -> Reranker:
    started = time.process_time()
    games = args.games if args.games is not None else GAMES[variant]
    rng = random.Random(f"{args.seed}:{variant}:rollouts")
    seeds = [rng.randrange(2 ** 31) for _ in range(games)]
    per_game = [rollout_game(variant, args.players, s, args.limit, {}) for s in seeds]
    rolled = time.process_time() - started
    held_out = max(1, games // 5)
    train = [d for game in per_game[held_out:] for d in game]
    test = [d for game in per_game[:held_out] for d in game]
    x, y = differences(train)
    scale = float(np.std(y)) if len(y) and np.std(y) > 0 else 1.0
    w = ridge(x, y / scale, args.l2)
    print(f"{variant}: {games} games ({held_out} held out), {len(train)} training and {len(test)} held-out "
          f"decisions with alternatives, {len(y)} alternatives rolled out in {rolled:.1f} s of CPU; "
          f"advantage spread {scale:.3g}, mean {float(np.mean(y)) if len(y) else 0.0:.3g}")
    print("  held-out decisions: margin  changed  gain per decision (rollouts, in units of the spread)")
    margins = MARGINS if not args.quick else (0.5,)
    tried = []
    for margin, share, gain in gain_curve(w, test, margins):
        print(f"    {margin:5.2f}  {100 * share:6.2f}%  {gain / scale:+.4f}")
        if share > 0:
            tried.append(margin)
    sys.stdout.flush()
    check_seed = args.seed + 1000
    deals = args.check_deals if args.check_deals is not None else CHECK_DEALS[variant]
    best: tuple[float, float] | None = None  # (mean, margin)
    print(f"  against heuristic, {deals} deals × {args.players} seats (seed {check_seed}): "
          "margin  changed  score diff (95% CI)")
    for margin in tried:  # a margin that changes no held-out decision is not played
        weights = w.copy()
        weights[FIRST] = margin
        per_deal, changed = play_check(variant, Reranker(variant, weights, args.limit), deals, check_seed, args.players)
        mean, interval = mean_interval(per_deal)
        low, high = interval if interval is not None else (math.nan, math.nan)
        print(f"    {margin:5.2f}  {100 * changed:6.2f}%  {mean:+.2f} ({low:+.2f} … {high:+.2f})")
        sys.stdout.flush()
        if interval is not None and low > 1e-9 and changed > 0 and (best is None or mean > best[0]):
            best = (mean, margin)
    weights = w.copy()
    weights[FIRST] = best[1] if best is not None else NEVER
    policy = Reranker(variant, weights, args.limit)
    verdict = f"margin {best[1]}" if best is not None else "no margin better than heuristic: ships heuristic's play"
    print(f"  kept: {verdict}; CPU {time.process_time() - started:.1f} s")
    order = [i for i in np.argsort(-np.abs(w)) if i != FIRST][:6]
    print("  largest weights: " + ", ".join(f"{FEATURES[i]} {w[i]:+.2f}" for i in order))
    sys.stdout.flush()
    return policy


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    parser.add_argument("--variants", default=",".join(sorted(VARIANTS)))
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=None, help="rollout games per variant (default: GAMES)")
    parser.add_argument("--check-deals", type=int, default=None,
                        help="deals of the selection per variant (default: CHECK_DEALS)")
    parser.add_argument("--limit", type=int, default=3, help="candidates the re-ranker weighs")
    parser.add_argument("--l2", type=float, default=1e-3, help="ridge penalty (per alternative)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=POLICIES)
    parser.add_argument("--quick", action="store_true", help="2 games, 2 deals, basic only: a smoke test")
    args = parser.parse_args(argv)
    variants = args.variants.split(",")
    if args.quick:
        args.games, args.check_deals = 2, 2
        if args.variants == parser.get_default("variants"):
            variants = ["basic"]
    args.out.mkdir(parents=True, exist_ok=True)
    for variant in variants:
        policy = train_variant(variant, args)
        save_reranker(args.out / f"{variant}.npz", policy)
    print(json.dumps({"written": [str(args.out / f"{v}.npz") for v in variants]}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
