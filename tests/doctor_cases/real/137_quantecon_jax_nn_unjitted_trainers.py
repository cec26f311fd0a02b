# source: https://github.com/QuantEcon/lecture-jax/blob/main/lectures/jax_nn.md
# title: Neural Network Regression with JAX (QuantEcon lecture, after lecture-jax#247 'accurate JAX timing')
# established-by: maintainer jstac (QuantEcon/lecture-jax#247: warm-up runs before timing and block_until_ready, so the timings exclude compilation and include the work)
# cause: (Entered first as case 112 and retired before any doctor change: its lines: left out the fori_loop lines of strategies 3 and 4, the place they gave for strategy 2.) The lecture's jitted trainers are timed soundly: each is called once to compile, then timed with the result blocked (blocking one leaf of the returned parameters waits for the one executable that made them all). The exercise's trainers for strategies 2 to 4 are not jitted: each call hands lax.fori_loop a new `update` closure, and strategies 3 and 4 also jit a new `loss_fn_l2` and a new jax.jit(jax.grad(...)) per call, so every call compiles again and the warm-up call does not warm the timed one (checked on jax 0.10.2 with jax_log_compiles: the second call of each compiles jit(scan) again). Every timing uses time() from the time module. Code: the lecture's code cells, markdown dropped.
# static: LB111, LB105, LB104
# dynamic: LB210
# inferred: LB111 (the per-call compilation of the unjitted trainers; the lecture and the PR did not discuss it), LB105 (time() as the interval clock), LB210 (the runnable copy's two identical calls), LB104 (each JAX training run is timed once, one time() sample of one call; not discussed)
# lines: LB111:451/460/489/499/512/521/546/556/569/578, LB105:94/102/246/249/292/295/336/339/411/414/459/462/520/523/577/580, LB104:247/293/337/412/460/521/578
# first-sight: c3b020c 2026-12-02 py: found LB105:246 LB104:247 LB105:292 LB104:293 LB105:336 LB104:337 LB105:411 LB104:412 LB111:451 LB105:459 LB104:460 LB111:489 LB111:499 LB111:512 LB105:520 LB104:521 LB111:546 LB111:556 LB111:569 LB105:577 LB104:578; missed none; false LB114:460 LB106:495 LB114:521 LB106:552 LB114:578 | notebook: found LB105:246 LB104:247 LB105:292 LB104:293 LB105:336 LB104:337 LB105:411 LB104:412 LB111:451 LB105:459 LB104:460 LB111:489 LB111:499 LB111:512 LB105:520 LB104:521 LB111:546 LB111:556 LB111:569 LB105:577 LB104:578; missed none; false LB114:460 LB106:495 LB114:521 LB106:552 LB114:578

import numpy as np
import jax
import jax.numpy as jnp
import matplotlib.pyplot as plt
import os
from time import time
from typing import NamedTuple
from functools import partial

# %%
!pip install keras optax
# %%
os.environ['KERAS_BACKEND'] = 'jax'
# %%
import keras
from keras import Sequential
from keras.layers import Dense
import optax
# %%
class Config(NamedTuple):
    epochs: int = 4000             # Number of passes through the data set
    output_dim: int = 10           # Output dimension of input and hidden layers
    learning_rate: float = 0.001   # Learning rate for gradient descent
    layer_sizes: tuple = (1, 10, 10, 10, 1)  # Sizes of each layer in the network
    seed: int = 14                 # Random seed for data generation
# %%
def generate_data(
        key: jax.Array,         # JAX random key
        data_size: int = 400,   # Sample size
        x_min: float = 0.0,     # Minimum x value
        x_max: float = 5.0      # Maximum x value
    ):
    """
    Generate synthetic regression data.
    """
    x = jnp.linspace(x_min, x_max, num=data_size)
    ϵ = 0.2 * jax.random.normal(key, shape=(data_size,))
    y = x**0.5 + jnp.sin(x) + ϵ
    # Return observations as column vectors
    x = jnp.reshape(x, (data_size, 1))
    y = jnp.reshape(y, (data_size, 1))
    return x, y
