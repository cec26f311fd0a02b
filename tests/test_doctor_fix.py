"""`levelbench doctor --fix` as a library: each fix on new snippets, before and after, exactly.

Every positive case also checks that fixing again changes nothing (idempotence), that the doctor no
longer reports the fixed code, and that the lines the fix did not touch (comments included) are kept
byte for byte; every negative case that the file is left alone.
"""

import contextlib
import io
import json

import pytest

from levelbench._values.catalogue import RULES, rule_for
from levelbench.doctor import fix_source, lint_source
from levelbench.doctor.rules import lb109_shape_as_loc
from levelbench.doctor._diagnostic import Edit, Fix

JAX = "import jax\nimport jax.numpy as jnp\nf = jax.jit(jnp.sin)\nx = jnp.ones(3)\n"


def fixed(source: str, path: str = "bench.py", **options) -> str:
    """The fixed text, after checking idempotence and that the fixed codes are gone."""
    result = fix_source(source, path, **options)
    again = fix_source(result.text, path, **options)
    assert again.text == result.text, "fixing twice changed the file the second time"
    assert not result.skipped
    return result.text


def codes(source: str, path: str = "bench.py") -> list[str]:
    return [d.code for d in lint_source(source, path)]


CASES = {
    "LB101 %timeit lambda": (
        JAX + "f(x).block_until_ready()\n%timeit lambda: f(x).block_until_ready()  # why so fast?\n",
        JAX + "f(x).block_until_ready()\n%timeit f(x).block_until_ready()  # why so fast?\n",
        "bench.ipy",
    ),
    "LB102 %timeit": (
        JAX + "f(x)\n%timeit f(x)\n",
        JAX + "f(x)\n%timeit jax.block_until_ready(f(x))\n",
        "bench.ipy",
    ),
    "LB102 clock pair, comment kept": (
        "import time\n" + JAX + "f(x)\nfor _ in range(3):\n    t0 = time.perf_counter()\n"
        "    y = f(x)   # keep me\n    print(time.perf_counter() - t0)\n",
        "import time\n" + JAX + "f(x)\nfor _ in range(3):\n    t0 = time.perf_counter()\n"
        "    y = jax.block_until_ready(f(x))   # keep me\n    print(time.perf_counter() - t0)\n",
        "bench.py",
    ),
    "LB102 percent script, commented magic": (
        "# %%\n" + JAX + "f(x)\n# %%\n# %timeit f(x)\n",
        "# %%\n" + JAX + "f(x)\n# %%\n# %timeit jax.block_until_ready(f(x))\n",
        "bench.py",
    ),
    "LB102 adds the jax import": (
        "import jax.numpy as jnp\nx = jnp.ones(3)\njnp.sin(x)\n%timeit jnp.sin(x)\n",
        "import jax.numpy as jnp\nimport jax\nx = jnp.ones(3)\njnp.sin(x)\n%timeit jax.block_until_ready(jnp.sin(x))\n",
        "bench.ipy",
    ),
    "LB103 %time: warm-up before, then blocked": (
        JAX + "%time f(x)\n",
        JAX + "jax.block_until_ready(f(x))  # warm-up: compiles and fills caches outside the timing\n"
        "%time jax.block_until_ready(f(x))\n",
        "bench.ipy",
    ),
    "LB103 clock pair in a loop: the warm-up leaves the loop": (
        "import time\n" + JAX + "for _ in range(3):\n    t0 = time.perf_counter()\n"
        "    f(x).block_until_ready()\n    print(time.perf_counter() - t0)\n",
        "import time\n" + JAX + "jax.block_until_ready(f(x))  # warm-up: compiles and fills caches outside the timing\n"
        "for _ in range(3):\n    t0 = time.perf_counter()\n    f(x).block_until_ready()\n"
        "    print(time.perf_counter() - t0)\n",
        "bench.py",
    ),
    "LB104 one pair, difference in the print": (
        "import time\nimport numpy as np\na = np.ones((3, 3))\n\nstart=time.perf_counter()\n"
        "b = np.linalg.inv(a)  # invert\nprint('took {}s'.format(time.perf_counter() - start))\n",
        "import time\nimport numpy as np\nimport timeit\na = np.ones((3, 3))\n\nb = np.linalg.inv(a)  # invert\n"
        "elapsed = min(timeit.repeat(lambda: np.linalg.inv(a), number=1, repeat=5))  # best of 5, warmed up above\n"
        "print('took {}s'.format(elapsed))\n",
        "bench.py",
    ),
    "LB104 start and end variables": (
        "import time\n" + JAX + "f(x).block_until_ready()\nt_start = time.perf_counter()\n"
        "y = f(x).block_until_ready()\nt_end = time.perf_counter()\nprint('took', t_end - t_start)\n",
        "import time\n" + JAX.replace("jnp\n", "jnp\nimport timeit\n", 1) + "f(x).block_until_ready()\n"
        "y = f(x).block_until_ready()\n"
        "elapsed = min(timeit.repeat(lambda: f(x).block_until_ready(), number=1, repeat=5))  # best of 5, warmed up above\n"
        "print('took', elapsed)\n",
        "bench.py",
    ),
    "LB104 levelbench.measure when levelbench is imported": (
        "import time\nimport levelbench\nimport numpy as np\na = np.ones((3, 3))\nt0 = time.perf_counter()\n"
        "np.linalg.inv(a)\nprint(time.perf_counter() - t0)\n",
        "import time\nimport levelbench\nimport numpy as np\na = np.ones((3, 3))\nnp.linalg.inv(a)\n"
        "elapsed = levelbench.measure(lambda: np.linalg.inv(a)).median  # warm-up, repeats, median\nprint(elapsed)\n",
        "bench.py",
    ),
    "LB105 both ends of the pair, _ns kept": (
        "import time\nimport numpy as np\na = np.ones((3, 3))\nfor _ in range(3):\n    start = time.time_ns()\n"
        "    np.linalg.inv(a)\n    print(time.time_ns()  -  start)  # odd spacing kept\n",
        "import time\nimport numpy as np\na = np.ones((3, 3))\nfor _ in range(3):\n    start = time.perf_counter_ns()\n"
        "    np.linalg.inv(a)\n    print(time.perf_counter_ns()  -  start)  # odd spacing kept\n",
        "bench.py",
    ),
    "LB109 size=, spacing and comment kept": (
        "import numpy as np\nx = np.random.uniform( (4, 4) )  # shape\nrng = np.random.default_rng(0)\n"
        "z = rng.normal((2,2))\n",
        "import numpy as np\nx = np.random.uniform( size=(4, 4) )  # shape\nrng = np.random.default_rng(0)\n"
        "z = rng.normal(size=(2,2))\n",
        "bench.py",
    ),
    "LB112 %timeit under inference_mode": (
        "import torch\nmodel = torch.nn.Linear(3, 3)\nx = torch.ones(3)\n%timeit model(x)  # torch\n",
        "import torch\nmodel = torch.nn.Linear(3, 3)\nx = torch.ones(3)\nwith torch.inference_mode():\n"
        "    %timeit model(x)  # torch\n",
        "bench.ipy",
    ),
    "LB112 clock pair, indented block": (
        "import time\nimport torch\nmodel = torch.nn.Linear(3, 3)\nx = torch.ones(3)\nfor _ in range(2):\n"
        "    t0 = time.perf_counter()\n    y = model(x)\n\n    print(time.perf_counter() - t0)\n",
        "import time\nimport torch\nmodel = torch.nn.Linear(3, 3)\nx = torch.ones(3)\nfor _ in range(2):\n"
        "    with torch.inference_mode():\n        t0 = time.perf_counter()\n        y = model(x)\n\n"
        "        print(time.perf_counter() - t0)\n",
        "bench.py",
    ),
    "LB112 timeit.timeit": (
        "import torch\nimport timeit\nmodel = torch.nn.Linear(3, 3)\nx = torch.ones(3)\n"
        "print(timeit.timeit(lambda: model(x), number=100))\n",
        "import torch\nimport timeit\nmodel = torch.nn.Linear(3, 3)\nx = torch.ones(3)\n"
        "with torch.inference_mode():\n    print(timeit.timeit(lambda: model(x), number=100))\n",
        "bench.py",
    ),
    "LB113 the closest name, uses renamed": (
        "from jax import random, jix  # typo\nf = jix(lambda x: x)\n",
        "from jax import random, jit  # typo\nf = jit(lambda x: x)\n",
        "bench.py",
    ),
}

