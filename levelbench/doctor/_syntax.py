"""Small syntax-tree helpers shared by the checks: scoped walks, loops, positions."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from ._names import dotted
from ._program import Program

FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
SCOPES = (*FUNCTIONS, ast.ClassDef)
LOOPS = (ast.For, ast.AsyncFor, ast.While)
COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def local_walk(program: Program, node: ast.AST) -> Iterator[ast.AST]:
    """Everything below ``node``, not entering nested functions, lambdas or classes (but yielding them)."""
    walk = program.walk(node, skip=SCOPES)
    next(walk)
    yield from walk


def walk_code(program: Program, nodes: list[ast.AST] | tuple[ast.AST, ...]) -> Iterator[ast.AST]:
    """Every node in ``nodes`` and below them, not entering nested functions or classes (lambdas yes)."""
    for node in nodes:
        if isinstance(node, _DEFS):
            yield node
        else:
            yield from program.walk(node, skip=_DEFS)


def bound_names(node: ast.AST) -> set[str]:
    """The plain names ``node`` binds by storing to them, anywhere inside it: an assignment's target and the names
    of a tuple, list or starred target (``obs, *rest = ...``), a loop's, a ``with ... as``'s, a comprehension's, a
    walrus's, an augmented assignment's. ``x[i] = ...`` and ``a.b = ...`` bind none: they store into ``x`` and
    ``a``, whose values stay the objects they were, and ``i`` is only read. (Not ``def``, ``class``, imports or
    parameters, which bind without a stored name node.)

    `_names` reads targets more cautiously (`_names._target_names`): there, any name written in a target, ``x`` of
    ``x[i] = ...`` included, is no module alias, since the table has one meaning per name for the whole file."""
    return {n.id for n in ast.walk(node) if n.__class__ is ast.Name and n.ctx.__class__ is ast.Store}  # type: ignore[attr-defined]


def parameter_names(function: ast.AST) -> frozenset[str]:
    """Every parameter name of a function or lambda (positional, keyword-only, ``*args``, ``**kwargs``); none for
    anything else."""
    arguments = getattr(function, "args", None)
    if not isinstance(arguments, ast.arguments):
        return frozenset()
    every = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs, arguments.vararg, arguments.kwarg]
    return frozenset(a.arg for a in every if a is not None)


def parameter_default(arguments: ast.arguments, name: str) -> ast.expr | None:
    """The default the parameter ``name`` takes when a call leaves it out; None when it has none or is no
    parameter (``*args`` and ``**kwargs`` have none). Positional defaults stand at the end of the positional
    parameters, positional-only ones included (``def f(a, /, b=1, c=2)``: ``defaults`` holds ``b``'s and ``c``'s);
    a keyword-only parameter without one has None in ``kw_defaults``.

    !!! Example
        ```python
        def bench(fn, /, repeat=5, *args, number=1, warm): ...
        # fn: None, repeat: 5, number: 1, warm: None, args: None
        ```
    """
    positional = [*arguments.posonlyargs, *arguments.args]
    index = positional_index(arguments, name)
    if index is not None:
        first = len(positional) - len(arguments.defaults)  # the first positional parameter with a default
        return arguments.defaults[index - first] if index >= first else None
    return next((d for a, d in zip(arguments.kwonlyargs, arguments.kw_defaults) if a.arg == name), None)


def positional_index(arguments: ast.arguments, name: str) -> int | None:
    """Where a call passes the parameter ``name`` by position (positional-only parameters count first); None for
    a keyword-only parameter, ``*args``, ``**kwargs`` or no parameter."""
    positional = [*arguments.posonlyargs, *arguments.args]
    return next((i for i, a in enumerate(positional) if a.arg == name), None)


def given_argument(call: ast.Call, arguments: ast.arguments, name: str) -> ast.expr | None:
    """The value ``call`` gives the parameter ``name`` of the function whose parameters are ``arguments``: written as
    ``name=`` (unless the parameter is positional-only, or ``*args``/``**kwargs``: then ``name=`` goes to
    ``**kwargs``), or at the parameter's position; None when the call leaves it out. Read for a call without
    ``*args`` or ``**kwargs``, whose places are not written: a caller rules those out first.

    !!! Example
        ```python
        def bench(fn, repeat=5, *, number=1): ...
        bench(f, 3)          # repeat: 3, number: None (left out)
        bench(f, number=10)  # repeat: None, number: 10
        ```
    """
    if name in {a.arg for a in [*arguments.args, *arguments.kwonlyargs]}:
        given = next((k.value for k in call.keywords if k.arg == name), None)
        if given is not None:
            return given
    index = positional_index(arguments, name)
    return call.args[index] if index is not None and index < len(call.args) else None


def nonlocal_names(function: ast.AST) -> frozenset[str]:
    """The names ``function``'s own body declares ``nonlocal``: variables of an enclosing function's call, which it
    reads and rebinds there (a trace counter, ``n += 1``), not names of its own."""
    if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return frozenset()
    declared: set[str] = set()
    stack: list[ast.AST] = list(function.body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Nonlocal):
            declared.update(node.names)
        elif not isinstance(node, SCOPES):
            stack.extend(ast.iter_child_nodes(node))
    return frozenset(declared)


def position(node: ast.AST) -> tuple[int, int]:
    """Program order: (virtual line, column)."""
    return (getattr(node, "lineno", 0), getattr(node, "col_offset", 0))


def enclosing_function(program: Program, node: ast.AST) -> ast.AST | None:
    """The innermost def or lambda around ``node``, None at module level (kept per node: the checks ask
    about the same nodes again and again)."""
    known = program.enclosing_functions
    if node in known:
        return known[node]
    found = None
    for ancestor in program.ancestors(node):
        if isinstance(ancestor, FUNCTIONS):
            found = ancestor
            break
    known[node] = found
    return found


def running_function(program: Program, node: ast.AST) -> ast.AST | None:
    """The def whose run runs ``node`` where it is written: `enclosing_function`, except that a lambda written
    as an argument of a call runs inside that call (``timeit.timeit(lambda: f(x), number=1)``,
    ``benchmark(lambda: f(x))``, ``jax.lax.map(lambda r: f(r), xs)``), so its calls happen at that point of
    the function around it. None at module level."""
    function = enclosing_function(program, node)
    while isinstance(function, ast.Lambda) and isinstance(program.parent(function), (ast.Call, ast.keyword)):
        function = enclosing_function(program, function)
    return function


def loop_iterable(loop: ast.AST) -> ast.expr | None:
    """What a ``for`` loop iterates (``xs`` of ``for x in xs``), or a comprehension's first ``for``; None for a
    ``while`` loop or anything else."""
    if isinstance(loop, (ast.For, ast.AsyncFor)):
        return loop.iter
    if isinstance(loop, COMPREHENSIONS):
        return loop.generators[0].iter
    return None


def enclosing_loop(program: Program, node: ast.AST) -> ast.AST | None:
    """The innermost loop or comprehension around ``node`` in the same function, if any."""
    child = node
    for ancestor in program.ancestors(node):
        if isinstance(ancestor, FUNCTIONS):
            return None
        if isinstance(ancestor, LOOPS) and child is not getattr(ancestor, "iter", None):
            return ancestor
        if isinstance(ancestor, COMPREHENSIONS):
            return ancestor
        child = ancestor
    return None


def on_other_branches(program: Program, first: ast.AST, second: ast.AST) -> bool:
    """``first`` and ``second`` sit in different branches of one ``if`` (or conditional expression): no run
    of the code around them runs both. ``if grad: model(x).backward()`` / ``else: model(x)``: the forward of
    the ``else`` runs without the backward pass of the ``if``.

    !!! Example
        ```python
        if grad:
            loss(x).backward()   # on other branches than model(x) below
        else:
            model(x)
        ```
    """
    chain: dict[int, ast.AST] = {}  # id(ancestor of first) -> the child of it on the way to first
    child = first
    for ancestor in program.ancestors(first):
        chain[id(ancestor)] = child
        child = ancestor
    child = second
    for ancestor in program.ancestors(second):
        if id(ancestor) in chain:  # the innermost node around both
            if isinstance(ancestor, (ast.If, ast.IfExp)):
                return _branch(ancestor, chain[id(ancestor)]) * _branch(ancestor, child) == -1
            return False
        child = ancestor
    return False


def _branch(test: ast.If | ast.IfExp, child: ast.AST) -> int:
    """1 when ``child`` is in the ``if``'s body, -1 in its ``else``, 0 for the test itself."""
    body = test.body if isinstance(test.body, list) else [test.body]
    orelse = test.orelse if isinstance(test.orelse, list) else [test.orelse]
    return 1 if any(child is n for n in body) else -1 if any(child is n for n in orelse) else 0


