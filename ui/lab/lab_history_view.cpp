#include "ui/lab/lab_history_view.hpp"

#include "gpu/lab/lab_diff.hpp"

#include <QDialog>
#include <QFileDialog>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <algorithm>

namespace clscope::ui {

namespace {

QString s(const nlohmann::json& e, const char* key) {
    return QString::fromStdString(e.value(key, ""));
}

} // namespace

LabHistoryView::LabHistoryView(QWidget* parent) : QWidget(parent), list_(new QTreeWidget(this)) {
    list_->setObjectName("LabHistory");
    list_->setHeaderLabels({"date", "row", "result", "median ms", "device", "source", "tunables"});
    list_->setRootIsDecorated(false);
    list_->header()->setStretchLastSection(true);
    list_->setSelectionMode(QAbstractItemView::ExtendedSelection);
    auto* diff = new QPushButton("Diff selected", this);
    diff->setToolTip("Select two entries (Ctrl+click): source, options, kernels' figures, "
                     "compiled output and times side by side");
    connect(diff, &QPushButton::clicked, this, &LabHistoryView::showDiff);
    auto* csv = new QPushButton("Export CSV…", this);
    auto* json = new QPushButton("Export JSON…", this);
    connect(csv, &QPushButton::clicked, this, [this] { exportDialog(true); });
    connect(json, &QPushButton::clicked, this, [this] { exportDialog(false); });
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(new QLabel("History (every build, check and timing)", this), 1);
    buttons->addWidget(diff);
    buttons->addWidget(csv);
    buttons->addWidget(json);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(buttons);
    layout->addWidget(list_);
    refill();
}

void LabHistoryView::record(const nlohmann::json& rows, const std::string& from) {
    try {
        history_.record(rows, from);
    } catch (const std::exception& e) {
        QMessageBox::warning(this, "Kernel lab",
                             QString("The history was not written: ") + e.what());
    }
    refill();
}

void LabHistoryView::reload() {
    history_ = LabHistory();
    refill();
}

void LabHistoryView::refill() {
    list_->clear();
    const nlohmann::json& entries = history_.entries();
    for (auto it = entries.rbegin(); it != entries.rend(); ++it) {
        const nlohmann::json& e = *it;
        const bool ran = e.value("ran", false);
        auto* item = new QTreeWidgetItem(QStringList{
            s(e, "date"), s(e, "label"), s(e, "result"),
            ran ? QString::number(e.value("median_ms", 0.0), 'f', 3) : "-",
            s(e, "device").section(" (", 0, 0), s(e, "source_sha256").left(12),
            QString::fromStdString(tunablesText(e.value("tunables", nlohmann::json::object())))});
        item->setToolTip(5, s(e, "source_sha256"));
        item->setData(0, Qt::UserRole, int(entries.rend() - it) - 1); // the entry's index
        list_->addTopLevelItem(item);
    }
    for (int c = 0; c < list_->columnCount() - 1; ++c)
        list_->resizeColumnToContents(c);
}

QString LabHistoryView::diffSelected() const {
    QList<int> picked;
    for (const QTreeWidgetItem* item : list_->selectedItems())
        picked << item->data(0, Qt::UserRole).toInt();
    if (picked.size() != 2) return {};
    std::sort(picked.begin(), picked.end());
    const nlohmann::json& entries = history_.entries();
    return QString::fromStdString(
        labDiff(entries[std::size_t(picked[0])], entries[std::size_t(picked[1])]));
}

void LabHistoryView::showDiff() {
    const QString text = diffSelected();
    if (text.isEmpty()) {
        QMessageBox::information(this, "Kernel lab", "Select two entries of the history to diff.");
        return;
    }
    auto* dialog = new QDialog(this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle("Kernel lab — diff of two history entries");
    auto* view = new QPlainTextEdit(text, dialog);
    view->setObjectName("LabDiff");
    view->setReadOnly(true);
    view->setLineWrapMode(QPlainTextEdit::NoWrap);
    view->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    auto* layout = new QVBoxLayout(dialog);
    layout->addWidget(view);
    dialog->resize(1000, 700);
    dialog->show();
}

void LabHistoryView::exportDialog(bool csv) {
    const QString path = QFileDialog::getSaveFileName(
        this, csv ? "Export the lab history as CSV" : "Export the lab history as JSON",
        csv ? "lab_history.csv" : "lab_history.json", csv ? "CSV (*.csv)" : "JSON (*.json)");
    if (path.isEmpty()) return;
    try {
        csv ? history_.exportCsv(path.toStdString()) : history_.exportJson(path.toStdString());
    } catch (const std::exception& e) {
        QMessageBox::warning(this, "Kernel lab", QString("Not exported: ") + e.what());
    }
}

} // namespace clscope::ui
