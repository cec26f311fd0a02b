"""The syntax helpers at the model's floor that several readings share (`levelbench.doctor._syntax`)."""

from __future__ import annotations

import ast

import pytest

from levelbench.doctor._program import Program
from levelbench.doctor._syntax import bound_names, on_other_branches


@pytest.mark.parametrize(
    ("statement", "names"),
    [
        ("x = f()", {"x"}),
        ("obs, (a, *rest) = f()", {"obs", "a", "rest"}),
        ("x[i] = v", set()),  # stores into x's object: x still names it, i is only read
        ("a.b = v", set()),
        ("a, x[i] = v", {"a"}),
        ("x += 1", {"x"}),
        ("for k, v in d.items():\n    total = v", {"k", "v", "total"}),
        ("with open(p) as fh:\n    pass", {"fh"}),
        ("ys = [y for y in xs if (n := y)]", {"ys", "y", "n"}),
        ("def f(a):\n    b = a", {"b"}),  # the parameter and the def's name bind without a stored name
    ],
)
def test_bound_names_are_the_names_a_statement_stores_to(statement, names):
    assert bound_names(ast.parse(statement).body[0]) == names


BRANCHES = """
if grad:
    a()
    if deep:
        b()
    else:
        c()
elif other:
    d()
else:
    e(f() if flag else g())
h()
"""


@pytest.mark.parametrize(
    ("first", "second", "apart"),
    [
        ("a", "d", True), ("a", "e", True), ("d", "e", True),  # `elif` is the `else` of the first `if`
        ("b", "c", True), ("a", "b", False),  # one run may go through both
        ("f", "g", True), ("e", "f", False),  # a conditional expression's two values
        ("a", "h", False), ("a", "a", False),
    ],
)
def test_on_other_branches_is_true_only_for_calls_no_one_run_makes_both_of(first, second, apart):
    program = Program.from_python("case.py", BRANCHES)
    calls = {n.func.id: n for n in program.of_type(ast.Call)}
    assert on_other_branches(program, calls[first], calls[second]) is apart
    assert on_other_branches(program, calls[second], calls[first]) is apart
