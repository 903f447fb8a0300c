// tst_mask: the Qt-free core of the q-bin mask editor (core/mask). One test class, its slots
// spread over tst_mask_geometry.cpp, tst_mask_shapes.cpp and tst_mask_io.cpp.
#pragma once
#include "core/data.hpp"
#include "core/mask/shapes.hpp"

#include <QObject>
#include <QString>
#include <QtTest>

#include <string>
#include <vector>

// Pixel sets drawn as text: rows separated by spaces (row 0 first), '#' = in the set.
clscope::mask::PixelSet pixelsFromPicture(const std::string& picture);
std::string pictureOf(const clscope::mask::PixelSet& pixels, std::size_t height, std::size_t width);
// A fixture under tests/data (CLSCOPE_TEST_DATA).
std::string testDataFile(const char* name);

class TstMask : public QObject {
    Q_OBJECT

  private slots:
    // geometry and partitions (tst_mask_geometry.cpp)
    void qMatchesHandFormula_data();
    void qMatchesHandFormula();
    void phiQuadrants();
    void energyWavelength();
    void rotationsFollowPyfai();
    void poniRoundTrip();
    void poniFromPyfai();
    void poniErrors_data();
    void poniErrors();
    void seedRingsMatchSynthetic();
    void linearQBins();
    void logarithmicBins();
    void sectors();
    void radiusBinCenters();
    void pixelMaskRemovesLabels();
    void labelStatsCounts();
    void badPartitionSpecs();

    // shapes and edits (tst_mask_shapes.cpp)
    void rasterizedShapes_data();
    void rasterizedShapes();
    void rasterizeAgreesWithContains();
    void thresholds();
    void complementAndAll();
    void undoRedoRestoresExactMask();
    void strokeIsOneUndoStep();
    void toggleStrokeFlipsEachPixelOnce();
    void diffsHoldOnlyChanges();
    void mergeDiffs();
    void invertClearReplace();
    void shapeEditList();

    // files (tst_mask_io.cpp)
    void npyRoundTrip_data();
    void npyRoundTrip();
    void npyFromNumpy();
    void npyReadByNumpy();
    void badNpyHeaders_data();
    void badNpyHeaders();
    void hdf5LabelMapRoundTrip();
    void pixelMaskRoundTrips();
    void geometryInHdf5();
    void unsupportedFormats();
    void outputsAreAtomic();
};