UNSAFE_CASES = {
    "LB107 the commented return, under its comment (which stays)": (
        "import jax\nimport jax.numpy as jnp\n@jax.jit\ndef f(x):\n    y = jnp.sin(x)  # work\n    # return y\n"
        "f(jnp.ones(3))\n",
        "import jax\nimport jax.numpy as jnp\n@jax.jit\ndef f(x):\n    y = jnp.sin(x)  # work\n    # return y\n"
        "    return y\nf(jnp.ones(3))\n",
    ),
    "LB107 a commented return naming nothing that exists: the last assigned name": (
        "import jax\nimport jax.numpy as jnp\n@jax.jit\ndef f(x):\n    ys = []\n    for v in x:\n"
        "        ys.append(jnp.sin(v))\n\n    #return jnp.concatenate(Y)\nf(jnp.ones(3))\n",
        "import jax\nimport jax.numpy as jnp\n@jax.jit\ndef f(x):\n    ys = []\n    for v in x:\n"
        "        ys.append(jnp.sin(v))\n    return ys\n\n    #return jnp.concatenate(Y)\nf(jnp.ones(3))\n",
    ),
    "LB108 after the docstring, __future__ and imports": (
        '"""Doc."""\nfrom __future__ import annotations\nimport jax.numpy as jnp\n\n'
        "x = jnp.ones(3, dtype=jnp.float64)\nprint(x.sum())\n",
        '"""Doc."""\nfrom __future__ import annotations\nimport jax.numpy as jnp\nimport jax\n'
        'jax.config.update("jax_enable_x64", True)\n\nx = jnp.ones(3, dtype=jnp.float64)\nprint(x.sum())\n',
    ),
}


