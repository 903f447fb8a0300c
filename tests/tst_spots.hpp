// tst_spots: one test class, its slots in tst_spots.cpp (variants, DIALS fixture, invariants,
// debug images, phil, bad inputs) and tst_spots_grouping.cpp (spots from signal masks).
#pragma once
#include "core/spots/spots.hpp"

#include <QObject>
#include <QtTest>

Q_DECLARE_METATYPE(clscope::spots::Params)

class TestSpots : public QObject {
    Q_OBJECT
  private slots:
    void variantsMatchCpu_data();
    void variantsMatchCpu();
    void listsWithoutMask();
    void radixSortIsAStableSort();
    void dialsFixture();
    void transposeSymmetry();
    void gainInvariants();
    // tst_spots_grouping.cpp
    void spotGrouping();
    void spotGrouping3d();
    void batchSpotsMergedInFrameOrder();
    void peakCentroidFilter();
    void groupingMatchesFloodFill();
    // tst_spots_list.cpp
    void packedLimits();
    void listCapacityBoundary();
    // tst_spots.cpp
    void debugImages();
    void philSnippet();
    void badInputs();
};
