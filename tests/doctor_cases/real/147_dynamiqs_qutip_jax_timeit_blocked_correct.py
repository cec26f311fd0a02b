# source: https://github.com/dynamiqs/dynamiqs/blob/main/benchmarks/cat-cnot/qutip-jax-bench.py
# title: dynamiqs benchmarks/cat-cnot/qutip-jax-bench.py (the same CNOT master equation solved by QuTiP with its JAX backend, timed with %timeit)
# established-by: maintainer dynamiqs (the project's comparison benchmark, one script per library)
# cause: Correct benchmark code: QuTiP returns a Qobj whose JAX array sits behind `.data._jxa`, and the timed helper `blocked_mesolve` waits on that array (`.final_state.data._jxa.block_until_ready()`); one untimed call compiles the diffrax solve before `%timeit` times the helper, and the operators and initial state are built once outside the timing. `-r1` asks for one timing run of as many loops as %timeit chooses. Code: the script as stored (commit bd5696d).
# static: none
# dynamic: n/a
# inferred: none
# lines: none
# first-sight: cfe09ac 2026-12-03 py: found none; missed none; false none | notebook: found none; missed none; false none

import qutip_jax as qjax
import qutip as qt
import jax.numpy as jnp

# global options
qt.settings.core['default_dtype'] = 'jaxdia' # 'jaxdia' or 'jax'

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
ac = qt.tensor(qt.destroy(N), qt.qeye(N))
nt = qt.tensor(qt.qeye(N), qt.num(N))
i = qt.tensor(qt.qeye(N), qt.qeye(N))
H = g_cnot * (ac + ac.dag()) @ (nt - nbar * i)
c_ops = [jnp.sqrt(kappa_2) * (ac @ ac - nbar * i)]

# initial state
with qt.CoreOptions(default_dtype='jax'):
    plus = (qt.coherent(N, alpha) + qt.coherent(N, -alpha)).unit()
    psi0 = qt.tensor(plus, plus)

# options
options = {'method': 'diffrax', 'normalize_output': False}

# function to benchmark
def blocked_mesolve(*args, **kwargs):
    return qt.mesolve(*args, **kwargs).final_state.data._jxa.block_until_ready()

blocked_mesolve(H, psi0, tsave, c_ops=c_ops, options=options)
%timeit -r1 blocked_mesolve(H, psi0, tsave, c_ops=c_ops, options=options)
