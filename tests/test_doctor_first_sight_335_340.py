"""What cases 335-340 showed at first sight, mended in the shared model (mend29).

- `Context.here` (`_context._benchmarks`): a function whose name has "time" as a word (``computeTime``,
  ``measure_time``, ``time_inference``) says it measures, as ``bench``/``speed``/``timing`` already did: it runs as
  a benchmark, not as a library function timing its own work for a log line (case 338: LB105 at the ``time.time()``
  start read of FastSaliency's ``computeTime``).

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
