"""What cases 343-350 showed at first sight, mended in the shared model (mend28).

- `TimedRegion.written_lines`: a clock pair whose second read is a statement of its own (``t1 =
  time.perf_counter()``) ends there; the code between it and a later subtraction is not the timing's, so a
  ``# Compile / warmup`` comment over the next timing's set-up no longer says the first one times compilation on
  purpose (case 345: LB104 at the one cold NumPy baseline call). The subtraction's own line is still read
  (``compile_time = t1 - t0``; ``steps_jit = n / (jit_time - jit_start)`` says the run is in the figure), and so
  the next timing's ``jit_time = time.time()`` no longer hides the first timing's unwaited call (case 331, LB102:94).
- `Warmth.last_clear`: ``f._clear_cache()`` or ``jax.clear_caches()`` between two calls leaves the later one cold,
  and a timing right after such a clear, with nothing running the callee in between, times the compile on purpose
  (`_intent._timed_after_a_clear`; case 346: no LB104 at the 'jax cold' solve).
- `_iteration.calls_running_once`: a loop count that is a parameter takes each caller's value; a call that gives it
  1 (a literal, a name bound only to 1, a default of 1 left out) runs the timed loop once, so LB104 reports that
  timing as one sample (case 344: ``benchmark(params, INPUT_DIM, 1000, 1)``).
- `Facts.plain_call_of_jitted` and `Facts.transformed_here`: a function imported from a library the model cannot
  read, which the file hands to ``jax.jit`` (or another JAX transform), is JAX code wherever it is called: called by
  its own name in a loop it runs eagerly (LB114, case 103's reading) and copies the NumPy arrays it is handed (LB115);
  `Kinds`: a NumPy random generator's methods (``rng.normal(size=n)``) give NumPy arrays (case 348).
- `Kinds`: a method of an object a JAX library's class built (`_names.JAX_LIBRARIES`: ``sine = Sine(...)`` from
  ``numpyro.distributions``) returns JAX values when its result is used (``data = sine.sample(key, (n,))``: LB102 when
  nothing waits for it); LB114 (`_a_library_objects_call`): the key splits around such a call are the loop's glue
  (case 350). Called as a statement (``mcmc.run(key)``) it keeps its results in the object.
"""

from __future__ import annotations

import json
import textwrap

from levelbench.doctor import lint_source


def found(source: str, path: str = "bench.py") -> set[tuple[str, int]]:
    return {(d.code, d.location.line) for d in lint_source(textwrap.dedent(source), path)}


def notebook_found(*cells: str) -> set[str]:
    text = json.dumps({
        "nbformat": 4, "nbformat_minor": 5, "metadata": {},
        "cells": [{"cell_type": "code", "metadata": {}, "source": textwrap.dedent(c).strip("\n"), "outputs": []}
                  for c in cells],
    })
    return {d.code for d in lint_source(text, "case.ipynb", notebook=True)}


def lines_of(code: str, source: str, path: str = "bench.py") -> set[int]:
    return {line for c, line in found(source, path) if c == code}


# --- 345: a timing ends at its second read -----------------------------------------------------------------------

BASELINE = """
import time
{clock_import}
import jax
import jax.numpy as jnp
import numpy as np


def baseline(*, points, weights):
    out = np.zeros((points.shape[0], 3))
    for i in range(points.shape[0]):
        out[i] = np.sum(points[i] * weights)
    return out


def main():
    points = np.random.default_rng(0).uniform(size=(256, 3))
    weights = np.ones(3)
    t0 = {clock}()
    b_np = baseline(
        points=points, weights=weights
    )
    t1 = {clock}()

    f = jax.jit(lambda p: jnp.sin(p) * 2.0)
    points_j = jnp.asarray(points)

    # {words}
    _ = f(points_j).block_until_ready()

    t2 = {clock}()
    for _ in range(10):
        b_j = f(points_j)
    b_j.block_until_ready()
    t3 = {clock}()
    t_numpy = t1 - t0
    print("NumPy baseline (1x):", t_numpy, "JAX:", (t3 - t2) / 10)


if __name__ == "__main__":
    main()
"""

CLOCKS = (
    ("", "time.perf_counter"),
    ("from time import perf_counter as now", "now"),
    ("", "time.time"),
)


