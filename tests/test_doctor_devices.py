"""The doctor's model of devices: where a PyTorch tensor is at a point of the program (`Context.devices`).

Each question names a marked expression (``# <- name`` on its line: the last call or name of that line) and asks
`Devices.of` about it; the answer follows the binding that reaches that point, not the name.
"""

from __future__ import annotations

import ast
import textwrap

import pytest

from levelbench.doctor._context import Context
from levelbench.doctor._program import Program


def device_at(source: str) -> str | None:
    """`Devices.of` for the expression statement (or assigned value) on the line marked ``# <-``."""
    text = textwrap.dedent(source)
    line = 1 + next(i for i, row in enumerate(text.splitlines()) if "# <-" in row)
    ctx = Context.build(Program.from_python("case.py", text), edits=False)
    statement = next(s for s in ctx.program.of_type(ast.Expr, ast.Assign) if s.lineno == line)
    return ctx.devices.of(statement.value)  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("import torch\nt = torch.randn(8)\ntorch.det(t)  # <-\n", "cpu"),
        ("import torch\nt = torch.randn(8)\nt = t.cuda()\ntorch.det(t)  # <-\n", "cuda"),
        # the later move does not reach the earlier use
        ("import torch\nt = torch.randn(8)\ntorch.det(t)  # <-\nt = t.cuda()\n", "cpu"),
        # an operator's result is not followed (yet): not known
        ("import torch\nt = torch.randn(8, device='cuda:0')\ny = t @ t\ny.sum()  # <-\n", None),
        ("import torch\nt = torch.randn(8, device='cuda:0')\nt.sum()  # <-\n", "cuda"),
        ("import torch\nt = torch.randn(8).to(torch.device('cuda'))\nt.float()  # <-\n", "cuda"),
        ("import torch\nt = torch.randn(8).cuda()\nu = t.cpu()\nu.sum()  # <-\n", "cpu"),
        ("import torch\nt = torch.ones(4)\nt[0]  # <-\n", "cpu"),
        # a device chosen at run time, or a default device set for the file: not known
        ("import torch\nt = torch.randn(8).to(pick())\nt.sum()  # <-\n", None),
        ("import torch\ntorch.set_default_device('cuda')\ntorch.randn(8)  # <-\n", None),
        # the device the function is handed, as its callers choose
        ("import torch\ndef measure(block, device):\n    block = block.to(device)\n    block(1)  # <-\n", "handed"),
        # a device rebound in the function before the move is not the caller's
        ("import torch\ndef measure(block, device):\n    device = 'cpu'\n    block = block.to(device)\n"
         "    block(1)  # <-\n", None),
    ],
)
def test_the_device_of_a_tensor_is_where_the_binding_that_reaches_it_put_it(source: str, expected: str | None):
    assert device_at(source) == expected


def test_a_name_moved_to_cuda_by_any_of_its_bindings():
    text = "import torch\nimg = load()\nimg = img.cuda()\nx = img.unsqueeze(0)\nmodel(x)\n"
    ctx = Context.build(Program.from_python("case.py", text), edits=False)
    call = next(c for c in ctx.program.of_type(ast.Call) if getattr(c.func, "id", "") == "model")
    assert ctx.devices.moved_to_cuda(call.args[0])  # type: ignore[attr-defined]
    plain = Context.build(Program.from_python("case.py", text.replace("img.cuda()", "img.float()")), edits=False)
    call = next(c for c in plain.program.of_type(ast.Call) if getattr(c.func, "id", "") == "model")
    assert not plain.devices.moved_to_cuda(call.args[0])  # type: ignore[attr-defined]
