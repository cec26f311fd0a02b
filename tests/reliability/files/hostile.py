"""Workloads a hostile user might write, for `levelbench run -w tests/reliability/files/hostile.py:NAME`."""

import os
import time

import numpy as np

import levelbench
from levelbench.workloads import Param, Skipped, Workload


def _quick(seed: int, ms: float = 0.0):
    x = np.arange(8.0)
    return {"a": levelbench.Candidate(lambda x: x * 2, (x,)), "b": levelbench.Candidate(lambda x: x + x, (x,))}


QUICK = Workload("quick", "two tiny numpy calls", _quick, params=[Param("ms", 0.0, float, "unused")], baseline="a")

# The same, with a CI target no timing reaches: only the budget or the timeout ends its rounds.
UNENDING = Workload("unending", "two tiny numpy calls, timed until stopped", _quick,
                    params=[Param("ms", 0.0, float, "unused")], baseline="a", compare_options={"rel_ci": 1e-12})


def _markup(seed: int):
    x = np.arange(8.0)
    return {"[bold]np[/bold]": levelbench.Candidate(lambda x: x * 2, (x,), note="[/]"),
            "b[/]": levelbench.Candidate(lambda x: x + x, (x,)), "[x]": Skipped("[red]why[/red]")}


MARKUP = Workload("w[/x]", "names that look like Rich markup", _markup)


def _hang(seed: int):
    time.sleep(3600)


HANG = Workload("hang", "a build that never returns", _hang)


def _raise(seed: int):
    raise RuntimeError("deliberate failure in build")


RAISE = Workload("raise", "a build that raises", _raise)


def _wrong_type(seed: int):
    return [np.sin]


WRONG_TYPE = Workload("wrong", "a build returning a list", _wrong_type)


def _fill(seed: int):
    # fills the file system of $LEVELBENCH_TEST_FILL (the results database's), then builds normally
    with open(os.environ["LEVELBENCH_TEST_FILL"], "wb") as f:
        try:
            while True:
                f.write(b"\0" * 65536)
                f.flush()
        except OSError:
            pass
    return _quick(seed)


FILL = Workload("fill", "a build that fills the disk", _fill)


def _stalls_after(seconds: float):
    """A call that returns at once until ``seconds`` after the first, then never."""
    started = []

    def f(x):
        if not started:
            started.append(time.monotonic())
        if time.monotonic() - started[0] > seconds:
            time.sleep(3600)
        return x * 2

    return f


def _late_hang(seed: int, stall: float = 1.5, which: str = "slow"):
    x = np.arange(8.0)
    healthy = levelbench.Candidate(lambda x: x + x, (x,))
    stalling = levelbench.Candidate(_stalls_after(stall), (x,))
    return {"base": stalling if which == "base" else healthy, "slow": stalling if which == "slow" else healthy}


LATE_HANG = Workload("late-hang", "a candidate that hangs after a while", _late_hang, baseline="base",
                     params=[Param("stall", 1.5, float, "seconds before it hangs"),
                             Param("which", "slow", str, "the candidate that hangs")])


def _spawn(seed: int):
    # starts a process of its own, as a workload may (a server, a helper), then hangs
    import subprocess

    subprocess.Popen(["sleep", "1000"])
    time.sleep(3600)


SPAWN = Workload("spawn", "a build that starts a process, then hangs", _spawn)