def test_the_code_after_a_timings_second_read_does_not_speak_for_it():
    for clock_import, clock in CLOCKS:
        for words in ("Compile / warmup.", "first call compiles"):
            source = BASELINE.format(clock_import=clock_import, clock=clock, words=words)
            assert 20 in lines_of("LB104", source), (clock, words, found(source))


def test_the_subtraction_still_says_what_the_timing_is_for():
    # `compile_time = t1 - t0`, some lines after the second read, still names the figure: no LB104
    source = BASELINE.format(clock_import="", clock="time.perf_counter", words="warm-up").replace(
        "t_numpy = t1 - t0", "compile_time = t1 - t0"
    ).replace("t_numpy,", "compile_time,")
    assert "compile_time = t1 - t0" in source
    assert 20 not in lines_of("LB104", source)


def test_a_comment_right_above_the_timing_still_says_it():
    source = BASELINE.format(clock_import="", clock="time.perf_counter", words="warm-up").replace(
        "    t0 = time.perf_counter()\n", "    # compile time of the baseline\n    t0 = time.perf_counter()\n", 1
    )
    assert not any(code == "LB104" and line in (20, 21) for code, line in found(source))


def test_the_baseline_timed_once_in_a_notebook():
    cells = BASELINE.format(clock_import="", clock="time.perf_counter", words="Compile / warmup.").split("\n\n\n")
    assert "LB104" in notebook_found(*cells)



TWO_TIMINGS = """
import time
import jax
import jax.numpy as jnp


def eager_steps(x, n):
    for _ in range(n):
        x = jnp.sin(x)
    return x


@jax.jit
def scanned_steps(x):
    return jax.lax.scan(lambda c, _: (jnp.sin(c), None), x, None, length=300)[0]


def main():
    x = jnp.ones(1000)
    eager_steps(x, 10)
    nojit_start = {clock}()
    eager_steps(x, 300)
    nojit_time = {clock}()
    jit_start = {clock}()
    scanned_steps(x)
    jit_time = {clock}()
    steps = 300 * 1000
    print("no jit", steps / (nojit_time - nojit_start))
    print("jit", steps / (jit_time - jit_start))


main()
"""


def test_a_later_timings_words_do_not_speak_for_an_earlier_one():
    for clock in ("time.time", "time.perf_counter"):
        source = TWO_TIMINGS.format(clock=clock)
        assert {22, 25} <= lines_of("LB102", source), (clock, found(source))


# --- 346: a timing right after the cache of what it times is cleared -----------------------------------------------

COLD = """
import time
{imports}
import jax
import jax.numpy as jnp


@jax.jit
def solve(v):
    return jax.lax.fori_loop(0, 100, lambda i, x: jnp.sin(x) + 1.0, v)


def main():
    v = jnp.zeros(100)
    jax.block_until_ready(solve(v))

    {clear}
    t0 = {clock}()
    r = solve(v); jax.block_until_ready(r)
    t_cold = {clock}() - t0
    print("cold", t_cold)


main()
"""

CLEARS = (
    ("", "solve._clear_cache()"),
    ("", "jax.clear_caches()"),
    ("from jax import clear_caches as drop_caches", "drop_caches()"),
    ("", "solve._clear_cache(); print('cleared')"),
)


def test_a_timing_right_after_its_cache_is_cleared_times_the_compile_on_purpose():
    for imports, clear in CLEARS:
        for clock in ("time.perf_counter", "time.time"):
            source = COLD.format(imports=imports, clear=clear, clock=clock)
            assert not {code for code, _ in found(source)} & {"LB103", "LB104"}, (clear, clock, found(source))


def test_without_the_clear_the_warmed_single_timing_is_still_one_sample():
    source = COLD.format(imports="", clear="pass", clock="time.perf_counter")
    assert 19 in lines_of("LB104", source)


def test_a_warm_up_after_the_clear_makes_it_one_warm_sample_again():
    source = COLD.format(imports="", clear="solve._clear_cache(); jax.block_until_ready(solve(v))",
                         clock="time.perf_counter")
    assert 19 in lines_of("LB104", source)


def test_clearing_another_functions_cache_does_not_count():
    source = COLD.format(imports="", clear="other._clear_cache()", clock="time.perf_counter")
    assert 19 in lines_of("LB104", source)


