# source: https://github.com/elizavetasemenova/PriorCVAE_JAX/blob/1a8eda9764682b570ac6b6adc0258e5d84ca87d6/priorCVAE/models/mcmc.py
# title: PriorCVAE_JAX `priorCVAE/models/mcmc.py`: `run_mcmc_vae` times one NumPyro NUTS `mcmc.run` over a VAE-decoder prior between two `time.time()` reads and returns the figure as `t_elapsed`, the 'MCMC elapsed time' the PriorCVAE experiments compare
# established-by: maintainer elizavetasemenova (the repository's MCMC inference helper)
# cause: `run_mcmc_vae` reads `time.time()` (a first read, overwritten before use, then again right before the run), calls `mcmc.run` once and reads the clock again: one sample of one run (LB104, at the first statement inside the clock pair), read with the wall clock (LB105, at the start read that the interval uses). The run is cold: `mcmc.run` traces the model, with the decoder's forward pass, and compiles NumPyro's warmup and sampling loops inside the timed region, and `t_elapsed` is returned as the run's cost; the compile is NumPyro's own jit, not a function the file jits (case 292's reading of NumPyro's `examples/ar2.py`, the same shape: LB104 and LB105, no LB103). With its default progress bar, NumPyro's sampling loop reads each step's diagnostics back to the host to print them, so `mcmc.run` returns with the sampling done and no LB102 is labelled (only with `NUMPYRO_SPHINXBUILD` set, for the docs build, does it run without the bar). No issue discusses the timing; the reading is the catalogue's. Code: the file as stored at commit 1a8eda9, unchanged (the stored copy starts at `numpyro_model`, with no import lines).
# static: LB104, LB105
# dynamic: n/a
# inferred: LB104 (one sample of one cold end-to-end run; not discussed), LB105 (`time.time()` as the interval clock; not discussed)
# lines: LB104:43, LB105:42
# first-sight: de40b29 2026-12-06 py: found none; missed LB104:43, LB105:42; false none | notebook: found none; missed LB104:43, LB105:42; false none


def numpyro_model(z_dim, conditional=False,  y=None, obs_idx=None, c=None,):
    
    if c is None and conditional==True:
        c = numpyro.sample("c", npdist.Uniform(0.01,0.99))

    z = numpyro.sample("z", npdist.Normal(jnp.zeros(z_dim), jnp.ones(z_dim))) 
    
    f = numpyro.deterministic("f", APPLY_DECODER(z))
    sigma = numpyro.sample("sigma", npdist.HalfNormal(0.1))

    if y is None: # durinig prediction
        y_pred = numpyro.sample("y_pred", npdist.Normal(f, sigma))
    else: # during inference
        y = numpyro.sample("y", npdist.Normal(f[obs_idx], sigma), obs=y)

        

def run_mcmc_vae(rng_key, numpyro_model, args, verbose=True, c=None, conditional=False):
    start = time.time()

    init_strategy = init_to_median(num_samples=10)
    kernel = NUTS(numpyro_model, init_strategy=init_strategy)
    mcmc = MCMC(
        kernel,
        num_warmup=args["num_warmup"],
        num_samples=args["num_samples"],
        num_chains=args["num_chains"],
        thinning=args["thinning"],
        progress_bar=False if "NUMPYRO_SPHINXBUILD" in os.environ else True,
    )
    start = time.time()
    mcmc.run(rng_key, args["z_dim"], conditional, args["y_obs"], args["obs_idx"], c )
    t_elapsed = time.time() - start
    if verbose:
        mcmc.print_summary(exclude_deterministic=False)
    
    print("\nMCMC elapsed time:", round(t_elapsed), "s")
    ss = numpyro.diagnostics.summary(mcmc.get_samples(group_by_chain=True))
    r = np.mean(ss['f']['n_eff'])
    print("Average ESS for all VAE-GP effects : " + str(round(r)))

    return (mcmc, mcmc.get_samples(), t_elapsed)


