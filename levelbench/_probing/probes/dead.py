"""LB220-LB222: work that XLA removes because nothing uses it.

A jitted program computes only what reaches its outputs. A function that returns nothing (the
seed GRU question), returns a constant, or drops most of its results is timed as a near-empty
program: the "compiled" time is dispatch. Evidence comes from the traced program (outputs,
liveness, matmul FLOPs the source asks for) and from XLA's cost analysis of what it compiled.
"""

from __future__ import annotations

from typing import Any

from ..._values.findings import Finding, Severity
from ..._values.units import fmt_time
from ..jaxpr import count_equations, iter_equations, liveness, matmul_flops, open_jaxpr, primitive_counts
from ..subject import Subject
from .base import Probe

_LOOPS = {"scan", "while"}


def run(subject: Subject) -> list[Finding]:
    trace = subject.traced()
    if not trace.ok:
        return []
    live = liveness(trace.jaxpr)
    source_flops = matmul_flops(trace.jaxpr)
    equations = count_equations(trace.jaxpr)
    subject.measured.update(equations=equations, outputs=live.outputs, matmul_flops=source_flops)
    if live.outputs == 0:
        return [_no_outputs(subject, equations, source_flops)] if equations else []
    inputs = len(open_jaxpr(trace.jaxpr).invars)
    if inputs and len(live.constant_outputs) == live.outputs and equations:
        return [_constant_outputs(subject, trace.out_tree, live.constant_outputs)]
    return _dead_share(subject, live, source_flops)


def _no_outputs(subject: Subject, equations: int, source_flops: float) -> Finding:
    counts = primitive_counts(subject.traced().jaxpr)
    work = f"{equations:,} equations"
    if counts.get("dot_general"):
        work += f" ({counts['dot_general']:,} matmuls, {_flops(source_flops)})"
    evidence = [f"the traced program has {work} and no outputs"]
    if subject.is_jitted or not subject.quick:
        evidence.append(_compiled_work(subject.cost()))
        m = subject.jitted_timing()
        if m is not None:
            inputs = len(open_jaxpr(subject.traced().jaxpr).invars)
            takes = "a call takes" if subject.is_jitted else "jitted, a call takes"
            timing = f"{takes} {fmt_time(m.median)} (passing {inputs} input array(s)"
            if m.dispatch_floor:
                timing += f"; an empty jitted call takes {fmt_time(m.dispatch_floor)}"
            evidence.append(timing + "): what a timer measures there is dispatch, not the model")
            subject.measured["steady"] = m.median
    name = subject.label
    if subject.is_jitted:
        title = f"{name} returns nothing: XLA removed all of its work"
        cost = "every timing of this function measures dispatch overhead only; the computation never runs"
        severity = Severity.ERROR
    else:
        title = f"{name} returns nothing: under jax.jit, XLA would remove all of its work"
        cost = "run eagerly the work happens; jitted as it is, only dispatch would be timed"
        # Unjitted, the work runs and is timed: a note for when it gets jitted, not a cause.
        severity = Severity.INFO
    return Finding(
        "LB220",
        title,
        severity,
        evidence="; ".join(evidence),
        cost=cost,
        fix="return what you compute, and wait for it when timing:\n"
            "    return jnp.stack(ys)          # not: ys.append(y) and fall off the end\n"
            "jax.block_until_ready(f(*args))",
        subject=name,
        data={"equations": equations, "matmul_flops": source_flops},
    )


def _compiled_work(cost: dict[str, float] | None) -> str:
    if cost is None:
        return "XLA gave no cost analysis for the compiled program"
    flops = cost.get("flops")
    if not cost or flops is None:
        return "XLA's cost analysis of the compiled program is empty: nothing is left to compute"
    return f"XLA's compiled program does {_flops(flops)}"


def _constant_outputs(subject: Subject, out_tree: Any, constant: tuple[int, ...]) -> Finding:
    every = output_names(out_tree, max(constant) + 1)
    names = [every[i] if i < len(every) else f"output {i}" for i in constant]
    return Finding(
        "LB221",
        f"{subject.label}'s output does not depend on its inputs: XLA computes a constant",
        Severity.WARNING,
        evidence=f"{len(constant)} output(s) ({', '.join(names[:4])}) are computed from constants and "
                 "closed-over values only; no input array reaches them",
        cost="the time measured is that of producing a constant, whatever the inputs",
        fix="pass the arrays the result depends on as arguments (not globals captured at trace time):\n"
            "    f = jax.jit(lambda params, x: model.apply(params, x))",
        subject=subject.label,
        data={"constant_outputs": list(constant)},
    )


def _dead_share(subject: Subject, live: Any, source_flops: float) -> list[Finding]:
    compiled_flops = None
    loops = any(e.primitive.name in _LOOPS for e in iter_equations(subject.traced().jaxpr))
    if source_flops >= 1e6 and not loops and (subject.is_jitted or not subject.quick):
        cost = subject.cost()
        compiled_flops = cost.get("flops") if cost else None
    removed_by_xla = compiled_flops is not None and 0 <= compiled_flops < 0.01 * source_flops
    if not (live.dead_matmuls or removed_by_xla):
        return []
    parts = []
    if live.dead_matmuls:
        parts.append(
            f"{live.dead_matmuls} of {live.matmuls} matmuls ({_flops(live.dead_matmul_flops)}) and "
            f"{live.dead_equations:,} of {live.equations:,} top-level equations never reach an output"
        )
    if removed_by_xla:
        parts.append(f"the source asks for {_flops(source_flops)} of matmuls; XLA's compiled program does "
                     f"{_flops(compiled_flops)}")
    share = live.dead_matmul_flops / source_flops if source_flops else 0.0
    return [Finding(
        "LB222",
        "XLA removes work whose results are never returned"
        + (f" ({share:.0%} of the matmul FLOPs)" if share else ""),
        Severity.WARNING,
        evidence="; ".join(parts),
        cost="the time measured leaves that work out: a comparison against a framework that does it is unfair",
        fix="return every result you mean to compute (e.g. `return ys` rather than `return ys[-1]`),\n"
            "or delete the computation if it is not needed",
        subject=subject.label,
        data={"dead_matmuls": live.dead_matmuls, "dead_equations": live.dead_equations,
              "dead_matmul_flops": live.dead_matmul_flops, "matmul_flops": source_flops,
              "compiled_flops": compiled_flops},
    )]


def output_names(out_tree: Any, n: int) -> list[str]:
    import jax

    try:
        outputs = jax.tree_util.tree_unflatten(out_tree, list(range(out_tree.num_leaves)))
        flat, _ = jax.tree_util.tree_flatten_with_path(outputs)
        return ["out" + jax.tree_util.keystr(path) for path, _ in flat]
    except Exception:  # an output tree JAX cannot rebuild: name outputs by number
        return [f"output {i}" for i in range(n)]


def _flops(flops: float) -> str:
    if flops >= 1e9:
        return f"{flops / 1e9:,.3g} GFLOP"
    if flops >= 1e6:
        return f"{flops / 1e6:,.3g} MFLOP"
    return f"{flops:,.0f} FLOP"


PROBE = Probe("dead", ("LB220", "LB221", "LB222"), run,
              summary="outputs that are empty or constant, work XLA removes")
