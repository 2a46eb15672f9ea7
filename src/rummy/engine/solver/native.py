"""The contract solver's queries answered by the compiled core (``rummy.engine._native``), and their dispatch.

Compiled so far: whether a contract can be laid down from a hand (:func:`rummy.engine.solver.can_lay_down`,
the "none" answers of :func:`~rummy.engine.solver.first_lay_down`, and the listing's answer,
:func:`rummy.engine.lay_down.can_lay_down_now`, where it would run the Python search), under a final discard
allowed and nothing required to be used, for every variant and house rule except the mixes below, which the
Python search answers (:func:`lay_down_exists` returns None for them, and the caller runs the Python code):

* ``twos_natural_in_place`` (the Python search splits the twos into wild and natural ones);
* ``final_discard_allowed`` false or ``must_use_all`` true (the lay-down must leave 0 or at least 2 cards, or
  none);
* a contract of more than 16 run or group slots or needing more than 255 cards, a hand that is not a list or
  tuple of 53 counts from 0 to 255 (the Python code raises the engine's errors for a malformed one).

Compiled too: the best lay-down itself (:func:`~rummy.engine.solver.find_lay_down`, through
:func:`best_lay_down`), the same melds, cards and order, with a final discard allowed or not and with or without
``must_use_all`` (the "no final discard" second pass, ``contract._solve_not_one``, included), for every variant
and house rule except ``twos_natural_in_place``, exact contract sizes (``contract_exact_sizes``: their groups are
filled by the explicit search) and the one mix whose groups the Python search fills by its explicit search
(``ContractPlan.label_ok`` false: wilds may not outnumber, same-rank groups allowed, a pair slot refusing wilds);
those go to the Python search.

The Python search stays the reference; ``tests/test_native.py`` compares the two answers on random hands,
contracts and house-rule mixes, and the legal lists of random games played on both backends in lockstep.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

import rummy.engine.backends as backends
from rummy.engine.cards import CARD_COUNT
from rummy.engine.memo import memo_table, put
from rummy.engine.solver.planned import PlannedMeld
from rummy.engine.solver.tables import ContractPlan, VariantRules, rules_for
from rummy.engine.variants import Slot, Variant

__all__ = ["best_lay_down", "best_spec", "contract_spec", "covers", "covers_best", "exists_spec", "lay_down_exists"]

_MAX_SLOTS = 16  # (the C search's MAX_SLOTS)
# id(plan) -> (plan, its spec or None when the compiled search does not cover it).
_SPECS: dict[int, tuple[ContractPlan, bytes | None]] = memo_table("native: contract specs", 1024)
# id(plan) -> (plan, its spec and extra facts for the best lay-down, or None when not covered).
_BEST_SPECS: dict[int, tuple[ContractPlan, tuple[bytes, bytes] | None]] = memo_table("native: best specs", 1024)

Spec = TypeVar("Spec")


def _per_plan(table: dict[int, tuple[ContractPlan, Spec]], rules: VariantRules, plan: ContractPlan,
              make: Callable[[VariantRules, ContractPlan], Spec]) -> Spec:
    """``make(rules, plan)``, kept in ``table`` for the plan object (its id, checked against the plan kept)."""
    known = table.get(id(plan))
    if known is None or known[0] is not plan:
        known = put(table, id(plan), (plan, make(rules, plan)))
    return known[1]


def covers(variant: Variant, final_discard_allowed: bool, must_use_all: bool) -> bool:
    """Whether the compiled search answers for these rules (the module docstring lists what it leaves out)."""
    return final_discard_allowed and not must_use_all and not variant.twos_natural_in_place


def contract_spec(rules: VariantRules, plan: ContractPlan) -> bytes | None:
    """The rules and contract as the C search reads them (``lay_down.c``, ``read_spec``), or None when it does
    not cover them: lo, hi, wild policy, all-wild melds, trio size, same-rank groups, adjacent runs, exact
    sizes, cards needed, the number of run and group slots; each run slot's minimum; each group slot's (size, accepts
    wilds, is a pair); a wild flag per card."""
    if plan.n_runs > _MAX_SLOTS or plan.n_groups > _MAX_SLOTS or plan.need > 255:
        return None
    header = [rules.lo, rules.hi, rules.policy, rules.all_wild, rules.trio_min or 0, rules.same_rank,
              rules.adjacent, rules.exact, plan.need, plan.n_runs, plan.n_groups]
    groups = [int(value) for slot in plan.group_slots for value in slot]
    return bytes(header + list(plan.run_mins) + groups + [int(wild) for wild in rules.wild])


def lay_down_exists(hand: Sequence[int], contract: Sequence[Slot], variant: Variant, final_discard_allowed: bool,
                    must_use_all: bool) -> bool | None:
    """The compiled core's answer to :func:`~rummy.engine.solver.can_lay_down`, or None when the Python search
    answers: the Python backend runs, or the compiled one does not cover the case (see the module docstring).
    """
    native = backends.NATIVE
    if native is None or not covers(variant, final_discard_allowed, must_use_all) or len(hand) != CARD_COUNT:
        return None
    spec = exists_spec(variant, contract)
    if spec is None:
        return None
    found: bool | None = native.lay_down_exists(hand, spec)
    return found


def exists_spec(variant: Variant, contract: Sequence[Slot]) -> bytes | None:
    """What the compiled :func:`lay_down_exists` is handed for ``contract`` under ``variant`` (memoised per contract
    plan), or None when it does not cover them (an impossible contract, or one :func:`contract_spec` leaves out); the
    rules :func:`covers` tests are the caller's."""
    rules = rules_for(variant)
    plan = rules.plan(contract)
    if plan.impossible:
        return None
    return _per_plan(_SPECS, rules, plan, contract_spec)


