#!/usr/bin/env python3
"""scipy.optimize.curve_fit on the points tst_xpcs_fit_models fitted (issue 54 item 2).

Usage: xpcs_fit_models_scipy.py IN.json OUT.json

IN: a list of fits, each {"model": "single"|"stretched"|"double"|"flow", "q": q,
"start": the 7 G2Param values the C++ fit started from (baseline, beta, rate, alpha, beta2,
rate2, velocity), "free": the indices of the free ones, "tau", "g2", "sigma"}.
OUT: per fit {"values": 7 values, "errors": 7 errors (0 for fixed parameters)}, in the C++
conventions: curve_fit's default (errors scaled by chi2_red), double's first component the faster,
flow's v >= 0. curve_fit fits the free parameters from the same start, without bounds (the
C++ bounds are not active at the synthetic optima).
"""
import json
import sys

import numpy as np
from scipy.optimize import curve_fit


def g2(tau, p, q):
    b, beta, rate, alpha, beta2, rate2, v = p
    x = v * q * tau
    flow = np.sinc(x / np.pi)  # numpy's sinc is sin(pi x)/(pi x)
    first = beta * np.exp(-2.0 * np.power(rate * tau, alpha)) * flow * flow
    return b + first + beta2 * np.exp(-2.0 * rate2 * tau)


def fit_one(case):
    start = np.array(case["start"], dtype=float)
    free = case["free"]
    q = case["q"]
    tau = np.array(case["tau"])

    def model(t, *free_values):
        p = start.copy()
        p[free] = free_values
        return g2(t, p, q)

    popt, pcov = curve_fit(model, tau, np.array(case["g2"]), p0=start[free],
                           sigma=np.array(case["sigma"]), maxfev=20000)
    values, errors = start.copy(), np.zeros(7)
    values[free] = popt
    errors[free] = np.sqrt(np.diag(pcov))
    if case["model"] == "double" and values[5] > values[2]:
        values[[1, 4]], errors[[1, 4]] = values[[4, 1]], errors[[4, 1]]
        values[[2, 5]], errors[[2, 5]] = values[[5, 2]], errors[[5, 2]]
    values[6] = abs(values[6])
    return {"values": values.tolist(), "errors": errors.tolist()}


def main():
    with open(sys.argv[1]) as f:
        cases = json.load(f)
    with open(sys.argv[2], "w") as f:
        json.dump([fit_one(c) for c in cases], f)


if __name__ == "__main__":
    main()
