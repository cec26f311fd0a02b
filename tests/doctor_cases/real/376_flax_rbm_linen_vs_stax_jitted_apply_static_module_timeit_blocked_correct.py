# source: https://github.com/google/flax/issues/912
# title: 4x slowdown in evaluation of RBM (Flax.linen vs jax.experimental.stax): the reporter's timing, one jitted `apply_fun` taking the model wrapper as a static argument, `%timeit` of a blocked call for the stax model and for the Flax linen model on the same input
# established-by: maintainer levskaya (marcvanzee marked the issue blocked by jax-ml/jax#5485, 'Flax increases jit dispatch cost by x4 compared to pure jax'; levskaya closed it after re-running the benchmarks: the gap was dispatch overhead, 65 µs against 255 µs then and 6.81 µs against 7.81 µs after a year of JAX's dispatch work, and none on a larger computation; jheek first read the timings as op-by-op, then, seeing the jit, called the gap 'strange')
# cause: Correct benchmark code for what it measures, the per-call cost of a jitted model evaluation on small inputs: the same jitted function is used for both models, `%timeit` without `-n` absorbs each model's compile in its calibration runs (case 175's reading), and every timed call ends in `.block_until_ready()`, so the figures are dispatch plus run, the overhead the reporter set out to compare (PhilipVinc: 'what I am measuring should be mainly the `python` cost ... So that's exactly a measurement of the overhead'). The static model argument is the same object on every call, so nothing recompiles; the py-spy trace in the thread showed the jitted call taking its slower Python path on every call, the dispatch overhead the JAX team later reduced. A correct doctor stays quiet. Code: the reporter's snippet as posted in the thread, the jitted function and its two `%timeit` lines as two cells (the model wrappers, parameters and input are built in the reporter's linked gist, not posted; the printed timings left out).
# static: none
# dynamic: n/a
# inferred: none
# lines: none
# first-sight: 35efc1f 2026-12-06 py: found none; missed none; false none | notebook: found none; missed none; false none

# %%
@partial(jax.jit, static_argnums=0)
def apply_fun(ma, w, x):
    return ma.apply(w, x)

# %%
%timeit _ = apply_fun(j_ma, j_w, x).block_until_ready()
%timeit _ = apply_fun(f_ma, f_w, x).block_until_ready()
