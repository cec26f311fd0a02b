"""What cases 460-473 showed at first sight, mended in the shared model (mend41).

- `_intent.repeated_right_after`, read by LB104: a clock pair inside a loop over the things compared (``for f_ in
  [fn, jax.jit(fn), ...]:``) takes one sample per thing; when the next timing right after it runs the same call
  again in a loop of its own, the pair is the first run timed cold on purpose beside its warm figure, as for a pair
  taken once (numbax's mini-benchmark, case 460's false LB104).
- `Kinds.numpy_scalar`, read by LB115: one NumPy scalar made from a written number (``np.int32(1)``) is a few
  bytes, no transfer worth a finding when a JAX function is handed it (case 460's false LB115).
- `_iteration.runs_many_operations`: of a name bound to an optax call, only the methods of a gradient transformation
  (``init``, ``update``) run a program op by op; ``loss.block_until_ready()`` of ``loss = optax.l2_loss(...)`` (a
  loss array, bound in another function of the file) is an array's wait (lm_speed_test, case 464's false LB114).
- LB114's `_handed_eager_and_jitted`: a timed loop whose work is a call of a parameter that the helper's callers hand
  a function at one call and its jit at another (``test(fn, grad(fn), ...)`` and ``test(jit(fn), jit(grad(fn)),
  ...)``) times both halves of a comparison with jit: the eager figure is its baseline (phylojax, case 461's false
  LB114:111/125).
- LB114's `_once_beside_the_repeats`: a transform timed in a region whose figure is a total over a loop it holds,
  but written beside that loop (``y, vjp_fn = vjp(log_prob, x, theta)`` before ``for _ in range(n): ...``), runs
  once per figure: no dispatch repeated (phylojax, case 461's false LB114:221).
- LB114's `_same_run_repeated`, read by `_a_pass_of_a_comparison`: the eager half of a comparison with jit, made as a
  statement of the loop's own (its value bound to a name, ``_ = vjp_fn(ct)[0]``, or dropped as its timed jitted
  twin's is, `_twin_drops_its_value`) on the same inputs each
  pass, is the baseline run again and again, also for a function the file imports or binds (phylojax's 'JIT off'
  loops, case 461's false LB114:170/212/223). A call handed the loop's variable, or a rollout, is not.
- `Facts.in_a_branch_never_taken`, read by LB103: the body of ``if flag:``, ``flag`` a parameter with a false default
  that every call of its function in the file leaves alone, never runs: a timing there is no candidate and its
  calls warm nothing, so the first call of each jitted function is the timed loop's (phylojax's ``separate=False``,
  case 461's false LB103:104/179/237, now found at 111/186/243 as labelled).
- LB114's `_decorated_eager_runs`: a function a timing decorator wraps (``@timer def price(...)``), neither jitted nor
  traced, that dispatches two or more JAX operations, called in a loop with its figure kept, is reported at that
  call; its warm-up loops, discarded runs and the loop of its figures (with the key splits between them) are the
  same fault, not four more (risk-neutral-monte-carlo, case 463's missed LB114:318 and false LB114:246/257/266/314).
- `Facts.engine_of` reads engine keywords handed through ``**kwargs`` bound to ``dict(backend="jax")`` or a dict
  display, and `Facts.engine_handed`, read by `Context.does_framework_work`: a call of the library that built an
  object with a JAX engine, handed that object (``nutpie.sample(compiled)``), computes with JAX; and
  `_warmth.Warmth._built_again`: a library call handed names bound again, between two calls of the same text, to
  new objects made by calls (``model = make_model(frame)``, ``kwargs = dict(...)``), no arrays, is not warmed by the
  first: the second compile is timed cold on purpose too (nutpie's two backends, case 472's missed LB104 and LB105).
- `_effects._host_side_effect`: a JAX library's function that a ``%timeit`` or ``%time`` magic times is not read as
  called for its effect because its value is dropped: the magic drops every value it times (lineax's
  ``%timeit lx.linear_solve(operator, vector, solver=lx.LU())``, case 470's missed second LB102).
- `_regions`: a ``timeit`` set-up given as the call of a local function that returns one string (``setup=
  setup_code()``) is that string; LB103's `_jitted_in_setup`: a name the set-up string binds to a jit (its own
  ``from jax import jit``, ``import jax``, or the file's) and never calls compiles in the timed total's first run
  (fenbux#7, case 468's missed LB103).
"""

