"""examples/seed_gru.ipynb runs top to bottom in a real kernel and shows what its text promises."""

from pathlib import Path

import pytest

nbclient = pytest.importorskip("nbclient")
nbformat = pytest.importorskip("nbformat")
pytest.importorskip("ipykernel")
pytest.importorskip("flax")
pytest.importorskip("torch")

import levelbench  # noqa: E402
from conftest import temporary_kernel  # noqa: E402

NOTEBOOK = Path(__file__).resolve().parents[1] / "examples" / "seed_gru.ipynb"

pytestmark = pytest.mark.slow


def test_the_committed_notebook_is_clean():
    nb = nbformat.read(NOTEBOOK, as_version=4)
    nbformat.validate(nb)
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert code
    assert all(not c.outputs and c.execution_count is None for c in code), "clear the outputs before committing"


def test_the_seed_gru_notebook_executes_and_shows_each_finding(tmp_path, monkeypatch):
    kernel = temporary_kernel(tmp_path, monkeypatch)

    nb = nbformat.read(NOTEBOOK, as_version=4)
    nbclient.NotebookClient(nb, **kernel, timeout=300).execute()  # raises on a failing cell

    shown = {}
    for cell in nb.cells:
        if cell.cell_type == "code":
            parts = [o.get("text", "") or o.get("data", {}).get("text/plain", "") for o in cell.outputs]
            shown[cell.source.splitlines()[0]] = " ".join(" ".join(parts).split())

    def output_of(line_start):
        return next(text for line, text in shown.items() if line.startswith(line_start))

    assert "error LB001 the call returned a function" in output_of("%lbtimeit --budget 0.5 lambda: rnn_torch(Xt)")
    torch_call = output_of("%lbtimeit --budget 0.5 rnn_torch(Xt)")
    assert "LB010" in torch_call and "LB011" in torch_call
    dead = output_of("%lbtimeit -v --budget 0.5 jitted_forward(params, Xj)")
    assert "error LB002 jitted function 'forward' returns nothing" in dead and "compile trace" in dead
    assert "JAX compiled 1 program(s)" in output_of("%lbtime jitted_unrolled(params, Xj)")
    assert "JAX compiled 1 program(s)" in output_of("%lbtime jitted_scan(params, Xj)")
    question = output_of("%lbcompare --no-strict")
    assert "LB301" in question and "LB302" in question
    fair = output_of("c = %lbcompare -o")
    assert "ratio to jax" in fair  # same inputs, same outputs, the same work: no comparison errors
    assert not any(code in fair for code in ("LB301", "LB302", "LB303", "LB304")), fair
    assert output_of("r = c.ratio").startswith("jax takes ")
    doctor = output_of("%lbdoctor")
    assert "LB106" in doctor and "LB107" in doctor  # the unrolled loop, the jitted function returning nothing
