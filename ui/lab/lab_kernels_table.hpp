// The kernel lab's kernels: for every row of a run, each program it built and each kernel of it
// with the OpenCL API's figures (CL_KERNEL_WORK_GROUP_SIZE, ..._PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
// ..._LOCAL_MEM_SIZE, ..._PRIVATE_MEM_SIZE) and the size of its compiled output, from the rows'
// "programs" (clscope-cli lab --json).
#pragma once
#include <QTableWidget>
#include <nlohmann/json.hpp>

namespace clscope::ui {

class LabKernelsTable : public QTableWidget {
    Q_OBJECT
  public:
    explicit LabKernelsTable(QWidget* parent = nullptr);
    void showRows(const nlohmann::json& rows);
    // The text of a cell by its column's title ("" when absent).
    QString cell(int row, const QString& column) const;
};

} // namespace clscope::ui
