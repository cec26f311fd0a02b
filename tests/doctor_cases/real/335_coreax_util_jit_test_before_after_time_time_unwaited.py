# source: https://github.com/gchq/coreax/issues/470
# title: [Bug]: `jit_test` does not block_until_ready: coreax's `jit_test` helper, used by many of its tests and performance checks, times a first (compiling) and a second run of a function with `time.time()` and never waits for either result
# established-by: maintainer tc85324 (a coreax developer; the issue was labelled `bug` by the team and closed, and the later `coreax/util.py` wraps each timed call in `block_until_ready`)
# cause: `jit_test` reads `time.time()` around `fn(*args, **kwargs)` twice and returns the two intervals, the 'before and after' of jit compilation. Neither call's result is waited for, so, as the issue says, the timings do not account for JAX's asynchronous dispatch and can under-report the true cost (LB102 at both timed calls). The first run is the compile timed on purpose (the docstring: 'comparing timings of a before and after run'; `fn` is often a fresh lambda 'to ensure that the function or method is recompiled'), and it is timed again warm right after, so no LB103 or LB104 there (the corpus's reading of 200, 202, 287 and 305). The second run is one warm sample between two clock reads (LB104 at the first statement inside that pair, 287's and 305's reading), and both intervals are read from the wall clock (LB105 at both start reads). Code: `coreax/util.py` as stored at commit 8909d63 (a version before the fix), trimmed to its imports and `jit_test`; the license header, the distance helpers, `solve_qp` and `SilentTQDM` are left out.
# static: LB102, LB104, LB105
# dynamic: n/a
# inferred: LB104 (one warm sample after the compile timed on purpose; the issue is about the missing wait only), LB105 (`time.time()` as the clock; not discussed)
# lines: LB102:50/54, LB104:54, LB105:49/53

"""
Functionality to perform simple, generic tasks and operations.

The functions within this module are simple solutions to various problems or
requirements that are sufficiently generic to be useful across multiple areas of the
codebase. Examples of this include computation of squared distances, definition of
class factories and checks for numerical precision.
"""

# Support annotations with | in Python < 3.10
from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from typing import TypeVar

import jax.numpy as jnp
from jax import Array, jit, vmap
from jax.typing import ArrayLike
from jaxopt import OSQP

import coreax.validation


def jit_test(fn: Callable, *args, **kwargs) -> tuple[float, float]:
    """
    Verify JIT performance by comparing timings of a before and after run of a function.

    The function is called with supplied arguments twice, and timed for each run. These
    timings are returned in a 2-tuple.

    Note that `fn` often uses a lambda wrapper around a function or method call (see
    performance tests) to ensure that the function or method is recompiled when called
    multiple times, to truly test the JIT performance. In some cases, not doing this
    will result in the re-use of previously cached information.

    :param fn: Function callable to test
    :return: (First run time, Second run time)
    """
    start_time = time.time()
    fn(*args, **kwargs)
    end_time = time.time()
    pre_delta = end_time - start_time
    start_time = time.time()
    fn(*args, **kwargs)
    end_time = time.time()
    post_delta = end_time - start_time
    return pre_delta, post_delta
