"""levelbench in IPython and Jupyter: ``%load_ext levelbench``.

Registers the line/cell magics ``%lbtimeit`` (a ``%timeit`` that waits for JAX/PyTorch results,
reports the first call and compile apart, and checks itself), ``%lbtime`` (one cold call, with the
compile share), ``%lbcompare jax=f(x) torch=g(xt)`` (a side-by-side comparison) and ``%lbdoctor``
(the static doctor on the cells run so far).

Example:
    In [1]: %load_ext levelbench
    In [2]: %lbtimeit jitted_forward(params, x)      # compile reported apart from the steady state
    In [3]: m = %lbtimeit -o -q model(xt)            # a levelbench.Measurement
    In [4]: %lbcompare jax=jitted_forward(params, x) torch=model(xt)
"""

from __future__ import annotations

from typing import Any


def load_ipython_extension(ip: Any) -> None:
    """Register levelbench's magics with the IPython shell ``ip`` (what ``%load_ext`` calls)."""
    # Lazy: importing IPython costs ~0.2 s, and `import levelbench` must not pay it.
    # lazy: IPython loads here, not when this module is imported
    from ._magics import load

    load(ip)