def covers_best(rules: VariantRules, plan: ContractPlan) -> bool:
    """Whether the compiled best lay-down answers for these rules and this contract (besides
    ``twos_natural_in_place``, which it never covers; every ``final_discard_allowed`` and ``must_use_all``): the
    contract is possible, sizes are not exact, and the group slots are filled by the label search
    (``ContractPlan.label_ok``; the Python search's explicit group search answers the others)."""
    return not plan.impossible and not rules.exact and plan.label_ok


def best_spec(rules: VariantRules, plan: ContractPlan) -> tuple[bytes, bytes] | None:
    """The rules and contract as ``best_lay_down.c`` reads them: :func:`contract_spec`, and the contract place of each
    sorted run slot and group slot and the points of each card (``read_rules``); None when not covered."""
    spec = contract_spec(rules, plan)
    if spec is None or not covers_best(rules, plan) or max(rules.points) > 255 or min(rules.points) < 0:
        return None
    return spec, bytes([*plan.run_index, *plan.group_index, *rules.points])


def best_lay_down(hand: Sequence[int], contract: Sequence[Slot], variant: Variant, final_discard_allowed: bool,
                  must_use_all: bool) -> tuple[tuple[PlannedMeld, ...] | None] | None:
    """The compiled core's answer to :func:`~rummy.engine.solver.find_lay_down` as a 1-tuple (the lay-down, or
    None when there is none), or None when the Python search answers: the Python backend runs, or the compiled
    one does not cover the case (``twos_natural_in_place``, the rules and contracts :func:`covers_best` leaves
    out; a malformed hand).
    """
    native = backends.NATIVE
    if native is None or variant.twos_natural_in_place or len(hand) != CARD_COUNT:
        return None
    rules = rules_for(variant)
    plan = rules.plan(contract)
    specs = _per_plan(_BEST_SPECS, rules, plan, best_spec)
    if specs is None:
        return None
    found = native.best_lay_down(hand, specs[0], specs[1], final_discard_allowed, must_use_all)
    if found is None:
        return None
    if found is False:
        return (None,)
    return (tuple([PlannedMeld(kind, cards, declared) for kind, cards, declared in found]),)
