# source: https://github.com/patrick-kidger/diffrax/issues/518
# title: [Regression] Slower integration of differential equations since jaxlib > 0.4.32.dev20240807
# established-by: maintainer seantalts (jax-ml/jax#26145, which the diffrax reports point to: 'the thunk runtime has significantly degraded performance for many kinds of small models'; the old runtime restores the speed)
# cause: A regression of XLA's CPU runtime (the thunk runtime, on by default from jaxlib 0.4.32) that makes loops of many small kernels slower; a cause outside the benchmark that the catalogue has no code for. The posted timing is sound: the solve is jitted once, run once and blocked before timing, and timeit runs the blocked call 100 times and divides.
# static: none
# dynamic: n/a
# inferred: none
# lines: none
# first-sight: 8417a81 2026-12-02 py: found none; missed none; false none | notebook: found none; missed none; false none

import timeit

import numpy as np
import diffrax
import jax
import jax.numpy as jnp
from diffrax import diffeqsolve, Tsit5, ODETerm, SaveAt, PIDController, StepTo

def ODE(t, y, args):
    return jnp.cos(y)  

t_out = np.linspace(0, 20, 10)  
t_steps = np.linspace(0, 20, 10000) 

stepsize_controller = StepTo(ts=t_steps)
saveat = SaveAt(ts=t_out)

term = ODETerm(ODE)
y0 =1.
f = lambda y0: diffeqsolve(term, Tsit5(), t0=t_out[0], t1=t_out[-1], dt0=None, y0=y0, saveat=saveat,
			   stepsize_controller=stepsize_controller, max_steps=len(t_steps))
f = jax.jit(f)

solution = jax.block_until_ready(f(y0))

def f_timer():
    jax.block_until_ready(f(1.))    
runtime = timeit.timeit(f_timer, number=100)/100*1000
print(f"Runtime: {runtime:.3f} ms")
