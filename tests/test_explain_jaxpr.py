"""The program-reading helpers behind the explain probes, on small traced functions."""

import pytest

jax = pytest.importorskip("jax")
import jax.numpy as jnp  # noqa: E402

from levelbench._probing import jaxpr as _jaxpr  # noqa: E402
from levelbench._probing.arguments import Call, leaves  # noqa: E402
from levelbench._probing.scale import ScaleAxis, choose, probe_lengths, shorten  # noqa: E402


def _python_loop(w, xs):
    h = jnp.zeros(w.shape[0])
    for x in xs:
        h = jnp.tanh(w @ h + x)
    return h


def _scan_loop(w, xs):
    def step(h, x):
        return jnp.tanh(w @ h + x), None

    return jax.lax.scan(step, jnp.zeros(w.shape[0]), xs)[0]


def _jaxpr_of(fn, *args):
    return jax.make_jaxpr(fn)(*args)


@pytest.mark.parametrize("fn, grows", [(_python_loop, True), (_scan_loop, False)])
def test_equation_count_grows_with_length_only_for_a_python_loop(fn, grows):
    w = jnp.eye(4)
    short, long = (_jaxpr_of(fn, w, jnp.ones((n, 4))) for n in (4, 8))
    assert (_jaxpr.count_equations(long) > _jaxpr.count_equations(short)) is grows


def test_count_equations_includes_sub_programs():
    inner = jax.jit(lambda x: jnp.sin(x) + 1)
    closed = _jaxpr_of(lambda x: inner(x) * 2, jnp.ones(3))
    top_level = len(closed.jaxpr.eqns)
    assert _jaxpr.count_equations(closed) == top_level + 2  # the jit body's sin and add


def test_repeated_block_finds_the_loop_body_and_its_repeats():
    block = _jaxpr.repeated_block(_jaxpr_of(_python_loop, jnp.eye(4), jnp.ones((24, 4))))
    assert block is not None
    assert block.repeats >= 20
    assert "dot_general" in block.primitives and "tanh" in block.primitives


def test_repeated_block_is_none_for_straight_line_code():
    def straight(x, w):
        return jnp.sum(jnp.tanh(x @ w) * jnp.exp(x) - jnp.log1p(x * x))

    assert _jaxpr.repeated_block(_jaxpr_of(straight, jnp.ones((4, 4)), jnp.ones((4, 4)))) is None


def test_liveness_counts_a_dead_matmul_and_keeps_the_live_one():
    def f(x, w):
        unused = x @ w  # noqa: F841
        return x @ x

    live = _jaxpr.liveness(_jaxpr_of(f, jnp.ones((8, 8)), jnp.ones((8, 8))))
    assert (live.matmuls, live.dead_matmuls) == (2, 1)
    assert live.dead_matmul_flops == 2 * 8 * 8 * 8
    assert live.constant_outputs == ()


def test_liveness_marks_outputs_computed_from_constants_only():
    w = jnp.ones((4, 4))
    live = _jaxpr.liveness(_jaxpr_of(lambda x: (w @ w, x + 1), jnp.ones(4)))
    assert live.constant_outputs == (0,)


def test_matmul_flops_multiplies_a_scan_body_by_its_length():
    w = jnp.eye(4)
    flops = _jaxpr.matmul_flops(_jaxpr_of(_scan_loop, w, jnp.ones((10, 4))))
    assert flops == 10 * 2 * 4 * 4


def test_user_line_points_into_this_file():
    eqns = _jaxpr_of(_python_loop, jnp.eye(4), jnp.ones((3, 4))).jaxpr.eqns
    line = _jaxpr.common_user_line(eqns)
    assert line is not None and line.file == __file__ and line.function == "_python_loop"


def test_leaves_are_named_by_parameter_and_pytree_path():
    def f(params, x, *rest, scale=1.0):
        return x

    named = leaves(f, ({"w": 1, "b": [2, 3]}, 4, 5), {"scale": 6})
    assert [leaf.name for leaf in named] == ["params['b'][0]", "params['b'][1]", "params['w']", "x", "rest[0]",
                                             "scale"]
    assert [leaf.whole for leaf in named] == [False, False, False, True, True, True]


def test_call_coerces_tuples_and_rejects_single_values():
    assert Call.coerce((1, 2)).args == (1, 2)
    with pytest.raises(TypeError, match=r"\(x,\)"):
        Call.coerce(3)


def test_scale_axis_guess_picks_the_long_unshared_leading_axis():
    params = {"w": jnp.ones((200, 200))}
    xs = jnp.ones((100, 8, 6))
    choice = choose(lambda p, xs: xs, (params, xs), {}, None)
    assert isinstance(choice, ScaleAxis)
    assert (choice.name, choice.axis, choice.length, choice.guessed) == ("xs", 0, 100, True)


def test_scale_axis_guess_declines_when_the_leading_axis_is_shared():
    x = jnp.ones((64, 64))
    assert isinstance(choose(lambda a, b: a @ b, (x, x), {}, None), str)


def test_scale_axis_given_by_name_and_axis_and_rejected_when_wrong():
    x = jnp.ones((3, 50))
    choice = choose(lambda x: x, (x,), {}, ("x", 1))
    assert (choice.axis, choice.length, choice.guessed) == (1, 50, False)
    with pytest.raises(ValueError, match="array arguments are: x"):
        choose(lambda x: x, (x,), {}, "y")
    with pytest.raises(ValueError, match="no axis 2"):
        choose(lambda x: x, (x,), {}, (0, 2))


def test_shorten_cuts_only_the_scaled_argument():
    x, other = jnp.ones((40, 3)), jnp.ones((40, 3))
    choice = choose(lambda x, o: x, (x, other), {}, 0)
    (short, kept), _ = shorten((x, other), {}, choice, 8)
    assert short.shape == (8, 3) and kept.shape == (40, 3)
    assert probe_lengths(1000) == (4, 8, 16)
    assert probe_lengths(2) == ()
