#include "ui/lab/lab_history_view.hpp"

#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace clscope::ui {

namespace {

QString s(const nlohmann::json& e, const char* key) {
    return QString::fromStdString(e.value(key, ""));
}

QString tunables(const nlohmann::json& e) {
    QStringList out;
    const nlohmann::json t = e.value("tunables", nlohmann::json::object());
    for (auto it = t.begin(); it != t.end(); ++it)
        out << QString::fromStdString(it.key() + "=" +
                                      (it->is_string() ? it->get<std::string>() : it->dump()));
    return out.join(' ');
}

} // namespace

LabHistoryView::LabHistoryView(QWidget* parent) : QWidget(parent), list_(new QTreeWidget(this)) {
    list_->setObjectName("LabHistory");
    list_->setHeaderLabels({"date", "row", "result", "median ms", "device", "source", "tunables"});
    list_->setRootIsDecorated(false);
    list_->header()->setStretchLastSection(true);
    auto* csv = new QPushButton("Export CSV…", this);
    auto* json = new QPushButton("Export JSON…", this);
    connect(csv, &QPushButton::clicked, this, [this] { exportDialog(true); });
    connect(json, &QPushButton::clicked, this, [this] { exportDialog(false); });
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(new QLabel("History (every build, check and timing)", this), 1);
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
            s(e, "device").section(" (", 0, 0), s(e, "source_sha256").left(12), tunables(e)});
        item->setToolTip(5, s(e, "source_sha256"));
        list_->addTopLevelItem(item);
    }
    for (int c = 0; c < list_->columnCount() - 1; ++c)
        list_->resizeColumnToContents(c);
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
