"""What LB104 counts as one sample, and what it leaves alone because the program times it on purpose.

- A timer block (``with Timer():``, any context manager that times its body) around one run is one sample, as a
  clock pair is; with a loop inside it is a total over the loop, in a loop one figure per pass: neither is reported.
- A first call timed to measure compilation is not a sample to repeat: when the code says so (a comment, the words
  it prints or the name it keeps the figure under) or times the same call again warm right after, the warm-up and
  repeats LB104's fix asks for would take the compile out of a figure whose point is the compile. The second, warm
  figure is one sample like any other. The same reading makes LB103 quiet on that first call
  (`levelbench.doctor._intent`). A JAX operation called outside jit (``jnp.dot(x, x.T)``) compiles for its shapes at
  its first call as a jitted function does: timed cold, then warm, it reads the same way (case 305).
- IPython's ``%time`` is the one run it announces (one ``Wall time``; ``%timeit`` is its repeating companion): not
  LB104, warm or cold; LB103 still reports a cold first call of a jitted function in it. A clock pair around the same
  call is one sample.
- A helper called once per function it is handed, written out one call at a time (``time_func(numpy, "numpy")``,
  ``time_func(jax_jit, "jax_jit")``, two different functions at least), takes one sample of each: LB104 at the call
  of the parameter, when a function handed to it does framework work (case 303).
- A helper called once per setting of a flag, written out (``run_estimate(..., jit_enabled=False)``, then ``True``),
  takes one sample of each; a timed call whose result the timing waits for with ``block_until_ready`` is JAX work,
  whatever library the callee comes from (case 310).
- A timer whose only use of the interval is a log line (``logging.info("%s took %.2fs", name, dt)``) reports
  progress on an activity, not a measurement: neither LB103 nor LB104 (haiku's ``time_activity`` in its examples).
"""

from __future__ import annotations

import textwrap

from levelbench.doctor import lint_source


def lb104_lines(source: str) -> list[int]:
    return sorted(d.location.line for d in lint_source(textwrap.dedent(source), "bench.py") if d.code == "LB104")


HEADER = """
import time
import jax
import jax.numpy as jnp
from contextlib import contextmanager

@contextmanager
def stopwatch(label):
    t0 = time.perf_counter()
    yield
    print(label, time.perf_counter() - t0)

@jax.jit
def solve(a):
    return jnp.linalg.solve(a, a.sum(axis=1))

a = jnp.eye(512) * 3.0
"""


def test_a_timer_block_around_one_run_is_one_sample():
    src = HEADER + """
solve(a).block_until_ready()
with stopwatch("solve"):
    solve(a).block_until_ready()
"""
    assert lb104_lines(src) == [len(HEADER.splitlines()) + 4]  # at the timed statement, as for a clock pair


def test_a_timer_block_around_a_loop_or_inside_one_is_not_one_sample():
    total = HEADER + """
solve(a).block_until_ready()
with stopwatch("100 solves"):
    for _ in range(100):
        solve(a).block_until_ready()
"""
    per_pass = HEADER + """
solve(a).block_until_ready()
for _ in range(20):
    with stopwatch("solve"):
        solve(a).block_until_ready()
"""
    assert lb104_lines(total) == [] and lb104_lines(per_pass) == []


def test_a_first_call_said_to_time_compilation_is_left_alone_and_the_same_words_elsewhere_are_not():
    said = HEADER + """
start = time.perf_counter()
solve(a).block_until_ready()
print(f"compile + first run: {time.perf_counter() - start:.3f} s")
"""
    kept = HEADER + """
start = time.perf_counter()
solve(a).block_until_ready()
jit_seconds = time.perf_counter() - start
report = {"jit_time": jit_seconds}
"""
    unsaid = HEADER + """
start = time.perf_counter()
solve(a).block_until_ready()
print(f"solve: {time.perf_counter() - start:.3f} s")
"""
    assert lb104_lines(said) == [] and lb104_lines(kept) == []
    assert lb104_lines(unsaid) == [len(HEADER.splitlines()) + 3]


