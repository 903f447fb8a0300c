// The Data panel: the open file's HDF5 tree (groups, datasets with shape and dtype,
// attributes; small datasets show their values). Double-click or the context menu assigns a dataset
// to a role; the context menu also opens a table and plot of any dataset. Under the tree, the
// occupancy per frame of frames stored sparsely (OccupancyPlot).
#pragma once
#include "ui/data/dataset_roles.hpp"

#include <QWidget>

class QLabel;
class QTreeWidget;
class QTreeWidgetItem;

namespace clscope::ui {

class DatasetView;
class FrameSource;
class OccupancyPlot;

class DataBrowser : public QWidget {
    Q_OBJECT
  public:
    // roles is shared with the workbench; the browser shows it and edits it.
    explicit DataBrowser(DatasetRoles& roles, QWidget* parent = nullptr);

    // Rebuild the tree from roles' file (after open or close).
    void refresh();
    // Assign path to role; on failure emits message() with the reason.
    bool assignRole(DataRole role, const QString& path);
    // What a double-click does: assign the guessed role.
    bool activatePath(const QString& path);

    QTreeWidget* tree() const { return tree_; }
    // The frames shown in the image view: their occupancy plotted when stored sparsely.
    void showOccupancy(const FrameSource* frames);
    OccupancyPlot* occupancy() const { return occupancy_; }
    QTreeWidgetItem* itemForPath(const QString& path) const;
    // A table and plot of the dataset at path (the context menu's View data), not yet shown.
    DatasetView* viewDataset(const QString& path);

  signals:
    void roleAssigned(clscope::ui::DataRole role, const QString& path);
    void message(const QString& text);

  protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

  private:
    // The widest name (measured when the tree or its roles change, not on every resize), then
    // fitNameColumn.
    void measureNames();
    // The name column as wide as the widest name, at most 40 % of the view.
    void fitNameColumn();
    void addChildren(QTreeWidgetItem* parent, const std::string& group, int depth);
    void showContextMenu(const QPoint& pos);
    void updateRoleColumn();
    DatasetRoles& roles_;
    QTreeWidget* tree_ = nullptr;
    QLabel* fileLabel_ = nullptr;
    OccupancyPlot* occupancy_ = nullptr;
    int nameWidth_ = 40; // measureNames()
};

} // namespace clscope::ui
