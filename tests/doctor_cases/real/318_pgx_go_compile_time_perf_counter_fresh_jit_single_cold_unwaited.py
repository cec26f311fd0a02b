# source: https://github.com/sotetsuk/pgx/issues/194
# title: [Go] Jitコンパイル時間の短縮 (shortening the Go environment's JIT compile time): the way of measuring it, `time.perf_counter()` read around `jax.jit(func)(state)`, the first call of a freshly jitted environment function, once and without waiting for its result
# established-by: maintainer OkanoShinri (a Pgx core developer; the issue tracks the compile time of the Go environment's functions measured this way, and the team's later PR sotetsuk/pgx#291, for Backgammon, tabulates a 'compile time' per function the same way)
# cause: The issue means this figure as the compile time of one environment function, which is what it wants to shorten, and for that purpose the cold first call is the measurement. But a label is what a correct doctor reports on the code as posted (README, the retirement of 236 as 244): the snippet's names (`time_s`, `time_e`, `delta`) do not say that the figure is a compile, and nothing times the call again warm, so the corpus reads it as the first call of a freshly jitted function timed (LB103), one sample between two clock reads (LB104, at the first statement inside the pair) and a JAX result the clock does not wait for (LB102; the run of the step is dispatched and the clock stops), all at the one timed statement. `perf_counter` is a timer, so no LB105; the fresh `jax.jit` is not in a loop or a repeated timed statement, so no LB111. The thread states none of these readings; they are the catalogue's and the corpus's. Code: the snippet as posted in the issue (no imports or definitions of `func` and `state`).
# static: LB102, LB103, LB104
# dynamic: n/a
# inferred: LB102 (the result is not waited for; not discussed), LB103 (the first call of a freshly jitted function, not said to be a compile in the code; the purpose is in its title only), LB104 (one cold sample; not discussed)
# lines: LB102:12, LB103:12, LB104:12
# first-sight: 0228b9c 2026-12-06 py: found LB102:12 LB103:12 LB104:12; missed none; false none | notebook: found LB102:12 LB103:12 LB104:12; missed none; false none

time_s = time.perf_counter()
jax.jit(func)(state)
time_e = time.perf_counter()
delta=time_e - time_s