def test_timed_cold_then_warm_leaves_the_cold_figure_alone_and_reports_the_warm_one():
    src = HEADER + """
with stopwatch("solve"):
    solve(a).block_until_ready()
with stopwatch("solve"):
    solve(a).block_until_ready()
"""
    n = len(HEADER.splitlines())
    assert lb104_lines(src) == [n + 5]


def test_a_warm_call_said_to_be_compile_time_is_still_one_sample():
    # the words are wrong: it was called before, so nothing compiles in it, and the figure is one warm run
    src = HEADER + """
solve(a).block_until_ready()
start = time.perf_counter()
solve(a).block_until_ready()
print(f"compile time: {time.perf_counter() - start:.3f} s")
"""
    assert lb104_lines(src) == [len(HEADER.splitlines()) + 4]


ACTIVITY = HEADER.replace("import time\n", "import time\nimport logging\n", 1) + """
@contextmanager
def activity(name):
    start = time.perf_counter()
    yield
    {report}

solve(a).block_until_ready()
"""


def test_a_timer_that_only_logs_an_activity_is_a_progress_line_not_a_measurement():
    logged = ACTIVITY.format(report='logging.info("%s took %.2fs", name, time.perf_counter() - start)')
    printed = ACTIVITY.format(report='print(name, time.perf_counter() - start)')
    timed = 'with activity("final solve"):\n    solve(a).block_until_ready()\n'
    first = 'with activity("first solve"):\n    solve(a * 2.0).block_until_ready()\n'
    assert lb104_lines(logged + timed) == []
    assert lb104_lines(printed + timed) == [len((printed + timed).splitlines())]
    cold = {d.code for d in lint_source(textwrap.dedent(logged.replace("solve(a).block_until_ready()\n", "") + first),
                                        "bench.py")}
    assert "LB103" not in cold and "LB104" not in cold
    cold_printed = {d.code for d in lint_source(
        textwrap.dedent(printed.replace("solve(a).block_until_ready()\n", "") + first), "bench.py")}
    assert "LB103" in cold_printed


def test_a_time_magic_is_the_one_run_it_announces_and_a_clock_pair_around_the_same_call_is_one_sample():
    a = "a = jnp.eye(64)\n"
    warm = a + "solve(a).block_until_ready()\n%time solve(a).block_until_ready()\n"
    cold = a + "%time solve(a).block_until_ready()\n"
    assert lb104_lines(HEADER + warm) == [] and lb104_lines(HEADER + cold) == []
    cold_codes = {d.code for d in lint_source(textwrap.dedent(HEADER + cold), "bench.py")}
    assert "LB103" in cold_codes  # what the one run holds is still reported
    pair = a + "solve(a).block_until_ready()\nt0 = time.perf_counter()\nsolve(a).block_until_ready()\nprint(time.perf_counter() - t0)\n"
    assert lb104_lines(HEADER + pair) == [len((HEADER + pair).splitlines()) - 1]  # at the timed call


DECORATED = """
import functools
import time
import jax
import jax.numpy as jnp

def timed(fn):
    @functools.wraps(fn)
    def _timer(*args, **kwargs):
        start = {clock}()
        {run}
        end = {clock}()
        return {answer}
    return _timer

@jax.jit
def step(x):
    return x @ x

@timed
def time_step(x):
    step(x).block_until_ready()

x = jnp.ones((500, 500))
time_step(x)
elapsed = time_step(x)
for _ in range(3):
    many = time_step(x)
print(elapsed, many)
"""


def decorated(clock: str = "time.perf_counter_ns", run: str = "fn(*args, **kwargs)", answer: str = "end - start") -> str:
    return DECORATED.format(clock=clock, run=run, answer=answer)


