# source: https://github.com/waymo-research/waymax/issues/14
# title: Is this running speed normal?: a Waymax user times each validation scenario's log replay, `datatypes.update_state_by_log` called step by step in a Python loop, and gets about a second per scenario against the paper's 44K scenarios in under two minutes
# established-by: maintainer justinjfu
# cause: The reporter (jkewang) replays every scenario of the validation set with `datatypes.update_state_by_log(state, num_steps=1)` called once per remaining timestep in a Python loop, with no `jax.jit` anywhere, and prints the time of each scenario. justinjfu (Waymax team) answered 'We usually run our code with jit' and posted the same loop under `@jax.jit`; the reporter found the loop that took one second took about 0.007 seconds, 150 times faster. So the figure is op-by-op dispatch: Waymax's state update is a JAX library function that the library leaves to its user to jit, called eagerly on every step (LB114 at the call in the loop, the catalogue's `env.step` reading, as cases 163 and 313). What a correct doctor also reports, by the corpus's readings: each printed figure is read while the replayed state is still dispatched work that nothing waits for (LB102 at the same call; case 298's reading of an un-jitted step printed on every pass), on `time.time()` (LB105, at the read that starts the first interval). Each pass prints its own figure, the interval of the loop's reading (case 223), so no LB104; the `next(data_iter)` load inside each interval is part of the end-to-end figure the reporter compares with the paper's (case 258's reading), not LB115. The maintainer's jitted version is not entered (a later commenter reports it raises `TracerIntegerConversionError` on `range(state.remaining_timesteps)` under `jit`). Code: the reporter's snippet as posted (no imports), without the printed output.
# static: LB114, LB102, LB105
# dynamic: n/a
# inferred: LB102 (the state is never waited for; the thread discusses only the missing jit), LB105 (`time.time()` as the interval clock; not discussed)
# lines: LB114:20, LB102:20, LB105:15
# first-sight: f5b8aeb 2026-12-06 py: found none; missed LB102:20, LB105:15, LB114:20; false none | notebook: found none; missed LB102:20, LB105:15, LB114:20; false none

config = dataclasses.replace(_config.WOD_1_1_0_VALIDATION, max_num_objects=32)
data_iter = dataloader.simulator_state_generator(config=config)

scenario = next(data_iter)
start_time = time.time()

while scenario:
    state = scenario
    for _ in range(scenario.remaining_timesteps):
        state = datatypes.update_state_by_log(state, num_steps=1)
    print("remaining_timesteps: ", scenario.remaining_timesteps)
    scenario = next(data_iter)
    end_time = time.time()
    print("time cost: ", end_time - start_time)
    start_time = end_time
