"""Item 13: a callable returning a generator, map or filter timed the creation, not the work: it says so."""

import numpy as np
import pytest

import levelbench

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