def test_each_kept_figure_of_a_timing_decorator_is_one_sample():
    """``@timed`` reads the clock around one call of the function it decorates (diffrax's small_neural_ode.py,
    case 271): ``elapsed = time_step(x)`` is one sample. The warm-up whose figure is thrown away is no timing."""
    for clock in ("time.perf_counter_ns", "time.time"):
        source = decorated(clock=clock)
        kept = textwrap.dedent(source).splitlines().index("elapsed = time_step(x)") + 1
        assert kept in lb104_lines(source)
        assert kept - 1 not in lb104_lines(source)  # the warm-up `time_step(x)`
        assert kept + 2 not in lb104_lines(source)  # `many = time_step(x)` in a loop: a figure per pass


def test_a_decorator_that_hands_back_the_result_times_no_figure_the_caller_keeps():
    source = decorated(run="result = fn(*args, **kwargs)", answer="result")
    kept = textwrap.dedent(source).splitlines().index("elapsed = time_step(x)") + 1
    assert kept not in lb104_lines(source)


SETTINGS = """
import functools
import timeit
import jax
import jax.numpy as jnp

def cg(a, b):
    return jnp.linalg.solve(a, b)

def lu(a, b):
    return jax.scipy.linalg.lu_solve(jax.scipy.linalg.lu_factor(a), b)

solvers = [("CG", cg), ("LU", lu)]
a = jnp.eye(50) * 2.0
b = jnp.ones(50)
{loop}
"""


def test_a_loop_over_written_out_settings_times_each_one_once():
    # lineax's solver_speeds.py (case 284): each pass builds its solver from the loop variable, warms it and times it
    # with `timeit(number=1)`: one sample per solver, whatever the loop's length
    passes = [
        "for name, solver in solvers:\n    solve = jax.jit(solver)\n    bench = functools.partial(solve, a, b)\n"
        "    bench()\n    print(name, timeit.timeit(bench, number=1))",
        "for name, solver in [('CG', cg), ('LU', lu)]:\n    f = jax.jit(solver)\n    f(a, b)\n"
        "    print(name, timeit.timeit(lambda: f(a, b).block_until_ready(), number=1))",
    ]
    for loop in passes:
        source = SETTINGS.format(loop=loop)
        assert lb104_lines(source) == [len(textwrap.dedent(source).splitlines())], loop
    # the same work timed on every pass (case 223's per-image figure) or a total over many runs: not one sample
    quiet = [
        "solve = jax.jit(cg)\nsolve(a, b)\nfor i in range(100):\n"
        "    print(timeit.timeit(lambda: solve(a, b).block_until_ready(), number=1))",
        "for name, solver in solvers:\n    f = jax.jit(solver)\n    f(a, b)\n"
        "    print(name, timeit.timeit(lambda: f(a, b).block_until_ready(), number=100))",
    ]
    for loop in quiet:
        assert lb104_lines(SETTINGS.format(loop=loop)) == [], loop


APPLIED_TO_EACH = """
import time
from functools import partial
import jax
import jax.numpy as jnp

def benchit(name, x, f):
    f_jitted = jax.jit(f)
    t0 = time.perf_counter()
    f_jitted(x).block_until_ready()
    t1 = time.perf_counter()
    f_jitted(x).block_until_ready()
    t2 = time.perf_counter()
    print(name, "compile time", t1 - t0 - (t2 - t1), "run time", t2 - t1)

{decorations}
"""


def test_a_function_applied_as_a_decorator_to_each_benchmark_takes_one_sample_of_each():
    # dex-lang's microbench.py (case 287): `@partial(benchit, "sum", 0)` over each benchmark; the compile is timed on
    # purpose, the warm run after it is one sample of each decorated function
    decorations = (
        '@partial(benchit, "sum", 0)\ndef sum_bench(k):\n    return jnp.sum(jnp.ones(1000) * k)\n\n'
        '@partial(benchit, "dot", 0)\ndef dot_bench(k):\n    m = jnp.ones((100, 100)) * k\n    return m @ m\n'
    )
    warm = textwrap.dedent(APPLIED_TO_EACH).splitlines().index("    f_jitted(x).block_until_ready()", 10) + 1
    assert lb104_lines(APPLIED_TO_EACH.format(decorations=decorations)) == [warm]
    # called in a loop over the same benchmark: a figure per pass, not one sample
    looped = "def sum_bench(k):\n    return jnp.sum(jnp.ones(1000) * k)\n\nfor _ in range(5):\n    benchit('sum', 0, sum_bench)\n"
    assert lb104_lines(APPLIED_TO_EACH.format(decorations=looped)) == []


