"""What cases 359-365 showed at first sight, mended in the shared model (mend31).

- `_effects.reads_a_waited_run`: ``mcmc.get_samples()`` read after ``mcmc.print_summary()`` (a wait on the run:
  it reads every sample on the host) hands back finished samples, nothing pending (cases 362 and 364: no LB102).
- LB115 (`_only_handed_to_library_objects`): NumPy data a local function hands only to JAX library objects' methods
  (``mcmc.run(key, data, obs)``) is copied once per library run, not on every call of a JAX function (case 364).
- LB111 (`_runs_per_trace`, `_a_nested_jitted_def`): a jitted def nested in a function called only from functions
  handed to a transform runs once per trace (case 361); a lax loop over such a def is the nested jit's fault,
  reported once at the decorator (cases 360 and 361).
- `_ipython_input.line_map`: IPython drops the blank lines a cell magic's body starts with; the lines after them keep
  their own numbers (case 360: LB102 at 104, not 103).
- `_regions` (`_registering_decorator`): a function decorated by a local decorator (or decorator factory) that
  registers with google_benchmark is a registered benchmark, its ``while state:`` loop timed (case 365: LB115).
- LB107 (`_updates_nnx_objects`): an ``nnx.jit`` step that updates an object it is handed in place
  (``optimizer.update(grads)``) hands its work back through it; XLA drops none of it (case 359).
- LB103 (`_Reach`, `_nested_jitted_defs`): a jitted function handed to eager lax control flow (``lax.scan(one_step,
  ...)``) is compiled there, as its direct call is (cases 360:61 and 361:89); a call of a function that jits a nested
  def anew warms no later call of that function (case 360:86/109).
- LB115 (`_holds_numpy`): a tuple or list written in a timed call of a jitted function that holds a NumPy array is
  copied to the device on every call (case 359:131).
- LB111 (`cell_nodes`): a jit of a function made in the call (``jax.jit(jax.shard_map(f, ...))(...)``) inside a
  module-level ``%time`` cell makes a new function each time the cell runs (case 361:110).
"""

from __future__ import annotations

import textwrap

from levelbench.doctor import lint_source

from doctor_support import codes, lines, notebook_codes


# --- 362, 364: a NumPyro run whose samples are read after print_summary -----------------------------------------------
RUN_HMC = """
import time
import jax
import numpy as np
{imports}

def model(data, obs):
    pass

def run_hmc(key, data, obs):
    {obj} = {mcmc}(NUTS(model), num_warmup=500, num_samples=500, num_chains=4)
    {obj}.run(key, data, obs)
    {summary}
    {between}
    return {obj}.get_samples()

def main():
    data, obs = np.random.normal(size=(10, 28)), np.ones(10)
    start = {clock}()
    samples = run_hmc(jax.random.PRNGKey(0), data, obs)
    runtime = {clock}() - start
    print(runtime)
"""


def run_hmc(imports="from numpyro.infer import MCMC, NUTS", obj="mcmc", mcmc="MCMC", summary="mcmc.print_summary()",
            between="", clock="time.time"):
    return RUN_HMC.format(imports=imports, obj=obj, mcmc=mcmc, summary=summary.replace("mcmc", obj),
                          between=between.replace("mcmc", obj), clock=clock)


def test_samples_read_after_print_summary_are_finished():
    """NumPyro's ``hmcecs.py`` (case 364): ``run_hmc`` prints the summary, then returns ``mcmc.get_samples()``."""
    assert not lines(codes(run_hmc()), "LB102")


def test_the_waited_run_written_other_ways_is_read_alike():
    twins = [
        run_hmc(obj="sampler"),
        run_hmc(imports="import numpyro\nfrom numpyro.infer import NUTS", mcmc="numpyro.infer.MCMC"),
        run_hmc(imports="from numpyro.infer import MCMC as Sampler, NUTS", mcmc="Sampler"),
        run_hmc(clock="time.perf_counter"),
        run_hmc(between="print('done')"),
    ]
    for source in twins:
        assert not lines(codes(source), "LB102"), source