# %%
config = Config()
key = jax.random.key(config.seed)
key_train, key_validate = jax.random.split(key)
x_train, y_train = generate_data(key_train)
x_validate, y_validate = generate_data(key_validate)
fig, ax = plt.subplots()
ax.scatter(x_train, y_train, alpha=0.5)
ax.scatter(x_validate, y_validate, color='red', alpha=0.5)
ax.set_xlabel('x')
ax.set_ylabel('y')
plt.show()
# %%
def build_keras_model(
        config: Config,                     # contains configuration data
        activation_function: str = 'tanh'   # activation with default
    ):
    model = Sequential()
    # Add layers to the network sequentially, from inputs towards outputs
    for i in range(len(config.layer_sizes) - 1):
        model.add(
           Dense(units=config.output_dim, activation=activation_function)
        )
    # Add a final layer that maps to a scalar value, for regression.
    model.add(Dense(units=1))
    # Embed training configurations
    model.compile(
        optimizer=keras.optimizers.SGD(),
        loss='mean_squared_error'
    )
    return model
# %%
def train_keras_model(
        model,          # Instance of Keras Sequential model
        x,              # Training data, inputs
        y,              # Training data, outputs
        x_validate,     # Validation data, inputs
        y_validate,     # Validation data, outputs
        config: Config  # contains configuration data
    ):
    print("Training NN using Keras.")
    start_time = time()
    training_history = model.fit(
        x, y,
        batch_size=max(x.shape),
        verbose=0,
        epochs=config.epochs,
        validation_data=(x_validate, y_validate)
    )
    elapsed = time() - start_time
    mse = model.evaluate(x_validate, y_validate, verbose=2)
    print(f"Trained in {elapsed:.2f} seconds, validation data MSE = {mse}")
    return model, training_history, elapsed, mse
# %%
def plot_keras_output(model, x_validate, y_validate):
    y_predict = model.predict(x_validate, verbose=2)
    fig, ax = plt.subplots()
    ax.scatter(x_validate, y_validate, color='red', alpha=0.5)
    ax.plot(x_validate, y_predict, label="fitted model", color='black')
    ax.set_xlabel('x')
    ax.set_ylabel('y')
    plt.show()
# %%
config = Config()
model = build_keras_model(config)
model, training_history, keras_runtime, keras_mse = train_keras_model(
    model, x_train, y_train, x_validate, y_validate, config
)
plot_keras_output(model, x_validate, y_validate)
# %%
class LayerParams(NamedTuple):
    """
    Stores parameters for one layer of the neural network.

    """
    W: jax.Array     # weights
    b: jax.Array     # biases
# %%
def initialize_layer(in_dim, out_dim, key):
    """
    Initialize weights and biases for a single layer of the network.
    Use He initialization for weights and ones for biases.

    """
    W = jax.random.normal(key, shape=(in_dim, out_dim)) * jnp.sqrt(2 / in_dim)
    b = jnp.ones((1, out_dim))
    return LayerParams(W, b)
# %%
def initialize_network(
        key: jax.Array,     # JAX random key
        config: Config      # contains configuration data
    ):
    """
    Build a network by initializing all of the parameters.
    A network is a list of LayerParams instances, each
    containing a weight-bias pair (W, b).

    """
    layer_sizes = config.layer_sizes
    params = []
    for i in range(len(layer_sizes) - 1):
        key, subkey = jax.random.split(key)
        layer = initialize_layer(
            layer_sizes[i],      # in dimension for layer
            layer_sizes[i + 1],  # out dimension for layer
            subkey
        )
        params.append(layer)
    return params
