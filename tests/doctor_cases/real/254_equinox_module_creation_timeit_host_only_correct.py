# source: https://github.com/patrick-kidger/equinox/issues/899
# title: Speeding up module creation: `%timeit` of constructing an `eqx.Module` against a plain Python class
# established-by: maintainer johannahaffner (the overhead, 30 µs against 250 ns, is the Module metaclass's several hundred lines of Python checks, which cannot be optimised away)
# cause: Correct timing code for host work. `%timeit a = A()` against `%timeit a = B()` times building an `eqx.Module` instance and a plain object: no array, no device work, nothing asynchronous to wait for and nothing compiled, and `%timeit` calibrates and repeats. The maintainer's answer accounts for the difference in Python (the metaclass's checks), so the figures measure what the question asks. Code: the MVC as posted (it shows no imports; `eqx` is Equinox).
# static: none
# dynamic: n/a
# inferred: none
# lines: none
# first-sight: 12e883c 2026-12-06 py: found none; missed none; false none | notebook: found none; missed none; false none

class A(eqx.Module):
  w: str

  def __init__(self):
    self.w = "hi"
  
class B:
  def __init__(self):
    self.w = "hi"

%timeit a = A()

%timeit a = B()