def test_samples_read_without_a_wait_or_after_another_run_stay_unwaited():
    """No summary, or a run again after it: the samples returned are still being drawn when the clock stops."""
    for summary, between in (("pass", ""), ("mcmc.print_summary()", "mcmc.run(key, data, obs)")):
        assert lines(codes(run_hmc(summary=summary, between=between)), "LB102") == {20}, (summary, between)


def test_a_time_cell_that_ends_in_print_summary_then_get_samples():
    """NumPyro's forecasting notebook (case 362): the ``%%time`` cell runs, prints the summary, reads the samples."""
    found = notebook_codes(
        "import jax.numpy as jnp\nfrom jax import random\nfrom numpyro.infer import MCMC, NUTS\n"
        "def sgt(y, seasonality):\n    pass",
        "y_train = jnp.zeros(80)",
        "%%time\nkernel = NUTS(sgt)\nmcmc = MCMC(kernel, num_warmup=50, num_samples=50, num_chains=4)\n"
        "mcmc.run(random.PRNGKey(0), y_train, seasonality=38)\nmcmc.print_summary()\nsamples = mcmc.get_samples()",
    )
    assert not {f for f in found if f[0] == "LB102"}, found
    unwaited = notebook_codes(
        "import jax.numpy as jnp\nfrom jax import random\nfrom numpyro.infer import MCMC, NUTS\n"
        "def sgt(y, seasonality):\n    pass",
        "y_train = jnp.zeros(80)",
        "%%time\nkernel = NUTS(sgt)\nmcmc = MCMC(kernel, num_warmup=50, num_samples=50, num_chains=4)\n"
        "mcmc.run(random.PRNGKey(0), y_train, seasonality=38)\nsamples = mcmc.get_samples()",
    )
    assert {f for f in unwaited if f[0] == "LB102"}, unwaited


# --- 364: NumPy data handed once to a whole library run ---------------------------------------------------------------
def test_numpy_data_handed_only_to_the_library_run_is_not_a_per_call_copy():
    """``run_hmc(key, data, obs)`` hands its NumPy ``data`` to ``mcmc.run`` alone: NumPyro copies it once per run."""
    assert not lines(codes(run_hmc()), "LB115")
    for twin in (run_hmc(obj="sampler"), run_hmc(clock="time.perf_counter"),
                 run_hmc().replace("{obj}.run(key, data, obs)".format(obj="mcmc"), "mcmc.run(key, data=data, obs=obs)"),
                 run_hmc(summary="pass")):
        assert not lines(codes(twin), "LB115"), twin


def test_numpy_data_the_helper_also_computes_with_is_copied_each_call():
    """The same helper also hands ``data`` to a ``jnp`` operation, or rebinds it: LB115 stays at the call."""
    for between in ("scale = jax.numpy.std(data)", "data = data * 2"):
        assert lines(codes(run_hmc(between=between)), "LB115") == {20}, between


# --- 360, 361: BlackJAX's inference loop, a jitted step nested in it --------------------------------------------------
LOOP_DEF = """
import jax
import jax.numpy as jnp
{imports}

def kernel(key, state):
    return state + jax.random.normal(key, state.shape), None

def inference_loop(rng_key, kernel, initial_state, num_samples):
    @{jit}
    def one_step(state, rng_key):
        state, _ = kernel(rng_key, state)
        return state, state

    keys = jax.random.split(rng_key, num_samples)
    _, states = jax.lax.scan(one_step, initial_state, keys)
    return states
"""


def loop_cells(*timed: str, imports: str = "", jit: str = "jax.jit") -> set[tuple[str, int | None, int]]:
    return notebook_codes(LOOP_DEF.format(imports=imports, jit=jit), "state = jnp.zeros(3)\nkey = jax.random.key(0)",
                          *timed)


