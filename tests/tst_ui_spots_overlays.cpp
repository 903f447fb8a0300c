// Spots overlays on the image view (offscreen window): issue 23 defect 3, the signal pixels and
// spot boxes drawn only while the Spots panel is in front (or pinned), a new file without the
// previous file's; View ▸ Resolution rings: rings at the radii the geometry gives (anisotropic
// pixels included), labelled in Å, drawn only with a known geometry, while the toggle is on
// and the Spots panel is in front; a new file drops the previous one's geometry and frame range.
#include "core/hdf5.hpp"
#include "core/mask/mask_io.hpp"
#include "tst_ui_spots.hpp"
#include "ui/app/main_window.hpp"
#include "ui/image/image_view.hpp"
#include "ui/image/resolution_rings.hpp"
#include "ui/jobs/live_rerun.hpp"
#include "ui/kit/workbench.hpp"
#include "ui/params/param_form.hpp"
#include "ui/spots/spots_markers.hpp"
#include "ui/spots/spots_panel.hpp"
#include "ui_test_helpers.hpp"

#include <QAction>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QSignalSpy>
#include <QtTest>
#include <cmath>
#include <qcustomplot.h>

using namespace clscope;
using namespace clscope::ui;
using namespace clscope::test;

namespace {

QDoubleSpinBox* sigmaStrong(SpotsPanel* panel) {
    return qobject_cast<QDoubleSpinBox*>(panel->form()->field("sigma_strong"));
}

// Beam off centre, pixels taller than wide, 1 Å: rings from 50 Å to 4 Å on 300×280.
mask::Geometry ringGeometry() {
    mask::Geometry g;
    g.beamCenterX = 140.5, g.beamCenterY = 150.25;
    g.distance = 0.05, g.pixelSizeX = 75e-6, g.pixelSizeY = 100e-6, g.wavelength = 1e-10;
    return g;
}

} // namespace

