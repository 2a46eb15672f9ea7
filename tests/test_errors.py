"""The error hierarchy: every error the engine raises on bad input is a RummyError of the fitting kind."""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from rummy.bots import make_bot
from rummy.engine.cards import parse_card
from rummy.engine.errors import (
    RULE_DESCRIPTIONS,
    BotError,
    DealError,
    IllegalActionError,
    MeldError,
    RecordError,
    RecordSyntaxError,
    Rule,
    RummyError,
    UsageError,
    VariantError,
)
from rummy.engine.game import Game, Phase, new_game
from rummy.engine.house_rules import get_variant
from rummy.engine.melds import MeldSpec, table_meld
from rummy.engine.solver import find_lay_down
from rummy.engine.view import player_view
from rummy.record import loads, prepare


def test_every_error_class_is_a_rummy_error() -> None:
    for error in (RecordError, RecordSyntaxError, VariantError, DealError, IllegalActionError, MeldError,
                  BotError, UsageError):
        assert issubclass(error, RummyError)
    # A syntax error is one way a record is malformed (exit code 2 of a replay, like a bad key).
    assert issubclass(RecordSyntaxError, RecordError)


def test_a_bad_meld_raises_a_meld_error_with_its_rule() -> None:
    spec = MeldSpec("set", (parse_card("3H"), parse_card("4H"), parse_card("5H")))
    with pytest.raises(RummyError) as caught:
        table_meld(spec, get_variant("basic"), 1, 0)
    assert isinstance(caught.value, MeldError)
    assert caught.value.rule == "set-mixed-ranks"


def test_a_deal_that_does_not_fit_raises_a_deal_error() -> None:
    with pytest.raises(DealError, match="rounds 1–"):
        Game(get_variant("may-i"), 4, start_round=9)


def test_a_record_with_a_bad_action_is_malformed() -> None:
    record = loads('{"format": "rummy-record/1", "variant": "basic", "players": ["A", "B"], "rounds": '
                   '[{"dealer": 0, "hands": [[], []], "upcard": "2C", "actions": ["p0 fly"]}]}')
    with pytest.raises(RecordError, match="round 1: unknown verb"):
        prepare(record)


@pytest.mark.parametrize("call,fragment", [
    (lambda: player_view(new_game("basic", 2, seed=1), 5), "no seat 5"),
    (lambda: _over_game().next_to_act(), "nobody is to act"),
    (lambda: find_lay_down([0] * 10, get_variant("may-i").round_rules(1, 4).contract, get_variant("may-i")),
     "count vector"),
])
def test_a_call_that_does_not_fit_the_game_raises_a_usage_error(call: Callable[[], object], fragment: str) -> None:
    with pytest.raises(UsageError, match=fragment):
        call()


def _over_game() -> Game:
    game = new_game("basic", 2, seed=1)
    game.phase = Phase.GAME_OVER
    return game


@pytest.mark.parametrize("name,options,fragment", [
    ("nobody", {}, "unknown bot"),
    ("greedy", {"colour": "red"}, "unknown greedy option"),
    ("heuristic", {"rummy": "always"}, "off, near or hold"),
    ("ismcts", {"simulations": 0}, "at least 1"),
])
def test_bad_bot_options_raise_a_bot_error(name: str, options: dict[str, object], fragment: str) -> None:
    with pytest.raises(BotError, match=fragment):
        make_bot(name, **options)


# -- the Rule enum against the source ---------------------------------------------------------------

SOURCE = Path(__file__).resolve().parents[1] / "src" / "rummy"
#: Callables whose argument at this position is a rule key; functions that pass one of their own
#: parameters on to these (``play._illegal``) are found and added by :func:`_raisers`.
RULE_TAKERS = {"IllegalActionError": 0, "MeldError": 0}
#: Functions that return ``(rule, reason)`` for a caller to raise are recognised by this annotation.
RULE_TUPLE_ANNOTATIONS = ("tuple[str, str]", "tuple[Rule, str]")


def _name(call: ast.Call) -> str | None:
    func = call.func
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None


def _argument(call: ast.Call, position: int, name: str) -> ast.expr | None:
    """The argument of ``call`` at ``position`` or, failing that, by keyword ``name``."""
    if position < len(call.args):
        return call.args[position]
    return next((k.value for k in call.keywords if k.arg == name), None)


def _parameters(function: ast.FunctionDef) -> list[str]:
    return [a.arg for a in (*function.args.posonlyargs, *function.args.args)]


def _functions(trees: list[ast.Module]) -> list[ast.FunctionDef]:
    return [node for tree in trees for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)]


