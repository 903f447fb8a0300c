// Exports: a plot as PNG, PDF or JPG at a chosen size; text (CSV) files; result tabs as one
// HDF5 file in the layouts of DESIGN.md §3 (written to a temporary name, then renamed). Each
// carries its provenance (ui/results/provenance.hpp) where the format has room for it.
#pragma once
#include "ui/results/provenance.hpp"

#include <QString>
#include <functional>
#include <string>
#include <vector>

class QCustomPlot;

namespace clscope {
class H5Writer;
}

namespace clscope::ui {

// The format follows the suffix (.png, .pdf, .jpg/.jpeg); width × height in pixels. PNG and
// JPG: an image of that size with the provenance as text chunks. PDF: a page of that size at
// the plot's screen resolution (text reads at 100 % as on screen), the provenance as document
// metadata, title `title`. Throws on failure.
void exportPlot(QCustomPlot& plot, const QString& path, int width, int height,
                const ProvenanceFields& provenance = {}, const QString& title = {});
void writeTextFile(const QString& path, const std::string& text);
// Call every writer on one new HDF5 file, then commit it. The provenance fields become root
// attributes (its "command_line": the clscope-cli command line that reproduces the result).
void exportHdf5(const QString& path, const std::vector<std::function<void(H5Writer&)>>& writers,
                const ProvenanceFields& provenance = {});

} // namespace clscope::ui
