# source: https://github.com/JaxionProject/jaxion-benchmarks/blob/085ca07fe1c0e6cd361f24cc572ebdfae6456817/benchmarks/benchmarks.py
# title: jaxion-benchmarks' asv suite `benchmarks/benchmarks.py`: jaxion's fuzzy-dark-matter simulations (dark matter only, with gas, with 1000 star particles) built in `setup` with their initial wave function and fields, and `time_*` methods that call `self.sim.run()` to the end time, once with snapshots saved to disk
# established-by: maintainer JaxionProject (the jaxion project's own asv benchmark repository; no issue discusses the benchmark's timing)
# cause: Correct for what the catalogue checks. Every `time_*` method is one call of `Simulation.run()`, which returns nothing the file uses: the simulation advances `self.sim.state` inside jaxion, and whether `run` compiles, loops on the host or waits for the device before returning is in jaxion, not in this file (no LB102 and no LB103 labelled; 476's and 491's reading of code not shown). The initial fields are JAX arrays built in `setup`, which asv runs outside the timed samples (no LB115), and asv repeats each method after its own warm-up (no LB104). `time_simulation_with_save` times the run with its snapshot writes on purpose, as its name says. The `peakmem_*` methods measure memory, not time. Noted, not labelled: asv reruns `setup` only between repeats, so calls within one repeat continue from the state the previous call left. A correct doctor stays quiet. Code: the file at commit 085ca07, unchanged.
# static: none
# dynamic: n/a
# inferred: none
# lines: none
# first-sight: 6043315 2026-12-06 py: found none; missed none; false none | notebook: found none; missed none; false none

# Write the benchmarking functions here.
# See "Writing benchmarks" in the asv docs for more information.

import jax.numpy as jnp
import jaxion


class DarkMatterBenchmarks:
    """
    Benchmark a dark matter only simulation
    """

    def setup(self):
        params = {"output": {"save": False}, "time": {"end": 0.1}}
        self.sim = jaxion.Simulation(params)
        fac = 2.0 * jnp.pi / 10.0
        xx, yy, _ = self.sim.grid
        self.sim.state["psi"] = jnp.sin(fac * xx) * jnp.cos(fac * yy) + 0.0j

    def time_simulation(self):
        self.sim.run()

    def peakmem_simulation(self):
        self.sim.run()

    def time_simulation_with_save(self):
        self.sim.params["output"]["save"] = True
        self.sim.run()

    def peakmem_simulation_with_save(self):
        self.sim.params["output"]["save"] = True
        self.sim.run()


class DarkMatterGasBenchmarks:
    """
    Benchmark a dark matter + gas simulation
    """

    def setup(self):
        params = {
            "physics": {"hydro": True},
            "time": {"end": 0.1},
            "output": {"save": False},
        }
        self.sim = jaxion.Simulation(params)
        fac = 2.0 * jnp.pi / 10.0
        xx, yy, _ = self.sim.grid
        self.sim.state["psi"] = jnp.sin(fac * xx) * jnp.cos(fac * yy) + 0.0j
        self.sim.state["rho"] = jnp.ones_like(xx)

    def time_simulation(self):
        self.sim.run()

    def peakmem_simulation(self):
        self.sim.run()


class DarkMatterStarsBenchmarks:
    """
    Benchmark a dark matter + stars simulation
    """

    def setup(self):
        params = {
            "physics": {"particles": True},
            "time": {"end": 0.1},
            "output": {"save": False},
            "particles": {"num_particles": 1000},
        }
        self.sim = jaxion.Simulation(params)
        fac = 2.0 * jnp.pi / 10.0
        xx, yy, _ = self.sim.grid
        self.sim.state["psi"] = jnp.sin(fac * xx) * jnp.cos(fac * yy) + 0.0j
        self.sim.state["rho"] = jnp.ones_like(xx)
        slin = jnp.linspace(0.01, self.sim.box_size - 0.01, 10)
        xx, yy, zz = jnp.meshgrid(slin, slin, slin, indexing="ij")
        self.sim.state["pos"] = jnp.stack(
            [xx.flatten(), yy.flatten(), zz.flatten()], axis=-1
        )
        self.sim.state["vel"] = jnp.zeros((self.sim.num_particles, 3))

    def time_simulation(self):
        self.sim.run()

    def peakmem_simulation(self):
        self.sim.run()
