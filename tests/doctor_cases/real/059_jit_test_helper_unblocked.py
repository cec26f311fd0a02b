# source: https://github.com/gchq/coreax/issues/470
# title: [Bug]: `jit_test` does not block_until_ready
# established-by: maintainer tc85324
# cause: coreax's jit_test helper times a first (compiling) and a second call of a function without block_until_ready, so under JAX's asynchronous dispatch both timings can under-report the real cost; the maintainers filed and fixed it as a bug. Code: jit_test from coreax/util.py before the fix.
# static: LB102, LB105
# dynamic: n/a
# inferred: LB105 (time.time() as the interval clock; the issue did not discuss it)
# lines: LB102:31/35, LB105:30/34
# first-sight: 43b52af 2026-12-02 py: found none; missed LB102:31/35, LB105:30/34; false none | notebook: found none; missed LB102:31/35, LB105:30/34; false none

import time
from typing import Callable


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