from __future__ import annotations

import textwrap

import pytest

from doctor_support import codes, notebook_codes


def line_of(source: str, text: str, nth: int = 1) -> int:
    """The line (1-based, of the dedented source) holding the ``nth`` occurrence of ``text``."""
    found = [k for k, line in enumerate(textwrap.dedent(source).splitlines(), 1) if text in line]
    return found[nth - 1]


# --- 460: a first run timed cold per compared function, then its warm loop ----------------------------------------
COMPARED = """
import jax
import numpy as np
{imports}

def fn(x):
    return jax.numpy.sin(x) * 2 + 1

{body}
"""
_LOOP = """
for (f_, name) in [(fn, 'jax'), (jax.jit(fn), 'jax-jit')]:
    t0 = {clock}
    f_({arg})
    t1 = {clock}
    for _ in range(100):
        f_({arg})
    t2 = {clock}
    print(name, t2 - t1, t1 - t0)
"""
_HELPER = """
def compare(functions):
    for f_ in functions:
        t0 = {clock}
        jax.block_until_ready(f_({arg}))
        t1 = {clock}
        for _ in range(100):
            jax.block_until_ready(f_({arg}))
        t2 = {clock}
        print(t2 - t1, t1 - t0)

compare([fn, jax.jit(fn)])
"""


@pytest.mark.parametrize(
    ("imports", "body", "clock"),
    [
        ("import time", _LOOP, "time.perf_counter()"),  # as posted
        ("from time import perf_counter as now", _LOOP, "now()"),  # aliased
        ("import timeit", _LOOP, "timeit.default_timer()"),  # another clock
        ("import time", _HELPER, "time.perf_counter()"),  # in a helper, waited
    ],
)
def test_a_first_run_per_compared_function_then_its_warm_loop_is_no_single_sample(imports, body, clock):
    source = COMPARED.format(imports=imports, body=body.format(clock=clock, arg="np.ones(3)"))
    found = codes(source)
    assert "LB104" not in {c for c, _ in found}, found


def test_a_first_run_per_compared_function_then_its_warm_loop_in_notebook_cells_is_no_single_sample():
    found = notebook_codes(
        "import jax\nimport numpy as np\nimport time\ndef fn(x):\n    return jax.numpy.sin(x) * 2 + 1",
        _LOOP.format(clock="time.perf_counter()", arg="np.ones(3)"),
    )
    assert "LB104" not in {c for c, _, _ in found}, found


def test_a_pair_per_compared_function_with_no_warm_loop_after_it_is_still_one_sample():
    body = """
for f_ in [fn, jax.jit(fn)]:
    t0 = time.perf_counter()
    jax.block_until_ready(f_(np.ones(3)))
    print(time.perf_counter() - t0)
"""
    source = COMPARED.format(imports="import time", body=body)
    assert ("LB104", line_of(source, "jax.block_until_ready(f_(")) in codes(source)


# --- 460: one NumPy scalar handed to a JAX function -----------------------------------------------------------------
SCALAR = """
import jax
{imports}

@jax.jit
def f(x):
    return jax.numpy.sin(x) * 2 + 1

f({warm})
for _ in range(5):
    t0 = time.perf_counter()
    jax.block_until_ready(f({arg}))
    print(time.perf_counter() - t0)
"""


@pytest.mark.parametrize(
    ("imports", "arg"),
    [
        ("import time\nimport numpy as np", "np.int32(1)"),  # as posted
        ("import time\nimport numpy as onp", "onp.float32(-0.5)"),  # aliased, signed
        ("import time\nfrom numpy import float64", "float64(2.0)"),  # imported by name
    ],
)
def test_one_numpy_scalar_handed_to_jax_is_no_transfer_finding(imports, arg):
    source = SCALAR.format(imports=imports, warm=arg, arg=arg)
    found = codes(source)
    assert "LB115" not in {c for c, _ in found}, found


def test_a_name_bound_to_one_numpy_scalar_is_no_transfer_finding():
    source = SCALAR.format(imports="import time\nimport numpy as np\nx = np.int32(3)", warm="x", arg="x")
    found = codes(source)
    assert "LB115" not in {c for c, _ in found}, found


