"""Each doctor rule on a script that has the mistake and on its corrected twin."""

from __future__ import annotations

import ast
import importlib.util
import json
import textwrap

import pytest

from levelbench import Severity
from levelbench.doctor import RULES, lint_source


def nb(*cells: str) -> str:
    """A notebook (JSON text) with these code cells."""
    return json.dumps(
        {
            "nbformat": 4,
            "nbformat_minor": 5,
            "metadata": {"kernelspec": {"name": "python3", "language": "python"}},
            "cells": [{"cell_type": "code", "metadata": {}, "source": textwrap.dedent(c).strip("\n"), "outputs": []} for c in cells],
        }
    )


def found(source: str, *, notebook: bool = False, **options: object) -> list[tuple[str, int, int]]:
    """(code, cell, line) of every finding; cell is 0 for a script."""
    text = source if notebook else textwrap.dedent(source)
    return [
        (d.code, d.location.cell, d.location.line)
        for d in lint_source(text, "case.ipynb" if notebook else "case.py", notebook=notebook, **options)  # type: ignore[arg-type]
    ]


def codes(source: str, **options: object) -> set[str]:
    return {code for code, _, _ in found(source, **options)}


JAX_HEADER = """
import time, timeit
import jax
import jax.numpy as jnp
import numpy as np

f = jax.jit(lambda x: x * 2)
x = jnp.ones(1000)
"""


# --- LB101 timed callable never called ---------------------------------------------------------
def test_lb101_timed_lambda_in_timeit_magic_is_never_called():
    assert ("LB101", 2, 1) in found(nb(JAX_HEADER, "%timeit lambda: f(x)"), notebook=True)


def test_lb101_timeit_lambda_returning_a_function_object():
    src = JAX_HEADER + "def g():\n    return f(x)\ntimeit.timeit(lambda: g, number=10)\n"
    assert "LB101" in codes(src)


def test_lb101_bare_function_name_in_timeit_magic():
    assert "LB101" in codes(nb(JAX_HEADER, "%timeit f"), notebook=True)


def test_lb101_not_reported_when_the_function_is_called():
    assert "LB101" not in codes(nb(JAX_HEADER, "%timeit f(x).block_until_ready()"), notebook=True)
    src = JAX_HEADER + "def g():\n    return f(x).block_until_ready()\ntimeit.timeit(g, number=10)\ntimeit.timeit(lambda: g(), number=10)\n"
    assert "LB101" not in codes(src)


# --- LB102 unblocked JAX timing ----------------------------------------------------------------
def test_lb102_timeit_magic_of_a_jitted_call_without_blocking():
    assert ("LB102", 2, 1) in found(nb(JAX_HEADER, "%timeit f(x)"), notebook=True)


@pytest.mark.parametrize(
    "timed",
    [
        "y = f(x)",
        "y = jnp.dot(x, x)",
        "out = [f(x) for _ in range(10)]",
    ],
)
def test_lb102_clock_pair_around_unblocked_jax_work(timed):
    src = JAX_HEADER + f"f(x).block_until_ready()\nt0 = time.perf_counter()\n{timed}\nprint(time.perf_counter() - t0)\n"
    assert "LB102" in codes(src)


@pytest.mark.parametrize(
    ("timing", "fires"),
    [
        # diffrax benchmarks/compile_times.py (corpus 111): the figure is the compile, which JAX does before returning
        ("compile_time = timeit.timeit(solve_, number=1)", False),
        ("# tracing and compilation\nt = timeit.timeit(solve_, number=1)", False),
        # figures that hold the run: waiting for it matters
        ('print("Compile+run time", timeit.timeit(solve_, number=1))', True),
        ("first_call = timeit.timeit(solve_, number=1)", True),
        ("# compile and run time\nt = timeit.timeit(solve_, number=1)", True),
        ("t = timeit.timeit(solve_, number=1)", True),
    ],
)
def test_lb102_a_timing_of_compilation_alone_need_not_wait_for_the_run(timing, fires):
    src = ("import functools as ft\nimport timeit\nimport jax\nimport jax.numpy as jnp\n"
           "@jax.jit\ndef solve(y0):\n    return jnp.sum(jnp.cumsum(y0) ** 2)\n"
           "solve_ = ft.partial(solve, jnp.ones(1000))\n" + timing + "\n")
    assert ("LB102" in codes(src)) is fires


@pytest.mark.parametrize(
    ("timed", "line"),
    [
        # the converted input feeds the timed call: the call's result is the one not waited for (case 167)
        ("%%time\nx = jnp.asarray(host)\ny = f(x)", 3),
        ("%%time\nx = jnp.asarray(host)\ny = f(x)\nz = f(y)", 4),
        ("t0 = time.perf_counter()\nx = jnp.asarray(host)\ny = f(x)\nprint(time.perf_counter() - t0)", 3),
        # two independent results: the first is not waited for, and is not the second's input
        ("%%time\na = f(x)\nb = f(x)", 2),
        # the input is waited for, the call's result is not
        ("%%time\nx = jnp.asarray(host).block_until_ready()\ny = f(x)", 3),
    ],
)
def test_lb102_points_at_the_result_left_pending_not_at_an_input_of_later_work(timed, line):
    cell = nb(JAX_HEADER + "host = np.ones(1000)", timed)
    assert [(c, ln) for c, _, ln in found(cell, notebook=True) if c == "LB102"] == [("LB102", line)]


def test_lb102_quiet_when_the_last_result_fed_by_an_input_is_waited_for():
    cell = nb(JAX_HEADER + "host = np.ones(1000)", "%%time\nx = jnp.asarray(host)\ny = f(x).block_until_ready()")
    assert "LB102" not in codes(cell, notebook=True)


def test_lb102_helper_returning_a_jax_value_is_followed():
    src = JAX_HEADER + "def run():\n    return f(x) + 1\nf(x).block_until_ready()\ntimeit.timeit(run, number=10)\n"
    assert "LB102" in codes(src)


@pytest.mark.parametrize(
    "timed",
    [
        "y = f(x).block_until_ready()",
        "y = jax.block_until_ready(f(x))",
        "y = f(x)\ny.block_until_ready()",
        "y = np.asarray(f(x))",
        "y = float(f(x).sum())",
        "for _ in range(10):\n    y = f(x)\ny.block_until_ready()",
        "y = run()",
    ],
)
def test_lb102_not_reported_when_the_result_is_waited_for(timed):
    src = (
        JAX_HEADER
        + "def run():\n    return f(x).block_until_ready()\nrun()\n"
        + f"t0 = time.perf_counter()\n{timed}\nprint(time.perf_counter() - t0)\n"
    )
    assert "LB102" not in codes(src)



@pytest.mark.parametrize(
    ("after", "fires"),
    [
        ("mjx.get_data_into(d, m, y)", False),  # mujoco-mjx viewer.py: copies the result into host data
        ("pickle.dump(y, handle)", False),
        ("z = mjx.step(m, y)", True),  # a result kept: more queued work, nothing waits
        ("logging.info('stepped')", True),  # reads no value of the program
        ("jax.debug.callback(handle, y)", True),
    ],
)
def test_lb102_a_library_call_made_for_its_effect_on_the_result_waits_for_it(after, fires):
    src = (JAX_HEADER + "import logging, pickle\nfrom mujoco import mjx\nm = d = handle = None\nf(x).block_until_ready()\n"
           f"t0 = time.perf_counter()\ny = f(x)\n{after}\nprint(time.perf_counter() - t0)\n")
    assert ("LB102" in codes(src)) is fires

def test_lb102_a_wait_in_the_statement_that_reads_the_clock_counts():
    src = JAX_HEADER + 'f(x).block_until_ready()\nt0 = time.perf_counter()\ny = f(x)\nprint(f"{float(y.sum())} in {time.perf_counter() - t0}")\n'
    assert "LB102" not in codes(src)
    assert "LB102" in codes(src.replace("float(y.sum())", "y.shape"))


def test_lb102_pytest_benchmark_fixture_and_with_timer_blocks():
    fixture = JAX_HEADER + "def test_speed(benchmark):\n    f(x).block_until_ready()\n    benchmark(f, x)\n"
    assert "LB102" in codes(fixture)
    assert "LB102" not in codes(fixture.replace("benchmark(f, x)", "benchmark(lambda: f(x).block_until_ready())"))
    timer = JAX_HEADER + "from codetiming import Timer\nf(x).block_until_ready()\nwith Timer():\n    f(x)\n"
    assert "LB102" in codes(timer)


TIMING_MANAGERS = {
    "a contextmanager generator": """
import contextlib
@contextlib.contextmanager
def scope(name):
    t0 = time.perf_counter()
    yield
    print(name, time.perf_counter() - t0)
""",
    "a generator yielding inside a timer": """
import contextlib
from codetiming import Timer
@contextlib.contextmanager
def scope(name):
    with Timer(name):
        yield
""",
    "a class reading a clock on entry and exit": """
class scope:
    def __init__(self, name):
        self.name = name
    def __enter__(self):
        self.t0 = time.perf_counter()
    def __exit__(self, *exc):
        print(self.name, time.perf_counter() - self.t0)
""",
}


@pytest.mark.parametrize("manager", list(TIMING_MANAGERS.values()), ids=list(TIMING_MANAGERS))
def test_lb102_a_local_context_manager_that_reads_a_clock_around_its_body_times_it(manager):
    src = JAX_HEADER + manager + "f(x).block_until_ready()\nwith scope('f'):\n    y = f(x)\n"
    assert "LB102" in codes(src)
    assert "LB102" not in codes(src.replace("y = f(x)", "y = f(x).block_until_ready()"))


def test_lb102_quiet_in_a_context_manager_that_times_nothing():
    manager = "import contextlib\n@contextlib.contextmanager\ndef scope(name):\n    print(name)\n    yield\n    print(time)\n"
    assert "LB102" not in codes(JAX_HEADER + manager + "f(x).block_until_ready()\nwith scope('f'):\n    y = f(x)\n")


TIMING_DECORATOR = JAX_HEADER + """
def timed(fun):
    def wrapper(*args, **kwargs):
        t0 = time.perf_counter()
        out = fun(*args, **kwargs)
        print(time.perf_counter() - t0)
        return out
    return wrapper

@timed
@jax.jit
def g(a):
    return a @ a

y = g(x)
"""


def test_lb102_a_timing_decorator_applied_to_a_jitted_function_times_its_calls():
    assert "LB102" in codes(TIMING_DECORATOR)
    assert "LB102" in codes(TIMING_DECORATOR.replace("@timed\n@jax.jit\ndef g", "@jax.jit\ndef h").replace(
        "y = g(x)", "g = timed(h)\ny = g(x)"))
    assert "LB102" not in codes(TIMING_DECORATOR.replace("out = fun(", "out = jax.block_until_ready(fun(").replace(
        "**kwargs)\n        print", "**kwargs))\n        print"))


@pytest.mark.parametrize("decorated", [
    "@timed\ndef g(a):\n    return np.dot(a, a)\n",  # a NumPy function: nothing to wait for
    "@jax.jit\n@timed\ndef g(a):\n    return a @ a\n",  # timed while jit traces it, not when it runs
])
def test_lb102_quiet_on_a_timing_decorator_over_a_function_that_does_not_run_jax_asynchronously(decorated):
    src = TIMING_DECORATOR.replace("@timed\n@jax.jit\ndef g(a):\n    return a @ a\n", decorated)
    assert "LB102" not in codes(src)


WAITS_THEN_QUEUES = JAX_HEADER + """
def solve(v, tol=1e-4):
    print("starting")
    error = tol + 1
    while error > tol:
        new_v = f(v)
        error = jnp.max(jnp.abs(new_v - v))
        v = new_v
    policy = jnp.argmax(v)
    return v, policy

t0 = time.perf_counter()
v_star, policy = solve(x)
print(time.perf_counter() - t0)
"""


def test_lb102_a_function_that_waits_inside_then_returns_new_work():
    assert ("LB102", 0, 21) in found(WAITS_THEN_QUEUES)
    assert "LB102" in codes(WAITS_THEN_QUEUES.replace("    policy = jnp.argmax(v)\n    return v, policy", "    return v, jnp.argmax(v)"))


@pytest.mark.parametrize(
    "old, new",
    [
        ("    return v, policy", "    return v, policy.block_until_ready()"),  # waited in the return
        ("    policy = jnp.argmax(v)\n    return v, policy", "    policy = jnp.argmax(v)\n    print(policy)\n    return v, policy"),
        ("    policy = jnp.argmax(v)\n    return v, policy", "    return v"),  # only what the loop read back
        ("v_star, policy = solve(x)", "v_star, policy = jax.block_until_ready(solve(x))"),  # the caller waits
        ("    policy = jnp.argmax(v)\n    return v, policy", "    return float(jnp.argmax(v))"),  # a host value
        # a field of a result waited for (optimistix's benchmark wrapper, real case 066)
        ("    policy = jnp.argmax(v)\n    return v, policy", "    out = f(v)\n    value = out.block_until_ready()\n    n = out[0]\n    return value, n"),
    ],
)
def test_lb102_quiet_when_what_the_function_returns_is_waited_for(old, new):
    assert "LB102" not in codes(WAITS_THEN_QUEUES.replace(old, new, 1))


NEXT_OF_AN_ITERATOR = JAX_HEADER + """
import itertools

def test_steps(benchmark):
    steps = itertools.accumulate(range(100), lambda carry, i: f(carry), initial=x)
    next(steps)
    benchmark(lambda: next(steps))
"""


def test_lb102_next_of_an_iterator_of_jax_results():
    assert ("LB102", 0, 15) in found(NEXT_OF_AN_ITERATOR)
    mapped = NEXT_OF_AN_ITERATOR.replace("itertools.accumulate(range(100), lambda carry, i: f(carry), initial=x)", "map(f, [x, x, x])")
    assert "LB102" in codes(mapped)
    generator = NEXT_OF_AN_ITERATOR.replace(
        "    steps = itertools.accumulate(range(100), lambda carry, i: f(carry), initial=x)\n",
        "    def batches():\n        while True:\n            yield f(x)\n    steps = batches()\n",
    )
    assert "LB102" in codes(generator)


@pytest.mark.parametrize(
    "old, new",
    [
        ("benchmark(lambda: next(steps))", "benchmark(lambda: jax.block_until_ready(next(steps)))"),  # waited for
        ("lambda carry, i: f(carry), initial=x", "lambda carry, i: carry + i, initial=0"),  # Python numbers
        ("itertools.accumulate(range(100), lambda carry, i: f(carry), initial=x)", "iter(range(100))"),
    ],
)
def test_lb102_quiet_for_next_of_host_values_or_waited(old, new):
    assert "LB102" not in codes(NEXT_OF_AN_ITERATOR.replace(old, new, 1))


def test_lb102_not_reported_for_numpy_work():
    assert "LB102" not in codes("import time\nimport numpy as np\na = np.ones((9, 9))\nt0 = time.perf_counter()\nnp.dot(a, a)\nprint(time.perf_counter() - t0)\n")



def test_timing_inside_a_library_function_is_instrumentation_not_a_benchmark():
    library = "import time\nimport jax\ndef transfer(state):\n    start = time.time()\n    moved = jax.device_put(state)\n    logging_value = time.time() - start\n    return moved\n"
    assert codes(library) == set()
    assert {"LB102", "LB105"} <= codes(library + "out = transfer(jax.numpy.ones(3))\n")  # the script runs it
    assert {"LB102", "LB105"} <= codes(library.replace("def transfer", "def bench_transfer"))  # says it benchmarks



def test_lb102_un_jitted_function_that_queues_jax_work_and_returns_nothing():
    src = "import time\nimport jax\ndef churn(k):\n    for _ in range(100):\n        k, s = jax.random.split(k)\n        jax.random.normal(s, (3,))\nkey = jax.random.key(0)\nt0 = time.perf_counter()\nchurn(key)\nprint(time.perf_counter() - t0)\n"
    assert ("LB102", 0, 9) in found(src)
    waited = src.replace("        jax.random.normal(s, (3,))\n", "        jax.random.normal(s, (3,)).block_until_ready()\n")
    assert "LB102" not in codes(waited)


def test_a_name_imported_as_two_modules_is_ambiguous_and_stays_quiet():
    src = "import time\nimport numpy as np\ndef work():\n    r = np.ones(9).ravel()\nt0 = time.perf_counter()\nwork()\nprint(time.perf_counter() - t0)\n"
    assert "LB102" not in codes(src)
    assert "LB102" not in codes(src + "import jax.numpy as np\n")  # which np `work` sees depends on when it runs
    assert "LB102" in codes(src.replace("import numpy as np", "import jax.numpy as np"))


def test_clock_pairs_with_datetime_and_with_the_difference_left_out():
    src = "from datetime import datetime\nimport jax.numpy as jnp\nv = jnp.ones(9)\nstart = datetime.now()\nw = jnp.sin(v)\nprint(datetime.now() - start)\n"
    assert {"LB102", "LB105"} <= codes(src)
    snippet = "import time\nimport jax.numpy as jnp\nv = jnp.ones(9)\nstart = time.perf_counter()\nw = jnp.sin(v)\nend = time.perf_counter()\n"
    assert "LB102" in codes(snippet)
    assert "LB102" not in codes(snippet.replace("start = time", "start = deadline = time"))


def test_lb102_block_until_ready_as_a_decorator_waits_for_nothing():
    # case 092 (DiffeRT's suite) stacks `@jax.block_until_ready` on `@jax.jit`. jax.block_until_ready(f) of a
    # function blocks on no array and returns `f` itself, so calling it does not wait (jax 0.10.2: the call
    # returned in 0.13 ms, 0.27 s of work still pending): the finding stands, and a `.block_until_ready()` quiets it
    src = JAX_HEADER + "def test_g(benchmark):\n    @jax.block_until_ready\n    @jax.jit\n    def bench_fun():\n        return x @ x\n"
    src += "    bench_fun()\n    benchmark(bench_fun)\n"

    def in_a_test_file(text: str) -> set[str]:
        return {d.code for d in lint_source(textwrap.dedent(text), "tests/benchmarks/test_rt.py")}

    assert "LB102" in in_a_test_file(src)
    assert "LB102" not in in_a_test_file(src.replace("benchmark(bench_fun)", "benchmark(lambda: bench_fun().block_until_ready())"))


@pytest.mark.parametrize(
    ("timed", "fires"),
    [
        # corpus 127 (jaxsim's suite): the wait wraps the function, which it returns unchanged, not its result
        ("benchmark(jax.block_until_ready(jax.vmap(func, in_axes=(None, 0))), model, data)", True),
        ("benchmark(jax.vmap(func, in_axes=(None, 0)), model, data)", True),  # issue #25: the suite before the fix
        ("benchmark(jax.block_until_ready(func), model, data)", False),  # a function of unknown kind: unknown work
        ("benchmark(lambda: jax.block_until_ready(jax.vmap(func, in_axes=(None, 0))(model, data)))", False),
        ("benchmark(lambda: jax.vmap(func, in_axes=(None, 0))(model, data).block_until_ready())", False),
    ],
)
def test_lb102_a_transform_of_a_parameter_timed_through_a_helper_fixture(timed, fires):
    src = ("import jax\nimport pytest\nimport jaxsim.api as js\n"
           "def bench(func, model, benchmark, data):\n    func(model, data)\n"
           f"    {timed}\n"
           "def test_aba(benchmark, model, data):\n    bench(js.model.forward_dynamics_aba, model, benchmark, data)\n")
    assert (("LB102", 0, 6) in found(src)) is fires


def test_lb102_block_until_ready_of_a_function_value_is_no_wait_in_a_clock_pair():
    src = JAX_HEADER + "g = jax.block_until_ready(f)\nt0 = time.perf_counter()\ny = g(x)\nprint(time.perf_counter() - t0)\n"
    assert "LB102" in codes(src)
    assert "LB102" not in codes(src.replace("y = g(x)", "y = jax.block_until_ready(g(x))"))


# --- LB103 compile inside the timing -----------------------------------------------------------
def test_lb103_time_magic_on_the_first_call():
    assert ("LB103", 2, 1) in found(nb(JAX_HEADER, "%time f(x).block_until_ready()"), notebook=True)


def test_lb103_clock_pair_and_uncalibrated_timeit_without_warm_up():
    assert "LB103" in codes(JAX_HEADER + "t0 = time.perf_counter()\nf(x).block_until_ready()\nprint(time.perf_counter() - t0)\n")
    assert "LB103" in codes(JAX_HEADER + "timeit.timeit(lambda: f(x).block_until_ready(), number=100)\n")
    assert "LB103" in codes(nb(JAX_HEADER, "%timeit -n 10 f(x).block_until_ready()"), notebook=True)


# Old JAX re-exported functools.partial as `jax.partial` (jax-ml/jax#2980, case 167): a jit decorator all the same.
OLD_PARTIAL = "import jax\nimport jax.numpy as jnp\n{imports}\n@{partial}({jit}, static_argnums=1)\n"
OLD_PARTIAL += "def scale(x, k):\n    return x * k\nx = jnp.ones(9)\n"


@pytest.mark.parametrize(
    ("imports", "partial", "jit"),
    [("from jax import jit", "jax.partial", "jit"), ("", "jax.partial", "jax.jit"),
     ("from jax import partial", "partial", "jax.jit"), ("import functools", "functools.partial", "jax.jit")],
)
def test_lb103_a_partial_of_jit_is_a_jit_decorator_under_any_name(imports, partial, jit):
    src = OLD_PARTIAL.format(imports=imports, partial=partial, jit=jit)
    assert ("LB103", 2, 1) in found(nb(src, "%time scale(x, 2).block_until_ready()"), notebook=True)
    warmed = nb(src, "scale(x, 2).block_until_ready()", "%time scale(x, 2).block_until_ready()")
    assert "LB103" not in codes(warmed, notebook=True)


# Old JAX's `jax.api` module was `jax` itself (jax-ml/jax#2160, case 221): `from jax.api import jit` is jax.jit, though
# the import fails today (LB113 says so); the rest of the file is read as the user meant it.
OLD_API = "import time\nimport jax.numpy as jnp\n{imports}\n@{jit}\ndef norm(v):\n    return jnp.sqrt(v @ v)\n"
OLD_API += "batched = {vmap}(norm)\nxs = jnp.ones((100, 3))\n{warm}t = time.perf_counter()\nbatched(xs).block_until_ready()\n"
OLD_API += "print(time.perf_counter() - t)\n"


@pytest.mark.parametrize(
    ("imports", "jit", "vmap"),
    [("from jax.api import jit, vmap", "jit", "vmap"), ("import jax.api as api", "api.jit", "api.vmap"),
     ("import jax", "jax.api.jit", "jax.vmap")],
)
def test_old_jax_api_module_names_are_jax_names(imports, jit, vmap):
    cold = codes(OLD_API.format(imports=imports, jit=jit, vmap=vmap, warm=""))
    assert "LB103" in cold and "LB114" not in cold  # the cold first call of a vmap of a jitted function
    warmed = codes(OLD_API.format(imports=imports, jit=jit, vmap=vmap, warm="batched(xs).block_until_ready()\n"))
    assert not {"LB103", "LB114"} & warmed