def _raisers(functions: list[ast.FunctionDef]) -> dict[str, int]:
    """RULE_TAKERS and every function that forwards one of its parameters to one of them."""
    takers = dict(RULE_TAKERS)
    changed = True
    while changed:
        changed = False
        for function in functions:
            parameters = _parameters(function)
            for call in (n for n in ast.walk(function) if isinstance(n, ast.Call)):
                position = takers.get(_name(call) or "")
                argument = None if position is None else _argument(call, position, "rule")
                if isinstance(argument, ast.Name) and argument.id in parameters and function.name not in takers:
                    takers[function.name] = parameters.index(argument.id)
                    changed = True
    return takers


def _key(node: ast.expr | None) -> str | None:
    """The rule key a literal or ``Rule.MEMBER`` names (None for anything else)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "Rule":
        return str(Rule[node.attr])
    return None


def _expansions(template: ast.JoinedStr, function: ast.FunctionDef, functions: list[ast.FunctionDef],
                ) -> list[str] | None:
    """Every string an f-string key makes, from the literal arguments of every call of its function."""
    texts = [""]
    parameters = _parameters(function)
    for part in template.values:
        if isinstance(part, ast.Constant):
            texts = [text + str(part.value) for text in texts]
            continue
        assert isinstance(part, ast.FormattedValue)
        if not isinstance(part.value, ast.Name) or part.value.id not in parameters:
            return None
        position = parameters.index(part.value.id)
        values = [
            _key(_argument(call, position, part.value.id))
            for other in functions for call in ast.walk(other)
            if isinstance(call, ast.Call) and _name(call) == function.name
        ]
        if not values or None in values:
            return None
        texts = [text + str(value) for text in texts for value in values]
    return texts


def _rule_keys_in_source() -> tuple[dict[str, set[str]], list[str]]:
    """Every rule key the engine raises (key → where), and the keys it builds in a way not followed."""
    modules = {path: ast.parse(path.read_text(encoding="utf-8")) for path in sorted(SOURCE.rglob("*.py"))}
    functions = _functions(list(modules.values()))
    takers = _raisers(functions)
    found: dict[str, set[str]] = {}
    unresolved = []
    for path, tree in modules.items():
        where = str(path.relative_to(SOURCE))
        for function in (n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)):
            for node in ast.walk(function):
                keys: list[str] | None = []
                if isinstance(node, ast.Call) and _name(node) in takers:
                    argument = _argument(node, takers[_name(node) or ""], "rule")
                    if isinstance(argument, ast.JoinedStr):
                        keys = _expansions(argument, function, functions)
                    elif _key(argument) is not None:
                        keys = [_key(argument) or ""]
                elif (isinstance(node, ast.Return) and isinstance(node.value, ast.Tuple) and function.returns
                      and any(a in ast.unparse(function.returns) for a in RULE_TUPLE_ANNOTATIONS)):
                    key = _key(node.value.elts[0])
                    keys = [key] if key is not None else []
                if keys is None:
                    unresolved.append(f"{where}:{node.lineno}")
                for key in keys or ():
                    found.setdefault(key, set()).add(f"{where}:{node.lineno}")
    return found, unresolved


def test_every_rule_key_raised_is_a_rule_and_every_rule_is_raised() -> None:
    found, unresolved = _rule_keys_in_source()
    assert not unresolved, f"rule keys built in a way this test cannot follow: {unresolved}"
    unknown = {key: sorted(where) for key, where in found.items() if key not in set(Rule)}
    assert not unknown, f"rule keys raised but missing from rummy.engine.errors.Rule: {unknown}"
    never = sorted(rule.value for rule in Rule if rule.value not in found)
    assert not never, f"Rule members the engine never raises: {never}"
    # The f-string keys of play._check_timing were followed (a sample).
    assert {"layoff-before-next-turn", "rearrange-before-down"} <= set(found)


def test_every_rule_has_a_one_line_description() -> None:
    assert set(RULE_DESCRIPTIONS) == set(Rule)
    for rule in Rule:
        assert rule.description and "\n" not in rule.description
        assert rule.value == rule.value.lower() and " " not in rule.value


def test_an_error_keeps_its_rule_as_a_rule_and_refuses_an_unknown_key() -> None:
    error = IllegalActionError("layoff-before-next-turn", "p0 layoff 1 5H", "not yet")
    assert error.rule is Rule.LAYOFF_BEFORE_NEXT_TURN
    assert error.rule == "layoff-before-next-turn"
    assert json.dumps({"rule": error.rule}) == '{"rule": "layoff-before-next-turn"}'
    assert MeldError(Rule.PAIR_WILDS, "no").rule is Rule.PAIR_WILDS
    with pytest.raises(ValueError, match="no-such-rule"):
        IllegalActionError("no-such-rule", "p0 draw", "a typo in the engine")


def test_the_errors_doc_lists_exactly_the_rules() -> None:
    doc = (Path(__file__).resolve().parents[1] / "docs" / "errors.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| `([a-z-]+)` \| (.+) \|$", doc, re.MULTILINE)
    assert rows == [(rule.value, rule.description) for rule in Rule]
