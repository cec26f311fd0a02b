"""The doctor finds its rules by listing `levelbench.doctor.rules`: one module per rule, each ``CODE`` and
``check``, exactly the catalogue's LB1xx codes. A module and the catalogue that disagree fail loudly."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import pytest

from levelbench._values.catalogue import RULES
from levelbench.doctor import _engine, lint_source
from levelbench.doctor._engine import RuleModuleError, discover_rules


@pytest.fixture
def rules_package(tmp_path, monkeypatch):
    """Make a package of rule modules, ``{file name: source}``; returns its importable name."""
    made = []

    def make(modules: dict[str, str]) -> str:
        name = f"fake_rules_{len(made)}_{abs(hash(str(tmp_path))) % 10**8}"
        folder = tmp_path / name
        folder.mkdir()
        (folder / "__init__.py").write_text('"""Rules for a test."""\n')
        for file, source in modules.items():
            (folder / file).write_text(textwrap.dedent(source))
        made.append(name)
        return name

    monkeypatch.syspath_prepend(str(tmp_path))
    yield make
    for name in made:
        for module in [m for m in sys.modules if m == name or m.startswith(name + ".")]:
            del sys.modules[module]


def _rule(code: str) -> str:
    return f'CODE = "{code}"\n\ndef check(ctx):\n    return iter(())\n'


def test_each_module_is_one_rule_and_the_map_is_in_code_order(rules_package):
    package = rules_package({"lb2_b.py": _rule("LB2"), "lb1_a.py": _rule("LB1"), "lb3_c.py": _rule("LB3")})
    checks = discover_rules(package, ["LB3", "LB1", "LB2"])
    assert list(checks) == ["LB1", "LB2", "LB3"]
    assert checks["LB2"].__module__ == f"{package}.lb2_b"


def test_a_rule_module_whose_code_is_not_in_the_catalogue_fails_loudly(rules_package):
    package = rules_package({"lb1_a.py": _rule("LB1"), "lb9_typo.py": _rule("LB9")})
    with pytest.raises(RuleModuleError, match=rf"{package}\.lb9_typo checks LB9, which the catalogue does not have: "
                                              r"expected one of LB1; add LB9's entry to .*static\.py or correct CODE"):
        discover_rules(package, ["LB1"])


def test_a_catalogue_rule_without_a_module_fails_loudly(rules_package):
    package = rules_package({"lb1_a.py": _rule("LB1")})
    with pytest.raises(RuleModuleError, match=rf"no module of {package} checks LB2, LB3: expected one module per "
                                              rf"catalogue rule, e\.g\. .*/lb2_<name>\.py with CODE = 'LB2'"):
        discover_rules(package, ["LB1", "LB2", "LB3"])


def test_two_modules_of_one_code_fail_loudly(rules_package):
    package = rules_package({"lb1_a.py": _rule("LB1"), "lb1_b.py": _rule("LB1")})
    with pytest.raises(RuleModuleError, match=rf"LB1 is checked by two modules, {package}\.lb1_a and {package}\.lb1_b"):
        discover_rules(package, ["LB1"])


@pytest.mark.parametrize("source", ['CODE = "LB1"\n', "def check(ctx):\n    return iter(())\n",
                                    "CODE = 101\n\ndef check(ctx):\n    return iter(())\n"])
def test_a_module_that_is_not_a_rule_fails_loudly(rules_package, source):
    package = rules_package({"lb1_a.py": source})
    with pytest.raises(RuleModuleError, match=rf"{package}\.lb1_a is in the rules package but is not a rule: "
                                              r"expected CODE = \"LB1xx\" \(got .*\) and a function check\(ctx\)"):
        discover_rules(package, ["LB1"])


def test_the_doctors_rules_are_the_catalogues_found_once_per_process():
    checks = _engine.rule_checks()
    assert list(checks) == sorted(code for code in RULES if code != "LB100")
    assert _engine.rule_checks() is checks
    assert all(check.__module__.startswith(f"levelbench.doctor.rules.{code.lower()}_") for code, check in checks.items())


def test_a_rule_module_is_registered_by_being_there(rules_package, monkeypatch):
    """A new module in the package (and its catalogue entry) is all a rule needs to run."""
    package = rules_package({
        "lb101_every_line.py": '''
            CODE = "LB101"

            import ast

            def check(ctx):
                for node in ctx.program.of_type(ast.Assign):
                    yield ctx.report("LB101", node, "an assignment", evidence="it is there", fix="none")
        ''',
    })
    checks = discover_rules(package, ["LB101"])
    monkeypatch.setattr(_engine, "rule_checks", lambda: checks)
    found = lint_source("x = 1\ny = 2\n", "s.py")
    assert [(d.code, d.location.line) for d in found] == [("LB101", 1), ("LB101", 2)]


def test_the_rules_package_holds_only_rules():
    folder = Path(_engine.rules.__file__).parent
    assert sorted(p.name for p in folder.iterdir() if p.suffix == ".py" and not p.name.startswith("lb1")) == ["__init__.py"]
