"""The syntax helpers at the model's floor that several readings share (`levelbench.doctor._syntax`)."""

from __future__ import annotations

import ast

import pytest

from levelbench.doctor._program import Program
from levelbench.doctor._syntax import (
    bound_names, given_argument, loop_iterable, on_other_branches, parameter_default, positional_index,
)


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


SIGNATURE = "def bench(fn, step=2, /, repeat=5, *args, number=1, warm, **options): pass"


@pytest.mark.parametrize(
    ("name", "default"),
    [
        ("fn", None),  # positional-only, no default
        ("step", "2"),  # positional-only, with one: `defaults` starts within the positional-only parameters
        ("repeat", "5"),
        ("number", "1"),  # keyword-only
        ("warm", None),  # keyword-only, no default: None in `kw_defaults`
        ("args", None),
        ("options", None),
        ("missing", None),
    ],
)
def test_parameter_default_is_the_value_a_left_out_parameter_takes(name, default):
    arguments = ast.parse(SIGNATURE).body[0].args
    found = parameter_default(arguments, name)
    assert (None if found is None else ast.unparse(found)) == default


def test_parameter_default_aligns_positional_defaults_to_the_last_parameters():
    arguments = ast.parse("def f(a, b, c=3, d=4): pass").body[0].args
    assert [positional_index(arguments, n) for n in "abcd"] == [0, 1, 2, 3]
    assert [parameter_default(arguments, n) is None for n in "ab"] == [True, True]
    assert [ast.unparse(parameter_default(arguments, n)) for n in "cd"] == ["3", "4"]


@pytest.mark.parametrize(
    ("call", "name", "given"),
    [
        ("bench(f, 3, 7)", "repeat", "7"),  # by position, after the positional-only ones
        ("bench(f, repeat=7)", "repeat", "7"),
        ("bench(f)", "repeat", None),
        ("bench(f, 3)", "step", "3"),
        ("bench(f, step=3)", "step", None),  # `step` is positional-only: `step=3` goes to **options
        ("bench(f, 3, 7, 8)", "args", None),  # what `*args` collects is no value of one parameter
        ("bench(f, number=4)", "number", "4"),
        ("bench(f, 1, 2, 4)", "number", None),  # keyword-only: never by position
        ("bench(f, options=1)", "options", None),
    ],
)
def test_given_argument_is_the_value_a_call_gives_a_parameter(call, name, given):
    arguments = ast.parse(SIGNATURE).body[0].args
    found = given_argument(ast.parse(call).body[0].value, arguments, name)
    assert (None if found is None else ast.unparse(found)) == given


@pytest.mark.parametrize(
    ("source", "iterable"),
    [
        ("for x in xs: pass", "xs"),
        ("[x for x in range(3) for y in ys]", "range(3)"),  # the first `for` of a comprehension
        ("while n: pass", None),
    ],
)
def test_loop_iterable_is_what_a_loop_iterates(source, iterable):
    loop = next(n for n in ast.walk(ast.parse(source)) if isinstance(n, (ast.For, ast.ListComp, ast.While)))
    found = loop_iterable(loop)
    assert (None if found is None else ast.unparse(found)) == iterable
