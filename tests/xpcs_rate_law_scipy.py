#!/usr/bin/env python3
"""scipy.optimize.curve_fit on the Γ(q) points tst_xpcs_rate_law fitted (issue 54 item 3).

Usage: xpcs_rate_law_scipy.py IN.json OUT.json

IN: a list of fits, each {"law": "power"|"diffusion"|"ballistic", "q", "rate", "sigma",
"start": [A, n]} (the points in the law's q range, the C++ start values).
OUT: per fit {"values": [A, n], "errors": [A_err, n_err]} (n_err 0 for the fixed laws), with
curve_fit's default (errors scaled by chi2_red) as the C++ fit.
"""
import json
import sys

import numpy as np
from scipy.optimize import curve_fit

EXPONENT = {"diffusion": 2.0, "ballistic": 1.0}


def fit_one(case):
    q, rate, sigma = (np.array(case[k], dtype=float) for k in ("q", "rate", "sigma"))
    a0, n0 = case["start"]
    law = case["law"]
    if law in EXPONENT:
        n = EXPONENT[law]
        popt, pcov = curve_fit(lambda x, a: a * x**n, q, rate, p0=[a0], sigma=sigma)
        return {"values": [popt[0], n], "errors": [float(np.sqrt(pcov[0, 0])), 0.0]}
    popt, pcov = curve_fit(lambda x, a, n: a * x**n, q, rate, p0=[a0, n0], sigma=sigma,
                           maxfev=20000)
    return {"values": popt.tolist(), "errors": np.sqrt(np.diag(pcov)).tolist()}


def main():
    with open(sys.argv[1]) as f:
        cases = json.load(f)
    with open(sys.argv[2], "w") as f:
        json.dump([fit_one(c) for c in cases], f)


if __name__ == "__main__":
    main()
