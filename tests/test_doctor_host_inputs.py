"""NumPy data that reaches JAX code inside a timing without being an argument of a JAX function (issue 25, cases
277-291), and host helpers of JAX libraries read as what they are.

- An un-jitted transform applied (``jax.jacrev(f)(None, X, y)``, ``grad = jax.grad(f); grad(lam, data)``), a
  ``functools.partial`` of a JAX function, and a function a transform is given that reads a NumPy array from
  outside (``jax.vmap(lambda g: solve(g, X))``) convert that array to a device array each time they run: LB115,
  as a NumPy argument of a jitted function is. A jitted function's closure is copied once, when it compiles.
- scikit-learn's generated data sets and its train/test split are NumPy arrays.
- A JAX library's test helpers (``jaxopt._src.test_util.lasso_skl``, a scikit-learn solve) run on the host: not JAX
  work an end clock should wait for, nor a JAX value that ``print`` copies back.
"""

from __future__ import annotations

import textwrap

from levelbench.doctor import lint_source


def found(source: str) -> set[tuple[str, int]]:
    return {(d.code, d.location.line) for d in lint_source(textwrap.dedent(source), "case.py")}


HEAD = """\
import time
from functools import partial
import jax
import jax.numpy as jnp
import numpy as np
from sklearn import datasets, model_selection

def loss(w, X, y):
    return jnp.mean((X @ w - y) ** 2)

X, y = datasets.make_regression(n_samples=100, n_features=50)
w = jnp.zeros(50)
"""


def test_numpy_data_handed_to_an_unjitted_transform_is_copied_on_every_run():
    timings = {
        "jacrev applied": "t0 = time.perf_counter()\nJ = jax.jacrev(loss)(w, X, y)\nJ.block_until_ready()\n",
        "grad bound to a name": "t0 = time.perf_counter()\ng = jax.grad(loss)\nG = g(w, X, y)\nG.block_until_ready()\n",
        "a split's list": (
            "data = model_selection.train_test_split(X, y)\nt0 = time.perf_counter()\n"
            "G = jax.grad(lambda w, d: loss(w, d[0], d[2]))(w, data)\nG.block_until_ready()\n"
        ),
        "a partial's arguments": (
            "bound = partial(loss, X=X, y=y)\nt0 = time.perf_counter()\nbound(w).block_until_ready()\n"
        ),
        "a vmapped lambda's closure": (
            "W = jnp.ones((8, 50))\nt0 = time.perf_counter()\nL = jax.vmap(lambda v: loss(v, X, y))(W)\n"
            "L.block_until_ready()\n"
        ),
    }
    for name, timing in timings.items():
        source = HEAD + timing + "print(time.perf_counter() - t0)\n"
        line = next(i for i, text in enumerate(source.splitlines(), 1) if text.startswith(("J =", "G =", "g =", "bound(", "L =")))
        if name == "grad bound to a name":
            line += 1
        assert ("LB115", line) in found(source), name


def test_numpy_data_a_jitted_function_closes_over_or_only_measures_is_not_copied_per_run():
    quiet = {
        "jitted closure": (
            "W = jnp.ones((8, 50))\nf = jax.jit(jax.vmap(lambda v: loss(v, X, y)))\nf(W).block_until_ready()\n"
            "t0 = time.perf_counter()\nf(W).block_until_ready()\n"
        ),
        "read for its size": (
            "W = jnp.ones((8, 50))\nt0 = time.perf_counter()\nL = jax.vmap(lambda v: jnp.sum(v) / len(X))(W)\n"
            "L.block_until_ready()\n"
        ),
        "device data": (
            "Xd, yd = jnp.asarray(X), jnp.asarray(y)\nt0 = time.perf_counter()\nJ = jax.jacrev(loss)(w, Xd, yd)\n"
            "J.block_until_ready()\n"
        ),
    }
    for name, timing in quiet.items():
        source = HEAD + timing + "print(time.perf_counter() - t0)\n"
        assert "LB115" not in {c for c, _ in found(source)}, name


