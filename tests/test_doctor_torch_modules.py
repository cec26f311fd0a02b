"""What the doctor takes for a PyTorch module: one made by the project (a factory, a class the file imports) and
moved with torch's methods, and a local ``nn.Module`` whose ``forward`` runs when an instance is called.

Each positive test has quiet twins: the same code made correct (synchronized before the clock stops) or run where
nothing is queued (no CUDA), which must stay silent.
"""

from __future__ import annotations

import textwrap

import pytest

from levelbench.doctor import lint_source


def found(source: str) -> set[tuple[str, int]]:
    """(code, line) of every finding of a script."""
    return {(d.code, d.location.line) for d in lint_source(textwrap.dedent(source), "case.py")}


def codes(source: str) -> set[str]:
    return {code for code, _ in found(source)}


# A model built by the project's own code, moved to a device, called in a timed loop: the module's make is out of
# sight, the move and the call are not.
FACTORY = """
import time
import torch
from project.zoo import build_detector

def bench(weights, runs=50):
    detector = build_detector(weights)
    detector = detector.to({device})
    batch = torch.ones(4, 3, 64, 64, device={device})
    with torch.no_grad():
        detector(batch)
        started = time.perf_counter()
        for _ in range(runs):
            detector(batch)
{sync}        elapsed = time.perf_counter() - started
    return elapsed / runs

if __name__ == "__main__":
    print(bench("w.pt"))
"""


@pytest.mark.parametrize("device", ['"cuda"', 'torch.device("cuda:0")', "dev"])
def test_a_project_model_moved_to_cuda_and_called_is_timed_torch_work(device):
    source = FACTORY.format(device=device, sync="")
    if device == "dev":
        source = source.replace("def bench(", 'dev = torch.device("cuda")\n\ndef bench(')
    assert ("LB116", 16 if device == "dev" else 14) in found(source)


@pytest.mark.parametrize(
    "twin",
    [
        FACTORY.format(device='"cuda"', sync="        torch.cuda.synchronize()\n"),  # waited for
        FACTORY.format(device='"cpu"', sync="").replace("import torch\n", "import torch  # cpu only\n"),
    ],
)
def test_a_project_model_stays_quiet_when_synchronized_or_on_the_cpu(twin):
    assert "LB116" not in codes(twin)


def test_to_of_something_that_is_not_a_device_makes_no_module():
    """``q.to("m")`` (a unit) or ``t.to(torch.float16)`` (a dtype) moves nothing to a device: calling the result is
    not torch work, even in a file that uses CUDA elsewhere."""
    source = """
    import time
    import torch
    from units import quantity

    torch.ones(2, device="cuda")
    convert = quantity(3).to("m")
    t0 = time.perf_counter()
    for _ in range(9):
        convert(2.0)
    print(time.perf_counter() - t0)
    """
    assert "LB116" not in codes(source)


# A local module whose forward times one of its own layers; the file builds it and calls it on the GPU.
LAYER_TIMED = """
import time
import torch
import torch.nn as nn

class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(16, 16)
        self.head = nn.Linear(16, 2)

    def forward(self, h):
        begin = time.perf_counter()
        h = self.proj(h)
{sync}        self.last_cost = time.perf_counter() - begin
        return self.head(h)

block = Block(){move}
with torch.no_grad():
    for _ in range(10):
        block(torch.rand(8, 16){move})
"""


@pytest.mark.parametrize("move", [".cuda()", '.to("cuda")'])
def test_the_forward_of_a_local_module_runs_when_an_instance_is_called(move):
    assert ("LB116", 14) in found(LAYER_TIMED.format(sync="", move=move))


@pytest.mark.parametrize(
    "twin",
    [
        LAYER_TIMED.format(sync="        torch.cuda.synchronize()\n", move=".cuda()"),
        LAYER_TIMED.format(sync="", move=""),  # on the CPU: nothing is queued
    ],
)
def test_the_forward_of_a_local_module_stays_quiet_when_synchronized_or_on_the_cpu(twin):
    assert "LB116" not in codes(twin)


def test_a_module_never_called_leaves_its_forward_to_its_callers():
    """A library module (the class only, nothing builds or calls it): how it runs is its callers' choice."""
    source = LAYER_TIMED.format(sync="", move=".cuda()").split("block = Block()")[0] + "x = torch.ones(2).cuda()\n"
    assert "LB116" not in codes(source)


# LB116 names the forward the clock does not wait for, not the smaller work queued behind it.
FORWARD_THEN_BOOKKEEPING = """
import time
import torch
import torchvision

net = torchvision.models.resnet18().cuda()
frames = [torch.rand(3, 64, 64).cuda() for _ in range(4)]
spent = []
for frame in frames:
    tic = time.perf_counter()
    logits = net(frame[None])
    probs = torch.softmax(logits, dim=1).flatten()
{after}    spent.append(time.perf_counter() - tic)
print(sum(spent) / len(spent))
"""


def test_lb116_is_placed_at_the_forward_not_at_the_work_behind_it():
    assert [line for code, line in found(FORWARD_THEN_BOOKKEEPING.format(after="")) if code == "LB116"] == [11]


@pytest.mark.parametrize(
    "after",
    [
        "    torch.cuda.synchronize()\n",
        "    top = probs.argmax().item()\n",  # a read-back waits for everything queued before it
        "    ready = torch.zeros(1).cuda()\n",  # a blocking copy from the host waits likewise
    ],
)
def test_lb116_stays_quiet_when_the_region_ends_by_waiting(after):
    assert "LB116" not in codes(FORWARD_THEN_BOOKKEEPING.format(after=after))


# The same kind of model called only through a name, a container or a partial that holds it (case 223's variants).
HELD = """
import functools
import time
import torch
from project.zoo import build_detector

detector = build_detector("w.pt").to("cuda")
{holder}
batch = torch.ones(4, 3, 64, 64, device="cuda")
for _ in range(20):
    started = time.perf_counter()
    out = {call}(batch)
{sync}    print(time.perf_counter() - started)
"""

HOLDERS = [("run = detector", "run"), ('models = {"det": detector}', 'models["det"]'),
           ("run = functools.partial(detector)", "run"), ("runs = [detector]", "runs[0]")]


@pytest.mark.parametrize(("holder", "call"), HOLDERS)
def test_a_moved_model_called_only_through_what_holds_it_is_a_module(holder, call):
    assert "LB116" in codes(HELD.format(holder=holder, call=call, sync=""))


@pytest.mark.parametrize(("holder", "call"), HOLDERS)
def test_the_held_model_synchronized_stays_quiet(holder, call):
    assert "LB116" not in codes(HELD.format(holder=holder, call=call, sync="    torch.cuda.synchronize()\n"))