def test_one_numpy_scalar_in_notebook_cells_is_no_transfer_finding():
    found = notebook_codes(
        "import jax\nimport time\nimport numpy as np\nf = jax.jit(lambda x: jax.numpy.sin(x) + 1)\nf(np.int32(1))",
        "t0 = time.perf_counter()\nfor _ in range(5):\n    jax.block_until_ready(f(np.int32(1)))\n"
        "print(time.perf_counter() - t0)",
    )
    assert "LB115" not in {c for c, _, _ in found}, found


@pytest.mark.parametrize(
    ("imports", "arg"),
    [
        ("import time\nimport numpy as np\nx = np.ones(1000)", "np.float32(x)"),  # of an array: an array
        ("import time\nimport numpy as np", "np.ones(1000, dtype=np.int32)"),  # an array built in the call
    ],
)
def test_a_numpy_array_handed_to_jax_is_still_a_transfer(imports, arg):
    source = SCALAR.format(imports=imports, warm=arg, arg=arg)
    assert ("LB115", line_of(source, "jax.block_until_ready(f(")) in codes(source)


# --- 464: an array named like an optax loss, waited in a timed loop --------------------------------------------------
STEPS = """
import jax
import jax.numpy as jnp
import optax
{imports}

def compute_loss(params, batch):
    {loss} = optax.{function}(params @ batch, batch)
    return jnp.mean({loss})

@jax.jit
def train_step(params, batch):
    {loss}, grads = jax.value_and_grad(compute_loss)(params, batch)
    return params - 0.1 * grads, {loss}

params, batch = jnp.ones((4, 4)), jnp.ones((4, 4))
for _ in range(3):
    params, {loss} = train_step(params, batch)
    {loss}.block_until_ready()
times = []
for i in range(10):
    start = {clock}
    params, {loss} = train_step(params, batch)
    {loss}.{method}()
    times.append({clock} - start)
print(min(times))
"""


@pytest.mark.parametrize(
    ("imports", "loss", "function", "method", "clock"),
    [
        ("import time", "loss", "l2_loss", "block_until_ready", "time.perf_counter()"),  # as posted
        ("from time import perf_counter as now", "loss", "squared_error", "block_until_ready", "now()"),  # aliased
        ("import timeit", "err", "huber_loss", "block_until_ready", "timeit.default_timer()"),  # another clock, name
    ],
)
def test_a_waited_array_named_like_an_optax_loss_is_no_eager_transform(imports, loss, function, method, clock):
    source = STEPS.format(imports=imports, loss=loss, function=function, method=method, clock=clock)
    found = codes(source)
    assert "LB114" not in {c for c, _ in found}, found


def test_a_waited_array_named_like_an_optax_loss_in_notebook_cells_is_no_eager_transform():
    source = STEPS.format(imports="import time", loss="loss", function="l2_loss", method="block_until_ready",
                          clock="time.perf_counter()")
    head, timing = source.split("times = []")
    found = notebook_codes(head, "times = []" + timing)
    assert "LB114" not in {c for c, _, _ in found}, found


def test_an_optax_update_timed_in_a_loop_is_still_the_optimiser_run_op_by_op():
    source = """
import time
import jax
import jax.numpy as jnp
import optax

tx = optax.adam(1e-3)
params = jnp.ones(3)
state = tx.init(params)
grads = jnp.ones(3)
start = time.perf_counter()
for _ in range(100):
    updates, state = tx.update(grads, state)
jax.block_until_ready(updates)
print(time.perf_counter() - start)
"""
    assert "LB114" in {c for c, _ in codes(source)}


# --- 461: a timing helper handed a function and its jit --------------------------------------------------------------
HALVES = """
import jax
import jax.numpy as jnp
{imports}

def fn(x):
    y = jnp.sin(x) * 2.0
    return jnp.sum(jnp.cos(y) + y)

def test(fn, g, x, replicates):
    start = {clock}
    for _ in range(replicates):
        log_p = fn(x)
    t1 = {clock} - start
    start = {clock}
    for _ in range(replicates):
        _ = g(x)
    t2 = {clock} - start
    print(t1, t2, log_p)
    return t1, t2

x = jnp.ones(100)
{calls}
"""
_PLAIN_CALLS = "test(fn, jax.grad(fn), x, 100)\nfn_jit = {jit}(fn)\ntest(fn_jit, {jit}(jax.grad(fn)), x, 100)"


