"""Settings every test shares: the Hypothesis profiles of :mod:`tests.profiles`, and slow tests first.

No deadline (the machine may be busy: a test never asserts a time) and no health check for slow
data generation (a whole game is one example); the example count comes from each test's
``examples(...)``.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, settings

from tests.profiles import PROFILE, SCALES

for name in SCALES:
    settings.register_profile(name, deadline=None, print_blob=True,
                              suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much,
                                                     HealthCheck.function_scoped_fixture])
settings.load_profile(PROFILE)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The tests marked slow run first (the order is otherwise kept): the parallel workers then end
    together on short tests instead of one of them finishing a long one alone."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)
