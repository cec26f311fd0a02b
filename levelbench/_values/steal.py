"""CPU steal time in a recorded environment, in the words of a noise note.

The measuring layer records ``environment["steal"]`` (`levelbench._measuring.environment.steal_record`:
the share of the machine's CPU time that the hypervisor gave to other virtual machines while the
samples were taken); the checks (LB003) and the renderers (the noise line) read it from here.
"""

from __future__ import annotations

from typing import Any

from .settings import CHECKS


def steal_share(environment: dict[str, Any]) -> float | None:
    """The recorded steal share (0..1), or None where the kernel reports none or nothing was recorded."""
    share = (environment.get("steal") or {}).get("share")
    return float(share) if share is not None else None


def steal_text(environment: dict[str, Any]) -> str:
    """``; another virtual machine on this host took 12% of the CPU during sampling (steal time)``
    when the recorded steal is at least `CHECKS.steal_named` (enough to be a likely cause of noise), else ``""``."""
    share = steal_share(environment)
    if share is None or share < CHECKS.steal_named:
        return ""
    return f"; another virtual machine on this host took {share:.0%} of the CPU during sampling (steal time)"
