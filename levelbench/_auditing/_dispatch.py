"""What the script asks JAX to do, counted while it runs: eager dispatches, jitted calls, transfers, new jits.

Installed by the observer once jax is imported (its own modules are patched, the script's code is not):

- eager dispatches: every primitive run one by one at the top level (``EvalTrace.process_primitive``), what
  un-jitted JAX code (``x.at[i].set``, ``jax.random.split``, indexing, ``jax.grad`` outside ``jit``) costs;
- calls of the functions the script jitted (``jax.jit`` returns a thin wrapper that counts them), and the
  ``jax.jit`` calls themselves, with the function's name: a jit made afresh inside a timing (LB111);
- waits for results (``block_until_ready``, ``jax.block_until_ready``, reading an array as NumPy or Python
  values): the dispatches after the last wait are work the script had not waited for when it read a clock;
- host-to-device transfers (NumPy arrays passed to ``jax.device_put``, ``jnp.asarray``/``jnp.array``, or to a
  jitted function) and device-to-host ones (``np.asarray``, ``float``, ``print``, ``jax.device_get`` of an
  array not read before), with their bytes.

The counters only grow; each clock read of the script's takes a copy (`snapshot`), and a sample's counts are
the difference between its two reads. The outputs of the latest dispatches are held (`HELD`) until the next
clock read, so that work whose result the script dropped (``f(x)`` on its own line) is still seen running.
"""

from __future__ import annotations

import collections
import functools
import time
import weakref
from typing import Any

EAGER, JIT_CALLS, TO_DEVICE, TO_DEVICE_BYTES, TO_HOST, TO_HOST_BYTES, EMPTY_OUTPUTS, UNWAITED = range(8)
"""The counters, in order: eager dispatches, jitted calls, host-to-device transfers and bytes, device-to-host
ones, jitted calls that returned no array (None or an empty pytree: LB107), and (in a snapshot only) the
dispatches made since the script last waited for a result."""
HELD = 8
"""Dispatches whose outputs are kept alive until the next clock read (work runs in order: the last ones suffice)."""

_perf_ns = time.perf_counter_ns


