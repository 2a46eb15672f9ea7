"""Provably fair shuffles in the engine and the record: dealing from a seed, the ``x-shuffle`` entry,
and ``rummy replay``'s verdicts (verified, unverifiable, mismatched)."""

from __future__ import annotations

import hashlib
import json
import random
import subprocess
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummy.cli import main
from rummy.engine.fair_shuffle import ShuffleFormatError, ShuffleSecret, commitment_of, new_shuffle
from rummy.engine.game import Game, Phase, new_game
from rummy.engine.house_rules import get_variant
from rummy.record import dumps, loads, record_of, replay, to_data
from rummy.search.determinize import redact
from rummy.search.playout import random_choice
from tests.profiles import examples
from tests.random_games import play

HEX = st.text("0123456789abcdef", min_size=32, max_size=64)


def _fair_game(variant: str, players: int, seed: int, *, rounds: int | None = None) -> Game:
    """A game played by random moves whose every round is dealt from a fresh shuffle secret;
    it stops after ``rounds`` finished rounds (None: at the end of the game)."""
    game = Game(get_variant(variant), players, seed=seed)

    def deal(game: Game) -> None:
        game.deal(dealer=game.choose_first_dealer() if not game.deals else None, shuffle=new_shuffle())

    play(game, random.Random(seed), policy="steered", rounds=rounds, deal=deal)
    return game


def _replay_json(capsys: pytest.CaptureFixture[str], tmp_path: Path, data: dict[str, Any]) -> tuple[int, Any]:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    code = main(["replay", str(path), "--json"])
    return code, json.loads(capsys.readouterr().out)


# -- the secret and its commitment ----------------------------------------------------------


def test_commitment_is_the_sha256_of_the_documented_message() -> None:
    secret = ShuffleSecret("0123456789abcdef" * 2, "fedcba9876543210" * 2)
    text = f"rummy-shuffle/1:{secret.seed}:{secret.salt}".encode("ascii")
    assert secret.commitment == hashlib.sha256(text).hexdigest() == commitment_of(secret.seed, secret.salt)


def test_commitment_matches_sha256sum_by_hand() -> None:
    secret = new_shuffle()
    shell = subprocess.run(["sh", "-c", 'printf "rummy-shuffle/1:%s:%s" "$0" "$1" | sha256sum',
                            secret.seed, secret.salt], capture_output=True, text=True, check=True)
    assert shell.stdout.split()[0] == secret.commitment


def test_new_shuffles_are_fresh_and_well_spelled() -> None:
    secrets_seen = {new_shuffle() for _ in range(50)}
    assert len(secrets_seen) == 50
    assert len({s.seed for s in secrets_seen} | {s.salt for s in secrets_seen}) == 100


@pytest.mark.parametrize("seed", ["", "ABCDEF" * 6, "0x" + "1" * 32, "1" * 31, "1" * 65, "g" * 32, 12])
def test_badly_spelled_seed_is_refused(seed: Any) -> None:
    with pytest.raises(ShuffleFormatError):
        ShuffleSecret(seed, "0" * 32)


# -- the engine deals deterministically from the seed ---------------------------------------


@settings(max_examples=examples(30))
@given(seed=HEX, salt=HEX, variant=st.sampled_from(["basic", "may-i", "purchase", "progressive-buy-it"]),
       dealer=st.integers(0, 2), game_seed=st.integers(0, 2**31))
def test_the_deal_depends_on_the_shuffle_seed_only(seed: str, salt: str, variant: str, dealer: int,
                                                   game_seed: int) -> None:
    one = Game(get_variant(variant), 3, seed=game_seed)
    two = Game(get_variant(variant), 3, seed=game_seed + 1)
    rng_before = one.rng.getstate()
    one.deal(dealer=dealer, shuffle=ShuffleSecret(seed, salt))
    two.deal(dealer=dealer, shuffle=ShuffleSecret(seed, "0" * 32))
    assert [one.hand(s) for s in range(3)] == [two.hand(s) for s in range(3)]
    assert one.stock == two.stock and one.discard == two.discard and one.purchase_cards == two.purchase_cards
    assert one.rng.getstate() == rng_before  # the game's own RNG is not used by a seeded deal
    assert sorted(one.deals[-1]["stock"] + [c for s in range(3) for c in one.hand(s)] + one.discard
                  + (one.purchase_cards or [])) == sorted(
        c for c in range(len(one.pack)) for _ in range(one.pack[c]))