@pytest.mark.parametrize("name", list(CASES))
def test_each_safe_fix_before_and_after(name):
    before, after, path = CASES[name]
    code = name.split()[0]
    assert code in codes(before, path)
    assert fixed(before, path) == after
    assert code not in codes(after, path)
    assert RULES[code].fix_safety == "safe"


@pytest.mark.parametrize("name", list(UNSAFE_CASES))
def test_each_unsafe_fix_only_with_unsafe_fixes(name):
    before, after = UNSAFE_CASES[name]
    code = name.split()[0]
    assert RULES[code].fix_safety == "unsafe"
    assert fixed(before) == before  # --fix alone leaves it
    assert fixed(before, unsafe=True) == after
    assert code not in codes(after)


NEGATIVES = {
    "LB101 a lambda with parameters": (
        JAX + "%timeit lambda x=x: f(x).block_until_ready()\n", "bench.ipy", "LB101"),
    "LB102 a local function that returns nothing to wait on": (
        "import time\nimport jax.numpy as jnp\ndef run(x):\n    for _ in range(10):\n        y = jnp.sin(x)\n"
        "x = jnp.ones(3)\nrun(x)\nfor _ in range(3):\n    t0 = time.perf_counter()\n    run(x)\n"
        "    print(time.perf_counter() - t0)\n", "bench.py", "LB102"),
    "LB104 the timed statement is a block": (
        "import time\nimport torch\nm = torch.nn.Linear(3, 3)\nx = torch.ones(3)\nt0 = time.time()\n"
        "with torch.no_grad():\n    y = m(x)\nt1 = time.time()\nprint(f'{t1 - t0:.3f} s')\n", "bench.py", "LB104"),
    "LB105 a clock imported as a bare name": (
        "from time import time\nimport numpy as np\na = np.ones((3, 3))\nfor _ in range(3):\n    start = time()\n"
        "    np.linalg.inv(a)\n    print(time() - start)\n", "bench.py", "LB105"),
    "LB109 a second positional argument": (
        "import numpy as np\ny = np.random.normal((4, 4), 2.0)\n", "bench.py", "LB109"),
    "LB109 a sampler whose first parameter is required": (
        "import numpy as np\ny = np.random.gamma((4, 4))\n", "bench.py", "LB109"),
    "LB112 a string spanning the lines to indent": (
        'import time\nimport torch\nmodel = torch.nn.Linear(3, 3)\nx = torch.ones(3)\nfor _ in range(2):\n'
        '    t0 = time.perf_counter()\n    y = model(x)\n    print("""took\n    """, time.perf_counter() - t0)\n',
        "bench.py", "LB112"),
    "LB113 the closest name already means something": (
        "from jax import jix\njit = 3\ny = jix(1)\n", "bench.py", "LB113"),
}


