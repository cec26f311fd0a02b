"""compare's stopping rule (`levelbench._measuring.stopping.after_round`) on given rounds and times:
every rule, its boundary, and which wins when several hold. No clock, no candidate runs."""

import pytest

from levelbench._measuring.stopping import Stop, after_round, ratios_within
from levelbench._values.settings import COMPARING

N = COMPARING.min_rounds  # 5
TIGHT = [1.0] * N  # block medians of a candidate that never varies
DOUBLE = [2.0] * N  # twice the baseline's, every round: a ratio of exactly 2
NOISY = [1.0, 3.0, 1.0, 3.0, 1.0]  # a ratio to TIGHT whose CI is wide (about 1x..3x)
MILD = [1.0, 1.1, 1.0, 1.1, 1.0]  # a ratio to TIGHT whose CI is 1x..1.1x
SHORT = [1.0, None, 1.0, None, 1.0]  # 3 kept rounds of 5: short of min_rounds
NONE = [None] * N  # every block discarded (compiles on every call)


def rule(rounds, *, elapsed=0.5, budget=10.0, rel_ci=0.02, **kw):
    return after_round(rounds, "base", elapsed=elapsed, budget=budget, min_rounds=N, rel_ci=rel_ci, **kw)


@pytest.mark.parametrize("rounds, elapsed, kw, expected", [
    # 1. every candidate has min_rounds kept rounds and every ratio is tight: reached, whatever the time
    ({"base": TIGHT, "b": DOUBLE}, 0.5, {}, Stop.REACHED),
    ({"base": TIGHT, "b": DOUBLE}, 100.0, {}, Stop.REACHED),
    ({"base": TIGHT}, 0.5, {}, Stop.REACHED),  # one candidate: no ratio to wait for
    ({"base": TIGHT, "b": DOUBLE, "c": TIGHT}, 0.5, {}, Stop.REACHED),
    # a wide ratio goes on before the budget, stops at it
    ({"base": TIGHT, "b": NOISY}, 0.5, {}, None),
    ({"base": TIGHT, "b": NOISY}, 9.99, {}, None),
    ({"base": TIGHT, "b": NOISY}, 10.0, {}, Stop.BUDGET),
    # the target decides: MILD's ratio CI is 1x..1.1x, 10% from the estimate (1x) at most
    ({"base": TIGHT, "b": MILD}, 0.5, {"rel_ci": 0.11}, Stop.REACHED),
    ({"base": TIGHT, "b": MILD}, 0.5, {"rel_ci": 0.09}, None),
    # 2. one round short of min_rounds: never reached nor stopped on the budget (min_rounds are always taken)
    ({"base": TIGHT[:-1], "b": DOUBLE[:-1]}, 100.0, {}, None),
    # 3. blocks discarded: past the budget, a candidate with no kept round ends it at once...
    ({"base": TIGHT, "b": NONE}, 9.99, {}, None),
    ({"base": TIGHT, "b": NONE}, 10.0, {}, Stop.NEVER_KEPT),
    ({"base": NONE, "b": TIGHT}, 10.0, {}, Stop.NEVER_KEPT),
    # ...one with some kept rounds gets until overrun_factor x the budget
    ({"base": TIGHT, "b": SHORT}, 10.0, {}, None),
    ({"base": TIGHT, "b": SHORT}, COMPARING.overrun_factor * 10 - 0.01, {}, None),
    ({"base": TIGHT, "b": SHORT}, COMPARING.overrun_factor * 10, {}, Stop.OVERRUN),
    # ...and neither applies before min_rounds rounds were taken
    ({"base": TIGHT[:-1], "b": NONE[:-1]}, 100.0, {}, None),
    # 4. the deadline: another round must fit twice the last round's length plus 1 s
    ({"base": TIGHT, "b": NOISY}, 0.5, {"deadline_left": 2.0, "round_seconds": 0.4}, None),
    ({"base": TIGHT, "b": NOISY}, 0.5, {"deadline_left": 1.8, "round_seconds": 0.4}, None),
    ({"base": TIGHT, "b": NOISY}, 0.5, {"deadline_left": 1.79, "round_seconds": 0.4}, Stop.DEADLINE),
    ({"base": TIGHT, "b": NOISY}, 0.5, {"deadline_left": -1.0}, Stop.DEADLINE),  # already past it
    ({"base": TIGHT, "b": NOISY}, 0.5, {"deadline_left": None, "round_seconds": 1e9}, None),  # no timeout
    ({"base": TIGHT[:2], "b": DOUBLE[:2]}, 0.1, {"deadline_left": 0.5}, Stop.DEADLINE),  # before min_rounds too
    # earlier rules win over the deadline: what is reached or spent is said as such
    ({"base": TIGHT, "b": DOUBLE}, 0.5, {"deadline_left": 0.0}, Stop.REACHED),
    ({"base": TIGHT, "b": NOISY}, 10.0, {"deadline_left": 0.0}, Stop.BUDGET),
    ({"base": TIGHT, "b": NONE}, 10.0, {"deadline_left": 0.0}, Stop.NEVER_KEPT),
])
def test_each_rule_and_its_boundary(rounds, elapsed, kw, expected):
    """Each stopping rule at and just before its threshold, on fixed block medians."""
    assert rule(rounds, elapsed=elapsed, **kw) is expected