def test_a_clear_in_a_cold_timing_helper():
    source = COLD.format(imports="", clear="pass", clock="time.perf_counter").replace(
        "    print(\"cold\", t_cold)\n",
        "    print(\"cold\", t_cold)\n\n\ndef cold(v):\n    jax.clear_caches()\n    t0 = time.perf_counter()\n"
        "    jax.block_until_ready(solve(v))\n    return time.perf_counter() - t0\n",
    ).replace("\nmain()\n", "\nmain()\nprint(cold(jnp.ones(100)))\n")
    lines = lines_of("LB104", source)
    assert 19 in lines and not lines - {19}, found(source)


def test_the_cold_timing_in_notebook_cells():
    source = COLD.format(imports="", clear="solve._clear_cache()", clock="time.perf_counter")
    head, body = source.split("\n\ndef main():\n")
    cells = [head, textwrap.dedent(body.replace("\n\nmain()\n", "\n"))]
    assert "solve._clear_cache()" in cells[1] and "LB104" not in notebook_found(*cells)
    cells[1] = cells[1].replace("solve._clear_cache()", "pass")
    assert "LB104" in notebook_found(*cells)


def test_a_clear_at_the_top_of_a_script_is_hygiene_not_a_cold_timing():
    source = """
import time
import jax
import jax.numpy as jnp

jax.clear_caches()


@jax.jit
def solve(v):
    return jnp.sin(v) * 2.0


v = jnp.zeros(100)
t0 = time.perf_counter()
r = solve(v).block_until_ready()
print(time.perf_counter() - t0)
"""
    assert 16 in lines_of("LB104", source)
    adjacent = source.replace("\njax.clear_caches()\n", "\n").replace(
        "t0 = time.perf_counter()", "jax.clear_caches()\nt0 = time.perf_counter()")
    assert not any(code == "LB104" for code, _ in found(adjacent)), found(adjacent)


# --- 344: a loop count that is a parameter takes each caller's value ---------------------------------------------

HELPER = """
import time
{imports}
import jax
import jax.numpy as jnp


def forward(w, x):
    return jnp.tanh(x @ w)


def benchmark(w, batch, {parameter}):
    x = jnp.ones((batch, 64))
    f = jax.jit(forward)
    f(w, x).block_until_ready()
    start = {clock}()
    for _ in range(n_runs):
        f(w, x).block_until_ready()
    elapsed = ({clock}() - start) / n_runs
    print(batch, elapsed)


def main():
    w = jnp.ones((64, 64))
    benchmark(w, 1, 1000)
    {second}


main()
"""

ONCE = (
    ("n_runs", "benchmark(w, 1000, 1)"),
    ("n_runs", "benchmark(w, 1000, n_runs=1)"),
    ("n_runs", "runs = 1\n    benchmark(w, 1000, runs)"),
    ("n_runs=1", "benchmark(w, 1000)"),
)


def test_a_call_that_gives_the_loop_count_1_times_one_run():
    for parameter, second in ONCE:
        for imports, clock in (("", "time.perf_counter"), ("from time import perf_counter as tick", "tick"),
                               ("", "time.time")):
            source = HELPER.format(imports=imports, clock=clock, parameter=parameter, second=second)
            assert 17 in lines_of("LB104", source), (second, clock, found(source))


def test_callers_that_all_repeat_the_loop_leave_it_averaged():
    for parameter, second in (("n_runs", "benchmark(w, 1000, 10)"), ("n_runs=10", "benchmark(w, 1000)"),
                              ("n_runs", "runs = 1\n    runs = 5\n    benchmark(w, 1000, runs)"),
                              ("n_runs", "benchmark(w, 1000, *[1])")):
        source = HELPER.format(imports="", clock="time.perf_counter", parameter=parameter, second=second)
        assert 17 not in lines_of("LB104", source), (second, found(source))


def test_a_rebound_loop_count_is_not_the_callers():
    source = HELPER.format(imports="", clock="time.perf_counter", parameter="n_runs",
                           second="benchmark(w, 1000, 1)").replace(
        "    x = jnp.ones((batch, 64))\n", "    x = jnp.ones((batch, 64))\n    n_runs = max(n_runs, 10)\n")
    assert not any(code == "LB104" for code, _ in found(source)), found(source)


def test_the_helper_called_once_in_notebook_cells():
    source = HELPER.format(imports="", clock="time.perf_counter", parameter="n_runs", second="benchmark(w, 1000, 1)")
    cells = source.split("\n\n\n")
    assert "LB104" in notebook_found(*cells)


# --- 348: a library function the file jits is JAX code wherever it is called -------------------------------------

