# source: https://github.com/google/brax/issues/349
# title: google/brax#349 'brax very slow?': the reply's example that jits `env.reset` and `env.step` of a 'generalized' halfcheetah and prints `time.time()` intervals for one reset and for five steps, each step's interval printed on its pass
# established-by: answer by oarriaga (the reply's example, posted to show that the jitted environment 'works'; btaba, a Brax maintainer, closed the issue, 'please re-open if you have any issues with jitted speed'; only the reply, a 'profiled it' comment and the closing are readable here, not the report's code)
# cause: The thread's point is that Brax must be jitted to be fast; the reply shows `jax.jit(env.reset)` and `jax.jit(env.step)` and times them. What a correct doctor reports on that example, by the catalogue and the corpus's readings: the 'sec to RESET' figure is the first call of the freshly jitted `reset`, so it holds the trace and the compile (LB103), its returned state is never waited for before the clock is read again (LB102), it is one call between two clock reads, not timed again warm (LB104, at the first statement inside the clock pair; the compile is not 'timed on purpose' in 224's sense, no warm figure follows it); in the loop, the first pass's `step(...)` compiles the jitted step inside the printed interval (LB103 at the step call, 383's reading of a jitted function first called inside a printed timing loop), and no pass waits for the returned state (LB102 at the step call); each interval is printed on its own pass, so no LB104 there (223's reading); and every interval is read with `time.time()` (LB105 at both start reads). The per-step key split and action draw inside the timed pass are bookkeeping beside one jitted step, not LB114 (336's reading). Code: the reply's example as posted, unchanged.
# static: LB103, LB102, LB104, LB105
# dynamic: n/a
# inferred: LB103 (the first calls of the jitted reset and step are timed; not discussed), LB102 (no timed call is waited for; not discussed), LB104 (the reset is one sample; not discussed), LB105 (`time.time()` as the interval clock; not discussed)
# lines: LB103:20/26, LB102:20/26, LB104:20, LB105:19/23

import time
import jax
from brax import envs

env = envs.create(env_name='halfcheetah', backend='generalized')
reset = jax.jit(env.reset)
step = jax.jit(env.step)
seed = jax.random.PRNGKey(777)
reset_seed, state_seed = jax.random.split(seed)
t = time.time()
state = reset(reset_seed)
print(f"{time.time() - t:.3f} sec to RESET")
for i in range(5):
    t = time.time()
    state_seed, seed = jax.random.split(state_seed)
    jax_action = jax.random.normal(seed, (env.action_size,))
    state = step(state=state, action=jax_action)
    print(f"{time.time() - t:.3f} sec to STEP")
