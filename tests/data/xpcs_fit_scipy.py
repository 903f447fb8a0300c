#!/usr/bin/python3
"""Fixture of tst_xpcs_fit: scipy.optimize.curve_fit of the pipeline's own g2 with its g2_err.

Input (written by tst_xpcs_fit with CLSCOPE_WRITE_FIT_FIXTURE=FILE): lines "tau g2 g2_err" of
clscope's cpu correlation of an AR(1) frame stack. Points with tau = 0 or g2_err = 0 (the last
lag, one pair) are left out; the others are weighted by 1/g2_err^2, errors scaled by chi2_red
(absolute_sigma=False), as clscope's fits. Output: the same lines plus "fit baseline beta gamma"
and "err ..." lines.

  /usr/bin/python3 tests/data/xpcs_fit_scipy.py /tmp/fitdata.txt tests/data/xpcs_fit_fixture.txt
"""
import sys

import numpy as np
from scipy.optimize import curve_fit

rows = np.loadtxt(sys.argv[1])
tau, g2, err = rows[:, 0], rows[:, 1], rows[:, 2]
use = (tau > 0) & (err > 0) & np.isfinite(err)


def model(t, baseline, beta, gamma):
    return baseline + beta * np.exp(-2.0 * gamma * t)


p0 = [g2[-len(g2) // 5:].mean(), g2[1] - g2[-len(g2) // 5:].mean(), 5.0]
values, cov = curve_fit(model, tau[use], g2[use], p0=p0, sigma=err[use], absolute_sigma=False,
                        xtol=1e-15, ftol=1e-15, gtol=1e-15, maxfev=100000)
with open(sys.argv[2], "w") as out:
    out.write("# tau g2 g2_err (clscope cpu), then scipy curve_fit: fit/err baseline beta gamma\n")
    for row in rows:
        out.write("%r %r %r\n" % tuple(float(v) for v in row))
    out.write("fit %r %r %r\n" % tuple(float(v) for v in values))
    out.write("err %r %r %r\n" % tuple(float(v) for v in np.sqrt(np.diag(cov))))