# %%
def f(
        θ: list,                        # Network parameters (pytree)
        x: jax.Array,                 # Input data (row vector)
        σ: callable = jnp.tanh          # Activation function
    ):
    """
    Perform a forward pass over the network to evaluate f(θ, x).
    """
    *hidden, last = θ
    for layer in hidden:
        x = σ(x @ layer.W + layer.b)
    x = x @ last.W + last.b
    return x
# %%
def loss_fn(
        θ: list,            # Network parameters (pytree)
        x: jax.Array,     # Input data
        y: jax.Array      # Target data
    ):
    return jnp.mean((f(θ, x) - y)**2)
# %%
def plot_jax_output(θ, x_validate, y_validate):
    fig, ax = plt.subplots()
    ax.scatter(x_validate, y_validate, color='red', alpha=0.5)
    ax.plot(x_validate.flatten(), f(θ, x_validate).flatten(),
            label="fitted model", color='black')
    ax.set_xlabel('x')
    ax.set_ylabel('y')
    plt.show()
# %%
loss_gradient = jax.jit(jax.grad(loss_fn))
# %%
def update_parameters(
        θ: list,            # Current parameters (pytree)
        x: jax.Array,     # Input data
        y: jax.Array,     # Target data
        config: Config      # contains configuration data
    ):
    """
    Update the parameter pytree using gradient descent.

    """
    λ = config.learning_rate
    # Specify the update rule
    def gradient_descent_step(p, g):
        """
        A rule for updating parameter vector p given gradient vector g.
        It will be applied to each leaf of the pytree of parameters.
        """
        return p - λ * g
    gradient = loss_gradient(θ, x, y)
    # Use tree.map to apply the update rule to the parameter vectors
    θ_new = jax.tree.map(gradient_descent_step, θ, gradient)
    return θ_new
# %%
@partial(jax.jit, static_argnames=['config'])
def train_jax_model(
        θ: list,                    # Initial parameters (pytree)
        x: jax.Array,             # Training input data
        y: jax.Array,             # Training target data
        config: Config              # contains configuration data
    ):
    """
    Train model using gradient descent.

    """
    def update(_, θ):
        θ_new = update_parameters(θ, x, y, config)
        return θ_new

    θ_final = jax.lax.fori_loop(0, config.epochs, update, θ)
    return θ_final
# %%
# Reset parameter vector
config = Config()
param_key = jax.random.key(1234)
θ = initialize_network(param_key, config)

# Warmup run to trigger JIT compilation
train_jax_model(θ, x_train, y_train, config)

# Reset and time the actual run
θ = initialize_network(param_key, config)
start_time = time()
θ = train_jax_model(θ, x_train, y_train, config)
θ[0].W.block_until_ready()  # Ensure computation completes
jax_runtime = time() - start_time

jax_mse = loss_fn(θ, x_validate, y_validate)
jax_train_mse = loss_fn(θ, x_train, y_train)
print(f"Trained model with JAX in {jax_runtime:.2f} seconds.")
print(f"Final MSE on validation data = {jax_mse:.6f}")
# %%
plot_jax_output(θ, x_validate, y_validate)
# %%
@partial(jax.jit, static_argnames=['config'])
def train_jax_optax(
        θ: list,                    # Initial parameters (pytree)
        x: jax.Array,             # Training input data
        y: jax.Array,             # Training target data
        config: Config              # contains configuration data
    ):
    " Train model using Optax SGD optimizer. "
    epochs = config.epochs
    learning_rate = config.learning_rate
    solver = optax.sgd(learning_rate)
    opt_state = solver.init(θ)

    def update(_, loop_state):
        θ, opt_state = loop_state
        grad = loss_gradient(θ, x, y)
        updates, new_opt_state = solver.update(grad, opt_state, θ)
        θ_new = optax.apply_updates(θ, updates)
        new_loop_state = θ_new, new_opt_state
        return new_loop_state

    initial_loop_state = θ, opt_state
    final_loop_state = jax.lax.fori_loop(0, epochs, update, initial_loop_state)
    θ_final, _ = final_loop_state
    return θ_final
