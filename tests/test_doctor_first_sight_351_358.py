"""What cases 351-358 showed at first sight, mended in the shared model (mend30).

- `Facts.library_call` (`LibraryCall.pending`): the run of a JAX library object (``mcmc.run(key, X, Y)`` of
  NumPyro's ``MCMC``, ``solver.run(x0)`` of jaxopt's) returns before its work is done; nothing waits unless
  something reads what it computed (``mcmc.print_summary()``, ``jax.block_until_ready(mcmc.get_samples())``) before
  the clock stops (case 351: LB102 at the run). A NumPyro run of one chain with its progress bar on reads every
  step back, and is not reported.
- `Kinds.library_step`: a module function of a JAX library that leaves jit to its user (Waymax) that steps a state
  (``state = datatypes.update_state_by_log(state, num_steps=1)``) is the library's whole step run op by op in a loop
  (case 352: LB114, and LB105 on the clock pair that straddles the scenario loop).
- LB115: NumPy arrays unpacked into a timed JAX call from a tuple (``args = x[:n], y[:n]``; ``f(*args)``) are copied
  to the device in every call (case 353).
- LB114 (`_a_library_as_its_users_call_it`): a harness repeating a transform of a library's function in a file that
  jits nothing times the library as its users call it (case 354: no LB114).
- `_regions`: benchopt times a solver's ``run`` alone (`_placement.benchopt_timed`); an executable compiled ahead of
  time (``.lower(...).compile()``) called there and stored unwaited is LB102 (case 356), and calling one is never a
  timing of compilation alone, whatever its name says.
"""

from __future__ import annotations

import textwrap

from levelbench.doctor import lint_source

from doctor_support import codes, lines, notebook_codes


# --- 351: a NumPyro sampler's run, read unwaited -------------------------------------------------------------------
MCMC_RUN = """
import time
import jax
{imports}

def model(X, Y):
    pass

def run_inference(rng, X, Y, num_chains):
    start = {clock}()
    kernel = {nuts}(model)
    {obj} = {mcmc}(kernel, num_warmup=500, num_samples=500, {chains})
    {obj}.run(rng, X, Y)
    {read}
    print("MCMC elapsed time:", {clock}() - start)
    return {obj}.get_samples()

def main():
    X = jax.numpy.zeros((50, 3))
    Y = jax.numpy.zeros(50)
    run_inference(jax.random.PRNGKey(0), X, Y, 4)

if __name__ == "__main__":
    main()
"""


def mcmc_run(imports="from numpyro.infer import MCMC, NUTS", clock="time.time", obj="mcmc", mcmc="MCMC", nuts="NUTS",
             chains="num_chains=num_chains", read="pass"):
    return MCMC_RUN.format(imports=imports, clock=clock, obj=obj, mcmc=mcmc, nuts=nuts, chains=chains, read=read)


def test_a_sampler_run_read_right_after_it_returns_is_unwaited():
    """numpyro#440 (case 351): ``mcmc.run(...)`` of ``MCMC(NUTS(model), ..., num_chains=...)`` between two clock
    reads, nothing reading the samples before the clock stops."""
    assert lines(codes(mcmc_run()), "LB102") == {13}


def test_the_sampler_written_other_ways_is_read_alike():
    twins = [
        mcmc_run(imports="import numpyro", mcmc="numpyro.infer.MCMC", nuts="numpyro.infer.NUTS"),
        mcmc_run(imports="import numpyro.infer as infer", mcmc="infer.MCMC", nuts="infer.NUTS", obj="sampler"),
        mcmc_run(imports="from numpyro.infer import MCMC as Sampler, NUTS", mcmc="Sampler"),
        mcmc_run(clock="time.perf_counter"),
        mcmc_run(chains="progress_bar=False"),
        mcmc_run(chains="num_chains=4, chain_method='parallel'"),
    ]
    for source in twins:
        assert lines(codes(source), "LB102") == {13}, source


def test_a_jaxopt_solver_run_in_a_helper_is_unwaited_too():
    source = """
    import time
    import jax.numpy as jnp
    from jaxopt import LBFGS

    def fun(w):
        return jnp.sum(w ** 2)

    def fit(w0):
        solver = LBFGS(fun=fun, maxiter=100)
        t0 = time.perf_counter()
        solver.run(w0)
        return time.perf_counter() - t0

    if __name__ == "__main__":
        print(fit(jnp.ones(10)))
    """
    assert lines(codes(source), "LB102") == {12}