@pytest.mark.parametrize(
    ("imports", "clock", "calls"),
    [
        ("from timeit import default_timer as timer", "timer()", _PLAIN_CALLS.format(jit="jax.jit")),  # as posted
        ("import time\nfrom jax import jit as compiled", "time.perf_counter()",
         _PLAIN_CALLS.format(jit="compiled")),  # the jit aliased, another clock
        ("import time", "time.monotonic()",
         "test(fn, jax.grad(fn), x, 100)\ntest(jax.jit(fn), jax.jit(jax.grad(fn)), x, 100)"),  # jitted in the call
    ],
)
def test_a_helper_handed_a_function_and_its_jit_times_a_comparison(imports, clock, calls):
    source = HALVES.format(imports=imports, clock=clock, calls=calls)
    found = codes(source)
    assert "LB114" not in {c for c, _ in found}, found


def test_a_helper_handed_a_function_and_its_jit_in_notebook_cells_times_a_comparison():
    source = HALVES.format(imports="import time", clock="time.perf_counter()", calls="")
    found = notebook_codes(source, "x = jnp.ones(100)", _PLAIN_CALLS.format(jit="jax.jit"))
    assert "LB114" not in {c for c, _, _ in found}, found


def test_a_helper_handed_only_eager_functions_still_runs_them_op_by_op():
    source = HALVES.format(imports="import time", clock="time.perf_counter()",
                           calls="test(fn, jax.grad(fn), x, 100)\ntest(jnp.tanh, jax.grad(fn), x, 100)")
    assert "LB114" in {c for c, _ in codes(source)}


# --- 461: an eager transform run once beside the timed loop ----------------------------------------------------------
ONCE = """
import jax
import jax.numpy as jnp
{imports}

def log_prob(x, theta):
    return jnp.sum(-x * x / theta) - jnp.log(theta)

x, theta = jnp.ones(10), jnp.float32(4.0)
jitted = jax.jit(log_prob)
start = {clock}
{once}
for _ in range(100):
    {repeated}
end = {clock}
print(end - start)
"""


@pytest.mark.parametrize(
    ("imports", "clock", "once", "repeated"),
    [
        ("from jax import vjp\nfrom timeit import default_timer as timer", "timer()",
         "y, vjp_fn = vjp(log_prob, x, theta)", "_ = jitted(x, theta)"),  # as posted, in shape
        ("import time", "time.perf_counter()", "y, pull = jax.vjp(log_prob, x, theta)",
         "_ = jitted(x, theta)"),  # another clock, the transform by its module
        ("import time as tm", "tm.monotonic()", "out, f_vjp = jax.vjp(log_prob, x, theta)",
         "jitted(x, theta).block_until_ready()"),  # aliased clock, the loop waited
    ],
)
def test_an_eager_transform_run_once_beside_the_timed_loop_is_not_dispatch_repeated(imports, clock, once, repeated):
    source = ONCE.format(imports=imports, clock=clock, once=once, repeated=repeated)
    found = codes(source)
    assert ("LB114", line_of(source, once)) not in found, found


def test_an_eager_transform_run_once_beside_the_timed_loop_in_notebook_cells():
    source = ONCE.format(imports="import time", clock="time.perf_counter()",
                         once="y, pull = jax.vjp(log_prob, x, theta)", repeated="_ = jitted(x, theta)")
    head, timing = source.split("start = ")
    found = notebook_codes(head, "start = " + timing)
    assert not any(c == "LB114" and line == 2 for c, _, line in found), found


def test_an_eager_transform_inside_the_timed_loop_is_still_dispatch_repeated():
    source = ONCE.format(imports="import time", clock="time.perf_counter()", once="pass",
                         repeated="g = jax.grad(log_prob)(x, theta)")
    assert ("LB114", line_of(source, "g = jax.grad")) in codes(source)


# --- 461: the eager half of a comparison with jit, the same run repeated -------------------------------------------
TWINS = """
import jax
import jax.numpy as jnp
{imports}

def log_prob(h, theta):
    d = h[1:] - h[:-1]
    return jnp.sum(-d / theta) - jnp.log(theta)

h, theta = jnp.linspace(0.0, 1.0, 50), jnp.float32(4.0)
start = {clock}
for _ in range(100):
    {eager}
end = {clock}
print(end - start)
{jit_site}
jitted(h, theta)
start = {clock}
for _ in range(100):
    jitted(h, theta).block_until_ready()
print({clock} - start)
"""


