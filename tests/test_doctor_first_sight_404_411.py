"""What cases 404-411 showed at first sight, mended in the shared model (mend36).

- LB105 (`lb105_wall_clock._does_work`, `Facts.jax_code`, `Names.imports_jax_backend`): a wall-clock interval is the
  wrong clock whatever it times, once the file says its work is JAX. In JAX code, a timed call of a function imported
  from the project's own package (jax-monohull-dynamics' ``j_step_uncontrolled``, case 405) or of a library's JAX
  backend (``pymc.sampling_jax.sample_blackjax_nuts``, case 406: a module whose name says JAX makes the file JAX
  code), and an interval that waits on a result with ``.block_until_ready()`` (a file's own sampler generator, case
  410), are JAX work: LB105 at the start read. Where nothing says JAX (a project function timed in a file that
  imports no framework), the work stays unknown and quiet.
- `_kinds` (`Kinds._bind`, `_at`): a name rebound to a Python number made from a value (``n_chains =
  int(n_chains)`` after ``for n_chains in onp.logspace(...)``, case 407) is no NumPy array where it is used after
  the conversion: no LB115 at the timed call. Handed unconverted, the element stays a NumPy input.
"""

from __future__ import annotations

import textwrap

import pytest

from doctor_support import codes, lines, notebook_codes


def line_of(source: str, text: str, nth: int = 1) -> int:
    """The line (1-based, of the dedented source) holding the ``nth`` occurrence of ``text``."""
    found = [k for k, line in enumerate(textwrap.dedent(source).splitlines(), 1) if text in line]
    return found[nth - 1]


# --- 405: a project function timed in a file that imports JAX ----------------------------------------------------------
PROJECT_STEP = """
{imports}
from monohull.dynamics import {imported}
import jax.numpy as jnp

def test_steps():
    state = jnp.zeros(3)
    {call}
    t0 = {clock}
    for i in range(100):
        state = {call}
    print((time.time() - t0) / 100)
"""


@pytest.mark.parametrize(
    ("imports", "imported", "call", "clock"),
    [
        ("import time", "j_step", "j_step(state, 0.1)", "time.time()"),
        ("import time", "j_step as step", "step(state, 0.1)", "time.time()"),  # aliased
        ("import time\nfrom time import time as now", "j_step", "j_step(state, 0.1)", "now()"),  # another spelling
        ("import time\nimport monohull.dynamics as dyn", "j_step", "dyn.j_step(state, 0.1)", "time.time()"),  # module
    ],
)
def test_a_project_function_timed_in_jax_code_is_timed_on_the_wall_clock(imports, imported, call, clock):
    source = PROJECT_STEP.format(imports=imports, imported=imported, call=call, clock=clock)
    found = codes(source)
    assert lines(found, "LB105") == {line_of(source, "t0 = ")}


def test_a_project_function_timed_in_a_helper_of_jax_code_is_timed_on_the_wall_clock():
    source = """
    import time
    import jax
    from mypackage.model import forward

    def bench(x):
        start = time.time()
        y = forward(x)
        elapsed = time.time() - start
        return elapsed

    bench(jax.numpy.ones(4))
    """
    assert lines(codes(source), "LB105") == {line_of(source, "start = ")}


def test_a_project_function_timed_where_nothing_says_jax_stays_unknown():
    source = """
    import time
    from mypackage.model import forward

    start = time.time()
    forward(3)
    print(time.time() - start)
    """
    assert lines(codes(source), "LB105") == set()


# --- 406: a library's JAX backend, named by its module -----------------------------------------------------------------
@pytest.mark.parametrize(
    ("imports", "call"),
    [
        ("import pymc.sampling_jax", "pymc.sampling_jax.sample_blackjax_nuts(random_seed=1)"),
        ("from pymc import sampling_jax", "sampling_jax.sample_blackjax_nuts(random_seed=1)"),
        ("from pymc.sampling_jax import sample_numpyro_nuts as nuts", "nuts(random_seed=1)"),
    ],
)
def test_a_jax_backend_module_makes_the_timed_library_call_jax_work(imports, call):
    source = f"""
    {imports}
    from time import time

    start_time = time()
    trace = {call}
    runtime = time() - start_time
    print(runtime)
    """
    assert lines(codes(source), "LB105") == {line_of(source, "start_time = time()")}