# %%
# Reset parameter vector
θ = initialize_network(param_key, config)

# Warmup run to trigger JIT compilation
train_jax_optax(θ, x_train, y_train, config)

# Reset and time the actual run
θ = initialize_network(param_key, config)
start_time = time()
θ = train_jax_optax(θ, x_train, y_train, config)
θ[0].W.block_until_ready()  # Ensure computation completes
optax_sgd_runtime = time() - start_time

optax_sgd_mse = loss_fn(θ, x_validate, y_validate)
optax_sgd_train_mse = loss_fn(θ, x_train, y_train)
print(f"Trained model with JAX and Optax SGD in {optax_sgd_runtime:.2f} seconds.")
print(f"Final MSE on validation data = {optax_sgd_mse:.6f}")
# %%
plot_jax_output(θ, x_validate, y_validate)
# %%
@partial(jax.jit, static_argnames=['config'])
def train_jax_optax_adam(
        θ: list,                    # Initial parameters (pytree)
        x: jax.Array,             # Training input data
        y: jax.Array,             # Training target data
        config: Config              # contains configuration data
    ):
    " Train model using Optax Adam optimizer. "
    epochs = config.epochs
    learning_rate = config.learning_rate
    solver = optax.adam(learning_rate)
    opt_state = solver.init(θ)

    def update(_, loop_state):
        θ, opt_state = loop_state
        grad = loss_gradient(θ, x, y)
        updates, new_opt_state = solver.update(grad, opt_state, θ)
        θ_new = optax.apply_updates(θ, updates)
        return (θ_new, new_opt_state)

    initial_loop_state = θ, opt_state
    θ_final, _ = jax.lax.fori_loop(0, epochs, update, initial_loop_state)
    return θ_final
# %%
# Reset parameter vector
θ = initialize_network(param_key, config)

# Warmup run to trigger JIT compilation
train_jax_optax_adam(θ, x_train, y_train, config)

# Reset and time the actual run
θ = initialize_network(param_key, config)
start_time = time()
θ = train_jax_optax_adam(θ, x_train, y_train, config)
θ[0].W.block_until_ready()  # Ensure computation completes
optax_adam_runtime = time() - start_time

optax_adam_mse = loss_fn(θ, x_validate, y_validate)
optax_adam_train_mse = loss_fn(θ, x_train, y_train)
print(f"Trained model with JAX and Optax Adam in {optax_adam_runtime:.2f} seconds.")
print(f"Final MSE on validation data = {optax_adam_mse:.6f}")
# %%
plot_jax_output(θ, x_validate, y_validate)
# %%
import pandas as pd

# Compute Keras training MSE (JAX training MSEs were computed above)
keras_train_mse = model.evaluate(x_train, y_train, verbose=0)

# Create summary table
results = {
    'Method': [
        'Keras',
        'Pure JAX (hand-coded GD)',
        'JAX + Optax SGD',
        'JAX + Optax Adam'
    ],
    'Runtime (s)': [
        keras_runtime,
        jax_runtime,
        optax_sgd_runtime,
        optax_adam_runtime
    ],
    'Training MSE': [
        keras_train_mse,
        jax_train_mse,
        optax_sgd_train_mse,
        optax_adam_train_mse
    ],
    'Validation MSE': [
        keras_mse,
        jax_mse,
        optax_sgd_mse,
        optax_adam_mse
    ]
}

df = pd.DataFrame(results)
# Format MSE columns to 6 decimal places
df['Training MSE'] = df['Training MSE'].apply(lambda x: f"{x:.6f}")
df['Validation MSE'] = df['Validation MSE'].apply(lambda x: f"{x:.6f}")
print("\nSummary of Training Methods:")
print(df.to_string(index=False))
# %%
# Strategy 1: Deeper network (6 layers with k=6)
# Layer sizes: 1→6→6→6→6→6→1
# Parameters: (1×6+6) + 4×(6×6+6) + (6×1+1) = 12 + 4×42 + 7 = 187 < 251
θ = initialize_network(param_key, config)