HANDED_FUNCTIONS = """
import time
from time import perf_counter_ns
import numpy as np
import jax
import jax.numpy as jnp

data = np.random.normal(size=(1_000, 1))

@jax.jit
def mm(x):
    return x.T @ x

def with_numpy():
    return data.T @ data

def with_jax():
    return mm(data)

def time_func({parameters}):
    start = {clock}
    res = {timed}
    end = {clock}
    print(name, end - start, res)

{calls}
"""


def test_a_helper_handed_each_function_in_its_own_call_takes_one_sample_of_each():
    # gs-iapworkshop's numvsjax.py (case 303): `time_func(numpy, "numpy")`, `time_func(jax_jit, "jax_jit")`, written
    # out one call per function, each timing one call of the function it is handed
    shapes = [
        ("func, name", "perf_counter_ns()", "func()", 'time_func(with_numpy, "numpy")\ntime_func(with_jax, "jax")\n'
         'time_func(with_jax, "jax again")'),
        ("func, name", "time.perf_counter()", "jax.block_until_ready(func())",
         'time_func(with_numpy, "numpy")\ntime_func(with_jax, "jax")'),
        ("name, func", "time.time()", "func()", 'time_func(name="numpy", func=with_numpy)\n'
         'time_func(func=with_jax, name="jax")'),
    ]
    for parameters, clock, timed, calls in shapes:
        source = HANDED_FUNCTIONS.format(parameters=parameters, clock=clock, timed=timed, calls=calls)
        line = textwrap.dedent(source).splitlines().index(f"    res = {timed}") + 1
        assert lb104_lines(source) == [line], (parameters, clock, calls)
    # in a loop over the same function: a figure per pass, not one sample of each
    looped = 'for _ in range(5):\n    time_func(with_jax, "jax")'
    assert lb104_lines(HANDED_FUNCTIONS.format(parameters="func, name", clock="time.time()", timed="func()",
                                               calls=looped)) == []
    # the same function handed at every call, under labels that differ: no second function to take a sample of
    same = 'time_func(with_jax, "first")\ntime_func(with_jax, "second")'
    assert lb104_lines(HANDED_FUNCTIONS.format(parameters="func, name", clock="time.time()", timed="func()",
                                               calls=same)) == []


COLD_THEN_WARM_OP = """
from time import time
import jax
import jax.numpy as jnp

x = jnp.ones((1000, 1000))

start = time()
y = {op}.block_until_ready()
end = time()
print(f"1st run : {{end - start:.3f}} seconds")

start = time()
y = {again}.block_until_ready()
end = time()
print(f"2nd run : {{end - start:.3f}} seconds")
"""


def test_a_jax_operation_timed_cold_then_warm_takes_its_compile_on_purpose():
    # jax_playground's sharp bits (case 305): `jnp.dot(x, x.T)` timed as '1st run', then the same call as '2nd run'.
    # JAX compiles an operation for its shapes at the first call, as it does a jitted function: the first figure is
    # the compile timed on purpose, the second is one sample
    for op in ("jnp.dot(x, x.T)", "jax.numpy.matmul(x, x)", "jax.lax.cos(x)", "jax.nn.relu(x)", "jnp.sum(x * 2.0)"):
        source = COLD_THEN_WARM_OP.format(op=op, again=op)
        warm = textwrap.dedent(source).splitlines().index(f"y = {op}.block_until_ready()", 10) + 1
        assert lb104_lines(source) == [warm], op
    # another operation the second time: two figures, each one sample
    source = COLD_THEN_WARM_OP.format(op="jnp.dot(x, x.T)", again="jnp.sum(x)")
    lines = textwrap.dedent(source).splitlines()
    assert lb104_lines(source) == [lines.index("y = jnp.dot(x, x.T).block_until_ready()") + 1,
                                   lines.index("y = jnp.sum(x).block_until_ready()") + 1]