def test_a_jax_backend_module_in_a_notebook_is_jax_work():
    found = notebook_codes(
        "import pymc.sampling_jax\nimport time",
        "t = time.time()\ntrace = pymc.sampling_jax.sample_blackjax_nuts()\nprint(time.time() - t)",
    )
    assert {(c, cell, line) for c, cell, line in found if c == "LB105"} == {("LB105", 2, 1)}


# --- 410: an interval that waits on a JAX result -----------------------------------------------------------------------
def test_an_interval_waiting_on_a_jax_result_is_timed_on_the_wall_clock():
    source = """
    import time
    import jax

    def sampler(key):
        while True:
            yield step(key)

    samples = sampler(jax.random.PRNGKey(0))
    for _ in range(10):
        start = time.time()
        for i, sample in enumerate(samples):
            if i == 99:
                break
        sample.block_until_ready()
        print(time.time() - start)
    """
    assert lines(codes(source), "LB105") == {line_of(source, "start = ")}


# --- 407: an array element converted to a Python number before the timed call ----------------------------------------
CONVERTED = """
import time
import numpy as onp
import jax
import jax.numpy as np

@jax.jit
def sample(x, n):
    return x * n

def run(n):
    return sample(np.ones(3), n).block_until_ready()

chain_lengths = onp.logspace(1, 7, 7)
for {target} in chain_lengths:
    {rebind}
    run(n_chains)
    t0 = time.perf_counter()
    for _ in range(10):
        sample(np.ones(3), n_chains).block_until_ready()
    print(time.perf_counter() - t0)
"""


@pytest.mark.parametrize(
    ("target", "rebind"),
    [
        ("n_chains", "n_chains = int(n_chains)"),
        ("n_chains", "n_chains = round(n_chains)"),
        ("length", "n_chains = float(length)"),
    ],
)
def test_an_array_element_converted_to_a_python_number_is_no_numpy_input(target, rebind):
    source = CONVERTED.format(target=target, rebind=rebind)
    assert lines(codes(source), "LB115") == set()


def test_an_array_element_handed_unconverted_is_still_a_numpy_input():
    source = CONVERTED.format(target="n_chains", rebind="pass")
    assert lines(codes(source), "LB115") == {line_of(source, "sample(np.ones(3), n_chains).block")}


def test_a_converted_element_in_a_notebook_timeit_line_is_no_numpy_input():
    found = notebook_codes(
        "import numpy as onp\nimport jax\nimport jax.numpy as np\n\n@jax.jit\ndef sample(x, n):\n    return x * n",
        "for n_chains in onp.logspace(1, 7, 7):\n    n_chains = int(n_chains)\n"
        "    t = %timeit -o sample(np.ones(3), n_chains).block_until_ready()",
    )
    assert {c for c, _, _ in found} & {"LB115"} == set()



# --- what is not JAX work of the file's: an object built, another framework ------------------------------------------
@pytest.mark.parametrize(
    ("imports", "call"),
    [
        ("from crazyflow import Sim", "Sim(n_worlds=1)"),  # a class: building an object, no work of its own
        ("import warp as wp", "wp.capture_launch(graph)"),  # NVIDIA Warp: a framework of its own, not JAX
    ],
)
def test_a_class_built_or_another_framework_in_jax_code_is_no_jax_work(imports, call):
    source = f"""
    import time
    import jax
    {imports}

    graph = None
    start = time.time()
    {call}
    print(time.time() - start)
    """
    assert lines(codes(source), "LB105") == set()
