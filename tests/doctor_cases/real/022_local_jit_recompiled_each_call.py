# source: https://github.com/jax-ml/jax/issues/2251
# title: `lax.scan` ~100x slower than recursion?
# established-by: maintainer shoyer
# cause: Defining the jitted helper inside the outer function creates a new function object on every call, so JAX traces and compiles it again each time (272 ms instead of 141 us).
# static: LB111
# dynamic: LB210
# inferred: none
# lines: LB111:25

import functools

@functools.partial(jit, static_argnums=(1,2,3))
def _pandemic_scan(state, step, t, T):
    return lax.scan(
        infect, 
        InfectState(x0, a), 
        np.full(T,step)
    )

def pandemic_scan(state, step=1, t=0, T=5):
    return _pandemic_scan(state, step, t, T)
# %%
def pandemic_scan(state, step=1, t=0, T=5):
    
    @functools.partial(jit, static_argnums=(1,2,3))
    def _pandemic_scan(state, step, t, T):
        return lax.scan(
            infect, 
            InfectState(x0, a), 
            np.full(T,step)
        )

    return _pandemic_scan(state, step, t, T)