def test_reshuffles_of_a_seeded_round_follow_its_seed() -> None:
    """Two games with different game seeds but the same round seed play the same random moves alike,
    reshuffles of the discard pile included."""
    secret = new_shuffle()
    logs = []
    for game_seed in (1, 2):
        game = Game(get_variant("basic"), 2, seed=game_seed)
        game.deal(dealer=0, shuffle=secret)
        rng = random.Random(7)
        while game.phase not in (Phase.ROUND_OVER, Phase.GAME_OVER):
            game.apply(random_choice(game.legal_actions(game.next_to_act()), rng))
        logs.append(([str(a) for a in game.log], game.refills))
    assert logs[0] == logs[1]


# -- the record carries commitments and reveals ----------------------------------------------


def test_record_reveals_only_finished_rounds() -> None:
    game = _fair_game("may-i", 4, seed=3, rounds=1)
    game.deal(shuffle=new_shuffle())
    rounds = to_data(record_of(game))["rounds"]
    assert set(rounds[0]["x-shuffle"]) == {"commitment", "seed", "salt"}
    assert set(rounds[1]["x-shuffle"]) == {"commitment"}
    assert rounds[1]["x-shuffle"]["commitment"] == game.deals[1]["shuffle"].commitment
    assert game.deals[1]["shuffle"].seed not in dumps(record_of(game))


@pytest.mark.parametrize("variant,players", [("basic", 3), ("may-i", 4), ("purchase", 3),
                                             ("progressive-15", 4), ("progressive-buy-it", 4)])
def test_whole_game_record_verifies_every_round(variant: str, players: int) -> None:
    game = _fair_game(variant, players, seed=11, rounds=3)
    record = loads(dumps(record_of(game)))
    assert dumps(loads(dumps(record))) == dumps(record)  # the x-shuffle entries survive a round trip
    result = replay(record)
    assert result.exit_code == 0
    assert [v["status"] for v in result.shuffles] == ["verified"] * len(game.deals)
    assert result.to_json()["results"]["totals"] == game.totals


def _played_record(rounds: int = 2) -> dict[str, Any]:
    return to_data(record_of(_fair_game("basic", 3, seed=5, rounds=rounds)))