def test_lb103_quiet_for_a_partial_of_something_else():
    imports = "import functools\ndef traced(f, **kw):\n    return f"
    src = OLD_PARTIAL.format(imports=imports, partial="jax.partial", jit="traced")
    assert "LB103" not in codes(nb(src, "%time scale(x, 2).block_until_ready()"), notebook=True)


def test_lb103_decorated_function_through_a_helper():
    src = JAX_HEADER + "@jax.jit\ndef g(x):\n    return x + 1\ndef run():\n    return g(x).block_until_ready()\n%time run()\n"
    assert "LB103" in codes(nb(src), notebook=True)


@pytest.mark.parametrize(
    "cells",
    [
        ("f(x).block_until_ready()", "%time f(x).block_until_ready()"),  # warm-up in an earlier cell
        ("%timeit f(x).block_until_ready()",),  # calibration runs absorb the compile
        ("g = jax.jit(lambda v: v + 1).lower(x).compile()", "%time g(x).block_until_ready()"),  # compiled ahead of time
    ],
)
def test_lb103_not_reported_after_a_warm_up(cells):
    assert "LB103" not in codes(nb(JAX_HEADER, *cells), notebook=True)


def test_lb103_the_best_of_timeit_repeats_never_holds_the_compile():
    # diffrax's jump_step_timing.py: min(timeit.repeat(time_controller, number=3, repeat=20)) with a jitted
    # function called through a helper; the first repeat compiles, the minimum is a later one
    best = JAX_HEADER + "def run():\n    f(x).block_until_ready()\nprint(min(timeit.repeat(run, number=3, repeat=20)))\n"
    assert "LB103" not in codes(best)
    assert "LB103" in codes(best.replace("min(timeit.repeat(", "sum(timeit.repeat("))  # the total holds it
    assert "LB103" in codes(best.replace("repeat=20", "repeat=1"))  # one repeat: the minimum is the cold one


@pytest.mark.parametrize("loop, named, fires", [
    (True, "jit_time", True),  # case 196: a total over 100 calls beside `python_time`: the jitted version's time
    (True, "compile_time", False),  # the words say the total is meant to hold the compile
    (False, "jit_time", False),  # one call timed: `jit time` is its compile
])
def test_lb103_jit_time_names_the_jitted_version_of_a_timing_that_repeats_its_call(loop, named, fires):
    call = "for _ in range(100):\n    f(x)\n" if loop else "f(x)\n"
    src = JAX_HEADER + f"start = time.perf_counter()\n{call}end = time.perf_counter()\n{named} = end - start\n"
    assert ("LB103" in codes(src)) is fires


@pytest.mark.parametrize("first, warms", [
    ("print(timeit.timeit(lambda: f(x).block_until_ready(), number=1))", True),  # the lambda runs inside timeit
    ("results = list(map(lambda v: f(v).block_until_ready(), [x]))", True),
    ("later = lambda: f(x).block_until_ready()", False),  # stored, not run: the timing below is the first call
])
def test_lb103_a_lambda_handed_to_a_call_runs_where_the_call_stands(first, warms):
    timed = "t0 = time.perf_counter()\nf(x).block_until_ready()\nprint(time.perf_counter() - t0)\n"
    assert [c for c, _, line in found(JAX_HEADER + first + "\n" + timed) if c == "LB103" and line == 11] == ([] if warms else ["LB103"])


def test_lb103_timeit_setup_counts_as_warm_up():
    src = JAX_HEADER + "timeit.timeit(lambda: f(x).block_until_ready(), setup=lambda: f(x).block_until_ready(), number=9)\n"
    assert "LB103" not in codes(src)



def test_lb103_first_iteration_of_a_timed_loop_compiles():
    src = "import time\nimport jax\nimport jax.numpy as jnp\nmul = jax.jit(jnp.multiply)\na = jnp.ones(9)\nfor {var} in range(5):\n    t0 = time.perf_counter()\n    mul(a, {arg}).block_until_ready()\n    print(time.perf_counter() - t0)\n"
    assert ("LB103", 0, 8) in found(src.format(var="_", arg="a"))
    assert "LB103" not in codes(src.format(var="n", arg="n"))  # a sweep: each new value compiles by design
    warmed = src.format(var="_", arg="a").replace("for _", "mul(a, a).block_until_ready()\nfor _")
    assert "LB103" not in codes(warmed)


@pytest.mark.parametrize("timing, meant", [
    ("%time f(v).block_until_ready()  # compile time", True),
    ("%time f(v).block_until_ready()  # first run", True),
    ("# --- First execution (t_1) ---\n%time f(v).block_until_ready()", True),  # case 117, beside its second execution
    ("# --- Second execution (t_2) ---\n%time f(v).block_until_ready()", False),
    ("# compile time\n%time f(v).block_until_ready()", True),  # the seed notebook's words, above its timing
    ("# compiled version\n%time f(v).block_until_ready()", False),  # names what a warm call runs
    ("# time it without compilation\n%time f(v).block_until_ready()", False),
    ("# compile time\n\n%time f(v).block_until_ready()", False),  # not right above it
    ("%time f(v).block_until_ready()  # timing", False),
])
def test_lb103_not_reported_when_the_script_says_it_times_compilation(timing, meant):
    """The policy `levelbench._values.intent` sets for the static LB103 and ``doctor --run`` alike."""
    setup = "import jax\nimport jax.numpy as jnp\nf = jax.jit(jnp.cos)\nv = jnp.ones(3)"
    assert ("LB103" not in codes(nb(setup, timing), notebook=True)) is meant



def test_functions_passed_as_arguments_are_followed_into_the_timed_helper():
    src = """
    import time
    import jax
    def timed(fn, label):
        t0 = time.perf_counter()
        outs = [fn(v) for v in range(200)]
        print(label, time.perf_counter() - t0)
    def cube(v):
        return v ** 3
    @jax.jit
    def cube_jit(v):
        return v ** 3
    timed(jax.grad(cube), "grad")
    timed(jax.grad(cube_jit), "grad of jit")
    """
    found_codes = {(c, line) for c, _, line in found(src)}
    assert {("LB102", 6), ("LB103", 6), ("LB114", 6)} <= found_codes
    plain = src.replace("jax.grad(cube)", "abs").replace("jax.grad(cube_jit)", "round")
    assert not {"LB102", "LB103", "LB114"} & codes(plain)


@pytest.mark.parametrize(
    "cells",
    [("%time y = f(x).block_until_ready()", "# Now time it without compilation\n%time y = f(x).block_until_ready()"),
     ("%time y = f(x).block_until_ready()", "# second run, after compilation\n%time y = f(x).block_until_ready()"),
     ("t0 = time.perf_counter()\nf(x).block_until_ready()\nprint(time.perf_counter() - t0)",
      "# again, without the compile time\nt1 = time.perf_counter()\nf(x).block_until_ready()\nprint(time.perf_counter() - t1)")],
)
def test_lb103_quiet_when_the_user_says_the_first_timing_holds_compilation(cells):
    # case 087 (QuantEcon): a timing pair, the comment on the second says the first includes compilation on purpose
    assert "LB103" not in codes(nb(JAX_HEADER, *cells), notebook=True)
    plain = [c.split("\n", 1)[1] if c.startswith("#") else c for c in cells]  # the same pair, no comment
    # the same timing run twice is a cold and a warm run by design too (case 144, QuantEcon's Aiyagari lecture)
    assert "LB103" not in codes(nb(JAX_HEADER, *plain), notebook=True)
    assert "LB103" in codes(nb(JAX_HEADER, plain[0]), notebook=True)  # timed once: the one figure holds the compile
    # a comment naming the compile time right above the first timing says so too (the seed notebook's cells:
    # `levelbench._values.intent`, doctor --run's policy as well); "compiled" above the second does not
    named = ["# compile time\n" + plain[0], "# compiled JAX version\n" + plain[1]]
    assert "LB103" not in codes(nb(JAX_HEADER, *named), notebook=True)
    assert "LB103" in codes(nb(JAX_HEADER, "# compiled JAX version\n" + plain[0]), notebook=True)


TIMED_TWICE = JAX_HEADER + "import quantecon as qe\nwith qe.Timer():\n    y = f(x).block_until_ready()\nwith qe.Timer():\n    y = f(x).block_until_ready()\n"


def test_lb103_quiet_when_the_same_timing_runs_again_warm():
    assert "LB103" not in codes(TIMED_TWICE)  # case 098: each jitted function timed twice, the first with compile


@pytest.mark.parametrize("first, second, fires", [
    ("dt", "dt", False),  # one measurement made twice: the first figure is the cold one by design
    ("times['run']", "times['run']", False),
    ("times['compiled']", "times['run_time']", True),  # two quantities: the first is read as a speed
    ("dt", "dt_warm", True),
])
def test_lb103_a_pair_whose_figures_are_named_apart_is_two_quantities(first, second, fires):
    pair = "t0 = time.perf_counter()\ny = f(x).block_until_ready()\n{} = time.perf_counter() - t0\n"
    src = JAX_HEADER + "times = {}\n" + pair.format(first) + pair.format(second)
    assert ("LB103" in codes(src)) is fires


@pytest.mark.parametrize(
    "old, new",
    [
        ("    y = f(x).block_until_ready()\n", "    y = f(x[:10]).block_until_ready()\n"),  # another shape: both compile
        ("with qe.Timer():\n    y = f(x).block_until_ready()\n", "%time y = f(x).block_until_ready()\n"),  # then %timeit
    ],
)
def test_lb103_still_reported_when_the_second_timing_is_not_the_same_warm_run(old, new):
    src = TIMED_TWICE.replace(old, new, 1)
    if new.startswith("%time"):
        src = src.replace("with qe.Timer():\n    y = f(x).block_until_ready()\n", "%timeit y = f(x).block_until_ready()\n")
        assert "LB103" in codes(nb(src), notebook=True)  # jax-ml/jax#4729 (case 020): %time, then %timeit
    else:
        assert "LB103" in codes(src)


@pytest.mark.parametrize("above, name, before, fires", [
    ("# --- First execution ---\n", "run", "", False),  # 134's helper variant: the comment heads the def
    ("", "time_first_call", "", False),  # the name says it
    ("", "run", "", True),
    ("# --- First execution ---\n", "run", "    y = x + 1\n", True),  # the timing is not what the def opens with
])
def test_lb103_the_words_over_a_def_a_timing_opens_say_what_it_times(above, name, before, fires):
    src = JAX_HEADER + (f"{above}def {name}():\n{before}    t0 = time.perf_counter()\n    f(x).block_until_ready()\n"
                        f"    print(time.perf_counter() - t0)\n{name}()\n")
    assert ("LB103" in codes(src)) is fires


@pytest.mark.parametrize("said, steady, fires", [
    ("# Now time it without compilation\n", "z", False),
    ("", "z", True),  # another statement, and no words: nothing says the first figure is the compile
    ("", "y", False),  # the same statement timed again the same way: cold then warm, as at module level (mend23)
])
def test_lb103_the_steady_twin_of_a_cold_timing_may_sit_in_another_function(said, steady, fires):
    # case 087's helper variant: the cold `%time` in a helper, the one said to run without compilation at module level
    cells = nb(JAX_HEADER, "def run_benchmark():\n    %time y = f(x).block_until_ready()\nrun_benchmark()",
               f"{said}%time {steady} = f(x).block_until_ready()")
    assert ("LB103" in codes(cells, notebook=True)) is fires


# --- LB104 single sample / LB105 wall clock ----------------------------------------------------
def test_lb104_and_lb105_single_time_time_sample():
    src = "import time\nimport numpy as np\na = np.ones((9, 9))\nstart = time.time()\nb = np.dot(a, a)\nprint(time.time() - start)\n"
    assert found(src) == [("LB105", 0, 4), ("LB104", 0, 5)]
    lb104 = [d for d in lint_source(textwrap.dedent(src), "s.py") if d.code == "LB104"][0]
    assert "no warm-up" in lb104.message and "np.dot(a, a)" in lb104.message


def test_lb104_timeit_with_a_single_run():
    assert "LB104" in codes(JAX_HEADER + "f(x).block_until_ready()\ntimeit.timeit(lambda: f(x).block_until_ready(), number=1)\n")


def test_lb104_and_lb103_timeit_magic_with_one_run_and_one_repeat():
    cells = ("import jax\nimport jax.numpy as jnp\nf = jax.jit(jnp.sin)\nv = jnp.ones(3)",)
    assert {"LB103", "LB104"} <= codes(nb(*cells, "%timeit -n1 -r1 f(v).block_until_ready()"), notebook=True)
    assert "LB104" not in codes(nb(*cells, "%timeit -n1 -r5 f(v).block_until_ready()"), notebook=True)


@pytest.mark.parametrize(
    "src",
    [
        # many samples, the clock pair inside a loop
        "ts = []\nfor _ in range(9):\n    t0 = time.perf_counter()\n    np.dot(a, a)\n    ts.append(time.perf_counter() - t0)\n",
        # one clock pair around a loop: an average
        "t0 = time.perf_counter()\nfor _ in range(9):\n    np.dot(a, a)\nprint((time.perf_counter() - t0) / 9)\n",
        # no framework work in the region
        "t0 = time.perf_counter()\ntime.sleep(0.01)\nprint(time.perf_counter() - t0)\n",
        # a timing function called repeatedly
        "def once():\n    t0 = time.perf_counter()\n    np.dot(a, a)\n    return time.perf_counter() - t0\nbest = min(once() for _ in range(9))\n",
    ],
)
def test_lb104_not_reported_for_repeated_or_empty_timings(src):
    assert "LB104" not in codes("import time\nimport numpy as np\na = np.ones((9, 9))\n" + src)


SWEEP_HEADER = "import time\nimport numpy as np\nimport quantecon as qe\na = np.ones((9, 9))\n"
SWEEP_HEADER += "def solve(a, m=1):\n    for _ in range(m):\n        a = np.dot(a, a)\n    return a\n"


@pytest.mark.parametrize(
    ("loop", "fires"),
    [
        # one sample per value of a swept parameter (QuantEcon's opt_invest, case 141: `for m in m_vals`)
        ("for m in range(5, 300, 100):\n    t0 = time.perf_counter()\n    solve(a, m=m)\n    ts.append(time.perf_counter() - t0)\n", True),
        ("for m in grid:\n    qe.tic()\n    solve(a, m)\n    ts.append(qe.toc())\n", True),
        ("for m in np.logspace(1, 3, 3):\n    t0 = time.perf_counter()\n    solve(a, m=int(m))\n    ts.append(time.perf_counter() - t0)\n", True),
        # repeats of one measurement: a counter, a loop over data, an index
        ("for m in range(9):\n    t0 = time.perf_counter()\n    solve(a, m=m)\n    ts.append(time.perf_counter() - t0)\n", False),
        ("for m in grid:\n    t0 = time.perf_counter()\n    solve(a, m=3)\n    ts.append(time.perf_counter() - t0)\n", False),
        ("for m in [5, 8, 8, 8]:\n    t0 = time.perf_counter()\n    solve(a, m=m)\n    ts.append(time.perf_counter() - t0)\n", False),
        ("for b in batches:\n    t0 = time.perf_counter()\n    solve(b)\n    ts.append(time.perf_counter() - t0)\n", False),
        ("for i in range(0, 9, 3):\n    t0 = time.perf_counter()\n    solve(batches[i])\n    ts.append(time.perf_counter() - t0)\n", False),
    ],
)
def test_lb104_a_sweep_times_each_value_once(loop, fires):
    src = SWEEP_HEADER + "grid = [5, 105, 205]\nbatches = [a, a, a]\nts = []\n" + loop
    lb104 = [d for d in lint_source(src, "s.py") if d.code == "LB104"]
    assert bool(lb104) is fires
    if fires:
        assert lb104[0].location.line == src.splitlines().index(loop.splitlines()[2]) + 1
        assert "once for each value of `m`" in lb104[0].message


# A helper timed with `timeit(number=1)` and called once per size from a loop (jax-ml/jax#31368, case 165).
SWEPT_HELPER = """
import timeit
import jax
import jax.numpy as jnp

def run_and_time(n):
    a = jnp.ones((64, n, n))
    run = lambda: jax.jit(jnp.linalg.eigh)(a)[0].block_until_ready()
    run()
    {timing}

for i in {values}:
    run_and_time({arg})
"""


@pytest.mark.parametrize(
    "timing",
    [
        'print(f"{timeit.timeit(run, number=1) * 1000:.2f} ms")',  # in an f-string in print
        "print(timeit.timeit(run, number=1))",  # an argument
        "return timeit.timeit(run, number=1)",  # a return
        "t = timeit.timeit(lambda: run(), number=1)",
    ],
)
@pytest.mark.parametrize("values", ["range(30, 35)", "[32, 64, 128]", "range(8, 65, 8)"])
def test_lb104_timeit_once_in_a_helper_its_callers_sweep(timing, values):
    src = SWEPT_HELPER.format(timing=timing, values=values, arg="i")
    (lb104,) = [d for d in lint_source(src, "s.py") if d.code == "LB104"]
    assert lb104.location.line == 10
    assert "once for each value of `n`" in lb104.message and "no warm-up" not in lb104.message


@pytest.mark.parametrize(
    ("change", "values", "arg"),
    [
        (("", ""), "range(5)", "i"),  # a counter: repeats of one measurement
        (("", ""), "range(1, 6)", "i"),  # a counter from 1
        (("", ""), "[32, 64, 128]", "32"),  # the loop variable is not passed: repeats
        (("", ""), "[32, 64, 32]", "i"),  # comes back to a value: repeats
        (("number=1", "number=100"), "range(30, 35)", "i"),  # a total over 100 runs
        (("timeit.timeit(run, number=1)", "min(timeit.repeat(run, number=1, repeat=5))"), "range(30, 35)", "i"),
        (("a = jnp.ones((64, n, n))", "a = jnp.ones((64, 32, 32))"), "range(30, 35)", "i"),  # the parameter unread
    ],
)
def test_lb104_quiet_when_the_helper_is_repeated_not_swept(change, values, arg):
    src = SWEPT_HELPER.format(timing="print(timeit.timeit(run, number=1))", values=values, arg=arg)
    assert "LB104" not in codes(src.replace(*change)), src.replace(*change)


QUANTECON_STOPWATCH = JAX_HEADER + "import quantecon as qe\nqe.tic()\ny = f(x)\nelapsed = qe.toc()\n"


def test_quantecon_tic_toc_is_a_timed_region():
    assert {"LB102", "LB103", "LB104"} <= codes(QUANTECON_STOPWATCH)
    assert {"LB102", "LB103", "LB104"} <= codes(QUANTECON_STOPWATCH.replace("import quantecon as qe\n", "from quantecon import tic, toc\n").replace("qe.", ""))
    assert "LB102" in codes(QUANTECON_STOPWATCH.replace("elapsed = qe.toc()", "print(f'{qe.tac()} s')"))


@pytest.mark.parametrize(
    "change",
    [
        ("y = f(x)\n", "y = f(x).block_until_ready()\n"),  # waited for
        ("qe.tic()\n", "f(x).block_until_ready()\nqe.tic()\n"),  # warmed up: no LB103 (LB104/LB102 aside)
        ("import quantecon as qe\n", "import quantecon as qe\ndef tic():\n    pass\n"),  # a tic() of the program's own
        ("elapsed = qe.toc()\n", "qe.tic()\nelapsed = qe.toc()\n"),  # started again: nothing timed in between
        ("y = f(x)\nelapsed = qe.toc()\n", "for _ in range(3):\n    y = f(x)\n    elapsed = qe.toc()\n"),  # read in a loop
    ],
)
def test_quantecon_stopwatch_quiet_twins(change):
    old, new = change
    src = QUANTECON_STOPWATCH.replace(old, new, 1)
    if "def tic" in new:
        src = src.replace("qe.tic()", "tic()")
    quiet = {"LB102"} if "block_until_ready()\n" in new and "qe.tic" not in new else {"LB102", "LB103", "LB104"}
    if "f(x).block_until_ready()\nqe.tic()" in new:
        quiet = {"LB103"}
    assert not quiet & codes(src), src


def test_lb105_not_reported_for_perf_counter():
    src = "import time\nimport numpy as np\na = np.ones(9)\nt0 = time.perf_counter()\nnp.sum(a)\nprint(time.perf_counter() - t0)\n"
    assert "LB105" not in codes(src)


# --- LB106 Python loop under jit ---------------------------------------------------------------
# (definitions, the script's call, whether the definitions alone, a library module, still get LB106)
LB106_LOOPS = [
    ("@jax.jit\ndef g(xs):\n    acc = 0.0\n    for x in xs:\n        acc = acc + jnp.sin(x)\n    return acc\n",
     "g(jnp.ones(1000))", False),
    ("def g(xs, n):\n    for i in range(n):\n        xs = xs * 2\n    return xs\ng_jit = jax.jit(g, static_argnums=1)\n",
     "g_jit(jnp.ones(3), 1000)", False),
    ("from functools import partial\n@partial(jax.jit, static_argnums=1)\ndef g(xs, n):\n    for i in range(n):\n        xs = xs * 2\n    return xs\n",
     "g(jnp.ones(3), 1000)", False),
    ("@jax.jit\ndef g(xs, k):\n    for i in range(-k, k):\n        xs = xs + jnp.roll(xs, i)\n    return xs\n",
     "g(jnp.ones(3), 500)", False),
    ("from jax import jit as J\n@J\ndef g(xs):\n    i = 0\n    while i < 100:\n        xs = xs + 1\n        i += 1\n    return xs\n",
     "g(jnp.ones(3))", True),
    ("jit = jax.jit\ndef helper(xs):\n    for t in range(xs.shape[0]):\n        xs = xs.at[t].set(0)\n    return xs\n@jit\ndef g(xs):\n    return helper(xs)\n",
     "g(jnp.ones(9))", True),
    ("STEPS = 1000\n@jax.jit\ndef g(xs):\n    for _ in range(STEPS):\n        xs = xs * 2\n    return xs\n", "g(jnp.ones(3))", True),
]


@pytest.mark.parametrize(("src", "call", "library"), LB106_LOOPS)
def test_lb106_python_loop_inside_a_jitted_function(src, call, library):
    """A script that calls the function shows what it loops over; the same definitions in a library module
    are reported only where the loop is long whatever the callers pass (a constant, an array's size)."""
    header = "import jax\nimport jax.numpy as jnp\n"
    assert "LB106" in codes(header + src + call + "\n")
    assert "LB106" in codes(nb(header + src, call), notebook=True)
    assert ("LB106" in codes(header + src)) is library


def test_lb106_names_flax_and_shows_the_scan_rewrite():
    src = """
    import jax
    import flax.linen as nn
    cell = nn.GRUCell(features=4)
    def forward(params, X, h):
        ys = []
        for x in X:
            h, y = cell.apply(params, h, x)
            ys.append(y)
        return ys
    forward_jit = jax.jit(forward)
    ys = forward_jit(params, X, h)
    """
    (d,) = [d for d in lint_source(textwrap.dedent(src), "s.py") if d.code == "LB106"]
    assert "Flax" in d.message and "forward_jit = jax.jit(forward)" in d.finding.evidence
    assert "jax.lax.scan(step, h, X)" in d.finding.fix and "return h, y" in d.finding.fix


