"""What was left of cases 393 and 404-411 after mend36, mended in the shared model (mend37).

- LB115 (`_effects.calls_run_inside`): a NumPy array handed to a jitted call inside a local function that the timed
  call runs, by name or through a parameter whose callers hand it the function (JAX-GalSim's ``_run_benchmarks(
  benchmark, kind, _run)``, whose timed ``_run`` calls ``func()``, case 404), is copied to the device on every run
  as if the call were written in the timed statement. A jitted function's body is traced, not entered.
"""

from __future__ import annotations

import textwrap

import pytest

from doctor_support import codes, lines, notebook_codes


def line_of(source: str, text: str, nth: int = 1) -> int:
    """The line (1-based, of the dedented source) holding the ``nth`` occurrence of ``text``."""
    found = [k for k, line in enumerate(textwrap.dedent(source).splitlines(), 1) if text in line]
    return found[nth - 1]


# --- 404: a timed closure reached through a helper's parameter -----------------------------------------------------
HELPER = """
import time
{imports}

@jax.jit
def render(im, psf):
    return im * psf

def _run_benchmarks(func):
    func()
    t0 = {clock}
    for _ in range(10):
        func()
    return ({clock} - t0) / 10

def test_render():
    im = {numpy}.ones((33, 33))
    psf = {numpy}.ones((33, 33))
    {define}
    print(_run_benchmarks({handed}))
"""
_DEF = "def _run():\n        return render(im.copy(), psf).block_until_ready()"


@pytest.mark.parametrize(
    ("imports", "numpy", "clock", "define", "handed"),
    [
        ("import jax\nimport numpy as np", "np", "time.perf_counter()", _DEF, "_run"),
        ("import jax\nimport numpy as onp", "onp", "time.time()", _DEF, "_run"),  # aliased, another clock
        ("import jax\nfrom numpy import ones\nimport numpy", "numpy", "time.perf_counter()", _DEF, "_run"),
        ("import jax\nimport numpy as np", "np", "time.perf_counter()", "pass",
         "lambda: render(im.copy(), psf).block_until_ready()"),  # a lambda handed
    ],
)
def test_numpy_inputs_inside_a_function_handed_to_a_timing_helper_are_copied_per_run(
    imports, numpy, clock, define, handed,
):
    source = HELPER.format(imports=imports, numpy=numpy, clock=clock, define=define, handed=handed)
    assert lines(codes(source), "LB115") == {line_of(source, "render(im.copy()")}


def test_numpy_inputs_inside_a_local_function_the_timed_statement_calls_are_copied_per_run():
    source = """
    import time
    import jax
    import numpy as np

    f = jax.jit(lambda x: x * 2)
    x = np.ones(10)
    f(x).block_until_ready()

    def run():
        return f(x).block_until_ready()

    for _ in range(3):
        t = time.perf_counter()
        run()
        print(time.perf_counter() - t)
    """
    assert lines(codes(source), "LB115") == {line_of(source, "return f(x)")}


def test_numpy_inputs_inside_a_pytest_benchmark_helper_in_a_notebook_cell():
    found = notebook_codes(
        "import jax\nimport numpy as np\nimport timeit\nrender = jax.jit(lambda im: im * 2)",
        "def bench(func):\n    func()\n    return min(timeit.repeat(func, number=10, repeat=5))",
        "im = np.ones((8, 8))\ndef _run():\n    return render(im).block_until_ready()\nprint(bench(_run))",
    )
    assert {(c, cell, line) for c, cell, line in found if c == "LB115"} == {("LB115", 3, 3)}


def test_device_inputs_inside_a_handed_function_stay_quiet():
    source = HELPER.format(
        imports="import jax\nimport jax.numpy as jnp", numpy="jnp", clock="time.perf_counter()", define=_DEF,
        handed="_run",
    )
    assert lines(codes(source), "LB115") == set()


def test_a_jitted_function_handed_to_the_helper_is_not_entered():
    source = """
    import time
    import jax
    import numpy as np

    table = np.ones(4)

    @jax.jit
    def step(x):
        return x + jax.numpy.asarray(table)

    def bench(func, x):
        func(x).block_until_ready()
        t0 = time.perf_counter()
        for _ in range(10):
            func(x).block_until_ready()
        return time.perf_counter() - t0

    print(bench(step, jax.numpy.ones(4)))
    """
    assert lines(codes(source), "LB115") == set()


def test_a_copy_reported_at_the_timed_call_is_not_reported_again_inside_the_function_it_runs():
    source = """
    from time import perf_counter
    import numpy as np
    import jax.numpy as jnp

    def g(x, y):
        return jnp.concatenate((x, y))

    x, y = np.ones(5), np.ones(6)
    total = 0
    for n in range(100):
        t0 = perf_counter()
        _ = g(x, y)
        total += perf_counter() - t0
    print(total / 100)
    """
    assert lines(codes(source), "LB115") == {line_of(source, "_ = g(x, y)")}


# --- 406: a function of a library's JAX backend, timed once -----------------------------------------------------------
BACKEND = """
{imports}
import pymc as pm

model = pm.Model()
start_time = {clock}
with model:
    trace = {call}
runtime = {clock} - start_time
print(runtime)
"""


