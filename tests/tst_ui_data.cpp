// Data panel: opening a file fills the tree; roles are assigned by default, by double-click
// and by choice, and refused with a reason where the dataset does not fit.
#include "core/errors.hpp"
#include "core/io.hpp"
#include "gpu/algorithm.hpp"
#include "ui/app/generate_dialog.hpp"
#include "ui/data/data_browser.hpp"
#include "ui/data/dataset_view.hpp"
#include "ui/data/generate_request.hpp"
#include "ui/params/param_form.hpp"
#include "ui_test_helpers.hpp"

#include <QComboBox>
#include <QHeaderView>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableWidget>
#include <QTreeWidget>
#include <QtTest>
#include <qcustomplot.h>

using namespace clscope;
using namespace clscope::ui;

class TestUiData : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::string xpcsFile_;

  private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        test::useTemporarySettings(dir_);
        xpcsFile_ = test::writeSmallXpcs(dir_);
    }

    void openingFillsTheTree() {
        DatasetRoles roles;
        DataBrowser browser(roles);
        roles.open(xpcsFile_);
        browser.refresh();
        QTreeWidgetItem* data = browser.itemForPath("/entry/data/data");
        QVERIFY(data);
        QCOMPARE(data->text(1), QString("(8, 20, 24)"));
        QCOMPARE(data->text(2), QString("uint8"));
        QCOMPARE(data->text(3), QString("frames"));
        QTreeWidgetItem* qmask = browser.itemForPath("/entry/processing/qmask");
        QVERIFY(qmask);
        QCOMPARE(qmask->text(2), QString("int32"));
        QCOMPARE(qmask->text(3), QString("labels"));
        QVERIFY(browser.itemForPath("/entry"));
        QCOMPARE(browser.itemForPath("/entry")->child(0)->text(0), QString("data"));
    }

    void defaultRolesAndChecks() {
        DatasetRoles roles; // presenter alone, no widgets
        roles.open(xpcsFile_);
        QCOMPARE(roles.path(DataRole::Frames).value(), std::string("/entry/data/data"));
        QCOMPARE(roles.path(DataRole::Labels).value(), std::string("/entry/processing/qmask"));
        QVERIFY(!roles.path(DataRole::PixelMask));
        const Support framesAsLabels = roles.check(DataRole::Labels, "/entry/data/data");
        QVERIFY(!framesAsLabels.ok);
        QVERIFY(QString::fromStdString(framesAsLabels.reason).contains("2-d integer"));
        QVERIFY(!roles.check(DataRole{"digis"}, "/entry/data/data").ok);
        QVERIFY(!roles.check(DataRole::Frames, "/nope").ok);
        QVERIFY(roles.assign(DataRole::PixelMask, "/entry/processing/qmask").ok);
        QCOMPARE(roles.guessRole("/entry/processing/qmask"),
                 std::optional<DataRole>(DataRole::Labels));
        QCOMPARE(roles.guessRole("/entry/data/data"), std::optional<DataRole>(DataRole::Frames));
        QCOMPARE(roles.guessRole("/entry"), std::optional<DataRole>());
    }

    void doubleClickAndMenuAssign() {
        DatasetRoles roles;
        DataBrowser browser(roles);
        roles.open(xpcsFile_);
        roles.unassign(DataRole::Labels);
        browser.refresh();
        QSignalSpy assigned(&browser, &DataBrowser::roleAssigned);
        QSignalSpy messages(&browser, &DataBrowser::message);
        QTreeWidgetItem* qmask = browser.itemForPath("/entry/processing/qmask");
        emit browser.tree()->itemDoubleClicked(qmask, 0);
        QCOMPARE(assigned.count(), 1);
        QCOMPARE(assigned.at(0).at(0).value<DataRole>(), DataRole::Labels);
        QCOMPARE(qmask->text(3), QString("labels"));
        QVERIFY(browser.assignRole(DataRole::PixelMask, "/entry/processing/qmask"));
        QCOMPARE(qmask->text(3), QString("labels, pixel_mask"));
        QVERIFY(!browser.assignRole(DataRole{"particles"}, "/entry/data/data"));
        QCOMPARE(messages.count(), 1);
        QVERIFY(messages.at(0).at(0).toString().contains("particles"));
    }

    void groupsForDigisAndParticles() {
        for (const char* algorithm : {"cluster", "rbf"}) {
            GenerateRequest request = demoRequest(algorithm);
            request.options.set(std::string(algorithm) == "cluster" ? "modules" : "grid_points",
                                std::string(algorithm) == "cluster" ? 4 : 3);
            const std::string path = dir_.filePath(QString(algorithm) + ".h5").toStdString();
            writeGenerated(request, path);
            DatasetRoles roles;
            roles.open(path);
            const DataRole role =
                std::string(algorithm) == "cluster" ? DataRole{"digis"} : DataRole{"particles"};
            QCOMPARE(roles.path(role).value(),
                     std::string(role == DataRole{"digis"} ? "/digis" : "/particles"));
            QCOMPARE(roles.guessRole(*roles.path(role)), std::optional<DataRole>(role));
            QVERIFY(!roles.path(DataRole::Frames));
        }
    }

    // One kind per registered synthetic kind, each form from its declared specs at their
    // defaults; what it writes is what the kind's own write function (clscope-cli generate)
    // writes.
    void generateDialogMirrorsTheCli() {
        QSettings().clear();
        GenerateDialog dialog;
        const auto kinds = AlgorithmRegistry::instance().syntheticKinds();
        auto* kindBox = dialog.findChild<QComboBox*>();
        QVERIFY(kindBox);
        QCOMPARE(kindBox->count(), static_cast<int>(kinds.size()));
        for (const auto& [algorithm, kind] : kinds) {
            QVERIFY(dialog.setKind(QString::fromStdString(kind.name)));
            QVERIFY(dialog.outputPath().endsWith(
                QString::fromStdString("clscope-" + kind.name + ".h5")));
            const GenerateRequest r = dialog.request();
            QCOMPARE(r.kind, kind.name);
            QCOMPARE(r.options.values(), ParamSet(kind.specs).values());
            for (const ParamSpec& spec : kind.specs)
                QVERIFY2(dialog.options().field(spec.name), spec.name.c_str());
        }
        QVERIFY(!dialog.setKind("no-such-kind"));
        QVERIFY(dialog.setKind("particles"));
        auto* grid = qobject_cast<QSpinBox*>(dialog.options().field("grid_points"));
        QVERIFY(grid);
        grid->setValue(2);
        GenerateRequest r = dialog.request();
        QCOMPARE(r.options.integer("grid_points"), 2LL);
        QCOMPARE(r.compression, Compression::Gzip);
        const std::string path = dir_.filePath("dialog.h5").toStdString();
        QVERIFY(QString::fromStdString(writeGenerated(r, path)).contains("12 targets"));
        QSettings().clear();
    }

    // Issue 23 defect 7: a scalar showed "()", not its value.
    void smallDatasetsShowTheirValues() {
        const std::string path = dir_.filePath("values.h5").toStdString();
        {
            H5Writer out(path);
            out.writeScalar("/entry/distance", 3.5);
            Array v(DType::Float64, {3});
            const double values[] = {1.0, 2.0, 4.0};
            std::copy(std::begin(values), std::end(values), v.as<double>().begin());
            out.write("/entry/v", v);
            Array image(DType::UInt16, {4, 5});
            for (std::size_t i = 0; i < image.size(); ++i)
                image.as<std::uint16_t>()[i] = std::uint16_t(i);
            out.write("/entry/image", image);
            out.commit();
        }
        DatasetRoles roles;
        DataBrowser browser(roles);
        roles.open(path);
        browser.refresh();
        QCOMPARE(browser.itemForPath("/entry/distance")->text(1), QString("3.5"));
        QCOMPARE(browser.itemForPath("/entry/v")->text(1), QString("[1, 2, 4]"));
        QCOMPARE(browser.itemForPath("/entry/image")->text(1), QString("(4, 5)"));
        // The menu's View data: a table and a plot of any dataset.
        std::unique_ptr<DatasetView> line(browser.viewDataset("/entry/v"));
        QCOMPARE(line->table()->rowCount(), 3);
        QCOMPARE(line->table()->item(2, 0)->text(), QString("4"));
        QCOMPARE(line->plot()->graphCount(), 1);
        QCOMPARE(line->plot()->graph(0)->dataCount(), 3);
        std::unique_ptr<DatasetView> plane(browser.viewDataset("/entry/image"));
        QCOMPARE(plane->table()->rowCount(), 4);
        QCOMPARE(plane->table()->columnCount(), 5);
        QCOMPARE(plane->table()->item(3, 4)->text(), QString("19"));
        QVERIFY(qobject_cast<QCPColorMap*>(plane->plot()->plottable(0)));
    }

    // Issue 23 defect 4: in a narrow dock the Role column was pushed off screen.
    void roleColumnStaysInTheViewport() {
        DatasetRoles roles;
        DataBrowser browser(roles);
        browser.resize(300, 400);
        browser.show();
        roles.open(xpcsFile_);
        browser.refresh();
        QVERIFY(QTest::qWaitForWindowExposed(&browser));
        QHeaderView* header = browser.tree()->header();
        const int role = 3;
        const int right = header->sectionViewportPosition(role) + header->sectionSize(role);
        QVERIFY2(right <= browser.tree()->viewport()->width(), qPrintable(QString::number(right)));
        const int text = browser.tree()->fontMetrics().horizontalAdvance("frames");
        QVERIFY2(header->sectionSize(role) >= text,
                 qPrintable(QString::number(header->sectionSize(role))));
        QVERIFY(header->sectionViewportPosition(role) >= 0);
    }

    void badFileIsAnInputError() {
        DatasetRoles roles;
        QVERIFY_THROWS_EXCEPTION(InputError, roles.open(dir_.filePath("missing.h5").toStdString()));
        QVERIFY(!roles.isOpen());
    }
};

QTEST_MAIN(TestUiData)
#include "tst_ui_data.moc"
