"""Item 12: a call slower than the budget gets the minimum samples, LB008 with its per-call time, and
no more calls than that (on a fake clock: deterministic)."""

import numpy as np
import pytest

import levelbench
from conftest import FakeClock

pytestmark = pytest.mark.reliability


@pytest.mark.parametrize("framework", ["numpy", "jax"])
def test_a_call_slower_than_the_budget_takes_the_minimum_samples_and_says_so(framework):
    clock = FakeClock()
    if framework == "jax":
        import jax.numpy as jnp

        result = jnp.ones(3)
    else:
        result = np.ones(3)
    m = levelbench.measure(clock.work(1.0, result=result), budget=0.5, min_samples=5, timer=clock, environment=False)
    assert m.n_samples == 5
    # the first call, at most one unblocked call (JAX), and the five samples: not 13 calls (26x the budget)
    assert clock.calls <= 7 and m.total_time <= 7.0
    (lb008,) = [f for f in m.findings if f.code == "LB008"]
    assert "one call takes 1 s" in lb008.title and "500 ms" in lb008.title