@pytest.mark.parametrize(
    ("imports", "clock", "call"),
    [
        ("import pymc.sampling_jax\nfrom time import time", "time()", "pymc.sampling_jax.sample_blackjax_nuts(random_seed=1)"),
        ("from pymc import sampling_jax as sj\nimport time", "time.perf_counter()", "sj.sample_numpyro_nuts()"),
        ("from pymc.sampling_jax import sample_blackjax_nuts as nuts\nimport time", "time.monotonic()", "nuts()"),
    ],
)
def test_one_cold_run_of_a_jax_backend_function_is_a_single_sample(imports, clock, call):
    source = BACKEND.format(imports=imports, clock=clock, call=call)
    assert lines(codes(source), "LB104") == {line_of(source, "with model:")}  # the first timed statement


def test_one_cold_run_of_a_jax_backend_function_in_a_notebook_cell():
    found = notebook_codes(
        "import time\nimport pymc.sampling_jax",
        "t0 = time.perf_counter()\ntrace = pymc.sampling_jax.sample_blackjax_nuts()\nprint(time.perf_counter() - t0)",
    )
    assert {(c, cell) for c, cell, _ in found if c == "LB104"} == {("LB104", 2)}


@pytest.mark.parametrize(
    "call",
    [
        "pymc.sampling.sample()",  # no JAX in the module's name
        "pymc.sampling_jax.Sampler()",  # an object built
    ],
)
def test_a_function_whose_module_does_not_say_jax_stays_unknown(call):
    source = BACKEND.format(imports="import pymc.sampling_jax\nimport pymc.sampling\nimport time",
                            clock="time.perf_counter()", call=call)
    assert lines(codes(source), "LB104") == set()


# --- 405: a project function the file profiles with JAX's tracer --------------------------------------------------
PROFILED = """
import time
{imports}

def test_e2e():
    boat = init()
    {call}
    t0 = {clock}
    state = {call}
    print(f"run: {{{clock} - t0}}")
    {profile}

if __name__ == "__main__":
    test_e2e()
"""


@pytest.mark.parametrize(
    ("imports", "call", "clock", "profile"),
    [
        ("import jax.profiler\nfrom boat.dynamics import j_integrate_many, init", "j_integrate_many(boat, 100)",
         "time.time()", "with jax.profiler.trace('trace'):\n        j_integrate_many(boat, 100)"),
        ("import jax\nfrom boat.dynamics import integrate as run, init", "run(boat, 100)", "time.perf_counter()",
         "with jax.profiler.TraceAnnotation('step'):\n        run(boat, 100)"),  # aliased, another context
        ("from jax import profiler\nimport boat.dynamics as dyn\nfrom boat.dynamics import init",
         "dyn.integrate(boat, 100)", "time.perf_counter()",
         "with profiler.trace('/tmp/t'):\n        dyn.integrate(boat, 100)"),  # through the module
    ],
)
def test_one_timed_call_of_a_profiled_project_function_is_a_single_sample(imports, call, clock, profile):
    source = PROFILED.format(imports=imports, call=call, clock=clock, profile=profile)
    assert lines(codes(source), "LB104") == {line_of(source, "state = " + call)}


def test_a_project_function_never_profiled_stays_unknown():
    source = PROFILED.format(
        imports="import jax.profiler\nfrom boat.dynamics import j_integrate_many, init, other",
        call="j_integrate_many(boat, 100)", clock="time.perf_counter()",
        profile="with jax.profiler.trace('trace'):\n        other(boat)",
    )
    assert lines(codes(source), "LB104") == set()


@pytest.mark.parametrize(
    ("imports", "call", "profile"),
    [
        ("import jax.profiler\nfrom boat.dynamics import j_integrate_many, init", "j_integrate_many(boat, 100)",
         "with jax.profiler.trace('trace'):\n        j_integrate_many(boat, 100)"),
        ("import jax\nfrom boat.dynamics import integrate as run, init", "run(boat, 100)",
         "with jax.profiler.StepTraceAnnotation('step', step_num=0):\n        run(boat, 100)"),
    ],
)
def test_the_result_of_a_profiled_project_function_is_waited_for_or_lb102(imports, call, profile):
    source = PROFILED.format(imports=imports, call=call, clock="time.perf_counter()", profile=profile)
    assert lines(codes(source), "LB102") == {line_of(source, "state = " + call)}
    waited = source.replace("state = " + call, "state = " + call + "\n    jax.block_until_ready(state)")
    assert lines(codes(waited), "LB102") == set()


def test_the_result_of_a_profiled_project_function_in_notebook_cells():
    found = notebook_codes(
        "import time\nimport jax\nfrom boat.dynamics import integrate, init\nboat = init()",
        "with jax.profiler.trace('/tmp/trace'):\n    integrate(boat, 10)",
        "integrate(boat, 10)\nt0 = time.perf_counter()\nstate = integrate(boat, 10)\nprint(time.perf_counter() - t0)",
    )
    assert {(c, cell, line) for c, cell, line in found if c == "LB102"} == {("LB102", 3, 3)}
