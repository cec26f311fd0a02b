# source: https://github.com/pymc-devs/nutpie/issues/157
# title: pymc-devs/nutpie#157 ('JAX backend fails for a simple `pymc` linear regression model'): the maintainer's two snippets, posted for the reporter to run on an Apple machine, timing `nutpie.compile_pymc_model` and then one `nutpie.sample` of the same PyMC linear regression (10,000 rows) with the JAX backend and with the Numba backend (JAX gradients in both), each between two `time.time()` reads
# established-by: maintainer aseyboldt (nutpie's author: 'Yes, definitely needs a fix, I'll push one soon', then asked for 'the compile and the runtime ... each time' with these snippets)
# cause: The thread is about a failure of nutpie's JAX backend, which aseyboldt acknowledged and fixed; the snippets are his request to see compile time and sampling time apart for the JAX and the Numba backends. What a correct doctor reports on them, by the catalogue and the corpus's readings: each sampling figure ('Time for nutpie ... sampling is t=...s') is one end-to-end `nutpie.sample` between two clock reads, with no repeat (LB104 at both `trace = nutpie.sample(compiled)` lines, the first statement inside each clock pair; 429's reading of one PyMC-with-a-JAX-backend fit timed once), and every interval, compile and sampling, is read with `time.time()` (LB105 at the four `t0 = time.time()` start reads). Not labelled: the compile is timed on purpose as its own figure, once, which is what it measures (no LB104 there, 408's reading; no LB103); `nutpie.sample` returns an ArviZ trace on the host, so nothing is left unwaited (no LB102); the JIT work the sampler does on its first draws is part of the end-to-end figure the snippet means (429's reading, no LB103). `generate_data`, `make_model` and the imports come from the reporter's earlier post and are not repeated here, as in the comment. Code: the comment's two code blocks, one cell each, unchanged.
# static: LB104, LB105
# dynamic: n/a
# inferred: LB104 (each sampling figure is one run; not discussed), LB105 (time.time(); not discussed)
# lines: LB104:22/39, LB105:17/21/34/38
# first-sight: e4a92af 2026-12-06 py: found none; missed LB104:22/39, LB105:17/21/34/38; false none | notebook: found none; missed LB104:22/39, LB105:17/21/34/38; false none

# %%
frame = generate_data(num_samples=10_000)
model = make_model(frame)

kwargs = dict(backend="jax", gradient_backend="jax")

t0 = time.time()
compiled = nutpie.compile_pymc_model(model, **kwargs)
print(f"compile time: {time.time() - t0}")

t0 = time.time()
trace = nutpie.sample(compiled)
t = time.time() - t0
print(f"Time for nutpie (compiled, {kwargs=}) sampling is {t=:.3f}s.")
summary = az.summary(trace, var_names=["beta", "sigma"], round_to=4).loc[:, ["mean", "hdi_3%", "hdi_97%", "ess_bulk", "ess_tail", "r_hat"]]
print(summary)

# %%
frame = generate_data(num_samples=10_000)
model = make_model(frame)

kwargs = dict(backend="numba", gradient_backend="jax")

t0 = time.time()
compiled = nutpie.compile_pymc_model(model, **kwargs)
print(f"compile time: {time.time() - t0}")

t0 = time.time()
trace = nutpie.sample(compiled)
t = time.time() - t0
print(f"Time for nutpie (compiled, {kwargs=}) sampling is {t=:.3f}s.")
summary = az.summary(trace, var_names=["beta", "sigma"], round_to=4).loc[:, ["mean", "hdi_3%", "hdi_97%", "ess_bulk", "ess_tail", "r_hat"]]
print(summary)
