# source: https://github.com/dynamiqs/dynamiqs/blob/e2f66f9dc4578a380d75d78a4028fc431ba6be04/benchmarks/kerr-oscillator/dynamiqs-bench.py
# title: dynamiqs `benchmarks/kerr-oscillator/dynamiqs-bench.py`: a batch of 20 driven Kerr oscillators solved with `dq.mesolve`, warmed once and timed with `%timeit` of a blocking wrapper
# established-by: maintainer dynamiqs (the project's cross-library benchmark scripts, beside QuTiP and QuantumOptics.jl versions)
# cause: Correct benchmark code: `blocked_mesolve` returns `dq.mesolve(...).states.data.block_until_ready()`, so every timed run waits for the states; it is called once before `%timeit` (the compile lands there, and `%timeit`'s calibration would absorb it anyway); the Hamiltonians, jump operators and save times are JAX arrays built before the timing; the batch over the 20 drive amplitudes is one batched solve, not a Python loop. Code: the file as stored at commit e2f66f9, unchanged (the `%timeit` line is IPython syntax as posted).
# static: none
# dynamic: n/a
# inferred: none
# lines: none
# first-sight: 9c65424 2026-12-06 py: found none; missed none; false none | notebook: found none; missed none; false none

import dynamiqs as dq
import jax.numpy as jnp

# global settings
dq.set_layout('dia') # 'dense' or 'dia'
dq.set_device('cpu') # 'cpu' or 'gpu'

# parameters
K = 1.0
epsilons = jnp.linspace(0.0, 0.5, 20)
kappa = 0.1
alpha = 2.0
num_tsave = 100
N = 32

# save times
gate_time = jnp.pi / K
tsave = jnp.linspace(0.0, gate_time, num_tsave)

# operators
a, adag = dq.destroy(N), dq.create(N)
Hs = K * adag @ adag @ a @ a + epsilons[:, None, None] * (a + adag)
jump_ops = [jnp.sqrt(kappa) * a]

# initial state
psi0 = dq.coherent(N, alpha)

# options
options = dq.Options(progress_meter=None)
solver = dq.solver.Tsit5(atol=1e-8, rtol=1e-6)

# run benchmark
def blocked_mesolve(*args, **kwargs):
    return dq.mesolve(*args, **kwargs).states.data.block_until_ready()

blocked_mesolve(Hs, jump_ops, psi0, tsave, options=options, solver=solver)
%timeit blocked_mesolve(Hs, jump_ops, psi0, tsave, options=options, solver=solver)
