# source: https://github.com/patrick-kidger/diffrax/pull/689
# title: Added benchmarking FAQ (diffrax docs/further_details/faq.md, "How do I benchmark Diffrax?")
# established-by: maintainer patrick-kidger (the FAQ's template, reviewed with lockwo and johannahaffner)
# cause: Correct benchmark code: the function is jitted once, checked to trace only once (`eqx.debug.assert_max_traces`), called once to compile before any timing, and then timed with `timeit.repeat` over 20 single calls, each waited for with `jax.block_until_ready`, keeping the minimum. The `...` body and input are the template's placeholders. Code: the template as the pull request adds it.
# static: none
# dynamic: n/a
# inferred: none
# lines: none
# first-sight: c3b020c 2026-12-02 py: found none; missed none; false none | notebook: found none; missed none; false none

import equinox as eqx
import jax
import timeit

@jax.jit
@eqx.debug.assert_max_traces(max_traces=1)
def run(x):
    ...

x = ...
run(x)  # compile
execution_time = min(timeit.repeat(lambda: jax.block_until_ready(run(x)), number=1, repeat=20))
