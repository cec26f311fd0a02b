# source: https://github.com/jax-ml/jax/issues/802
# title: REPL latency issue
# established-by: maintainer hawkinsp
# cause: JAX dispatches asynchronously: the jitted g returns a future at once, so %time of foo.factors.sum() measures only the dispatch (microseconds) while the printed value waits about a minute for the computation still running. Code: the two snippets of the issue, as posted (the first is pseudocode).
# static: LB100, LB102
# dynamic: n/a
# inferred: LB100 (`def f(self,...):` does not parse, so the first snippet cannot be read)
# lines: LB100:11, LB102:18
# first-sight: b744741 2026-12-02 py: found LB100:11; missed LB102:18; false none | notebook: found LB100:11; missed LB102:18; false none

def f(self,...):
    @jit
    def g(...):
        stuff g does
    x = g(...)
    self.factors = x
# %%
%time foo.factors.sum()
