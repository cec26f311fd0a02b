"""What cases 412-427 showed at first sight, mended in the shared model (mend38).

- `Context.here` (`_context._benchmarks`) and `_regions._pair_samples`: a top-level function that times itself and
  reads the command line's parsed arguments (``console_args.device``) is a script's entry point, not a library
  function's log line; one the file never names and leaves undecorated runs once per run, so its one clock pair is one
  sample (PaxRL's ``tests/test.py`` ``run_test_1(console_args)``, case 424: a rollout jitted inside the clock pair,
  timed once, cold and unwaited, on ``time.time()``).
"""

from __future__ import annotations

import textwrap

import pytest

from doctor_support import codes, notebook_codes


def line_of(source: str, text: str, nth: int = 1) -> int:
    """The line (1-based, of the dedented source) holding the ``nth`` occurrence of ``text``."""
    found = [k for k, line in enumerate(textwrap.dedent(source).splitlines(), 1) if text in line]
    return found[nth - 1]


# --- 424: a rollout jitted inside the clock pair of a test script's uncalled entry point --------------------------
ROLLOUT = """
{imports}
from pax import make

def {name}({param}):
    env = make("prob_env")
    keys = jrandom.split(jrandom.PRNGKey(0), 1)
    s = {clock}
    jax_batch_rollout = {jit}(env.batch_rollout, backend={param}.device)
    O, A, R = jax_batch_rollout(keys)
    print({clock} - s)
    render(env, O)
"""
_PLAIN = "import jax\nimport jax.random as jrandom\nimport time"
PATH = "pax/rollouts.py"  # a file name that does not say it benchmarks: the function's name alone decides


@pytest.mark.parametrize(
    ("imports", "name", "param", "clock", "jit"),
    [
        (_PLAIN, "run_test_1", "console_args", "time.time()", "jax.jit"),
        (_PLAIN, "rollout", "args", "time.time()", "jax.jit"),  # any name
        ("import jax as jx\nimport jax.random as jrandom\nfrom time import time", "main", "cli_args", "time()", "jx.jit"),
        ("from jax import jit\nimport jax.random as jrandom\nimport time as t", "go", "argv", "t.time()", "jit"),
    ],
)
def test_an_uncalled_entry_point_reading_the_command_line_times_one_cold_unwaited_call(imports, name, param, clock, jit):
    source = ROLLOUT.format(imports=imports, name=name, param=param, clock=clock, jit=jit)
    start, jitted, call = (line_of(source, t) for t in ("    s = ", "jax_batch_rollout = ", "= jax_batch_rollout(keys)"))
    found = codes(source, PATH)
    assert {("LB105", start), ("LB104", jitted), ("LB102", call), ("LB103", call)} <= found, found


def test_a_steady_clock_leaves_the_other_three():
    source = ROLLOUT.format(imports=_PLAIN, name="run_test_1", param="console_args", clock="time.perf_counter()", jit="jax.jit")
    call = line_of(source, "= jax_batch_rollout(keys)")
    found = codes(source, PATH)
    assert not {c for c, _ in found} & {"LB105"}
    assert {("LB104", call - 1), ("LB102", call), ("LB103", call)} <= found, found


def test_the_entry_point_in_a_notebook_cell_is_found():
    imports, body = _PLAIN, ROLLOUT.format(imports="", name="run_test_1", param="console_args", clock="time.time()", jit="jax.jit")
    found = notebook_codes(imports, body)
    codes_in_cell = {c for c, cell, _ in found if cell == 2}
    assert {"LB102", "LB103", "LB104", "LB105"} <= codes_in_cell, found


def test_a_function_handed_anything_else_stays_a_library_function():
    """A library function timing its own work for a log line is instrumentation, as before: handed a device, a
    configuration or ``*args``, its callers decide (`test_doctor_rules`: a ``test_*`` helper of a library module)."""
    for param in ("device", "config", "env_args_list", "*args"):
        source = ROLLOUT.format(imports=_PLAIN, name="run_test_1", param=param, clock="time.time()", jit="jax.jit")
        source = source.replace("backend=*args.device", "backend=args[0]")
        assert not codes(source, PATH), param


def test_a_test_entry_point_called_twice_is_not_one_sample():
    """Called from two places, how many samples its figure is part of is not known: no LB104, as before."""
    source = ROLLOUT.format(imports=_PLAIN, name="run_test_1", param="console_args", clock="time.time()", jit="jax.jit") + (
        "\nrun_test_1(args)\nrun_test_1(other_args)\n"
    )
    assert not {c for c, _ in codes(source, PATH)} & {"LB104"}


def test_a_decorated_entry_point_is_not_one_sample():
    """A decorator may run the function any number of times (jaxley's ``@compare_to_baseline(baseline_iters=3)`` on a
    parametrized test, in the library corpus): no LB104, as before; the wall clock is still the wall clock."""
    source = ROLLOUT.format(imports=_PLAIN, name="run_test_1", param="console_args", clock="time.time()", jit="jax.jit").replace(
        "def run_test_1", "@compare_to_baseline(baseline_iters=3)\ndef run_test_1"
    )
    found = codes(source, PATH)
    assert not {c for c, _ in found} & {"LB104"}
    assert "LB105" in {c for c, _ in found}


