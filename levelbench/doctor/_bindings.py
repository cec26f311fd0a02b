"""What names denote, for callables: every value bound to each name, a container's elements, a class's methods.

Flow-insensitive like most of the doctor's facts (`reaching` is the exception, for a value in program order): a name assigned ``jax.jit(f)`` in one branch and ``f``
in the other denotes both. Scope-aware: a value assigned inside a function is seen only from that function
(and functions nested in it); a module-level one from everywhere.

    f_jit = jax.jit(f)            # values["f_jit"] = [jax.jit(f)]
    fns = {"jax": f_jit, "np": g}  # elements(fns) = [f_jit, g]
    for name, fn in fns.items():  # values["fn"] = [f_jit, g]
    m = Model(); m.apply          # method_key(m.apply) = "Model.apply"
"""

from __future__ import annotations

import ast

from ._names import Names, dotted
from ._program import Program
from ._syntax import FUNCTIONS as FUNCTION_SCOPES
from ._syntax import enclosing_function, parameter_names, position, running_function

FunctionNode = ast.FunctionDef | ast.AsyncFunctionDef


class Bindings:
    """The values bound to names in one program (assignments, tuple unpacking, loops over containers)."""

    def __init__(self, program: Program, names: Names, classes: dict[str, ast.ClassDef]) -> None:
        self.program = program
        self.names = names
        self.classes = classes
        self.values: dict[str, list[tuple[ast.expr, ast.AST | None]]] = {}  # name -> (value, scope bound in)
        self.methods: dict[str, FunctionNode] = {}  # "Class.method" -> its def, for local classes
        self._store_index: dict[str, list[ast.Name]] | None = None  # name -> every ast.Name that binds it
        self._name_index: dict[str, list[ast.Name]] | None = None  # name -> every ast.Name of it
        for node in self.program.of_type(ast.Assign, ast.AnnAssign, ast.FunctionDef, ast.AsyncFunctionDef):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                parent = self.program.parent(node)
                if isinstance(parent, ast.ClassDef):
                    self.methods[f"{parent.name}.{node.name}"] = node
                continue
            if node.value is None:
                continue
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            pairs: list[tuple[ast.AST, ast.expr]] = []
            for target in targets:
                if isinstance(target, (ast.Tuple, ast.List)) and isinstance(node.value, (ast.Tuple, ast.List)):
                    if len(target.elts) == len(node.value.elts):
                        pairs.extend(zip(target.elts, node.value.elts))
                else:
                    pairs.append((target, node.value))
            scope = enclosing_function(self.program, node)
            for target, value in pairs:
                name = dotted(target)
                if name is not None:
                    self.values.setdefault(name, []).append((value, scope))
        # a loop over a container binds its variable to each element: `for fn in (f_jit, g)`,
        # `for name, fn in fns.items()`, `for i, fn in enumerate(fns)`
        for loop in self.program.of_type(ast.For, ast.AsyncFor):
            scope = enclosing_function(self.program, loop)
            for target, element in self._iterated(loop.target, loop.iter, loop):
                name = dotted(target)
                if name is not None:
                    self.values.setdefault(name, []).append((element, scope))

    def values_at(self, name: str, at: ast.AST) -> list[ast.expr]:
        """The values assigned to ``name`` in the scope of ``at`` or a scope around it (flow-insensitive)."""
        bound = self.values.get(name)
        if not bound:
            return []
        scopes = {None, *(a for a in self.program.ancestors(at) if isinstance(a, FUNCTION_SCOPES))}
        if name.startswith("self."):
            scopes |= self._initializers(at)
        return [value for value, scope in bound if scope in scopes]

    def _initializers(self, at: ast.AST) -> set[ast.AST | None]:
        """The methods that set up the instance whose method holds ``at`` (``__init__``, Flax's ``setup``, a
        dataclass's ``__post_init__``): what they store on ``self`` (``self.solver = jaxopt.LBFGS(fun=f)``) is what
        ``self.solver`` holds in every other method of the class, as a module-level binding is in every function."""
        method = next((a for a in self.program.ancestors(at) if isinstance(a, (ast.FunctionDef, ast.AsyncFunctionDef))
                       and isinstance(self.program.parent(a), ast.ClassDef)), None)
        if method is None:
            return set()
        owner = self.program.parent(method)
        return {
            m for m in owner.body  # type: ignore[attr-defined]
            if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef)) and m.name in _INITIALIZERS
        }

    def module_in_effect(self, name: str, at: ast.AST) -> str | None:
        """The module ``name`` holds when module-level code runs ``at``, for a name the file imports as several
        modules (`Names.several`): the last module-level import of it before ``at``. A comparison that swaps the
        import and times the same function after each (``import numpy as np`` ... ``%timeit test_func()`` ...
        ``import jax.numpy as np`` ... ``%timeit test_func()``) runs each module in turn. None when ``at`` is not
        module-level code (a lambda handed to a harness there is: it runs where it is written), or when any import
        of the name is not a module-level statement (a ``try`` fallback, an import in a function): then which one
        holds is not known here."""
        if name not in self.names.several or running_function(self.program, at) is not None:
            return None
        found = None
        for node in self.program.of_type(ast.Import, ast.ImportFrom):
            for alias in node.names:  # type: ignore[attr-defined]
                if isinstance(node, ast.Import):
                    bound, module = (alias.asname, alias.name) if alias.asname else ((alias.name.split(".")[0],) * 2)
                else:
                    bound, module = alias.asname or alias.name, f"{node.module}.{alias.name}"
                if bound != name:
                    continue
                if not isinstance(self.program.parent(node), ast.Module) or getattr(node, "level", 0):
                    return None
                if position(node) < position(at):
                    found = module
        return found

    def reaching(self, name: str, at: ast.AST) -> ast.expr | None:
        """The value of the binding of ``name`` that reaches ``at`` as statements run: the last one before it in its
        own scope, when that is a plain assignment of the name in a statement list that holds ``at`` (or a statement
        around it); for a name a function reads and does not bind, the binding outside that reaches it
        (`_outer_reaching`). None when that is not known: a parameter, a binding in a branch or loop that may not have
        run, a loop or ``with`` target, unpacking, or a binding later in a loop around ``at``, which reaches it on the
        next pass.

            t = torch.randn(n)      # reaching("t", use 1) is `torch.randn(n)`
            torch.det(t)            # use 1
            t = t.cuda()
        """
        scope = enclosing_function(self.program, at)
        where = (getattr(at, "lineno", 0), getattr(at, "col_offset", 0))
        stores = [s for s in self._stores().get(name, ()) if enclosing_function(self.program, s) is scope]
        before = [s for s in stores if _bound_at(self.program, s) < where]
        if not before:
            return self._outer_reaching(name, at, scope) if scope is not None and not stores else None
        loops = [a for a in self.program.ancestors(at) if isinstance(a, (ast.For, ast.AsyncFor, ast.While))]
        if any(_bound_at(self.program, s) > where and any(a is loop for a in self.program.ancestors(s) for loop in loops)
               for s in stores):
            return None
        last = max(before, key=lambda s: _bound_at(self.program, s))
        statement = self.program.parent(last)
        if not (isinstance(statement, (ast.Assign, ast.AnnAssign)) and statement.value is not None):
            return None
        if isinstance(statement, ast.Assign) and not any(t is last for t in statement.targets):
            return None
        found = self.program.statement_list(statement)
        if found is None:
            return None
        around = {id(a) for a in self.program.ancestors(at)} | {id(at)}
        return statement.value if any(id(s) in around for s in found[0]) else None

    def _outer_reaching(self, name: str, at: ast.AST, scope: ast.AST) -> ast.expr | None:
        """``name`` read in a function (``scope``) that does not bind it: a lambda handed straight to a call
        (``timeit.timeit(lambda: torch.det(t))``) runs where it is written, so the binding reaching it there; else
        the module's one binding of the name (`_global_bound_once`); else, for a module-level def that module-level
        code only calls by name, the one binding that reaches every call."""
        if _takes(scope, name):
            return None
        if isinstance(scope, ast.Lambda) and isinstance(self.program.parent(scope), (ast.Call, ast.keyword)):
            return self.reaching(name, scope)
        once = self._global_bound_once(name, at)
        if once is not None or not isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return once
        sites = self.module_call_sites(scope)
        if not sites:
            return None  # handed on, stored, or called from another function: its callers are not all here
        values = [self.reaching(name, c) for c in sites]
        first = values[0]
        return first if first is not None and all(v is first for v in values) else None

    def module_call_sites(self, function: ast.AST) -> list[ast.Call]:
        """The calls of the module-level def ``function`` when module-level code is all that uses it, calling it by
        name (a helper a script defines and calls: ``def run(): ...`` then ``run()``); none when it is handed on,
        stored, called from another function, or not a module-level def: its callers are not all here."""
        if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)) \
                or enclosing_function(self.program, function) is not None:
            return []
        if self._name_index is None:
            self._name_index = {}
            for node in self.program.of_type(ast.Name):
                self._name_index.setdefault(node.id, []).append(node)  # type: ignore[attr-defined]
        uses = self._name_index.get(function.name, [])
        sites = [self.program.parent(n) for n in uses]
        if not all(
            isinstance(c, ast.Call) and c.func is n and enclosing_function(self.program, c) is None
            for n, c in zip(uses, sites)
        ):
            return []
        return sites  # type: ignore[return-value]

    def _global_bound_once(self, name: str, at: ast.AST) -> ast.expr | None:
        """A global read from a function: the module's one binding of ``name``, when the file binds it once, by a
        plain assignment in the module's own statements, and no function around ``at`` takes it as a parameter.
        Whenever the function runs after that line it sees that value (before it, the read would fail)."""
        stores = self._stores().get(name, ())
        if len(stores) != 1:
            return None
        statement = self.program.parent(stores[0])
        if not isinstance(statement, ast.Assign) or statement.targets != [stores[0]]:
            return None
        if self.program.parent(statement) is not self.program.module:
            return None
        if any(_takes(scope, name) for scope in self.program.ancestors(at)):
            return None
        return statement.value

    def _stores(self) -> dict[str, list[ast.Name]]:
        if self._store_index is None:
            self._store_index = {}
            for node in self.program.of_type(ast.Name):
                if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                    self._store_index.setdefault(node.id, []).append(node)
        return self._store_index

    def elements(self, container: ast.AST, at: ast.AST, *, keys: bool = False) -> list[ast.expr]:
        """What a container holds: a literal's elements (a dict's values, or its keys when ``keys``), or those of
        the literals bound to its name (``fns = {"jax": f_jit}``)."""
        if isinstance(container, (ast.Tuple, ast.List, ast.Set)):
            return [e for e in container.elts if not isinstance(e, ast.Starred)]
        if isinstance(container, ast.Dict):
            return [k for k in container.keys if k is not None] if keys else list(container.values)
        if isinstance(container, ast.Call):
            return self._returned_elements(container, at, keys)
        name = dotted(container)
        if name is None:
            return []
        literals = (ast.Tuple, ast.List, ast.Set, ast.Dict)
        held = [e for v in self.values_at(name, at) if isinstance(v, literals) for e in self.elements(v, at, keys=keys)]
        return [e for e in held if not _reads_from(e, name)]  # `res = (value, res[1])`: the old value, already here

    def _returned_elements(self, call: ast.Call, at: ast.AST, keys: bool) -> list[ast.expr]:
        """What the containers a module-level def of the file returns hold, for a call of it (``for name, cls in
        solvers_for(is_qp)`` with ``return [("raPDHG", raPDHG), ("r2HPDHG", r2HPDHG)]``, MPAX's sweep, case 301):
        the literals of every ``return``, each branch's; none when some ``return`` gives anything else."""
        if not isinstance(call.func, ast.Name) or self.names.qualname(call.func) is not None:
            return []
        defs = [n for n in self.program.module.body
                if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name == call.func.id]
        if len(defs) != 1:
            return []
        returns = [n.value for n in ast.walk(defs[0]) if isinstance(n, ast.Return)
                   and enclosing_function(self.program, n) is defs[0]]
        if not returns or not all(isinstance(v, (ast.Tuple, ast.List, ast.Set, ast.Dict)) for v in returns):
            return []
        return [e for v in returns if v is not None for e in self.elements(v, at, keys=keys)]

    def _iterated(self, target: ast.AST, iterable: ast.AST, at: ast.AST) -> list[tuple[ast.AST, ast.expr]]:
        """(target, value) pairs a ``for`` binds, as far as the container's literal says."""
        second = target.elts[1] if isinstance(target, ast.Tuple) and len(target.elts) == 2 else None
        if isinstance(iterable, ast.Call) and not iterable.args and isinstance(iterable.func, ast.Attribute):
            if iterable.func.attr == "values":
                return [(target, v) for v in self.elements(iterable.func.value, at)]
            if iterable.func.attr == "items" and second is not None:
                return [(second, v) for v in self.elements(iterable.func.value, at)]
            return []
        if isinstance(iterable, ast.Call) and self.names.qualname(iterable.func) == "builtins.enumerate":
            return [(second, v) for v in self.elements(iterable.args[0], at)] if second is not None and iterable.args else []
        pairs: list[tuple[ast.AST, ast.expr]] = []
        for value in self.elements(iterable, at, keys=True):
            if (isinstance(target, (ast.Tuple, ast.List)) and isinstance(value, (ast.Tuple, ast.List))
                    and len(value.elts) == len(target.elts)):
                pairs.extend(zip(target.elts, value.elts))  # `for name, fn in [("C", c_fn), ("jax", jax_fn)]`
            else:
                pairs.append((target, value))
        return pairs

    def method_key(self, attribute: ast.Attribute) -> str | None:
        """``"Model.apply"`` for ``Model.apply`` or for ``m.apply`` where ``m = Model(...)`` (a local class)."""
        name = dotted(attribute)
        if name is None or name in self.methods:
            return name
        owner = dotted(attribute.value)
        if owner is None or owner == "self":
            return None
        for value in self.values_at(owner, attribute):
            if isinstance(value, ast.Call) and (cls := dotted(value.func)) in self.classes:
                key = f"{cls}.{attribute.attr}"
                if key in self.methods:
                    return key
        return None


_INITIALIZERS = frozenset({"__init__", "setup", "__post_init__"})


def _reads_from(element: ast.expr, name: str) -> bool:
    """``element`` is an item of the container ``name`` itself (``res[1]``, ``res[1][0]``)."""
    while isinstance(element, ast.Subscript):
        element = element.value
    return dotted(element) == name


def _bound_at(program: Program, target: ast.Name) -> tuple[int, int]:
    """Where a binding takes effect: after the value it is given (``t = t.cuda()`` reads the old ``t``)."""
    statement = program.parent(target)
    value = getattr(statement, "value", None) if isinstance(statement, (ast.Assign, ast.AnnAssign, ast.AugAssign)) else None
    node = value if value is not None else target
    return (getattr(node, "end_lineno", 0) or 0, getattr(node, "end_col_offset", 0) or 0)


def _takes(scope: ast.AST, name: str) -> bool:
    """``scope`` is a function (or lambda) with a parameter called ``name``."""
    return name in parameter_names(scope)