def initialize_deep_params(
        key: jax.Array,     # JAX random key
        k: int = 6,         # Layer width
        num_hidden: int = 5 # Number of hidden layers
    ):
    " Initialize parameters for deeper network with k=6. "
    layer_sizes = tuple([1] + [k] * num_hidden + [1])
    config_deep = Config(layer_sizes=layer_sizes)
    return initialize_network(key, config_deep)

θ_deep = initialize_deep_params(param_key)
config_deep = Config(layer_sizes=(1, 6, 6, 6, 6, 6, 1))

# Warmup
train_jax_optax_adam(θ_deep, x_train, y_train, config_deep)

# Actual run
θ_deep = initialize_deep_params(param_key)
start_time = time()
θ_deep = train_jax_optax_adam(θ_deep, x_train, y_train, config_deep)
θ_deep[0].W.block_until_ready()
deep_runtime = time() - start_time

deep_mse = loss_fn(θ_deep, x_validate, y_validate)
print(f"Strategy 1 - Deeper network (6 layers, k=6)")
print(f"  Total parameters: 187")
print(f"  Runtime: {deep_runtime:.2f}s")
print(f"  Validation MSE: {deep_mse:.6f}")
print(f"  Improvement over Adam: {optax_adam_mse - deep_mse:.6f}")
# %%
# Strategy 2: Deeper network + LR schedule
θ_deep = initialize_deep_params(param_key)

def train_deep_with_schedule(
        θ: list,
        x: jax.Array,
        y: jax.Array,
        config: Config
    ):
    " Train deeper network with learning rate schedule. "
    epochs = config.epochs
    schedule = optax.exponential_decay(
        init_value=0.003,
        transition_steps=1000,
        decay_rate=0.5
    )

    solver = optax.adam(schedule)
    opt_state = solver.init(θ)

    def update(_, loop_state):
        θ, opt_state = loop_state
        grad = loss_gradient(θ, x, y)
        updates, new_opt_state = solver.update(grad, opt_state, θ)
        θ_new = optax.apply_updates(θ, updates)
        return (θ_new, new_opt_state)

    initial_loop_state = θ, opt_state
    θ_final, _ = jax.lax.fori_loop(0, epochs, update, initial_loop_state)
    return θ_final

# Warmup
train_deep_with_schedule(θ_deep, x_train, y_train, config_deep)

# Actual run
θ_deep = initialize_deep_params(param_key)
start_time = time()
θ_deep_schedule = train_deep_with_schedule(θ_deep, x_train, y_train, config_deep)
θ_deep_schedule[0].W.block_until_ready()
deep_schedule_runtime = time() - start_time

deep_schedule_mse = loss_fn(θ_deep_schedule, x_validate, y_validate)
print(f"Strategy 2 - Deeper network + LR schedule")
print(f"  Runtime: {deep_schedule_runtime:.2f}s")
print(f"  Validation MSE: {deep_schedule_mse:.6f}")
print(f"  Improvement over Adam: {optax_adam_mse - deep_schedule_mse:.6f}")
# %%
# Strategy 3: Deeper network + LR schedule + L2 regularization
θ_deep = initialize_deep_params(param_key)

