// The q-bin labels in force, which xpcs runs on, the Compare dock and live streams read, and
// the image shows as the "q bins" overlay: the mask editor's when it has set some, else the open
// file's (its Labels role). One per workbench, made on first use (QBinLabels::of); the
// workbench itself knows nothing of labels.
#pragma once
#include "core/mask/partition.hpp"
#include "ui/data/dataset_roles.hpp"

#include <QObject>
#include <QString>
#include <memory>
#include <optional>
#include <string>

namespace clscope {
class H5Reader;
}

namespace clscope::ui {

class Workbench;

// The q-bin labels in force: the mask editor's when it has set some, else the file's.
struct CurrentLabels {
    std::shared_ptr<const LabelMask> mask;     // null when there are none
    std::optional<mask::LabelCenters> centres; // q (and phi) of each label when known
    QString origin;                            // "mask editor" or "FILE:/path"
};

// "q bin L: q̄ 0.01234 Å⁻¹, φ̄ 45.0°" (just "q bin L" when centres are unknown).
QString labelCentreText(std::int32_t label, const mask::LabelCenters* centres);

class QBinLabels : public QObject {
    Q_OBJECT
  public:
    // The workbench's labels (a child of it, made on the first call).
    static QBinLabels& of(Workbench& workbench);
    // The mask editor sets its own labels (a null mask hands back to the file's); algorithms
    // read current() when they start a run.
    void setEdited(CurrentLabels labels);
    CurrentLabels current() const;

  signals:
    void changed();

  private:
    explicit QBinLabels(Workbench& workbench);
    void roleShown(DataRole role);
    void show();
    Workbench& wb_;
    CurrentLabels edited_;
    // The file's labels as last read, keyed by "FILE:/path" (read once per open file and dataset).
    struct FileLabels {
        std::weak_ptr<const H5Reader> file;
        std::string key;
        CurrentLabels labels;
    };
    mutable std::optional<FileLabels> fileLabels_;
};

} // namespace clscope::ui
