# source: https://github.com/pyro-ppl/numpyro/issues/706
# title: Strange/interesting thing about speed
# established-by: maintainer martinjankowiak (pointing to JAX's asynchronous dispatch page; the author accepted it)
# cause: `sampler.run(...)` and `get_samples(...)` return as soon as the sampling is queued, so they look fast and the `print(sample_ws)` after them, which needs the values, takes the minutes the sampling really takes. The code times nothing with a clock (the author's 'Fast' and 'Slow' are by eye), so a static doctor has no timed region to report on. Code: the author's 'roughly' posted snippet (no imports; `sampler` and `rng_key` come from the user's script; `...` as posted).
# static: none
# dynamic: n/a
# inferred: none
# lines: none
# first-sight: 58b08e8 2026-12-03 py: found none; missed none; false none | notebook: found none; missed none; false none

sampler.run(
    rng_key,
    init_params=...,
    extra_fields=["mean_accept_prob"],
) # Fast
sample_ws = sampler.get_samples(group_by_chain=True) # Fast
print(sample_ws) # Slow
