"""LB112's training reading tells a function's branches apart, and follows a timing decorator into the bodies it times.

A timed run that calls ``loss.backward()`` times training, and autograd is the point (quiet). A forward on the
other branch of an ``if`` than the backward pass runs without it: ``if grad: model(y).backward()`` / ``else:
model(y)`` times inference with autograd on in its ``else`` (diffrax's small_neural_ode.py, case 271, whose
``@timed`` wrapper reads the clock around ``fn(*args)``, the decorated ``time_torch``).
"""

from __future__ import annotations

import textwrap

import pytest

from levelbench.doctor import fix_source
from tests.test_doctor_rules import found

DECORATED = """
import time
import torch

model = torch.nn.Linear(4, 4)

def timed(fn):
    def _timer(*args, **kwargs):
        start = time.perf_counter_ns()
        {run}
        end = time.perf_counter_ns()
        return {answer}
    return _timer

@timed
def time_torch(model, y, grad):
{body}

y = torch.ones(2, 4)
time_torch(model, y, False)
elapsed = time_torch(model, y, False)
print(elapsed)
"""

BRANCHES = {
    "if-else": "    if grad:\n        model(y).sum().backward()\n    else:\n        model(y)  # forward\n",
    "if-not": "    if not grad:\n        model(y)  # forward\n    else:\n        loss = model(y).sum()\n        loss.backward()\n",
    "elif": "    if grad:\n        model(y).sum().backward()\n    elif y.numel():\n        model(y)  # forward\n",
    "autograd-grad": (
        "    if grad:\n        torch.autograd.grad(model(y).sum(), model.weight)\n    else:\n        out = model(y)  # forward\n"
    ),
}


def lb112_lines(source: str) -> list[int]:
    return [line for code, _, line in found(source) if code == "LB112"]


def forward_line(source: str) -> int:
    return 1 + next(i for i, text in enumerate(textwrap.dedent(source).splitlines()) if text.endswith("# forward"))


def decorated(body: str, run: str = "fn(*args, **kwargs)", answer: str = "end - start") -> str:
    return DECORATED.format(body=body, run=run, answer=answer)


@pytest.mark.parametrize("branches", sorted(BRANCHES))
@pytest.mark.parametrize(
    ("run", "answer"), [("fn(*args, **kwargs)", "end - start"), ("result = fn(*args, **kwargs)", "result")]
)
def test_a_forward_on_the_other_branch_than_the_backward_pass_is_timed_with_autograd_on(branches, run, answer):
    source = decorated(BRANCHES[branches], run, answer)
    assert lb112_lines(source) == [forward_line(source)]


@pytest.mark.parametrize(
    "body",
    [
        "    out = model(y)\n    if grad:\n        out.sum().backward()\n",  # the backward follows this forward
        "    model(y).sum().backward()\n",
        "    if grad:\n        model(y).sum().backward()\n    else:\n        with torch.no_grad():\n            model(y)\n",
        "    if grad:\n        loss = model(y).sum()\n        loss.backward()\n",
    ],
)
def test_a_forward_whose_run_may_go_on_to_the_backward_pass_or_runs_without_grad_stays_quiet(body):
    assert lb112_lines(decorated(body)) == []


def test_a_decorated_body_called_only_under_no_grad_stays_quiet():
    source = decorated("    model(y)\n").replace(
        "elapsed = time_torch(model, y, False)", "with torch.no_grad():\n    elapsed = time_torch(model, y, False)"
    ).replace("\ntime_torch(model, y, False)\n", "\n")
    assert lb112_lines(source) == []


def test_each_decorated_body_is_a_run_of_its_own():
    """A backward pass in another function the same decorator times does not make this one train."""
    source = decorated("    model(y)  # forward\n") + (
        "\n@timed\ndef time_train(model, y):\n    model(y).sum().backward()\n\nprint(time_train(model, y))\n"
    )
    assert lb112_lines(source) == [forward_line(source)]


PAIR = """
import time
import torch

model = torch.nn.Linear(4, 4)
y = torch.ones(2, 4)

def bench(grad):
    t0 = time.perf_counter()
    for _ in range(10):
{body}
    return time.perf_counter() - t0

print(bench(False), bench(True))
"""


def test_the_branches_of_a_timed_loop_are_told_apart_too():
    body = "        if grad:\n            model(y).sum().backward()\n        else:\n            model(y)  # forward\n"
    source = PAIR.format(body=body)
    assert lb112_lines(source) == [forward_line(source)]
    trains = "        out = model(y)\n        if grad:\n            out.sum().backward()\n"
    assert lb112_lines(PAIR.format(body=trains)) == []
    helper = "def step():\n    model(y).sum().backward()\n\n"
    through = "        if grad:\n            step()\n        else:\n            model(y)  # forward\n"
    source = PAIR.replace("def bench", helper + "def bench").format(body=through)
    assert lb112_lines(source) == [forward_line(source)]
    same = "        if grad:\n            step()\n            model(y)\n"
    assert lb112_lines(PAIR.replace("def bench", helper + "def bench").format(body=same)) == []


def test_the_fix_puts_only_the_forward_under_inference_mode():
    """The wrapper's lines also run the bodies that train: the fix goes around the forward in the decorated body."""
    source = textwrap.dedent(decorated(BRANCHES["if-else"]))
    result = fix_source(source, "bench.py", unsafe=True, select=["LB112"])
    assert "    else:\n        with torch.inference_mode():\n            model(y)  # forward\n" in result.text
    assert "        model(y).sum().backward()\n" in result.text
    assert result.text.count("inference_mode") == 1
    assert lb112_lines(result.text) == []