@pytest.mark.parametrize(
    ("imports", "clock", "eager", "jit_site"),
    [
        ("import time", "time.perf_counter()", "log_p = log_prob(h, theta)", "jitted = jax.jit(log_prob)"),  # kept
        ("import time\ny, vjp_fn = jax.vjp(log_prob, jnp.ones(50), jnp.float32(4.0))", "time.time()",
         "_ = vjp_fn(jnp.ones(y.shape))[0]", "jitted = jax.jit(lambda a, b: vjp_fn(a)[0])\n"
         "fn_jit_grad = jax.jit(vjp_fn)\nfn_jit_grad(jnp.ones(y.shape))\nstart = time.time()\n"
         "for _ in range(100):\n    _ = fn_jit_grad(jnp.ones(y.shape))[0]\nprint(time.time() - start)"),  # a vjp
    ],
)
def test_the_eager_half_of_a_comparison_repeated_is_its_baseline(imports, clock, eager, jit_site):
    source = TWINS.format(imports=imports, clock=clock, eager=eager, jit_site=jit_site)
    found = codes(source)
    assert ("LB114", line_of(source, eager.split("(")[0])) not in found, found
    assert ("LB114", line_of(source, "for _ in range(100):")) not in found, found


def test_an_imported_function_repeated_beside_its_timed_jit_is_its_baseline():
    source = """
import jax.numpy as jnp
from phylo.tree import transform_ratios
from jax import jit
from timeit import default_timer as timer

def bench(h, theta, replicates):
    start = timer()
    for _ in range(replicates):
        transform_ratios(h, theta)
    end = timer()
    print(end - start)
    jitted = jit(transform_ratios)
    start = timer()
    for _ in range(replicates):
        jitted(h, theta)
    print(timer() - start)

bench(jnp.ones(5), jnp.float32(4.0), 100)
"""
    found = codes(source)
    assert "LB114" not in {c for c, _ in found}, found


def test_the_eager_half_of_a_comparison_repeated_in_notebook_cells_is_its_baseline():
    source = TWINS.format(imports="import time", clock="time.perf_counter()", eager="log_p = log_prob(h, theta)",
                          jit_site="jitted = jax.jit(log_prob)")
    head, rest = source.split("start = ", 1)
    found = notebook_codes(head, "start = " + rest)
    assert "LB114" not in {c for c, _, _ in found}, found


@pytest.mark.parametrize(
    "eager",
    [
        "log_p = log_prob(h * _, theta)",  # handed the loop's variable: a new input each pass
        "h = log_prob(h, theta) * h",  # a rollout: each pass hands its result on
    ],
)
def test_an_eager_call_whose_passes_differ_is_still_run_op_by_op(eager):
    source = TWINS.format(imports="import time", clock="time.perf_counter()", eager=eager,
                          jit_site="jitted = jax.jit(log_prob)")
    assert "LB114" in {c for c, _ in codes(source)}


# --- 461: a 'first evaluation' timed under a flag every caller leaves off --------------------------------------------
FLAGGED = """
import jax
import jax.numpy as jnp
{imports}

def f(x):
    return jnp.sum(jnp.sin(x) * 2.0)

def test(fn, x, replicates, {flag}):
    if separate:
        start = {clock}
        log_p = fn(x)
        print("First evaluation:", {clock} - start)
    start = {clock}
    for _ in range(replicates):
        log_p = fn(x)
    print(replicates, "evaluations:", {clock} - start, log_p)

x = jnp.ones(100)
f_jit = jax.jit(f)
{calls}
"""


@pytest.mark.parametrize(
    ("imports", "clock", "flag", "calls"),
    [
        ("from timeit import default_timer as timer", "timer()", "separate=False", "test(f_jit, x, 100)"),  # posted
        ("import time", "time.perf_counter()", "*, separate=None", "test(f_jit, x, 10)\ntest(f_jit, x, 100)"),
        ("from time import monotonic as now", "now()", "separate=0", "test(fn=f_jit, x=x, replicates=5)"),
    ],
)
def test_a_first_run_timed_under_a_flag_every_caller_leaves_off_never_runs(imports, clock, flag, calls):
    source = FLAGGED.format(imports=imports, clock=clock, flag=flag, calls=calls)
    found = codes(source)
    assert ("LB103", line_of(source, "log_p = fn(x)", 2)) in found, found
    assert ("LB103", line_of(source, "log_p = fn(x)", 1)) not in found, found


