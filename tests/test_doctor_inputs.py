"""What the doctor reads: files, directories, notebooks and their magics, and every kind of bad input."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from levelbench.doctor import lint_paths, lint_source
from levelbench.doctor import _engine
from levelbench.doctor import _ipython_input as _magics
from levelbench.doctor._ipython_input import fallback_to_python, line_map, split_timeit_options, to_python
from levelbench.doctor._notebook import code_cells
from levelbench.doctor._program import Program


def notebook(*cells: str, kind: str = "code", **meta: object) -> str:
    return json.dumps(
        {
            "nbformat": 4,
            "nbformat_minor": 5,
            "metadata": meta or {"kernelspec": {"name": "python3", "language": "python"}},
            "cells": [{"cell_type": kind, "metadata": {}, "source": c.splitlines(keepends=True), "outputs": []} for c in cells],
        }
    )


def problems(report) -> list[tuple[str, str]]:  # type: ignore[no-untyped-def]
    return [(Path(d.location.path).name, d.message) for d in report.diagnostics if d.code == "LB100"]


# --- bad input: one clear line per file, the run goes on ---------------------------------------
def test_each_bad_input_is_one_lb100_and_the_good_file_is_still_checked(tmp_path):
    (tmp_path / "syntax.py").write_text("import time\ndef f(:\n    pass\n")
    (tmp_path / "notjson.ipynb").write_text("{not json")
    (tmp_path / "array.ipynb").write_text("[1, 2]")
    (tmp_path / "nocells.ipynb").write_text('{"metadata": {}}')
    (tmp_path / "old.ipynb").write_text('{"worksheets": [], "nbformat": 3}')
    (tmp_path / "julia.ipynb").write_text(notebook("x = 1", kernelspec={"language": "julia"}))
    (tmp_path / "binary.py").write_bytes(b"\x7fELF\x00\x00\x01binary")
    (tmp_path / "latin1.py").write_bytes(b"x = '\xe9'\n")
    (tmp_path / "huge.py").write_text("x = 1\n" * 200)
    (tmp_path / "good.py").write_text("import numpy as np\nx = np.random.normal((3, 3))\n")
    names = ["syntax.py", "notjson.ipynb", "array.ipynb", "nocells.ipynb", "old.ipynb", "julia.ipynb", "binary.py", "latin1.py", "huge.py", "missing.py", "good.py"]
    report = lint_paths([tmp_path / n for n in names], max_bytes=1000)
    reasons = dict(problems(report))
    assert reasons == {
        "syntax.py": "syntax error: invalid syntax",
        "notjson.ipynb": "not valid JSON: Expecting property name enclosed in double quotes at line 1 column 2",
        "array.ipynb": "not a Jupyter notebook: expected a JSON object, got a JSON array",
        "nocells.ipynb": "not a Jupyter notebook: expected a top-level 'cells' list",
        "old.ipynb": "nbformat 3 notebooks are not supported: convert with `jupyter nbconvert --to notebook --nbformat 4`",
        "julia.ipynb": "not a Python notebook (kernel language: julia): nothing to check",
        "binary.py": "binary file: expected Python source or a Jupyter notebook",
        "latin1.py": reasons["latin1.py"],
        "huge.py": "file is 1200 bytes, over the 1000 bytes limit (raise it with --max-bytes)",
        "missing.py": "no such file or directory",
    }
    assert reasons["latin1.py"].startswith("not text in the declared encoding")
    assert [d.code for d in report.diagnostics if d.location.path.endswith("good.py")] == ["LB109"]
    syntax = next(d for d in report.diagnostics if d.location.path.endswith("syntax.py"))
    assert (syntax.location.line, syntax.location.column) == (2, 7)


def test_syntax_error_in_one_cell_leaves_the_other_cells_checked():
    text = notebook("import numpy as np", "def broken(:\n    pass", "x = np.random.normal((4, 4))")
    diagnostics = lint_source(text, "nb.ipynb")
    assert [(d.code, d.location.cell, d.location.line) for d in diagnostics] == [("LB100", 2, 1), ("LB109", 3, 1)]


def test_syntax_errors_inside_magics_point_into_the_cell():
    text = notebook("import jax\nf = jax.jit(lambda v: v)\nx = 1", "%timeit f(x", "%%timeit\nf(x\n")
    found = [(d.code, d.location.cell, d.location.line, d.location.column, d.message) for d in lint_source(text, "nb.ipynb")]
    assert found == [
        ("LB100", 2, 1, 10, "syntax error in the statement of %timeit: '(' was never closed"),
        ("LB100", 3, 2, 2, "syntax error: '(' was never closed"),
    ]


def test_malformed_cell_source_and_encoding_declaration(tmp_path):
    bad_cell = json.dumps({"cells": [{"cell_type": "code", "source": 42}], "metadata": {}})
    assert [d.message for d in lint_source(bad_cell, "x.ipynb")] == ["cell 1: 'source' must be a string or a list of strings"]
    declared = tmp_path / "declared.py"
    declared.write_bytes(b"# -*- coding: latin-1 -*-\nx = '\xe9'\n")
    assert lint_paths([declared]).diagnostics == ()


def test_an_internal_error_in_one_check_is_reported_not_raised(monkeypatch):
    def broken(ctx):  # type: ignore[no-untyped-def]
        raise RuntimeError("boom")
        yield

    checks = _engine.rule_checks()
    monkeypatch.setattr(_engine, "rule_checks", lambda: {**checks, "LB101": broken})
    diagnostics = lint_source("import numpy as np\nx = np.random.normal((2, 2))\n", "s.py")
    assert [d.code for d in diagnostics] == ["LB100", "LB109"]
    assert "internal error in the LB101 check (RuntimeError: boom)" in diagnostics[0].message


def test_deeply_nested_code_is_reported_not_raised():
    source = "x = " + "(" * 5000 + "1" + ")" * 5000 + "\n"
    (d,) = lint_source(source, "deep.py")
    assert d.code == "LB100"


# --- directories -------------------------------------------------------------------------------
def test_directories_are_searched_skipping_hidden_dirs_virtualenvs_and_excludes(tmp_path):
    for rel in ["a.py", "sub/b.ipynb", ".hidden/c.py", ".venv/lib/d.py", "venv/e.py", "__pycache__/f.py", "sub/notes.txt", "skip/g.py"]:
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(notebook("x = 1") if rel.endswith(".ipynb") else "x = 1\n")
    report = lint_paths([tmp_path], exclude=["skip"])
    assert sorted(Path(f).relative_to(tmp_path).as_posix() for f in report.files) == ["a.py", "sub/b.ipynb"]
    assert report.diagnostics == ()


def test_a_file_given_explicitly_is_read_as_python_whatever_its_suffix(tmp_path):
    script = tmp_path / "bench.txt"
    script.write_text("import numpy as np\nx = np.random.uniform((2, 2))\n")
    assert [d.code for d in lint_paths([script]).diagnostics] == ["LB109"]


# --- notebooks and IPython syntax --------------------------------------------------------------
def test_cells_share_one_namespace_and_report_cell_and_line():
    text = notebook(
        "import jax\nimport jax.numpy as jnp\n\n@jax.jit\ndef f(x):\n    return x * 2",
        "# markdown cells count in the numbering",
        "x = jnp.ones(9)\n%timeit f(x)",
    )
    text_with_markdown = json.loads(text)
    text_with_markdown["cells"][1]["cell_type"] = "markdown"
    diagnostics = lint_source(json.dumps(text_with_markdown), "nb.ipynb")
    (d,) = [d for d in diagnostics if d.code == "LB102"]
    assert (d.location.cell, d.location.line, d.location.column, d.location.end_column) == (3, 2, 9, 13)
    assert d.source_line == "%timeit f(x)" and str(d.location) == "nb.ipynb:cell_3:2:9"


def test_cell_magic_bodies_keep_their_lines_and_timeit_options_are_understood():
    text = notebook(
        "import jax\nf = jax.jit(lambda v: v)\nx = 1",
        "%%timeit -n 10 -r 3 y = 0\nfor _ in range(3):\n    y = f(x)\nprint('done')",
    )
    lb102 = [d for d in lint_source(text, "nb.ipynb") if d.code in ("LB102", "LB103")]
    assert [(d.code, d.location.cell, d.location.line, d.location.column) for d in lb102] == [
        ("LB102", 2, 3, 9),
        ("LB103", 2, 3, 9),
    ]


def test_line_magics_inside_blocks_and_assigned_results_are_timed_regions():
    text = notebook("import jax\nf = jax.jit(lambda v: v)\nxs = [1, 2]", "for x in xs:\n    r = %timeit -o f(x)")
    assert [(d.code, d.location.cell, d.location.line) for d in lint_source(text, "nb.ipynb")] == [("LB102", 2, 2)]


def test_exported_notebooks_get_ipython_calls_are_understood():
    source = "import jax\nf = jax.jit(lambda v: v)\nx = 1\nget_ipython().run_line_magic('timeit', 'f(x)')\nget_ipython().run_cell_magic('time', '', 'f(x)\\n')\n"
    # the %timeit on line 4 calls f first, so the %%time on line 5 is warm: unblocked, but no compile
    assert {(d.code, d.location.line) for d in lint_source(source, "exported.py")} == {("LB102", 4), ("LB102", 5)}


def test_ipython_transformer_and_the_fallback_agree_on_the_seed_like_notebook():
    pytest.importorskip("IPython")
    cells = code_cells(
        notebook(
            "import jax\nimport torch\nf = jax.jit(lambda v: v)\nmodel = torch.nn.Linear(2, 2)\nx = 1",
            "%time f(x)",
            "%timeit lambda: model(x)",
            "%%timeit\nf(x)\nf(x)",
            "!ls\nfiles = !ls\nf?\n%matplotlib inline",
        )
    )
    from levelbench.doctor._context import Context
    from levelbench.doctor._engine import rule_checks

    def run(use_ipython: bool) -> list[tuple[str, int, int, int]]:
        context = Context.build(Program.from_notebook("nb.ipynb", cells, use_ipython=use_ipython))
        return sorted(
            (d.code, d.location.cell, d.location.line, d.location.column) for check in rule_checks().values() for d in check(context)
        )

    with_ipython = run(True)
    assert with_ipython == run(False)
    assert {c for c, *_ in with_ipython} == {"LB101", "LB102", "LB103", "LB112"}


def test_fallback_conversion_of_ipython_syntax():
    assert fallback_to_python("%timeit -n 3 f(x)") == "get_ipython().run_line_magic('timeit', '-n 3 f(x)')"
    assert fallback_to_python("r = %timeit -o f(x)") == "r = get_ipython().run_line_magic('timeit', '-o f(x)')"
    assert fallback_to_python("!pip list\nout = !ls") == "get_ipython().system('pip list')\nout = get_ipython().getoutput('ls')"
    assert fallback_to_python("f?") == "get_ipython().run_line_magic('pinfo', 'f')"
    assert fallback_to_python("%%timeit -r 2\nf(x)") == "get_ipython().run_cell_magic('timeit', '-r 2', 'f(x)\\n')\n"
    assert fallback_to_python("%time f(1, \\\n  2)") == "get_ipython().run_line_magic('time', 'f(1,  2)')"
    assert fallback_to_python("x = 1  # 100%") == "x = 1  # 100%"


def test_without_ipython_installed_the_fallback_is_used(monkeypatch):
    _magics._ipython_transform.cache_clear()
    monkeypatch.setitem(__import__("sys").modules, "IPython.core.inputtransformer2", None)
    try:
        assert _magics._ipython_transform() is None
        assert to_python("%time f(x)") == "get_ipython().run_line_magic('time', 'f(x)')"
    finally:
        _magics._ipython_transform.cache_clear()


def test_line_map_follows_rewritten_and_collapsed_lines():
    original = ["x = 1", "%time f(x)", "y = 2"]
    assert line_map(original, ["x = 1", "get_ipython().run_line_magic('time', 'f(x)')", "y = 2", ""]) == [0, 1, 2, 2]
    assert line_map(["%%timeit", "a", "b"], ["get_ipython().run_cell_magic('timeit', '', 'a\\nb\\n')", ""])[0] == 0


@pytest.mark.parametrize(
    ("arg", "number_given", "statement"),
    [("f(x)", False, "f(x)"), ("-n 10 -r 3 f(x)", True, "f(x)"), ("-n10 -q -o f(x) + 1", True, "f(x) + 1"), ("-r 5 -p 3 g()", False, "g()")],
)
def test_timeit_options_are_separated_from_the_statement(arg, number_given, statement):
    options = split_timeit_options(arg)
    assert (options.number_given, options.statement) == (number_given, statement)
    assert arg[options.offset :] == statement


def test_non_ascii_lines_report_character_columns():
    source = textwrap.dedent(
        """\
        import numpy as np
        é = 1; x = np.random.normal((2, 2))
        """
    )
    (d,) = lint_source(source, "s.py")
    assert d.location.column == 29 and d.source_line[d.location.column - 1 :].startswith("(2, 2)")


# --- scripts with IPython syntax: .py files as pasted, .ipy files, Jupytext percent scripts ------
IPYTHON_SCRIPT = """\
import jax
import jax.numpy as jnp

