"""What the GRU's and the LSTM's tests share: the options grid and the native kernel's fixtures.

Each test module names the grid's fourth option after its own initial state (``with_h0``,
``with_hx``); the cases are the same.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from levelbench.nn import _rnn_kernel, _rnn_native

# Every option both ways (num_layers, bidirectional, batch_first, with an initial state, bias),
# in 8 cases (a pairwise cover); GRID adds the rest of the 32-case grid, marked slow.
PAIRWISE = [
    (1, False, False, False, True), (1, True, True, True, True), (2, False, True, True, False),
    (2, True, False, False, False), (1, False, True, False, False), (2, True, True, False, True),
    (2, False, False, True, True), (1, True, False, True, False),
]
GRID = PAIRWISE + [pytest.param(*case, marks=pytest.mark.slow)
                   for case in itertools.product((1, 2), (False, True), (False, True), (False, True), (False, True))
                   if case not in PAIRWISE]

NATIVE = _rnn_kernel.Kernel(native=True)
XLA = _rnn_kernel.Kernel()


@pytest.fixture
def native():
    """The kernel, built; skips only where this machine has no C++ compiler at all."""
    if _rnn_native._compiler() is None:
        pytest.skip("no C++ compiler on this machine: the native kernels cannot be built")
    current = _rnn_native.status()
    assert current.available, current.detail
    return current


@pytest.fixture
def reload_afterwards():
    """For tests that change what the kernel loader sees: it looks again before the next test."""
    _rnn_native._reset()
    yield
    _rnn_native._reset()


def assert_the_xla_loops_run_instead(*said: str) -> None:
    """The kernel could not be had: one RuntimeWarning says so, `status` says why (each of ``said`` is in
    its detail) and `describe` names the XLA loops for result tables."""
    with pytest.warns(RuntimeWarning, match="without its native CPU kernel"):
        current = _rnn_native.status()
    assert not current.available
    for words in said:
        assert words in current.detail, current.detail
    assert _rnn_native.describe().startswith("XLA loops (")


def assert_same_params(got: dict, expected: dict) -> None:
    """The same parameter names, dtypes and values, bit for bit (a round trip through torch)."""
    assert sorted(got) == sorted(expected)
    for name in expected:
        assert got[name].dtype == expected[name].dtype, name
        np.testing.assert_array_equal(np.asarray(got[name], np.float64), np.asarray(expected[name], np.float64))