def test_a_nested_jit_in_a_function_a_transform_traces_runs_once_per_trace():
    """BlackJAX's multiple-chains how-to (case 361): ``run_one_chain`` calls the loop and is only handed to a
    transform under jit, so the nested jit runs once per trace of it, not once per timed call."""
    define = "def run_one(key, state):\n    return inference_loop(key, kernel, state, 100)"
    timed = ("%%time\nout = jax.jit(jax.vmap(run_one))(jax.random.split(key, 4), jnp.zeros((4, 3)))\n"
             "_ = out.block_until_ready()")
    twins = [
        loop_cells(define, timed),
        loop_cells(define, timed, imports="from jax import jit", jit="jit"),
        loop_cells(define, timed.replace("jax.vmap(run_one)", "jax.shard_map(run_one, mesh=mesh, in_specs=P(), "
                                         "out_specs=P())")),
        loop_cells(define, "import time\nt0 = time.perf_counter()\n"
                   "out = jax.jit(jax.vmap(run_one))(jax.random.split(key, 4), jnp.zeros((4, 3))).block_until_ready()\n"
                   "print(time.perf_counter() - t0)"),
    ]
    for found in twins:
        assert ("LB111", 1, 9) not in found, found  # the jit of the transform in the cell is `cell_nodes`' matter


def test_a_nested_jit_in_a_function_a_time_cell_calls_once_keeps_lb111():
    """Called directly in one ``%time`` cell, the loop still makes its jitted step anew on every call: case 083's
    reading (QuantEcon's ``generate_draws``, labelled LB111), which case 361's label at its line 73 does not follow
    (left for the lead: see the note's section on mend31)."""
    found = loop_cells("%%time\nstates = inference_loop(key, kernel, state, 100)\n_ = states.block_until_ready()")
    assert {f for f in found if f[0] == "LB111"} == {("LB111", 1, 9)}, found


def test_the_loop_called_in_several_time_cells_is_reported_once_at_the_jit():
    """BlackJAX's quickstart (case 360): three ``%%time`` cells call the loop, each compiling ``one_step`` anew:
    LB111 at the nested jit, not again at the ``lax.scan`` that runs it."""
    cell = "%%time\nstates = inference_loop(key, kernel, state, 100)\n_ = states.block_until_ready()"
    found = {f for f in loop_cells(cell, cell) if f[0] == "LB111"}
    assert found == {("LB111", 1, 9)}, found
    repeated = {f for f in loop_cells("%timeit inference_loop(key, kernel, state, 100).block_until_ready()")
                if f[0] == "LB111"}
    assert repeated == {("LB111", 1, 9)}, repeated


# --- 360: a cell magic whose code starts after a blank line -----------------------------------------------------------
def test_a_time_cell_whose_code_starts_after_blank_lines_keeps_its_lines():
    """BlackJAX's quickstart (case 360): ``%%time``, an empty line, then the adaptation; IPython drops the empty line,
    and the finding belongs on the line that holds the call."""
    head = "import jax\nimport jax.numpy as jnp\nx = jnp.ones(3)\n# %%\n"
    for blank, line in (("", 6), ("\n", 7), ("\n\n", 8), ("   \n", 7)):
        for magic in ("%%time", "%%timeit"):
            found = codes(head + magic + "\n" + blank + "y = jnp.sin(x)\n")
            assert lines(found, "LB102") == {line}, (magic, blank)
    found = notebook_codes("import jax.numpy as jnp\nx = jnp.ones(3)", "%%time\n\n\ny = jnp.sin(x)")
    assert {f for f in found if f[0] == "LB102"} == {("LB102", 2, 4)}, found


