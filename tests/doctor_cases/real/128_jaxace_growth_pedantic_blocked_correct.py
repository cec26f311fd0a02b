# source: https://github.com/CosmologicalEmulators/jaxace/blob/main/benchmarks/test_growth_benchmarks.py
# title: jaxace benchmarks/test_growth_benchmarks.py (paired pytest-benchmark timings of the growth factor, primal and gradient)
# established-by: maintainer CosmologicalEmulators (the project's own benchmark suite: "compilation excluded and every result synchronized")
# cause: Correct benchmark code: each test builds one `jax.jit` of the prediction or of its gradient (a conditional expression picks which), calls it once and waits for it before timing, then times it with `benchmark.pedantic` over a lambda that waits for every result with `jax.block_until_ready`, with warm-up rounds; the inputs are JAX arrays made outside the timing. The reference implementation is loaded from git by a fixture, outside any timing. Code: the file as stored (commit 4e11d4f).
# static: none
# dynamic: n/a
# inferred: none
# lines: none
# first-sight: c3b020c 2026-12-02 py: found none; missed none; false none | notebook: found none; missed none; false none

"""Paired CPU growth timings; compilation excluded and every result synchronized.

Run from a git checkout with Gerrit's 4a5871a reference available.
"""
import subprocess
import sys
import types

import jax
import jax.numpy as jnp
import pytest

from jaxace import background


@pytest.fixture(scope="module")
def original():
    source = subprocess.check_output(
        ["git", "show", "4a5871a:jaxace/background.py"], text=True
    )
    module = types.ModuleType("jaxace._growth_reference")
    module.__package__ = "jaxace"
    sys.modules[module.__name__] = module
    exec(compile(source, "growth_reference_4a5871a.py", "exec"), module.__dict__)
    return module


@pytest.mark.parametrize("implementation", ["original", "current"])
@pytest.mark.parametrize("mode", ["primal", "gradient"])
def test_growth(benchmark, original, implementation, mode):
    module = original if implementation == "original" else background
    z = jnp.linspace(0., 5., 50)
    def prediction(x):
        return module.D_z(z, x[0], x[1], mν=x[2], species="m")
    fn = jax.jit(prediction if mode == "primal" else jax.grad(lambda x: prediction(x).sum()))
    x = jnp.array([.3, .67, .06])
    jax.block_until_ready(fn(x))
    benchmark.pedantic(lambda: jax.block_until_ready(fn(x)),
                       rounds=50, iterations=1, warmup_rounds=5)


@pytest.mark.parametrize("policy", ["temperature", "radiation"])
@pytest.mark.parametrize("species", ["cb", "m"])
@pytest.mark.parametrize("mode", ["primal", "gradient"])
def test_neff_growth(benchmark, policy, species, mode):
    z=jnp.linspace(0.,5.,50)
    def prediction(x):
        return background.D_z(z,x[0],x[1],mν=x[2:5],Neff=x[5],
            neutrino_prescription=policy,species=species,reltol=1e-10,abstol=1e-12)
    fn=jax.jit(prediction if mode=="primal" else jax.grad(lambda x: prediction(x).sum()))
    x=jnp.array([.31,.67,0.,.02,.05,4.])
    jax.block_until_ready(fn(x))
    benchmark.pedantic(lambda: jax.block_until_ready(fn(x)),
                       rounds=50,iterations=1,warmup_rounds=5)
