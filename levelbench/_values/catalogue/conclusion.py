"""Which findings change what a comparison concludes, so `levelbench run` shows them by default.

A timing table answers "which is faster, by how much". Most findings refine that answer (noise, a
cold start, a note on threads) and are shown with ``-v``, in the JSON and in the HTML report. The
codes here can overturn it: the candidates do not compute the same thing (wrong work, different
results, dead code), or a JAX candidate's time is not what its code costs (an unrolled loop,
recompilation, JIT turned off). Every finding of severity error is one of them too.
"""

from __future__ import annotations

from ..findings import Finding, Severity

CHANGES_CONCLUSION: frozenset[str] = frozenset({
    # wrong work: nothing, or not the same thing, was computed
    "LB001", "LB002", "LB230", "LB303", "LB304",
    # different inputs or results
    "LB301", "LB302",
    # unrolled loops
    "LB201", "LB202",
    # dead code
    "LB220", "LB221", "LB222",
    # recompiles, and JIT off
    "LB006", "LB210", "LB211", "LB290",
})
"""Codes whose findings are shown under a comparison's table by default, whatever their severity."""

NOISE = "LB003"
"""The per-candidate noise check: summed up in one machine-level line by default."""


def changes_conclusion(finding: Finding) -> bool:
    """True when ``finding`` can overturn the comparison's answer (see the module's docstring)."""
    return finding.code in CHANGES_CONCLUSION or finding.severity >= Severity.ERROR
