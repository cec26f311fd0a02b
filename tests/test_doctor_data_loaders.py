"""A generator's epoch loop that yields only from a nested loop (case 298's data loader).

`levelbench.doctor._iteration.yields_batches`: each pass of such a loop hands its consumer a batch of items, so its
own operations (an epoch's shuffle) run once per batch, not once per item drawn: no LB114 at the epoch loop. A loop
that yields on each pass is read as before.
"""

from __future__ import annotations

import textwrap

import pytest

from levelbench.doctor import lint_source


def findings(source: str) -> set[tuple[str, int]]:
    return {(d.code, d.location.line) for d in lint_source(textwrap.dedent(source), "train.py")}


LOADER = """\
import jax
import jax.numpy as jnp
import jax.random as jrandom

def dataloader(arrays, batch_size, *, key):
    dataset_size = arrays[0].shape[0]
    indices = jnp.arange(dataset_size)
    while True:
        perm = jrandom.permutation(key, indices)
        (key,) = jrandom.split(key, 1)
        start, end = 0, batch_size
        {inner}
            batch_perm = perm[start:end]
            yield tuple(array[batch_perm] for array in arrays)
            start, end = end, end + batch_size

if __name__ == "__main__":
    xs = jnp.ones((256, 8))
    for step, (x,) in zip(range(1000), dataloader((xs,), 32, key=jrandom.PRNGKey(0))):
        print(step, x.shape)
"""


@pytest.mark.parametrize("inner", ["while end < dataset_size:", "for _ in range(dataset_size // batch_size):"])
def test_a_data_loader_s_epoch_loop_shuffles_once_per_batch_of_items(inner):
    """The shuffle runs once per epoch, each epoch yielding many batches: not op by op per item (case 298's 135)."""
    assert not any(line == 8 for code, line in findings(LOADER.format(inner=inner)) if code == "LB114")


def test_a_generator_loop_that_yields_each_pass_is_still_read_per_item():
    source = LOADER.format(inner="if True:").replace("if True:", "if end < dataset_size:")
    assert ("LB114", 8) in findings(source)
