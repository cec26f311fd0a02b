"""LB290-LB291: JAX debug settings that slow every call (or switch jit off altogether)."""

from __future__ import annotations

from ..._values.findings import Finding, Severity
from ..subject import Subject
from .base import Probe

# option -> (severity, what it costs)
_DEBUG_OPTIONS = {
    "jax_debug_nans": (Severity.WARNING, "every jitted call is checked for NaNs on the host (a device-to-host sync), "
                       "and re-run op by op when one is found"),
    "jax_debug_infs": (Severity.WARNING, "every jitted call is checked for infinities on the host (a device-to-host sync)"),
    "jax_enable_checks": (Severity.WARNING, "JAX runs internal consistency checks on every trace and call"),
    "jax_log_compiles": (Severity.INFO, "each compilation is logged (harmless for speed, noisy)"),
}


def run(subject: Subject, config: object | None = None) -> list[Finding]:
    if config is None:
        import jax

        config = jax.config
    found = []
    if getattr(config, "jax_disable_jit", False):
        found.append(Finding(
            "LB290",
            "jax.jit is disabled (jax_disable_jit=True): every jitted function runs op by op",
            Severity.ERROR,
            evidence="jax.config.jax_disable_jit is True",
            cost="no compilation happens: each primitive is dispatched on its own, often 10-1000x slower",
            fix='jax.config.update("jax_disable_jit", False)  # and unset JAX_DISABLE_JIT',
            data={"option": "jax_disable_jit"},
        ))
    on = [name for name in _DEBUG_OPTIONS if getattr(config, name, False)]
    for name in on:
        severity, cost = _DEBUG_OPTIONS[name]
        found.append(Finding(
            "LB291",
            f"debug option {name} is on",
            severity,
            evidence=f"jax.config.{name} is True",
            cost=cost,
            fix=f'jax.config.update("{name}", False)  # for timing; keep it for debugging only',
            subject=name,
            data={"option": name},
        ))
    return found


PROBE = Probe("config", ("LB290", "LB291"), run, summary="JAX debug options that slow every call")
