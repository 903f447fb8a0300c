#!/usr/bin/env python3
"""Writes the small .npy fixtures of tests/tst_mask.cpp with numpy itself (numpy.save).

Run from this folder: python3 make_mask_npy.py. The C++ test rebuilds the same values
from the formulas below, so keep the two in step.
"""
import numpy

rows, cols = 3, 4
index = numpy.arange(rows * cols).reshape(rows, cols)

# Pixel masks: pixel i is masked when i % 3 == 1.
numpy.save("npy_mask_bool.npy", index % 3 == 1)
numpy.save("npy_mask_u1.npy", ((index % 3 == 1) * 2).astype(numpy.uint8))

# Labels: 7 * i - 5, little- and big-endian.
numpy.save("npy_labels_i4.npy", (7 * index - 5).astype("<i4"))
numpy.save("npy_labels_i8_be.npy", (7 * index - 5).astype(">i8"))

# An image in Fortran order: value 0.25 * i at C index i, NaN at i == 5.
image = (0.25 * index).astype("<f4")
image.flat[5] = numpy.nan
numpy.save("npy_image_f4_fortran.npy", numpy.asfortranarray(image))
assert numpy.load("npy_image_f4_fortran.npy").flags.f_contiguous

# 1-D float64 and uint16.
numpy.save("npy_vector_f8.npy", numpy.linspace(-1.0, 1.0, 5))
numpy.save("npy_vector_u2.npy", numpy.array([0, 1, 65535], dtype="<u2"))
