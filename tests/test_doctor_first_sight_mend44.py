"""What cases 497-511 showed at first sight, mended in the shared model (mend44).

- `Facts.alternative_defs`, read by `_effects.is_wait`: a helper defined once per branch of an ``if`` (``if backend
  == "jax": def sync_gpu(out): jax.block_until_ready(out)`` / ``elif backend == "torch": def sync_gpu(out):
  torch.cuda.synchronize()``) runs whichever def its branch bound; the JAX branch's waits for the JAX work, so a
  timed JAX call followed by the helper is waited (clip-jax's notebook, case 504's false LB102 x4). A helper whose
  every def waits for nothing still leaves the call unwaited.
- `_effects._handed_to_code_not_shown`, read by `pending_jax`: a JAX value computed as an argument of a function
  imported from a module the file does not show (``Telescope.from_yaml(path, key=jax.random.key(42))``) is that
  code's input, used inside it; whether it waits is not in the file (476's and 491's reading), so the argument is
  not the timed work left pending (iactrace's asv suite, case 506's false LB102:200). Handed to a local function
  that queues JAX work and returns it unwaited, the call is still LB102.
- LB111's `_compiles_per_call_anyway`: a jitted def nested in a function whose every call hands it arrays sized by a
  parameter that each call gives a new value (``x = jr.randint(key, (batch_size, seq_len), ...)``, then
  ``forward(model, x)``, the function called once per configuration of a sweep) compiles for its new shapes on every
  call anyway: the jit made once outside would compile as often, so the re-wrapping costs nothing (gated_deltanet's
  benchmark, case 497's false LB111:98; the reading `_fresh_per_call` gives ``jax.jit(f)`` made there). Called
  with the same sizes on every call, the nested jit is still LB111.
- LB103's `_on_some_passes`: of the cold calls a loop's interval holds, the step every pass runs is reported before
  the occasional work some passes add (``if step % n_save_step == 0: eval_loop(...)``): the first figure holds both
  compiles, and the step's is the one the figure is about (mu_transformer's training loop, case 508: LB103 at
  ``train_step``, not at the evaluation). LB103's `_averages_its_own_loop`: a clock pair in a function called more
  than once that brackets a loop of its own (``eval_loop``'s ``secs_per_step = (end - start) / (i + 1)``) is a
  candidate like a pair in a loop: the first call's average holds the first step's compile (case 508's LB103:364).
  Warmed before its first call, it is still quiet.
- `Facts.local_def` resolves ``self.name(...)`` in a method to its class's def (`Facts.own_method`), and
  `_placement.functions_run_here` runs with an asv suite's methods the methods of their class they call through
  ``self``: a ``time_*`` method that drops ``self.run_forward_model()``, which returns an unwaited ``jnp.mean``, is
  LB102 (300's, 355's and 478's reading; adirondax's suite, case 505's LB102:89), and a ``@jax.jit`` closure defined
  in the solve a ``time_*`` method runs is LB111 (022's reading, case 505's LB111:73). A helper that waits is quiet.
- LB115's `_result_blocked_on`, read by `_runs_jax`: a call whose result the program blocks on with
  ``block_until_ready`` (chained, or on the next statement) is JAX work whatever code not shown runs it, so a NumPy
  array handed to it is copied to the device on every timed call (bnn's ``model.predict(Q)``, on semicolon-joined
  lines, case 500's LB115:27/33; 476's reading). Handed a device array, it is quiet.
- `_regions._swept_by_callers` reads a loop over ``itertools.product`` of grids (``for b, s in product(batch_sizes,
  seq_lens): benchmark_run(b, s)``) as a sweep of the parameters its variables are passed to: each configuration is
  timed once, so one warm waited run between the clocks (here inside a memory monitor's ``with`` block) is LB104 at
  the first statement (gated_deltanet's benchmark, case 497's LB104:133/161; 495's reading). The compile timed on
  purpose before it stays quiet.
"""

from __future__ import annotations

import textwrap

import pytest

from doctor_support import codes, lines, notebook_codes


def line_of(source: str, text: str, nth: int = 1) -> int:
    """The line (1-based, of the dedented source) holding the ``nth`` occurrence of ``text``."""
    found = [k for k, line in enumerate(textwrap.dedent(source).splitlines(), 1) if text in line]
    return found[nth - 1]


