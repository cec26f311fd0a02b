"""A JAX library's class builds an object whose methods run the library's JAX programs (case 292).

`levelbench.doctor._facts.Facts.library_call`: ``mcmc = numpyro.infer.MCMC(NUTS(model), ...)`` holds only
configuration, but ``mcmc.run(key, y=y)`` traces the model and compiles and runs the warm-up and sampling loops.
A clock pair around it times JAX work: one cold sample (LB104) read on the wall clock (LB105), however the class
is imported or the object named.
"""

from __future__ import annotations

import textwrap

from levelbench.doctor import lint_source


def findings(source: str) -> set[tuple[str, int]]:
    return {(d.code, d.location.line) for d in lint_source(textwrap.dedent(source), "example.py")}


AR2 = """
import time
import jax
{imports}

def model(y):
    pass

def run_inference(model, rng_key, y):
    start = time.{clock}()
    {obj} = {mcmc}({nuts}(model), num_warmup=1000, num_samples=1000)
    {obj}.run(rng_key, y=y)
    {obj}.print_summary()
    print("MCMC elapsed time:", time.{clock}() - start)
    return {obj}.get_samples()

def main():
    y = jax.numpy.zeros(100)
    run_inference(model, jax.random.PRNGKey(0), y)

if __name__ == "__main__":
    main()
"""


def ar2(imports="import numpyro", clock="time", obj="mcmc", mcmc="numpyro.infer.MCMC", nuts="numpyro.infer.NUTS"):
    return AR2.format(imports=imports, clock=clock, obj=obj, mcmc=mcmc, nuts=nuts)


def test_one_mcmc_run_timed_with_time_time_is_one_cold_sample_on_the_wall_clock():
    assert {("LB104", 11), ("LB105", 10)} <= findings(ar2())


def test_the_classes_imported_by_name_and_the_object_named_otherwise_are_read_alike():
    source = ar2(imports="from numpyro.infer import MCMC, NUTS", obj="sampler_run", mcmc="MCMC", nuts="NUTS")
    assert {("LB104", 11), ("LB105", 10)} <= findings(source)


def test_a_steady_clock_leaves_the_one_sample():
    found = findings(ar2(clock="perf_counter"))
    assert ("LB104", 11) in found and not any(code == "LB105" for code, _ in found)


def test_a_jaxopt_solver_s_run_is_jax_work_too():
    source = """
    import time
    import jax.numpy as jnp
    from jaxopt import LBFGS

    def fun(w):
        return jnp.sum(w ** 2)

    if __name__ == "__main__":
        solver = LBFGS(fun=fun, maxiter=100)
        t0 = time.time()
        solver.run(jnp.ones(10))
        print(time.time() - t0)
    """
    assert {("LB104", 12), ("LB105", 11)} <= findings(source)


def test_a_name_also_bound_to_something_else_is_not_taken_for_the_library_object():
    source = ar2().replace("    {obj}.run".format(obj="mcmc"), "    mcmc = make(mcmc)\n    mcmc.run", 1)
    source = "def make(m):\n    return m\n" + source
    assert not any(code in ("LB104", "LB105") for code, _ in findings(source))


ON_SELF = """
import time
import jax.numpy as jnp
import jaxopt
import torch


def loss(w):
    return jnp.sum(w ** 2)


class Other:
    def __init__(self):
        self.solver = jaxopt.LBFGS(fun=loss)


class Fit:
    def {initializer}(self, tol):
        self.solver = {built}

    def timed_fit(self, w0):
        start = time.time()
        result = self.solver.run(w0)
        print("fit took", time.time() - start)
        return result


def main():
    fit = Fit(1e-6)
    fit.timed_fit(jnp.ones(8))


if __name__ == "__main__":
    main()
"""


def test_a_library_object_kept_on_self_by_the_initializer_runs_jax_in_the_other_methods():
    # `self.solver = jaxopt.LBFGS(...)` in `__init__` (or Flax's `setup`), then `self.solver.run(w0)` between two
    # `time.time()` reads in another method: the same JAX work as a module-level `solver.run(w0)`, so the wall clock
    # times it (LB105 at the start read)
    for initializer in ("__init__", "setup"):
        for built in ("jaxopt.LBFGS(fun=loss, tol=tol)", "jaxopt.GradientDescent(loss, tol=tol)"):
            source = ON_SELF.format(initializer=initializer, built=built)
            assert ("LB105", 22) in findings(source), (initializer, built)
    # built by something the file does not show: nothing says it is JAX work (another class's `self.solver` is
    # another attribute)
    assert findings(ON_SELF.format(initializer="__init__", built="make_solver(tol)")) == set()
    # set up in a method that is no initializer: not known to hold when `timed_fit` runs
    assert findings(ON_SELF.format(initializer="reset", built="jaxopt.LBFGS(fun=loss, tol=tol)")) == set()


def test_a_torch_module_kept_on_self_stays_torch():
    source = ON_SELF.format(initializer="__init__", built="torch.nn.Linear(8, 8)").replace(
        "self.solver.run(w0)", "self.solver(w0)")
    found = {d.code: d.message for d in lint_source(textwrap.dedent(source), "example.py")}
    assert "PyTorch model `self.solver`" in found.get("LB112", ""), found
    assert not any("JAX" in message for message in found.values()), found
