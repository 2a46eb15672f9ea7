"""The solver's answer: :class:`PlannedMeld`, one meld of a planned lay-down.

A planned meld is exactly a :class:`rummy.engine.melds.MeldSpec` — the meld as an action writes it — so a
lay-down from the solver can be sent as a ``down`` action unchanged.  ``cards`` of a run run from low
to high, each wild at the position it stands for; a set or pair lists its naturals (sorted) and then
its wilds.  ``declared`` is only given for a meld without a natural card.
"""

from __future__ import annotations

from rummy.engine.melds import MeldSpec as PlannedMeld

__all__ = ["PlannedMeld"]