def short(node: ast.AST, limit: int = 60) -> str:
    """Source text of ``node`` on one line, shortened to ``limit`` characters."""
    text = " ".join(unparse(node).split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def unparse(node: ast.AST) -> str:
    """``ast.unparse(node)``, written directly for the commonest shapes: a name, an attribute chain, a call
    of one with names and whole numbers as arguments (``f(x)``, ``jnp.dot(a, b)``, ``range(10)``), and a
    statement of one (``f(x)``, ``y = f(x)``, as a timed region's work is written).
    ``ast.unparse`` is pure Python (~50 us a node), and a long file asks for the text of thousands of calls."""
    text = _quick(node)
    if text is None and node.__class__ is ast.Expr:
        text = _quick(node.value)  # type: ignore[attr-defined]
    elif text is None and node.__class__ is ast.Assign and node.type_comment is None:  # type: ignore[attr-defined]
        targets = [dotted(t) for t in node.targets]  # type: ignore[attr-defined]
        value = _quick(node.value)  # type: ignore[attr-defined]
        if value is not None and None not in targets:
            text = " = ".join([*targets, value])  # type: ignore[list-item]
    return ast.unparse(node) if text is None else text


def _quick(node: ast.AST) -> str | None:
    """`unparse` of a name, an attribute chain or a call of one with plain arguments; None for anything else."""
    name = dotted(node)
    if name is not None:
        return name
    if node.__class__ is ast.Call:
        func = dotted(node.func)  # type: ignore[attr-defined]
        if func is not None:
            parts = [_plain(a) for a in node.args]  # type: ignore[attr-defined]
            for keyword in node.keywords:  # type: ignore[attr-defined]
                value = _plain(keyword.value)
                parts.append(None if keyword.arg is None or value is None else f"{keyword.arg}={value}")
            if None not in parts:
                return f"{func}({', '.join(parts)})"  # type: ignore[arg-type]
    return None


_OPERATORS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//", ast.Mod: "%", ast.MatMult: "@"}


def _plain(node: ast.AST, operands: bool = True) -> str | None:
    """The text of a name, a whole number, or (``operands``) an arithmetic operation of two of them (``x + 1``), as
    ``ast.unparse`` writes it in a call's arguments; None for anything else."""
    cls = node.__class__
    if cls is ast.Name:
        return node.id  # type: ignore[attr-defined]
    if cls is ast.Constant and node.value.__class__ is int:  # type: ignore[attr-defined]
        return repr(node.value)  # type: ignore[attr-defined]
    if cls is ast.BinOp and operands:
        operator = _OPERATORS.get(node.op.__class__)  # type: ignore[attr-defined]
        left, right = _plain(node.left, False), _plain(node.right, False)  # type: ignore[attr-defined]
        if operator is not None and left is not None and right is not None:
            return f"{left} {operator} {right}"
    return None


def argument(call: ast.Call, index: int, keyword: str) -> ast.expr | None:
    """The argument ``call`` passes as ``keyword=`` or, failing that, at position ``index``; None if neither."""
    for kw in call.keywords:
        if kw.arg == keyword:
            return kw.value
    return call.args[index] if len(call.args) > index else None