FLAGGED_RUNS = """
import time
import jax
import jax.numpy as jnp
import pytest
from somelib import estimate

def run_estimate(y, jit_enabled, pre_compiled_fn=None):
    jax.config.update("jax_disable_jit", not jit_enabled)
    start_time = time.time()
    if pre_compiled_fn:
        result = pre_compiled_fn(y)
    else:
        result = estimate(y)
    {wait}
    end_time = time.time()
    execution_time = end_time - start_time
    return execution_time

@pytest.mark.parametrize("n", [10, 100])
def test_speed(n, fn):
    y = jnp.ones((100, 100))
    slow = run_estimate(y, {first})
    print(f"without jit: {{slow:.4f}} s")
    fast = run_estimate(y, {second}, pre_compiled_fn=fn)
    print(f"with jit: {{fast:.4f}} s")
    assert fast < slow
"""


def test_a_helper_called_once_per_written_out_flag_times_one_sample_of_each_setting():
    # mcnnm's test_jit.py (case 310): `run_estimate(N, T, jit_enabled=False)`, then `jit_enabled=True` with the
    # pre-compiled function; the callee comes from a library the model does not know, but the timed result is waited
    # for with `block_until_ready`, so it is a JAX value
    line = textwrap.dedent(FLAGGED_RUNS).splitlines().index("    if pre_compiled_fn:") + 1
    for wait in ("result.tau.block_until_ready()", "result.block_until_ready()", "jax.block_until_ready(result)"):
        for first, second in (("False", "True"), ("jit_enabled=False", "jit_enabled=True")):
            source = FLAGGED_RUNS.format(wait=wait, first=first, second=second)
            assert lb104_lines(source) == [line], (wait, first)
    # the same flag at both calls: the same setting measured twice, not one sample of each
    assert lb104_lines(FLAGGED_RUNS.format(wait="result.block_until_ready()", first="True", second="True")) == []
    # nothing waited for: nothing says the library's result is JAX work
    assert lb104_lines(FLAGGED_RUNS.format(wait="print(time.time())", first="False", second="True")) == []


COLD_THEN_WARM_ELSEWHERE = """
import time
import jax.numpy as jnp
import numpy as np

a = jnp.arange(4096.0).reshape(64, 64)
{setup}
{first}

t0 = time.perf_counter()
r = {op}.block_until_ready()
elapsed = time.perf_counter() - t0
print("warm", elapsed)
"""

FIRST_IN_A_HELPER = """
def {name}({parameters}):
    t0 = time.perf_counter()
    r = {op}.block_until_ready()
    elapsed = time.perf_counter() - t0
    print("cold", elapsed)
{calls}"""


def _timed_lines(source: str, op: str) -> list[int]:
    lines = textwrap.dedent(source).splitlines()
    return [k + 1 for k, line in enumerate(lines) if line.strip() == f"r = {op}.block_until_ready()"]


