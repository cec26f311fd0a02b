"""An object built by a call handed ``name=<jitted callable>`` holds that callable as ``.name`` (case 332).

`levelbench.doctor._facts.Facts.held_attribute`: Flax's ``TrainState.create(apply_fn=jax.jit(model.apply), ...)``
keeps the freshly jitted ``model.apply`` as ``state.apply_fn``; a rollout later called as ``params.apply_fn(...)``
inside a clock pair compiles it there (LB103), however the state is built (a helper that returns it, inline, the jit
bound to a name first), named, timed (another clock) or split into notebook cells. A warm-up call of the held
callable before the clock, or a callable handed un-jitted, leaves LB103 out.
"""

from __future__ import annotations

import json
import textwrap

from levelbench.doctor import lint_source


def findings(source: str, path: str = "example.py") -> set[tuple[str, int]]:
    return {(d.code, d.location.line) for d in lint_source(textwrap.dedent(source), path)}


ROLLOUT = """
import time
import jax
import jax.numpy as jnp
from flax.training import train_state
import optax


def create_train_state(model, rng):
    params = model.init(rng, jnp.ones((1, 4)))
    return train_state.TrainState.create(apply_fn={apply_fn}, params=params, tx=optax.adam(3e-4))


def rollout(params, obs, n_steps):
    for _ in range(n_steps):
        obs = params.apply_fn(params.params, obs)
    obs.block_until_ready()


def main(models):
    for model in models:
        nn_state = create_train_state(model, jax.random.PRNGKey(0))
        {warm}
        start = time.{clock}()
        rollout(nn_state, jnp.ones((1, 4)), 100)
        print(time.{clock}() - start)


if __name__ == "__main__":
    main(MODELS)
"""


def rollout(apply_fn="jax.jit(model.apply)", warm="", clock="perf_counter"):
    return ROLLOUT.format(apply_fn=apply_fn, warm=warm, clock=clock)


TIMED_LINE = 25  # `rollout(nn_state, ...)` inside the clock pair


def test_a_rollout_of_a_state_handed_a_fresh_jit_times_its_compilation():
    assert ("LB103", TIMED_LINE) in findings(rollout())


def test_the_evidence_names_the_keyword_the_jit_was_handed_by():
    found = [d for d in lint_source(textwrap.dedent(rollout()), "example.py") if d.code == "LB103"]
    assert found and "apply_fn=jax.jit(model.apply)" in found[0].finding.evidence, [d.finding.evidence for d in found]


def test_another_clock_reads_alike():
    found = findings(rollout(clock="time"))
    assert ("LB103", TIMED_LINE) in found and ("LB105", TIMED_LINE - 1) in found


def test_a_warm_up_rollout_before_the_clock_leaves_the_compilation_out():
    found = findings(rollout(warm="rollout(nn_state, jnp.ones((1, 4)), 1)"))
    assert not any(code == "LB103" for code, _ in found), found


def test_a_callable_handed_un_jitted_compiles_nothing():
    found = findings(rollout(apply_fn="model.apply"))
    assert not any(code == "LB103" for code, _ in found), found


def test_the_jit_bound_to_a_name_before_it_is_handed_over_reads_alike():
    source = rollout().replace(
        "    return train_state.TrainState.create(apply_fn=jax.jit(model.apply),",
        "    policy = jax.jit(model.apply)\n    return train_state.TrainState.create(apply_fn=policy,",
    )
    assert "apply_fn=policy" in source
    assert ("LB103", TIMED_LINE + 1) in findings(source)


def test_a_state_built_inline_and_called_in_the_timing_reads_alike():
    source = """
    import time
    import jax
    import jax.numpy as jnp
    from flax.training.train_state import TrainState as State

    def bench(models, x):
        for model in models:
            state = State.create(apply_fn=jax.jit(model.apply), params=model.init(jax.random.PRNGKey(0), x), tx=None)
            t0 = time.perf_counter()
            y = state.apply_fn(state.params, x)
            y.block_until_ready()
            print(time.perf_counter() - t0)

    bench(MODELS, jnp.ones((1, 4)))
    """
    assert ("LB103", 11) in findings(source)


def test_notebook_cells_read_alike():
    source = textwrap.dedent(rollout())
    head, tail = source.split("\n\ndef main(models):\n")
    cells = [head, "def main(models):\n" + tail]
    notebook = json.dumps({
        "cells": [{"cell_type": "code", "metadata": {}, "source": c.splitlines(keepends=True)} for c in cells],
        "metadata": {"kernelspec": {"language": "python", "name": "python3"}}, "nbformat": 4, "nbformat_minor": 5,
    })
    found = [d for d in lint_source(notebook, "example.ipynb") if d.code == "LB103"]
    assert len(found) == 1 and found[0].location.cell == 2, found
