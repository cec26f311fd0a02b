"""What cases 335-340 showed at first sight, mended in the shared model (mend29).

- `Context.here` (`_context._benchmarks`): a function whose name has "time" as a word (``computeTime``,
  ``measure_time``, ``time_inference``) says it measures, as ``bench``/``speed``/``timing`` already did: it runs as
  a benchmark, not as a library function timing its own work for a log line (case 338: LB105 at the ``time.time()``
  start read of FastSaliency's ``computeTime``).

- `Devices`: a parameter whose default is a tensor method taken unbound (``transfer_to_device_fn=torch.Tensor.to``)
  and that its function never rebinds moves as that method does: ``transfer_to_device_fn(sample, model_device)`` puts
  the sample on the device the function is handed.
- `_autograd.forward_without_grad`: a callable the file does not show, called under ``torch.no_grad()`` /
  ``torch.inference_mode()`` (or in a function decorated with one) on a tensor the code put on CUDA or on the device
  its function is handed, is a torch module's forward (case 339: LB116 at ``device_result = model(device_sample)``).

- `Facts.cuda`: a file that profiles torch with ``torch.profiler.profile`` left to its default activities (CPU and,
  where there is one, CUDA), or naming ``ProfilerActivity.CUDA``, or the older profiler with ``use_cuda``, puts work on
  CUDA; `_effects.handed_torch_work`: a timer's call of the callable it is handed, inside a torch profiler range
  (``record_function``), is torch work (case 335: LB116 at the wrapper's ``func(*args, **kwargs)``).

The files are named neutrally (``saliency.py``): a file name with ``bench``, ``speed`` or ``perf`` in it makes every
function in it a benchmark, which would hide what the function's own name says.
"""

from __future__ import annotations

import json
import textwrap

from levelbench.doctor import lint_source

PATH = "saliency.py"


def codes(source: str, path: str = PATH) -> set[tuple[str, int]]:
    return {(d.code, d.location.line) for d in lint_source(textwrap.dedent(source), path)}


def notebook(*cells: str) -> str:
    """A notebook's JSON with one code cell per argument."""
    return json.dumps({
        "cells": [
            {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [],
             "source": textwrap.dedent(c).strip("\n")}
            for c in cells
        ],
        "metadata": {}, "nbformat": 4, "nbformat_minor": 5,
    })


# --- 338: a function whose name says it measures time --------------------------------------------------------

COMPUTE_TIME = """
import numpy as np
import torch
{imports}

def {name}(model, device='cuda'):
    inputs = torch.randn(30, 3, 336, 336)
    if device == 'cuda':
        model = model.cuda()
        inputs = inputs.cuda()
    model.eval()
    time_spent = []
    for idx in range(100):
        start_time = {clock}()
        with torch.no_grad():
            _ = model(inputs)
        if device == 'cuda':
            torch.cuda.synchronize()
        if idx > 10:
            time_spent.append({clock}() - start_time)
    print('Average speed: {{:.4f}} fps'.format(30 / np.mean(time_spent)))
"""

WALL_CLOCKS = (
    ("import time", "time.time"),
    ("import time as tm", "tm.time"),
    ("from time import time", "time"),
    ("from time import time as now", "now"),
)


def _lb105(source: str, path: str = PATH) -> set[int]:
    return {line for code, line in codes(source, path) if code == "LB105"}


def test_a_function_named_as_measuring_time_times_on_the_wall_clock():
    """FastSaliency's ``computeTime`` (case 338): warmed, synchronized, under ``torch.no_grad()``, nothing calls it in
    the file; its one fault is ``time.time()``. Found whatever the clock's import or the name's spelling."""
    for name in ("computeTime", "measure_time", "time_inference", "model_time", "TimeForward"):
        for imports, clock in WALL_CLOCKS:
            assert _lb105(COMPUTE_TIME.format(name=name, imports=imports, clock=clock)) == {14}, (name, imports)


def test_the_same_function_in_a_notebook_cell_is_found():
    imports, clock = WALL_CLOCKS[0]
    body = COMPUTE_TIME.format(name="computeTime", imports=imports, clock=clock)
    found = {(d.code, d.location.cell, d.location.line) for d in lint_source(notebook("import torch", body), "s.ipynb")}
    assert ("LB105", 2, 13) in found


def test_a_steady_clock_or_a_name_without_the_word_stays_quiet():
    # the steady clock is what the finding asks for
    assert not _lb105(COMPUTE_TIME.format(name="computeTime", imports="import time", clock="time.perf_counter"))
    # "time" inside a word is not the word: a library function whose callers decide stays theirs, as before
    for name in ("runtime_stats", "timestep", "evaluate", "sometimes"):
        assert not _lb105(COMPUTE_TIME.format(name=name, imports="import time", clock="time.time")), name