# --- 504: a waiting helper defined once per backend branch ----------------------------------------------------------
BRANCHED = """
import {clock_module}
import numpy as np

backend = "jax"

if backend == "jax":
    import jax
    import jax.numpy as jnp

    x = jnp.ones((256, 256))
    forward = jax.jit(lambda a: jnp.tanh(a @ a))

    def call_forward():
        return forward(x)

    def {sync}(output=None):
        if output is not None:
            {wait}
elif backend == "torch":
    import torch

    t = torch.ones((256, 256))

    def torch_forward():
        with torch.no_grad():
            return torch.tanh(t @ t)

    call_forward = torch_forward

    def {sync}(output=None):
        if torch.cuda.is_available():
            torch.cuda.synchronize()

for _ in range(3):
    call_forward()
latencies = []
for _ in range(20):
    t0 = {clock}
    out = call_forward()
    {sync}(out)
    latencies.append({clock} - t0)
print(np.mean(latencies))
"""


@pytest.mark.parametrize(
    ("clock_module", "clock", "sync", "wait"),
    [
        ("time", "time.perf_counter()", "sync_gpu", "jax.block_until_ready(output)"),  # as posted
        ("time", "time.monotonic()", "wait_device", "output.block_until_ready()"),  # another clock, a method
        ("timeit", "timeit.default_timer()", "sync", "jax.tree_util.tree_map(lambda a: a.block_until_ready(), output)"),
    ],
)
def test_a_waiting_helper_defined_per_backend_branch_waits_for_the_jax_call(clock_module, clock, sync, wait):
    source = BRANCHED.format(clock_module=clock_module, clock=clock, sync=sync, wait=wait)
    found = codes(source)
    assert not lines(found, "LB102"), found


def test_a_waiting_helper_defined_per_backend_branch_in_notebook_cells_waits():
    source = BRANCHED.format(clock_module="time", clock="time.perf_counter()", sync="sync_gpu",
                             wait="jax.block_until_ready(output)")
    head, _, tail = source.partition("for _ in range(3):")
    found = notebook_codes(head, "for _ in range(3):" + tail)
    assert "LB102" not in {c for c, _, _ in found}, found


def test_a_helper_that_waits_in_no_branch_still_leaves_the_call_unwaited():
    source = BRANCHED.format(clock_module="time", clock="time.perf_counter()", sync="sync_gpu",
                             wait="pass")
    found = codes(source)
    assert lines(found, "LB102") == {line_of(source, "out = call_forward()")}, found


# --- 506: a JAX value handed to a function imported from code not shown ---------------------------------------------
HANDED = """
import jax
{imports}


class LoadingBenchmarks:
    params = [[256]]

    def time_load(self, n):
        tel = {loader}(
            "config.yaml",
            n_samples=n,
            key={key},
        )
        _ = tel.mirror_groups
"""


@pytest.mark.parametrize(
    ("imports", "loader", "key"),
    [
        ("from iactrace import Telescope", "Telescope.from_yaml", "jax.random.key(42)"),  # as posted
        ("import iactrace as ia", "ia.Telescope.from_yaml", "jax.random.PRNGKey(0)"),  # aliased, another key
        ("from telescope_tools.io import load_telescope as load", "load", "jax.numpy.zeros((n, 3))"),  # a function
    ],
)
def test_a_jax_value_handed_to_code_not_shown_is_not_left_pending(imports, loader, key):
    found = codes(HANDED.format(imports=imports, loader=loader, key=key), "benchmarks/bench_load.py")
    assert not lines(found, "LB102"), found


def test_a_jax_value_handed_to_code_not_shown_under_a_clock_is_not_left_pending():
    source = """
import time
import jax
from iactrace import Telescope

t0 = time.perf_counter()
tel = Telescope.from_yaml("config.yaml", key=jax.random.key(42))
_ = tel.mirror_groups
print(time.perf_counter() - t0)
"""
    found = codes(source)
    assert not lines(found, "LB102"), found
    head, _, tail = source.partition("t0 =")
    found = notebook_codes(head, "t0 =" + tail)
    assert "LB102" not in {c for c, _, _ in found}, found


def test_a_jax_value_handed_to_a_local_function_returning_jax_work_is_still_pending():
    source = """
import time
import jax
import jax.numpy as jnp


def build(n_samples, key):
    return jax.random.normal(key, (n_samples, 3)) @ jnp.ones((3, 3))


t0 = time.perf_counter()
tel = build(256, key=jax.random.key(42))
print(time.perf_counter() - t0)
"""
    found = codes(source)
    assert lines(found, "LB102") == {line_of(source, "tel = build(")}, found