@pytest.mark.parametrize("name", list(NEGATIVES))
def test_no_fix_where_it_cannot_be_made_safely(name):
    source, path, code = NEGATIVES[name]
    assert code in codes(source, path)
    result = fix_source(source, path, unsafe=True)
    assert code in [d.code for d in result.after]
    assert code not in result.fixed


def test_lb106_and_lb114_keep_their_rewrite_as_text_only():
    source = (
        "import jax\nimport jax.numpy as jnp\n@jax.jit\ndef f(xs, h):\n    for x in xs:\n        h = jnp.tanh(x + h)\n"
        "    return h\nh = jnp.zeros(3)\nfor x in jnp.ones((5, 3)):\n    h = jnp.tanh(x + h)\nf(jnp.ones((50, 3)), h)\n"
    )
    result = fix_source(source, "bench.py", unsafe=True)
    assert {"LB106", "LB114"} <= {d.code for d in result.before}
    assert result.text == source
    assert all(d.fix is None for d in result.before if d.code in ("LB106", "LB114"))
    assert all(RULES[c].fix_safety == "" for c in ("LB106", "LB114"))


def test_suppressions_select_ignore_and_fix_only_are_respected():
    source = "import numpy as np\nx = np.random.normal((4, 4))  # levelbench: ignore[LB109]\ny = np.random.normal((2, 2))\n"
    assert fixed(source) == source.replace("normal((2, 2))", "normal(size=(2, 2))")
    both = "import time\nimport numpy as np\nx = np.random.normal((4, 4))\nfor _ in range(2):\n" \
           "    t0 = time.time()\n    np.linalg.inv(x)\n    print(time.time() - t0)\n"
    assert "size=" not in fixed(both, ignore=["LB109"]) and "perf_counter" in fixed(both, ignore=["LB109"])
    assert "size=" in fixed(both, select=["LB109"]) and "perf_counter" not in fixed(both, select=["LB109"])
    only = fix_source(both, "bench.py", fix_only=["LB105"])
    assert "perf_counter" in only.text and "size=" not in only.text
    assert "LB109" in [d.code for d in only.after]


def test_overlapping_fixes_are_applied_over_passes():
    # LB104 and LB105 both edit the start of the pair; LB108 and LB104 both add an import: all land.
    source = (
        "import jax.numpy as jnp\nimport time\nx = jnp.ones((3, 3), dtype=jnp.float64)\n"
        "start = time.time()\ny = jnp.dot(x, x).block_until_ready()\nprint(time.time() - start)\n"
    )
    text = fixed(source, unsafe=True)
    assert "time.time" not in text and "timeit.repeat" in text and "jax_enable_x64" in text
    assert codes(text) == []


