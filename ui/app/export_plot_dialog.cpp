#include "ui/app/export_plot_dialog.hpp"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>

namespace clscope::ui {

ExportPlotDialog::ExportPlotDialog(const QStringList& plotNames, const QString& current,
                                   QWidget* parent)
    : QDialog(parent) {
    setWindowTitle("Export plot");
    auto* form = new QFormLayout(this);
    plotBox_ = new QComboBox(this);
    plotBox_->addItems(plotNames);
    plotBox_->setCurrentText(current);
    formatBox_ = new QComboBox(this);
    formatBox_->addItems({"png", "pdf", "jpg"});
    width_ = new QSpinBox(this);
    height_ = new QSpinBox(this);
    for (QSpinBox* box : {width_, height_}) {
        box->setRange(100, 20000);
        box->setSuffix(" px");
    }
    setSize(1200, 900);
    path_ = new QLineEdit(QDir::current().filePath("plot.png"), this);
    auto* browse = new QPushButton("Browse…", this);
    auto* pathRow = new QHBoxLayout;
    pathRow->addWidget(path_, 1);
    pathRow->addWidget(browse);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Cancel, this);
    form->addRow("Plot", plotBox_);
    form->addRow("Format", formatBox_);
    form->addRow("Width", width_);
    form->addRow("Height", height_);
    form->addRow("File", pathRow);
    form->addRow(buttons);
    // The suffix follows the format and the format follows a typed suffix.
    connect(formatBox_, &QComboBox::currentTextChanged, this, [this](const QString& format) {
        const QFileInfo info(path_->text());
        path_->setText(info.dir().filePath(info.completeBaseName() + "." + format));
    });
    connect(path_, &QLineEdit::editingFinished, this, [this] {
        const int index = formatBox_->findText(QFileInfo(path_->text()).suffix().toLower());
        if (index >= 0) formatBox_->setCurrentIndex(index);
    });
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, "Export plot", path_->text(),
                                                          "Images (*.png *.pdf *.jpg)");
        if (path.isEmpty()) return;
        path_->setText(path);
        emit path_->editingFinished();
    });
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
}

QString ExportPlotDialog::plotName() const {
    return plotBox_->currentText();
}
QString ExportPlotDialog::path() const {
    return path_->text();
}
int ExportPlotDialog::plotWidth() const {
    return width_->value();
}
int ExportPlotDialog::plotHeight() const {
    return height_->value();
}

void ExportPlotDialog::setSize(int width, int height) {
    width_->setValue(width);
    height_->setValue(height);
}

} // namespace clscope::ui
