# source: https://github.com/sotetsuk/pgx/issues/194
# title: [Go] Jitコンパイル時間の短縮 (shortening the Go environment's JIT compile time): the way of measuring it, `time.perf_counter()` read around `jax.jit(func)(state)`, the first call of a freshly jitted environment function
# established-by: maintainer OkanoShinri (a Pgx core developer; the issue tracks the compile time of the Go environment's functions, measured this way; the team's later PR sotetsuk/pgx#291, for Backgammon, tabulates a 'compile time' per function the same way)
# cause: Correct for what it measures: the compile time of one environment function, on purpose. `jax.jit(func)` is built and called once between two `perf_counter()` reads, so the figure is the trace and XLA compile of `func` at `state`'s shapes (plus one dispatch), which is the quantity the issue sets out to shorten; warming the call up or repeating it would take out what it measures (LB104's and LB103's compile-timed-on-purpose reading, cases 200, 202, 212). The fresh `jax.jit` per measurement is the point, not a cache miss in a repeated timing (LB111 is for a jit rebuilt inside a loop or a repeated timed statement). The result is not waited for, and the run of one game step is small beside a compile of seconds (the 0.05-5 s per function of #291's table), so the missing wait does not change the figure's meaning. Code: the snippet as posted in the issue (no imports or definitions of `func` and `state`; the issue measures each function of the Go environment this way).
# static: none
# dynamic: n/a
# inferred: none
# lines: none

time_s = time.perf_counter()
jax.jit(func)(state)
time_e = time.perf_counter()
delta=time_e - time_s