def test_replay_json_reports_verified(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out = _replay_json(capsys, tmp_path, _played_record())
    assert code == 0 and out["ok"] is True
    assert [v["status"] for v in out["shuffles"]] == ["verified", "verified"]
    assert out["shuffles"][0]["round"] == 1 and len(out["shuffles"][0]["seed"]) == 32


def test_changed_reveal_is_mismatched(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Another seed also reshuffles otherwise, so a later action may turn illegal: exit 1 either way."""
    data = _played_record()
    data["rounds"][1]["x-shuffle"]["seed"] = new_shuffle().seed
    code, out = _replay_json(capsys, tmp_path, data)
    assert code == 1 and out["ok"] is False
    assert [v["status"] for v in out["shuffles"]] == ["verified", "mismatched"]
    assert "SHA-256" in out["shuffles"][1]["reason"]
    data["rounds"][1]["actions"] = data["rounds"][1]["actions"][:3]  # legal whatever the reshuffles
    code, out = _replay_json(capsys, tmp_path, data)
    assert code == 1 and out["error"] == {
        "round": 2, "shuffle": "mismatched", "message": "round 2: the shuffle does not verify: "
        "the commitment is not the SHA-256 of the revealed seed and salt"}
    assert out["results"]["rounds"][0]["round"] == 1


def test_changed_deal_is_mismatched(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Two cards swapped between hands (the actions still legal) no longer match the seed's deal."""
    data = _played_record(rounds=1)
    hands = data["rounds"][0]["hands"]
    stock = data["rounds"][0]["stock"]
    hands[0][0], stock[-1] = stock[-1], hands[0][0]  # a card the round never reached swaps with the hand
    data["rounds"][0]["actions"] = []
    code, out = _replay_json(capsys, tmp_path, data)
    assert code == 1
    verdict = out["shuffles"][0]
    assert verdict["status"] == "mismatched" and "the hand of seat 0" in verdict["reason"]


def test_matching_commitment_for_another_seed_is_mismatched(capsys: pytest.CaptureFixture[str],
                                                            tmp_path: Path) -> None:
    """A forger who rewrites seed, salt and commitment together still fails: the deal differs."""
    data = _played_record(rounds=1)
    forged = new_shuffle()
    data["rounds"][0]["x-shuffle"] = {"commitment": forged.commitment, "seed": forged.seed, "salt": forged.salt}
    data["rounds"][0]["actions"] = []
    code, out = _replay_json(capsys, tmp_path, data)
    assert code == 1 and "differs from the deal played" in out["shuffles"][0]["reason"]


@pytest.mark.parametrize("entry", [{"commitment": "00"}, {"commitment": "a" * 64, "seed": "b" * 32},
                                   {"commitment": "a" * 64, "extra": 1}, "text"])
def test_badly_spelled_entry_is_mismatched(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                           entry: Any) -> None:
    data = _played_record(rounds=1)
    data["rounds"][0]["x-shuffle"] = entry
    code, out = _replay_json(capsys, tmp_path, data)
    assert code == 1 and out["shuffles"][0]["status"] == "mismatched"


def test_record_without_commitments_is_unverifiable(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    game = new_game("basic", 2, seed=4)
    data = to_data(record_of(game))
    assert "x-shuffle" not in data["rounds"][0]
    code, out = _replay_json(capsys, tmp_path, data)
    assert code == 0 and out["shuffles"] == [
        {"round": 1, "status": "unverifiable", "reason": "the round has no commitment"}]


def test_unrevealed_round_is_unverifiable(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    data = _played_record(rounds=1)
    del data["rounds"][0]["x-shuffle"]["seed"], data["rounds"][0]["x-shuffle"]["salt"]
    data["rounds"][0]["actions"] = data["rounds"][0]["actions"][:6]  # a live round, before any reshuffle
    code, out = _replay_json(capsys, tmp_path, data)
    assert code == 0 and out["shuffles"][0]["status"] == "unverifiable"
    assert out["shuffles"][0]["reason"] == "the seed and salt are not revealed"


def test_old_example_records_still_replay() -> None:
    examples = sorted(Path(__file__).parent.parent.joinpath("examples").rglob("*.json"))
    records = [p for p in examples if '"rummy-record/1"' in p.read_text(encoding="utf-8")]
    assert records
    for path in records:
        result = replay(loads(path.read_text(encoding="utf-8")))
        assert result.exit_code in (0, 1), path
        assert all(v["status"] == "unverifiable" for v in result.shuffles), path


def test_replay_text_names_each_verdict(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    data = _played_record()
    data["rounds"][0]["x-shuffle"]["salt"] = new_shuffle().salt
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert main(["replay", str(path)]) == 1
    out = capsys.readouterr().out
    assert "round 1: the shuffle does not verify" in out
    assert "round 1 shuffle: mismatched" in out and "round 2 shuffle: verified" in out


def test_a_search_bots_redacted_game_holds_no_round_seed() -> None:
    game = Game(get_variant("may-i"), 4, seed=2)
    secret = new_shuffle()
    game.deal(dealer=0, shuffle=secret)
    public = redact(game, 1)
    assert public.round_seed is None and public.deals == []
    assert game.round_seed == secret.seed_number