@pytest.mark.parametrize(
    "src",
    [
        "@jax.jit\ndef g(params, x):\n    for w, b in params:\n        x = jnp.tanh(x @ w + b)\n    return x\n",  # layers
        "@jax.jit\ndef g(x):\n    for _ in range(3):\n        x = x * 2\n    return x\n",  # small static range
        "def g(xs):\n    for x in xs:\n        xs = xs + x\n    return xs\n",  # never jitted
        "@jax.jit\ndef g(h, xs):\n    def step(h, x):\n        return h + x, h\n    return jax.lax.scan(step, h, xs)\n",
    ],
)
def test_lb106_not_reported_for_structure_small_ranges_or_unjitted_code(src):
    assert "LB106" not in codes("import jax\nimport jax.numpy as jnp\n" + src)



@pytest.mark.parametrize(
    "body",
    [
        "    total = 0.0\n    for axis in range(grid.ndim):\n        total = total + grid.sum(axis)\n    return total\n",
        "    for d in range(len(grid.shape)):\n        grid = jnp.flip(grid, d)\n    return grid\n",
        "    out = []\n    for a, b in zip(tree_a, tree_b):\n        out.append(a - b)\n    return out\n",
        "    node = grid\n    while node is not None:\n        node = None\n    return grid\n",
        "    rows = [[0.0, 1.0] for _ in range(count)]\n    return jnp.asarray(rows) + grid\n",
    ],
)
def test_lb106_not_reported_for_loops_over_dimensions_structure_or_constant_lists(body):
    src = f"import jax\nimport jax.numpy as jnp\n@jax.jit\ndef reduce_all(grid, tree_a=(), tree_b=(), count=4):\n{body}"
    assert "LB106" not in codes(src)


@pytest.mark.parametrize(
    ("loop", "call", "fires"),
    [
        # corpus 113 (QuantEcon's jax_nn lecture): `for W, b in θ` takes each layer's record apart: a pytree
        ("for W, b in θ:\n        total = total + jnp.sum(W ** 2) + jnp.sum(b)", "penalty(layers, x)", False),
        ("for (W, b) in θ:\n        total = total + jnp.sum(W ** 2)", "penalty(layers, x)", False),
        # the same loop over an argument the callers give an array: its rows, one unrolled step each
        ("for W, b in θ:\n        total = total + W * b", "penalty(jnp.ones((500, 2)), x)", True),
        # used as one array in the function: its rows
        ("for W, b in θ:\n        total = total + W * b\n    total = total / θ.shape[0]", "penalty(layers, x)", True),
        # no unpacking: each element could be a row
        ("for W in θ:\n        total = total + jnp.sum(W ** 2)", "penalty(layers, x)", True),
    ],
)
def test_lb106_a_loop_that_unpacks_each_element_of_an_argument_walks_records(loop, call, fires):
    src = (
        "import jax\nimport jax.numpy as jnp\n"
        "@jax.jit\ndef penalty(θ, x):\n    total = jnp.sum(x)\n"
        f"    {loop}\n    return total\n"
        "layers = [(jnp.ones((4, 4)), jnp.ones(4)) for _ in range(3)]\nx = jnp.ones(4)\n"
        f"print({call})\n"
    )
    assert ("LB106" in codes(src)) is fires


def test_lb106_traced_helpers_iterate_over_data_only_when_it_is_used_as_an_array():
    structure = "def visit(nodes):\n    seen = []\n    for n in nodes:\n        seen.append(n)\n    return seen\n"
    data = "def visit(nodes):\n    acc = 0.0\n    for n in nodes:\n        acc = acc + n\n    return acc * nodes.shape[0]\n"
    caller = "@jax.jit\ndef outer(v):\n    return visit([v, v])\n"
    assert "LB106" not in codes("import jax\n" + structure + caller)
    assert "LB106" in codes("import jax\n" + data + caller)


@pytest.mark.parametrize(
    ("expr", "builtin"),
    [("sum(signal)", "sum"), ("max(signal)", "max"), ("sorted(signal)[0]", "sorted"),
     ("sum(v * v for v in signal)", "sum"), ("jnp.stack([jnp.tanh(v) for v in signal])", "comprehension")],
)
def test_lb106_implicit_python_iteration_over_an_array_under_jit(expr, builtin):
    src = f"import jax\nimport jax.numpy as jnp\n@jax.jit\ndef energy(signal):\n    return {expr}\n"
    (d,) = [d for d in lint_source(src + "energy(jnp.ones(100))\n", "s.py") if d.code == "LB106"]
    assert builtin in d.message
    assert "LB106" not in codes(src.replace("@jax.jit\n", "") + "energy(jnp.ones(100))\n")  # Python iterates a concrete array
    assert "LB106" not in codes(src)  # a library function: its callers may hand it a tuple of arrays


@pytest.mark.parametrize(
    ("loop", "fires"),
    [
        # doubling up to a size, and halving a shape: log2 of the bound, a few unrolled steps (jaxtra's bench_ormqr)
        ("p = 1\n    while p < x.shape[0]:\n        x = x + p\n        p *= 2", False),
        ("while x.shape[0] > 1:\n        half = x.shape[0] // 2\n        x = x[:half] + x[half:2 * half]", False),
        ("k = x.shape[0]\n    while k > 1:\n        x = x + 1\n        k >>= 1", False),
        # the same loops stepping by one: a step per element, unrolled
        ("p = 1\n    while p < x.shape[0]:\n        x = x + p\n        p += 2", True),
        ("while x.shape[0] > 1:\n        x = x[1:] + x[:-1]", True),
        # a factor that scales something the test does not read: still a step per element
        ("i = 0\n    while i < x.shape[0]:\n        x = x * 2\n        i += 1", True),
    ],
)
def test_lb106_a_while_loop_that_scales_its_bound_geometrically_runs_log_steps(loop, fires):
    src = (
        "import jax\nimport jax.numpy as jnp\n"
        f"@jax.jit\ndef reduce(x):\n    {loop}\n    return x\n"
        "reduce(jnp.ones(1024))\n"
    )
    assert ("LB106" in codes(src)) is fires


def test_lb106_a_static_argument_is_not_array_data():
    src = "import jax\nfrom functools import partial\n@partial(jax.jit, static_argnums=1)\ndef pick(x, names):\n    for k in names:\n        x = x + len(k)\n    return x\n"
    src += "pick(jax.numpy.ones(3), jax.numpy.ones(30))\n"
    assert "LB106" not in codes(src)
    assert "LB106" in codes(src.replace("static_argnums=1", "static_argnums=0"))



@pytest.mark.parametrize(
    ("call", "fires"),
    [("run(*leaves)", False), ("run(leaf_a, leaf_b)", False), ("run(jnp.ones(30))", True)],
)
def test_lb106_an_argument_every_caller_passes_as_a_tuple_of_leaves_is_structure(call, fires):
    # equinox internal/_noinline.py: a jitted callback over `zip(dynamic, is_float0)`, `dynamic` the caller's *args
    src = (
        "import jax\nimport jax.numpy as jnp\nimport numpy as np\n"
        "def make(flags):\n"
        "    @jax.jit\n"
        "    def callback(dynamic):\n"
        "        return [x * 2 if y else x for x, y in zip(dynamic, flags)]\n"
        "    def lookup(*dynamic):\n"
        "        return callback(dynamic)\n"
        "    return lookup\n"
        "def lowering(ctx):\n"
        "    callback = make((True, False))  # another value of the same name: not the nested def\n"
        "    return ctx.register(callback)\n"
        "run = make((True, False))\nleaf_a = leaf_b = jnp.ones(3)\nleaves = (leaf_a, leaf_b)\n"
    )
    src = src.replace("return callback(dynamic)", "return callback(dynamic)" if call == "run(*leaves)" else "return callback(CALLED)")
    called = {"run(*leaves)": "dynamic", "run(leaf_a, leaf_b)": "(dynamic[0], dynamic[1])", "run(jnp.ones(30))": "jnp.ones(30)"}
    src = src.replace("CALLED", called[call]) + call + "\n"
    assert ("LB106" in codes(src)) is fires

# --- LB107 jitted function returns nothing -----------------------------------------------------
def test_lb107_jitted_function_without_return_points_at_its_name():
    src = "import jax\nimport jax.numpy as jnp\n\ndef forward(x):\n    y = jnp.sin(x)\n    # return y\n\nforward_jit = jax.jit(forward)\n"
    (d,) = lint_source(src, "s.py", select=["LB107"])
    assert (d.location.line, d.location.column, d.location.end_column) == (4, 5, 12)
    assert d.finding.fix.strip().endswith("return y") and "commented out" in d.finding.evidence


def test_lb107_not_reported_when_a_value_is_returned_or_nothing_is_jitted():
    assert "LB107" not in codes("import jax\n@jax.jit\ndef f(x):\n    return x + 1\ndef g(x):\n    print(x)\n")


# --- LB108 float64 without x64 -----------------------------------------------------------------
@pytest.mark.parametrize(
    "line",
    ["x = jnp.ones(3, dtype=jnp.float64)", "x = jnp.zeros(3, dtype='float64')", "x = jnp.ones(3).astype(np.float64)"],
)
def test_lb108_float64_requested_without_x64(line):
    assert "LB108" in codes(f"import jax.numpy as jnp\nimport numpy as np\n{line}\n")


def test_lb108_not_reported_for_dtype_comparisons():
    assert "LB108" not in codes("import jax.numpy as jnp\nx = jnp.ones(3)\nwide = x.dtype == jnp.float64\n")


def test_lb108_not_reported_with_x64_or_for_numpy_only_code():
    assert "LB108" not in codes('import jax\nimport jax.numpy as jnp\njax.config.update("jax_enable_x64", True)\nx = jnp.ones(3, dtype=jnp.float64)\n')
    assert "LB108" not in codes("import numpy as np\nx = np.ones(3, dtype=np.float64)\n")



def test_lb108_reported_once_per_file_at_the_first_request_naming_the_others():
    src = "import jax.numpy as jnp\nu = jnp.zeros(4, dtype=jnp.float64)\nv = jnp.eye(4, dtype='float64')\nw = u.astype(jnp.float64)\n"
    diagnostics = [d for d in lint_source(src, "wide.py") if d.code == "LB108"]
    assert [d.location.line for d in diagnostics] == [2]
    assert "also requested at line 3, line 4" in diagnostics[0].finding.evidence


def test_lb108_jax_dtype_handed_to_numpy_is_a_numpy_request():
    src = "import numpy as onp\nimport jax.numpy as np\nhost = onp.zeros((2, 2), dtype=np.float64)\ncopy = onp.asarray(host).astype(np.float64)\n"
    assert "LB108" not in codes(src)
    assert "LB108" in codes(src + "dev = np.asarray(host, dtype=np.float64)\n")


def test_lb108_not_reported_in_a_library_module_that_runs_nothing():
    library = "import jax.numpy as jnp\n\ndef wide_zeros(n):\n    return jnp.zeros(n, dtype=jnp.float64)\n"
    assert "LB108" not in codes(library)
    assert "LB108" not in codes(library + "if __name__ == '__main__':\n    import unittest\n    unittest.main()\n")
    assert "LB108" in codes(library + "if __name__ == '__main__':\n    print(wide_zeros(3))\n")
    assert "LB108" in codes(library + "z = wide_zeros(3)\n")


def test_lb108_snippet_without_imports_uses_the_conventional_names():
    assert "LB108" in codes("k = random.PRNGKey(1)\nu = random.normal(k, (8,), dtype='float64')\n")
    assert "LB108" not in codes("import random\nk = random.seed(1)\nu = random.gauss(0, 1)\n")


F64_NUMPY = "import numpy as onp\nimport jax.numpy as jnp\nx = onp.array([[0.3744, 0.1656], [0.4707, 0.1663]])\n"


@pytest.mark.parametrize("made", ["jnp.asarray(x)", "jnp.array(onp.random.rand(2, 2))", "jax.device_put(x)"])
@pytest.mark.parametrize("compared", ["assert jnp.allclose(z, z_)", "onp.testing.assert_allclose(z_, z)"])
def test_lb108_float64_numpy_arrays_handed_to_jax_and_compared_with_numpy(made, compared):
    # case 081 (jax-ml/jax#9973): no dtype is written, NumPy's float64 is the intent the comparison states
    src = "import jax\n" + F64_NUMPY + f"x_ = {made}\nz_ = jnp.dot(x_, x_)\nz = onp.dot(x, x)\n{compared}\n"
    assert ("LB108", 0, 5) in found(src)


@pytest.mark.parametrize(
    "change",
    [("assert jnp.allclose(z, z_)", "assert jnp.allclose(z, z_, rtol=1e-3)"),  # tolerance allows for float32
     ("x_ = jnp.asarray(x)", "x_ = jnp.asarray(x, dtype=jnp.float32)"),  # float32 asked for
     ("x = onp.array([[0.3744, 0.1656], [0.4707, 0.1663]])", "x = onp.array([[3, 1], [4, 1]])"),  # integers
     ("assert jnp.allclose(z, z_)", "print(z, z_)")],  # nothing compared
)
def test_lb108_quiet_on_float64_numpy_conversions_without_a_strict_comparison(change):
    src = "import jax\n" + F64_NUMPY + "x_ = jnp.asarray(x)\nz_ = jnp.dot(x_, x_)\nz = onp.dot(x, x)\nassert jnp.allclose(z, z_)\n"
    assert "LB108" in codes(src)
    assert "LB108" not in codes(src.replace(*change))


# --- LB109 shape passed as loc -----------------------------------------------------------------
@pytest.mark.parametrize(
    "line",
    ["x = np.random.normal((n, n))", "x = np.random.uniform((n, n))", "x = rng.normal((n, n))", "x = np.random.gamma((n,))"],
)
def test_lb109_shape_tuple_as_first_argument_of_a_sampler(line):
    (d,) = lint_source(f"import numpy as np\nn = 4\nrng = np.random.default_rng(0)\n{line}\n", "s.py", select=["LB109"])
    assert d.location.line == 4 and "size=" in d.finding.fix


@pytest.mark.parametrize(
    "line",
    ["x = np.random.normal(size=(n, n))", "x = np.random.normal(0, 1, (n, n))", "x = np.random.normal((0, 1), size=(3, 2))", "x = rng.standard_normal((n, n))"],
)
def test_lb109_not_reported_when_size_is_given(line):
    assert "LB109" not in codes(f"import numpy as np\nn = 4\nrng = np.random.default_rng(0)\n{line}\n")


# --- LB110 NumPy x @ x.T (SYRK) ----------------------------------------------------------------
SYRK_HEADER = "import time\nimport jax\nimport numpy as np\nimport levelbench\nx = np.ones((9, 9))\nz = np.ones((9, 9))\n"


@pytest.mark.parametrize("expr", ["np.dot(x, x.T)", "x @ x.T", "np.matmul(x.T, x)", "x.dot(x.transpose())"])
def test_lb110_numpy_product_with_its_own_transpose_in_a_benchmark(expr):
    assert "LB110" in codes(SYRK_HEADER + f"t0 = time.perf_counter()\ny = {expr}\nprint(time.perf_counter() - t0)\n")
    assert "LB110" in codes(nb(SYRK_HEADER, f"%timeit {expr}"), notebook=True)
    compared = SYRK_HEADER + f"def numpy_side(x):\n    return {expr}\nlevelbench.compare({{'numpy': (numpy_side, (x,)), 'jax': (jax.jit(numpy_side), (x,))}})\n"
    assert "LB110" in codes(compared)


@pytest.mark.parametrize(
    "src",
    [
        SYRK_HEADER + "gram = np.dot(x, x.T)\n",  # not timed: a Gram matrix is just a Gram matrix
        SYRK_HEADER + "t0 = time.perf_counter()\ny = np.dot(x, z.T)\nprint(time.perf_counter() - t0)\n",  # distinct operands
        SYRK_HEADER.replace("import jax\n", "") + "t0 = time.perf_counter()\ny = x @ x.T\nprint(time.perf_counter() - t0)\n",  # NumPy only
    ],
)
def test_lb110_not_reported_untimed_for_distinct_operands_or_numpy_only(src):
    assert "LB110" not in codes(src)


def test_lb110_not_reported_for_jax_products():
    assert "LB110" not in codes(nb("import jax.numpy as jnp\nx = jnp.ones((9, 9))", "%timeit jnp.dot(x, x.T).block_until_ready()"), notebook=True)


# --- LB111 jit re-created ----------------------------------------------------------------------
@pytest.mark.parametrize(
    "src",
    [
        "for v in xs:\n    y = jax.jit(lambda a: a * 2)(v)\n",
        "def step(v):\n    return jax.jit(lambda a: a * 2)(v)\nfor v in xs:\n    step(v)\n",
        "import functools\ndef g(a, k):\n    return a * k\nfor k in range(3):\n    h = jax.jit(functools.partial(g, k=k))\n    h(xs)\n",
    ],
)
def test_lb111_jit_inside_a_loop_or_per_call(src):
    assert "LB111" in codes("import jax\nimport jax.numpy as jnp\nxs = jnp.ones((4, 3))\n" + src)


def test_lb111_jit_inside_a_timed_statement():
    assert "LB111" in codes(nb("import jax\ng = lambda v: v\nx = 1", "%timeit jax.jit(lambda v: v + 1)(x)"), notebook=True)


@pytest.mark.parametrize(
    "src",
    [
        "double = jax.jit(lambda a: a * 2)\nfor v in xs:\n    double(v)\n",
        "def make(k):\n    return jax.jit(lambda a: a * k)\nfns = [make(k) for k in range(3)]\n",
        "class Model:\n    def __init__(self):\n        self.step = jax.jit(lambda a: a * 2)\n",
    ],
)
def test_lb111_not_reported_for_jit_once_factories_or_init(src):
    assert "LB111" not in codes("import jax\nimport jax.numpy as jnp\nxs = jnp.ones((4, 3))\n" + src)



def test_lb111_jitted_def_nested_in_a_function_that_calls_it():
    src = """
    import jax
    from functools import partial
    def simulate(state, steps=3):
        @partial(jax.jit, static_argnums=1)
        def advance(s, n):
            return s * n
        return advance(state, steps)
    """
    src = textwrap.dedent(src)
    script = src + "for s in range(5):\n    simulate(float(s))\n"
    assert ("LB111", 0, 5) in found(script)
    factory = script.replace("return advance(state, steps)", "return advance")
    assert "LB111" not in codes(factory)  # a factory: the caller keeps the jitted function
    assert "LB111" not in codes(src + "result = simulate(1.0)\n")  # called once here
    # a library function: `advance` depends on nothing `simulate` computes, so every eager caller rebuilds it
    assert "LB111" in codes(src)


def test_lb111_a_jit_made_from_the_calls_own_step_is_reported_only_where_the_file_repeats_the_call():
    """``jax.jit(partial(lax.scan, step))`` with a local step: each call of a library function builds a new
    one by design, and a caller that jits the function traces it once; a script that calls it in a loop
    recompiles every time."""
    src = (
        "import jax\nfrom functools import partial\ndef run(xs, scale):\n    def step(c, x):\n"
        "        return c + scale * x, c\n    return jax.jit(partial(jax.lax.scan, step))(0.0, xs)\n"
    )
    loop = "for k in range(5):\n    run(jax.numpy.ones(3), float(k))\n"
    assert ("LB111", 0, 6) in found(src + loop)
    assert "LB111" in codes(nb(src, loop), notebook=True)
    assert "LB111" not in codes(src)
    assert "LB111" not in codes(src + "run(jax.numpy.ones(3), 2.0)\n")  # called once


@pytest.mark.parametrize(
    ("call", "fires"),
    [("jax.jit(jax.grad(loss))(w)", True), ("jax.jit(loss)(w)", False), ("jax.jit(lambda v: loss(v))(w)", True)],
)
def test_lb111_in_a_loop_only_a_function_made_in_the_loop_recompiles(call, fires):
    src = f"import jax\ndef loss(v):\n    return (v * v).sum()\nw = jax.numpy.ones(3)\nfor _ in range(10):\n    g = {call}\n"
    assert ("LB111" in codes(src)) is fires



@pytest.mark.parametrize(
    ("loop", "fires"),
    [
        # one program per value the code names: hoisting the jit would still compile one per dtype
        ("for dtype in (jnp.float16, jnp.float32):\n    def make():\n        return jnp.ones(3, dtype)\n"
         "    y = jax.jit(make)()\n", False),
        ("dtypes = [jnp.float16]\ndtypes += [jnp.float32]\nfor dtype in dtypes:\n"
         "    y = jax.jit(lambda v: v.astype(dtype))(w)\n", False),
        ("for fields in (['a', 'b'], ['b']):\n    y = jax.jit(lambda v: {k: v for k in fields})(w)\n", False),
        # the same function each time, though the loop lists values: every iteration recompiles it
        ("for dtype in (jnp.float16, jnp.float32):\n    y = jax.jit(lambda v: v * 2)(w)\n", True),
        # a loop over data: the batch belongs in the arguments, then one program serves every batch
        ("for batch in batches:\n    y = jax.jit(lambda v: v * batch)(w)\n", True),
        # a list the code also grows elsewhere is not spelled out
        ("dtypes = [jnp.float16]\ndtypes.append(jnp.float32)\nfor dtype in dtypes:\n"
         "    y = jax.jit(lambda v: v.astype(dtype))(w)\n", True),
    ],
)
def test_lb111_a_jit_per_value_of_a_spelled_out_loop_is_one_program_per_value(loop, fires):
    src = "import jax\nimport jax.numpy as jnp\nw = jnp.ones(3)\nbatches = jnp.ones((9, 3))\n" + loop
    assert ("LB111" in codes(src)) is fires


GOOGLE_BENCHMARK = """
import google_benchmark
import jax
import jax.numpy as jnp
f = jax.jit(lambda x: x * 2)
{decorator}
def bench_double(state):
    x = jnp.ones(100)
    f(x)
    while state:
        {body}
{register}
"""


@pytest.mark.parametrize(
    ("decorator", "register"),
    [("@google_benchmark.register", ""), ("", "google_benchmark.register(bench_double, name='double')"),
     ("", "import functools\ngoogle_benchmark.register(functools.partial(bench_double), name='double')")],
)
def test_lb102_google_benchmark_state_loop_is_a_timed_region(decorator, register):
    # jax-ml/jax#29012 (corpus 053): the `while state:` body is what google_benchmark times
    src = GOOGLE_BENCHMARK.format(decorator=decorator, register=register, body="f(x)")
    assert [(c, line) for c, _, line in found(src) if c in ("LB102", "LB103", "LB104")] == [("LB102", 11)]
    waited = GOOGLE_BENCHMARK.format(decorator=decorator, register=register, body="f(x).block_until_ready()")
    assert "LB102" not in codes(waited)
    # the harness repeats the timed work, as %timeit does: one operation in it is no op-by-op loop
    eager = GOOGLE_BENCHMARK.format(decorator=decorator, register=register, body="jnp.dot(x, x).block_until_ready()")
    assert "LB114" not in codes(eager)
    # a function with a `state` parameter that nothing registers is no benchmark
    assert "LB102" not in codes(GOOGLE_BENCHMARK.format(decorator="", register="", body="f(x)"))