def test_a_name_with_the_word_that_times_no_framework_work_stays_quiet():
    source = """
    import time
    import torch

    def load_time(path):
        start = time.time()
        with open(path) as f:
            text = f.read()
        return text, time.time() - start
    """
    assert not _lb105(source)


def test_no_grad_kept_in_a_container_turns_autograd_off():
    """``with fns["no_grad"]():`` is ``with torch.no_grad():`` (`_autograd.turns_grad_off`, shared by LB112 and LB116):
    338's container variant, now timed as a benchmark, must not read as a forward recording the graph."""
    held = COMPUTE_TIME.format(name="computeTime", imports="import time", clock="time.time").replace(
        "with torch.no_grad():", 'with grad_modes["off"]():'
    ).replace("def computeTime", 'grad_modes = {"off": torch.no_grad}\ndef computeTime')
    assert not {line for code, line in codes(held) if code == "LB112"}
    recording = held.replace('grad_modes = {"off": torch.no_grad}', 'grad_modes = {"off": torch.enable_grad}')
    assert {line for code, line in codes(recording) if code == "LB112"} == {17}


# --- 339: a forward under no_grad, on a sample moved to the device the function is handed ------------------------

REPEATED = """
import torch
{imports}

def measure_repeated_inference_timing(model, sample, model_device, transfer_to_device_fn=torch.Tensor.to, num_runs=100):
    assert model_device.type == "cuda"
    t_inf = []
    with {grad_off}:
        for _ in range(num_runs):
            device_sample = {move}
            start_on_device = {clock}()
            device_result = model(device_sample)
            {sync}stop_on_device = {clock}()
            transfer_to_device_fn(device_result, "cpu")
            t_inf.append(stop_on_device - start_on_device)
    return t_inf
"""

MOVES = (
    "transfer_to_device_fn(sample, model_device)",
    "transfer_to_device_fn(sample, device=model_device)",
    "sample.to(model_device)",
    "sample.to(model_device, non_blocking=True)",
    "sample.cuda()",
)
CLOCKS = (
    ("from time import time", "time"),
    ("import time", "time.perf_counter"),
    ("from time import perf_counter as now", "now"),
)


def _lb116(source: str, path: str = PATH) -> set[int]:
    return {line for code, line in codes(source, path) if code == "LB116"}


def _repeated(move: str = MOVES[0], grad_off: str = "torch.no_grad()", sync: str = "", clock: tuple = CLOCKS[0]) -> str:
    imports, name = clock
    return REPEATED.format(imports=imports, move=move, grad_off=grad_off, sync=sync, clock=name)


def test_a_forward_under_no_grad_on_a_sample_moved_to_the_handed_device_is_cuda_work():
    """pytorch-benchmark's ``measure_repeated_inference_timing`` (case 339): ``model`` is a parameter, the sample is
    moved by the default mover ``torch.Tensor.to`` to the device the function is handed, and the clock stops when
    the forward is queued."""
    for move in MOVES:
        for grad_off in ("torch.no_grad()", "torch.inference_mode()", "torch.autograd.no_grad()"):
            for clock in CLOCKS:
                assert _lb116(_repeated(move, grad_off, clock=clock)) == {12}, (move, grad_off, clock)


def test_a_forward_in_a_function_decorated_with_no_grad_is_cuda_work():
    source = _repeated().replace("    with torch.no_grad():\n", "    if True:\n").replace(
        "def measure_repeated_inference", "@torch.no_grad()\ndef measure_repeated_inference_timing")
    assert _lb116(source) == {13}


def test_the_same_function_in_a_notebook_reads_the_same():
    found = {(d.code, d.location.cell, d.location.line) for d in lint_source(notebook(_repeated(clock=CLOCKS[1])), "s.ipynb")}
    assert ("LB116", 1, 11) in found


def test_the_forward_synchronized_on_the_cpu_or_with_grad_on_an_unplaced_value_stays_quiet():
    assert not _lb116(_repeated(sync="torch.cuda.synchronize()\n            "))
    assert not _lb116(_repeated(move='sample.to("cpu")'))
    assert not _lb116(_repeated(move='transfer_to_device_fn(sample, "cpu")'))
    # no device named: what `model` is and where `sample` is are not known, as before
    assert not _lb116(_repeated(move="sample"))
    # gradients on and a callable the file does not show: not known to be torch work either
    assert not _lb116(_repeated(grad_off="open('log.txt', 'w')"))
    # a mover that is not torch's, as the parameter's default, moves nothing the model knows of
    assert not _lb116(_repeated().replace("transfer_to_device_fn=torch.Tensor.to", "transfer_to_device_fn=copy_to"))