class DispatchCounter:
    """The counters of one run, the jits it created ``(reference ns, function name)``, and the held outputs."""

    def __init__(self) -> None:
        self.counts = [0] * UNWAITED
        self.waited_at = 0  # dispatches (eager and jitted) made before the script's last wait for a result
        self.created: list[tuple[int, str, bool]] = []  # (reference ns, name, a function object not jitted before)
        self._jitted: Any = weakref.WeakSet()
        self.held: collections.deque = collections.deque(maxlen=HELD)
        self._numpy: Any = None

    def snapshot(self) -> tuple[int, ...]:
        return (*self.counts, self.counts[EAGER] + self.counts[JIT_CALLS] - self.waited_at)

    def counted(self) -> int:
        """The entry-point calls counted so far: eager dispatches, jitted calls and transfers (each cost a wrapper)."""
        return self.counts[EAGER] + self.counts[JIT_CALLS] + self.counts[TO_DEVICE] + self.counts[TO_HOST]

    def waited(self) -> None:
        self.waited_at = self.counts[EAGER] + self.counts[JIT_CALLS]

    def take_held(self) -> None:
        """Release the outputs held since the last read (the caller has looked at the live arrays)."""
        self.held.clear()

    def install(self, jax: Any) -> None:
        """Patch ``jax``'s dispatch, jit and transfer entry points; a part jax no longer has is left out."""
        # lazy: numpy comes with jax; the observer imports nothing before the script imports jax
        import numpy

        self._numpy = numpy
        for patch in (self._patch_eager, self._patch_jit, self._patch_device_put, self._patch_to_host,
                      self._patch_waits, self._patch_numpy_api):
            try:
                patch(jax)
            except (AttributeError, ImportError, TypeError):  # another jax: that count stays 0
                pass

    # -- counting --------------------------------------------------------------------------------
    def _to_device(self, values: Any) -> None:
        ndarray = self._numpy.ndarray
        for value in values:
            if isinstance(value, ndarray) and value.ndim:  # a scalar (a Python number jax wraps) moves nothing
                self.counts[TO_DEVICE] += 1
                self.counts[TO_DEVICE_BYTES] += value.nbytes

    def fresh(self, fun: Any) -> bool:
        """Whether ``fun`` is jitted for the first time (a new lambda or partial each time: yes; the same function
        object again: no, and jax's cache finds its compiled code)."""
        try:
            if fun in self._jitted:
                return False
            self._jitted.add(fun)
        except TypeError:  # not weakly referenceable: count it as new
            pass
        return True


    # -- patches ---------------------------------------------------------------------------------
    def _patch_eager(self, jax: Any) -> None:
        from jax._src import core  # lazy: jax is imported by the script by now

        eval_trace = core.EvalTrace
        process = eval_trace.process_primitive
        counter = self

        def process_primitive(trace: Any, primitive: Any, args: Any, params: Any) -> Any:
            counter.counts[EAGER] += 1
            counter._to_device(args)  # a NumPy operand is copied to the device (jnp.asarray's `stage` too)
            outputs = process(trace, primitive, args, params)
            counter.held.append(outputs)  # kept alive, whatever its shape: the arrays in it stay live arrays
            return outputs

        eval_trace.process_primitive = process_primitive

    def _patch_jit(self, jax: Any) -> None:
        from jax._src.util import fun_name  # lazy: as above

        jit = jax.jit
        counter = self
        leaves = jax.tree_util.tree_leaves

        def observed_jit(fun: Any = None, /, *args: Any, **kwargs: Any) -> Any:
            if fun is None or not callable(fun):  # jax.jit(static_argnums=...) as a decorator factory
                made = jit(*((fun,) if fun is not None else ()), *args, **kwargs)
                return lambda f: _ObservedJit(made(f), f, counter, fun_name(f), leaves)
            return _ObservedJit(jit(fun, *args, **kwargs), fun, counter, fun_name(fun), leaves)

        functools.update_wrapper(observed_jit, jit)
        jax.jit = observed_jit

    def _patch_device_put(self, jax: Any) -> None:
        device_put = jax.device_put
        counter = self
        leaves = jax.tree_util.tree_leaves

        def observed_device_put(x: Any, *args: Any, **kwargs: Any) -> Any:
            counter._to_device(leaves(x))
            outputs = device_put(x, *args, **kwargs)
            counter.held.append(outputs)
            return outputs

        functools.update_wrapper(observed_device_put, device_put)
        jax.device_put = observed_device_put

    def _patch_to_host(self, jax: Any) -> None:
        from jax._src.array import ArrayImpl  # lazy: as above

        value = ArrayImpl.__dict__["_value"]
        counter = self

        def observed_value(array: Any) -> Any:
            counter.waited()
            # not read before: this read copies it to the host (a scalar read for control flow moves nothing)
            if getattr(array, "_npy_value", True) is None and array.ndim:
                counter.counts[TO_HOST] += 1
                counter.counts[TO_HOST_BYTES] += int(array.nbytes)
            return value.fget(array)

        ArrayImpl._value = property(observed_value, doc=value.__doc__)


    def _patch_waits(self, jax: Any) -> None:
        from jax._src.array import ArrayImpl  # lazy: as above

        method = ArrayImpl.__dict__["block_until_ready"]
        to_numpy = ArrayImpl.__dict__["__array__"]
        block = jax.block_until_ready
        counter = self

        def block_until_ready(array: Any) -> Any:
            counter.waited()
            return method.__get__(array, type(array))()

        def observed_array(array: Any, *args: Any, **kwargs: Any) -> Any:
            counter.waited()
            return to_numpy(array, *args, **kwargs)

        def observed_block(x: Any) -> Any:
            counter.waited()
            return block(x)

        get = jax.device_get

        def observed_device_get(x: Any) -> Any:
            counter.waited()
            before = counter.counts[TO_HOST]
            got = get(x)
            if counter.counts[TO_HOST] == before:  # copied without `_value` (the buffer protocol): count it here
                for leaf in jax.tree_util.tree_leaves(x):
                    if isinstance(leaf, ArrayImpl) and leaf.ndim:
                        counter.counts[TO_HOST] += 1
                        counter.counts[TO_HOST_BYTES] += int(leaf.nbytes)
            return got

        functools.update_wrapper(observed_block, block)
        functools.update_wrapper(observed_device_get, get)
        jax.device_get = observed_device_get
        ArrayImpl.block_until_ready = block_until_ready
        ArrayImpl.__array__ = observed_array
        jax.block_until_ready = observed_block


    def _patch_numpy_api(self, jax: Any) -> None:
        """``jax.numpy``'s functions that are jitted (``jnp.dot``, ``jnp.sin``...) dispatch in C++ without the eager
        path: each call of one from the script is one eager dispatch, its NumPy operands transfers."""
        # lazy: as above; jax.numpy is part of `import jax`
        import jax.numpy as jnp

        counter = self
        leaves = jax.tree_util.tree_leaves
        for name in dir(jnp):
            function = getattr(jnp, name)
            if type(function).__name__ == "PjitFunction":  # jaxlib's jitted function
                setattr(jnp, name, _observed_api(function, counter, leaves))


def _observed_api(function: Any, counter: DispatchCounter, leaves: Any) -> Any:
    counts, held, to_device = counter.counts, counter.held, counter._to_device

    @functools.wraps(function)
    def observed(*args: Any, **kwargs: Any) -> Any:
        counts[EAGER] += 1
        to_device(args)  # the operands themselves (a NumPy array inside a list or dict is not looked for)
        if kwargs:
            to_device(kwargs.values())
        outputs = function(*args, **kwargs)
        held.append(outputs)
        return outputs

    return observed


class _ObservedJit:
    """A jitted function as ``jax.jit`` made it, its calls counted; everything else is the jitted function's."""

    def __init__(self, jitted: Any, fun: Any, counter: DispatchCounter, name: str, leaves: Any) -> None:
        self._lb_jitted, self._lb_counter, self._lb_leaves = jitted, counter, leaves
        counter.created.append((_perf_ns(), name, counter.fresh(fun)))
        functools.update_wrapper(self, fun)  # type: ignore[arg-type]

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        counter = self._lb_counter
        counter.counts[JIT_CALLS] += 1
        counter._to_device(args)  # the arguments themselves (not NumPy arrays inside a pytree argument)
        if kwargs:
            counter._to_device(kwargs.values())
        outputs = self._lb_jitted(*args, **kwargs)
        if not self._lb_leaves(outputs):  # compiled and dispatched, and the caller gets nothing back
            counter.counts[EMPTY_OUTPUTS] += 1
        counter.held.append(outputs)
        return outputs

    def __get__(self, instance: Any, owner: Any = None) -> Any:  # a jitted method: bound like the jitted one
        return self if instance is None else functools.partial(self, instance)

    def __getattr__(self, name: str) -> Any:  # lower, trace, eval_shape, clear_cache...
        try:
            jitted = self.__dict__["_lb_jitted"]
        except KeyError:  # not initialised (a copy being made): no attribute of its own yet
            raise AttributeError(name) from None
        return getattr(jitted, name)

    def __repr__(self) -> str:
        return repr(self._lb_jitted)
