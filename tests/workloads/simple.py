"""Test workloads for `levelbench run --workload tests/workloads/simple.py:NAME`."""

import os
import time

import numpy as np

import levelbench
from levelbench.workloads import Param, Workload


def _sleepy(ms: float, seed: int):
    # the slowed candidate sleeps LEVELBENCH_TEST_SLEEP_MS extra, for regression tests
    extra = float(os.environ.get("LEVELBENCH_TEST_SLEEP_MS", "0")) / 1e3
    x = np.random.default_rng(seed).standard_normal(64)

    def base(x):
        time.sleep(ms / 1e3)
        return x * 2

    def slowed(x):
        time.sleep(ms / 1e3 + extra)
        return x * 2

    return {"base": levelbench.Candidate(base, (x,)), "slowed": levelbench.Candidate(slowed, (x,))}


SLEEPY = Workload("sleepy", "two sleeps", _sleepy, params=[Param("ms", 2.0, float, "sleep per call")], baseline="base")


def _crash(seed: int):
    os._exit(3)


CRASH = Workload("crash", "a worker that dies", _crash)


def _hang(seed: int):
    folder = os.environ.get("LEVELBENCH_TEST_PAUSE_DIR")  # a test waiting for this build to have begun
    if folder:
        with open(os.path.join(folder, "hanging"), "w") as out:
            out.write(str(os.getpid()))
    time.sleep(3600)


HANG = Workload("hang", "a worker that never returns", _hang)


def _raise(seed: int):
    raise RuntimeError("deliberate failure in build")


RAISE = Workload("raise", "a build that raises", _raise)
