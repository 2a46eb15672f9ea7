"""``GET /api/tables/{id}/arrange`` and ``/layoffs``: the browser's meld builder asks the engine to order the
cards a player picked (aces, wilds, twos in place) instead of guessing the rules itself."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from rummy.engine import MeldError, arrange_json
from rummy.engine.variants import VARIANTS
from rummy.server.http.models import ArrangedMeld
from tests.server.conftest import LiveServer, Player, run, seated_table, start_game


async def arrange_answers(server: LiveServer) -> None:
    table_id, players = await seated_table(server, ["Ann", "Bob", "Cid"], variant="progressive-15", seats=3,
                                           claim_seconds=0, options={"twos_natural_in_place": True})
    ann = players[0]
    base = f"/api/tables/{table_id}"
    answer = await ann.http("GET", f"{base}/arrange", params={"meld": "run:AH-KH-QH"})
    assert answer.status_code == 200, answer.text
    assert answer.json() == {"spec": "run:QH-KH-AH", "kind": "run", "cards": ["QH", "KH", "AH"],
                             "as": ["QH", "KH", "AH"], "wild": [False, False, False]}
    twos = (await ann.http("GET", f"{base}/arrange", params={"meld": "run:4S-2S-3S"})).json()
    assert twos["cards"] == ["2S", "3S", "4S"] and twos["wild"] == [False, False, False]
    # Cards that make no meld: a question answered (200), with the engine's rule and sentence.
    refused = await ann.http("GET", f"{base}/arrange", params={"meld": "run:3H-4S-5H"})
    assert refused.status_code == 200 and refused.json()["refused"]["rule"] == "run-mixed-suits"
    assert "mixes suits" in refused.json()["refused"]["message"]
    declare = await ann.http("GET", f"{base}/arrange", params={"meld": "set:JK-JK-JK"})
    assert declare.json()["refused"]["rule"] == "declaration-required"
    declared = (await ann.http("GET", f"{base}/arrange", params={"meld": "set:JK-JK-JK=Q"})).json()
    assert declared["spec"] == "set:JK-JK-JK=Q" and declared["as"] == ["Q*", "Q*", "Q*"]
    bad = await ann.http("GET", f"{base}/arrange", params={"meld": "run:3H-XX"})
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "syntax"
    nobody = await Player(server, "Nobody").http("GET", "/api/tables/nosuchtable/arrange", params={"meld": "set:7H"})
    assert nobody.status_code == 404
    not_started = await ann.http("GET", f"{base}/layoffs", params={"meld": "1", "cards": "4H"})
    assert not_started.status_code == 404 and not_started.json()["error"]["code"] == "not-started"
    await start_game(ann)
    no_meld = await ann.http("GET", f"{base}/layoffs", params={"meld": "1", "cards": "4H"})
    assert no_meld.status_code == 404 and no_meld.json()["error"]["code"] == "not-found"
    for player in players:
        await player.close()
    # A table that leaves a set of wilds undeclared (may-i): the meld is answered with no rank (a refusal of
    # the answer's own shape once made this a 500)
    may_i, others = await seated_table(server, ["Ann", "Bob", "Cid"], variant="may-i", seats=3, claim_seconds=0)
    wilds = await others[0].http("GET", f"/api/tables/{may_i}/arrange", params={"meld": "set:JK-2D-JK"})
    assert wilds.status_code == 200, wilds.text
    assert wilds.json() == {"spec": "set:2D-JK-JK", "kind": "set", "cards": ["2D", "JK", "JK"], "as": None,
                            "wild": [True, True, True]}
    for player in others:
        await player.close()


def test_the_engine_orders_a_picked_meld(live_server: LiveServer) -> None:
    run(arrange_answers(live_server))


@settings(max_examples=300, deadline=None)
@given(variant=st.sampled_from(sorted(VARIANTS)), kind=st.sampled_from(["set", "run"]),
       cards=st.lists(st.sampled_from(["JK", "2D", "2H", "3D", "4D", "5D", "7C", "7S", "AH", "KH", "QH"]),
                      min_size=1, max_size=6))
def test_every_arranged_meld_fits_the_answer_model(variant: str, kind: str, cards: list[str]) -> None:
    """What the engine answers for any picked cards, the route's response model accepts (a mismatch is a 500)."""
    try:
        arranged = arrange_json(f"{kind}:{'-'.join(cards)}", VARIANTS[variant])
    except MeldError:
        return
    ArrangedMeld.model_validate(arranged)
