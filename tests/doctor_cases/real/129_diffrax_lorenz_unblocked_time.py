# source: https://github.com/patrick-kidger/diffrax/issues/606
# title: Slow jit of diffeqsolve since v0.6.1
# established-by: maintainer patrick-kidger's tracker (the reporter confirms the maintainers' answer: the old XLA CPU runtime, '--xla_cpu_use_thunk_runtime=false', restores the speed)
# cause: The slowdown is XLA's new CPU runtime (jaxlib 0.4.32 on), a cause outside the benchmark the catalogue has no code for. The posted measurement has its own faults: neither timed solve is waited for (diffeqsolve runs under filter_jit and returns device arrays; nothing reads them before the clock stops), and the clock is time.time(). The first timing includes compilation on purpose ('Jit + Integration time') and is not labelled LB103. Code: the reporter's MWE.
# static: LB102, LB104, LB105
# dynamic: n/a
# inferred: LB102 (the thread did not discuss blocking), LB104 (each figure is one time() sample of one solve: the first of a cold call, the second of a warm one), LB105 (time() as the interval clock)
# lines: LB102:46/50, LB104:46/50, LB105:45/49
# first-sight: 8417a81 2026-12-02 py: found none; missed LB102:46/50, LB104:46/50, LB105:45/49; false none | notebook: found none; missed LB102:46/50, LB104:46/50, LB105:45/49; false none

import os
os.environ['XLA_FLAGS'] = '--xla_cpu_use_thunk_runtime=false'

from time import time

import diffrax as dfx
import jax
import jax.numpy as jnp

jax.config.update("jax_enable_x64", True)

def lorenz(t, y, args):
    dy0dt = 10*(y[1] - y[0])
    dy1dt = y[0]*(28 - y[2]) - y[1]
    dy2dt = y[0]*y[1] - 8/3*y[2]
    return jnp.array([dy0dt, dy1dt, dy2dt])

def solve(ts, y0):
    solution = dfx.diffeqsolve(
        dfx.ODETerm(lorenz),
        dfx.Tsit5(),
        t0=ts[0],
        t1=ts[-1],
        dt0=None,
        y0=y0,
        stepsize_controller=dfx.PIDController(rtol=1e-4, atol=1e-6, pcoeff=0.4, icoeff=0.3),
        saveat=dfx.SaveAt(ts=ts),
        max_steps=None
    )
    return solution.ys, solution.stats

ts = jnp.arange(3000)
y0 = jnp.array([0., 1., 1.05])

t_jit_start = time()
y_pred, stats = solve(ts, y0)
t_jit_stop = time()

t_start = time()
y_pred, stats = solve(ts, y0)
t_stop = time()

print(
    f"Jax: {jax.__version__}, Diffrax: {dfx.__version__}\n"
    f"Jit + Integration time: {t_jit_stop - t_jit_start:.4f}\nIntegration time: {t_stop - t_start:.4f}\nNo. of steps: {stats['num_steps']}"
)