@pytest.mark.parametrize(("calls", "fires"), [("speedtest(f)\nspeedtest(g)\n", False), ("speedtest(f)\nspeedtest(f)\n", True),
                                             ("for h in (f, g):\n    speedtest(h)\n", True)])
def test_lb111_a_helper_each_call_of_which_is_given_another_function_jits_each_once(calls, fires):
    # diffrax benchmarks/against_scan.py (corpus 065): speedtest(scan_fn), speedtest(dfx_fn)
    src = ("import timeit\nimport jax\nimport jax.numpy as jnp\nx = jnp.ones(3)\n"
           "def f(v):\n    return jnp.sum(v * v)\ndef g(v):\n    return jnp.sum(jnp.sin(v))\n"
           "def speedtest(fn):\n    bwd = jax.jit(jax.grad(fn))\n"
           "    print(min(timeit.repeat(lambda: jax.block_until_ready(bwd(x)), number=1, repeat=5)))\n")
    assert ("LB111" in codes(src + calls)) is fires

@pytest.mark.parametrize(
    "jitted",
    ["    @jax.jit\n    def step(s):\n        return s * scale + 1\n",
     "    step = jax.jit(lambda s: s * scale + 1)\n"],
)
@pytest.mark.parametrize(
    "timing",
    ["t0 = time.perf_counter()\ndraws(2.0).block_until_ready()\nprint(time.perf_counter() - t0)\n",
     "%time draws(2.0).block_until_ready()\n"],
)
def test_lb111_jit_made_inside_a_function_that_is_timed(jitted, timing):
    # case 083 (QuantEcon/lecture-jax#34): every timed call defines the jitted step anew and compiles it again
    src = JAX_HEADER + "def draws(scale):\n    s = x\n" + jitted + "    for _ in range(10):\n        s = step(s)\n    return s\n"
    assert "LB111" in codes(nb(src, timing), notebook=True)


def test_lb111_quiet_on_a_jit_made_inside_a_function_run_once_untimed():
    src = JAX_HEADER + "def draws(scale):\n    s = x\n    @jax.jit\n    def step(s):\n        return s * scale + 1\n"
    src += "    for _ in range(10):\n        s = step(s)\n    return s\n"
    assert "LB111" not in codes(nb(src, "out = draws(2.0)\nprint(out)"), notebook=True)



STATIC_FUNCTION_ARGUMENT = JAX_HEADER + """
def solve(T, v):
    return T(v)

solve = jax.jit(solve, static_argnums=(0,))

def run(v):
    step = lambda u: u * 2
    return solve(step, v)

run(x)
run(x)
"""


def test_lb111_a_function_made_per_call_as_a_static_argument():
    assert ("LB111", 0, 17) in found(STATIC_FUNCTION_ARGUMENT)
    assert "LB111" in codes(STATIC_FUNCTION_ARGUMENT.replace("    step = lambda u: u * 2\n    return solve(step, v)", "    return solve(lambda u: u * 2, v)"))
    assert "LB111" in codes(STATIC_FUNCTION_ARGUMENT.replace("    step = lambda u: u * 2\n", "    def step(u):\n        return u * 2\n"))


@pytest.mark.parametrize(
    "old, new",
    [
        ("def run(v):\n    step = lambda u: u * 2\n", "step = lambda u: u * 2\n\ndef run(v):\n"),  # made once
        ("def run(v):\n    step = lambda u: u * 2\n", "def run(v, step=jnp.sin):\n"),  # the caller's function
        ("static_argnums=(0,)", "static_argnums=()"),  # not static: traced, not a cache key
        ("run(x)\nrun(x)\n", "run(x)\n"),  # the caller runs once
        ("def run(v):", "@jax.jit\ndef run(v):"),  # traced once with the caller
    ],
)
def test_lb111_quiet_for_static_functions_made_once(old, new):
    assert "LB111" not in codes(STATIC_FUNCTION_ARGUMENT.replace(old, new, 1))


# --- LB112 PyTorch model timed with autograd on ------------------------------------------------
TORCH_HEADER = "import time\nimport torch\nmodel = torch.nn.Linear(4, 4)\nx = torch.ones(2, 4)\n"


def test_lb112_model_in_timeit_magic_and_through_a_helper():
    assert ("LB112", 2, 1) in found(nb(TORCH_HEADER, "%timeit model(x)"), notebook=True)
    src = TORCH_HEADER + "def run():\n    return model(x)\nt0 = time.perf_counter()\nfor _ in range(9):\n    run()\nprint(time.perf_counter() - t0)\n"
    assert "LB112" in codes(src)


def test_lb112_torch_benchmark_timer_and_pytest_benchmark():
    timer = TORCH_HEADER + "import torch.utils.benchmark as tb\nt = tb.Timer('model(x)', globals=globals())\n"
    assert "LB112" in codes(timer + "t.blocked_autorange()\n")
    assert "LB112" not in codes(timer + "with torch.no_grad():\n    t.blocked_autorange()\n")
    fixture = TORCH_HEADER + "def test_speed(benchmark):\n    benchmark(model, x)\n"
    assert "LB112" in codes(fixture)
    assert "LB112" not in codes(fixture.replace("    benchmark(model, x)", "    with torch.inference_mode():\n        benchmark(model, x)"))


def test_lb112_not_reported_when_timing_a_training_step():
    src = TORCH_HEADER + "opt = torch.optim.SGD(model.parameters(), lr=0.1)\ndef train():\n    opt.zero_grad()\n    model(x).sum().backward()\n    opt.step()\n"
    assert "LB112" not in codes(nb(src, "%timeit train()"), notebook=True)


@pytest.mark.parametrize(
    "cells",
    [
        ("with torch.inference_mode():\n    %timeit model(x)",),
        ("@torch.no_grad()\ndef run():\n    return model(x)", "%timeit run()"),
        ("torch.set_grad_enabled(False)", "%timeit model(x)"),
        ("%%timeit\nwith torch.no_grad():\n    model(x)",),
    ],
)
def test_lb112_not_reported_without_autograd(cells):
    assert "LB112" not in codes(nb(TORCH_HEADER, *cells), notebook=True)


# --- LB113 import of a name that does not exist ------------------------------------------------
needs_jax_numpy = pytest.mark.skipif(
    importlib.util.find_spec("jax") is None or importlib.util.find_spec("numpy") is None, reason="needs jax and numpy installed"
)


@needs_jax_numpy
def test_lb113_names_and_modules_missing_from_installed_packages():
    diagnostics = lint_source("from jax import random, jix\nimport jax.nump\nfrom numpy import flaot64\n", "s.py", select=["LB113"])
    assert [(d.location.line, d.location.column) for d in diagnostics] == [(1, 25), (2, 8), (3, 19)]
    assert "did you mean `jit`?" in diagnostics[0].message


@needs_jax_numpy
def test_lb113_a_name_another_jax_had_is_not_guessed_as_a_misspelling():
    # neural-tangents and oryx import names jax 0.10.2 dropped: `api_util` and `jax.tree` are other names, not
    # what `util` and `tree_map` were; a guess (and the fix that renames the uses) would break the code.
    src = "from jax import util as jax_util\nfrom jax import tree_map\nfrom jax.core import Var, Primitive\n"
    found = lint_source(src, "s.py", select=["LB113"])
    assert len(found) == 4 and not any("did you mean" in d.message for d in found)
    assert all(d.fix is None or not d.fix.edits for d in found)


@needs_jax_numpy
def test_lb113_a_typo_is_still_guessed_and_fixed():
    found = lint_source("from jax import jix\nfrom numpy import flaot64\nimport jax.nump\n", "s.py", select=["LB113"])
    assert ["jit", "float64", "jax.numpy"] == [d.message.rsplit("`", 2)[-2] for d in found]
    assert found[0].fix is not None and found[0].fix.edits


@needs_jax_numpy
def test_lb113_not_reported_for_real_names_or_packages_that_are_not_installed():
    src = "from jax import jit, random, numpy as jnp\nfrom jax.numpy import dot\nimport numpy.linalg\nfrom numpy.random import default_rng\nfrom not_installed_pkg_xyz import nothing\n"
    assert "LB113" not in codes(src)



@needs_jax_numpy
def test_lb113_resolves_lazily_loaded_submodules():
    # jax._src.lib.mlir.dialects binds `func`, `arith`, ... through lazy_loader.attach: they import fine.
    if importlib.util.find_spec("jax._src.lib.mlir.dialects") is None:
        pytest.skip("this jax has no jax._src.lib.mlir.dialects")
    assert "LB113" not in codes("from jax._src.lib.mlir.dialects import func, arith\n")
    found = lint_source("import jax._src.lib.mlir.dialects.func\n", "s.py", select=["LB113"])
    assert [d.message.split(": ", 1)[1] for d in found] == [  # true: it is an attribute, not a module
        "this import raises ImportError; `func` is an attribute of `jax._src.lib.mlir.dialects`, not a module: "
        "import it with `from`"
    ]


def test_lb113_reads_lazy_loader_attach_as_the_names_it_serves():
    from levelbench.doctor._installed import _bound_names

    tree = ast.parse(
        "from x import lazy_loader as _lazy\n"
        "__getattr__, __dir__, __all__ = _lazy.attach('pkg', ['func', 'arith'])\n"
    )
    names, dynamic = _bound_names(tree.body)
    assert {"func", "arith"} <= names and not dynamic  # `funk` is then known missing
    tree = ast.parse("__getattr__, __dir__ = make_getattr(globals_table)\n")
    assert _bound_names(tree.body)[1]  # any other __getattr__ in a tuple: dynamic, settled by importing


@pytest.mark.parametrize(
    "guarded",
    [
        "try:\n    from jax import jix\nexcept ImportError:\n    jix = None\n",
        "try:\n    import jax.experimental.nonexistent_mod as m\nexcept (ImportError, AttributeError):\n    m = None\n",
        "if hasattr(jax, 'jix'):\n    from jax import jix\n",
        "if hasattr(jax, 'new_thing'):\n    from jax import jit as thing\nelse:\n    from jax.experimental import OldThing as thing\n",
        "if jax.__version__ >= '0.9':\n    from jax import jix\n",
    ],
)
def test_lb113_not_reported_for_guarded_imports(guarded):
    assert "LB113" not in codes("import jax\n" + guarded)
    unguarded = "import jax\ntry:\n    from jax import jix\nexcept ValueError:\n    jix = None\n"
    assert "LB113" in codes(unguarded)


# --- LB114 op-by-op dispatch -------------------------------------------------------------------
def test_lb114_jax_ops_in_an_unjitted_loop():
    src = "import jax.numpy as jnp\nW = jnp.ones((4, 4))\nh = jnp.zeros(4)\nfor x in jnp.ones((9, 4)):\n    h = jnp.tanh(x @ W + h @ W)\n"
    assert ("LB114", 0, 4) in found(src)


def test_lb114_timed_call_of_the_unjitted_twin_of_a_jitted_function():
    src = "import jax\nimport jax.numpy as jnp\ndef run(xs):\n    out = []\n    for x in xs:\n        out.append(jnp.sin(x) * 2)\n    return out\nrun_jit = jax.jit(run)\nxs = jnp.ones((9, 3))"
    assert ("LB114", 2, 1) in found(nb(src, "%time run(xs)"), notebook=True)


@pytest.mark.parametrize(("beside", "at_loop"), [("", False), ("    y = jnp.cos(x) + jnp.sin(x)\n", True)])
def test_lb114_a_timed_loop_over_the_unjitted_twin_is_reported_at_the_call(beside, at_loop):
    # corpus 196 (first 119): `for _ in range(100): slow_function(x)` with `jit_function = jax.jit(slow_function)`; the
    # operations counted are the twin's own, so the finding points at the call, once, not also at the loop
    src = ("import time\nimport jax\nimport jax.numpy as jnp\ndef slow(x):\n    r = 0.0\n    for i in range(1000):\n"
           "        r = r + jnp.sin(x) * 0.001\n    return r\nfast = jax.jit(slow)\nx = jnp.array(3.14)\n"
           f"t0 = time.perf_counter()\nfor _ in range(100):\n{beside}    slow(x)\nprint(time.perf_counter() - t0)\n")
    lines = {line for code, _, line in found(src) if code == "LB114"}
    call = 14 if beside else 13
    assert call in lines
    assert (12 in lines) is at_loop


@pytest.mark.parametrize(
    "src",
    [
        "@jax.jit\ndef step(h, x):\n    return jnp.tanh(x @ W + h @ W)\nfor x in xs:\n    h = step(h, x)\n",  # jitted step
        "for n in (10, 100):\n    a = jnp.ones((n, n))\n    b = jnp.zeros((n, n))\n",  # building inputs
        "for w in params:\n    h = jnp.tanh(h @ w + h @ w)\n",  # layers
    ],
)
def test_lb114_not_reported_for_jitted_steps_input_building_or_layers(src):
    header = "import jax\nimport jax.numpy as jnp\nW = jnp.ones((4, 4))\nh = jnp.zeros(4)\nxs = jnp.ones((9, 4))\nparams = [W, W]\n"
    assert "LB114" not in codes(header + src)



@pytest.mark.parametrize(("operators", "fires"), [("@jax.jit\n", False), ("", True)])
def test_lb114_a_loop_whose_helper_runs_jitted_operators_is_their_glue(operators, fires):
    # corpus 162 (QuantEcon's Arellano lecture): a convergence loop calls an un-jitted helper that runs jitted
    # operators; the loop's own operations compute the error between them. Without the jit on the operators the
    # helper's operations are dispatched one by one, and the loop is reported.
    src = (
        "import jax\nimport jax.numpy as jnp\n"
        f"{operators}def T(v):\n    return jnp.tanh(v @ v.T) + jnp.cos(v)\n"
        "def update(v):\n    return T(v) * 0.5\n"
        "def solve(v, tol=1e-8):\n    error = tol + 1\n    while error > tol:\n        new = update(v)\n"
        "        error = jnp.max(jnp.abs(new - v)) + jnp.max(jnp.abs(new))\n        v = new\n    return v\n"
        "solve(jnp.ones((50, 50)))\n"
    )
    assert ("LB114" in codes(src)) is fires


@pytest.mark.parametrize(
    ("comprehension", "fires"),
    [
        # its own `r`, each a dict of host numbers, though the module's `r` is an array (corpus 156, jaxtra)
        ("[(r['n'], r['t']) for r in records if r['n'] > 3]", False),
        ("{r['n']: r['t'] for r in records}", False),
        # the module's `r`, read in a comprehension that binds another name: an array, indexed per element
        ("[(r[0] + n, r[1] * n) for n in range(500)]", True),
        # its own `r`, the rows of an array
        ("[(r[0] + r[1], r[2] * 2) for r in rows]", True),
    ],
)
def test_lb114_a_comprehension_variable_is_its_own_not_the_modules_name(comprehension, fires):
    src = (
        "import jax.numpy as jnp\nr = jnp.ones(3)\nrows = jnp.ones((500, 3))\n"
        "records = [{'n': n, 't': 0.1 * n} for n in range(500)]\n"
        f"pts = {comprehension}\n"
    )
    assert ("LB114" in codes(src)) is fires


def test_lb114_counts_jax_random_and_un_jitted_helpers_called_in_the_loop():
    src = "import jax\nimport jax.numpy as jnp\ndef draw(k):\n    return jax.random.normal(k, (3,))\nkey = jax.random.key(0)\nfor _ in range(500):\n    key, sub = jax.random.split(key)\n    sample = draw(sub)\n"
    assert ("LB114", 0, 6) in found(src)
    assert "LB114" not in codes(src.replace("def draw(k):", "@jax.jit\ndef draw(k):"))



@pytest.mark.parametrize(
    ("loop", "fires"),
    [
        ("for seed in range(10):\n", False),  # 10 x 3 dispatches: a few ms, once
        ("for a in ['x', 'y', 'z', 'w']:\n  for b in (1, 2, 3, 4):\n", False),  # 16 x 3
        ("for seed in range(1000):\n", True),
        ("for seed in range(n_seeds):\n", True),  # the count is not in the code
        ("for a in range(8):\n  for b in range(8):\n", True),  # 64 x 3
        # jax-ml/jax#19654 (corpus 045): each un-jitted grad or optax step is a whole program, op by op
        ("for seed in range(5):\n  g = jax.grad(loss)(jnp.ones(3))\n", True),
        ("for seed in range(5):\n  u, s = opt.update(jnp.ones(3), s)\n", True),
        ("def step():\n  return jax.grad(loss)(jnp.ones(3))\nfor seed in range(5):\n  step()\n", True),
    ],
)
def test_lb114_a_loop_whose_stated_trip_count_bounds_its_dispatch_to_a_few_ms(loop, fires):
    depth = loop.count("for ")
    body = "".join("  " * depth + line + "\n" for line in (
        "k = jax.random.PRNGKey(1)", "v = jax.random.normal(k, (3,))", "assert jnp.all(jnp.isfinite(v))"))
    header = ("import jax\nimport jax.numpy as jnp\nimport optax\nopt = optax.adam(0.1)\ns = opt.init(jnp.ones(3))\n"
              "def loss(w):\n    return jnp.sum(jnp.sin(w) * w)\n")
    src = header + "n_seeds = int(input())\n" + loop + body
    assert ("LB114" in codes(src)) is fires
    timed = "import time\nt0 = time.perf_counter()\n" + src + "print(time.perf_counter() - t0)\n"
    assert "LB114" in codes(timed)  # timed, the dispatch is what the number measures, however few


def test_lb114_indexing_a_jax_array_is_an_operation_of_its_own():
    # the JAX tutorial's manual batching (corpus 060): a slice and a dot per iteration, dispatched one by one
    src = ("import jax.numpy as jnp\nx = jnp.arange(5.0)\nw = jnp.ones(3)\ndef convolve(x, w):\n    out = []\n"
           "    for i in range(1, len(x) - 1):\n        out.append(jnp.dot(x[i - 1:i + 2], w))\n    return jnp.array(out)\n"
           "convolve(x, w)\n")
    assert ("LB114", 0, 6) in found(src)
    assert "LB114" not in codes(src.replace("x[i - 1:i + 2]", "w"))  # one operation, untimed


@pytest.mark.parametrize(
    ("mapped", "fires"),
    [
        ("params = jax.tree.map(quantize, params)", True),  # corpus 055: three operations per leaf, eagerly
        ("params = jax.tree_util.tree_map(lambda w: jnp.round(w * jnp.max(w)), params)", True),
        ("params = jax.jit(lambda t: jax.tree.map(quantize, t))(params)", False),  # one program
        ("params = jax.tree.map(jax.jit(quantize), params)", False),
        ("params = jax.tree.map(lambda w: w.astype(jnp.float16), params)", False),  # one operation per leaf
    ],
)
def test_lb114_a_tree_map_run_eagerly_dispatches_per_leaf(mapped, fires):
    src = ("import jax\nimport jax.numpy as jnp\nparams = {'w': jnp.ones((4, 4)), 'b': jnp.ones(4)}\n"
           "def quantize(x):\n    scale = jnp.max(jnp.abs(x))\n    return jnp.round(x * scale)\n" + mapped + "\n")
    assert (("LB114", 0, 7) in found(src)) is fires
    library = src.rsplit("\n", 2)[0] + "\ndef quantize_all(params):\n    return " + mapped.split(" = ", 1)[1] + "\n"
    assert "LB114" not in codes(library)  # in a library function, its callers may jit it


@pytest.mark.parametrize(
    ("timed", "fires"),
    [
        ("benchmark(jax.vmap(loss), xs)", True),  # corpus 052: pytest-benchmark timing an un-jitted vmap
        ("benchmark(batched, xs)", True),
        ("benchmark(lambda: jax.vjp(loss, xs[0])[1](1.0))", True),
        ("benchmark(jax.jit(jax.vmap(loss)), xs)", False),  # one program
        ("benchmark(batched_jit, xs)", False),
        # jax-ml/jax#1139 (corpus 006): a vmap of one JAX operation runs that operation, batched
        ("benchmark(jax.vmap(jnp.linalg.solve), xs, xs)", False),
        # a library's function (jaxsim's API is jitted): one program or not, the file cannot tell
        ("benchmark(jax.vmap(other.forward), xs)", False),
        ("benchmark(jax.block_until_ready(jax.vmap(loss)), xs)", True),  # the wait returns the vmap unchanged
    ],
)
def test_lb114_a_timed_call_of_an_un_jitted_transform_runs_op_by_op(timed, fires):
    src = ("import jax\nimport jax.numpy as jnp\nimport other\nxs = jnp.ones((8, 3))\ndef loss(v):\n    return jnp.sum(jnp.sin(v) * v)\n"
           "batched = jax.vmap(loss)\nbatched_jit = jax.jit(batched)\n"
           f"def test_speed(benchmark):\n    {timed}\n")
    assert (("LB114", 0, 10) in found(src)) is fires


@pytest.mark.parametrize(("passed", "fires"), [("loss", True), ("other.forward", False), ("jax.jit(loss)", False)])
def test_lb114_a_transform_of_a_parameter_runs_op_by_op_only_for_a_plain_function_passed(passed, fires):
    # corpus 127: `jax.vmap(func)` in a helper that the tests hand jaxsim's (jitted) API functions
    src = ("import jax\nimport jax.numpy as jnp\nimport other\nxs = jnp.ones((8, 3))\ndef loss(v):\n    return jnp.sum(jnp.sin(v) * v)\n"
           "def bench(func, benchmark):\n    benchmark(jax.vmap(func), xs)\n"
           f"def test_speed(benchmark):\n    bench({passed}, benchmark)\n")
    assert (("LB114", 0, 8) in found(src)) is fires

@pytest.mark.parametrize(
    ("loop", "fires"),
    [
        # corpus 113 (QuantEcon's jax_nn lecture): an un-jitted trainer whose epochs run in a lax.fori_loop is one
        # compiled program per call, the optax step in the loop's body included
        ("params, state = jax.lax.fori_loop(0, epochs, update, (params, state))", False),
        ("(params, state), _ = jax.lax.scan(lambda c, _: (update(0, c), None), (params, state), None, length=epochs)",
         False),
        # the same steps in a Python loop run one optax update at a time
        ("for i in range(epochs):\n        params, state = update(i, (params, state))", True),
    ],
)
def test_lb114_a_timed_trainer_whose_epochs_run_in_a_lax_loop_is_one_program(loop, fires):
    src = (
        "import time\nimport jax\nimport jax.numpy as jnp\nimport optax\n"
        "def loss(p, x):\n    return jnp.mean((x @ p) ** 2)\n"
        "def train(params, x, epochs):\n"
        "    solver = optax.adam(optax.exponential_decay(0.003, 1000, 0.5))\n"
        "    state = solver.init(params)\n"
        "    def update(_, carry):\n"
        "        params, state = carry\n"
        "        grads = jax.grad(loss)(params, x)\n"
        "        updates, state = solver.update(grads, state, params)\n"
        "        return optax.apply_updates(params, updates), state\n"
        f"    {loop}\n"
        "    return params\n"
        "p0, x = jnp.ones(4), jnp.ones((8, 4))\n"
        "train(p0, x, 100).block_until_ready()\n"
        "t0 = time.perf_counter()\n"
        "train(p0, x, 100).block_until_ready()\n"
        "print(time.perf_counter() - t0)\n"
    )
    assert ("LB114" in codes(src)) is fires