def test_a_first_run_timed_under_a_flag_left_off_in_notebook_cells_never_runs():
    source = FLAGGED.format(imports="import time", clock="time.perf_counter()", flag="separate=False", calls="")
    found = notebook_codes(source, "test(f_jit, x, 100)")
    lb103 = {line for c, cell, line in found if c == "LB103" and cell == 1}
    assert lb103 == {line_of(source, "log_p = fn(x)", 2) - 1}, found  # the cell's lines start after the blank one


@pytest.mark.parametrize(
    "calls",
    [
        "test(f_jit, x, 100, separate=True)",  # one caller turns it on: the first run is the flagged one
        "test(f_jit, x, 100, True)",  # positionally
        "runner = test\nrunner(f_jit, x, 100)",  # passed around: how it is called is not shown
    ],
)
def test_a_flag_some_caller_may_set_keeps_the_flagged_first_run(calls):
    source = FLAGGED.format(imports="import time", clock="time.perf_counter()", flag="separate=False", calls=calls)
    found = codes(source)
    assert ("LB103", line_of(source, "log_p = fn(x)", 2)) not in found, found


# --- 463: an eager function a timing decorator wraps, timed pass by pass --------------------------------------------
DECORATED = """
import jax
import jax.numpy as jnp
from jax import random
{imports}

def timer(func):
    {wraps}
    def wrapper(*args, **kwargs):
        start = {clock}
        result = func(*args, **kwargs)
        end = {clock}
        return result, end - start
    return wrapper

def _price(key, s0, n):
    z = random.normal(key, (n, 16))
    paths = s0 * jnp.exp(jnp.cumsum(0.01 * z, axis=1))
    payoff = jnp.maximum(jnp.mean(paths, axis=1) - s0, 0.0)
    return jnp.mean(payoff), jnp.std(payoff)

@timer
{jit}def price(key, s0, n):
    return _price(key, s0, n)

def run(counts):
    key = random.PRNGKey(0)
    for n in [100, 1000]:
        key, sub = random.split(key)
        _ = _price(sub, 100.0, n)
    for n in counts:
        key = random.fold_in(key, n)
        key, sub = random.split(key)
        _ = price(sub, 100.0, n)
        times = []
        for i in range(5):
            key, sub = random.split(key)
            (p, e), t = price(sub, 100.0, n)
            times.append(t)
        print(n, sum(times) / 5, float(p))

run([1000, 10000])
"""


@pytest.mark.parametrize(
    ("imports", "wraps", "clock"),
    [
        ("import time", "", "time.time()"),  # as posted
        ("import functools\nfrom time import perf_counter as now", "@functools.wraps(func)", "now()"),  # aliased
        ("import timeit", "", "timeit.default_timer()"),  # another clock
    ],
)
def test_an_eager_function_a_timing_decorator_wraps_is_reported_at_its_timed_call(imports, wraps, clock):
    source = DECORATED.format(imports=imports, wraps=wraps, clock=clock, jit="")
    found = codes(source)
    assert {line for c, line in found if c == "LB114"} == {line_of(source, "(p, e), t = price(")}, found


def test_an_eager_function_a_timing_decorator_wraps_in_notebook_cells_is_reported_at_its_timed_call():
    source = DECORATED.format(imports="import time", wraps="", clock="time.time()", jit="")
    head, rest = source.split("def run(counts):")
    found = notebook_codes(head, "def run(counts):" + rest)
    lb114 = {(cell, line) for c, cell, line in found if c == "LB114"}
    assert lb114 == {(2, line_of("def run(counts):" + rest, "(p, e), t = price("))}, found


def test_a_jitted_function_a_timing_decorator_wraps_is_no_op_by_op_dispatch():
    source = DECORATED.format(imports="import time", wraps="", clock="time.time()", jit="@jax.jit\n")
    found = codes(source)
    assert ("LB114", line_of(source, "(p, e), t = price(")) not in found, found


