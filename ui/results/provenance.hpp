// What every export says about where its numbers came from: clscope version, export time, the
// run behind the result (when computed, device, variant, input file, parameters JSON) and the
// clscope-cli command line that reproduces it. Written as HDF5 root attributes, a '#' header of
// CSV files, PNG text chunks and PDF document metadata.
#pragma once
#include <QDateTime>
#include <QString>
#include <string>
#include <utility>
#include <vector>

class QImage;

namespace clscope {
class H5Writer;
struct RunInfo;
} // namespace clscope

namespace clscope::ui {

// The run behind a result tab (empty fields: unknown).
struct RunProvenance {
    QString device, variant, input, parametersJson;
    QDateTime computed; // when its result was delivered (ResultsPanel::addTab sets it)
};

// From a run's RunInfo: its device (spec and name), variant, input file and parameters JSON.
RunProvenance runProvenance(const RunInfo& info);

// Ordered (key, value) pairs, keys in snake_case: "clscope_version", "exported", ...
using ProvenanceFields = std::vector<std::pair<QString, QString>>;

// clscope_version and exported (now, ISO 8601 UTC), then what is known of the run and of the
// result: result (its name), computed, device, variant, input, parameters, command_line.
ProvenanceFields provenanceFields(const QString& result, const RunProvenance& run,
                                  const QString& commandLine);

// "# key: value" lines (newlines in values continued on "#   " lines).
std::string csvProvenanceHeader(const ProvenanceFields& fields);
// One string attribute per field on the root group.
void writeProvenanceAttributes(H5Writer& out, const ProvenanceFields& fields);
// One PNG text chunk (QImage::setText) per field.
void setImageProvenance(QImage& image, const ProvenanceFields& fields);
// The fields as "key: value" lines (PDF subject / XMP description).
QString provenanceText(const ProvenanceFields& fields);

} // namespace clscope::ui