def test_a_method_handed_args_stays_a_library_function():
    """A library's method handed ``args`` (orbax's ``save(self, directory, args)``, in the library corpus) is its
    callers': the parameter is theirs, not the command line's."""
    source = ROLLOUT.format(imports=_PLAIN, name="save", param="self, args", clock="time.time()", jit="jax.jit")
    source = source.replace("backend=self, args.device", "backend=args.device").replace("def save", "class Handler:\n  def save")
    source = "\n".join(("  " + line if k > 7 and line else line) for k, line in enumerate(source.splitlines()))
    assert not codes(source, PATH)


# --- 414: a call whose own keyword picks a JAX engine -------------------------------------------------------------
SAMPLED = """
import numpy as np
{imports}

with pm.Model() as model:
    mu = pm.Normal("mu", 0, 1)

start = {clock}
with model:
    post = {call}(
        {keyword}={engine}, chains=4, progressbar=False
    )
print(f"{{{clock} - start:.1f}}s")
"""


@pytest.mark.parametrize(
    ("imports", "call", "keyword", "engine", "clock"),
    [
        ("import pymc as pm\nimport time", "pm.sample", "nuts_sampler", '"blackjax"', "time.time()"),
        ("import pymc as pm\nimport time", "pm.sample", "nuts_sampler", '"numpyro"', "time.time()"),
        ("import pymc\npm = pymc\nfrom time import time", "pymc.sample", "nuts_sampler", '"numpyro"', "time()"),  # aliased
        ("import pymc as pm\nfrom pymc import sample\nimport time", "sample", "backend", "'jax'", "time.time()"),  # by name
    ],
)
def test_one_end_to_end_run_on_a_jax_engine_is_one_wall_clock_sample(imports, call, keyword, engine, clock):
    source = SAMPLED.format(imports=imports, call=call, keyword=keyword, engine=engine, clock=clock)
    found = codes(source)
    start = line_of(source, "start = ")
    assert ("LB105", start) in found, found
    assert {line for c, line in found if c == "LB104"} & {start + 1, start + 2}, found
    assert not {c for c, _ in found} & {"LB102", "LB103"}  # host results; the compile is part of the end-to-end run


def test_a_jax_engine_with_a_steady_clock_is_one_sample_only():
    source = SAMPLED.format(imports="import pymc as pm\nimport time", call="pm.sample", keyword="nuts_sampler",
                            engine='"numpyro"', clock="time.perf_counter()")
    assert {c for c, _ in codes(source)} == {"LB104"}


def test_a_jax_engine_in_notebook_cells_is_found():
    found = notebook_codes(
        "import pymc as pm\nimport time\nwith pm.Model() as model:\n    mu = pm.Normal('mu', 0, 1)",
        "start = time.time()\nwith model:\n    post = pm.sample(nuts_sampler='blackjax')\nprint(time.time() - start)",
    )
    assert ("LB105", 2, 1) in found and {c for c, cell, _ in found if cell == 2} >= {"LB104", "LB105"}, found


@pytest.mark.parametrize(
    ("keyword", "engine"),
    [
        ("nuts_sampler", '"pymc"'),  # PyMC's own sampler: nothing says JAX
        ("nuts_sampler", '"nutpie"'),
        ("label", '"numpyro"'),  # a keyword that picks no engine
        ("nuts_sampler", "sampler_name"),  # a value not written here: unknown stays unknown
    ],
)
def test_an_engine_not_named_as_jax_stays_unknown(keyword, engine):
    source = SAMPLED.format(imports="import pymc as pm\nimport time", call="pm.sample", keyword=keyword,
                            engine=engine, clock="time.time()")
    assert not {c for c, _ in codes(source)} & {"LB104", "LB105"}


# --- 412: a loop variable that only counts the timed repeats ------------------------------------------------------
BATCHES = """
import time
import jax
import jax.numpy as jnp
{imports}

def add(a, b):
    return jnp.add(a, b)

add_jitted = {jit}(add)
x = jnp.ones(10)
times = []
for n in [10, 100, 1000]:
    start_time = {clock}
    {timed}
    times.append({clock} - start_time)
"""


@pytest.mark.parametrize(
    ("imports", "jit", "clock", "timed"),
    [
        ("", "jax.jit", "time.time()", "[add_jitted(x, x) for _ in range(n)]"),
        ("from jax import jit", "jit", "time.perf_counter()", "[add_jitted(x, x) for _ in range(0, n)]"),  # by name
        ("", "jax.jit", "time.monotonic()", "for _ in range(n):\n        add_jitted(x, x)"),  # a loop of its own
    ],
)
def test_a_loop_variable_that_only_counts_repeats_leaves_the_first_pass_compiling(imports, jit, clock, timed):
    source = BATCHES.format(imports=imports, jit=jit, clock=clock, timed=timed)
    assert ("LB103", line_of(source, "add_jitted(x, x)")) in codes(source)


def test_the_first_pass_in_notebook_cells_compiles():
    source = BATCHES.format(imports="", jit="jax.jit", clock="time.time()", timed="[add_jitted(x, x) for _ in range(n)]")
    head, loop = source.split("times = []")
    found = notebook_codes(head, "times = []" + loop)
    assert "LB103" in {c for c, cell, _ in found if cell == 2}, found


def test_a_loop_variable_handed_to_the_jitted_call_still_sweeps_programs():
    """``f(jnp.ones(n))`` per size: each value is a new shape, a new program; the first-call warning misleads (as before)."""
    source = BATCHES.format(imports="", jit="jax.jit", clock="time.time()",
                            timed="[add_jitted(jnp.ones(n), x) for _ in range(n)]")
    assert "LB103" not in {c for c, _ in codes(source)}
