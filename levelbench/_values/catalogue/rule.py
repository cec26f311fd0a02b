"""`Rule`: one thing levelbench checks, under a stable code, with the explanation and the fix as code."""

from __future__ import annotations

import dataclasses

from ..findings import Severity

FAMILIES = {
    "0": ("measure", "`levelbench.measure` (and every measurement in `compare` and `run`), checking itself"),
    "1": ("doctor", "the static doctor, reading scripts and notebooks without running them"),
    "2": ("explain", "the dynamic doctor, `levelbench.explain`, running a JAX function"),
    "3": ("compare", "`levelbench.compare` and `levelbench run`, checking the candidates and the comparison"),
}


@dataclasses.dataclass(frozen=True)
class Rule:
    """One thing levelbench checks.

    Attributes:
        code: stable identifier: ``LB0xx`` measure, ``LB1xx`` static doctor, ``LB2xx`` explain,
            ``LB3xx`` compare.
        name: kebab-case name, stable too (used in SARIF and ``--explain``).
        severity: the usual severity of its findings: ``ERROR`` when the numbers are meaningless,
            ``WARNING`` when they are biased or the code is needlessly slow, ``INFO`` for a note
            (a few findings choose another, e.g. LB220 on code that is not jitted).
        summary: one line.
        why: what goes wrong and what it costs, a few sentences.
        bad: a minimal example that triggers it.
        good: the same example, fixed (the fix as code).
        cost: what the mistake does to the numbers.
        pitfall: the row of ``shared/research/PITFALLS.md`` it detects, if any.
        fix_safety: how ``levelbench doctor --fix`` treats the rule's findings: ``"safe"`` (fixed by
            ``--fix``: only how the code is timed changes), ``"unsafe"`` (fixed only with
            ``--unsafe-fixes``: the fix changes what the code computes), ``""`` (not auto-fixed: the
            fix above is a manual rewrite).
    """

    code: str
    name: str
    severity: Severity
    summary: str
    why: str
    bad: str
    good: str
    pitfall: int | None = None
    cost: str = ""
    fix_safety: str = ""

    @property
    def autofix(self) -> str:
        """One sentence on whether ``levelbench doctor --fix`` fixes this rule, for ``--explain`` and the docs."""
        if self.fix_safety == "safe":
            return "Auto-fix: safe. `levelbench doctor --fix` applies it (it changes only how the code is timed)."
        if self.fix_safety == "unsafe":
            return ("Auto-fix: unsafe. `levelbench doctor --fix --unsafe-fixes` applies it; it changes what the code "
                    "computes, so review the diff (`--diff`).")
        return "Auto-fix: none. The fix is a rewrite to make by hand; `--show-fixes` prints it in the script's names."

    @property
    def family(self) -> str:
        """``measure``, ``doctor``, ``explain`` or ``compare``."""
        return FAMILIES[self.code[2]][0]

    def explain(self) -> str:
        """The text ``levelbench doctor --explain CODE`` prints."""
        silence = (f"Silence one line with `# noqa: {self.code}` (or `# levelbench: ignore[{self.code}]`), a file with "
                   f"`# levelbench: ignore-file[{self.code}]`, or the rule with `--ignore {self.code}` or "
                   f"`ignore = [\"{self.code}\"]` in [tool.levelbench.doctor]."
                   if self.family == "doctor" else "")
        lines = [
            f"{self.code} {self.name} ({self.severity.name.lower()}, {self.family})",
            "",
            self.summary,
            "",
            self.why,
            "",
            f"Cost: {self.cost}.",
            "",
            "Triggers it:",
            "",
            _indent(self.bad),
            "",
            "Fix:",
            "",
            _indent(self.good),
        ]
        if self.family == "doctor" and self.code != "LB100":
            lines += ["", self.autofix]
        return "\n".join(lines + (["", silence] if silence else []))


def _indent(code: str) -> str:
    return "\n".join(("    " + line) if line else "" for line in code.strip("\n").splitlines())