def test_a_fix_that_would_not_parse_is_skipped_and_reported(monkeypatch):
    def broken(ctx, call, sampler):
        first = ctx.editor.source(call.args[0])
        return Fix((ctx.editor.replace(call.args[0], f"size=({first}"),), "broken on purpose")

    monkeypatch.setattr(lb109_shape_as_loc, "size_keyword", broken)
    source = "import numpy as np\nx = np.random.normal((4, 4))\n"
    result = fix_source(source, "bench.py")
    assert result.text == source
    assert result.skipped and "LB109 fix skipped: the result would not parse" in result.skipped[0]
    assert [d.code for d in result.after] == ["LB109"]


def test_windows_line_endings_and_unicode_columns_are_kept():
    source = "import numpy as np\r\nλ = 'é'; x = np.random.normal((4, 4))  # ünïcode\r\n"
    assert fixed(source) == source.replace("normal((4, 4))", "normal(size=(4, 4))")


def _notebook(*sources: str, outputs: bool = True) -> str:
    cells = [{"cell_type": "markdown", "id": "md", "metadata": {}, "source": ["# Timing\n", "why is JAX slow?"]}]
    for k, source in enumerate(sources):
        cells.append({
            "cell_type": "code", "execution_count": k + 1, "id": f"c{k}", "metadata": {"tags": [f"t{k}"]},
            "outputs": [{"name": "stdout", "output_type": "stream", "text": [f"out {k}\n"]}] if outputs else [],
            "source": source.splitlines(keepends=True),
        })
    nb = {"cells": cells, "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python",
                                                         "name": "python3"}, "custom": {"x": 1}},
          "nbformat": 4, "nbformat_minor": 5}
    return json.dumps(nb, indent=1) + "\n"


def test_notebook_cells_are_fixed_and_everything_else_is_kept():
    nbformat = pytest.importorskip("nbformat")
    setup = "import torch\nimport jax\nimport jax.numpy as jnp\nf = jax.jit(jnp.sin)\nx = jnp.ones(3)\n" \
            "model = torch.nn.Linear(3, 3)\nxt = torch.ones(3)"
    untouched = "y = f(x)  # not timed"
    text = _notebook(setup, untouched, "%timeit lambda: model(xt)", "%timeit f(x)")
    result = fix_source(text, "bench.ipynb")
    assert fix_source(result.text, "bench.ipynb").text == result.text
    before, after = json.loads(text), json.loads(result.text)
    nbformat.validate(nbformat.reads(result.text, as_version=4))
    assert after["metadata"] == before["metadata"]
    for old, new in zip(before["cells"], after["cells"]):
        assert {k: v for k, v in old.items() if k != "source"} == {k: v for k, v in new.items() if k != "source"}
    sources = ["".join(c["source"]) for c in after["cells"]]
    assert sources[:3] == ["".join(c["source"]) for c in before["cells"][:3]]  # markdown, setup, untimed cell
    assert sources[3] == "with torch.inference_mode():\n    %timeit model(xt)"
    assert sources[4] == "%timeit jax.block_until_ready(f(x))"
    assert result.text.endswith("}\n") and '\n "cells": [\n  {\n' in result.text  # nbformat's layout, kept
    assert result.diff().startswith("--- bench.ipynb:cell_4\n+++ bench.ipynb:cell_4\n")


def test_an_unchanged_notebook_is_byte_for_byte_the_same():
    text = _notebook("import numpy as np\nx = np.ones(3)")
    assert fix_source(text, "bench.ipynb").text == text


def test_a_cell_magic_is_not_wrapped():
    text = _notebook("import torch\nmodel = torch.nn.Linear(3, 3)\nx = torch.ones(3)", "%%timeit\nmodel(x)")
    result = fix_source(text, "bench.ipynb")
    assert result.text == text and [d.code for d in result.after] == ["LB112"]


def test_explain_says_whether_a_rule_is_auto_fixable():
    assert "Auto-fix: safe" in rule_for("LB102").explain()
    assert "Auto-fix: unsafe" in rule_for("LB108").explain() and "--unsafe-fixes" in rule_for("LB108").explain()
    assert "Auto-fix: none" in rule_for("LB106").explain()
    assert "Auto-fix" not in rule_for("LB003").explain()  # not a doctor rule


