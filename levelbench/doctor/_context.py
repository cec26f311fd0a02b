"""Everything a check needs about one program, built once, and the one way checks report."""

from __future__ import annotations

import ast
import dataclasses

from .._values.findings import Finding
from .._values.catalogue import RULES
from ._diagnostic import Diagnostic
from ._facts import Facts
from ._kinds import Kinds
from ._names import Names
from ._program import Program
from ._regions import TimedRegion, find_regions
from ._syntax import local_walk


@dataclasses.dataclass(frozen=True)
class Context:
    program: Program
    names: Names
    facts: Facts
    kinds: Kinds
    regions: tuple[TimedRegion, ...]
    _working: dict[ast.AST, bool] = dataclasses.field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def build(cls, program: Program) -> Context:
        names = Names(program.of_type(*Names.BINDING_NODES))
        facts = Facts(program, names)
        return cls(program, names, facts, Kinds(facts), find_regions(program, facts))

    def report(
        self,
        code: str,
        node: ast.AST,
        message: str,
        *,
        end: ast.AST | None = None,
        evidence: str = "",
        fix: str = "",
    ) -> Diagnostic:
        """A diagnostic for rule ``code`` at ``node`` (through ``end``)."""
        rule = RULES[code]
        location = self.program.location(node, end)
        finding = Finding(
            code=code,
            title=message,
            severity=rule.severity,
            evidence=evidence,
            cost=rule.cost,
            fix=fix,
            subject=str(location),
            data={"rule": rule.name, **location.to_dict()},
        )
        virtual = getattr(node, "lineno", 1)
        source_line = self.program.line_text(virtual)
        return Diagnostic(location=location, finding=finding, rule=rule.name, source_line=source_line)

    def where(self, node: ast.AST) -> str:
        """``"line 12"`` or ``"cell 3, line 2"``: a short place name for messages."""
        location = self.program.location(node)
        return f"cell {location.cell}, line {location.line}" if location.in_notebook else f"line {location.line}"

    # --- shared questions ----------------------------------------------------------------------
    def does_framework_work(self, call: ast.Call) -> bool:
        """The call computes with JAX, PyTorch or NumPy (directly, or in a local function it calls)."""
        facts = self.facts
        if facts.calls_jax_callable(call) or facts.is_flax_call(call) or facts.is_torch_model_call(call):
            return True
        if self.kinds.of(call) is not None:
            return True
        function = facts.local_def(call)
        return function is not None and self._function_works(function)

    def _function_works(self, function: ast.AST) -> bool:
        memo = self._working
        if function not in memo:
            memo[function] = False  # recursion guard
            body = local_walk(self.program, function)
            memo[function] = any(isinstance(n, ast.Call) and self.does_framework_work(n) for n in body)
        return memo[function]
