"""LB280-LB283: how a PyTorch module passed to `explain` runs: autograd, training mode, threads, device, dtype.

These decide whether a PyTorch baseline is comparable with a jitted JAX function: autograd and
training mode add work JAX's forward pass does not do, and thread counts and dtypes must match.
"""

from __future__ import annotations

import collections
from typing import Any

from ..._values.cores import usable_cores
from ..._values.findings import Finding, Severity
from ..._values.units import fmt_time
from ..subject import Subject
from .base import Probe
from ..._measuring.sampler import quick_timing
from ..._values.pytree import leaves

_STOCHASTIC = ("Dropout", "BatchNorm", "AlphaDropout", "FeatureAlphaDropout")


def run(subject: Subject) -> list[Finding]:
    import torch


    modules = [m for m in (subject.fn, getattr(subject.fn, "__self__", None)) if isinstance(m, torch.nn.Module)]
    given = leaves((subject.args, subject.kwargs))
    trained = [t for t in given if isinstance(t, torch.Tensor) and t.requires_grad and t.is_leaf]
    trained += [p for m in (*modules, *(g for g in given if isinstance(g, torch.nn.Module))) for p in m.parameters()]
    before = [_grad_state(t) for t in trained]
    out = subject.fn(*subject.args, **subject.kwargs)
    found = []
    tensors_out = [t for t in leaves(out) if isinstance(t, torch.Tensor)]
    # a call that runs its own backward pass (`loss.backward()`, gradients written) times training: the graph
    # is the work, and inference mode, where backward cannot run, is no fair comparison
    backward = any(_grad_state(t) != b for t, b in zip(trained, before))
    if torch.is_grad_enabled() and any(t.requires_grad for t in tensors_out) and not backward:
        found.append(_autograd(subject))
    if modules and modules[0].training:
        found.append(_training(modules[0]))
    subject.measured.update(torch_threads=torch.get_num_threads(), cores=usable_cores())
    found += threads(torch.get_num_threads(), usable_cores())
    inputs = [t for t in leaves((subject.args, subject.kwargs)) if isinstance(t, torch.Tensor)]
    params = list(modules[0].parameters()) if modules else []
    found += device_and_dtype(inputs, params)
    return found


def _grad_state(tensor: Any) -> tuple[int, int] | None:
    """Which gradient a leaf holds and how often it was written: a backward pass sets ``.grad`` or adds to it."""
    grad = tensor.grad
    return None if grad is None else (id(grad), grad._version)


def _autograd(subject: Subject) -> Finding:
    import torch

    evidence = "torch.is_grad_enabled() is True and the output has requires_grad=True"
    data: dict[str, Any] = {}
    if not subject.quick:
        with_grad = subject.timing()

        def no_grad(*a: Any, **k: Any) -> Any:
            with torch.inference_mode():
                return subject.fn(*a, **k)


        try:
            without = quick_timing(no_grad, subject.args, subject.kwargs, subject.measure_budget)
        except Exception:  # the module cannot run under inference_mode: keep the evidence we have
            without = None
        if with_grad and without:
            subject.measured.update(steady=with_grad.median, inference_mode=without.median)
            saving = with_grad.median - without.median
            evidence += f"; {fmt_time(with_grad.median)} per call, {fmt_time(without.median)} under inference_mode"
            data = {"cost_seconds": max(saving, 0.0), "with_grad": with_grad.median, "inference_mode": without.median}
    return Finding(
        "LB280",
        "PyTorch records an autograd graph on every call",
        Severity.WARNING,
        evidence=evidence,
        cost=f"{fmt_time(data['cost_seconds'])} per call" if data else "autograd bookkeeping and saved activations",
        fix="with torch.inference_mode():\n    out = model(x)",
        data=data,
    )


def _training(module: Any) -> Finding:
    kinds = collections.Counter(type(m).__name__ for m in module.modules() if type(m).__name__.startswith(_STOCHASTIC))
    active = ", ".join(f"{k} x{n}" for k, n in kinds.items())
    return Finding(
        "LB281",
        f"{type(module).__name__} is in training mode",
        Severity.WARNING if kinds else Severity.INFO,
        evidence="module.training is True" + (f"; it has {active}, which behave differently in training" if kinds else ""),
        cost="dropout masks and batch-norm statistic updates run on every call" if kinds else
             "no layer here changes with the mode, but a benchmark should still use eval()",
        fix="model.eval()",
        subject=type(module).__name__,
    )


def threads(torch_threads: int, cores: int) -> list[Finding]:
    if torch_threads == cores:
        return []
    return [Finding(
        "LB282",
        f"PyTorch uses {torch_threads} thread(s); XLA uses all {cores} core(s)",
        Severity.INFO,
        evidence=f"torch.get_num_threads() = {torch_threads}, cores available to this process = {cores}",
        cost="a JAX/PyTorch comparison on different thread counts compares the thread counts",
        fix=f"torch.set_num_threads({cores})   # or pin both to the same cores: taskset -c 0-{cores - 1} python ...",
        data={"torch_threads": torch_threads, "cores": cores},
    )]


def device_and_dtype(inputs: list[Any], params: list[Any]) -> list[Finding]:
    tensors = inputs + params
    if not tensors:
        return []
    dtypes = collections.Counter(str(t.dtype).removeprefix("torch.") for t in tensors)
    devices = collections.Counter(str(t.device) for t in tensors)
    summary = (f"dtypes: {', '.join(f'{d} x{n}' for d, n in dtypes.items())}; "
               f"devices: {', '.join(f'{d} x{n}' for d, n in devices.items())}")
    if "float64" in dtypes:
        return [Finding(
            "LB283",
            "PyTorch computes in float64 here: JAX computes float32 unless jax_enable_x64 is on",
            Severity.WARNING,
            evidence=summary,
            cost="float64 work is about twice float32's on CPU (much more on GPU): not the same work as JAX's",
            fix="model = model.float(); x = x.float()   # or enable x64 in JAX for both",
            data={"dtypes": dict(dtypes), "devices": dict(devices)},
        )]
    if len(devices) > 1:
        return [Finding(
            "LB283",
            "tensors are on different devices",
            Severity.WARNING,
            evidence=summary,
            cost="every call copies between devices",
            fix="model.to(device); x = x.to(device)",
            data={"dtypes": dict(dtypes), "devices": dict(devices)},
        )]
    return [Finding(
        "LB283",
        f"runs on {next(iter(devices))} in {', '.join(dtypes)}",
        Severity.INFO,
        evidence=summary,
        fix="compare against JAX on the same device and dtype",
        data={"dtypes": dict(dtypes), "devices": dict(devices)},
    )]


PROBE = Probe("torch", ("LB280", "LB281", "LB282", "LB283"), run, frameworks=("torch",),
              summary="PyTorch modules: autograd, training mode, threads, device and dtype")