def test_lb114_one_operation_per_iteration_is_reported_when_the_loop_is_timed():
    untimed = "import jax.numpy as jnp\nacc = jnp.zeros(4)\nfor _ in range(100):\n    acc = jnp.cumsum(acc)\n"
    assert "LB114" not in codes(untimed)
    timed = untimed.replace("for _", "import time\nt0 = time.perf_counter()\nfor _") + "acc.block_until_ready()\nprint(time.perf_counter() - t0)\n"
    assert "LB114" in codes(timed)


def test_lb114_repeating_a_timed_call_in_a_loop_is_not_a_sweep():
    src = "import time\nimport jax.numpy as jnp\ndef join(a, b):\n    return jnp.concatenate((a, b))\nu = jnp.ones(3)\ntotal = 0.0\nfor {var} in range(1000):\n    t0 = time.perf_counter()\n    r = join(u, {arg}).block_until_ready()\n    total += time.perf_counter() - t0\n"
    assert "LB114" in codes(src.format(var="_", arg="u"))
    assert "LB114" not in codes(src.format(var="n", arg="jnp.ones(n)"))  # a sweep over sizes


def test_lb114_comprehension_in_a_timed_un_jitted_function():
    src = "import jax.numpy as jnp\nW = jnp.ones((4, 4))\ndef rows(batch):\n    return jnp.stack([jnp.dot(W, r) for r in batch])\nb = jnp.ones((8, 4))\n"
    assert ("LB114", 1, 4) in found(nb(src.split("b =")[0], "b = jnp.ones((8, 4))\n%timeit rows(b).block_until_ready()"), notebook=True)
    assert "LB114" not in codes(src)  # never run here: a library function


@pytest.mark.parametrize("holder, use, fires", [
    ("    @staticmethod\n", "Holder.rows(b)", True),  # a plain function in a class's namespace (019's method variant)
    ("    @staticmethod\n", "rows = Holder.rows\nrows(b)", True),
    ("", "Holder().rows(b)", False),  # a method: a framework may call it traced
    ("    @staticmethod\n", "jax.jit(Holder.rows)(b)", False),  # handed to jit
])
def test_lb114_a_static_method_runs_as_its_visible_calls_say(holder, use, fires):
    define = (f"import jax\nimport jax.numpy as jnp\nW = jnp.ones((4, 4))\nclass Holder:\n{holder}"
              f"    def rows({'' if holder else 'self, '}batch):\n        return jnp.stack([jnp.dot(W, r) for r in batch])\n")
    timed = "b = jnp.ones((8, 4))\n%timeit " + use.replace("\n", "\n%timeit ") if "\n" not in use else \
        "b = jnp.ones((8, 4))\n" + use.rsplit("\n", 1)[0] + "\n%timeit " + use.rsplit("\n", 1)[1]
    assert (("LB114", 1, 7) in found(nb(define, timed), notebook=True)) is fires


def test_lb114_an_unused_alias_of_a_function_is_for_callers_only_in_a_library():
    define = "import jax.numpy as jnp\ndef step(xs):\n    return [jnp.sin(x) + jnp.cos(x) for x in xs]\nalias = step\n"
    assert "LB114" not in codes(define)  # a library module: importers may jit `alias`
    assert "LB114" in codes(define + "xs = jnp.ones((1000, 3))\nys = step(xs)\n")  # a script: nobody imports it


def test_lb114_optax_update_outside_jit_and_a_main_handed_to_absl():
    src = """
    import jax, optax
    from absl import app
    def main(_):
        params = jax.numpy.zeros(3)
        tx = optax.adam(1e-3)
        state = tx.init(params)
        for step in range(100):
            grads = jax.grad(lambda p: (p ** 2).sum())(params)
            updates, state = tx.update(grads, state)
            params = optax.apply_updates(params, updates)
    if __name__ == "__main__":
        app.run(main)
    """
    assert ("LB114", 0, 8) in found(src)
    assert "LB114" not in codes(src.replace("app.run(main)", "jax.jit(main)"))


def test_lb114_not_reported_in_library_modules():
    src = "import jax.numpy as jnp\ndef roll_all(x, n):\n    for _ in range(n):\n        x = jnp.roll(x, 1) + jnp.sin(x)\n    return x\n"
    assert "LB114" not in codes(src)
    assert "LB114" in codes(src + "y = roll_all(jnp.ones(3), 10)\n")


# --- LB115 host transfers in a timed region ----------------------------------------------------
def test_lb115_host_copies_and_numpy_inputs_in_timed_regions():
    assert "LB115" in codes(nb(JAX_HEADER, "%timeit np.asarray(f(x))"), notebook=True)
    assert "LB115" in codes(nb(JAX_HEADER, "x_np = np.ones(1000)", "f(x_np).block_until_ready()", "%timeit f(x_np).block_until_ready()"), notebook=True)


def test_lb115_not_reported_for_device_inputs_and_blocking():
    assert "LB115" not in codes(nb(JAX_HEADER, "x_dev = jax.device_put(np.ones(9))", "%timeit f(x_dev).block_until_ready()"), notebook=True)



@pytest.mark.parametrize(
    "timed",
    ["%time x = jax.device_put([np.ones((10, 5)) for _ in range(700)])", "%timeit jnp.array([0] * int(1e6))",
     "%timeit transfer = jax.numpy.asarray(list(range(10_000)))"],
)
def test_lb115_an_explicit_transfer_of_a_python_list_built_in_the_timing(timed):
    # case 089 (jax-ml/jax#947) and 078: converting a list walks its elements in Python, however the call is spelled
    assert "LB115" in codes(nb(JAX_HEADER, timed), notebook=True)


@pytest.mark.parametrize(
    "timed",
    ["%time x = jax.device_put(np.stack([np.ones((10, 5)) for _ in range(700)]))", "%timeit jnp.array([0, 1, 2])",
     "%time y = jax.device_put(np.ones((10, 5)))"],
)
def test_lb115_quiet_on_an_explicit_transfer_of_one_array_or_a_fixed_display(timed):
    assert "LB115" not in codes(nb(JAX_HEADER, timed), notebook=True)


@pytest.mark.parametrize(
    ("held", "timed"),
    [('converters = {"to_device": jax.device_put}', '%time x = converters["to_device"]([np.ones(5) for _ in range(700)])'),
     ("makers = [jnp.asarray]", "%timeit makers[0](list(range(10_000)))")],
)
def test_lb115_an_explicit_transfer_held_in_a_container(held, timed):
    # case 211's variants: the conversion reached through the names and containers that hold it (Facts.callee_qualname)
    assert "LB115" in codes(nb(JAX_HEADER + held, timed), notebook=True)
    assert "LB115" not in codes(nb(JAX_HEADER + held, timed.replace("[np.ones(5) for _ in range(700)]", "np.ones(5)")
                                   .replace("list(range(10_000))", "np.arange(10_000)")), notebook=True)


# A `%%time` cell that converts a host matrix and then runs the jitted function on it (jax-ml/jax#2980, case 167).
TRANSFER_THEN_WORK = "import numpy as onp\nimport jax\nimport jax.numpy as np\n"
TRANSFER_THEN_WORK += "solve = jax.jit(lambda a: np.linalg.svd(a)[1])\n"


@pytest.mark.parametrize(
    "cell",
    [
        "%%time\nx = np.asarray(onp.random.random((50, 50)))\ny = solve(x).block_until_ready()",
        "%%time\nx = jax.device_put(onp.ones((50, 50)))\ny = np.dot(x, x).block_until_ready()",
        "%%time\nx = np.array(host)\ny = solve(x).block_until_ready()",
    ],
)
def test_lb115_an_explicit_transfer_timed_with_the_work_it_feeds(cell):
    assert ("LB115", 2, 2) in found(nb(TRANSFER_THEN_WORK + "host = onp.ones((50, 50))", cell), notebook=True)


@pytest.mark.parametrize(
    "cell",
    [
        "%%time\nx = np.asarray(onp.random.random((50, 50))).block_until_ready()",  # the transfer alone: on purpose
        "%%time\nx = np.asarray(dev)\ny = solve(x).block_until_ready()",  # a device array: no copy
        "x = np.asarray(onp.random.random((50, 50)))\n%time y = solve(x).block_until_ready()",  # copied before timing
    ],
)
def test_lb115_quiet_on_a_transfer_alone_of_device_arrays_or_before_the_timing(cell):
    assert "LB115" not in codes(nb(TRANSFER_THEN_WORK + "dev = np.ones((50, 50))", cell), notebook=True)


def test_lb115_numpy_on_device_arrays_and_numpy_inputs_to_jax_operations():
    src = "import numpy as onp\nimport jax\nimport jax.numpy as jnp\nA = jax.device_put(onp.ones((3, 3)))\n"
    assert ("LB115", 2, 1) in found(nb(src, "%time onp.linalg.inv(A)"), notebook=True)
    host = "import numpy as np\nimport jax.numpy as jnp\nx = jnp.ones((4, 4))\nx = np.ones((4, 4), dtype=np.float32)\n"
    assert ("LB115", 2, 1) in found(nb(host, "%timeit jnp.dot(x, x.T).block_until_ready()"), notebook=True)
    moved = host + "x = jnp.asarray(x)\n"  # the last binding before the timing is a device array
    assert "LB115" not in codes(nb(moved, "%timeit jnp.dot(x, x.T).block_until_ready()"), notebook=True)
    assert "LB115" not in codes(nb(host, "%time y = jnp.asarray(x).block_until_ready()  # the transfer itself"), notebook=True)


LOGGED_LOOP = JAX_HEADER + """t0 = time.perf_counter()
for step in range(1000):
    x = f(x)
    if step % 100 == 0:
        print(float(x.sum()))
print(time.perf_counter() - t0)
"""


@pytest.mark.parametrize("test", ["step % 100 == 0", "step and step % 100 == 0", "step > 0 and not step % 100"])
def test_lb115_quiet_on_a_read_once_per_logging_interval(test):
    # a training loop logging every N steps (haiku's imagenet example: `if step_num and step_num % log_every == 0`)
    assert "LB115" not in codes(LOGGED_LOOP.replace("step % 100 == 0", test))
    assert "LB115" in codes(LOGGED_LOOP.replace("step % 100 == 0", test.replace(" and ", " or ").replace("==", "!=")))


def test_lb115_printing_a_device_array_inside_the_timing():
    src = "import time\nimport jax.numpy as jnp\nv = jnp.ones(3)\nt0 = time.perf_counter()\nw = jnp.exp(v)\nprint(f'{w}')\nprint(time.perf_counter() - t0)\n"
    assert ("LB115", 0, 6) in found(src)
    assert "LB115" not in codes(src.replace("print(f'{w}')", "print(f'{w.shape}')"))


# --- LB116 CUDA not synchronized ---------------------------------------------------------------
CUDA_HEADER = "import time\nimport torch\nmodel = torch.nn.Linear(4, 4).cuda()\nx = torch.ones(2, 4, device='cuda')\n"


def test_lb116_cuda_work_timed_without_synchronize():
    src = CUDA_HEADER + "with torch.no_grad():\n    t0 = time.perf_counter()\n    for _ in range(9):\n        y = model(x)\n    print(time.perf_counter() - t0)\n"
    assert "LB116" in codes(src)


@pytest.mark.parametrize(
    "src",
    [
        CUDA_HEADER + "with torch.no_grad():\n    t0 = time.perf_counter()\n    for _ in range(9):\n        y = model(x)\n    torch.cuda.synchronize()\n    print(time.perf_counter() - t0)\n",
        CUDA_HEADER.replace(".cuda()", "").replace(", device='cuda'", "") + "with torch.no_grad():\n    t0 = time.perf_counter()\n    for _ in range(9):\n        y = model(x)\n    print(time.perf_counter() - t0)\n",
        CUDA_HEADER + "import torch.utils.benchmark as benchmark\nbenchmark.Timer('model(x)', globals=globals()).blocked_autorange()\n",
    ],
)
def test_lb116_not_reported_with_synchronize_on_cpu_or_with_torch_timer(src):
    assert "LB116" not in codes(src)


# One timed CUDA computation, then what ends the timing (pytorch/pytorch#121603, case 168: `torch.linalg.eigh` on a
# CUDA tensor synchronizes the device itself, as its documentation says).
SELF_SYNC = CUDA_HEADER + "a = torch.randn(64, 64, device='cuda')\n"
SELF_SYNC += "t0 = time.perf_counter()\n{timed}\nprint(time.perf_counter() - t0)\n"


@pytest.mark.parametrize(
    "timed",
    [
        "w, v = torch.linalg.eigh(a)", "inv = torch.linalg.inv(a)", "r = torch.linalg.matrix_rank(a)",
        "s = torch.linalg.svdvals(a)", "i, info = torch.linalg.inv_ex(a, check_errors=True)",
        "idx = torch.nonzero(a > 0)", "b = torch.mm(a, a)\nidx = b.nonzero()", "b = torch.mm(a, a)\nn = b.sum().item()",
        "b = torch.mm(a, a)\nrows = b.tolist()", "b = torch.mm(a, a)\nprint(b)", "b = torch.mm(a, a)\nprint(f'{b}')",
        "b = torch.mm(a, a)\nh = b.cpu()",
    ],
)
def test_lb116_quiet_when_the_timed_torch_operation_synchronizes_itself(timed):
    assert "LB116" not in codes(SELF_SYNC.format(timed=timed))


@pytest.mark.parametrize(
    "timed",
    [
        "b = torch.mm(a, a)", "i, info = torch.linalg.inv_ex(a)",
        "i, info = torch.linalg.inv_ex(a, check_errors=False)",
        "b = torch.mm(a, a)\nprint('done')", "q, r = torch.linalg.qr(a)",
    ],
)
def test_lb116_still_reported_when_nothing_timed_synchronizes(timed):
    assert "LB116" in codes(SELF_SYNC.format(timed=timed))
CPU_THEN_CUDA = """import time
import torch
t = torch.randn(4, 3, 3)
t0 = time.perf_counter()
torch.det(t)
print(time.perf_counter() - t0)
t = t.cuda()
t0 = time.perf_counter()
torch.det(t)
print(time.perf_counter() - t0)
"""


def test_lb116_a_tensor_is_where_the_binding_that_reaches_the_timed_work_put_it():
    # case 177 (pytorch#42108): the first timing is of a CPU tensor; `t = t.cuda()` later moves only the second
    assert [f for f in found(CPU_THEN_CUDA) if f[0] == "LB116"] == [("LB116", 0, 9)]


@pytest.mark.parametrize("first", [
    "t = torch.randn(4, 3, 3).cuda()",  # moved where it is made
    "t = torch.randn(4, 3, 3, device='cuda:0')",
    "t = torch.randn(4, 3, 3).to(torch.device('cuda'))",
    "t = torch.randn(4, 3, 3, device=dev)",  # a device the file decides at run time may be CUDA
    "t = torch.randn(4, 3, 3)\nif torch.cuda.is_available():\n    t = t.cuda()",  # moved in a branch that may run
])
def test_lb116_still_reported_where_the_tensor_may_be_on_cuda_when_timed(first):
    src = CPU_THEN_CUDA.replace("t = torch.randn(4, 3, 3)", first, 1)
    src = src.replace("import torch\n", "import torch\n" + "dev = 'cuda' if torch.cuda.is_available() else 'cpu'\n", 1)
    assert ("LB116", 0, src.splitlines().index("torch.det(t)") + 1) in found(src)


def test_lb116_a_binding_later_in_a_loop_reaches_the_next_pass():
    src = "import time\nimport torch\nt = torch.randn(4, 3, 3)\nfor _ in range(3):\n    t0 = time.perf_counter()\n" \
          "    torch.det(t)\n    print(time.perf_counter() - t0)\n    t = t.cuda()\n"
    assert ("LB116", 0, 6) in found(src)


MEASURE_ON_DEVICE = """import time
import torch


def measure_rps(block, device, n_steps=100):
    block = block.to(device)
    elapsed = 0.0
    for step in range(n_steps):
        x = torch.randn(16, 1, 1024, device=device)
        start = time.perf_counter()
        y = block(x)
        elapsed += time.perf_counter() - start
    name = torch.cuda.get_device_name(device)
    return n_steps / elapsed
"""


def test_lb116_a_library_function_timing_work_on_the_device_it_is_handed():
    # case 181 (petals#456): nothing in the file calls it; its callers give it the server's device, usually CUDA
    assert ("LB116", 0, 11) in found(MEASURE_ON_DEVICE)
    assert ("LB116", 0, 11) in found(MEASURE_ON_DEVICE.replace("block = block.to(device)", "block = block.cuda()").replace(
        "device=device)", "device='cuda')"))


@pytest.mark.parametrize("changes", [
    [("        elapsed += time.perf_counter()", "        torch.cuda.synchronize()\n        elapsed += time.perf_counter()")],
    # moved to the CPU, with its input: the device it is handed is not where the timed work runs
    [("block = block.to(device)", "block = block.cpu()"), ("y = block(x)", "y = block(x.cpu())")],
    # the block and its input are where the callers made them: not known
    [("    block = block.to(device)\n", ""), ("device=device)", ")")],
    [("    name = torch.cuda.get_device_name(device)\n", "")],  # a file that never mentions CUDA (the library policy)
])
def test_lb116_quiet_on_a_library_function_whose_timed_work_is_not_on_a_gpu_it_knows_of(changes):
    src = MEASURE_ON_DEVICE
    for old, new in changes:
        assert old in src
        src = src.replace(old, new)
    assert "LB116" not in codes(src)


TORCH_GPU = "import numpy\nimport torch\ndevice = torch.device('cuda')\n"
TORCH_WORK = "    for _ in range(10):\n        a = torch.randn(size=(100, 100), device=device)\n        b = torch.mm(a, a)\n"


@pytest.mark.parametrize("manager", ["d2l.Benchmark('torch')", "Benchmark()", "Timer('mm')"])
def test_lb116_cuda_work_timed_in_a_benchmark_context_manager(manager):
    # case 084 (d2l's `with d2l.Benchmark():`): the finding is at the last CUDA work before the clock stops
    src = "from d2l import torch as d2l\nfrom bench import Benchmark, Timer\n" + TORCH_GPU + f"with {manager}:\n" + TORCH_WORK
    assert ("LB116", 0, 9) in found(src)


def test_lb116_quiet_on_numpy_work_in_a_benchmark_manager_beside_a_synchronized_one():
    # the synchronized torch block must not make `range(10)` or NumPy in the other block CUDA work
    numpy_block = "with d2l.Benchmark('numpy'):\n    for _ in range(10):\n        b = numpy.dot(numpy.ones((9, 9)), numpy.ones((9, 9)))\n"
    synced = "with d2l.Benchmark():\n" + TORCH_WORK + "    torch.cuda.synchronize(device)\n"
    src = "from d2l import torch as d2l\n" + TORCH_GPU + numpy_block + synced
    assert "LB116" not in codes(src)


def test_lb116_points_at_the_cuda_indexing_after_a_cpu_call():
    # case 075: `torch.randperm(512)` runs on the CPU; the CUDA work the clock misses is the indexing after it
    src = "import time\nimport torch\nx = torch.randn(8, 512, 9, device='cuda')\nstart = time.perf_counter()\n"
    src += "idx = torch.randperm(512)\ny = x[:, idx, :]\nprint(time.perf_counter() - start)\n"
    assert ("LB116", 0, 6) in found(src)
    synced = src.replace("y = x[:, idx, :]\n", "y = x[:, idx, :]\ntorch.cuda.synchronize()\n")
    assert "LB116" not in codes(synced)


def test_lb116_the_same_call_timed_with_and_without_synchronize():
    first = "import time, torch\nstart = time.perf_counter()\nout = engine(batch)\nend = time.perf_counter()\n"
    second = "torch.cuda.synchronize()\nstart = time.perf_counter()\nout = engine(batch)\ntorch.cuda.synchronize()\nend = time.perf_counter()\n"
    assert ("LB116", 0, 3) in found(first + second)
    assert "LB116" not in codes(first)  # nothing says `engine` runs on CUDA



@pytest.mark.parametrize(("value", "fires"), [("img", True), ("img.unsqueeze(0)", True), ("host", False)])
def test_lb116_an_unseen_callable_given_a_tensor_the_file_moved_to_cuda(value, fires):
    # case 126 (pytorch/pytorch#24318): `model` is defined elsewhere; `img` comes from `.cuda()`, so the model
    # computes on the GPU and `time2` stops the clock before it finishes
    src = ("import time\nimport torch\nimg = transform(image).cuda()\nhost = transform(image)\n"
           f"t0 = time.time()\noutput = model({value})\nprint(time.time() - t0)\ntorch.cuda.synchronize()\n")
    assert (("LB116", 0, 6) in found(src)) is fires


@pytest.mark.parametrize(("after", "fires"), [("", True), ("x = torch.randn(1).cuda()\n", False),
                                             ("x = torch.randn(1).cuda(non_blocking=True)\n", True)])
def test_lb116_a_blocking_copy_to_the_device_after_the_work_waits_for_it(after, fires):
    # case 123 (dinov2#250): a copy from host memory synchronizes the stream first, so the second timing is whole;
    # the input's own `.cuda()` inside the model call is before the work and waits for nothing of it
    src = ("import time\nimport torch\nencoder = torch.hub.load('facebookresearch/dinov2', 'dinov2_vitb14').cuda()\n"
           f"t = time.time()\nwith torch.no_grad():\n    y = encoder(torch.randn(20, 3, 224, 224).cuda())\n{after}time.time() - t\n")
    assert ("LB116" in codes(src)) is fires
    if not after:
        assert ("LB116", 0, 6) in found(src)  # at the model, not at its input's copy


# --- LB117 retrace per call ---------------------------------------------------------------------
@pytest.mark.parametrize(
    ("loop", "why"),
    [
        ("for i in range(1, 50):\n    y = total(signal[:i])\n", "slice"),
        ("seen = []\nfor v in signal:\n    seen.append(v)\n    y = total(jnp.stack(seen))\n", "grows"),
        ("seen = [signal]\nfor v in signal:\n    seen.append(v)\n    y = total(jnp.stack(seen[1:]))\n", "grows"),
        ("for k in range(50):\n    y = scaled(signal, k)\n", "static argument"),
    ],
)
def test_lb117_jitted_call_in_a_loop_with_changing_shapes_or_static_values(loop, why):
    header = "import jax\nimport jax.numpy as jnp\nfrom functools import partial\ntotal = jax.jit(jnp.sum)\n"
    header += "@partial(jax.jit, static_argnums=1)\ndef scaled(x, k):\n    return x * k\nsignal = jnp.ones(50)\n"
    (d,) = [d for d in lint_source(header + loop, "s.py") if d.code == "LB117"]
    assert why in d.message


