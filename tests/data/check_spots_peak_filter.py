#!/usr/bin/env python3
"""DIALS' peak-centroid distance of hand-made spots (tst_spots peakCentroidFilter).

Run with Debian's python3-dials (/usr/bin/python3). DIALS 3.12.1 prints, per spot: bbox,
peak_coordinates(), centroid_valid() and their distance:
  (0, 8, 0, 1, 0, 1) (0.5, 0.5, 0.5) (2.6538461538461537, 0.5, 0.5) 2.1538461538461537
  (0, 5, 2, 3, 0, 1) (1.5, 2.5, 0.5) (2.772727272727273, 2.5, 0.5) 1.272727272727273
  (0, 3, 0, 2, 0, 1) (2.5, 0.5, 0.5) (1.5, 1.0454545454545454, 0.5) 1.139087644194697
The second and third spots have two equal maxima: the peak is the first in scan order, also
when the two halves of the spot are labelled apart and merged later (the third).
"""
import numpy as np
from dials.array_family import flex
from dials.model.data import PixelList, PixelListLabeller
def run(img, sig):
    h, w = img.shape
    mask = flex.bool(flex.grid(h, w), False)
    mask.as_1d().set_selected(flex.size_t(np.flatnonzero(sig).tolist()), True)
    lab = PixelListLabeller()
    lab.add(PixelList(0, flex.double(img.astype(np.float64)), mask))
    boxes = flex.PixelListShoeboxCreator(lab, 0, 0, True, 1, 1000, False).result()
    peak = boxes.peak_coordinates(); cent = boxes.centroid_valid()
    for k in range(len(boxes)):
        c = cent[k].px.position
        print(boxes[k].bbox, peak[k], c, (flex.vec3_double([peak[k]]) - flex.vec3_double([c])).norms()[0])
img = np.zeros((3, 9)); sig = np.zeros((3, 9), bool)
img[0, :8] = [60,10,10,10,10,10,10,10]; sig[0, :8] = True
img[2, 0:5] = [10,40,10,10,40]; sig[2, 0:5] = True
run(img, sig)
img = np.zeros((3, 4)); sig = np.zeros((3, 4), bool)
for (x, y, v) in [(0,0,10),(2,0,40),(0,1,40),(1,1,10),(2,1,10)]:
    img[y, x] = v; sig[y, x] = True
run(img, sig)
