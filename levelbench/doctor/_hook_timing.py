"""Clock pairs split over the hooks of a training loop's callback.

A framework's training or inference loop calls a callback's hooks around each batch or epoch
(``on_train_batch_begin`` / ``on_train_batch_end`` of a Keras ``Callback``, ``on_step_begin`` / ``on_step_end`` of a
transformers ``TrainerCallback``, Lightning's ``on_train_batch_start`` / ``on_train_batch_end``). A callback that
reads a clock in one hook, keeps it on ``self`` and subtracts it in another hook times the framework's work that runs
between the two calls, none of which is written in the file::

    class StepTimer(keras.callbacks.Callback):
        def on_train_batch_begin(self, batch, logs=None):
            self.start = time.time()                   # <- the start read of a pair
        def on_train_batch_end(self, batch, logs=None):
            self.step_time = time.time() - self.start  # <- its end, in another hook

`hook_pairs` finds these pairs; a rule that asks about the clock itself (LB105, the wall clock) reads them. The work
is the framework's, so nothing is said about waits or warm-ups here: which batches the window spans is decided by
values the file may set anywhere (``start_batch=1``).
"""

from __future__ import annotations

import ast
import dataclasses

from ._names import Names
from ._program import Program
from ._regions import CLOCKS, clock_read


_HOOKS = (ast.FunctionDef, ast.AsyncFunctionDef)


@dataclasses.dataclass(frozen=True)
class HookPair:
    """One clock read kept on the callback in ``start_hook`` and subtracted in ``end_hook``.

    Attributes:
        start: the clock call of the start read (``time.time()``).
        clock: its qualified name (``"time.time"``).
        start_hook: the hook that reads it; end_hook: another hook of the same class that subtracts it.
        callback: the callback class.
    """

    start: ast.Call
    clock: str
    start_hook: ast.FunctionDef | ast.AsyncFunctionDef
    end_hook: ast.FunctionDef | ast.AsyncFunctionDef
    callback: ast.ClassDef


def is_callback_class(names: Names, cls: ast.ClassDef) -> bool:
    """``cls`` derives from an imported callback class: a base whose qualified name ends in ``Callback``
    (``keras.callbacks.Callback``, ``tf.keras.callbacks.Callback``, ``transformers.TrainerCallback``,
    ``lightning.pytorch.callbacks.Callback``): the framework's loop calls its hooks."""
    for base in cls.bases:
        qualified = names.qualname(base)
        if qualified is not None and "." in qualified and qualified.rsplit(".", 1)[-1].endswith("Callback"):
            return True
    return False


def hook_pairs(program: Program, names: Names) -> tuple[HookPair, ...]:
    """Every start read of a callback class kept on ``self`` (``self.start = time.time()``, ``self.state["begin"] =
    time.time()``) and subtracted (``... - self.start``) in another of its methods, one pair per start read, in
    program order."""
    found: list[HookPair] = []
    for cls in program.of_type(ast.ClassDef):
        if not isinstance(cls, ast.ClassDef) or not is_callback_class(names, cls):
            continue
        methods = [s for s in cls.body if isinstance(s, _HOOKS)]
        subtracted = {m: _subtracted(m) for m in methods}
        for method in methods:
            for target, call, clock in _kept_reads(names, method):
                ends = [m for m in methods if m is not method and target in subtracted[m]]
                end = next((m for m in ends if m.name == _closing_hook(method.name)), ends[0] if ends else None)
                if end is not None:
                    found.append(HookPair(call, clock, method, end, cls))
    return tuple(sorted(found, key=lambda p: (p.start.lineno, p.start.col_offset)))


def _closing_hook(name: str) -> str:
    """The hook that closes ``name``'s window: ``on_train_batch_begin`` -> ``on_train_batch_end``."""
    for opening in ("_begin", "_start"):
        if name.endswith(opening):
            return name.removesuffix(opening) + "_end"
    return name


def _self_name(method: ast.AST) -> str | None:
    args = getattr(method, "args", None)
    positional = [*args.posonlyargs, *args.args] if args is not None else []
    return positional[0].arg if positional else None


def _on_self(node: ast.AST, self_name: str) -> bool:
    """``self.start`` or ``self.state["begin"]``: a place on the instance, which another hook can read."""
    while isinstance(node, ast.Subscript):
        node = node.value
    return isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == self_name


def _kept_reads(names: Names, method: ast.AST) -> list[tuple[str, ast.Call, str]]:
    """The clock reads ``method`` keeps on the instance: (the place, as ``ast.dump`` writes it; the call; its clock)."""
    self_name = _self_name(method)
    if self_name is None:
        return []
    reads = []
    for node in ast.walk(method):
        if not (isinstance(node, ast.Assign) and len(node.targets) == 1 and _on_self(node.targets[0], self_name)):
            continue
        call = clock_read(node.value)
        if not isinstance(call, ast.Call) or call.args:
            continue
        clock = names.qualname(call.func)
        if clock in CLOCKS:
            reads.append((_place(node.targets[0], self_name), call, clock))
    return reads


def _subtracted(method: ast.AST) -> set[str]:
    """The places on the instance that ``method`` subtracts from something (``time.time() - self.start``) to keep
    the interval, not to compare it with a limit (``if time.time() - self.last > 3600:``, a schedule: jax_trainer's
    profiler callback, case 357; ``elapsed = time.time() - self.t0`` read only in ``elapsed >= self.timeout``, NetKet's
    ``Timeout`` callback): those time no work and report no figure."""
    self_name = _self_name(method)
    if self_name is None:
        return set()
    compared = {id(n) for c in ast.walk(method) if isinstance(c, ast.Compare) for n in ast.walk(c)}
    only_compared = {  # `elapsed = time.time() - self.t0`, then only `if elapsed >= self.timeout:`
        id(a.value)
        for a in ast.walk(method)
        if isinstance(a, ast.Assign) and len(a.targets) == 1 and isinstance(a.targets[0], ast.Name)
        and _read_only_in_comparisons(method, a.targets[0].id, compared)
    }
    return {
        _place(node.right, self_name)
        for node in ast.walk(method)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Sub) and _on_self(node.right, self_name)
        and id(node) not in compared and id(node) not in only_compared
    }


def _read_only_in_comparisons(method: ast.AST, name: str, compared: set[int]) -> bool:
    reads = [n for n in ast.walk(method) if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load)]
    return bool(reads) and all(id(n) in compared for n in reads)


def _place(node: ast.AST, self_name: str) -> str:
    """A place on the instance written the same way in every method, whatever each calls its first parameter."""
    text = ast.unparse(node)
    return "self" + text[len(self_name):]