def test_reading_the_samples_before_the_clock_stops_waits():
    """numpyro#446's fix (``mcmc.print_summary()`` first), and a wait on the samples: no LB102."""
    for read in ("mcmc.print_summary()", "jax.block_until_ready(mcmc.get_samples())",
                 "samples = mcmc.get_samples(); jax.block_until_ready(samples)"):
        assert not lines(codes(mcmc_run(read=read)), "LB102"), read


def test_one_chain_with_its_progress_bar_reads_every_step():
    """The report's single-chain run, whose progress bar reads each step back on the host, timed right."""
    for chains in ("num_chains=1", "progress_bar=True", "thinning=1"):
        assert not lines(codes(mcmc_run(chains=chains)), "LB102"), chains


def test_a_run_reading_every_step_waits_whether_its_result_is_kept_or_not():
    """One reading of a library object's run (`Facts.library_call`): NumPyro's ``SVI.run`` with its progress bar on
    reads every step's loss back on the host, so the run waits as it goes, as a statement or with its result bound
    (``result = svi.run(...)``; on 93cdbc0 the bound result was JAX work left pending, LB102). With the bar off it
    returns before the work is done, either way."""
    source = """
    import time
    import jax
    from numpyro.infer import SVI, Trace_ELBO

    def fit(model, guide, optim, key, x):
        svi = SVI(model, guide, optim, Trace_ELBO(){bar})
        t0 = time.perf_counter()
        {bound}svi.run(key, 2000, x)
        return time.perf_counter() - t0

    if __name__ == "__main__":
        print(fit(None, None, None, jax.random.PRNGKey(0), jax.numpy.ones(3)))
    """
    for bound in ("", "result = "):
        assert not lines(codes(source.format(bar="", bound=bound)), "LB102"), bound
        assert lines(codes(source.format(bar=", progress_bar=False", bound=bound)), "LB102") == {9}, bound


def test_the_sampler_in_notebook_cells():
    found = notebook_codes(
        "import time\nimport jax\nfrom numpyro.infer import MCMC, NUTS\ndef model(X):\n    pass",
        "X = jax.numpy.zeros(5)\nmcmc = MCMC(NUTS(model), num_warmup=10, num_samples=10, num_chains=2)",
        "start = time.time()\nmcmc.run(jax.random.PRNGKey(0), X)\nprint(time.time() - start)",
    )
    assert ("LB102", 3, 2) in found


def test_the_fix_does_not_wrap_a_run_that_returns_nothing():
    """``jax.block_until_ready(mcmc.run(...))`` would wait on None: the fix names the samples, and no edit is made."""
    found = [d for d in lint_source(textwrap.dedent(mcmc_run()), "bench.py") if d.code == "LB102"]
    assert len(found) == 1
    assert "mcmc.get_samples()" in found[0].finding.fix and found[0].fix is None


# --- 352: a JAX library's step function called eagerly in a timed loop ----------------------------------------------
REPLAY = """
import time
{imports}

def replay(data_iter):
    scenario = next(data_iter)
    start_time = {clock}()
    while scenario:
        state = scenario
        for _ in range(scenario.remaining_timesteps):
            state = {update}(state, num_steps=1)
        scenario = next(data_iter)
        end_time = {clock}()
        print("time cost: ", end_time - start_time)
        start_time = end_time

replay(iter(scenarios))
"""


def replay(imports="from waymax import datatypes", update="datatypes.update_state_by_log", clock="time.time"):
    return REPLAY.format(imports=imports, update=update, clock=clock)


def test_a_waymax_step_called_per_timestep_without_jit_is_op_by_op():
    """waymax#14 (case 352): ``datatypes.update_state_by_log(state, num_steps=1)`` once per timestep, no jit, between
    ``time.time()`` reads that straddle the scenario loop (``start_time = end_time``)."""
    found = codes(replay())
    assert lines(found, "LB114") == {11}
    assert lines(found, "LB105") == {7}


def test_the_step_written_other_ways_is_read_alike():
    twins = [
        replay(imports="import waymax.datatypes as wd", update="wd.update_state_by_log"),
        replay(imports="from waymax.datatypes import update_state_by_log", update="update_state_by_log"),
        replay(imports="from waymax.datatypes import update_state_by_log as step", update="step"),
        replay(imports="import waymax", update="waymax.datatypes.update_state_by_log"),
    ]
    for source in twins:
        found = codes(source)
        assert lines(found, "LB114") == {11} and lines(found, "LB105") == {7}, source
    steady = codes(replay(clock="time.perf_counter"))
    assert lines(steady, "LB114") == {11} and not lines(steady, "LB105")


