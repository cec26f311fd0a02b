"""Where a PyTorch tensor (or module) is at a point of the program: on CUDA, on the CPU, on the device the function
around it is handed, or not known.

A torch function works where its tensors are, or makes one on its ``device=`` (the CPU when none is given and the file
sets no default); ``.cuda()``, ``.cpu()`` and ``.to("cuda")`` move one (``.to(dtype)`` casts, moving nothing); a name is
where the binding that reaches it put it, in program order, a device's name too (``device = torch.device("cuda")``).
Every rule asks here, the same way:

    t = torch.randn(n)          # devices.of(t) at the next line: "cpu"
    torch.det(t)                # "cpu": `t` is still on the CPU here
    t = t.cuda()
    y = t @ t                   # "cuda"

    def measure(block, device):
        block.to(device)        # "handed": the device its callers pass
"""

from __future__ import annotations

import ast
from typing import Literal

from ._kinds import Kinds, call_kind
from ._names import dotted
from ._program import Program
from ._syntax import enclosing_function, local_walk, parameter_default

Device = Literal["cuda", "cpu", "xla", "handed"]

# A tensor's movers taken unbound, as a parameter's default (`transfer_to_device_fn=torch.Tensor.to`): the method each is
_UNBOUND_MOVERS = {"torch.Tensor.to": "to", "torch.Tensor.cuda": "cuda", "torch.Tensor.cpu": "cpu"}
"""``"handed"``: the device the function around the value is given as a parameter (its callers choose it); ``"xla"``:
PyTorch/XLA's device (`Facts.is_xla_device`)."""