class TestUiSpotsOverlays : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString file_, withGeometry_;
    synthetic::DiffractionDataset data_ = smallDiffraction();
    std::unique_ptr<MainWindow> window_;

    SpotsPanel* panel() const { return window_->findChild<SpotsPanel*>(); }
    QString writeFile(const QString& name, bool geometry) {
        const QString path = dir_.filePath(name);
        H5Writer out(path.toStdString());
        synthetic::writeDiffraction(out, data_, Compression::None);
        if (geometry) mask::writeGeometry(out, ringGeometry());
        out.commit();
        return path;
    }

  private slots:
    void initTestCase() {
        test::useTemporarySettings(dir_);
        file_ = writeFile("small-diffraction.h5", false);
        withGeometry_ = writeFile("with-geometry.h5", true);
        window_ = std::make_unique<MainWindow>();
        window_->show();
        QVERIFY(window_->openFile(file_));
        window_->dock("AlgorithmPanel_spots")->raise();
        QSignalSpy live(panel(), &SpotsPanel::liveUpdated);
        QTRY_VERIFY_WITH_TIMEOUT(live.count() >= 1 && !panel()->live()->isPending(), 30000);
    }

    // Issue 23 defect 3: a panel behind another one neither draws nor thresholds, pinned it
    // does; a file opened starts without the previous file's boxes and live figures.
    void overlaysFollowThePanelInFront() {
        SpotsPanel* sp = panel();
        QVERIFY(sp);
        ImageView& image = window_->workbench().image();
        QVERIFY(image.overlay("signal pixels") && image.overlay("signal pixels")->isVisible());
        QVERIFY(sp->markers()->centroids()->visible());
        window_->dock("MaskPanel")->raise();
        QTRY_VERIFY(!image.overlay("signal pixels")->isVisible());
        QVERIFY(!sp->markers()->centroids()->visible());
        sigmaStrong(sp)->setValue(2.5);
        QVERIFY(!sp->live()->isPending());
        // Pinned: drawn and thresholded behind the Mask dock.
        QSignalSpy live(sp, &SpotsPanel::liveUpdated);
        auto* pin = window_->findChild<QAction*>("PinOverlay_spots");
        QVERIFY(pin);
        pin->setChecked(true);
        QVERIFY(image.overlay("signal pixels")->isVisible());
        QTRY_VERIFY_WITH_TIMEOUT(live.count() >= 1 && !sp->live()->isPending(), 30000);
        pin->setChecked(false);
        window_->dock("AlgorithmPanel_spots")->raise();
        QVERIFY(window_->openFile(file_));
        QVERIFY(!image.overlay("signal pixels"));
        QCOMPARE(sp->markers()->boxCount(), std::size_t(0));
        QTRY_VERIFY_WITH_TIMEOUT(!sp->live()->isPending() && !window_->workbench().jobs().isBusy(),
                                 30000);
    }

    // No geometry in the file: the toggle draws nothing.
    void noRingsWithoutGeometry() {
        auto* toggle = window_->findChild<QAction*>("ResolutionRings");
        QVERIFY(toggle);
        toggle->setChecked(true);
        QVERIFY(!window_->workbench().geometry());
        QVERIFY(panel()->rings()->curves().empty());
        QVERIFY(!panel()->rings()->isVisible());
    }

    // Every point of each ring lies at the detector radius distance·tan 2θ, 2θ from Bragg's law
    // λ = 2d sin θ, in metres on the detector (pixels scaled by their size on each axis).
    void ringsMatchTheGeometry() {
        QVERIFY(window_->openFile(withGeometry_));
        ResolutionRings* rings = panel()->rings();
        QTRY_VERIFY(!rings->curves().empty());
        QVERIFY(rings->isVisible());
        // 50 to 4 Å fall on the image (3.5 Å at the bottom edge): five spread over them.
        QCOMPARE(rings->spacings(), (std::vector<double>{50, 20, 7, 5, 4}));
        QCOMPARE(rings->curves().size(), rings->spacings().size());
        const mask::Geometry g = ringGeometry();
        for (std::size_t i = 0; i < rings->curves().size(); ++i) {
            const double d = rings->spacings()[i];
            const double radius =
                g.distance * std::tan(2 * std::asin(g.wavelength * 1e10 / (2 * d)));
            const auto* points = rings->curves()[i]->data().data();
            QVERIFY(points->size() > 100);
            for (auto p = points->constBegin(); p != points->constEnd(); ++p) {
                const double r = std::hypot((p->key - g.beamCenterX) * g.pixelSizeX,
                                            (p->value - g.beamCenterY) * g.pixelSizeY);
                QVERIFY2(std::abs(r - radius) < 1e-6 * radius,
                         qPrintable(QString("d %1: r %2, expected %3").arg(d).arg(r).arg(radius)));
            }
            QCOMPARE(rings->labels()[i]->text(), QString("%1 Å").arg(d));
        }
    }

    // Issue 38: file B after file A keeps nothing derived from A: its geometry (rings), the
    // frame range set for A (Run would read B's frames 2.. or fail past its end).
    void newFileDropsThePreviousFilesGeometryAndFrames() {
        QVERIFY(window_->openFile(withGeometry_));
        QTRY_VERIFY(!panel()->rings()->curves().empty());
        panel()->setFrameRange({1, 1});
        QVERIFY(window_->openFile(file_));
        QVERIFY(!window_->workbench().geometry());
        QTRY_VERIFY(panel()->rings()->curves().empty());
        QVERIFY(panel()->frameRange().all());
        QVERIFY(window_->openFile(withGeometry_)); // as the tests after this one expect
        QTRY_VERIFY_WITH_TIMEOUT(!window_->workbench().jobs().isBusy(), 30000);
    }

    // Behind another panel, or toggled off, the rings go.
    void ringsFollowThePanelAndTheToggle() {
        ResolutionRings* rings = panel()->rings();
        window_->dock("MaskPanel")->raise();
        QTRY_VERIFY(rings->curves().empty());
        window_->dock("AlgorithmPanel_spots")->raise();
        QTRY_VERIFY(!rings->curves().empty());
        window_->findChild<QAction*>("ResolutionRings")->setChecked(false);
        QVERIFY(rings->curves().empty());
        QTRY_VERIFY_WITH_TIMEOUT(
            !panel()->live()->isPending() && !window_->workbench().jobs().isBusy(), 30000);
    }
};

QTEST_MAIN(TestUiSpotsOverlays)
#include "tst_ui_spots_overlays.moc"
