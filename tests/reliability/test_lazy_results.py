"""Item 13: a callable returning a generator, map or filter timed the creation, not the work: it says so."""

import numpy as np
import pytest

import levelbench
from levelbench._measuring.sampler import cold_call

pytestmark = pytest.mark.reliability


@pytest.mark.parametrize("make", [lambda x: map(np.sin, [x] * 10), lambda x: filter(None, [x]),
                                  lambda x: (np.sin(v) for v in [x])], ids=["map", "filter", "generator"])
def test_a_lazy_result_is_reported(make):
    x = np.ones(3)
    m = levelbench.measure(make, x, budget=0.05, environment=False)
    (f,) = [f for f in m.findings if f.code == "LB001"]
    assert "lazy" in f.title and "list(" in f.fix


def test_a_list_result_is_not_reported():
    m = levelbench.measure(lambda: list(map(np.sin, [np.ones(3)] * 10)), budget=0.05, environment=False)
    assert not [f for f in m.findings if f.code == "LB001"]


# Defect 15: an async function timed the creation of a coroutine, with no LB001, and every coroutine
# created leaked a "coroutine ... was never awaited" RuntimeWarning.
def test_an_async_function_is_reported_and_its_coroutines_are_closed(recwarn):
    import gc

    async def co():
        return 1

    m = levelbench.measure(co, budget=0.05, environment=False)
    (f,) = [f for f in m.findings if f.code == "LB001"]
    assert "coroutine" in f.title and "nothing ran" in f.title and "asyncio.run(co())" in f.fix
    cold = cold_call(co, (), {})  # %lbtime's one call
    assert [f.code for f in cold.findings] == ["LB001"]
    gc.collect()
    assert not [w for w in recwarn if "never awaited" in str(w.message)], [str(w.message) for w in recwarn]
