"""The doctor's model of devices: where a PyTorch tensor is at a point of the program (`Context.devices`).

Each question names a marked expression (``# <- name`` on its line: the last call or name of that line) and asks
`Devices.of` about it; the answer follows the binding that reaches that point, not the name.
"""

from __future__ import annotations

import ast
import textwrap

import pytest

from levelbench.doctor import lint_source
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
        # a device rebound in the function before the move is not the caller's: it is the one the binding names
        ("import torch\ndef measure(block, device):\n    device = 'cpu'\n    block = block.to(device)\n"
         "    block(1)  # <-\n", "cpu"),
        # a name bound to a device, followed to its binding: `.to(device)`, `device=device`, an alias of one
        ("import torch\ndevice = torch.device('cuda')\nt = torch.randn(8).to(device)\nt.sum()  # <-\n", "cuda"),
        ("import torch\ndevice = torch.device('cuda:1')\ntorch.randn(8, device=device)  # <-\n", "cuda"),
        ("import torch\ncpu = 'cpu'\nhere = cpu\ntorch.randn(8, device=here)  # <-\n", "cpu"),
        ("import torch\ndef measure(block, device):\n    device = torch.device(device)\n    block = block.to(device)\n"
         "    block(1)  # <-\n", "handed"),
        # a device chosen at run time, through a name: still not known
        ("import torch\ndevice = torch.device('cuda' if torch.cuda.is_available() else 'cpu')\n"
         "torch.randn(8, device=device)  # <-\n", None),
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


@pytest.mark.parametrize(
    ("signature", "cast", "expected"),
    [
        # the function says its parameter is a dtype: `.to(dtype)` casts the module where it is, and moves nothing
        ("block_class, dtype: torch.dtype", "dtype", None),  # petals' `measure_compute_rps` (cases 181, 208)
        ("block_class, precision: 'torch.dtype'", "precision", None),
        ("block_class, compute_dtype", "compute_dtype", None),
        ("block_class, precision", "precision", None),  # handed on as `dtype=` below
        # a parameter the function says nothing of is the device its callers hand it, as before
        ("block_class, target", "target", "handed"),
        ("block_class, device: torch.device", "device", "handed"),
    ],
)
def test_a_parameter_the_function_says_is_a_dtype_is_no_device(signature: str, cast: str, expected: str | None):
    source = (
        f"import torch\ndef measure(n, {signature}):\n    block = block_class().to({cast})\n    block(1)  # <-\n"
        + ("    torch.zeros(n, dtype=precision)\n" if "precision" in signature and "'" not in signature else "")
    )
    assert device_at(source) == expected


def _lb116_lines(source: str, path: str = "bench.py") -> set[int]:
    return {d.location.line for d in lint_source(textwrap.dedent(source), path) if d.code == "LB116"}


CPU_BESIDE_GPU = """
import time
import torch

cpu = torch.device("cpu")
gpu = torch.device("cuda")
x = torch.randn(1024, 1024, device=cpu)
t = time.perf_counter()
torch.mm(x, x)
print("cpu", time.perf_counter() - t)
xg = x.to(gpu)
torch.cuda.synchronize()
t = time.perf_counter()
torch.mm(xg, xg)
{wait}
print("gpu", time.perf_counter() - t)
"""


def test_lb116_reads_a_device_through_the_name_bound_to_it():
    """Work on a tensor made on ``device=cpu`` (``cpu = torch.device("cpu")``) runs on the CPU: nothing to synchronize.
    The same file's CUDA work, through ``gpu = torch.device("cuda")``, still needs it."""
    assert _lb116_lines(CPU_BESIDE_GPU.format(wait="torch.cuda.synchronize()")) == set()
    assert _lb116_lines(CPU_BESIDE_GPU.format(wait="")) == {14}


THROUGHPUT = """
import time
import torch


def measure_compute_rps(block_class, {parameter}, n_steps: int) -> float:
    block = block_class().to({moved})
    x = torch.randn(16, 1024{made})
    start = time.perf_counter()
    for _ in range(n_steps):
        block(x)
    return n_steps / (time.perf_counter() - start)


def default_device() -> str:
    return "cuda" if torch.cuda.is_available() else "cpu"
"""


def test_lb116_in_a_library_function_reads_a_dtype_cast_as_no_move():
    """A server's throughput function (petals, cases 181 and 208) that casts its block to the ``dtype`` it is given
    and makes its input on the CPU times CPU work; moved to the ``device`` it is given, the work is its callers' GPU's
    and the missing synchronize is LB116's."""
    cast = THROUGHPUT.format(parameter="dtype: torch.dtype", moved="dtype", made=", dtype=dtype")
    assert _lb116_lines(cast, "server/throughput.py") == set()
    moved = THROUGHPUT.format(parameter="device: torch.device", moved="device", made=", device=device")
    assert _lb116_lines(moved, "server/throughput.py") == {11}