# --- 365: google_benchmark functions registered through a local decorator ---------------------------------------------
MATH_BENCHMARK = """
import functools
{imports}
import jax
import jax.numpy as jnp
import numpy as np

def math_benchmark(*args):
    def decorator(func):
        for test_case in args[0]:
            @{register}(name=f"{{func.__name__}}_{{test_case['name']}}")
            @functools.wraps(func)
            def wrapper(state, test_case=test_case):
                return func(state, **test_case)
        return wrapper
    return decorator

@math_benchmark([{{'name': 'exp', 'shape': 1024, 'op': jnp.exp}}])
def jax_unary(state, **kwargs):
    input0 = {make}(kwargs['shape']).astype('float32')
    f_jitted = jax.jit(kwargs['op'])
    f_jitted(input0).block_until_ready()
    while state:
        f_jitted(input0).block_until_ready()
"""


def math_benchmark(imports="import google_benchmark as benchmark", register="benchmark.register",
                   make="np.random.random"):
    return MATH_BENCHMARK.format(imports=imports, register=register, make=make)


def test_a_benchmark_registered_by_a_local_decorator_factory_times_its_state_loop():
    """JAX's ``benchmarks/math_benchmark.py`` (case 365): NumPy inputs handed to the jitted op every iteration."""
    assert lines(codes(math_benchmark()), "LB115") == {24}


def test_the_registering_decorator_written_other_ways_is_read_alike():
    twins = [
        math_benchmark(imports="import google_benchmark", register="google_benchmark.register"),
        math_benchmark(imports="from google_benchmark import register", register="register"),
        math_benchmark(imports="from google_benchmark import register as reg", register="reg"),
    ]
    for source in twins:
        assert lines(codes(source), "LB115") == {24}, source
    plain = """
    import google_benchmark as benchmark
    import jax
    import numpy as np

    def registered(func):
        benchmark.register(func)
        return func

    @registered
    def jax_exp(state):
        x = np.ones(1024, dtype=np.float32)
        f = jax.jit(jax.numpy.exp)
        f(x).block_until_ready()
        while state:
            f(x).block_until_ready()
    """
    assert lines(codes(plain), "LB115") == {16}


def test_a_local_decorator_that_registers_nothing_times_nothing():
    """Inputs already on the device, or a decorator that never registers: no finding."""
    assert not lines(codes(math_benchmark(make="jnp.ones")), "LB115")
    unregistered = math_benchmark(register="functools.lru_cache")
    assert not lines(codes(unregistered), "LB115")


# --- 359: an nnx.jit train step that updates its optimizer in place ---------------------------------------------------
NNX_STEP = """
import time
import jax
import jax.numpy as jnp
{imports}

@{jit}
def train_step(model, optimizer, batch):
    x, y = batch

    def loss_fn(model):
        return jnp.mean((y - model(x)) ** 2)

    grads = nnx.grad(loss_fn)(model)
    {update}

t0 = time.perf_counter()
for batch in batches:
    train_step(model, optimizer, batch)
print(time.perf_counter() - t0)
"""


def nnx_step(imports="from flax import nnx", jit="nnx.jit", update="optimizer.update(grads)"):
    return NNX_STEP.format(imports=imports, jit=jit, update=update)


def test_an_nnx_jit_step_that_updates_its_optimizer_returns_its_work_through_it():
    """Flax's ``nnx_simple_training.py`` (case 359): ``nnx.jit`` writes the optimizer's update back: no LB107."""
    assert not lines(codes(nnx_step()), "LB107")


def test_the_nnx_step_written_other_ways_is_read_alike():
    twins = [
        nnx_step(jit="nnx.jit(donate_argnums=(0, 1))"),
        nnx_step(imports="import flax.nnx as nnx"),
        nnx_step(imports="from flax import nnx\nfrom flax.nnx import jit as njit", jit="njit"),
        nnx_step(update="optimizer.update(grads)\n    model.count.value += 1"),
        nnx_step(update="model.count.value = model.count.value + 1"),
    ]
    for source in twins:
        assert not lines(codes(source), "LB107"), source


def test_a_step_that_updates_nothing_it_is_handed_or_is_jitted_by_jax_keeps_lb107():
    """``jax.jit`` hands nothing back but what is returned; an ``nnx.jit`` step that changes nothing it is handed
    computes a value XLA drops."""
    assert lines(codes(nnx_step(jit="jax.jit")), "LB107") == {8}
    assert lines(codes(nnx_step(update="loss = loss_fn(model)")), "LB107") == {8}


