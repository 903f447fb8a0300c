#include "ui/lab/lab_rows_table.hpp"

#include "ui/lab/lab_history.hpp"

#include <QHeaderView>

namespace clscope::ui {

namespace {

const QStringList rowColumns{
    "row",    "device",  "check",          "max deviation",   "min ms",   "p20 ms", "median ms",
    "p80 ms", "wall ms", "GB/s (of peak)", "Gop/s (of peak)", "tunables", "note"};
const int firstNumber = 3, lastNumber = 10, noteColumn = 12;

// Achieved per second (in G) and its fraction of the device's measured peak (the roofline);
// "-" when the row did not run or its algorithm declares no such work.
QString rate(const nlohmann::json& row, const char* achieved, const char* fraction) {
    const nlohmann::json f = row.value("roofline", nlohmann::json());
    if (!f.is_object() || !(f.value(achieved, 0.0) > 0)) return "-";
    const QString value = QString::number(f.value(achieved, 0.0) * 1e-9, 'g', 4);
    const double of = f.value(fraction, 0.0);
    return of > 0 ? value + QString(" (%1%)").arg(100 * of, 0, 'f', 1) : value;
}

QString ms(const nlohmann::json& row, const char* key) {
    return row.value("ran", false) ? QString::number(row.value(key, 0.0), 'f', 3) : "-";
}

// Where the check failed and how often, else the CLI's note (a failure's first line).
QString note(const nlohmann::json& row) {
    const nlohmann::json d = row.value("deviation", nlohmann::json());
    if (row.value("check", "") == "fail" && d.is_object())
        return QString("first at %1; %2 of %3 beyond %4")
            .arg(QString::fromStdString(d.value("first_where", "")))
            .arg(d.value("beyond", 0))
            .arg(d.value("compared", 0))
            .arg(d.value("tolerance", 0.0));
    if (LabHistory::resultOf(row) == "build") return "the build failed: see the build log";
    const QString text = QString::fromStdString(row.value("note", "")).section('\n', 0, 0);
    return row.value("cached", false) ? "from the sweep cache (measured before)" +
                                            (text.isEmpty() ? QString() : "; " + text)
                                      : text;
}

} // namespace

LabRowsTable::LabRowsTable(QWidget* parent) : QTableWidget(0, int(rowColumns.size()), parent) {
    setObjectName("LabRows");
    setHorizontalHeaderLabels(rowColumns);
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setSelectionBehavior(QAbstractItemView::SelectRows);
    verticalHeader()->hide();
    horizontalHeader()->setStretchLastSection(true);
}

void LabRowsTable::showRows(const nlohmann::json& rows, int bestRow) {
    rows_ = rows;
    setRowCount(int(rows.size()));
    for (int i = 0; i < int(rows.size()); ++i) {
        const nlohmann::json& r = rows[std::size_t(i)];
        const std::string result = LabHistory::resultOf(r);
        const bool ran = r.value("ran", false);
        const QStringList texts{
            QString::fromStdString(r.value("label", "")),
            QString::fromStdString(r.value("device", "")).section(" (", 0, 0),
            result == "pass" ? "pass" : QString::fromStdString(result).toUpper(),
            ran ? QString::number(r.value("max_deviation", 0.0), 'g', 3) : "-",
            ms(r, "min_ms"),
            ms(r, "p20_ms"),
            ms(r, "median_ms"),
            ms(r, "p80_ms"),
            ms(r, "wall_median_ms"),
            rate(r, "achieved_bytes_per_s", "bandwidth_fraction"),
            rate(r, "achieved_operations_per_s", "compute_fraction"),
            QString::fromStdString(tunablesText(r.value("tunables", nlohmann::json::object()))),
            note(r)};
        for (int c = 0; c < texts.size(); ++c) {
            auto* item = new QTableWidgetItem(texts[c]);
            if (c >= firstNumber && c <= lastNumber)
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            if (c == 2)
                item->setForeground(result == "pass" ? QColor(0, 0x80, 0) : QColor(0xc0, 0, 0));
            if (i == bestRow) {
                QFont bold = item->font();
                bold.setBold(true);
                item->setFont(bold);
            }
            item->setToolTip(c == noteColumn || c == 2 ? details(i) : texts[c]);
            setItem(i, c, item);
        }
    }
    resizeColumnsToContents();
    if (columnWidth(noteColumn) > 600) setColumnWidth(noteColumn, 600);
}

QString LabRowsTable::details(int row) const {
    if (row < 0 || row >= int(rows_.size())) return {};
    const nlohmann::json& r = rows_[std::size_t(row)];
    const std::string result = LabHistory::resultOf(r);
    QString text = QString::fromStdString(r.value("label", "")) + ": " +
                   (result == "pass" ? "pass" : QString::fromStdString(result).toUpper());
    const QString story = note(r), full = QString::fromStdString(r.value("note", ""));
    if (!story.isEmpty()) text += " — " + story;
    if (!full.isEmpty() && !story.contains(full)) text += "\n" + full;
    return text;
}

int LabRowsTable::firstProblem() const {
    for (std::size_t i = 0; i < rows_.size(); ++i)
        if (LabHistory::resultOf(rows_[i]) != "pass") return int(i);
    return -1;
}

QString LabRowsTable::cell(int row, const QString& column) const {
    const QTableWidgetItem* it = item(row, int(rowColumns.indexOf(column)));
    return it ? it->text() : QString();
}

} // namespace clscope::ui
