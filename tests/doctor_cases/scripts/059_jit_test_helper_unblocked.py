# case: real/059_jit_test_helper_unblocked.py
# form: script
# causes: LB102:28/32
# changed: jit_test kept as posted; a call of it added below (coreax's performance tests call it with a lambda wrapping a jitted function): imports of jax, a jitted matmul and a 300x300 input
# note: both intervals (closing reads on the two `end_time = time.time()` lines) return before the work is done (LB102). Not labelled LB103: jit_test times the first, compiling call on purpose (its docstring: a before and after run)

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


import jax
import jax.numpy as jnp

matmul = jax.jit(lambda x: (x @ x.T) @ x)
x = jnp.ones((300, 300))
print(jit_test(lambda: matmul(x)))
