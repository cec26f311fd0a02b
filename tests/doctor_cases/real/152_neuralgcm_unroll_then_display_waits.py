# source: https://github.com/neuralgcm/neuralgcm/issues/197
# title: Hangups after unrolling
# established-by: maintainer shoyer ('JAX has asynchronous dispatch, so this to be expected ... Printing predictions the first time is slow because the underlying results are not available yet')
# cause: `model.unroll(...)` returns as soon as the rollout is queued, so the cell that calls it looks fast and the next cell, which only displays `predictions`, appears to hang: it is the one that waits for the rollout to finish. Nothing is timed with a clock: the user judged the speed of each cell by eye, so there is no timed region for a static doctor to report on. Code: the two snippets of the issue as posted (no imports; `model`, `initial_state`, `all_forcings`, `outer_steps` and `timedelta` come from the user's notebook).
# static: none
# dynamic: n/a
# inferred: none
# lines: none
# first-sight: 58b08e8 2026-12-03 py: found none; missed none; false none | notebook: found none; missed none; false none

final_state, predictions = model.unroll(
    initial_state,
    all_forcings,
    steps=outer_steps,
    timedelta=timedelta,
    start_with_input=True,
)
# %%
predictions
