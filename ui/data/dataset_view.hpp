// Looking at any dataset as silx view does: a short preview of its values for the browser
// (scalars and small arrays show their numbers), and a dialog with a table and a plot
// (a line for 1-D, an image for 2-D; the first frame of 3-D and higher).
#pragma once
#include <QDialog>
#include <QString>
#include <memory>
#include <string>

class QCustomPlot;
class QTableWidget;

namespace clscope {
class H5Reader;
}

namespace clscope::ui {

// At most this many elements are shown inline in the browser.
constexpr std::size_t previewElements = 8;

// "3.5", "[1, 2, 3]" for numeric datasets of at most previewElements elements; empty
// otherwise (or when the values cannot be read).
QString valuePreview(const H5Reader& file, const std::string& path);

class DatasetView : public QDialog {
    Q_OBJECT
  public:
    // Reads path (its first frame when 3-D or more); an unreadable dataset shows the reason.
    DatasetView(std::shared_ptr<const H5Reader> file, const std::string& path,
                QWidget* parent = nullptr);

    QTableWidget* table() const { return table_; }
    QCustomPlot* plot() const { return plot_; }

  private:
    void fill(const std::vector<double>& values, std::size_t rows, std::size_t cols,
              const QString& valueLabel);
    QTableWidget* table_ = nullptr;
    QCustomPlot* plot_ = nullptr;
};

} // namespace clscope::ui
