// ResultsPanel's exports: the tab shown (HDF5, CSV, PNG/PDF/JPG) and every fresh tab into a
// folder, each with its provenance.
#include "core/errors.hpp"
#include "ui/results/export.hpp"
#include "ui/results/local_inputs.hpp"
#include "ui/results/results_panel.hpp"

#include <QDir>
#include <QFileInfo>
#include <QSet>
#include <algorithm>
#include <qcustomplot.h>

namespace clscope::ui {

namespace {

void refuseStale(const ResultTab& tab) {
    if (tab.stale)
        throw UsageError("the result '" + tab.title.toStdString() +
                         "' is stale: its input or parameters changed since it was computed; run "
                         "again before exporting");
}

// "xpcs-g2(τ)" → "xpcs-g2_τ_": letters, digits, '-', '_' and '.' kept.
QString fileStem(const ResultTab& tab) {
    QString stem = tab.algorithm + "-" + tab.title;
    for (QChar& c : stem)
        if (!c.isLetterOrNumber() && c != '-' && c != '_' && c != '.') c = '_';
    return stem;
}

// What a tab of all fresh ones is written as: its result, else its table, else its plot.
QString formatOf(const ResultTab& tab) {
    return tab.writeHdf5 ? "h5" : tab.csv ? "csv" : tab.plot ? "png" : QString();
}

// The tab's table or curves under its provenance header.
void writeCsv(const ResultTab& tab, const ProvenanceFields& fields, const QString& path) {
    if (!tab.csv) throw UsageError("the result shown has no table or curve to export as CSV");
    writeTextFile(path, csvProvenanceHeader(fields) + tab.csv());
}

// The tab's plot at its size on screen.
void writePlot(const ResultTab& tab, const ProvenanceFields& fields, const QString& path) {
    if (!tab.plot) throw UsageError("the result '" + tab.title.toStdString() + "' has no plot");
    const QSize size = tab.plot->size().expandedTo(QSize(320, 240));
    exportPlot(*tab.plot, path, size.width(), size.height(), fields,
               "clscope " + tab.algorithm + ": " + tab.title);
}

ProvenanceFields fieldsNaming(const ResultTab& tab, const QString& commandLine) {
    return provenanceFields(tab.algorithm + ": " + tab.title, tab.provenance, commandLine);
}

// The provenance of a CSV or image export at path: the inputs only this machine has written to
// a file beside it (inputsBeside), which its command line names.
ProvenanceFields carriedBeside(const ResultTab& tab, const QString& path) {
    const QString beside = inputsBeside(path);
    const CarriedInputs carried = carryLocalInputs(tab.commandLine, beside);
    const ProvenanceFields fields = fieldsNaming(tab, carried.commandLine);
    if (!carried.writers.empty()) ui::exportHdf5(beside, carried.writers, fields);
    return fields;
}

bool isImage(const QString& path) {
    const QString suffix = QFileInfo(path).suffix().toLower();
    return suffix == "png" || suffix == "pdf" || suffix == "jpg" || suffix == "jpeg";
}

} // namespace

ProvenanceFields ResultsPanel::provenance(const ResultTab& tab) const {
    return fieldsNaming(tab, tab.commandLine);
}

QString ResultsPanel::commandLineCarrying(int index, const QString& inputsPath) const {
    const ResultTab* tab = tabAt(index);
    if (!tab) return {};
    const CarriedInputs carried = carryLocalInputs(tab->commandLine, inputsPath);
    if (!carried.writers.empty())
        ui::exportHdf5(inputsPath, carried.writers, fieldsNaming(*tab, carried.commandLine));
    return carried.commandLine;
}

const ResultTab& ResultsPanel::shownFresh() const {
    const ResultTab* tab = currentTab();
    if (!tab) throw UsageError("there are no results to export: run an algorithm first");
    refuseStale(*tab);
    return *tab;
}

const ResultTab& ResultsPanel::writerOf(const ResultTab& tab) const {
    const ResultTab* writer = &tab;
    for (const ResultTab& other : tabs())
        if (!writer->writeHdf5 && other.algorithm == tab.algorithm && other.writeHdf5)
            writer = &other;
    if (!writer->writeHdf5)
        throw UsageError("the result '" + tab.title.toStdString() + "' has no HDF5 export");
    refuseStale(*writer);
    return *writer;
}

// The tab's result: its own writer, else that of its algorithm's tab holding the same result;
// with the inputs only this machine has, its command line naming them in the export.
void ResultsPanel::writeResult(const ResultTab& tab, const QString& path) const {
    CarriedInputs carried = carryLocalInputs(tab.commandLine, path);
    carried.writers.insert(carried.writers.begin(), writerOf(tab).writeHdf5);
    ui::exportHdf5(path, carried.writers, fieldsNaming(tab, carried.commandLine));
}

LayoutExport ResultsPanel::layoutsShown() const {
    const ResultTab* tab = currentTab();
    if (!tab) return {};
    try {
        return writerOf(*tab).layouts;
    } catch (const UsageError&) { // no writer, or stale: nothing to offer
        return {};
    }
}

void ResultsPanel::exportShownAs(const QString& path, const std::string& layout) const {
    const ResultTab& tab = shownFresh();
    const LayoutExport& layouts = writerOf(tab).layouts;
    const bool offered = std::any_of(layouts.layouts.begin(), layouts.layouts.end(),
                                     [&](const OutputLayout& l) { return l.name == layout; });
    if (!offered)
        throw UsageError("the result '" + tab.title.toStdString() + "' has no layout " + layout);
    const LayoutOutput out = layouts.output(layout);
    const ProvenanceFields fields = provenanceFields(
        tab.algorithm + ": " + tab.title + " (layout " + QString::fromStdString(layout) + ")",
        tab.provenance, QString::fromStdString(layouts.command(layout)));
    if (out.hdf5) return ui::exportHdf5(path, {out.hdf5}, fields);
    writeTextFile(path, out.bytes);
}

void ResultsPanel::setLayouts(const QString& algorithm, const LayoutExport& layouts) {
    for (ResultTab& tab : tabs_)
        if (tab.algorithm == algorithm && tab.writeHdf5) tab.layouts = layouts;
}

void ResultsPanel::exportHdf5(const QString& path) const {
    writeResult(shownFresh(), path);
}

void ResultsPanel::exportCsv(const QString& path) const {
    const ResultTab& tab = shownFresh();
    writeCsv(tab, carriedBeside(tab, path), path);
}

void ResultsPanel::exportPlot(const QString& path) const {
    const ResultTab& tab = shownFresh();
    writePlot(tab, carriedBeside(tab, path), path);
}

void ResultsPanel::exportShown(const QString& path) const {
    exportTab(shownFresh(), path);
}

void ResultsPanel::exportTab(const ResultTab& tab, const QString& path) const {
    if (path.endsWith(".csv", Qt::CaseInsensitive))
        return writeCsv(tab, carriedBeside(tab, path), path);
    if (isImage(path)) return writePlot(tab, carriedBeside(tab, path), path);
    writeResult(tab, path);
}

ExportSummary ResultsPanel::exportAllFresh(const QString& folder) const {
    if (!QDir().mkpath(folder))
        throw InputError(folder.toStdString() + ": cannot create the folder");
    ExportSummary summary;
    QSet<QString> used;
    for (const ResultTab& tab : tabs()) {
        const QString format = formatOf(tab);
        if (tab.stale || format.isEmpty()) {
            summary.skipped << tab.algorithm + ": " + tab.title;
            continue;
        }
        QString name = fileStem(tab) + "." + format;
        for (int n = 2; used.contains(name); ++n)
            name = fileStem(tab) + "-" + QString::number(n) + "." + format;
        used.insert(name);
        const QString path = QDir(folder).filePath(name);
        exportTab(tab, path);
        summary.written << path;
    }
    return summary;
}

} // namespace clscope::ui