# --- 497: a jitted def nested in a function called once per configuration of a sweep --------------------------------
SWEPT = """
import time
from itertools import product

import jax
import jax.numpy as jnp
import jax.random as jr
{imports}


def benchmark_run(batch_size, seq_len, key):
    x = jr.normal(key, ({sizes}))

    {decorator}
    def forward(x):
        return jnp.tanh(x @ x.T).sum()

    start = {clock}
    jax.block_until_ready(forward(x))
    compile_time = {clock} - start
    start = {clock}
    jax.block_until_ready(forward(x))
    return compile_time, {clock} - start


def main():
    key = jr.PRNGKey(0)
    for b, s in product([16, 32], [128, 256]):
        key, subkey = jr.split(key)
        print(benchmark_run(b, s, subkey))
"""


@pytest.mark.parametrize(
    ("imports", "decorator", "clock"),
    [
        ("from flax import nnx", "@nnx.jit", "time.time()"),  # as posted
        ("from jax import jit as compiled", "@compiled", "time.perf_counter()"),  # aliased, another clock
        ("import timeit", "@jax.jit", "timeit.default_timer()"),  # another clock
    ],
)
def test_a_nested_jit_given_new_shapes_on_every_call_is_not_recreated(imports, decorator, clock):
    source = SWEPT.format(imports=imports, decorator=decorator, clock=clock, sizes="batch_size, seq_len")
    found = codes(source)
    assert not lines(found, "LB111"), found


def test_a_nested_jit_given_new_shapes_on_every_call_in_notebook_cells_is_not_recreated():
    source = SWEPT.format(imports="", decorator="@jax.jit", clock="time.perf_counter()", sizes="batch_size, seq_len")
    head, _, tail = source.partition("def main():")
    found = notebook_codes(head, "def main():" + tail)
    assert "LB111" not in {c for c, _, _ in found}, found


def test_a_nested_jit_given_the_same_shapes_on_every_call_is_still_recreated():
    source = SWEPT.format(imports="", decorator="@jax.jit", clock="time.perf_counter()", sizes="64, 64")
    found = codes(source)
    assert lines(found, "LB111") == {line_of(source, "@jax.jit")}, found


# --- 508: a training loop's interval with a periodic evaluation, and an evaluation that averages its own loop ----------
TRAINING = """
import {clock_module}
import jax
import jax.numpy as jnp


@jax.jit
def train_step(state, batch):
    return state - 0.1 * jnp.tanh(batch @ state), {{"loss": jnp.mean(state)}}


@jax.jit
def eval_step(params, batch):
    return {{"loss": jnp.mean(batch @ params)}}


def eval_loop(params, batches):
    {warm}
    start_time = {clock}
    for i, batch in enumerate(batches):
        stats = eval_step(params, batch)
        stats = {{k: float(v) for k, v in stats.items()}}
    end_time = {clock}
    return (end_time - start_time) / (i + 1)


def train_loop(state, batches, n_save, n_print):
    start_time = {clock}
    for step, batch in enumerate(batches):
        if step % n_save == 0:
            secs = eval_loop(state, batches[:4])
            print("eval", secs)
        state, metrics = train_step(state, batch)
        if step % n_print == 0:
            loss = float(metrics["loss"])
            end_time = {clock}
            print(step, loss, (end_time - start_time) / n_print)
            start_time = end_time
    return state


train_loop(jnp.ones((8, 8)), [jnp.ones((8, 8))] * 100, 50, 10)
"""


@pytest.mark.parametrize(
    ("clock_module", "clock"),
    [
        ("time", "time.perf_counter()"),  # as posted
        ("time", "time.monotonic()"),  # another clock
        ("timeit", "timeit.default_timer()"),  # another module's clock
    ],
)
def test_a_training_interval_reports_the_step_and_the_evaluation_its_own_first_call(clock_module, clock):
    source = TRAINING.format(clock_module=clock_module, clock=clock, warm="")
    found = codes(source)
    assert lines(found, "LB103") == {line_of(source, "state, metrics = train_step("),
                                     line_of(source, "stats = eval_step(")}, found


