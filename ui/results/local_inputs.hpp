// Inputs only this machine has: HDF5 locations "FILE:PATH" in the application's local data
// folder (labels drawn in the mask editor are saved there for the run to read,
// ui/mask/labels_file.hpp) that a result's command line names. An HDF5 export carries them: the
// group holding PATH is copied into the export at the same path and the export's command line
// names the export instead, so that the line runs wherever the export is copied (issue 52).
// Exports that cannot hold them (CSV, images) and the copied command line carry them in an
// HDF5 file of their own (inputsBeside) that their line names.
#pragma once
#include <QString>
#include <functional>
#include <vector>

namespace clscope {
class H5Writer;
}

namespace clscope::ui {

// The folder (created when missing) whose files no other machine has.
QString localDataFolder();

struct CarriedInputs {
    QString commandLine;                                 // each local FILE renamed to the export
    std::vector<std::function<void(H5Writer&)>> writers; // one copy per carried group
};

// The command line of an export to `exportPath` and the copies it needs. A line that names no
// local location (or starts with "#": no line reproduces the result) comes back as it is.
CarriedInputs carryLocalInputs(const QString& commandLine, const QString& exportPath);

// Whether the command line names a location of the local data folder.
bool namesLocalInputs(const QString& commandLine);

// The file beside an export that cannot hold the inputs: "g2.csv" → "g2.csv.inputs.h5".
QString inputsBeside(const QString& exportPath);

} // namespace clscope::ui
