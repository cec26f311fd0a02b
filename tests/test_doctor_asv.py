"""asv's benchmark classes: each ``time_*`` method is a timed region (case 300, JAX's own ``bench_linalg.py``).

`levelbench.doctor._placement.asv_timed`: a ``time_*`` method of a module-level class holding asv's set-up or
settings (``setup``, ``params``, ``number``...). asv calls ``setup`` untimed, then the method until it has its
samples, after warm-up calls: no cold first call, but a JAX result the method drops is never waited for (LB102).
"""

from __future__ import annotations

import textwrap

from levelbench.doctor import lint_source


def findings(source: str, path: str = "suite.py") -> set[tuple[str, int]]:
    return {(d.code, d.location.line) for d in lint_source(textwrap.dedent(source), path)}


SUITE = """\
import jax
import jax.numpy as jnp

class Products:
    {member}

    def setup(self):
        self.a = jnp.ones((400, 400))

    def time_dot(self):
        {timed}

    def helper_dot(self):
        jnp.dot(self.a, self.a)
"""


def suite(member: str = "params = [10, 100]", timed: str = "jnp.dot(self.a, self.a)") -> str:
    return SUITE.format(member=member, timed=timed)


def test_a_time_method_that_drops_its_jax_result_is_timed_unwaited():
    assert ("LB102", 11) in findings(suite())


def test_the_suite_is_read_the_same_with_setup_alone_or_an_asv_setting_alone():
    assert ("LB102", 11) in findings(suite(member="pass"))  # `setup` is asv's
    settings_only = suite(member="number = 1").replace("def setup(self):", "def prepare(self):")
    assert ("LB102", 11) in findings(settings_only.replace("jnp.dot(self.a, self.a)", "jnp.sin(jnp.ones(4))", 1))


def test_an_assigned_result_left_unwaited_and_an_einsum_through_another_alias_are_read_alike():
    assert ("LB102", 11) in findings(suite(timed="out = jnp.matmul(self.a, self.a)"))
    aliased = suite(timed="np.einsum('ij,jk', self.a, self.a)").replace("import jax.numpy as jnp",
                                                                        "import jax.numpy as jnp\nimport jax.numpy as np")
    assert ("LB102", 12) in findings(aliased)


def test_a_time_method_that_waits_is_quiet():
    assert not findings(suite(timed="jnp.dot(self.a, self.a).block_until_ready()"))
    assert not findings(suite(timed="jax.block_until_ready(jnp.dot(self.a, self.a))"))


def test_a_time_method_of_a_class_asv_would_not_collect_is_not_a_timing():
    plain = suite(member="pass").replace("def setup(self):", "def prepare(self):")
    assert not any(code == "LB102" for code, _ in findings(plain))


def test_other_methods_of_an_asv_suite_are_not_timed():
    found = findings(suite(timed="jax.block_until_ready(jnp.dot(self.a, self.a))"))
    assert not any(line == 14 for _, line in found)