UNUSED_JIT = """
import time
{imports}
import jax
import jax.numpy as jnp
import numpy as np

offline = jax.jit({name}, static_argnames="parallel")

rng = np.random.default_rng(0)
m0 = rng.normal(size=20)
ys = jnp.ones((1000, 10))

runtimes = []
for _ in range(10):
    start = {clock}()
    states, ell = {called}(m0, ys, parallel=True)
    jax.block_until_ready(states)
    runtimes.append({clock}() - start)
print(runtimes[0], np.mean(runtimes[1:]))
"""

IMPORTED = (
    ("from cuthbertlib.kalman.filtering import filter", "filter", "filter"),
    ("from cuthbertlib.kalman.filtering import filter as kalman_filter", "kalman_filter", "kalman_filter"),
    ("import cuthbertlib.kalman.filtering as kf", "kf.filter", "kf.filter"),
)


def test_a_library_function_the_file_jits_runs_eagerly_when_called_by_its_own_name():
    for imports, name, called in IMPORTED:
        for clock in ("time.time", "time.perf_counter"):
            source = UNUSED_JIT.format(imports=imports, name=name, called=called, clock=clock)
            codes = found(source)
            assert {("LB114", 17), ("LB115", 17)} <= codes, (imports, clock, codes)


def test_calling_the_jitted_name_is_quiet():
    source = UNUSED_JIT.format(imports=IMPORTED[0][0], name="filter", called="offline", clock="time.perf_counter")
    assert ("LB114", 17) not in found(source)
    assert ("LB115", 17) in found(source)  # the NumPy input still crosses to the device on every call


def test_a_library_function_handed_to_vmap_is_jax_code():
    source = UNUSED_JIT.format(imports=IMPORTED[0][0], name="filter", called="filter", clock="time.perf_counter")
    source = source.replace('offline = jax.jit(filter, static_argnames="parallel")', "batched = jax.vmap(filter)")
    assert ("LB115", 17) in found(source)


def test_a_generator_handed_to_a_helper_makes_numpy_arrays():
    source = UNUSED_JIT.format(imports=IMPORTED[0][0], name="filter", called="filter", clock="time.perf_counter")
    source = source.replace("m0 = rng.normal(size=20)", "def draw(gen, n):\n    return gen.normal(size=n)\n\n\n"
                            "m0 = draw(rng, 20)")
    assert any(code == "LB115" for code, _ in found(source)), found(source)


def test_a_local_function_jitted_and_run_on_numpy_is_a_numpy_baseline():
    source = """
import timeit
import jax
import numpy as np


def f(x):
    return x.T @ (x - x.mean(axis=0))


x_np = np.ones((1000, 1000), dtype=np.float32)
print(timeit.timeit(lambda: f(x_np), number=10))
f_jit = jax.jit(f)
"""
    assert not any(code == "LB115" for code, _ in found(source)), found(source)


def test_the_unused_jit_in_notebook_cells():
    source = UNUSED_JIT.format(imports=IMPORTED[0][0], name="filter", called="filter", clock="time.time")
    head, loop = source.split("runtimes = []\n")
    assert {"LB114", "LB115"} <= notebook_found(head, "runtimes = []\n" + loop)


# --- 350: a JAX library object's method returns JAX values -------------------------------------------------------

SAMPLES = """
{imports}
import jax.numpy as jnp
from jax import random

if __name__ == "__main__":
    {build}
    key = random.PRNGKey(0)
    for samples in [1, 25, 625, 15625]:
        times = []
        for _ in range(11):
            key, sample_key = random.split(key)
            start = {clock}()
            data = {draw}
            times.append({clock}() - start)
        print(samples, times)
"""

LIBRARIES = (
    ("from numpyro.distributions import Sine", "sine = Sine(jnp.zeros(1), jnp.zeros(1), jnp.ones(1), jnp.ones(1), 0.6)",
     "sine.sample(sample_key, (samples,))"),
    ("import numpyro.distributions as dist", "normal = dist.Normal(0.0, 1.0)", "normal.sample(sample_key, (samples,))"),
    ("import distrax", "normal = distrax.Normal(0.0, 1.0)",
     "normal.sample(seed=sample_key, sample_shape=(samples,))"),
)


