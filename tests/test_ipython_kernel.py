"""The magics in a real Jupyter kernel, driven as a notebook front end drives it.

One kernel runs every cell once (module fixture); each test reads the outputs of its cells.
The kernel is this interpreter (a kernelspec written to a temporary JUPYTER_PATH), so it sees
the levelbench under test.
"""


import pytest

nbclient = pytest.importorskip("nbclient")
nbformat = pytest.importorskip("nbformat")
pytest.importorskip("ipykernel")
pytest.importorskip("jax")

import levelbench  # noqa: E402
from conftest import temporary_kernel  # noqa: E402

pytestmark = pytest.mark.slow

CELLS = {
    "load_ext levelbench": "%load_ext levelbench\nprint('lbtimeit' in get_ipython().magics_manager.magics['line'])",
    "load_ext": "%load_ext levelbench.ipython",
    "setup": (
        "import jax, jax.numpy as jnp\n"
        "x = jnp.ones((128, 128))\n"
        "def f(x):\n"
        "    return jnp.tanh(x @ x)\n"
        "jitted = jax.jit(f)"
    ),
    "lambda": "%lbtimeit -v --budget 0.2 lambda: f(x)",
    "jitted": "%lbtimeit -v --budget 0.3 jitted(x)",
    "one line": "%lbtimeit --budget 0.1 jitted(x)",
    "-o": "m = %lbtimeit -o -q --budget 0.1 jitted(x)\nprint(type(m).__module__, type(m).__name__, m.framework)",
    "Out": "m",
}


@pytest.fixture(scope="module")
def outputs(tmp_path_factory):
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(source) for source in CELLS.values()]
    with pytest.MonkeyPatch.context() as mp:
        kernel = temporary_kernel(tmp_path_factory.mktemp("jupyter"), mp)
        nbclient.NotebookClient(nb, **kernel, timeout=120, allow_errors=True).execute()
    return {name: cell.outputs for name, cell in zip(CELLS, nb.cells)}


def text(cell_outputs, mime="text/plain"):
    """Everything a cell showed as ``mime`` (streams count as text/plain)."""
    parts = []
    for out in cell_outputs:
        assert out.output_type != "error", f"the cell raised {out.ename}: {out.evalue}"
        if out.output_type == "stream" and mime == "text/plain":
            parts.append(out.text)
        elif out.output_type in ("display_data", "execute_result"):
            parts.append(out.data.get(mime, ""))
    return " ".join(" ".join(parts).split())


def test_timing_a_lambda_warns_that_nothing_was_computed(outputs):
    displays = [out for out in outputs["lambda"] if out.output_type == "display_data"]
    assert len(displays) == 1 and set(displays[0].data) == {"text/plain", "text/html"}
    plain = text(outputs["lambda"])
    assert "error LB001 the call returned a function: nothing was computed" in plain
    assert "in IPython: %timeit model(x) (not %timeit lambda: model(x))" in plain
    html = text(outputs["lambda"], "text/html")
    assert html.startswith("<pre") and "LB001" in html  # Jupyter shows the rich HTML rendering


def test_the_default_is_one_timeit_style_line_in_a_kernel_too(outputs):
    assert [out.output_type for out in outputs["one line"]] == ["stream"]
    assert "per loop (median \u00b1 95% CI half-width of " in text(outputs["one line"]) and "; compile " in \
        text(outputs["one line"])


def test_a_jitted_call_reports_compile_apart_from_the_steady_state(outputs):
    plain = text(outputs["jitted"])
    assert "jitted(x) (jax)" in plain
    assert "compile trace" in plain and "+ lower" in plain and "cache hit" not in plain
    assert "first call" in plain and "steady median" in plain


def test_o_returns_a_measurement_and_q_prints_nothing_else(outputs):
    assert text(outputs["-o"]) == "levelbench._results.measurement Measurement jax"
    assert text(outputs["Out"]).startswith("<Measurement 'jitted(x)' (jax): median ")


def test_load_ext_levelbench_registers_the_magics(outputs):
    assert text(outputs["load_ext levelbench"]) == "True"