def test_max_rounds_ends_a_candidate_short_of_kept_rounds_whatever_the_budget():
    """Below the budget (huge here), a candidate still short of min_rounds kept rounds is given up at
    more than max_rounds_factor x min_rounds rounds, not one round earlier."""
    limit = COMPARING.max_rounds_factor * N
    kept_two = [1.0, 1.0] + [None] * (limit - 1)  # limit + 1 rounds, 2 kept
    assert rule({"base": [1.0] * limit, "b": kept_two[:limit]}, budget=1e9) is None
    assert rule({"base": [1.0] * (limit + 1), "b": kept_two}, budget=1e9) is Stop.MAX_ROUNDS
    assert rule({"base": [1.0] * (limit + 1), "b": kept_two}, budget=1e9,
                max_rounds_factor=COMPARING.max_rounds_factor + 1) is None


def test_the_factors_are_inputs():
    """overrun_factor and max_rounds_factor are read from the call, not only from the settings."""
    short = {"base": TIGHT, "b": SHORT}
    assert rule(short, elapsed=15.0, overrun_factor=1.5) is Stop.OVERRUN
    assert rule(short, elapsed=15.0, overrun_factor=2.0) is None
    assert rule({"base": TIGHT + [1.0], "b": SHORT + [None]}, max_rounds_factor=1) is Stop.MAX_ROUNDS


def test_only_rounds_both_kept_are_paired():
    """A ratio needs 5 rounds where both candidates kept a block: 5 rounds each with one gap apiece is not enough."""
    base = [1.0, 1.0, 1.0, 1.0, None, 1.0]
    other = [None, 2.0, 2.0, 2.0, 2.0, 2.0]
    assert not ratios_within({"base": base, "b": other}, "base", 0.02, 6)
    assert ratios_within({"base": base + [1.0], "b": other + [2.0]}, "base", 0.02, 7)


def test_past_twenty_rounds_the_interval_is_checked_on_a_thinning_schedule():
    """Constant ratios are tight on any round, but past 20 rounds only every n // 10-th round looks."""
    looked = [n for n in range(1, 60) if ratios_within({"base": [1.0] * n, "b": [2.0] * n}, "base", 0.02, n)]
    assert looked == [*range(5, 21), 22, 24, 26, 28, 30, 33, 36, 39, 40, 44, 48, 50, 55]


def test_the_rounds_are_never_changed():
    rounds = {"base": list(TIGHT), "b": list(SHORT)}
    copy = {k: list(v) for k, v in rounds.items()}
    rule(rounds, elapsed=100.0)
    assert rounds == copy