# --- 472: a sampler compiled with a JAX backend chosen through **settings, then sampled once ------------------------
SAMPLED = """
{imports}
model = make_model(frame)
{settings}
t0 = {clock}
compiled = nutpie.compile_pymc_model(model, **kwargs)
print(f"compile time: {{{clock} - t0}}")

t0 = {clock}
trace = {sample}
t = {clock} - t0
print(f"sampling took {{t:.3f}}s")
"""


@pytest.mark.parametrize(
    ("imports", "settings", "clock", "sample"),
    [
        ("import time", 'kwargs = dict(backend="jax", gradient_backend="jax")', "time.time()",
         "nutpie.sample(compiled)"),  # as posted
        ("import nutpie\nfrom time import time as now", 'kwargs = {"backend": "jax"}', "now()",
         "nutpie.sample(compiled)"),  # a dict display, the clock aliased
        ("import nutpie\nimport time", 'kwargs = dict(backend="numba", gradient_backend="jax")', "time.time()",
         "nutpie.sample(compiled, draws=1000)"),  # the gradient on JAX
    ],
)
def test_a_sampler_built_with_a_jax_backend_through_settings_is_framework_work(imports, settings, clock, sample):
    source = SAMPLED.format(imports=imports, settings=settings, clock=clock, sample=sample)
    found = codes(source)
    assert ("LB104", line_of(source, "trace = ")) in found, found
    assert ("LB104", line_of(source, "compiled = ")) not in found, found  # the compile, timed on purpose
    if "time()" in clock or clock == "now()":
        assert ("LB105", line_of(source, "t0 = ", 2)) in found, found


def test_a_sampler_built_with_a_jax_backend_in_notebook_cells_is_framework_work():
    found = notebook_codes(
        'import time\nkwargs = dict(backend="jax")\nmodel = make_model(frame)',
        "t0 = time.time()\ncompiled = nutpie.compile_pymc_model(model, **kwargs)\nprint(time.time() - t0)",
        "t0 = time.time()\ntrace = nutpie.sample(compiled)\nprint(time.time() - t0)",
    )
    assert ("LB104", 3, 2) in found and ("LB105", 3, 1) in found, found


@pytest.mark.parametrize(
    ("settings", "sample"),
    [
        ('kwargs = dict(backend="numba")', "nutpie.sample(compiled)"),  # no JAX chosen
        ('kwargs = dict(backend="jax")', "az.summary(compiled)"),  # another library handed the object
        ('kwargs = dict(backend="jax")', "print(compiled)"),  # a builtin
    ],
)
def test_an_object_not_run_by_its_jax_library_is_not_framework_work(settings, sample):
    source = SAMPLED.format(imports="import time\nimport arviz as az", settings=settings, clock="time.time()",
                            sample=sample)
    found = codes(source)
    assert ("LB104", line_of(source, "trace = ")) not in found, found


def test_a_model_and_settings_built_again_are_compiled_again_on_purpose():
    block = SAMPLED.format(imports="", settings='kwargs = dict(backend="jax")', clock="time.time()",
                           sample="nutpie.sample(compiled)")
    source = "import time\nimport nutpie\n" + block + block
    found = codes(source)
    assert ("LB104", line_of(source, "compiled = ", 2)) not in found, found
    assert ("LB104", line_of(source, "trace = ", 2)) in found, found


# --- 470: a JAX library's function timed by a magic, its result dropped by the magic ---------------------------------
SOLVES = """
from jax import random
import jax.numpy as jnp
{imports}

key = random.PRNGKey(0)
matrix = random.normal(key, (10, 10))
vector = random.normal(key, (10,))
operator = lx.MatrixLinearOperator(matrix)
solution = lx.linear_solve(operator, vector)

{timing}
"""


@pytest.mark.parametrize(
    ("imports", "timing"),
    [
        ("import lineax as lx", "%timeit lx.linear_solve(operator, vector, solver=lx.LU())"),  # as posted
        ("import lineax\nlx = lineax", "%timeit -n 100 lx.linear_solve(operator, vector)"),  # aliased by a name
        ("import lineax as lx", "%%timeit\nlx.linear_solve(operator, vector, solver=lx.QR())"),  # a cell magic
        ("import lineax as lx", "%time lx.linear_solve(operator, vector)"),  # %time
    ],
)
def test_a_jax_librarys_function_timed_by_a_magic_is_not_waited_for(imports, timing):
    source = SOLVES.format(imports=imports, timing=timing)
    found = codes(source)
    assert ("LB102", line_of(source, "lx.linear_solve(operator, vector", 2)) in found, found


