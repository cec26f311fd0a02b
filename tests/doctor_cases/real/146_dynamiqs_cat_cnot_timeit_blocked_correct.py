# source: https://github.com/dynamiqs/dynamiqs/blob/main/benchmarks/cat-cnot/dynamiqs-bench.py
# title: dynamiqs benchmarks/cat-cnot/dynamiqs-bench.py (a cat-qubit CNOT master equation timed with %timeit against QuTiP and QuantumOptics.jl)
# established-by: maintainer dynamiqs (the project's comparison benchmark, one script per library)
# cause: Correct benchmark code: the timed helper `blocked_mesolve` waits for the solver's states with `.block_until_ready()` and returns them, one untimed call compiles the solver before `%timeit` times the helper, and the operators, initial state and save times are built once outside the timing. `-r1` asks for one timing run of as many loops as %timeit chooses, not for one call. Code: the script as stored (commit dab1bd2).
# static: none
# dynamic: n/a
# inferred: none
# lines: none
# first-sight: cfe09ac 2026-12-03 py: found none; missed none; false none | notebook: found none; missed none; false none

import dynamiqs as dq
import jax.numpy as jnp

# global settings
dq.set_layout('dia') # 'dense' or 'dia'
dq.set_device('cpu') # 'cpu' or 'gpu'

# parameters
kappa_2 = 1.0
g_cnot = 0.3
nbar = 4.0
num_tsave = 100
N = 32

# save times
alpha = jnp.sqrt(nbar)
gate_time = jnp.pi / (4 * alpha * g_cnot)
tsave = jnp.linspace(0.0, gate_time, num_tsave)

# operators
ac = dq.tensor(dq.destroy(N), dq.eye(N))
nt = dq.tensor(dq.eye(N), dq.number(N))
i = dq.tensor(dq.eye(N), dq.eye(N))
H = g_cnot * (ac + dq.dag(ac)) @ (nt - nbar * i)
jump_ops = [jnp.sqrt(kappa_2) * (ac @ ac - nbar * i)]

# initial state
plus = dq.unit(dq.coherent(N, alpha) + dq.coherent(N, -alpha))
psi0 = dq.tensor(plus, plus)

# options
options = dq.Options(progress_meter=None)
solver = dq.solver.Tsit5(atol=1e-8, rtol=1e-6)

# run benchmark
def blocked_mesolve(*args, **kwargs):
    return dq.mesolve(*args, **kwargs).states.data.block_until_ready()

blocked_mesolve(H, jump_ops, psi0, tsave, options=options, solver=solver)
%timeit -r1 blocked_mesolve(H, jump_ops, psi0, tsave, options=options, solver=solver)