@pytest.mark.parametrize(
    "loop",
    [
        "for i in range(1, 50):\n    y = total(jnp.where(jnp.arange(50) < i, signal, 0.0))\n",  # one shape
        "for k in range(50):\n    y = scaled(signal * k, 3)\n",  # the static value does not change
        # the last element of a growing list (brax's visualizer: step_fn(sys, states[-1], act)): one shape
        "states = [signal]\nfor k in range(50):\n    states.append(total(states[-1]) * signal)\n",
        "import time\nfor n in (10, 20, 40):\n    t0 = time.perf_counter()\n    total(signal[:n]).block_until_ready()\n    print(n, time.perf_counter() - t0)\n",
    ],
)
def test_lb117_not_reported_for_fixed_shapes_constant_static_values_or_size_sweeps(loop):
    header = "import jax\nimport jax.numpy as jnp\nfrom functools import partial\ntotal = jax.jit(jnp.sum)\n"
    header += "@partial(jax.jit, static_argnums=1)\ndef scaled(x, k):\n    return x * k\nsignal = jnp.ones(50)\n"
    assert "LB117" not in codes(header + loop)


def test_lb117_a_timed_loop_that_comes_back_to_a_size_is_not_a_sweep():
    # jax-ml/jax#15761: `for n in [5, 8, 10, 10, 10]` times each call; the repeats expect a steady time
    header = "import time\nimport jax\nimport jax.numpy as jnp\ntotal = jax.jit(jnp.sum)\n"
    loop = ("for n in {sizes}:\n    li = jnp.arange(n)\n    t0 = time.perf_counter()\n"
            "    total(li).block_until_ready()\n    print(n, time.perf_counter() - t0)\n")
    assert "LB117" in codes(header + loop.format(sizes="[5, 8, 10, 10, 10]"))
    assert "LB117" not in codes(header + loop.format(sizes="[5, 8, 10]"))  # each size once: a sweep


LB117_SHAPES = """
import jax
import jax.numpy as jnp
import numpy as np
total = jax.jit(jnp.sum)
signal = jnp.ones(50)
data = np.ones(60)
labels = np.arange(60) % 3
"""


@pytest.mark.parametrize(
    ("loop", "why"),
    [
        # one element after another of a list whose arrays differ in size
        ("xs = [signal[:n] for n in (3, 5, 8)]\nfor x in xs:\n    total(x)\n", "element"),
        ("parts = np.split(data, [3, 7])\nfor j in range(len(parts)):\n    total(parts[j])\n", "element"),
        ("groups = [data[labels == k] for k in range(3)]\nfor i, g in enumerate(groups):\n    total(g)\n", "element"),
        ("chunks = []\nfor k in range(3):\n    chunks.append(data[labels == k])\nfor c in chunks:\n    total(jnp.asarray(c))\n",
         "element"),
        ("def run(xs):\n    for j in range(len(xs)):\n        x = xs[j]\n        total(x)\n"
         "run([np.random.randint(0, 2, size=n) for n in range(1, 5)])\n", "element"),
        ("def make(sizes):\n    return sizes, [np.zeros(n) for n in sizes]\n_, xs = make([3, 4])\n"
         "for a, x in zip(labels, xs):\n    total(x)\n", "element"),
        # an array whose size the loop sets
        ("for n in range(1, 50):\n    total(jnp.zeros(n))\n", "size"),
        ("for k in range(3):\n    picked = data[labels == k]\n    total(picked)\n", "size"),
        ("for k in range(3):\n    idx = np.where(labels == k)[0]\n    total(data[idx])\n", "size"),
        ("sizes = [3, 9, 4]\nfor i in range(3):\n    n = sizes[i]\n    total(jnp.ones((n, 2)))\n", "size"),
        ("for i in range(1, 9):\n    total(signal[i * 2:i * 5])\n", "slice"),
        # a notebook read with the module it imports its function from
        ("import helpers as h\ndef run(xs):\n    for x in xs:\n        total(x)\nh.run([signal[:n] for n in (3, 5)])\n",
         "element"),
    ],
)
def test_lb117_jitted_call_on_arrays_whose_size_differs_each_iteration(loop, why):
    (d,) = [d for d in lint_source(LB117_SHAPES + loop, "s.py") if d.code == "LB117"]
    assert why in d.message, d.message
    assert d.finding.evidence and d.finding.fix


@pytest.mark.parametrize(
    "loop",
    [
        # twins of the above whose arrays all have one shape
        "xs = [signal[i:i + 5] for i in range(0, 40, 5)]\nfor x in xs:\n    total(x)\n",  # windows of one width
        "parts = np.split(data, 4)\nfor j in range(len(parts)):\n    total(parts[j])\n",  # equal parts
        "groups = [jnp.where(labels == k, data, 0.0) for k in range(3)]\nfor i, g in enumerate(groups):\n    total(g)\n",
        "chunks = []\nfor k in range(3):\n    chunks.append(data[k * 20:(k + 1) * 20])\nfor c in chunks:\n    total(c)\n",
        "def run(xs):\n    for j in range(len(xs)):\n        total(xs[j])\n"
        "run([np.random.randint(0, 2, size=8) for n in range(1, 5)])\n",  # the size is not the loop's
        "def run(batches):\n    for batch in batches:\n        total(batch)\n",  # nothing says the batches differ
        "for n in range(1, 50):\n    total(jnp.zeros(8) + n)\n",
        "for k in range(3):\n    total(jnp.where(labels == k, data, 0.0))\n",  # masked, not selected: one shape
        "for batch in [data, data]:\n    n = batch.shape[0]\n    total(jnp.zeros(n))\n",  # a size read from a shape
        "for i in range(0, 60, 10):\n    total(data[i:i + 10])\n",  # a window of one width
        "for i in range(5):\n    total(jnp.arange(i, i + 10))\n",
        "@jax.jit\ndef outer(xs):\n    for x in xs:\n        total(x)\n    return 0\nouter([signal[:n] for n in (3, 5)])\n",
        # `parts` in `run` is its own loop variable, not the global list of pieces
        "parts = np.split(data, [3, 7])\ndef run(rows):\n    for parts in rows:\n        for j in range(2):\n"
        "            total(parts[j])\nrun([[data, data]])\n",
    ],
)
def test_lb117_not_reported_when_every_iteration_has_one_shape(loop):
    assert "LB117" not in codes(LB117_SHAPES + loop)



def test_lb117_a_loop_over_shapes_the_code_names_compiles_one_program_per_shape_on_purpose():
    # mujoco-mjx render_util_test: each listed leading shape is what the test exercises
    loop = "for lead in ((1,), (3,), (2, 3)):\n    total(jnp.zeros(lead + (16,)))\n"
    assert "LB117" not in codes(LB117_SHAPES + loop)
    assert "LB117" in codes(LB117_SHAPES + "shapes = [s.shape for s in data]\n" + loop.replace("((1,), (3,), (2, 3))", "shapes"))


# --- LB118: suppression comments naming no rule ---------------------------------------------------
@pytest.mark.parametrize("comment", ["# noqa: LB999", "# NOQA:lb999", "# noqa: LB105, LB999", "# levelbench: ignore[LB999]",
                                     "# type: ignore # noqa: LB19"])
def test_lb118_a_suppression_naming_no_rule(comment):
    """Probe defect 35: ``# noqa: LB999`` was silently ignored."""
    found = [d for d in lint_source(f"import time\nt0 = time.time()  {comment}\n", "a.py") if d.code == "LB118"]
    assert len(found) == 1 and found[0].location.line == 2, found
    assert "which is no rule of the doctor" in found[0].message


@pytest.mark.parametrize("text", [
    "t0 = 1  # noqa: LB105\n", "t0 = 1  # noqa: LB10\n", "t0 = 1  # noqa: E501\n", "t0 = 1  # noqa\n",
    's = "# noqa: LB999"\n',  # in a string, not a comment
    "# levelbench: ignore-file[LB1, LB777]\n",  # the file-wide LB1 covers LB118 too
])
def test_lb118_not_reported_for_real_codes_other_tools_and_strings(text):
    assert "LB118" not in codes(text)


# --- across rules ------------------------------------------------------------------------------
def test_every_rule_has_a_test_that_makes_it_fire():
    tested = {name.split("_")[1].upper() for name in globals() if name.startswith("test_lb")}
    assert tested == set(RULES) - {"LB100"}, "LB100 is covered by tests/test_doctor_inputs.py"


EXAMPLE_SETUP = """
import time, timeit
import jax
import jax.numpy as jnp
import numpy as np
import torch
g = lambda v: v
f = step = jax.jit(g)
x = jnp.ones(10)
model = torch.nn.Linear(10, 10)
key = jax.random.PRNGKey(0)
n = size = 10
rng = np.random.default_rng(0)
a = b = np.ones((n, n))
xs = batches = jnp.ones((n, n))
W = U = jnp.ones((n, n))
h0 = jnp.zeros(n)
"""


@pytest.mark.parametrize("code", [c for c in RULES if c != "LB100"])
def test_documented_examples_trigger_their_rule_and_the_fixes_are_clean(code):
    """The "triggers it" and "fix" code of `--explain` and docs/guide/doctor.md, run through the doctor."""
    rule = RULES[code]
    assert code in codes(nb(EXAMPLE_SETUP, rule.bad), notebook=True)
    assert codes(nb(EXAMPLE_SETUP, rule.good), notebook=True) == set()


def test_rule_severities_follow_how_wrong_the_numbers_are():
    assert {c for c, r in RULES.items() if r.severity is Severity.INFO} == {"LB105", "LB115", "LB118"}
    assert all(r.why and r.bad and r.good and r.summary for r in RULES.values())


def test_aliases_of_jit_and_numpy_are_followed():
    src = "from jax import jit\nimport jax.numpy as jnp\nmy_jit = jit\n@my_jit\ndef g(x):\n    y = jnp.sin(x)\n"
    assert "LB107" in codes(src)


def test_importorskip_binds_a_module_like_an_import():
    src = "import pytest\njax = pytest.importorskip('jax')\n@jax.jit\ndef g(x):\n    y = x + 1\n"
    assert "LB107" in codes(src)


def test_same_named_nested_functions_resolve_to_the_one_in_scope():
    src = """
    import jax
    import jax.numpy as jnp
    def test_one():
        def loop(xs):
            for x in xs:
                xs = xs + x
            return xs
        return loop(jnp.ones(3))
    def test_two():
        def loop(xs):
            return xs * 2
        return jax.jit(loop)(jnp.ones(3))
    """
    assert codes(src) == set()  # the jitted `loop` has no loop; the looping `loop` is never jitted


def test_inline_ignore_comment_silences_only_the_named_codes():
    src = "import time\nimport numpy as np\na = np.ones(9)\nt0 = time.time()  # levelbench: ignore[LB105]\nnp.sum(a)  # levelbench: ignore\nprint(time.time() - t0)\n"
    assert codes(src) == set()
    assert codes(src.replace("# levelbench: ignore\n", "\n")) == {"LB104"}


def test_inline_ignore_works_on_a_magic_line():
    assert "LB102" not in codes(nb(JAX_HEADER, "%timeit f(x)  # levelbench: ignore[LB102]"), notebook=True)


def test_select_and_ignore_take_codes_and_prefixes():
    src = "import time\nimport numpy as np\na = np.ones(9)\nt0 = time.time()\nnp.sum(a)\nprint(time.time() - t0)\n"
    assert codes(src, select=["LB105"]) == {"LB105"}
    assert codes(src, ignore=["LB10"]) == set()
    with pytest.raises(ValueError, match="unknown rule code 'LB999'"):
        lint_source(src, select=["LB999"])


# --- where code runs: a library function's callers decide (issue 25) ---------------------------
# Each positive is a script or notebook that runs the code; its twin is the same function in a
# library module (definitions, perhaps with module-level constants), which stays quiet.
LIBRARY_HEADER = "import jax\nimport jax.numpy as jnp\nEYE = jnp.eye(3)  # module-level work: the file runs code\n"


def test_where_code_runs_module_code_mains_tests_and_what_they_call_run_here():
    from levelbench.doctor._context import Context
    from levelbench.doctor._program import Program

    src = textwrap.dedent("""
        import jax
        from absl import app
        def helper(x):
            return x
        def step(x):
            return helper(x)
        def returned():
            def inner(x):
                return x
            return inner
        def library(x):
            return x
        g = jax.jit(library)
        def main(_):
            step(1)
        if __name__ == "__main__":
            app.run(main)
    """)
    for path, extra in (("mod.py", ""), ("mod_test.py", "def test_returned():\n    returned()\n")):
        context = Context.build(Program.from_python(path, src + extra))
        here = {f.name for f in context.here}
        expected = {"main", "step", "helper"} | ({"test_returned", "returned"} if extra else set())
        assert here == expected, here  # `library` is only jitted, `inner` only returned


def test_lb114_a_library_function_in_a_file_with_module_level_work_is_quiet():
    src = LIBRARY_HEADER + "def orient(r, m):\n    for _ in range(m):\n        r = jnp.sin(r) @ EYE\n    return r\n"
    assert "LB114" not in codes(src)
    assert "LB114" in codes(src + "out = orient(jnp.ones(3), 100)\n")
    assert "LB114" in codes(nb(src, "out = orient(jnp.ones(3), 100)"), notebook=True)


def test_lb114_a_test_runs_here_but_a_test_helper_of_a_library_module_does_not():
    loop = "    r = jnp.ones(3)\n    for _ in range(100):\n        r = jnp.sin(r) @ EYE\n"
    test = LIBRARY_HEADER + "def test_orient():\n" + loop
    assert "LB114" in {d.code for d in lint_source(test, "orient_test.py")}
    assert "LB114" not in {d.code for d in lint_source(test, "orient.py")}  # a `test_*` helper of a library


def test_lb108_a_library_function_leaves_x64_to_its_callers_even_in_a_file_that_runs_code():
    src = LIBRARY_HEADER + "def wide(n):\n    return jnp.zeros(n, dtype=jnp.float64)\n"
    assert "LB108" not in codes(src)
    assert "LB108" in codes(src + "z = wide(3)\n")
    query = LIBRARY_HEADER + "X64 = jax.dtypes.canonicalize_dtype(jnp.float64) == jnp.float64\n"
    assert "LB108" not in codes(query)  # asks whether x64 is on; requests nothing


def test_lb105_a_library_functions_own_timing_is_instrumentation_even_when_named_timing():
    timed = (
        "import time\nimport jax.numpy as jnp\n"
        "def train(x):\n    def epoch_with_timing(x):\n        t = time.time()\n        x = jnp.sin(x)\n"
        "        print(time.time() - t)\n        return x\n    return epoch_with_timing(x)\n"
    )
    assert "LB105" not in codes(timed)
    assert "LB105" in codes(timed + "train(jnp.ones(3))\n")
    bench = "import time\nimport jax.numpy as jnp\ndef bench_sin(x):\n    t = time.time()\n    jnp.sin(x).block_until_ready()\n    return time.time() - t\n"
    assert "LB105" in codes(bench)  # a top-level function that says it benchmarks runs here


def test_lb111_a_jitted_parameter_and_a_main_run_once_are_not_new_functions_per_call():
    check = "import jax\ndef check(fn, x):\n    return jax.pmap(fn)(x)\nfor f in (abs, abs):\n    check(f, jax.numpy.ones((1, 3)))\n"
    assert "LB111" not in codes(check)
    assert "LB111" in codes(check.replace("jax.pmap(fn)", "jax.pmap(lambda v: fn(v))"))
    main = "import jax\nfrom absl import app\ndef main(_):\n    f = jax.jit(jax.vmap(abs))\n    f(jax.numpy.ones(3))\nif __name__ == '__main__':\n    app.run(main)\n"
    assert "LB111" not in codes(main)
    assert "LB111" in codes(main.replace("    app.run(main)", "    for _ in range(3):\n        main(None)"))


@pytest.mark.parametrize(
    "body",
    [
        "    return jnp.zeros(list(x.shape))\n",
        "    return [getattr(x, k) for k in type(x).__annotations__]\n",
        "    w = jnp.ones(3)\n    while w.ndim < x.ndim:\n        w = w[None]\n    return w * x\n",
        "    out = onp.zeros(tuple(size))\n    for i in range(3):\n        out[i] = i\n    return x + out\n",
    ],
)
def test_lb106_shapes_annotations_dimensions_and_numpy_values_are_not_data(body):
    src = f"import jax\nimport numpy as onp\nimport jax.numpy as jnp\n@jax.jit\ndef f(x, size=(3, 1)):\n{body}"
    assert "LB106" not in codes(src + "f(jnp.ones((3, 1)))\n")


def test_lb107_a_jitted_stub_has_no_work_to_lose():
    stub = "import jax\nclass Problem:\n    @jax.jit\n    def eval(self, x):\n        \"\"\"Evaluate.\"\"\"\n        raise NotImplementedError\n"
    assert "LB107" not in codes(stub)
    assert "LB107" in codes(stub.replace("raise NotImplementedError", "y = jax.numpy.sin(x)"))


@pytest.mark.parametrize(
    "guarded",
    [
        "try:\n    from jax.extend import jix\nexcept ImportError:\n    from jax import jix\n",
        "JAX_GE_0_11_0 = False\nif JAX_GE_0_11_0:\n    from jax._src import jix\n",
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from jax import jix\n",
    ],
)
def test_lb113_a_fallback_import_or_a_version_flag_guards_the_import(guarded):
    assert "LB113" not in codes("import jax\n" + guarded)
    assert "LB113" in codes("import jax\nfrom jax import jix\n")


def test_lb114_reports_nested_loops_once_and_does_not_count_lax_classes():
    nested = "import jax.numpy as jnp\nfor i in range(10):\n    for j in range(10):\n        d = jnp.max(jnp.abs(jnp.ones(3) * j))\n"
    assert [(c, line) for c, _, line in found(nested) if c == "LB114"] == [("LB114", 3)]
    classes = "import jax\nfor p in range(50):\n    dn = jax.lax.ConvDimensionNumbers((0, 1), (0, 1), (0, 1))\n    pr = jax.lax.Precision.HIGHEST\n"
    assert "LB114" not in codes(classes)
    tuples = classes + "    a = dn[0] + (p,)\n    b = dn[1] + (p,)\n"  # a class's fields are not JAX arrays
    assert "LB114" not in codes(tuples)


def test_lb111_a_function_called_on_either_side_of_an_if_runs_once():
    src = (
        "import jax\nimport sys\ndef bench(f, x):\n    return jax.jit(lambda v: f(v))(x)\n"
        "if len(sys.argv) > 1:\n    bench(abs, 1.0)\nelse:\n    bench(abs, 2.0)\n"
    )
    assert "LB111" not in codes(src)
    assert "LB111" in codes(src.replace("else:\n    bench(abs, 2.0)\n", "bench(abs, 2.0)\n"))


def test_lb111_a_jit_inside_a_jitted_function_is_traced_once_with_it():
    src = textwrap.dedent("""
        import jax
        def outer(x):
            @jax.jit
            def inner(y):
                return y.sum()
            return inner(2 * x)
        for i in range(5):
            outer(jax.numpy.ones(3) * i)
    """)
    assert "LB111" in codes(src)
    assert "LB111" not in codes(src.replace("def outer(x):", "@jax.jit\ndef outer(x):"))


# --- the shared model: a callable followed through names, wrappers and helpers (issue 25) -------------
# Each pattern is a class of spelling the variants of the real corpus (tests/doctor_cases/variants.py)
# found the doctor blind to; each has a twin that must stay quiet.
JITTED = """
import time, timeit, functools
import jax
import jax.numpy as jnp

@jax.jit
def my_function(x, y):
    return x @ y

x = jnp.ones((8, 8))
y = jnp.ones(8)
"""
TIMED = "start = time.perf_counter()\n{call}\nt_1 = time.perf_counter() - start\n"


@pytest.mark.parametrize(
    "binding",
    [
        "g = my_function",
        "g = jax.vmap(my_function, in_axes=(0, None))",
        "g = functools.partial(my_function, x)",
        "use_jit = bool(1)\ng = jax.jit(my_function) if use_jit else my_function",
        "def make():\n    @jax.jit\n    def inner(x, y):\n        return x @ y\n    return inner\ng = make()",
        "class Holder:\n    @staticmethod\n    @jax.jit\n    def step(x, y):\n        return x @ y\ng = Holder.step",
    ],
)
def test_a_jitted_callable_is_followed_through_names_and_wrappers(binding):
    call = "g(y)" if "partial" in binding else "g(x, y)"
    source = JITTED + binding + "\n" + TIMED.format(call=call)
    assert {"LB102", "LB103"} <= codes(source)
    blocked = JITTED + binding + "\n" + f"{call}.block_until_ready()\n" + TIMED.format(call=f"{call}.block_until_ready()")
    assert not {"LB102", "LB103"} & codes(blocked)


def test_an_alias_or_partial_shares_the_warm_up_of_the_function_it_names():
    for binding, call in (("g = my_function", "g(x, y)"), ("g = functools.partial(my_function, x)", "g(y)")):
        warmed = JITTED + binding + "\nmy_function(x, y).block_until_ready()\n" + TIMED.format(call=call + ".block_until_ready()")
        assert "LB103" not in codes(warmed)
    # a vmap of it compiles a program of its own: the warm-up of my_function does not warm it
    batched = JITTED + "g = jax.vmap(my_function, in_axes=(0, None))\nmy_function(x, y).block_until_ready()\n"
    assert "LB103" in codes(batched + TIMED.format(call="g(x, y).block_until_ready()"))


def test_an_unjitted_transform_called_in_a_timed_region_runs_jax():
    source = JITTED + "def plain(x, y):\n    return jnp.dot(x, y)\n" + TIMED.format(call="jax.vmap(plain, in_axes=(0, None))(x, y)")
    assert "LB102" in codes(source)
    numpy_only = "import time\nimport numpy as np\nimport jax\ndef plain(x):\n    return np.sum(x)\n"
    assert "LB102" not in codes(numpy_only + TIMED.format(call="plain(np.ones(3))"))


def test_a_loop_in_a_function_called_through_an_alias_still_runs_eagerly():
    body = "import time\nimport jax\nfrom jax import random\ndef sample(key):\n    for _ in range(100):\n" \
           "        key, sub = random.split(key)\n        random.normal(sub, (3,))\n"
    aliased = body + "g = sample\nt0 = time.perf_counter()\ng(random.PRNGKey(0))\nprint(time.perf_counter() - t0)\n"
    assert ("LB114", 0, 5) in found(aliased)
    jitted = body + "g = jax.jit(sample)\ng(random.PRNGKey(0))\n"
    assert "LB114" not in codes(jitted)


def test_timeit_with_one_run_in_a_loop_takes_one_sample_per_iteration():
    one = JITTED + "my_function(x, y).block_until_ready()\n"
    assert "LB104" in codes(one + "timeit.timeit(lambda: my_function(x, y).block_until_ready(), number=1)\n")
    looped = one + "for _ in range(5):\n    print(timeit.timeit(lambda: my_function(x, y).block_until_ready(), number=1))\n"
    assert "LB104" not in codes(looped)


def test_a_parameter_called_inside_a_timed_lambda_is_followed_to_its_arguments():
    source = JITTED + ("def bench(df):\n    print(timeit.timeit(lambda: df(x, y), number=1))\n"
                       "bench(jax.jit(lambda a, b: a @ b))\n")
    assert "LB102" in codes(source)
    assert "LB102" not in codes(source.replace("lambda: df(x, y)", "lambda: df(x, y).block_until_ready()"))