def test_an_unimported_module_named_with_a_common_word_stays_unknown():
    """The issue's snippet has no imports. ``datatypes`` is a common word, not a name that means one library across
    the field (as ``jnp`` or ``np`` do, `_names.CONVENTIONAL`): unbound, it is not read as Waymax's module, so the
    snippet as posted draws nothing (review23; 93cdbc0 mapped it to ``waymax.datatypes`` for case 352)."""
    assert not codes(replay(imports=""))
    assert lines(codes(replay(imports="from waymax import datatypes")), "LB114") == {11}


def test_the_step_in_notebook_cells():
    found = notebook_codes(
        "import time\nfrom waymax import datatypes",
        "start = time.time()\nstate = scenario\nfor _ in range(80):\n"
        "    state = datatypes.update_state_by_log(state, num_steps=1)\nprint(time.time() - start)",
    )
    assert ("LB114", 2, 4) in found and ("LB105", 2, 1) in found


def test_a_jitted_step_or_a_call_that_steps_nothing_is_not_op_by_op():
    jitted = replay(update="step_jit").replace(
        "def replay", "import jax\nstep_jit = jax.jit(datatypes.update_state_by_log, static_argnames='num_steps')\n\n"
        "def replay", 1)
    assert not lines(codes(jitted), "LB114")
    # a call whose result is not fed back into it builds or reads something: not a step of the state
    reading = replay(update="datatypes.update_state_by_log").replace(
        "state = datatypes.update_state_by_log(state, num_steps=1)", "obs = datatypes.observation_of(state)")
    assert not lines(codes(reading), "LB114")


# --- 353: NumPy arrays handed to a jitted function through a starred tuple ------------------------------------------
SIZES = """
import timeit
{imports}
import jax

x = {np}.sort({np}.random.uniform(0, 10, 100_000))
y = {np}.sin(x)

@jax.jit
def loglike(x, y):
    return jax.numpy.sum(x * y)

for n in [10, 100, 1000]:
    args = {args}
    loglike(*args).block_until_ready()
    print(timeit.timeit(lambda: loglike(*args).block_until_ready(), number=100))
"""


def sizes(imports="import numpy as np", np="np", args="x[:n], y[:n]"):
    return SIZES.format(imports=imports, np=np, args=args)


def test_numpy_slices_unpacked_into_a_jitted_call_are_copied_in_every_timed_call():
    """tinygp's benchmark notebook (case 353): ``args = x[:n], y[:n]`` of NumPy data, ``f(*args)`` timed."""
    assert lines(codes(sizes()), "LB115") == {16}


def test_the_unpacked_arrays_written_other_ways_are_read_alike():
    twins = [
        sizes(imports="import numpy as onp", np="onp"),
        sizes(args="[x[:n], y[:n]]"),
        sizes(args="(x[:n], y[:n])"),
        sizes(args="x[:n], y"),
    ]
    for source in twins:
        assert lines(codes(source), "LB115") == {16}, source


def test_the_unpacked_arrays_in_notebook_cells():
    found = notebook_codes(
        "import numpy as np\nimport jax\nx = np.ones(1000)\ny = np.ones(1000)\n"
        "@jax.jit\ndef loglike(x, y):\n    return jax.numpy.sum(x * y)",
        "for n in [10, 100]:\n    args = x[:n], y[:n]\n    loglike(*args).block_until_ready()\n"
        "    results = %timeit -o loglike(*args).block_until_ready()",
    )
    assert ("LB115", 2, 4) in found


def test_device_copies_unpacked_are_not_copied_again():
    """The notebook's GPU solver gets ``jax.device_put`` copies made before its timing: nothing to report."""
    assert not lines(codes(sizes(args="jax.device_put(x[:n]), jax.device_put(y[:n])")), "LB115")
    assert not lines(codes(sizes(args="jax.numpy.asarray(x[:n]), jax.numpy.asarray(y[:n])")), "LB115")


# --- 354: a suite timing a library's functions as its users call them, eager by design ------------------------------
ASV = """
import jax
import jax.numpy as jnp
import gpjax as gpx
{extra}

class Gaussian:
    params = [[10, 100], [1, 2]]

    def setup(self, n, d):
        self.X = jnp.ones((n, d))
        self.data = gpx.Dataset(X=self.X, y=self.X[:, :1])
        self.objective = gpx.objectives.ConjugateMLL()
        self.posterior = gpx.gps.Prior(kernel=gpx.kernels.RBF()) * gpx.likelihoods.Gaussian(num_datapoints=n)

    def time_grad(self, n, d):
        jax.block_until_ready({transform}({function})(self.posterior, self.data))
"""


