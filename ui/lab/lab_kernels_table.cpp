#include "ui/lab/lab_kernels_table.hpp"

#include <QHeaderView>

namespace clscope::ui {

namespace {

const QStringList kernelColumns{"row",      "program", "kernel",           "work-group limit",
                                "multiple", "local B", "private B / item", "compiled output"};

QString number(const nlohmann::json& kernel, const char* key) {
    return QString::number(kernel.value(key, std::uint64_t(0)));
}

QString outputText(const nlohmann::json& program) {
    return QString("%1, %2 B")
        .arg(program.value("binary_text", false) ? "text" : "binary")
        .arg(program.value("binary_bytes", std::uint64_t(0)));
}

} // namespace

LabKernelsTable::LabKernelsTable(QWidget* parent)
    : QTableWidget(0, int(kernelColumns.size()), parent) {
    setObjectName("LabKernels");
    setHorizontalHeaderLabels(kernelColumns);
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setSelectionBehavior(QAbstractItemView::SelectRows);
    verticalHeader()->hide();
    horizontalHeader()->setStretchLastSection(true);
    horizontalHeaderItem(3)->setToolTip("CL_KERNEL_WORK_GROUP_SIZE: the largest work-group this "
                                        "kernel can be launched with on the device");
    horizontalHeaderItem(4)->setToolTip(
        "CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE: make "
        "work-group sizes a multiple of it (the warp or SIMD width)");
    horizontalHeaderItem(5)->setToolTip("CL_KERNEL_LOCAL_MEM_SIZE: local memory per work-group");
    horizontalHeaderItem(6)->setToolTip("CL_KERNEL_PRIVATE_MEM_SIZE: private memory per work-item");
}

void LabKernelsTable::showRows(const nlohmann::json& rows) {
    setRowCount(0);
    for (const nlohmann::json& r : rows)
        for (const nlohmann::json& p : r.value("programs", nlohmann::json::array()))
            for (const nlohmann::json& k : p.value("kernels", nlohmann::json::array())) {
                const QStringList texts{QString::fromStdString(r.value("label", "")),
                                        QString::fromStdString(p.value("program", "")),
                                        QString::fromStdString(k.value("name", "")),
                                        number(k, "work_group_size"),
                                        number(k, "preferred_work_group_size_multiple"),
                                        number(k, "local_mem_bytes"),
                                        number(k, "private_mem_bytes"),
                                        outputText(p)};
                const int at = rowCount();
                insertRow(at);
                for (int c = 0; c < texts.size(); ++c) {
                    auto* item = new QTableWidgetItem(texts[c]);
                    if (c >= 3 && c <= 6) item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
                    item->setToolTip(c == 1 ? QString::fromStdString(p.value("options", ""))
                                            : texts[c]);
                    setItem(at, c, item);
                }
            }
    resizeColumnsToContents();
}

QString LabKernelsTable::cell(int row, const QString& column) const {
    const QTableWidgetItem* it = item(row, int(kernelColumns.indexOf(column)));
    return it ? it->text() : QString();
}

} // namespace clscope::ui