def test_a_jax_librarys_function_timed_by_a_magic_in_notebook_cells_is_not_waited_for():
    head = SOLVES.format(imports="import lineax as lx", timing="")
    found = notebook_codes(head, "%timeit lx.linear_solve(operator, vector, solver=lx.LU())")
    assert ("LB102", 2, 1) in found, found


def test_a_jax_librarys_function_timed_by_a_magic_and_waited_is_quiet():
    source = SOLVES.format(imports="import lineax as lx",
                           timing="%timeit lx.linear_solve(operator, vector).value.block_until_ready()")
    assert "LB102" not in {c for c, _ in codes(source)}


# --- 468: a timeit set-up string that jits and never calls ------------------------------------------------------------
SETUP_STRINGS = '''
{imports}

def setup_code():
    return """
{setup}
x = jnp.ones((1000, 2))

def f(x):
    return jnp.sum(jnp.sin(x))

{jit_line}
"""

total = {harness}('jit_f(x).block_until_ready()', setup={given}, {counts})
print(total)
'''


@pytest.mark.parametrize(
    ("imports", "setup", "jit_line", "harness", "given", "counts"),
    [
        ("import timeit", "from jax import jit\nimport jax.numpy as jnp", "jit_f = jit(f)", "timeit.timeit",
         "setup_code()", "number=1000"),  # as posted
        ("import timeit as ti", "import jax\nimport jax.numpy as jnp", "jit_f = jax.jit(f)", "ti.timeit",
         "setup_code()", "number=100"),  # aliased, the jit by its module
        ("from timeit import repeat", "from jax import jit as compiled\nimport jax.numpy as jnp",
         "jit_f = compiled(f)", "repeat", "setup_code()", "number=100, repeat=3"),  # timeit.repeat, the jit aliased
    ],
)
def test_a_timeit_setup_string_that_jits_and_never_calls_times_the_compile(
    imports, setup, jit_line, harness, given, counts
):
    source = SETUP_STRINGS.format(imports=imports, setup=setup, jit_line=jit_line, harness=harness, given=given,
                                  counts=counts)
    found = codes(source)
    assert ("LB103", line_of(source, "total = ")) in found, found


def test_a_timeit_setup_string_that_jits_and_never_calls_in_notebook_cells_times_the_compile():
    source = SETUP_STRINGS.format(imports="import timeit", setup="from jax import jit\nimport jax.numpy as jnp",
                                  jit_line="jit_f = jit(f)", harness="timeit.timeit", given="setup_code()",
                                  counts="number=1000")
    head, timing = source.split("total = ")
    found = notebook_codes(head, "total = " + timing)
    assert ("LB103", 2, 1) in found, found


@pytest.mark.parametrize(
    ("setup", "jit_line"),
    [
        ("from jax import jit\nimport jax.numpy as jnp", "jit_f = jit(f)\njit_f(x).block_until_ready()"),  # warmed
        ("from numba import jit\nimport numpy as jnp", "jit_f = jit(f)"),  # another library's jit
    ],
)
def test_a_timeit_setup_string_that_warms_or_jits_nothing_of_jax_is_quiet(setup, jit_line):
    source = SETUP_STRINGS.format(imports="import timeit", setup=setup, jit_line=jit_line, harness="timeit.timeit",
                                  given="setup_code()", counts="number=1000")
    assert "LB103" not in {c for c, _ in codes(source)}


def test_a_local_solver_handed_a_model_built_again_is_still_warmed_by_its_first_run():
    source = """
import time
import jax
import jax.numpy as jnp

def create_model():
    return jnp.ones(50), 0.9

@jax.jit
def step(v, beta):
    return jnp.maximum(v, beta * v + 1.0)

def solve(model):
    v, beta = model
    return step(v, beta).block_until_ready()

model = create_model()
solve(model)
model = create_model()
t0 = time.perf_counter()
solve(model)
print(time.perf_counter() - t0)
"""
    assert "LB103" not in {c for c, _ in codes(source)}
