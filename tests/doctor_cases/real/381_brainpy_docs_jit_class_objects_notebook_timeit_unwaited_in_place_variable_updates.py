# source: https://github.com/brainpy/BrainPy/blob/1316d8fcfd269ce609813cd77d504f728dfd40e6/docs/tutorial_math/compilation.ipynb
# title: BrainPy documentation, 'JIT Compilation for Class Objects' (docs/tutorial_math/compilation.ipynb, by Chaoming Wang and Xiaoyu Chen): a `LogisticRegression` object that updates its `bm.Variable` weight in place, timed with `%timeit` un-jitted (3.73 ms) and under `bm.jit` (1.75 ms), then examples of `dyn_vars`, a jitted SGD loop and static arguments
# established-by: maintainer chaoming0625 (BrainPy's own documentation notebook, by its lead author; no issue discusses its timing)
# cause: `brainpy.math` is BrainPy's JAX front end: `bm` arrays wrap JAX arrays and `bm.jit` wraps `jax.jit`, turning the object's `Variable`s into arguments and outputs of the compiled function and writing the outputs back into them (so the jitted `__call__`, which returns `None`, still returns the new weight to XLA: no LB107). What a correct doctor reports, by the catalogue and the corpus's readings: both `%timeit` lines time a call that returns nothing and whose work, an eager chain of `bm.dot`/`bm.exp` and an in-place `self.w[:] = ...` or the jitted update written back into `self.w`, is never waited for, so both figures measure dispatch (LB102 at the two `%timeit` lines, the reading of 257, whose timed functions also return nothing, and of 300's unwaited eager operations). `%timeit` without `-n` absorbs the jit's compile in its calibration runs (no LB103), and the un-jitted call is the page's deliberate baseline beside its jitted twin (no LB114, the reading of 242). The SGD loop's `print` reads every loss on the host and times nothing; the other cells call jitted functions once to show what `dyn_vars` does. Code: the notebook's code cells at commit 1316d8f in order, one `# %%` cell each (the markdown, the outputs and the final empty cell left out).
# static: LB102
# dynamic: n/a
# inferred: LB102 (both `%timeit` figures time calls whose results are written into `Variable`s and never waited for; not discussed)
# lines: LB102:47/52
# first-sight: 35efc1f 2026-12-06 py: found none; missed LB102:47/52; false none | notebook: found none; missed LB102:47/52; false none

# %%
import brainpy as bp
import brainpy.math as bm

bm.set_platform('cpu')

# %%
class LogisticRegression(bp.Base):
    def __init__(self, dimension):
        super(LogisticRegression, self).__init__()

        # parameters
        self.dimension = dimension

        # variables
        self.w = bm.Variable(2.0 * bm.ones(dimension) - 1.3)

    def __call__(self, X, Y):
        u = bm.dot(((1.0 / (1.0 + bm.exp(-Y * bm.dot(X, self.w))) - 1.0) * Y), X)
        self.w[:] = self.w - u 
        # The above line can also be expressed as: 
        # 
        #   self.w.value = self.w - u 
        # 
        # or, 
        # 
        #   self.w.update(self.w - u)

# %%
num_dim, num_points = 10, 200000
points = bm.random.random((num_points, num_dim))
labels = bm.random.random(num_points)

# %%
lr = LogisticRegression(10)

%timeit lr(points, labels)

# %%
lr_jit = bm.jit(lr)

%timeit lr_jit(points, labels)

# %%
import types

isinstance(lr_jit, types.FunctionType)  # "lr" is class, while "lr_jit" is a function

# %%
class Linear(bp.Base):
    def __init__(self, n_in, n_out):
        super(Linear, self).__init__()
        self.w = bm.random.random((n_in, n_out))
        self.b = bm.zeros(n_out)
    
    def update(self, x):
        return x @ self.w + self.b

# %%
x = bm.zeros(10)  # the input data
l = Linear(10, 3)  # the class we need

# %%
update1 = bm.jit(
    l.update, dyn_vars=[l.w, l.b]  # make 'w' and 'b' dynamically change
)  

update1(x)  # x is 0., b is 0., therefore y is 0.

# %%
l.b[:] = 1.  # change b to 1, we expect y will be 1 too

update1(x)

# %%
update2 = bm.jit(
    l.update, dyn_vars=[l.w]  # only make 'w' dynamically change
)

update2(x)

# %%
l.b[:] = 2.  # change b to 2

update2(x)  # while y will not be 2

# %%
n_in = 10;  n_out = 3

w = bm.random.random((n_in, n_out))
b = bm.zeros(n_out)

def update(x):
    return x @ w + b

# %%
update1 = bm.jit(update)
update1(x)

# %%
b[:] = 1.  # modify the value of 'b' will not 
           # change the result, because in the 
           # jitted function, 'b' is already 
           # a constant
update1(x)

# %%
update2 = bm.jit(update, dyn_vars=(w, b))
update2(x)

# %%
b[:] = 2.  # change b to 2, while y will not be 2
update2(x)

# %%
class LinearNet(bp.Base):
    def __init__(self, n_in, n_out):
        super(LinearNet, self).__init__()

        # weights
        self.w = bm.TrainVar(bm.random.random((n_in, n_out)))
        self.b = bm.TrainVar(bm.zeros(n_out))
        self.r = bm.TrainVar(bm.random.random((n_out, 1)))
    
    def update(self, x):
        h = x @ self.w + self.b
        return h @ self.r
    
    def loss(self, x, y):
        predict = self.update(x)
        return bm.mean((predict - y) ** 2)


ln = LinearNet(100, 200)

# provide the variables want to update
opt = bm.optimizers.SGD(lr=1e-6, train_vars=ln.vars()) 

# provide the variables require graidents
f_grad = bm.grad(ln.loss, grad_vars=ln.vars(), return_value=True)  


def train(X, Y):
    grads, loss = f_grad(X, Y)
    opt.update(grads)
    return loss

# JIT the train function 
train_jit = bm.jit(train, dyn_vars=ln.vars() + opt.vars())

# %%
xs = bm.random.random((1000, 100))
ys = bm.random.random((1000, 1))

for i in range(30):
    loss  = train_jit(xs, ys)
    print(f'Train {i}, loss = {loss:.2f}')

# %%
def function():
    return bm.random.normal(0, 1, size=(10,))

# %%
f1 = bm.jit(function)

f1() == f1()

# %%
bm.random.seed(1234)

f2 = bm.jit(function, dyn_vars=bm.random.DEFAULT)

f2() == f2()

# %%
@bm.jit
def f(x):
  if x < 3:  # this will cause error
    return 3. * x ** 2
  else:
    return -4 * x

# %%
try:
    f(1.)
except Exception as e:
    print(type(e), e)

# %%
def f(x):
  if x < 3:  # this will cause error
    return 3. * x ** 2
  else:
    return -4 * x

f_jit = bm.jit(f, static_argnames=('x',))

# %%
f_jit(x=1.)
