"""How results show themselves without importing the renderers: a registry the rendering layer fills.

Result types (`Measurement`, `Comparison`, `Diagnosis`, ...) sit low in the layers and must not
import the renderers above them. Their ``__rich__`` and ``__str__`` ask this registry instead;
`levelbench._rendering` registers a renderer for each type when it is imported, which
``import levelbench``'s public names, the CLI, the magics and the pytest plugin all do. Without a
registered renderer a result shows a one-line summary.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

Renderer = Callable[[Any], Any]

_RENDERERS: dict[type, Renderer] = {}


def register(kind: type, renderer: Renderer) -> None:
    """Show ``kind`` with ``renderer(obj) -> rich renderable``."""
    _RENDERERS[kind] = renderer


def renderable(obj: Any) -> Any:
    """A rich renderable for ``obj``: its registered renderer's, else a one-line summary."""
    for kind in type(obj).__mro__:
        renderer = _RENDERERS.get(kind)
        if renderer is not None:
            return renderer(obj)
    return summary(obj)


def text(obj: Any, width: int = 140) -> str:
    """``obj`` rendered as plain text (no colours), e.g. for ``str()`` and logs."""
    return plain(renderable(obj), width)


def plain(thing: Any, width: int = 100) -> str:
    """Any rich renderable as plain text."""
    from rich.console import Console  # rich is light, but only needed when something is shown

    buf = io.StringIO()
    Console(file=buf, width=width, color_system=None, force_terminal=False, force_jupyter=False,
            emoji=False).print(thing)  # ':ok:' in a user's name is text, not an emoji
    return buf.getvalue().rstrip()


def summary(obj: Any) -> str:
    """One line naming the result, for when no renderer is registered."""
    label = getattr(obj, "label", "") or getattr(obj, "title", "") or getattr(obj, "baseline", "")
    return f"<{type(obj).__name__}{' ' + repr(label) if label else ''}>"