# --- 360, 361: each call of the loop compiles the step it makes anew --------------------------------------------------
def test_each_timed_call_of_a_loop_that_jits_its_step_anew_compiles():
    """BlackJAX's quickstart (case 360): the loop hands a freshly jitted ``one_step`` to ``lax.scan``; every
    ``%%time`` cell that calls the loop compiles it, the first and the later ones alike (LB103 at each call)."""
    cells = ["%%time\nstates = inference_loop(key, kernel, state, " + n + ")\n_ = states.block_until_ready()"
             for n in ("10_000", "4_000", "1_000")]
    found = {f for f in loop_cells(*cells) if f[0] == "LB103"}
    assert found == {("LB103", 3, 2), ("LB103", 4, 2), ("LB103", 5, 2)}, found
    aliased = {f for f in loop_cells(*cells[:2], imports="from jax import jit", jit="jit") if f[0] == "LB103"}
    assert aliased == {("LB103", 3, 2), ("LB103", 4, 2)}, aliased


def test_a_loop_that_jits_its_step_anew_timed_with_a_clock_after_a_warm_up_call():
    """A warm-up call of the loop compiles a step the timed call does not run: still LB103. A step jitted once at
    module level and warmed is not compiled again."""
    script = LOOP_DEF.format(imports="import time", jit="jax.jit") + textwrap.dedent("""
        key, state = jax.random.key(0), jnp.zeros(3)
        inference_loop(key, kernel, state, 100).block_until_ready()
        t0 = time.perf_counter()
        inference_loop(key, kernel, state, 100).block_until_ready()
        print(time.perf_counter() - t0)
        """)
    assert lines(codes(script), "LB103") == {22}
    module_level = textwrap.dedent("""
        import time
        import jax
        import jax.numpy as jnp

        @jax.jit
        def one_step(state, key):
            return state + 1.0, state

        def inference_loop(keys, state):
            _, states = jax.lax.scan(one_step, state, keys)
            return states

        keys, state = jax.random.split(jax.random.key(0), 10), jnp.zeros(3)
        inference_loop(keys, state).block_until_ready()
        t0 = time.perf_counter()
        inference_loop(keys, state).block_until_ready()
        print(time.perf_counter() - t0)
        """)
    assert not lines(codes(module_level), "LB103")
    factory = textwrap.dedent("""
        import time
        import jax
        import jax.numpy as jnp

        def make():
            @jax.jit
            def f(x):
                return x + 1.0
            return f

        f = make()
        x = jnp.zeros(3)
        f(x).block_until_ready()
        t0 = time.perf_counter()
        f(x).block_until_ready()
        print(time.perf_counter() - t0)
        """)
    assert not lines(codes(factory), "LB103")  # a factory hands one jitted object out: warmed, it stays warm


# --- 359: NumPy arrays handed to a jitted step inside a tuple written in the call -------------------------------------
def test_numpy_arrays_in_a_tuple_handed_to_a_jitted_step_are_copied_each_call():
    """Flax's ``nnx_simple_training.py`` (case 359): ``test_step_jax(state, (X, Y))`` with NumPy ``X`` and ``Y``."""
    source = """
    import time
    import jax
    import jax.numpy as jnp
    import numpy as np

    @jax.jit
    def test_step(state, batch):
        x, y = batch
        return state, jnp.mean((y - state * x) ** 2)

    X = np.linspace(0, 1, 100)[:, None]
    Y = 0.8 * X ** 2
    state = jnp.ones(1)
    test_step(state, (jnp.asarray(X), jnp.asarray(Y)))
    t0 = time.perf_counter()
    for step in range(100):
        state, loss = test_step(state, {held})
    loss.block_until_ready()
    print(time.perf_counter() - t0)
    """
    for held in ("(X, Y)", "[X, Y]", "(X, Y[:, 0])"):
        found = [d for d in lint_source(textwrap.dedent(source.format(held=held)), "bench.py") if d.code == "LB115"]
        assert [d.location.line for d in found] == [18], held
        assert "inputs_dev = jax.device_put(" in found[0].finding.fix
    device_data = textwrap.dedent(source.format(held="(Xd, Yd)")).replace(
        "state = jnp.ones(1)", "state = jnp.ones(1)\nXd, Yd = jax.device_put(X), jax.device_put(Y)")
    assert not lines(codes(device_data), "LB115")