def train_deep_with_schedule_and_l2(
        θ: list,
        x: jax.Array,
        y: jax.Array,
        config: Config,
        lambda_l2: float = 0.001
    ):
    " Train deeper network with learning rate schedule and L2 regularization. "
    epochs = config.epochs
    schedule = optax.exponential_decay(
        init_value=0.003,
        transition_steps=1000,
        decay_rate=0.5
    )

    # Define regularized loss function
    @jax.jit
    def loss_fn_l2(θ, x, y):
        # Standard MSE loss
        mse = jnp.mean((f(θ, x) - y)**2)
        # L2 penalty on weights (not biases)
        l2_penalty = 0.0
        for W, b in θ:
            l2_penalty += jnp.sum(W**2)
        return mse + lambda_l2 * l2_penalty

    loss_gradient_l2 = jax.jit(jax.grad(loss_fn_l2))

    solver = optax.adam(schedule)
    opt_state = solver.init(θ)

    def update(_, loop_state):
        θ, opt_state = loop_state
        grad = loss_gradient_l2(θ, x, y)
        updates, new_opt_state = solver.update(grad, opt_state, θ)
        θ_new = optax.apply_updates(θ, updates)
        return (θ_new, new_opt_state)

    initial_loop_state = θ, opt_state
    θ_final, _ = jax.lax.fori_loop(0, epochs, update, initial_loop_state)
    return θ_final

# Warmup
train_deep_with_schedule_and_l2(θ_deep, x_train, y_train, config_deep)

# Actual run
θ_deep = initialize_deep_params(param_key)
start_time = time()
θ_deep_l2 = train_deep_with_schedule_and_l2(θ_deep, x_train, y_train, config_deep)
θ_deep_l2[0].W.block_until_ready()
deep_l2_runtime = time() - start_time

deep_l2_mse = loss_fn(θ_deep_l2, x_validate, y_validate)
print(f"Strategy 3 - Deeper network + LR schedule + L2 regularization")
print(f"  Runtime: {deep_l2_runtime:.2f}s")
print(f"  Validation MSE: {deep_l2_mse:.6f}")
print(f"  Improvement over Adam: {optax_adam_mse - deep_l2_mse:.6f}")
# %%
# Strategy 4: Baseline architecture + L2 regularization
θ = initialize_network(param_key, config)

def train_baseline_with_l2(
        θ: list,
        x: jax.Array,
        y: jax.Array,
        config: Config,
        lambda_l2: float = 0.001
    ):
    " Train baseline model with L2 regularization. "
    epochs = config.epochs
    learning_rate = config.learning_rate

    # Define regularized loss function
    @jax.jit
    def loss_fn_l2(θ, x, y):
        # Standard MSE loss
        mse = jnp.mean((f(θ, x) - y)**2)
        # L2 penalty on weights (not biases)
        l2_penalty = 0.0
        for W, b in θ:
            l2_penalty += jnp.sum(W**2)
        return mse + lambda_l2 * l2_penalty

    loss_gradient_l2 = jax.jit(jax.grad(loss_fn_l2))

    solver = optax.adam(learning_rate)
    opt_state = solver.init(θ)

    def update(_, loop_state):
        θ, opt_state = loop_state
        grad = loss_gradient_l2(θ, x, y)
        updates, new_opt_state = solver.update(grad, opt_state, θ)
        θ_new = optax.apply_updates(θ, updates)
        return (θ_new, new_opt_state)

    initial_loop_state = θ, opt_state
    θ_final, _ = jax.lax.fori_loop(0, epochs, update, initial_loop_state)
    return θ_final

# Warmup
train_baseline_with_l2(θ, x_train, y_train, config)

# Actual run
θ = initialize_network(param_key, config)
start_time = time()
θ_baseline_l2 = train_baseline_with_l2(θ, x_train, y_train, config)
θ_baseline_l2[0].W.block_until_ready()
baseline_l2_runtime = time() - start_time

baseline_l2_mse = loss_fn(θ_baseline_l2, x_validate, y_validate)
print(f"Strategy 4 - Baseline + L2 regularization")
print(f"  Runtime: {baseline_l2_runtime:.2f}s")
print(f"  Validation MSE: {baseline_l2_mse:.6f}")
print(f"  Improvement over Adam: {optax_adam_mse - baseline_l2_mse:.6f}")