def test_a_training_interval_in_notebook_cells_reports_the_step_and_the_evaluation():
    source = TRAINING.format(clock_module="time", clock="time.perf_counter()", warm="")
    head, _, tail = source.partition("def train_loop(")
    head = head.lstrip("\n")
    found = notebook_codes(head, "def train_loop(" + tail)
    assert {(cell, line) for c, cell, line in found if c == "LB103"} == {
        (1, line_of(head, "stats = eval_step(")),
        (2, line_of("def train_loop(" + tail, "state, metrics = train_step(")),
    }, found


def test_an_evaluation_warmed_before_its_own_loop_is_quiet():
    source = TRAINING.format(clock_module="time", clock="time.perf_counter()",
                             warm="jax.block_until_ready(eval_step(params, batches[0]))")
    found = codes(source)
    assert line_of(source, "stats = eval_step(") not in lines(found, "LB103"), found


# --- 505: an asv time method running its class's helpers through self -----------------------------------------------
SUITE = """
import jax
import jax.numpy as {jnp}
{imports}


class ForwardSuite:
    def setup(self):
        self.x = {jnp}.ones((128, 128))

    def {helper}(self):
        theta = {jnp}.exp(-self.x ** 2)
        {body}

    def solve(self):
        @jax.jit
        def loss_function(theta, target):
            return {jnp}.mean((theta - target) ** 2)

        opt = ScipyMinimize(method="l-bfgs-b", fun=loss_function)
        return opt.run({jnp}.zeros_like(self.x), self.x).params

    def time_forward_model(self):
        self.{helper}()

    def time_solve(self):
        self.solve()
"""
_UNWAITED = "return {jnp}.mean({jnp}.angle(theta))"


@pytest.mark.parametrize(
    ("imports", "jnp", "helper"),
    [
        ("from jaxopt import ScipyMinimize", "jnp", "run_forward_model"),  # as posted
        ("from jaxopt import ScipyMinimize\nimport numpy as np", "xp", "forward"),  # aliased
        ("import jaxopt\nScipyMinimize = jaxopt.ScipyMinimize", "jnp", "_simulate"),  # another binding
    ],
)
def test_an_asv_time_method_dropping_its_own_helpers_unwaited_result_is_lb102(imports, jnp, helper):
    source = SUITE.format(imports=imports, jnp=jnp, helper=helper, body=_UNWAITED.format(jnp=jnp))
    found = codes(source, "benchmarks/bench_forward.py")
    assert line_of(source, f"        self.{helper}()") in lines(found, "LB102"), found
    assert lines(found, "LB111") == {line_of(source, "@jax.jit")}, found


def test_an_asv_time_method_running_its_own_helper_in_notebook_cells_is_lb102():
    source = SUITE.format(imports="from jaxopt import ScipyMinimize", jnp="jnp", helper="run_forward_model",
                          body=_UNWAITED.format(jnp="jnp"))
    head, _, tail = source.partition("class ForwardSuite:")
    found = notebook_codes(head, "class ForwardSuite:" + tail)
    assert {"LB102", "LB111"} <= {c for c, _, _ in found}, found


def test_an_asv_time_method_whose_helper_waits_is_quiet():
    source = SUITE.format(imports="from jaxopt import ScipyMinimize", jnp="jnp", helper="run_forward_model",
                          body="return jax.block_until_ready(jnp.mean(jnp.angle(theta)))")
    found = codes(source, "benchmarks/bench_forward.py")
    assert line_of(source, "        self.run_forward_model()") not in lines(found, "LB102"), found


# --- 500: NumPy handed to a call of code not shown whose result is blocked on ---------------------------------------
PREDICT = """
import time
import statistics
import jax
import numpy as np
from bnn.jax_backend import JAXTwoScaleBNN as {model_class}

rng = np.random.default_rng(71)
X = rng.normal(size=(2000, 4)); y = rng.normal(size=2000); Q = {query}
model = {model_class}(20, 40).fit(X, y)
{first}
durations = []
for _ in range(5):
    {warm}
print(statistics.median(durations))
"""


@pytest.mark.parametrize(
    ("model_class", "first", "warm"),
    [
        ("JAXTwoScaleBNN",  # as posted: semicolon-joined lines
         "begin=time.perf_counter(); value=model.predict(Q); value.block_until_ready()\nfirst=time.perf_counter()-begin",
         "begin=time.perf_counter(); model.predict(Q).block_until_ready(); durations.append(time.perf_counter()-begin)"),
        ("Model",  # aliased, another clock, jax.block_until_ready on the next line
         "begin = time.monotonic()\nvalue = model.predict(Q)\njax.block_until_ready(value)\nfirst = time.monotonic() - begin",
         "begin = time.monotonic()\n    model.predict(Q).block_until_ready()\n    durations.append(time.monotonic() - begin)"),
    ],
)
def test_numpy_handed_to_a_call_whose_result_is_blocked_on_is_lb115(model_class, first, warm):
    source = PREDICT.format(model_class=model_class, first=first, warm=warm, query="rng.normal(size=(64, 4))")
    found = codes(source)
    predicted = {k for k, line in enumerate(textwrap.dedent(source).splitlines(), 1) if "model.predict(Q)" in line}
    assert lines(found, "LB115") == predicted, found


