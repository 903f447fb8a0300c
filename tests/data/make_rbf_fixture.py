#!/usr/bin/python3
"""Independent rbf fixture for tst_rbf: potentials computed with numpy + scipy.

Run once (Debian python3-numpy, python3-scipy, python3-h5py):
    /usr/bin/python3 tests/data/make_rbf_fixture.py tests/data/rbf_fixture.h5
Writes /real and /complex particle groups (sources (N,3), targets (M,3), weights (N) or
(N,2) [re, im]), /sigma, /wavenumber and /expected/{real,complex}/{gaussian,laplace,
helmholtz}/potential ((M) real or (M,2) [re, im]); /planes: the seed notebook's own code
(np.mgrid plane targets xy, xz, yz, RandomState(0) sources and weights) with n = 9 and its
Gaussian sums in /planes/expected (sigma 0.1). Semantics (DESIGN.md §5): Gaussian
exp(-r^2/(2 sigma^2)), Laplace 1/(4 pi r), Helmholtz exp(i k r)/(4 pi r); r = 0 pairs add
nothing for Laplace and Helmholtz. Several targets coincide with sources.
"""
import sys

import h5py
import numpy as np
from scipy.spatial.distance import cdist

SIGMA = 0.15
WAVENUMBER = 7.5


def kernel_matrix(name, r):
    if name == "gaussian":
        return np.exp(-r**2 / (2 * SIGMA**2))
    with np.errstate(divide="ignore", invalid="ignore"):
        g = np.where(r > 0, 1.0 / (4 * np.pi * r), 0.0)
        if name == "laplace":
            return g
        return np.where(r > 0, np.exp(1j * WAVENUMBER * r) * g, 0.0)


def main(out):
    rng = np.random.default_rng(20240612)
    n_sources, n_targets = 61, 203
    sources = rng.random((n_sources, 3))
    targets = rng.uniform(-0.2, 1.2, (n_targets, 3))
    targets[::17] = sources[: len(targets[::17])]  # coincident pairs
    real_w = rng.uniform(-1.0, 1.0, n_sources)
    complex_w = rng.uniform(-1.0, 1.0, (n_sources, 2))
    r = cdist(targets, sources)  # Euclidean distances, float64
    with h5py.File(out, "w") as f:
        f["sigma"] = SIGMA
        f["wavenumber"] = WAVENUMBER
        for group, w in (("real", real_w), ("complex", complex_w)):
            f[f"{group}/sources"] = sources
            f[f"{group}/targets"] = targets
            f[f"{group}/weights"] = w
            c = w if w.ndim == 1 else w[:, 0] + 1j * w[:, 1]
            for name in ("gaussian", "laplace", "helmholtz"):
                potential = kernel_matrix(name, r) @ c
                if np.iscomplexobj(potential) or name == "helmholtz":
                    potential = np.stack([potential.real, potential.imag], axis=1)
                f[f"expected/{group}/{name}/potential"] = potential
        seed_planes(f)


def seed_planes(f, npoints=9, nsources=50, sigma=0.1):
    """The seed notebook's targets and CPU evaluation, verbatim in substance."""
    plot_grid = np.mgrid[0:1:npoints * 1j, 0:1:npoints * 1j]
    zeros = np.zeros(plot_grid[0].size)
    targets = np.vstack((
        np.vstack((plot_grid[0].ravel(), plot_grid[1].ravel(), zeros)).T,
        np.vstack((plot_grid[0].ravel(), zeros, plot_grid[1].ravel())).T,
        np.vstack((zeros, plot_grid[0].ravel(), plot_grid[1].ravel())).T))
    rand = np.random.RandomState(0)
    sources = rand.rand(nsources, 3)
    weights = rand.rand(len(sources))
    result = np.array([np.sum(np.exp(-np.sum(np.abs(t - sources)**2, axis=1) / (2 * sigma**2)) * weights)
                       for t in targets])
    f["planes/sources"] = sources
    f["planes/weights"] = weights
    f["planes/n"] = npoints
    f["planes/expected/potential"] = result


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "rbf_fixture.h5")