JAXOPT = """\
import time
import jax
import jax.numpy as jnp
from jaxopt import implicit_diff as idf
from jaxopt._src import test_util
from sklearn import datasets

X, y = datasets.make_regression(n_samples=10, n_features=100)
lam = jnp.asarray(0.5)

def optimality(params, X, y, lam):
    return params - jax.grad(lambda p: jnp.sum((X @ p - y) ** 2) + lam * jnp.sum(jnp.abs(p)))(params)

def solver(params, X, y, lam):
    return test_util.lasso_skl(X, y, lam)

t_start = time.time()
decorated = idf.custom_root(optimality)(solver)
sol = test_util.lasso_skl(X=X, y=y, lam=lam)
print(sol)
J = jax.jacrev(decorated, argnums=3)(None, X, y, lam)
t = time.time() - t_start
"""


def test_a_jax_librarys_test_helper_is_host_work():
    # jaxopt's benchmarks (cases 289, 291): the scikit-learn reference solve is not what the end clock forgets to
    # wait for, and printing its NumPy solution copies nothing back; the unwaited `jax.jacrev` is
    findings = found(JAXOPT)
    assert ("LB102", 21) in findings
    assert not {("LB102", 19), ("LB115", 19), ("LB115", 20)} & findings


BACKENDS = """\
from timeit import timeit
import numpy as np
import pytensor
import pytensor.tensor as pt

x = pytensor.shared(np.random.uniform(size=(64, 64, 64)), name="x")
y = x.sum(0)
c_fn = pytensor.function([], y, mode="FAST_RUN")
jax_fn_ = pytensor.function([], y, mode="JAX")
{define}
{timing}
"""


def test_a_lambda_timed_through_a_loop_over_named_callables_copies_its_jax_result():
    # pytensor#935 (case 285): `for name, fn in [...]: timeit(fn, number=r)`, `jax_fn = lambda: np.asarray(jax_fn_())`
    copies = "jax_fn = lambda: np.asarray(jax_fn_())"
    timings = [
        'for name, fn in [("C", c_fn), ("jax", jax_fn)]:\n    print(name, timeit(fn, number=10))',
        'for fn in (c_fn, jax_fn):\n    print(timeit(fn, number=10))',
        "print(timeit(jax_fn, number=10))",
    ]
    for timing in timings:
        source = BACKENDS.format(define=copies, timing=timing)
        lines = len(source.splitlines())  # the `timeit` call's line, or the lambda's where the region opens it
        assert {("LB115", lines), ("LB115", lines - (2 if timing.startswith("for") else 1))} & found(source), timing
    # waited for without a copy, or a host backend's result converted: nothing copied back from a device
    for define in ("jax_fn = lambda: jax.block_until_ready(jax_fn_())", "jax_fn = lambda: np.asarray(c_fn())"):
        source = "import jax\n" + BACKENDS.format(define=define, timing=timings[0])
        assert "LB115" not in {c for c, _ in found(source)}, define


def test_a_timing_of_a_test_helper_alone_is_still_one_sample_of_host_work():
    # case 291's first region: one `time.time()` pair around the scikit-learn reference solve and its print
    source = JAXOPT.split("t_start = time.time()")[0] + (
        "t_start = time.time()\nsol = test_util.lasso_skl(X, y, lam)\nprint(sol)\nt = time.time() - t_start\n"
    )
    lines = source.splitlines()
    findings = found(source)
    assert {("LB105", len(lines) - 3), ("LB104", len(lines) - 2)} <= findings
    assert not {c for c, _ in findings} & {"LB102", "LB115"}


def test_a_transform_taken_from_a_container_or_a_name_is_a_transform():
    # case 289's container variant: `jax_jacrev_fns["jax_jacrev"](solver, argnums=3)(None, X, y, lam)`
    for bind, call in (
        ('transforms = {"jacrev": jax.jacrev}', 'transforms["jacrev"]'),
        ("for jacobian in (jax.jacrev, jax.jacfwd):\n    pass", "jacobian"),
    ):
        source = HEAD + f"{bind}\nt0 = time.perf_counter()\nJ = {call}(loss)(w, X, y)\nprint(time.perf_counter() - t0)\n"
        line = len(source.splitlines()) - 1
        assert {("LB102", line), ("LB115", line)} <= found(source), bind