def test_edits_are_in_user_coordinates():
    result = fix_source(_notebook("import numpy as np\nx = np.random.normal((4, 4))"), "bench.ipynb")
    (diagnostic,) = result.before
    assert diagnostic.fix.edits == (Edit(cell=2, line=2, column=21, end_line=2, end_column=21, text="size="),)


def test_a_fix_that_fails_never_hides_its_finding(monkeypatch):
    from levelbench.doctor import _edits

    def crash(self, node, before, after):
        raise UnboundLocalError("a bug in a fix")

    monkeypatch.setattr(_edits.Editor, "wrap", crash)
    source = JAX + "f(x)\n%timeit f(x)\n"
    (diagnostic,) = lint_source(source, "bench.ipy")
    assert diagnostic.code == "LB102" and diagnostic.fix is None and "block_until_ready" in diagnostic.finding.fix


# --- a fix keeps the program's meaning and every comment (reliability probe 2026-12-02) --------------
def _runs(text: str) -> str:
    """What ``text`` prints when run (it must run)."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(text, "bench.py", "exec"), {"__name__": "__main__"})
    return out.getvalue()


_PAIR = ("import time\nimport numpy as np\nf = np.sin\nx = np.arange(4.0)\ny = np.zeros(4)\nclass K:\n    pass\n"
         "k = K()\nt0 = time.perf_counter()\n{timed}\nt1 = time.perf_counter()\nprint('took', t1 - t0)\n")


@pytest.mark.parametrize("timed", [
    "a, b = f(x), f(x)",  # `lambda: f(x), f(x)` is a tuple: timeit.repeat(..., f(x), ...) raised ValueError
    "g = lambda: f(x)",  # `lambda: lambda: f(x)` times the making of a function
    "a, b = np.divmod(x, 2.0)",
    "y += f(x)",
    "y: np.ndarray = f(x)",
    "a = b = f(x)",
    "[f(x)]",
    "y = x",
])
def test_lb104_leaves_other_statement_forms_for_a_manual_rewrite(timed):
    source = _PAIR.format(timed=timed)
    result = fix_source(source, "bench.py")
    assert result.text == source
    assert [(d.code, d.fix) for d in result.after if d.code == "LB104"] in ([("LB104", None)], [])
    _runs(result.text)


@pytest.mark.parametrize("timed", ["y = f(x)", "f(x)", "k.y = f(x) + 1", "y[1:] = -f(x)[1:]", "y = np.dot(x, f(x))"])
def test_lb104_rewrites_the_forms_it_was_written_for_and_the_result_runs(timed):
    result = fix_source(_PAIR.format(timed=timed), "bench.py")
    assert "timeit.repeat(lambda: " in result.text and "LB104" not in [d.code for d in result.after]
    assert _runs(result.text).startswith("took ")


def test_lb104_in_a_class_body_gets_no_fix():
    # A lambda in a class body cannot see the class's names: `lambda: f(z)` would raise NameError.
    source = ("import time\nimport numpy as np\nclass Bench:\n    z = np.ones(3)\n    t0 = time.perf_counter()\n"
              "    w = np.sin(z)\n    t1 = time.perf_counter()\n    print(t1 - t0)\n")
    result = fix_source(source, "bench.py")
    assert result.text == source and [d.fix for d in result.after if d.code == "LB104"] == [None]


def test_the_comments_on_the_clock_lines_stay_where_they_were():
    source = ("import time\nimport jax\nf = jax.jit(lambda x: x)\nx = jax.numpy.ones(3)\ny = f(x)\n"
              "t0 = time.time()  # IMPORTANT  # noqa: E501\ny = f(x)\nt1 = time.time()  # stop clock\nprint(t1 - t0)\n")
    assert fixed(source) == (
        "import time\nimport jax\nimport timeit\nf = jax.jit(lambda x: x)\nx = jax.numpy.ones(3)\ny = f(x)\n"
        "# IMPORTANT  # noqa: E501\ny = jax.block_until_ready(f(x))\n"
        "elapsed = min(timeit.repeat(lambda: jax.block_until_ready(f(x)), number=1, repeat=5))  # stop clock\n"
        "print(elapsed)\n"
    )


def test_a_fix_that_would_lose_a_comment_is_skipped_and_left_for_a_manual_rewrite(monkeypatch):
    def greedy(ctx, call, sampler):  # rewrites to the end of the line, over the comment
        line = ctx.program.line_text(call.lineno)
        return Fix((ctx.editor.edit(call.lineno, call.args[0].col_offset, call.lineno, len(line), "size=(4, 4))"),),
                   "drops the comment on purpose")

    monkeypatch.setattr(lb109_shape_as_loc, "size_keyword", greedy)
    source = "import numpy as np\nx = np.random.normal((4, 4))  # shape\ny = np.random.normal((2, 2))\n"
    result = fix_source(source, "bench.py")
    assert result.text == source.replace("normal((2, 2))", "normal(size=(4, 4))")  # the line without a comment
    assert result.skipped == ("bench.py:2:22: LB109 fix skipped: the result would lose the comment `# shape`",)
    assert [(d.code, d.location.line, d.fix) for d in result.after] == [("LB109", 2, None)]  # a manual rewrite


def test_a_compact_notebook_stays_compact_and_its_byte_order_mark_stays():
    nb = json.loads(_notebook("import numpy as np\nx = np.random.normal((4, 4))"))
    compact = json.dumps(nb, separators=(",", ":"))
    result = fix_source(compact, "bench.ipynb")
    assert result.text == compact.replace("normal((4, 4))", "normal(size=(4, 4))")
    spaced = "\ufeff" + json.dumps(nb)  # one line, ", " and ": ", and a BOM
    result = fix_source(spaced, "bench.ipynb")
    assert result.text == spaced.replace("normal((4, 4))", "normal(size=(4, 4))")
    (found,) = lint_source(spaced, "bench.ipynb")
    assert found.in_file.column == spaced[1:].index("(4, 4))") + 1  # SARIF's columns do not count the BOM


def test_fix_only_that_names_no_rule_is_refused():
    with pytest.raises(ValueError, match=r"no rule code given \(''\): expected a code or prefix of LB100, LB101"):
        fix_source("x = 1\n", "bench.py", fix_only=[""])
    with pytest.raises(ValueError, match=r"no rule code given \(', '\)"):
        fix_source("x = 1\n", "bench.py", fix_only=[", "])


def test_a_file_pragma_after_the_start_clock_is_not_made_a_line_of_its_own():
    # `# levelbench: ignore-file[...]` after code silences nothing; on a line of its own, the whole file.
    source = ("import time\nimport numpy as np\nx = np.ones(3)\n"
              "t0 = time.perf_counter()  # levelbench: ignore-file[LB1]\ny = np.sin(x)\nprint(time.perf_counter() - t0)\n")
    result = fix_source(source, "bench.py")
    assert result.text == source and [d.code for d in result.after] == ["LB104"]


def test_why_findings_were_left_is_a_library_call(tmp_path):
    """`FixReport.unfixed`: what ``levelbench doctor --fix`` says was left and why, from Python."""
    from levelbench.doctor import fix_paths

    path = tmp_path / "bench.py"
    path.write_text("import time\nimport jax.numpy as jnp\nimport numpy as np\nx = np.random.normal((4, 4))\n"
                    "h = jnp.zeros(3)\nfor v in jnp.ones((50, 3)):\n    h = jnp.tanh(v + h)\n"
                    "y = jnp.ones(3, dtype=jnp.float64)\n")
    report = fix_paths([str(path)], fix_only=["LB108", "LB114"])
    left = report.unfixed(["LB108", "LB114"])
    assert (left.manual, left.unsafe, left.excluded, left.unreadable) == (("LB114",), ("LB108",), ("LB109",), 0)
    assert fix_paths([str(path)], unsafe=True).unfixed(unsafe=True).unsafe == ()