def asv(extra="", transform="jax.grad", function="self.objective.step"):
    return ASV.format(extra=extra, transform=transform, function=function)


def test_an_asv_method_timing_a_library_s_eager_gradient_is_not_op_by_op():
    """GPJax's asv ``objectives.py`` (case 354): nothing in the file is jitted; asv repeats the eager call."""
    assert not lines(codes(asv()), "LB114")


def test_the_suite_written_other_ways_is_read_alike():
    for transform in ("jax.value_and_grad", "jax.vmap"):
        assert not lines(codes(asv(transform=transform)), "LB114"), transform
    assert not lines(codes(asv(extra="from jax import grad as g", transform="g")), "LB114")
    bench = """
    import jax
    import gpjax as gpx

    objective = gpx.objectives.ConjugateMLL()

    def test_grad(benchmark, posterior, data):
        benchmark(lambda: jax.block_until_ready(jax.grad(objective.step)(posterior, data)))
    """
    assert not lines(codes(bench, "test_bench.py"), "LB114")


def test_a_suite_that_jits_elsewhere_or_differentiates_its_own_code_keeps_lb114():
    """Case 052's reading: beside compiled timings, the eager one misses its jit; a transform of the file's own
    function is the file's program run op by op."""
    jitted = asv(extra="step = jax.jit(gpx.objectives.ConjugateMLL().step)")
    assert lines(codes(jitted), "LB114") == {17}
    own = asv(extra="def loss(p, d):\n    return jnp.sum(d.X) * 2.0", function="loss")
    assert lines(codes(own), "LB114") == {18}


# --- 356: a benchopt solver's run calls an executable compiled ahead of time and stores it unwaited -----------------
BENCHOPT = """
{imports}
import jax
import jax.numpy as jnp


class Solver({base}):
    name = "OTT"

    def set_objective(self, x):
        self.x = jnp.array(x)
        self.solve = jax.jit(lambda x, n_iter: jnp.cumsum(x) * n_iter, static_argnames="n_iter")

    def pre_run_hook(self, n_iter):
        self._solve_compiled = self.solve.lower(self.x, n_iter).compile()

    def run(self, n_iter):
        self.out = {call}

    def get_result(self):
        return {{"x": jnp.asarray(self.out)}}
"""


def benchopt(imports="from benchopt import BaseSolver", base="BaseSolver", call="self._solve_compiled(self.x)"):
    return BENCHOPT.format(imports=imports, base=base, call=call)


def test_a_benchopt_run_storing_an_ahead_of_time_compiled_result_unwaited():
    """benchopt's OT benchmark (case 356): benchopt times ``run`` alone; the wait falls in ``get_result``."""
    assert lines(codes(benchopt()), "LB102") == {18}


def test_the_solver_written_other_ways_is_read_alike():
    twins = [
        benchopt(imports="import benchopt", base="benchopt.BaseSolver"),
        benchopt(imports="from benchopt import BaseSolver as Base", base="Base"),
        benchopt(call="self.solve(self.x, n_iter)"),  # the jitted function itself, compiled by pre_run_hook's call
    ]
    for source in twins:
        assert lines(codes(source), "LB102") == {18}, source


def test_a_run_that_waits_or_a_class_benchopt_does_not_time_is_quiet():
    assert not lines(codes(benchopt(call="jax.block_until_ready(self._solve_compiled(self.x))")), "LB102")
    assert not lines(codes(benchopt(imports="from mylib import BaseSolver")), "LB102")


def test_calling_an_ahead_of_time_compiled_executable_is_no_timing_of_compilation_alone():
    """A name saying 'compile' (``solve_compile``) is the executable ``.lower(...).compile()`` returned: calling it
    runs the program and compiles nothing, so the timing is not one of compilation alone (which LB102 leaves be)."""
    source = """
    import timeit
    import jax
    import jax.numpy as jnp

    x = jnp.ones(1000)
    solve_compile = jax.jit(jnp.cumsum).lower(x).compile()
    print(timeit.timeit(lambda: solve_compile(x), number=100))
    """
    assert lines(codes(source), "LB102") == {8}
