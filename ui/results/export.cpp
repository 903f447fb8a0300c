#include "ui/results/export.hpp"

#include "core/errors.hpp"
#include "core/hdf5.hpp"

#include <QFile>
#include <QFileInfo>
#include <qcustomplot.h>

namespace clscope::ui {

void exportPlot(QCustomPlot& plot, const QString& path, int width, int height) {
    const QString suffix = QFileInfo(path).suffix().toLower();
    bool ok = false;
    if (suffix == "png")
        ok = plot.savePng(path, width, height);
    else if (suffix == "pdf")
        ok = plot.savePdf(path, width, height);
    else if (suffix == "jpg" || suffix == "jpeg")
        ok = plot.saveJpg(path, width, height, 1.0, 95);
    else
        throw UsageError("cannot export a plot as '" + suffix.toStdString() +
                         "': use .png, .pdf or .jpg");
    if (!ok) throw InputError(path.toStdString() + ": could not write the plot");
}

void writeTextFile(const QString& path, const std::string& text) {
    // Write beside the target, then rename: never a half-written file.
    const QString temp = path + ".part";
    QFile file(temp);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
        throw InputError(path.toStdString() +
                         ": cannot write: " + file.errorString().toStdString());
    file.write(text.data(), static_cast<qint64>(text.size()));
    file.close();
    QFile::remove(path);
    if (!QFile::rename(temp, path))
        throw InputError(path.toStdString() + ": cannot rename the written file");
}

void exportHdf5(const QString& path, const std::vector<std::function<void(H5Writer&)>>& writers,
                const std::string& commandLine) {
    if (writers.empty()) throw UsageError("there are no results to export");
    H5Writer out(path.toStdString());
    for (const auto& write : writers)
        write(out);
    if (!commandLine.empty()) out.setAttribute("/", "command_line", commandLine);
    out.commit();
}

} // namespace clscope::ui