# --- 361: a jit of a freshly made function inside a timed cell --------------------------------------------------------
def test_a_jit_of_a_fresh_transform_inside_a_time_cell_recompiles_every_run_of_the_cell():
    """BlackJAX's multiple-chains how-to (case 361): ``%%time`` over ``jax.jit(jax.shard_map(run_one_chain, ...))(...)``
    makes a new function each time the cell runs, so every run compiles (LB111 beside LB103, case 083's reading of a
    jit built where it is timed)."""
    define = "def run_one(key, state):\n    return state + 1.0"
    for made in ("jax.shard_map(run_one, mesh=mesh, in_specs=P(), out_specs=P())", "jax.vmap(run_one)",
                 "jax.grad(lambda k, s: s.sum())"):
        found = loop_cells(define, f"%%time\nout = jax.jit({made})(key, state)\n_ = out.block_until_ready()")
        assert ("LB111", 4, 2) in found, (made, found)
        found = loop_cells(define, f"%time out = jax.jit({made})(key, state).block_until_ready()")
        assert ("LB111", 4, 1) in found, (made, found)


def test_a_jit_of_a_plain_function_in_a_time_cell_or_in_a_function_is_no_fresh_jit():
    """``jax.jit(run_one)`` jits the same function object each run (JAX's cache finds it): no LB111; a clock pair in
    a function called once is not a cell run again."""
    define = "def run_one(key, state):\n    return state + 1.0"
    found = loop_cells(define, "%%time\nout = jax.jit(run_one)(key, state)\n_ = out.block_until_ready()")
    assert not {f for f in found if f[0] == "LB111"}, found
    script = textwrap.dedent("""
        import time
        import jax
        import jax.numpy as jnp

        def run_one(state):
            return state + 1.0

        def main():
            t0 = time.perf_counter()
            jax.jit(jax.vmap(run_one))(jnp.zeros((4, 3))).block_until_ready()
            print(time.perf_counter() - t0)

        main()
        """)
    assert not lines(codes(script), "LB111")


def test_numpy_data_handed_to_the_run_through_a_container_or_a_static_method():
    """The helper reached through a dict of functions or as a class's static method: the same reading."""
    container = run_hmc().replace("samples = run_hmc(", "fns = {'hmc': run_hmc}\n    samples = fns['hmc'](")
    assert not lines(codes(container), "LB115")
    method = run_hmc().replace("def run_hmc(key, data, obs):", "class Holder:\n  @staticmethod\n  def run_hmc(key, data, obs):")
    method = method.replace("samples = run_hmc(", "samples = Holder.run_hmc(")
    assert not lines(codes(method), "LB115"), method


def test_numpy_data_handed_to_the_run_through_an_alias_or_a_partial():
    """An alias of the helper, or a partial binding its leading key: the NumPy argument keeps its parameter."""
    alias = run_hmc().replace("samples = run_hmc(", "hmc = run_hmc\n    samples = hmc(")
    assert not lines(codes(alias), "LB115"), alias
    bound = run_hmc().replace("samples = run_hmc(jax.random.PRNGKey(0), data, obs)",
                              "hmc = functools.partial(run_hmc, jax.random.PRNGKey(0))\n    samples = hmc(data, obs)")
    bound = "import functools\n" + bound
    assert "hmc(data, obs)" in bound
    assert not lines(codes(bound), "LB115"), bound
