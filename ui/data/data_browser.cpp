#include "ui/data/data_browser.hpp"
#include "ui/base/qstring.hpp"

#include "core/sparse/rigaku_frames.hpp"
#include "ui/data/dataset_view.hpp"
#include "ui/data/occupancy_plot.hpp"

#include <QEvent>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QSplitter>
#include <QTreeWidget>
#include <QTreeWidgetItemIterator>
#include <QVBoxLayout>
#include <algorithm>

namespace clscope::ui {

namespace {

enum Column { NameColumn, ShapeColumn, TypeColumn, RoleColumn };
constexpr int pathRole = Qt::UserRole + 1;
constexpr int maxDepth = 32; // guards against link cycles

} // namespace

DataBrowser::DataBrowser(DatasetRoles& roles, QWidget* parent) : QWidget(parent), roles_(roles) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    fileLabel_ = new QLabel("No file open (File ▸ Open, Ctrl+O)", this);
    fileLabel_->setWordWrap(true);
    tree_ = new QTreeWidget(this);
    tree_->setHeaderLabels({"Name", "Shape / value", "Type", "Role"});
    // The name as wide as its longest entry up to 40 % of the view, the Shape column takes what
    // is left (elided; its tooltip has it all), so names and Role stay on screen in a narrow
    // dock (a stretched name column shrank to nothing there: the names were invisible).
    tree_->header()->setStretchLastSection(false);
    tree_->header()->setSectionResizeMode(QHeaderView::Interactive);
    tree_->header()->setSectionResizeMode(ShapeColumn, QHeaderView::Stretch);
    tree_->header()->setMinimumSectionSize(40);
    tree_->viewport()->installEventFilter(this);
    tree_->setIndentation(12);
    tree_->setColumnWidth(TypeColumn, 55);
    tree_->setColumnWidth(RoleColumn, 60);
    tree_->setContextMenuPolicy(Qt::CustomContextMenu);
    tree_->setToolTip("Double-click a dataset to use it; right-click to choose its role");
    occupancy_ = new OccupancyPlot(this);
    auto* split = new QSplitter(Qt::Vertical, this); // the tree above, the occupancy below
    split->addWidget(tree_);
    split->addWidget(occupancy_);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setChildrenCollapsible(false);
    layout->addWidget(fileLabel_);
    layout->addWidget(split, 1);
    connect(tree_, &QTreeWidget::itemDoubleClicked, this, [this](QTreeWidgetItem* item) {
        const QString path = item->data(NameColumn, pathRole).toString();
        if (!path.isEmpty()) activatePath(path);
    });
    connect(tree_, &QTreeWidget::customContextMenuRequested, this, &DataBrowser::showContextMenu);
}

void DataBrowser::showOccupancy(const FrameSource* frames) {
    occupancy_->setSource(frames);
}

void DataBrowser::refresh() {
    tree_->clear();
    if (!roles_.isOpen()) {
        fileLabel_->setText("No file open (File ▸ Open, Ctrl+O)");
        return;
    }
    fileLabel_->setText(q(roles_.fileName()));
    if (RigakuFrames::named(roles_.fileName())) // no HDF5 objects: say what the file holds
        fileLabel_->setText(q(roles_.fileName()) +
                            QString("\nRigaku 500k event file: frames only (%1×%2); labels and "
                                    "pixel mask from the mask editor")
                                .arg(RigakuFrames::height)
                                .arg(RigakuFrames::width));
    auto* root = new QTreeWidgetItem(tree_, {"/"});
    root->setData(NameColumn, pathRole, "/");
    addChildren(root, "/", 0);
    tree_->expandAll();
    updateRoleColumn();
}

void DataBrowser::measureNames() {
    nameWidth_ = 0; // the widest name with its indentation and branch decoration
    for (QTreeWidgetItemIterator it(tree_); *it; ++it) {
        int depth = 0;
        for (QTreeWidgetItem* p = (*it)->parent(); p; p = p->parent())
            ++depth;
        const QFontMetrics metrics((*it)->font(NameColumn));
        nameWidth_ =
            std::max(nameWidth_, (depth + 1) * tree_->indentation() +
                                     metrics.horizontalAdvance((*it)->text(NameColumn)) + 12);
    }
    fitNameColumn();
}

void DataBrowser::fitNameColumn() {
    tree_->setColumnWidth(
        NameColumn,
        std::clamp(nameWidth_, 40, std::max(40, tree_->viewport()->width() * 40 / 100)));
}