def test_the_copies_timed_around_the_forward_stay_quiet():
    """The host-to-device copy, timed on purpose as a figure of its own (case 036's reading): a copy from pageable
    memory, which waits; only the forward after it is reported."""
    source = _repeated().replace(
        "            device_sample = transfer_to_device_fn(sample, model_device)\n",
        "            start_on_cpu = time()\n            device_sample = transfer_to_device_fn(sample, model_device)\n"
        "            t_c2d = time() - start_on_cpu\n",
    )
    assert _lb116(source) == {14}


# --- 335: a profiling decorator's wrapper times the function it decorates in a torch profiler range ---------------

PROFILER = """
import torch
{imports}
from collections import defaultdict


class Profiler:
    _instance = None

    def __new__(cls, should_profile=False, benchmark=False):
        if cls._instance is None:
            cls._instance = super().__new__(cls)
            cls._instance.profiler = torch.profiler.profile({activities}record_shapes=True) if should_profile else None
            cls._instance.benchmark_vals = defaultdict(list)
        return cls._instance

    @classmethod
    def profiling_decorator(cls, record_name=None):
        def inner(func):
            def wrapper(*args, **kwargs):
                start_time = {clock}()
                with {range_}(record_name or func.__name__):
                    result = func(*args, **kwargs)
                {sync}end_time = {clock}()
                {keep}
                return result
            return wrapper
        return inner
"""

RANGES = (
    ("import time", "torch.profiler.record_function"),
    ("import time\nfrom torch.profiler import record_function", "record_function"),
    ("import time\nfrom torch.profiler import record_function as rf", "rf"),
    ("import time\nimport torch.profiler as tp", "tp.record_function"),
    ("import time", "torch.autograd.profiler.record_function"),
)
PROFILER_CLOCKS = ("time.perf_counter", "time.time", "time.monotonic")


def _profiler(imports: str = RANGES[0][0], range_: str = RANGES[0][1], clock: str = "time.perf_counter",
              activities: str = "", sync: str = "",
              keep: str = "cls._instance.benchmark_vals[record_name].append(end_time - start_time)") -> str:
    return PROFILER.format(imports=imports, range_=range_, clock=clock, activities=activities, sync=sync, keep=keep)


def _line_of(source: str, text: str) -> int:
    return next(i for i, line in enumerate(textwrap.dedent(source).splitlines(), 1) if text in line)


def test_a_wrapper_timing_its_function_in_a_torch_profiler_range_is_cuda_work():
    """triton-lang/kernels' ``Profiler.profiling_decorator`` (case 335): the decorated functions are the project's
    GPU operations; the profiler, left to its default activities, records CUDA; nothing synchronizes."""
    for imports, range_ in RANGES:
        for clock in PROFILER_CLOCKS:
            source = _profiler(imports, range_, clock)
            assert _lb116(source) == {_line_of(source, "result = func(")}, (imports, range_, clock)
    with_cuda = "activities=[torch.profiler.ProfilerActivity.CPU, torch.profiler.ProfilerActivity.CUDA], "
    assert _lb116(_profiler(activities=with_cuda)) == {23}
    older = _profiler().replace("torch.profiler.profile(record_shapes=True)", "torch.autograd.profiler.profile(use_cuda=True)")
    assert _lb116(older) == {23}


def test_a_timing_helper_with_a_profiler_range_in_a_notebook_is_found():
    helper = """
    import time
    import torch

    prof = torch.profiler.profile()

    def timed(fn, *args):
        t0 = time.perf_counter()
        with torch.profiler.record_function(fn.__name__):
            out = fn(*args)
        return out, time.perf_counter() - t0
    """
    assert _lb116(helper) == {10}
    found = {(d.code, d.location.cell, d.location.line) for d in lint_source(notebook("import torch", helper), "s.ipynb")}
    assert ("LB116", 2, 9) in found


def test_a_cpu_profile_a_synchronize_a_log_line_or_no_range_stays_quiet():
    cpu_only = "activities=[torch.profiler.ProfilerActivity.CPU], "
    assert not _lb116(_profiler(activities=cpu_only))
    assert not _lb116(_profiler().replace("torch.profiler.profile(record_shapes=True)",
                                          "torch.autograd.profiler.profile(use_cuda=False)"))
    assert not _lb116(_profiler(sync="torch.cuda.synchronize()\n                "))
    assert not _lb116(_profiler(keep="logging.info('%s took %.3fs', record_name, end_time - start_time)",
                                imports="import time\nimport logging"))
    # without the range, the wrapped function is not known to be torch work: the callers decide, as before
    plain = _profiler().replace("with torch.profiler.record_function(record_name or func.__name__):\n"
                                "                    result = func(*args, **kwargs)",
                                "result = func(*args, **kwargs)")
    assert "record_function" not in plain.split("class Profiler")[1]
    assert not _lb116(plain)