scale = jax.jit(lambda v: v * 3.0)
v = jnp.arange(64.0)
!nvidia-smi
%timeit scale(v)
for n in range(2):
    %time w = scale(v).block_until_ready()
"""


def diagnosed(text: str, path: str) -> list[tuple[str, int, int]]:
    return [(d.code, d.location.cell, d.location.line) for d in lint_source(text, path)]


@pytest.mark.parametrize("path", ["pasted.py", "session.ipy"])
def test_a_script_with_magics_is_read_through_ipython_at_its_own_lines(path):
    assert diagnosed(IPYTHON_SCRIPT, path) == [("LB102", 0, 7)]


def test_a_script_that_is_not_python_even_for_ipython_is_one_lb100():
    text = IPYTHON_SCRIPT + "def broken(:\n    pass\n"
    assert [code for code, _, _ in diagnosed(text, "pasted.py")] == ["LB100"]
    plain = "import numpy as np\ny = np.random.normal((2, 2))\ndef broken(:\n    pass\n"
    assert diagnosed(plain, "plain.py") == [("LB100", 0, 3)]  # no IPython syntax: not read as IPython


def test_percent_script_cells_keep_file_lines_and_a_broken_cell_leaves_the_others_checked():
    text = """\
import numpy as np
# %%
%%time
y = np.random.normal((8, 8))
# %% a cell IPython cannot read
def broken(:
    pass
# %%
z = np.random.uniform((3, 3))
"""
    assert diagnosed(text, "analysis.py") == [("LB109", 0, 4), ("LB100", 0, 6), ("LB109", 0, 9)]


def test_jupytext_commented_magics_in_a_percent_script_are_timed():
    text = "import jax\nimport jax.numpy as jnp\n# %%\nf = jax.jit(jnp.sin)\nu = jnp.ones(8)\nf(u)\n# %%\n# %timeit f(u)\n"
    assert diagnosed(text, "notebook_export.py") == [("LB102", 0, 8)]
    assert diagnosed(text.replace("# %%\n", ""), "plain.py") == []  # not a percent script: a comment is a comment