bool DataBrowser::eventFilter(QObject* watched, QEvent* event) {
    if (watched == tree_->viewport() && event->type() == QEvent::Resize) fitNameColumn();
    return QWidget::eventFilter(watched, event);
}

void DataBrowser::addChildren(QTreeWidgetItem* parent, const std::string& group, int depth) {
    if (depth > maxDepth) return;
    for (const H5Node& node : roles_.file()->children(group)) {
        auto* item = new QTreeWidgetItem(parent, {q(node.name)});
        item->setData(NameColumn, pathRole, q(node.path));
        item->setToolTip(NameColumn, q(node.path + (node.note.empty() ? "" : "\n" + node.note)));
        if (node.kind == H5Node::Dataset) {
            const QString value = valuePreview(*roles_.file(), node.path);
            item->setText(ShapeColumn, value.isEmpty() ? q(shapeString(node.info.shape)) : value);
            item->setToolTip(ShapeColumn, q(shapeString(node.info.shape)) + " " + value);
            item->setText(TypeColumn, q(node.info.typeName));
        } else if (node.kind == H5Node::Broken || node.kind == H5Node::Other) {
            item->setText(ShapeColumn, q(node.note));
            item->setForeground(NameColumn, QColor(150, 150, 150));
        }
        for (const auto& [name, value] : node.attributes) {
            auto* attribute = new QTreeWidgetItem(item, {"@" + q(name), q(value), "attr"});
            attribute->setForeground(NameColumn, QColor(110, 110, 160));
            attribute->setToolTip(ShapeColumn, q(value));
        }
        if (node.kind == H5Node::Group) addChildren(item, node.path, depth + 1);
    }
}

QTreeWidgetItem* DataBrowser::itemForPath(const QString& path) const {
    for (QTreeWidgetItemIterator it(tree_); *it; ++it)
        if ((*it)->data(NameColumn, pathRole).toString() == path) return *it;
    return nullptr;
}

void DataBrowser::updateRoleColumn() {
    for (QTreeWidgetItemIterator it(tree_); *it; ++it) {
        const QString path = (*it)->data(NameColumn, pathRole).toString();
        QStringList names;
        for (const auto& [role, assigned] : roles_.assignments())
            if (q(assigned) == path) names << q(roleShortName(role));
        (*it)->setText(RoleColumn, names.join(", "));
        QFont font = (*it)->font(NameColumn);
        font.setBold(!names.isEmpty());
        (*it)->setFont(NameColumn, font);
    }
    measureNames(); // bold names are wider
}

bool DataBrowser::assignRole(DataRole role, const QString& path) {
    const Support s = roles_.assign(role, path.toStdString());
    if (!s.ok) {
        emit message(QString("Cannot use %1 as %2: %3").arg(path, q(roleName(role)), q(s.reason)));
        return false;
    }
    updateRoleColumn();
    emit roleAssigned(role, path);
    return true;
}

bool DataBrowser::activatePath(const QString& path) {
    const auto role = roles_.guessRole(path.toStdString());
    if (!role) {
        QStringList names;
        for (const DataRole& each : allDataRoles())
            names << q(roleName(each));
        emit message(QString("%1 fits no role (%2)").arg(path, names.join(", ")));
        return false;
    }
    return assignRole(*role, path);
}

DatasetView* DataBrowser::viewDataset(const QString& path) {
    auto* view = new DatasetView(roles_.file(), path.toStdString(), this);
    view->setAttribute(Qt::WA_DeleteOnClose);
    return view;
}

// View data, then one entry per role; those the item cannot play are greyed out with the reason.
void DataBrowser::showContextMenu(const QPoint& pos) {
    QTreeWidgetItem* item = tree_->itemAt(pos);
    if (!item) return;
    const QString path = item->data(NameColumn, pathRole).toString();
    if (path.isEmpty()) return;
    QMenu menu(this);
    menu.setToolTipsVisible(true);
    QAction* view = menu.addAction("View data (table and plot)…");
    view->setEnabled(roles_.file()->hasDataset(path.toStdString()));
    connect(view, &QAction::triggered, this, [this, path] { viewDataset(path)->show(); });
    menu.addSeparator();
    for (DataRole role : allDataRoles()) {
        QAction* action = menu.addAction("Use as " + q(roleName(role)));
        const Support s = roles_.check(role, path.toStdString());
        action->setEnabled(s.ok);
        if (!s.ok) action->setToolTip(q(s.reason));
        connect(action, &QAction::triggered, this, [this, role, path] { assignRole(role, path); });
    }
    menu.exec(tree_->viewport()->mapToGlobal(pos));
}

} // namespace clscope::ui
