# source: https://github.com/AdirondaxProject/adirondax-benchmarks/blob/c029f6c98de6c8a3a98a26acb77e2fc6517be6c3/benchmarks/bench_inverse_problem.py
# title: adirondax-benchmarks' asv suite `benchmarks/bench_inverse_problem.py`: `InverseProblemSuite.time_forward_model` times a 128x128 quantum/gravity forward simulation of adirondax and `time_inverse_problem` an L-BFGS-B fit (jaxopt's `ScipyMinimize`) of the initial phase to a target image through a `@jax.jit` loss defined inside the solve, both returning nothing of the JAX result they compute
# established-by: maintainer AdirondaxProject (the adirondax project's own asv benchmark repository; no issue discusses the benchmark's timing)
# cause: What a correct doctor reports, by the catalogue and the corpus's readings. asv times each `time_*` method's call and ignores what it returns; here the methods call `run_forward_model` and `solve_inverse_problem` and drop their results, the last JAX operations of which (`jnp.angle` and `jnp.mean` of the simulated wave function; `jnp.mod` and `jnp.mean` of the fitted phase) nothing waits for, so on an accelerator asv's clock can stop at dispatch of the forward simulation's result (LB102, at the call in `time_forward_model`; 300's, 355's and 478's reading of asv `time_*` methods that leave JAX results unwaited). In `time_inverse_problem` the bulk of the work is read back: jaxopt's `ScipyMinimize` hands every loss and gradient to SciPy's L-BFGS-B on the host as NumPy values, so only the final `jnp.mod` and `jnp.mean` of a 128x128 phase are left queued when the clock stops (microseconds next to the fit; no LB102 labelled there). `solve_inverse_problem` applies `@jax.jit` to a `loss_function` closure it defines on every call, so each timed solve traces and compiles the loss again and asv's warm-up cannot absorb the compile (LB111, at the decorator; 022's maintainer-established reading of a jitted helper defined inside the function that is called, which labels LB111 alone there). Not labelled: whether `adx.Simulation.run`, built afresh in every timed call, compiles or waits is in adirondax, not in this file (476's reading of code not shown); the target image is read and put on the device in `setup`, outside the timing (no LB115); `dtype=float` asks jnp for its default float, not for float64 (no LB108). The `peakmem_*` methods measure memory, not time. Code: the file at commit c029f6c, unchanged.
# static: LB102, LB111
# dynamic: n/a
# inferred: LB102 (asv `time_*` methods drop JAX results without waiting; the catalogue's reading, as in 300, 355 and 478, not discussed), LB111 (`@jax.jit` on a closure defined inside the timed solve; 022's reading, not discussed)
# lines: LB102:89, LB111:73
# first-sight: 6043315 2026-12-06 py: found none; missed LB102:89, LB111:73; false none | notebook: found none; missed LB102:89, LB111:73; false none

import jax
import jax.numpy as jnp
import adirondax as adx
from jaxopt import ScipyMinimize
import matplotlib.image as img
import os

# Write the benchmarking functions here.
# See "Writing benchmarks" in the asv docs for more information.


class InverseProblemSuite:
    """
    A benchmark that times the performance of an inverse problem.
    """

    def setup(self):
        file_path = os.path.join(os.path.dirname(__file__), "target.png")
        target_data = img.imread(file_path)[:, :, 0]
        self.rho_target = jnp.flipud(jnp.array(target_data, dtype=float))
        self.rho_target = 1.0 - 0.5 * (self.rho_target - 0.5)
        self.rho_target /= jnp.mean(self.rho_target)

        n = 128
        nt = 100
        t_stop = 0.03
        dt = t_stop / nt
        self.params = {
            "physics": {
                "hydro": False,
                "magnetic": False,
                "quantum": True,
                "gravity": True,
            },
            "mesh": {
                "type": "cartesian",
                "resolution": [n, n],
                "boxsize": [1.0, 1.0],
            },
            "simulation": {
                "stop_time": t_stop,
                "timestep": dt,
                "n_timestep": nt,
            },
        }

    def run_forward_model(self):
        sim = adx.Simulation(self.params)
        xlin = jnp.linspace(0.0, 1.0, self.params["mesh"]["resolution"][0])
        x, y = jnp.meshgrid(xlin, xlin, indexing="ij")
        theta = -jnp.exp(-((x - 0.5) ** 2 + (y - 0.5) ** 2))
        sim.state["t"] = 0.0
        sim.state["psi"] = jnp.exp(1.0j * theta)
        sim.run()
        theta = jnp.angle(sim.state["psi"])
        return jnp.mean(theta)

    def solve_inverse_problem(self):
        assert self.rho_target.shape[0] == 128

        sim = adx.Simulation(self.params)

        @jax.jit
        def loss_function(theta, rho_target):
            sim.state["t"] = 0.0
            sim.state["psi"] = jnp.exp(1.0j * theta)
            sim.run()
            rho = jnp.abs(sim.state["psi"]) ** 2
            return jnp.mean((rho - rho_target) ** 2)

        opt = ScipyMinimize(method="l-bfgs-b", fun=loss_function, tol=1e-5)
        theta = jnp.zeros_like(self.rho_target)
        sol = opt.run(theta, self.rho_target)
        theta = jnp.mod(sol.params, 2.0 * jnp.pi) - jnp.pi

        return jnp.mean(theta)

    def time_forward_model(self):
        self.run_forward_model()

    def time_inverse_problem(self):
        self.solve_inverse_problem()

    def peakmem_forward_model(self):
        self.run_forward_model()

    def peakmem_inverse_problem(self):
        self.solve_inverse_problem()