def test_numpy_handed_to_a_call_whose_result_is_blocked_on_in_notebook_cells_is_lb115():
    source = PREDICT.format(model_class="JAXTwoScaleBNN", query="rng.normal(size=(64, 4))",
                            first="begin=time.perf_counter(); value=model.predict(Q); value.block_until_ready()\n"
                                  "first=time.perf_counter()-begin",
                            warm="begin=time.perf_counter(); model.predict(Q).block_until_ready(); "
                                 "durations.append(time.perf_counter()-begin)")
    head, _, tail = source.partition("durations = []")
    found = notebook_codes(head, "durations = []" + tail)
    assert [c for c, _, _ in found].count("LB115") == 2, found


def test_a_device_array_handed_to_a_call_whose_result_is_blocked_on_is_quiet():
    source = PREDICT.format(model_class="JAXTwoScaleBNN", query="jax.device_put(rng.normal(size=(64, 4)))",
                            first="begin=time.perf_counter(); value=model.predict(Q); value.block_until_ready()\n"
                                  "first=time.perf_counter()-begin",
                            warm="begin=time.perf_counter(); model.predict(Q).block_until_ready(); "
                                 "durations.append(time.perf_counter()-begin)")
    found = codes(source)
    assert not lines(found, "LB115"), found


# --- 497: one warm run per configuration of a product sweep ---------------------------------------------------------
PRODUCT = """
import time
{imports}

import jax
import jax.numpy as jnp
import jax.random as jr
from memory_monitor import PeakMemoryMonitor


@jax.jit
def forward(x):
    return jnp.tanh(x @ x.T).sum()


def benchmark_run(batch_size, seq_len, key):
    x = jr.normal(key, (batch_size, seq_len))
    # Warmup / Compile Forward
    start = {clock}
    jax.block_until_ready(forward(x))
    compile_time = {clock} - start

    # Run Forward
    start = {clock}
    with PeakMemoryMonitor(interval=0.01) as mem:
        out = forward(x)
        jax.block_until_ready(out)
    end = {clock}
    return compile_time, end - start, mem.peak


def main():
    key = jr.PRNGKey(0)
    batch_sizes = [16, 32, 64]
    seq_lens = [128, 256]
    for b, s in {product}(batch_sizes, seq_lens):
        key, subkey = jr.split(key)
        print(benchmark_run(b, s, subkey))
"""


@pytest.mark.parametrize(
    ("imports", "product", "clock"),
    [
        ("from itertools import product", "product", "time.time()"),  # as posted
        ("import itertools as it", "it.product", "time.perf_counter()"),  # aliased, another clock
        ("from itertools import product as grid", "grid", "time.monotonic()"),  # aliased, another clock
    ],
)
def test_one_warm_run_per_configuration_of_a_product_sweep_is_lb104(imports, product, clock):
    source = PRODUCT.format(imports=imports, product=product, clock=clock)
    found = codes(source)
    assert lines(found, "LB104") == {line_of(source, "with PeakMemoryMonitor(")}, found


def test_one_warm_run_per_configuration_of_a_product_sweep_in_notebook_cells_is_lb104():
    source = PRODUCT.format(imports="from itertools import product", product="product", clock="time.time()")
    head, _, tail = source.partition("def main():")
    head = head.lstrip("\n")
    found = notebook_codes(head, "def main():" + tail)
    assert {(c, cell, line) for c, cell, line in found if c == "LB104"} == {
        ("LB104", 1, line_of(head, "with PeakMemoryMonitor("))}, found


def test_a_product_over_data_is_no_sweep():
    source = PRODUCT.format(imports="from itertools import product", product="product", clock="time.time()")
    source = source.replace("for b, s in product(batch_sizes, seq_lens):", "for b, s in product(load(), load()):")
    found = codes(source)
    assert not lines(found, "LB104"), found