def test_a_warm_up_before_a_timing_helper_is_called_counts():
    helper = "def run_benchmark():\n    t0 = time.perf_counter()\n    my_function(x, y).block_until_ready()\n" \
             "    print(time.perf_counter() - t0)\n"
    assert "LB103" in codes(JITTED + helper + "run_benchmark()\n")
    assert "LB103" not in codes(JITTED + helper + "my_function(x, y).block_until_ready()\nrun_benchmark()\n")


def test_pytest_benchmark_of_a_vmapped_function_times_jax_without_waiting():
    source = "import jax\nimport jax.numpy as jnp\ndef func(w, x):\n    return jnp.tanh(w @ x)\n" \
             "def test_speed(benchmark):\n    benchmark(jax.vmap(func, in_axes=(None, 0)), jnp.ones((3, 3)), jnp.ones((4, 3)))\n"
    assert "LB102" in codes(source)
    waited = source.replace("benchmark(jax.vmap(func, in_axes=(None, 0)), jnp.ones((3, 3)), jnp.ones((4, 3)))",
                            "benchmark(lambda: jax.vmap(func, in_axes=(None, 0))(jnp.ones((3, 3)), jnp.ones((4, 3))).block_until_ready())")
    assert "LB102" not in codes(waited)


def test_a_loop_in_a_function_a_factory_returns_runs_eagerly():
    body = "import time\nfrom jax import random\ndef make():\n    def sample(key):\n        for _ in range(100):\n" \
           "            key, sub = random.split(key)\n            random.normal(sub, (3,))\n    return sample\n"
    assert ("LB114", 0, 5) in found(body + "sample = make()\nsample(random.PRNGKey(0))\n")
    assert "LB114" not in codes(body + "import jax\nsample = jax.jit(make())\nsample(random.PRNGKey(0))\n")


def test_benchmark_fixture_with_a_lambda_times_its_body():
    source = "import jax\nimport jax.numpy as jnp\nf = jax.jit(jnp.sin)\nx = jnp.ones(3)\n" \
             "def test_speed(benchmark):\n    benchmark(lambda: f(x))\n"
    assert ("LB102", 0, 6) in found(source)
    assert "LB102" not in codes(source.replace("lambda: f(x)", "lambda: f(x).block_until_ready()"))


def test_a_torch_model_through_a_partial_is_still_the_model():
    source = "import time, functools\nimport torch\nnet = torch.nn.Linear(3, 3).cuda()\nrun = functools.partial(net)\n" \
             "x = torch.ones(3, 3, device='cuda')\nt0 = time.perf_counter()\nrun(x)\nprint(time.perf_counter() - t0)\n"
    assert ("LB116", 0, 7) in found(source)
    synced = source.replace("run(x)\n", "run(x)\ntorch.cuda.synchronize()\n")
    assert "LB116" not in codes(synced)


def test_a_comprehension_in_a_timed_lambda_runs_where_the_timing_runs():
    source = "import timeit\nimport jax\nimport numpy as np\ndef bench(df):\n" \
             "    print(timeit.timeit(lambda: [df(i) for i in np.arange(0, 1, 0.1)], number=1))\n" \
             "def f(x):\n    return x ** 2 + x\nbench(jax.grad(f))\nbench(jax.grad(f))\n"
    assert ("LB114", 0, 5) in found(source)
    assert "LB114" not in codes(source.replace("jax.grad(f)", "jax.jit(jax.grad(f))"))


def test_a_function_jitted_on_one_branch_of_a_conditional_is_timed_as_jitted():
    source = "import time\nfrom jax import jit\nimport jax.numpy as jnp\ndef predict(w, x):\n    return jnp.tanh(w @ x)\n" \
             "use_jit = bool(1)\nfunc = jit(predict) if use_jit else predict\nw, x = jnp.ones((8, 8)), jnp.ones(8)\n" \
             "for _ in range(10):\n    t0 = time.perf_counter()\n    out = func(w, x)\n    print(time.perf_counter() - t0)\n"
    assert {("LB102", 0, 11), ("LB103", 0, 11)} <= set(found(source))
    warmed = source.replace("for _ in range(10):", "func(w, x).block_until_ready()\nfor _ in range(10):").replace(
        "out = func(w, x)", "out = func(w, x).block_until_ready()")
    assert not {"LB102", "LB103"} & codes(warmed)


def test_callables_kept_in_containers_are_followed():
    head = "import time\nimport jax\nimport jax.numpy as jnp\nimport numpy as np\ndef a(x):\n    return jnp.sin(x) * 2\n" \
           "x = jnp.ones(100)\n"
    loop = "for name, fn in fns.items():\n    t0 = time.perf_counter()\n    fn(x)\n    print(name, time.perf_counter() - t0)\n"
    assert ("LB102", 0, 11) in found(head + 'fns = {"jax": jax.jit(a), "plain": a}\n' + loop)
    assert "LB102" not in codes(head + 'fns = {"jax": jax.jit(a), "plain": a}\n' + loop.replace("fn(x)", "fn(x).block_until_ready()"))
    # library functions in a container: a JAX one makes the timed call JAX; NumPy ones do not
    ops = "for op in ops:\n    t0 = time.perf_counter()\n    op(x, x)\n    print(time.perf_counter() - t0)\n"
    assert ("LB102", 0, 11) in found(head + "ops = (jnp.dot, np.dot)\n" + ops)
    assert "LB102" not in codes(head + "ops = (np.dot, np.matmul)\n" + ops)
    indexed = "t0 = time.perf_counter()\nmodels[0](x)\nprint(time.perf_counter() - t0)\n"
    assert ("LB102", 0, 10) in found(head + "models = [jax.jit(a)]\n" + indexed)
    assert "LB102" not in codes(head + "models = [np.sin]\n" + indexed.replace("(x)", "(np.ones(3))"))


def test_a_function_kept_in_a_container_still_runs_eagerly():
    body = "import time\nimport jax\nfrom jax import random\ndef sample(key):\n    for _ in range(100):\n" \
           "        key, sub = random.split(key)\n        random.normal(sub, (3,))\n"
    assert ("LB114", 0, 5) in found(body + 'fns = {"s": sample}\nfns["s"](random.PRNGKey(0))\n')
    assert "LB114" not in codes(body + 'fns = {"s": jax.jit(sample)}\nfns["s"](random.PRNGKey(0))\n')


def test_a_numpy_input_to_a_jax_function_held_in_a_container_is_a_transfer():
    source = "import time\nimport numpy as np\nimport jax.numpy as jnp\nops = {'dot': jnp.dot}\nx = np.ones((9, 9))\n" \
             "t0 = time.perf_counter()\nops['dot'](x, x).block_until_ready()\nprint(time.perf_counter() - t0)\n"
    assert ("LB115", 0, 7) in found(source)
    assert "LB115" not in codes(source.replace("{'dot': jnp.dot}", "{'dot': np.dot}").replace(".block_until_ready()", ""))


def test_an_alias_nothing_in_the_file_calls_may_be_jitted_by_its_callers():
    body = "import jax\nimport functools\nfrom jax import random\ndef sample(key, n):\n    for _ in range(n):\n" \
           "        key, sub = random.split(key)\n        random.normal(sub, (3,))\n"
    used = body + "sample10 = functools.partial(sample, n=10)\nsample10(random.PRNGKey(0))\n"
    assert ("LB114", 0, 5) in found(used)
    exported = body + "sample10 = functools.partial(sample, n=10)\nkey = random.PRNGKey(0)\n"  # a library's alias
    assert "LB114" not in codes(exported)


def test_a_jitted_method_is_followed_through_an_instance():
    source = "import time\nfrom functools import partial\nimport jax\nimport jax.numpy as jnp\nclass Model:\n" \
             "    @partial(jax.jit, static_argnums=0)\n    def apply(self, x):\n        return jnp.tanh(x)\n" \
             "m = Model()\nx = jnp.ones(8)\nt0 = time.perf_counter()\nm.apply(x)\nprint(time.perf_counter() - t0)\n"
    assert {("LB102", 0, 12), ("LB103", 0, 12)} <= set(found(source))
    warmed = source.replace("t0 = time.perf_counter()\nm.apply(x)\n", "m.apply(x).block_until_ready()\nt0 = time.perf_counter()\nm.apply(x).block_until_ready()\n")
    assert not {"LB102", "LB103"} & codes(warmed)


def test_a_clock_read_through_a_helper_of_the_file_is_a_clock_pair():
    helper = "def now():\n    return time.perf_counter()\n"
    timed = "start = now()\nmy_function(x, y)\nprint(now() - start)\n"
    found_here = set(found(JITTED + helper + timed))
    line = (JITTED + helper).count("\n") + 2
    assert {("LB102", 0, line), ("LB103", 0, line), ("LB104", 0, line)} <= found_here
    not_a_clock = "def now():\n    return 3.0\n"  # a helper that returns something else times nothing
    assert not {"LB102", "LB103", "LB104"} & codes(JITTED + not_a_clock + timed)


# --- a pasted console session: what was typed, not the prompts ---------------------------------
SESSION = ">>> import jax.numpy as jnp\n>>> x = jnp.arange(5, dtype='float64')\n>>> x\nArray([0., 1., 2., 3., 4.], dtype=float32)\n"


def test_a_pasted_python_session_is_read_as_the_code_typed():
    # JAX's default-dtypes page in doctest form (case 074): LB100 at the first prompt before; the float64
    # request is what the session shows, at its own line
    assert ("LB108", 0, 2) in found(SESSION) and "LB100" not in codes(SESSION)
    ipython = ("In [1]: import time, jax\nIn [2]: import jax.numpy as jnp\nIn [3]: f = jax.jit(jnp.sin)\n"
               "In [4]: x = jnp.ones(1000)\nIn [5]: %timeit f(x)\n")
    assert "LB102" in codes(ipython) and "LB100" not in codes(ipython)


def test_a_pasted_ipython_session_in_a_notebook_cell_is_read_as_the_code_typed():
    # jax-ml/jax#9694 (corpus 160): a maintainer's session pasted into one cell under a comment, prompts and
    # continuation lines and blank lines between the inputs (IPython strips prompts only when the cell starts
    # with one); read as a file holding it is, its timings blocked and repeated
    session = ("# V100\n\nIn [1]: import jax\n   ...: import jax.numpy as jnp\n\nIn [2]: x = jnp.ones(1000)\n\n"
               "In [3]: %timeit jnp.sin(x).block_until_ready()\n")
    assert "LB100" not in codes(nb(session), notebook=True)
    unblocked = session.replace(".block_until_ready()", "")
    assert ("LB102", 1, 8) in found(nb(unblocked), notebook=True)
    [diagnostic] = [d for d in lint_source(nb(unblocked), "s.ipynb") if d.code == "LB102"]
    assert diagnostic.fix is None and diagnostic.location.column > len("In [3]: ")  # the cell's columns, prompt and all
    assert codes(nb(">>> x = (\n>>> y = ]\n"), notebook=True) == {"LB100"}  # not Python, even typed


def test_a_session_gets_no_fix_written_back_and_valid_python_is_never_read_as_one():
    [diagnostic] = [d for d in lint_source(SESSION, "s.py") if d.code == "LB108"]
    assert diagnostic.fix is None  # its lines are not the file's: a fix would be written at the wrong columns
    assert diagnostic.location.column == SESSION.split("\n")[1].index("'float64'") + 1  # the file's column, prompt and all
    plain = SESSION.replace(">>> ", "").replace("Array([0., 1., 2., 3., 4.], dtype=float32)\n", "")
    [typed] = [d for d in lint_source(plain, "p.py") if d.code == "LB108"]
    assert typed.fix is not None  # the same code typed into a file gets its fix
    docstring = '"""Example:\n>>> add(1, 2)\n3\n"""\nimport jax.numpy as jnp\nx = jnp.arange(5, dtype="float64")\n'
    assert ("LB108", 0, 6) in found(docstring)  # a doctest inside a docstring: the file is Python as it stands
    garbage = ">>> x = (\n>>> y = ]\n"
    assert codes(garbage) == {"LB100"}  # not Python, even typed: the syntax error stands


# --- levelbench's own magics run the code they time ----------------------------------------------
# examples/seed_gru.ipynb's %lbdoctor (tests/test_example_notebook.py) is the end-to-end case: its jitted
# loop is called only through %lbtimeit / %lbtime / %lbcompare, and its LB106 depends on reading them.
def test_the_code_a_levelbench_magic_runs_is_read_from_its_line():
    from levelbench.doctor._program import _magic_expressions as ran

    assert ran("lbtime", "jitted_unrolled(params, Xj)") == ["jitted_unrolled(params, Xj)"]
    assert ran("lbtimeit", "-v --budget 0.5 jitted_forward(params, Xj)") == ["jitted_forward(params, Xj)"]
    assert ran("lbtimeit", "--budget 0.5 lambda: rnn_torch(Xt)") == ["lambda: rnn_torch(Xt)"]
    assert ran("lbcompare", "-o --budget 2 jax=jax_forward(Xj) torch=torch_forward(Xt)") == [
        "jax_forward(Xj)", "torch_forward(Xt)"]
    assert ran("lbtime", "--budget 1") == []  # options only: nothing runs


@pytest.mark.parametrize("magic", ["%lbtime jitted(xs)", "%lbtimeit -v --budget 0.5 jitted(xs)",
                                   "%lbcompare --budget 1 a=jitted(xs) b=jnp.tanh(xs)"])
def test_a_levelbench_magic_is_no_timed_region_of_the_users(magic):
    # levelbench blocks, warms up and samples what its magics time: no timing finding on them
    source = nb("import jax\nimport jax.numpy as jnp\njitted = jax.jit(jnp.tanh)\nxs = jnp.ones(50)", magic)
    assert not {"LB102", "LB103", "LB104", "LB105"} & codes(source, notebook=True)


# --- the shared model, judged on the forms of the fourth batch of real cases (095-106) -------------------
# Each fix of the model holds however the code is written: a positive form and its quiet twin.

@pytest.mark.parametrize(
    ("jitted", "called", "fires"),
    [
        ("step = jax.jit(nuts.step)", "nuts.step(key, state)", True),  # BlackJAX's Hello World (case 103)
        ("step = jax.jit(nuts.step)", "step(key, state)", False),
        ("fast = jax.jit(kernel)", "kernel(key, state)", True),  # a local function, jitted under another name
        ("fast = jax.jit(kernel)", "fast(key, state)", False),
        ("solve = jax.jit(jnp.linalg.solve)", "jnp.linalg.solve(key, state)", False),  # one library operation
    ],
)
def test_model_a_function_jitted_elsewhere_runs_op_by_op_when_called_by_its_own_name(jitted, called, fires):
    src = (
        "import jax\nimport jax.numpy as jnp\nimport blackjax\n"
        "def kernel(key, state):\n    y = jnp.sin(state) * 2.0\n    return jnp.cos(y) + jax.random.normal(key)\n"
        "nuts = blackjax.nuts(kernel, 1e-3, jnp.ones(2))\nstate = jnp.ones(2)\nkey = jax.random.key(0)\n"
        f"{jitted}\nfor _ in range(1_000):\n    state = {called}\n"
    )
    assert ("LB114" in codes(src)) is fires


@pytest.mark.parametrize(
    ("timed", "fires"),
    [
        ("y = dfx.diffeqsolve(term, solver, t0=0.0, t1=1.0, dt0=0.1, y0=y0).ys", True),  # case 101
        ("sol = solve(y0)", True),  # behind a local function returning the solution
        ("sol = jax.block_until_ready(solve(y0))", False),
        ("term = dfx.ODETerm(vector_field)", False),  # a class: configuration, not a computation
    ],
)
def test_model_a_jax_library_returns_jax_values(timed, fires):
    src = (
        "import time\nimport jax\nimport jax.numpy as jnp\nimport diffrax as dfx\n"
        "def vector_field(t, y, args):\n    return -y\n"
        "term, solver = dfx.ODETerm(vector_field), dfx.Tsit5()\ny0 = jnp.ones(3)\n"
        "def solve(y0):\n    return dfx.diffeqsolve(term, solver, t0=0.0, t1=1.0, dt0=0.1, y0=y0).ys\n"
        f"solve(y0)\nt0 = time.perf_counter()\n{timed}\nprint(time.perf_counter() - t0)\n"
    )
    assert ("LB102" in codes(src)) is fires


@pytest.mark.parametrize("form", ["script", "notebook"])
def test_model_module_level_code_runs_the_def_in_effect(form):
    """A NumPy `f` timed before `f` is defined again as a jitted JAX function (QuantEcon's lecture, case 098):
    the first timing runs NumPy; the one after the jitted def runs JAX."""
    cells = [
        "import numpy as np\nimport jax\nimport jax.numpy as jnp\nimport quantecon as qe\n"
        "def f(x, y):\n    return np.cos(x**2 + y**2)\nx, y = np.meshgrid(np.linspace(-3, 3, 300), np.linspace(-3, 3, 300))",
        "with qe.Timer():\n    np.max(f(x, y))",
        "@jax.jit\ndef f(x, y):\n    return jnp.cos(x**2 + y**2)",
        "grid = jnp.linspace(-3, 3, 300)\nx, y = grid, grid\nf(x, y).block_until_ready()",
        "with qe.Timer():\n    z = f(x, y)",
    ]
    if form == "notebook":
        results = found(nb(*cells), notebook=True)
        assert ("LB102", 5, 2) in results
        # the NumPy timing: nothing to wait for, nothing to copy (one run in a timer block: one sample, LB104)
        assert [r[0] for r in results if r[1] == 2] == ["LB104"]
    else:
        src = "\n".join(cells) + "\n"
        results = found(src)
        numpy_timing = src.splitlines().index("    np.max(f(x, y))") + 1
        assert [r[0] for r in results if r[2] == numpy_timing] == ["LB104"]
        assert "LB102" in {r[0] for r in results}
        assert "LB115" not in {r[0] for r in results}  # `x, y = grid, grid`: JAX arrays, placed after the rebinding


@pytest.mark.parametrize(
    ("first_timing", "fires"),
    [
        ("%time y = step_all(x).block_until_ready()", True),  # the loop version: its jitted `update` compiles here
        ("update(x).block_until_ready()\n%time y = step_all(x).block_until_ready()", False),  # warmed first
        ("%time y = x.block_until_ready()", False),  # nothing compiled in the timing
    ],
)
def test_model_a_call_before_a_jitted_redefinition_runs_the_plain_def(first_timing, fires):
    """A loop version `step_all` timed before `step_all` is defined again as a jitted function (QuantEcon's
    inventory lecture, case 140): the first timing runs the loop version, whose jitted `update` compiles in it;
    resolving the name to the later jitted def instead would see one traced call and nothing compiled."""
    cells = [
        "import jax\nimport jax.numpy as jnp\nx = jnp.ones(100)\n"
        "@jax.jit\ndef update(x):\n    return x * 0.5 + 1.0\n"
        "def step_all(x):\n    for _ in range(3):\n        x = update(x)\n    return x",
        first_timing,
        "@jax.jit\ndef step_all(x):\n    return jax.lax.fori_loop(0, 3, lambda i, v: v * 0.5 + 1.0, x)",
        "step_all(x).block_until_ready()\n%time y = step_all(x).block_until_ready()",
    ]
    results = found(nb(*cells), notebook=True)
    timing_line = first_timing.count("\n") + 1
    assert (("LB103", 2, timing_line) in results) is fires
    assert not [r for r in results if r[1] == 4]  # the jitted version, warmed before its timing


@pytest.mark.parametrize(
    ("between", "fires"),
    [
        ("", False),  # `selu` is the plain def when the first timing runs; jitted only after it
        ("selu = jax.jit(selu)\n", True),  # jitted before the first timing: its first call compiles there
        ("selu_jit = jax.jit(selu)\n", False),  # another name jitted: `selu` stays plain
    ],
)
def test_model_a_name_rebound_to_its_jit_later_is_plain_before(between, fires):
    """The JAX tutorial's shape: `selu` timed as written, then `selu = jax.jit(selu)`, warmed and timed again.
    Module-level code runs the binding made last before it, so the first timing runs no jitted function."""
    src = (
        "import time\nimport jax\nimport jax.numpy as jnp\n"
        "def selu(x):\n    return 1.05 * jnp.where(x > 0, x, 1.67 * jnp.exp(x) - 1.67)\n"
        f"x = jnp.arange(1000.0)\n{between}"
        "t0 = time.perf_counter()\ny = selu(x).block_until_ready()\nprint(time.perf_counter() - t0)\n"
        "selu = jax.jit(selu)\nselu(x).block_until_ready()\n"
        "t0 = time.perf_counter()\ny = selu(x).block_until_ready()\nprint(time.perf_counter() - t0)\n"
    )
    first = src.splitlines().index("y = selu(x).block_until_ready()") + 1
    results = found(src)
    assert (("LB103", 0, first) in results) is fires
    assert not [r for r in results if r[0] == "LB103" and r[2] > first]  # the jitted version, warmed first


@pytest.mark.parametrize(
    ("batched", "fires"),
    [
        ("jax.vmap(g)", True),  # an un-jitted function of several operations, run op by op
        ("jax.vmap(f)", False),  # a jitted function: one compiled program, batched
        ("jax.vmap(lambda y: f(grid, y))", False),
        ("jax.vmap(jax.vmap(f, in_axes=(None, 0)), in_axes=(0, None))", False),
    ],
)
def test_model_a_transform_of_jitted_code_is_one_program(batched, fires):
    src = (
        "import time\nimport jax\nimport jax.numpy as jnp\n"
        "@jax.jit\ndef f(x, y):\n    return jnp.cos(x**2 + y**2) / (1 + x**2 + y**2)\n"
        "def g(x, y):\n    return jnp.cos(x**2 + y**2) / (1 + x**2 + y**2)\n"
        f"grid = jnp.linspace(-3, 3, 300)\nh = {batched}\nh(grid, grid).block_until_ready()\n"
        # repeated: an un-jitted transform timed once is one sample (LB104), not dispatch repeated (cases 289-291)
        "t0 = time.perf_counter()\nfor _ in range(10):\n    h(grid, grid).block_until_ready()\n"
        "print(time.perf_counter() - t0)\n"
    )
    if "lambda" in batched:
        src = src.replace("h(grid, grid)", "h(grid)")
    assert ("LB114" in codes(src)) is fires


@pytest.mark.parametrize(
    ("setup", "timed", "fires"),
    [
        ("", "lax.while_loop(lambda x: x < 0, jf, x0).block_until_ready()", True),  # jax-ml/jax#587, case 102
        ("", "lax.fori_loop(0, 10, lambda i, x: jf(x), x0).block_until_ready()", True),
        ("cond = lambda x: x < 0", "lax.while_loop(cond, jf, x0).block_until_ready()", False),  # one function object
        ("run = jax.jit(lambda x: lax.while_loop(lambda v: v < 0, jf, x))", "run(x0).block_until_ready()", False),
        # the loop reached through a container or a name (case 130's container variant): the same call
        ("loops = {'while': lax.while_loop}", "loops['while'](lambda x: x < 0, jf, x0).block_until_ready()", True),
        ("loop = lax.while_loop if x0.ndim else lax.while_loop", "loop(lambda x: x < 0, jf, x0).block_until_ready()", True),
        # either the eager loop or a function of the file's own: not known to compile anything
        ("def mine(c, b, v):\n    return v\nloop = lax.while_loop if x0.ndim else mine", "loop(lambda x: x < 0, jf, x0)", False),
    ],
)
def test_model_eager_lax_control_flow_with_a_fresh_function_recompiles_in_the_timing(setup, timed, fires):
    src = (
        "import time\nimport jax\nimport jax.numpy as jnp\nfrom jax import lax\n"
        "jf = jax.jit(lambda x: jnp.mean(x - jnp.ones(10)))\nx0 = jnp.array(0.0)\n"
        f"{setup}\nt0 = time.perf_counter()\n{timed}\nprint(time.perf_counter() - t0)\n"
    )
    assert ("LB111" in codes(src)) is fires


