// Exports: a plot as PNG, PDF or JPG at a chosen size; text (CSV) files; result tabs as one
// HDF5 file in the layouts of DESIGN.md §3 (written to a temporary name, then renamed).
#pragma once
#include <QString>
#include <functional>
#include <string>
#include <vector>

class QCustomPlot;

namespace clscope {
class H5Writer;
}

namespace clscope::ui {

// The format follows the suffix (.png, .pdf, .jpg/.jpeg). Throws std::runtime_error on failure.
void exportPlot(QCustomPlot& plot, const QString& path, int width, int height);
void writeTextFile(const QString& path, const std::string& text);
// Call every writer on one new HDF5 file, then commit it.
// commandLine: the clscope-cli command line(s) that reproduce them, the root's "command_line"
// attribute (none when empty).
void exportHdf5(const QString& path, const std::vector<std::function<void(H5Writer&)>>& writers,
                const std::string& commandLine = {});

} // namespace clscope::ui
