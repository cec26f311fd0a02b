# source: https://github.com/pytorch/pytorch/blob/main/torch/utils/benchmark/examples/simple_timeit.py
# title: torch.utils.benchmark example: simple_timeit.py
# established-by: maintainer pytorch (PyTorch's own benchmark example)
# cause: Correct benchmark: torch.utils.benchmark.Timer warms up, synchronises and repeats by itself.
# static: none
# dynamic: n/a
# inferred: none
# lines: none

# mypy: allow-untyped-defs
"""Trivial use of Timer API:

$ python -m examples.simple_timeit
"""

import torch

import torch.utils.benchmark as benchmark_utils


def main():
    timer = benchmark_utils.Timer(
        stmt="x + y",
        globals={"x": torch.ones((4, 8)), "y": torch.ones((1, 8))},
        label="Broadcasting add (4x8)",
    )

    for i in range(3):
        print(f"Run: {i}\n{'-' * 40}")
        print(f"timeit:\n{timer.timeit(10000)}\n")
        print(f"autorange:\n{timer.blocked_autorange()}\n\n")


if __name__ == "__main__":
    main()
