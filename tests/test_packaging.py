"""Packaging: extras give lower bounds, constraints.txt the exact versions, the Makefile installs with it,
and what only the tests use is in [test]."""

from __future__ import annotations

import ast
import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
PROJECT = PYPROJECT["project"]
TEST_ONLY = {"ipykernel", "nbclient", "nbformat", "scipy"}


def requirement_name(requirement: str) -> str:
    return re.split(r"[<>=!~\[; ]", requirement, maxsplit=1)[0].lower()


def requirements() -> list[str]:
    extras = [r for reqs in PROJECT["optional-dependencies"].values() for r in reqs]
    return [*PROJECT["dependencies"], *(r for r in extras if not r.startswith("levelbench["))]


def pins() -> dict[str, str]:
    lines = (ROOT / "constraints.txt").read_text().splitlines()
    return {requirement_name(line): line.split("==", 1)[1] for line in lines if "==" in line and not line.startswith("#")}


def test_dependencies_and_extras_have_lower_bounds_only():
    for requirement in requirements():
        assert ">=" in requirement, f"{requirement}: expected a lower bound (name>=version)"
        assert not re.search(r"==|<|~=|!=", requirement), \
            f"{requirement}: expected a lower bound only; put the exact version in constraints.txt"


def test_constraints_pin_every_requirement_exactly_torch_included():
    pinned = pins()
    missing = sorted({requirement_name(r) for r in requirements()} - set(pinned))
    assert missing == [], f"not pinned in constraints.txt: {missing}"
    assert pinned["torch"] == "2.13.0"  # the CPU wheel `make demo` installs


def test_the_makefile_installs_with_the_constraints():
    makefile = (ROOT / "Makefile").read_text()
    assert re.search(r"pip install .*-c constraints\.txt .*-e '\.\[all,ray,test,docs\]'", makefile)


def test_packages_only_the_tests_use_are_in_test_not_in_the_notebook_extra():
    extras = {name: {requirement_name(r) for r in reqs} for name, reqs in PROJECT["optional-dependencies"].items()}
    assert TEST_ONLY <= extras["test"]
    assert not TEST_ONLY & (extras["notebook"] | set(map(requirement_name, PROJECT["dependencies"])))
    imported = set()
    for path in (ROOT / "levelbench").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                imported |= {a.name.split(".")[0] for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                imported.add(node.module.split(".")[0])
    assert not TEST_ONLY & imported, "levelbench itself imports a package declared test-only"