@pytest.mark.parametrize(
    ("decorator", "parameters", "fires"),
    [
        ("@pytest.mark.benchmark(group='rt')\n", "benchmark", True),  # DiffeRT's suite (case 104), any file name
        ("", "benchmark", True),  # pytest-benchmark's fixture: only pytest runs it
        ("@pytest.mark.slow\n", "", True),
        ("", "", False),  # a `test_*` helper of a library module
    ],
)
def test_model_a_pytest_test_runs_here_whatever_its_file_is_called(decorator, parameters, fires):
    src = (
        "import time\nimport jax\nimport jax.numpy as jnp\nimport pytest\n"
        "@jax.jit\ndef step(x):\n    return jnp.sin(x) * 2\n"
        f"{decorator}def test_step_output({parameters}):\n    x = jnp.ones(100)\n    step(x).block_until_ready()\n"
        + ("    benchmark(step, x)\n" if parameters else
           "    t0 = time.perf_counter()\n    step(x)\n    print(time.perf_counter() - t0)\n")
    )
    results = [d.code for d in lint_source(textwrap.dedent(src), "suite_rt.py")]
    assert ("LB102" in results) is fires


_TIMER_HELPER = (
    "import jax\nimport jax.numpy as jnp\nimport numpy as np\nfrom time import perf_counter\n"
    "def timer({param}):\n    {param}()\n    t = perf_counter()\n    for _ in range(3):\n        {param}()\n"
    "    print((perf_counter() - t) / 3)\n"
    "f = jax.jit(jnp.linalg.eigh)\ns = jax.block_until_ready(jnp.eye(64) * 2.0)\n"
    "def waited():\n    return jax.block_until_ready(f(s))\ndef queued():\n    return f(s)\n"
)


@pytest.mark.parametrize("param", ["f", "fn"])
@pytest.mark.parametrize(
    ("passed", "fires"),
    [
        ("lambda: jax.block_until_ready(f(s))", False),  # case 166: each caller's lambda waits
        ("lambda: f(s)", True),
        ("lambda: f(s).block_until_ready()", False),
        ("waited", False),  # a local def that waits
        ("queued", True),
        ("lambda: np.linalg.eigh(np.eye(64))", False),  # NumPy work: nothing to wait for
    ],
)
def test_model_a_callable_parameter_is_what_its_callers_pass(param, passed, fires):
    """A timing helper's ``f()`` runs what the file's call sites pass for ``f`` (the union of them), not a
    module-level callable that shares the parameter's name (jax#10180, case 166)."""
    src = _TIMER_HELPER.format(param=param) + f"timer({passed})\ntimer(lambda: np.linalg.eigh(np.eye(64)))\n"
    assert (("LB102", 0, 9) in found(src)) is fires


@pytest.mark.parametrize(("passed", "fires"), [("_T", False), ("T", False), ("_plain", True)])
def test_model_a_parameter_named_like_a_jitted_function_runs_what_is_passed(passed, fires):
    """QuantEcon's ``successive_approx(T, x_0)`` with a module-level ``T = jax.jit(T)``: the loop calls what the
    callers pass, a lambda around the jitted ``T`` (compiled programs: no op-by-op loop) or a plain function."""
    src = (
        "import jax\nimport jax.numpy as jnp\n"
        "def successive_approx(T, x_0, tolerance=1e-6):\n    x, error = x_0, tolerance + 1\n"
        "    while error > tolerance:\n        x_new = T(x)\n        error = jnp.max(jnp.abs(x_new - x))\n"
        "        x = x_new\n    return x\n"
        "def T(v, beta):\n    return jnp.maximum(beta * v, 1.0)\nT = jax.jit(T)\n"
        "def _plain(v):\n    return jnp.maximum(0.5 * jnp.sqrt(v), 1.0)\n"
        "_T = lambda v: T(v, 0.5)\n"
        f"v = successive_approx({passed}, jnp.zeros(10))\nprint(v)\n"
    )
    assert (("LB114", 0, 5) in found(src)) is fires


_JIT_FLAG = (
    "import argparse, time\nimport jax\nimport jax.numpy as jnp\n"
    "def loss(w, x):\n    return jnp.sum(jnp.tanh(w @ x))\n"
    "def main():\n    parser = argparse.ArgumentParser()\n    parser.add_argument('--jit', type=int, default=1)\n"
    "    args = parser.parse_args()\n    w, x = jnp.ones((8, 8)), jnp.ones(8)\n    f = jax.value_and_grad(loss)\n"
    "{jit}"
    "    jax.block_until_ready(f(w, x))\n    t = time.perf_counter()\n    for _ in range(100):\n"
    "        {timed}\n    print(time.perf_counter() - t)\n"
    "if __name__ == '__main__':\n    main()\n"
)


@pytest.mark.parametrize(
    ("jit", "unjitted_everywhere"),
    [
        ("    if args.jit:\n        f = jax.jit(f)\n", False),  # e3nn-jax's benchmark (case 169): jitted by default
        ("    f = jax.jit(f) if args.jit else f\n", False),
        ("", True),
        ("    if args.jit:\n        g = jax.jit(f)\n", True),  # another name is jitted: `f` stays a plain transform
    ],
)
def test_model_a_callable_jitted_on_some_path(jit, unjitted_everywhere):
    """LB114 (op-by-op dispatch) only when the timed callable is unjitted on every path; LB102 treats a callable
    jitted on some path as a JAX call, and a plain transform of JAX code is one too."""
    waited = _JIT_FLAG.format(jit=jit, timed="jax.block_until_ready(f(w, x))")
    line = waited.splitlines().index("        jax.block_until_ready(f(w, x))") + 1
    assert (("LB114", 0, line) in found(waited)) is unjitted_everywhere
    assert "LB102" not in codes(waited)
    unwaited = _JIT_FLAG.format(jit=jit, timed="out = f(w, x)")
    assert ("LB102", 0, line) in found(unwaited)


@pytest.mark.parametrize(("timed_fn", "fires"), [("np.sin", False), ("jax.jit(jnp.cos)", True)])
def test_model_a_jitted_name_in_another_function_is_another_variable(timed_fn, fires):
    """``fn = jax.jit(...)`` in one function says nothing of another function's ``fn``."""
    src = (
        "import time\nimport jax\nimport jax.numpy as jnp\nimport numpy as np\n"
        "def a(x):\n    fn = jax.jit(jnp.sin)\n    return fn(x)\n"
        f"def b(x):\n    fn = {timed_fn}\n    t0 = time.perf_counter()\n    fn(x)\n"
        "    print(time.perf_counter() - t0)\n"
        "b(jnp.ones(3))\nprint(a(jnp.ones(3)))\n"
    )
    assert (("LB102", 0, 11) in found(src)) is fires


_UNKNOWN_ENVIRONMENT = (
    "import time\nimport jax\nimport numpy as np\nimport torch\nfrom somelib import envs\n"
    "e = envs.create('halfcheetah')\nseed = {seed}\n"
    "t = time.perf_counter()\ns = e.reset(seed)\nprint(time.perf_counter() - t)\n"
    "for i in range(5):\n    t = time.perf_counter()\n    {step}\n    print(time.perf_counter() - t)\n"
)


@pytest.mark.parametrize(
    ("seed", "step", "fires"),
    [
        ("jax.random.PRNGKey(0)", "s = e.step(state=s, action=jax.numpy.ones(3))", True),  # brax#349, case 163
        ("jax.random.key(0)", "s = e.step(s, jax.random.normal(seed, (3,)))", True),
        ("jax.random.PRNGKey(0)", "s = jax.block_until_ready(e.step(state=s, action=jax.numpy.ones(3)))", True),
        ("np.random.default_rng(0).integers(9)", "s = e.step(state=s, action=np.ones(3))", False),  # NumPy state
        ("torch.ones(3)", "s = e.step(s, torch.ones(3))", False),  # torch state
        ("jax.random.PRNGKey(0)", "obs = e.observe(s)", True),  # the reset is still JAX state
    ],
)
def test_model_an_unknown_object_threading_jax_state_computes_in_jax(seed, step, fires):
    """A method of an object the doctor cannot resolve, given JAX values, whose result is handed back to the same
    object's methods (its state), computes in JAX: the reset's result is unwaited JAX work. NumPy and torch state
    says nothing."""
    src = _UNKNOWN_ENVIRONMENT.format(seed=seed, step=step)
    results = found(src)
    assert (("LB102", 0, 9) in results) is fires
    assert (("LB104", 0, 9) in results) is fires
    waited_step = "block_until_ready" in step
    assert (("LB102", 0, 13) in results) is (fires and not waited_step)  # given the state: JAX too


@pytest.mark.parametrize("target", ["obs, s", "[obs, *s]", "s"])
@pytest.mark.parametrize(("seed", "fires"), [("jax.random.PRNGKey(0)", True), ("np.random.default_rng(0).integers(9)", False)])
def test_model_an_unknown_object_s_state_unpacked_from_a_result_is_its_state(target, seed, fires):
    """``obs, s = e.reset(key)`` binds the object's state as ``s = e.reset(key)`` does: ``e.observe(s)`` is given the
    state back, so it computes in JAX when the object is fed JAX values, and is unknown when it is fed NumPy ones."""
    src = (
        "import time\nimport jax\nimport numpy as np\nfrom somelib import envs\ne = envs.create('halfcheetah')\n"
        f"{target} = e.reset({seed})\nfor i in range(5):\n    t = time.perf_counter()\n    reward = e.observe(s)\n"
        "    print(time.perf_counter() - t)\n"
    )
    assert (("LB102", 0, 9) in found(src)) is fires


def test_model_a_jax_value_given_to_an_unknown_call_that_is_not_fed_back_stays_unknown():
    src = ("import time\nimport jax\nimport jax.numpy as jnp\nfrom somelib import plotting\nx = jnp.ones(3)\n"
           "t = time.perf_counter()\nlines = plotting.draw(x)\nprint(time.perf_counter() - t)\n")
    assert "LB102" not in codes(src)
    fed_back = src.replace("lines = plotting.draw(x)", "x = plotting.draw(x)").replace(
        "from somelib import plotting\n", "from somelib import make\nplotting = make()\n")
    assert ("LB102", 0, 8) in found(fed_back)


def test_model_a_name_a_function_jits_through_global_stays_jitted_elsewhere():
    src = ("import time\nimport jax\nimport jax.numpy as jnp\nf = None\n"
           "def setup():\n    global f\n    f = jax.jit(jnp.sin)\n"
           "def bench(x):\n    t0 = time.perf_counter()\n    f(x)\n    print(time.perf_counter() - t0)\n"
           "setup()\nbench(jnp.ones(3))\n")
    assert ("LB102", 0, 10) in found(src)
    assert "LB102" not in codes(src.replace("    f(x)\n", "    f(x).block_until_ready()\n"))


# PyTorch/XLA (pytorch/xla#8858, case 183): torch ops on an XLA device only trace; `mark_step`/`sync` run the graph.
_XLA_STEPS = (
    "import time\nimport torch\nimport torch_xla\nimport torch_xla.core.xla_model as xla_model\n"
    "net = torch.nn.Linear(16, 16).to({device})\nbatch = torch.randn(4, 16, device={device})\n"
    "def train_step():\n    loss = net(batch).sum()\n    {step}\n"
    "begin = {clock}()\nsteps = 0\nwhile steps < 20:\n    train_step()\n    steps += 1\n"
    "{wait}finish = {clock}()\nprint('took', finish - begin)\n"
)


@pytest.mark.parametrize("step", ["xla_model.mark_step()", "torch_xla.sync()"])
def test_model_a_pytorch_xla_step_is_device_work_timed_by_the_wall_clock(step):
    """A training loop on an XLA device, each step in a helper, timed with ``time.time()``: the graph run is work,
    so the wall clock is reported (LB105), and the loop inside one interval is a total, not one sample (no LB104)."""
    src = _XLA_STEPS.format(device="xla_model.xla_device()", step=step, clock="time.time", wait="")
    results = found(src)
    assert ("LB105", 0, 10) in results
    assert "LB104" not in {code for code, _, _ in results}


def test_model_an_xla_snippet_without_imports_uses_the_conventional_alias():
    """Posted without imports (``xm`` and ``time`` unbound): ``xm`` is PyTorch/XLA's documented alias."""
    src = "t0 = time.time()\nfor i in range(steps):\n    forward_backward()\n    xm.mark_step()\nt1 = time.time()\n"
    assert found(src) == [("LB105", 0, 1)]
    # quiet twins: the steady clock; `xm` bound to something else; no framework at all
    assert found(src.replace("time.time()", "time.perf_counter()")) == []
    assert found("from mytools import xm\n" + src) == []
    assert found(src.replace("    xm.mark_step()\n", "")) == []


@pytest.mark.parametrize(("device", "cuda_work"), [("xla_model.xla_device()", False), ("'xla'", False), ("'cuda'", True)])
def test_model_work_on_an_xla_device_is_not_cuda_work(device, cuda_work):
    """In a file that also mentions CUDA, work on PyTorch/XLA's device waited with ``wait_device_ops`` is not
    unsynchronized CUDA work (LB116); the same loop on ``"cuda"`` is."""
    src = _XLA_STEPS.format(
        device=device, step="xla_model.mark_step()", clock="time.perf_counter",
        wait="xla_model.wait_device_ops()\n",
    ) + "print(torch.cuda.is_available())\n"
    assert ("LB116" in codes(src)) is cuda_work


_GLOBAL_TENSOR = (
    "import time\nimport torch\n{bind}\n"
    "def one_step():\n    return torch.linalg.qr(weights)\n"
    "print(torch.cuda.device_count())\nt0 = time.perf_counter()\none_step()\nprint(time.perf_counter() - t0)\n"
)


@pytest.mark.parametrize(
    ("bind", "cuda_work"),
    [
        ("weights = torch.randn(256, 256, device='cuda')", True),
        ("weights = torch.randn(256, 256)", False),  # the CPU, read by the helper through the one global binding
        ("weights = torch.randn(256, 256)\nweights = weights.cuda()", True),  # bound twice: unknown, may be CUDA
    ],
)
def test_model_a_global_a_helper_reads_is_the_modules_one_binding_of_it(bind, cuda_work):
    """A function reading a global sees the module's binding of it when the file binds the name once: a helper's
    torch work on a CPU tensor is not unsynchronized CUDA work."""
    assert ("LB116" in codes(_GLOBAL_TENSOR.format(bind=bind))) is cuda_work


_HANDED_TIMER = (
    "import time\n{imports}\nLOG = []\n"
    "def profiled(label):\n    def decorate(step):\n        def run(*args):\n"
    "            begin = time.perf_counter()\n            out = {call}\n"
    "            LOG.append((label, time.perf_counter() - begin))\n            return out\n"
    "        return run\n    return decorate\n"
)


@pytest.mark.parametrize(
    ("imports", "call", "fires"),
    [
        ("import jax", "step(*args)", True),
        ("from diffrax import diffeqsolve", "step(*args)", True),  # a module of JAX code: a library written in JAX
        ("import jax", "jax.block_until_ready(step(*args))", False),  # waits before the clock stops
        ("import jax", "jax.tree.map(lambda a: a.block_until_ready(), step(*args))", False),
        ("import json", "step(*args)", False),  # nothing says the callables are JAX work
    ],
)
def test_model_a_library_timer_of_a_handed_callable_waits_for_nothing(imports, call, fires):
    """A library's timing decorator (never applied in its own file: netket's ``@timed``, case 186) times the
    function its callers hand it; in JAX code, a timing that does not wait is wrong whatever they hand it."""
    assert (("LB102", 0, 8) in found(_HANDED_TIMER.format(imports=imports, call=call))) is fires


def test_model_a_library_timer_given_waiting_callables_in_its_file_stays_quiet():
    """The file's own call sites say what the parameter is: lambdas that wait (jax#10180, case 166)."""
    src = (
        "import time\nimport jax\nimport jax.numpy as jnp\n"
        "def stopwatch(fn):\n    t0 = time.perf_counter()\n    fn()\n    return time.perf_counter() - t0\n"
        "def bench(x):\n    return stopwatch(lambda: jax.block_until_ready(jnp.sin(x)))\n"
    )
    assert "LB102" not in codes(src)
    assert ("LB102", 0, 6) in found(src.replace("def bench(x):\n    return stopwatch(lambda: jax.block_until_ready(jnp.sin(x)))\n", ""))
    # its own work, not a handed callable: a library function's instrumentation stays its callers' matter
    assert "LB102" not in codes(src.replace("    fn()\n", "    jnp.sin(jnp.ones(3))\n").replace(
        "def bench(x):\n    return stopwatch(lambda: jax.block_until_ready(jnp.sin(x)))\n", ""))


_CPU_THEN_CUDA = (
    "import functools, time, timeit\nimport torch\n{define}\nm = torch.rand(64, 64)\n{cpu_timing}\n"
    "m = m.to('cuda')\nbegin = time.perf_counter()\ninv = torch.inverse(m)\nprint(time.perf_counter() - begin)\n"
)


@pytest.mark.parametrize(
    ("define", "cpu_timing"),
    [
        ("def on_host():\n    s = time.perf_counter()\n    torch.inverse(m)\n    print(time.perf_counter() - s)",
         "on_host()"),  # a helper reading the global, called before it is moved
        ("", "print(timeit.timeit(lambda: torch.inverse(m), number=1))"),  # a lambda handed to the harness
        ("inverse = functools.partial(torch.inverse)",
         "s = time.perf_counter()\ninverse(m)\nprint(time.perf_counter() - s)"),
        ("ops = {'inverse': torch.inverse}",
         "s = time.perf_counter()\nops['inverse'](m)\nprint(time.perf_counter() - s)"),
    ],
)
def test_model_the_cpu_timing_before_a_move_to_cuda_stays_cpu_however_it_is_written(define, cpu_timing):
    """pytorch#42108 (case 177) written other ways: the first timing runs on the CPU tensor, the second on CUDA.
    Only the CUDA timing is LB116, whether the CPU one is in a helper, a lambda, a partial or a container."""
    src = _CPU_THEN_CUDA.format(define=define, cpu_timing=cpu_timing)
    lines = [line for code, _, line in found(src) if code == "LB116"]
    assert lines == [len(src.splitlines()) - 1]


def test_model_a_helper_called_after_the_move_to_cuda_is_cuda_work():
    """The quiet twin's mirror: the same helper called once the global is on CUDA (and once before) is not known
    to run on the CPU."""
    src = _CPU_THEN_CUDA.format(
        define="def on_host():\n    s = time.perf_counter()\n    torch.inverse(m)\n    print(time.perf_counter() - s)",
        cpu_timing="on_host()",
    ) + "on_host()\n"
    assert ("LB116", 0, 5) in found(src)


@pytest.mark.parametrize(
    ("record", "fires"),
    [
        ("logging.info('%s took %.2fs', label, elapsed)", False),  # a progress line about an activity (clu)
        ("log.debug(f'{label}: {elapsed:.3f}s')", False),
        ("TOTALS[label] = TOTALS.get(label, 0.0) + elapsed", True),  # a measurement the library keeps (netket)
        ("logging.info('%s', label)\n        TOTALS[label] = elapsed", True),
    ],
)
def test_model_a_library_timer_that_only_logs_its_interval_is_a_log_line(record, fires):
    """A library's ``@contextmanager`` that times an activity and only writes the interval to a log is a progress
    line; one that keeps the interval (a profile of where time goes) measures, and must wait for JAX work."""
    src = (
        "import contextlib, functools, logging, time\nimport jax\nlog = logging.getLogger(__name__)\nTOTALS = {}\n"
        "@contextlib.contextmanager\ndef activity(label):\n    start = time.monotonic()\n    try:\n        yield\n"
        f"    finally:\n        elapsed = time.monotonic() - start\n        {record}\n"
        "def traced(label):\n    def wrap(fn):\n        @functools.wraps(fn)\n        def inner(*a, **k):\n"
        "            with activity(label):\n                return fn(*a, **k)\n        return inner\n    return wrap\n"
    )
    line = src.splitlines().index("                return fn(*a, **k)") + 1
    assert (("LB102", 0, line) in found(src)) is fires


@pytest.mark.parametrize(("words", "fires"), [("# cold: includes compilation\n", False), ("# repeat it\n", True), ("", True)])
def test_lb103_words_over_a_loop_whose_body_the_timing_opens_say_what_it_times(words, fires):
    """The words above a loop say what the timing that opens its body measures, as they do above a def whose body it
    opens (case 134's '# --- First execution ---', the timing moved into a loop)."""
    src = (
        "import time\nimport jax\nimport jax.numpy as jnp\nf = jax.jit(lambda v: jnp.cumsum(v) * 2)\nv = jnp.ones(100)\n"
        f"{words}for attempt in range(3):\n    tick = time.perf_counter()\n    f(v).block_until_ready()\n"
        "    print(attempt, time.perf_counter() - tick)\n"
    )
    assert ("LB103" in codes(src)) is fires


@pytest.mark.parametrize(("timed", "single"), [("y = f(x)\n", True), ("for _ in range(50):\n    y = f(x)\n", False)])
def test_model_a_clock_pair_left_unsubtracted_counts_its_samples_as_one_written_out(timed, single):
    """``begin = ...; ...; done = ...`` with the difference left out of the snippet: a loop inside is a total over
    its iterations (no LB104), one call is one sample, as when ``done - begin`` is written."""
    src = ("import time\nimport jax\nimport jax.numpy as jnp\nf = jax.jit(jnp.tanh)\nx = jnp.ones(8)\n"
           f"f(x).block_until_ready()\nbegin = time.perf_counter()\n{timed}y.block_until_ready()\n"
           "done = time.perf_counter()\n")
    assert ("LB104" in codes(src)) is single
    assert ("LB104" in codes(src + "print(done - begin)\n")) is single


@pytest.mark.parametrize(("words", "fires"), [("# Now time it without compilation\n", False), ("", True)])
def test_lb103_steady_words_over_a_registered_benchmark_make_the_first_timing_the_cold_one(words, fires):
    """Words over a google_benchmark function (above its decorator) say the timing its body opens runs without
    compilation: the earlier cold timing of the same jitted call is read against it (case 087's variant)."""
    src = (
        "import time\nimport google_benchmark\nimport jax\nimport jax.numpy as jnp\nf = jax.jit(jnp.sin)\n"
        "x = jnp.ones(3)\nt0 = time.perf_counter()\nf(x).block_until_ready()\nprint(time.perf_counter() - t0)\n"
        f"{words}@google_benchmark.register\ndef bench(state):\n    while state:\n        f(x).block_until_ready()\n"
    )
    assert ("LB103" in codes(src)) is fires