def test_a_jax_library_objects_method_returns_jax_values_and_its_key_splits_are_glue():
    for imports, build, draw in LIBRARIES:
        for clock_import, clock in (("from time import time", "time"), ("import time", "time.perf_counter")):
            source = SAMPLES.format(imports=f"{clock_import}\n{imports}", build=build, draw=draw, clock=clock)
            codes = found(source)
            assert ("LB102", 15) in codes and not any(c == "LB114" for c, _ in codes), (imports, clock, codes)


def test_waiting_for_the_sample_is_quiet():
    imports, build, draw = LIBRARIES[0]
    source = SAMPLES.format(imports=f"import time\n{imports}", build=build, draw=f"({draw}).block_until_ready()",
                            clock="time.perf_counter")
    assert not any(code in ("LB102", "LB114") for code, _ in found(source)), found(source)


def test_an_object_of_a_library_not_written_in_jax_is_no_glue():
    source = SAMPLES.format(imports="import time\nfrom samplers import Sine", build="sine = Sine(0.0, 1.0)",
                            draw="sine.sample(sample_key, (samples,))", clock="time.perf_counter")
    assert ("LB114", 12) in found(source) and not any(code == "LB102" for code, _ in found(source)), found(source)


def test_a_method_called_as_a_statement_keeps_its_results_in_the_object():
    source = """
import time
import numpyro


def run_inference(model, rng_key, y):
    start = time.time()
    mcmc = numpyro.infer.MCMC(numpyro.infer.NUTS(model), num_warmup=100, num_samples=100)
    mcmc.run(rng_key, y=y)
    mcmc.print_summary()
    print("elapsed", time.time() - start)
    return mcmc.get_samples()
"""
    assert not any(code == "LB102" for code, _ in found(source)), found(source)


def test_the_samples_timed_in_a_helper_and_in_notebook_cells():
    imports, build, draw = LIBRARIES[1]
    helper = f"""
import time
{imports}
import jax
from jax import random


def bench(n, key):
    {build}
    for _ in range(11):
        key, k = random.split(key)
        start = time.perf_counter()
        data = normal.sample(k, (n,))
        print(time.perf_counter() - start)


bench(1000, random.PRNGKey(0))
"""
    assert any(code == "LB102" for code, _ in found(helper)) and not any(code == "LB114" for code, _ in found(helper))
    head, rest = helper.split("\n\n\ndef bench")
    assert "LB102" in notebook_found(head, "def bench" + rest)


# --- the same shapes through another name (the variants' aliases, containers, partials) ----------------------------

def test_a_clear_reaches_the_jitted_function_through_another_name():
    for binding, callee in (("solve_alias = solve", "solve_alias"), ('fns = {"solve": solve}', 'fns["solve"]'),
                            ("import functools; solve_partial = functools.partial(solve)", "solve_partial")):
        source = COLD.format(imports="", clear="solve._clear_cache()", clock="time.perf_counter")
        source = source.replace("def main():\n", f"def main():\n    {binding}\n")
        source = source.replace("ready(solve(v))", f"ready({callee}(v))").replace("r = solve(v)", f"r = {callee}(v)")
        assert f"r = {callee}(v)" in source and f"ready({callee}(v))" in source and not any(code == "LB104" for code, _ in found(source)), (binding, found(source))


def test_a_jitted_library_function_called_through_another_name():
    for binding, callee in (("filter_alias = filter", "filter_alias"), ('filter_fns = {"filter": filter}',
                            'filter_fns["filter"]'), ("import functools; filter_partial = functools.partial(filter)",
                                                      "filter_partial")):
        source = UNUSED_JIT.format(imports=IMPORTED[0][0] + "\n" + binding, name="filter", called=callee,
                                   clock="time.perf_counter")
        assert {("LB114", 18), ("LB115", 18)} <= found(source), (binding, found(source))


def test_the_library_call_timed_in_a_harness_lambda_is_still_what_the_loop_runs():
    imports, build, draw = LIBRARIES[0]
    source = SAMPLES.format(imports=f"import time\nimport timeit\n{imports}", build=build, draw=draw,
                            clock="time.perf_counter")
    source = source.replace("            start = time.perf_counter()\n", "").replace(
        f"            data = {draw}\n            times.append(time.perf_counter() - start)\n",
        f"            times.append(timeit.timeit(lambda: {draw}, number=1))\n")
    assert "timeit.timeit(lambda: sine.sample" in source
    assert not any(code == "LB114" for code, _ in found(source)), found(source)
