"""When `compare`'s interleaved rounds stop: one pure decision, taken after every round.

`after_round` reads the candidates' rounds so far (each round a block median, None for a block
whose every sample was discarded) and the time spent, and says whether to go on or to stop, and
why. It reads no clock and runs nothing, so every rule is tested on given numbers
(tests/test_stopping.py). The GEMM lane that runs beside the candidates in every round is no
candidate: its blocks never enter ``rounds``.

Example:
    >>> after_round({"a": [1.0] * 5, "b": [2.0] * 5}, "a", elapsed=0.3, budget=10, min_rounds=5, rel_ci=0.02)
    <Stop.REACHED: 'reached'>
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence

from .._values.settings import COMPARING
from .._values.stats import paired_ratio_ci


class Stop(enum.Enum):
    """Why the rounds ended."""

    REACHED = "reached"  # every ratio's CI within rel_ci, after min_rounds kept rounds each
    BUDGET = "budget"  # min_rounds kept rounds each, and the budget spent
    NEVER_KEPT = "never-kept"  # past the budget, a candidate has kept no round at all (it compiles every call)
    OVERRUN = "overrun"  # rounds still short of min_rounds kept ones at overrun_factor x the budget
    DEADLINE = "deadline"  # another round might not end before the timeout
    MAX_ROUNDS = "max-rounds"  # max_rounds_factor x min_rounds rounds, still short of min_rounds kept ones


DEADLINE_ROUNDS = 2  # another round must fit this many times the last one's length before the deadline...
DEADLINE_SECONDS = 1.0  # ...plus this much


def after_round(rounds: Mapping[str, Sequence[float | None]], base: str, *, elapsed: float, budget: float,
                min_rounds: int, rel_ci: float, deadline_left: float | None = None, round_seconds: float = 0.0,
                overrun_factor: float = COMPARING.overrun_factor,
                max_rounds_factor: int = COMPARING.max_rounds_factor) -> Stop | None:
    """Stop after this round (and why), or None to take another.

    ``rounds``: each candidate still running, its block medians so far (None: every sample of that
    block discarded); ``base`` is the baseline, whose rounds count the rounds. ``elapsed``: seconds
    of interleaving so far; ``deadline_left``: seconds to the timeout (None: no timeout);
    ``round_seconds``: how long the round just ended took. The rules, first that holds wins:

    1. every candidate has ``min_rounds`` kept rounds and every ratio to ``base`` has a 95% CI within
       ``rel_ci`` -> `Stop.REACHED`;
    2. ... and ``elapsed >= budget`` -> `Stop.BUDGET`;
    3. some candidate short of ``min_rounds`` kept rounds after ``min_rounds`` rounds, past the budget:
       if a candidate kept none -> `Stop.NEVER_KEPT`; past ``overrun_factor`` x the budget -> `Stop.OVERRUN`;
    4. another round might not end before the deadline -> `Stop.DEADLINE`;
    5. more than ``max_rounds_factor`` x ``min_rounds`` rounds, a candidate still short -> `Stop.MAX_ROUNDS`.
    """
    n_rounds = len(rounds[base])
    complete = all(sum(r is not None for r in kept) >= min_rounds for kept in rounds.values())
    if complete and ratios_within(rounds, base, rel_ci, n_rounds):
        return Stop.REACHED
    if complete and elapsed >= budget:
        return Stop.BUDGET
    # Past the budget, stop waiting for a candidate whose every block was discarded (more rounds will not
    # change that), and anyway at overrun_factor x the budget. Only when blocks were discarded: without
    # discards min_rounds rounds make the set complete.
    short = not complete and n_rounds >= min_rounds
    if short and elapsed >= budget:
        if any(all(r is None for r in kept) for kept in rounds.values()):
            return Stop.NEVER_KEPT
        if elapsed >= overrun_factor * budget:
            return Stop.OVERRUN
    if deadline_left is not None and deadline_left < DEADLINE_ROUNDS * round_seconds + DEADLINE_SECONDS:
        return Stop.DEADLINE
    if n_rounds > max_rounds_factor * min_rounds and not complete:
        return Stop.MAX_ROUNDS
    return None


def ratios_within(rounds: Mapping[str, Sequence[float | None]], base: str, rel_ci: float, n_rounds: int) -> bool:
    """Whether every ratio to ``base`` (paired bootstrap over the rounds both kept, >= 5) has a 95% CI
    within ``rel_ci``. The bootstrap costs milliseconds: past 20 rounds it is checked on a schedule that
    thins out as rounds grow (every ``n_rounds // 10``-th round), and the other rounds answer False."""
    if n_rounds > 20 and n_rounds % max(1, n_rounds // 10):
        return False
    for name, r in rounds.items():
        if name == base:
            continue
        pairs = [(a, b) for a, b in zip(r, rounds[base]) if a is not None and b is not None]
        if len(pairs) < 5:
            return False
        a, b = zip(*pairs)
        if paired_ratio_ci(a, b, resamples=500).relative_half_width > rel_ci:
            return False
    return True