def test_an_operation_timed_cold_then_warm_through_a_container_or_a_helper_takes_its_compile_on_purpose():
    # case 305's variants: the JAX operation called through a container (`ops["norm"](a)`), or its first timing
    # moved into a helper the program calls once; written here with perf_counter and other operations
    first_pair = 't0 = time.perf_counter()\nr = {op}.block_until_ready()\nprint("cold", time.perf_counter() - t0)'
    for setup, op in (('ops = {"norm": jnp.linalg.norm}', 'ops["norm"](a)'),
                      ("kernels = [jnp.tanh, jnp.exp]", "kernels[1](a)")):
        source = COLD_THEN_WARM_ELSEWHERE.format(setup=setup, first=first_pair.format(op=op), op=op)
        assert lb104_lines(source) == _timed_lines(source, op)[1:], op
        # a NumPy function in the container compiles nothing: the first figure is a sample like the second
        numpy = source.replace("jnp.linalg.norm", "np.linalg.norm").replace("jnp.tanh, jnp.exp", "np.tanh, np.exp")
        assert lb104_lines(numpy) == _timed_lines(numpy, op), op
    op = "jnp.linalg.norm(a @ a)"
    helper = FIRST_IN_A_HELPER.format(name="first_timing", parameters="", op=op, calls="first_timing()")
    source = COLD_THEN_WARM_ELSEWHERE.format(setup="", first=helper, op=op)
    assert lb104_lines(source) == _timed_lines(source, op)[1:]
    # the helper times its own argument: nothing says it is the value timed later, so both are samples
    own = FIRST_IN_A_HELPER.format(name="first_timing", parameters="a", op=op, calls="first_timing(a)")
    source = COLD_THEN_WARM_ELSEWHERE.format(setup="", first=own, op=op)
    assert lb104_lines(source) == _timed_lines(source, op)
    # the name it reads bound again before the caller's timing (case 082's `indices = jnp.array(indices)`): the two
    # timings time other values, each one sample
    rebound = FIRST_IN_A_HELPER.format(name="first_timing", parameters="", op=op, calls="first_timing()\na = jnp.ones((8, 8))")
    source = COLD_THEN_WARM_ELSEWHERE.format(setup="", first=rebound, op=op)
    assert lb104_lines(source) == _timed_lines(source, op)
    # called after the module's timing, the helper's run is the warm one: the module's figure is the cold run
    later = FIRST_IN_A_HELPER.format(name="first_timing", parameters="", op=op, calls="")
    source = COLD_THEN_WARM_ELSEWHERE.format(setup="", first=later, op=op) + "first_timing()\n"
    assert lb104_lines(source) == _timed_lines(source, op)[:1]


HANDED_AFTER_A_RUN = """
import time
import jax
import jax.numpy as jnp

def timed(n, use_fast, fast=None):
    label = "fast" if use_fast else "slow"
    v = jnp.ones((n, n))
    t0 = time.perf_counter()
    if fast:
        out = fast(v)
    else:
        out = jnp.linalg.qr(v)
    jax.block_until_ready(out)
    return label, time.perf_counter() - t0

def {factory}(n):
    f = jax.jit(lambda v: jnp.linalg.qr(v))
    {warm}
    return {returned}

def main():
    slow = timed(64, False)
    {bound} = {factory}(64)
    quick = timed(64, True, fast=fast_fn)
    print(slow, quick)
"""


def test_a_single_sample_says_which_setting_its_callers_warmed():
    # case 310's message: the callers hand the helper a function they ran before (a factory that calls what it
    # returns), so that setting has a warm-up and the other (the plain call) has none; the message says both
    def message(**parts: str) -> str:
        found = [d for d in lint_source(textwrap.dedent(HANDED_AFTER_A_RUN.format(**parts)), "bench.py")
                 if d.code == "LB104"]
        assert len(found) == 1, parts
        return found[0].message

    for factory, warm, returned, bound in (
        ("build", "f(jnp.ones((n, n))).block_until_ready()", "f", "fast_fn"),
        ("compile_and_time", "t0 = time.perf_counter(); f(jnp.eye(n)); compilation_time = time.perf_counter() - t0",
         "f, compilation_time", "fast_fn, compile_time"),
    ):
        said = message(factory=factory, warm=warm, returned=returned, bound=bound)
        assert "`fast_fn` is run before it is handed over for `fast` (a warm-up of that setting)" in said, said
        cold = ("after `jnp.linalg.qr(v)`", "with no warm-up run before it;")
        assert all(w in said for w in cold) or "`jnp.linalg.qr(v)` has no warm-up run before it" in said, said
        # the factory builds the function and never runs it: nothing is warm
        said = message(factory=factory, warm="pass", returned=returned, bound=bound)
        assert said.endswith("with no warm-up run before it") and "handed over" not in said, said