class Devices:
    """Answers "what device is this tensor on here" for one program; each value's answer is kept once found."""

    def __init__(self, kinds: Kinds) -> None:
        self.kinds, self.facts, self.names = kinds, kinds.facts, kinds.names
        self.program = kinds.facts.program
        self._of: dict[ast.AST, Device | None] = {}
        self._dtypes: dict[tuple[ast.AST, str], bool] = {}  # (function, parameter) -> `_holds_a_dtype`

    def of(self, value: ast.AST | None) -> Device | None:
        """``"cuda"``, ``"cpu"``, ``"xla"`` or ``"handed"`` (see `named`) where the file shows where the tensor ``value`` (or
        the torch work that makes it) is, in program order; None when it does not (a module, a parameter, a device
        chosen at run time). ``t = t.cuda()`` on a later line leaves an earlier ``torch.det(t)`` on the CPU."""
        if value is None:
            return None
        if value not in self._of:
            self._of[value] = self._find(value, 0)
        return self._of[value]

    def named(self, value: ast.AST | None, depth: int = 0) -> Device | None:
        """The device a literal names: ``"cuda:0"``, ``"cpu"``, ``torch.device("cuda")``, or the name whose binding
        reaches ``value`` holds (``device = torch.device("cuda")`` then ``x.to(device)``); ``"handed"`` for a parameter
        of the function around it that nothing rebinds before (``block.to(device)`` in ``def measure(device)``) and
        that the function does not say is a dtype (``.to(dtype)`` casts; see `_holds_a_dtype`); ``"xla"`` for
        PyTorch/XLA's device (`Facts.is_xla_device`); None for anything else (a device chosen at run time)."""
        if value is None or depth > 8:
            return None
        if self.facts.is_xla_device(value):
            return "xla"
        if isinstance(value, ast.Call) and value.args and (dotted(value.func) or "").endswith("device"):
            value = value.args[0]
        if isinstance(value, ast.Constant) and isinstance(value.value, str):
            kind = value.value.split(":")[0]
            return kind if kind in ("cuda", "cpu") else None  # type: ignore[return-value]
        if not isinstance(value, ast.Name):
            return None
        bound = self.facts.bindings.reaching(value.id, value)
        if bound is not None:
            return self.named(bound, depth + 1)
        function = enclosing_function(self.program, value)
        args = getattr(function, "args", None)
        if args is None or value.id not in {a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]}:
            return None
        if (function, value.id) not in self._dtypes:  # asked per `.to(...)`: the function is walked once per parameter
            self._dtypes[(function, value.id)] = _holds_a_dtype(self.program, function, value.id)
        return None if self._dtypes[(function, value.id)] else "handed"

    def moved_to_cuda(self, value: ast.AST, depth: int = 0) -> bool:
        """``value`` is a tensor the file moved to CUDA: ``t.cuda()``, a method of one (``img.unsqueeze(0)``), or a
        name bound to one by any of its bindings."""
        if depth > 6:
            return False
        if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute):
            return value.func.attr == "cuda" or self.moved_to_cuda(value.func.value, depth + 1)
        if isinstance(value, ast.Name):
            return any(self.moved_to_cuda(v, depth + 1) for v in self.facts.bindings.values_at(value.id, value))
        return False

    def _find(self, value: ast.AST | None, depth: int) -> Device | None:
        if value is None or depth > 8:
            return None
        depth += 1
        if isinstance(value, ast.Name):
            return self._find(self.facts.bindings.reaching(value.id, value), depth)
        if isinstance(value, ast.Subscript) or (isinstance(value, ast.Attribute) and self.kinds.of(value) == "torch"):
            return self._find(value.value, depth)  # `x[0]`, `x.T`: where `x` is
        if not isinstance(value, ast.Call):
            return None
        func = value.func
        qualified = self.names.qualname(func)
        if qualified is None and isinstance(func, ast.Attribute):
            if func.attr in ("cuda", "cpu"):
                return func.attr  # type: ignore[return-value]
            if func.attr == "to":
                target = value.args[0] if value.args else next((k.value for k in value.keywords if k.arg == "device"), None)
                return self.named(target)
            return self._find(func.value, depth)  # `t.float()`, `t.sum()`: where `t` is
        if qualified is None and isinstance(func, ast.Name):
            function = self.facts.local_def(value)
            method = self._default_method(value) if function is None else None
            if method is not None:  # `transfer_to_device_fn(sample, model_device)`: `sample.to(model_device)`
                if method == "to":
                    moved = value.args[1:2] or [k.value for k in value.keywords if k.arg == "device"]
                    return self.named(moved[0]) if moved else None
                return method  # type: ignore[return-value]
            if function is None:
                found = self._find(func, depth)  # `block(x)`: a module runs where it was moved
                if found is None and not self.facts.is_torch_model_call(value) and self._given_tensors(value):
                    return self._where_tensors_are(value, depth)  # `det = partial(torch.det)`: a torch function
                return found
            # a local function works where its torch work does, when the file shows one place for all of it
            work = [
                n for n in local_walk(self.program, function)
                if isinstance(n, ast.Call) and (self.facts.is_torch_model_call(n) or self.kinds.of(n) == "torch")
            ]
            places = {self._find(n, depth) for n in work}
            return places.pop() if len(places) == 1 else None
        if qualified is None and isinstance(func, ast.Subscript) and self._given_tensors(value):
            return self._where_tensors_are(value, depth)  # `fns["det"](t)`: a torch function kept in a container
        if qualified is None or not qualified.startswith("torch.") or call_kind(qualified) != "torch":
            return None
        return self._where_tensors_are(value, depth)

    def _default_method(self, call: ast.Call) -> str | None:
        """``"to"``, ``"cuda"`` or ``"cpu"`` when ``call`` calls a parameter of the function around it whose default is
        that tensor method taken unbound (pytorch-benchmark's ``transfer_to_device_fn=torch.Tensor.to``) and that the
        function never rebinds: its callers may pass another mover, but the default says what the code means, and
        ``transfer_to_device_fn(sample, model_device)`` moves the sample to the device as ``sample.to(...)`` does."""
        name = call.func.id  # type: ignore[attr-defined]
        function = enclosing_function(self.program, call)
        args = getattr(function, "args", None)
        if args is None:
            return None
        default = parameter_default(args, name)
        method = _UNBOUND_MOVERS.get(self.names.qualname(default) or "") if default is not None else None
        if method is None or any(
            isinstance(n, ast.Name) and n.id == name and not isinstance(n.ctx, ast.Load)
            for n in local_walk(self.program, function)
        ):
            return None
        return method

    def _given_tensors(self, call: ast.Call) -> bool:
        """A torch computation whose callee is not resolved (a partial, a container's element), given tensors: it
        works where they are."""
        return self.kinds.of(call) == "torch" and any(self.kinds.of(a) == "torch" for a in call.args)

    def _where_tensors_are(self, value: ast.Call, depth: int) -> Device | None:
        """Where a torch function works: on its ``device=``, else where its tensor arguments all are (the CPU when it
        is given none and the file sets no default device)."""
        placed = next((k.value for k in value.keywords if k.arg == "device"), None)
        if placed is not None:
            return self.named(placed)
        tensors = [a for a in value.args if self.kinds.of(a) == "torch"]
        if not tensors:
            return None if "set_default_device" in self.program.text else "cpu"
        found = {self._find(a, depth) for a in tensors}
        return found.pop() if len(found) == 1 else None


def _holds_a_dtype(program: Program, function: ast.AST, parameter: str) -> bool:
    """The ``function``'s own code says its ``parameter`` is a dtype, not a device: its annotation names one
    (``dtype: torch.dtype``), the function hands it on as a ``dtype=`` argument (``torch.randn(n, dtype=dtype)``), or
    its name is one (``dtype``, ``compute_dtype``). ``block.to(dtype)`` then casts the module where it is."""
    if parameter == "dtype" or parameter.endswith("_dtype"):
        return True
    args: ast.arguments = function.args  # type: ignore[attr-defined]
    for arg in [*args.posonlyargs, *args.args, *args.kwonlyargs]:
        if arg.arg == parameter and arg.annotation is not None:
            annotation = arg.annotation
            written = annotation.value if isinstance(annotation, ast.Constant) else dotted(annotation)
            if isinstance(written, str) and written.rsplit(".", 1)[-1] == "dtype":
                return True
    return any(
        isinstance(node, ast.keyword) and node.arg == "dtype"
        and isinstance(node.value, ast.Name) and node.value.id == parameter
        for node in local_walk(program, function)
    )
