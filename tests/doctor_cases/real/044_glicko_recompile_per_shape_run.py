# source: https://github.com/jax-ml/jax/issues/817
# explain: calculate_delta_sq
# dynamic: LB211, LB230
# Runnable copy of 044_glicko_recompile_per_shape.py for levelbench.explain: the posted jitted helper
# (with the two it calls) and the posted generate_random_observations, seeded, as the call sequence
# (calculate_delta_sq_calls): each draw has its own number of opponents.

import jax.numpy as np
from jax import jit
import numpy as onp  # the notebook's `numpy as np`; jax.numpy keeps the module's name np


Q = np.log(10.) / 400.


@jit
def calculate_g(sigma_sq):
    """
    Calculates g as defined in the Glicko paper.
    """

    return 1. / np.sqrt(1 + (3 * Q**2 * sigma_sq / np.pi**2))


@jit
def calculate_e(theta: float, mu_j: np.ndarray,
                sigma_j_sq: np.ndarray) -> np.ndarray:
    g = calculate_g(sigma_j_sq)

    return 1. / (1. + 10**(-g * (theta - mu_j) / 400.))


@jit
def calculate_delta_sq(n_j: np.ndarray, sigma_j_sq: np.ndarray, mu: float,
                       mu_j: np.ndarray) -> float:
    win_exp = calculate_e(mu, mu_j, sigma_j_sq)
    win_exp_component = win_exp * (1 - win_exp)
    g = calculate_g(sigma_j_sq)
    sum_components = n_j * g**2 * win_exp_component
    summed = np.sum(sum_components)

    return 1. / (Q**2 * summed)


def generate_random_observations():

    # Draw a random number of opponents
    num_opponents = onp.random.randint(1, 5)

    # Draw a random number of matches played against each opponent
    n_j = onp.array([onp.random.randint(1, 5) for x in range(num_opponents)])

    # Draw random mean for each opponent
    mu_j = onp.array([onp.random.normal(loc=1500., scale=50) for x in range(num_opponents)])

    # Draw random variances for each opponent
    sigma_j_sq = onp.array([onp.random.normal(loc=20, scale=5)**2 for x in range(num_opponents)])

    # Draw random outcomes (win/loss) for each opponent
    s_jk = [onp.random.randint(low=0, high=2, size=x) for x in n_j]

    return n_j, mu_j, sigma_j_sq, s_jk


mu = onp.array(1500.)


def calculate_delta_sq_args():
    onp.random.seed(0)
    n_j, mu_j, sigma_j_sq, s_jk = generate_random_observations()
    return (n_j, sigma_j_sq, mu, mu_j)


def calculate_delta_sq_calls():
    onp.random.seed(0)
    calls = []
    for i in range(8):
        n_j, mu_j, sigma_j_sq, s_jk = generate_random_observations()
        calls.append((n_j, sigma_j_sq, mu, mu_j))
    return calls
