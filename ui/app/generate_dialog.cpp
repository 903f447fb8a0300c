#include "ui/app/generate_dialog.hpp"

#include "gpu/algorithm.hpp"
#include "ui/params/param_form.hpp"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QStackedWidget>
#include <QVBoxLayout>

namespace clscope::ui {

namespace {

// The choices of --compression, in the order of the combo box.
const std::vector<std::pair<QString, Compression>> compressions{
    {"gzip", Compression::Gzip}, {"none", Compression::None}, {"bslz4", Compression::Bitshuffle}};

QString outputName(const QString& kind) {
    return "clscope-" + kind + ".h5";
}

} // namespace

GenerateDialog::GenerateDialog(QWidget* parent) : QDialog(parent) {
    setWindowTitle("Generate synthetic dataset");
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(commonRows());
    pages_ = new QStackedWidget(this);
    layout->addWidget(pages_);
    addKinds();
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText("Generate and open");
    layout->addWidget(buttons);
    connect(kindBox_, &QComboBox::currentIndexChanged, this, &GenerateDialog::kindChosen);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    kindChosen(kindBox_->currentIndex());
}

// Kind, seed, compression and output: what every kind takes.
QLayout* GenerateDialog::commonRows() {
    auto* form = new QFormLayout;
    kindBox_ = new QComboBox(this);
    seed_ = new QSpinBox(this);
    seed_->setRange(0, 1 << 30);
    seed_->setToolTip("Random seed (clscope-cli generate --seed)");
    compression_ = new QComboBox(this);
    for (const auto& [name, compression] : compressions)
        compression_->addItem(name);
    compression_->setToolTip("Compression of the frames (--compression; bslz4: bitshuffle-LZ4)");
    output_ = new QLineEdit(this);
    auto* browse = new QPushButton("Browse…", this);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, "Output file", output_->text(),
                                                          "HDF5 (*.h5 *.hdf5)");
        if (!path.isEmpty()) output_->setText(path);
    });
    auto* outputRow = new QHBoxLayout;
    outputRow->addWidget(output_, 1);
    outputRow->addWidget(browse);
    form->addRow("Kind", kindBox_);
    form->addRow("Seed", seed_);
    form->addRow("Compression", compression_);
    form->addRow("Output", outputRow);
    return form;
}

// One combo entry and one form per synthetic kind, in registration order.
void GenerateDialog::addKinds() {
    for (const auto& [algorithm, kind] : AlgorithmRegistry::instance().syntheticKinds()) {
        const QString name = QString::fromStdString(kind.name);
        kindBox_->addItem(name + " — " + QString::fromStdString(kind.help), name);
        pages_->addWidget(new ParamForm("generate/" + kind.name, kind.specs,
                                        QString("%1 options").arg(name), {}, {}, pages_));
    }
    output_->setText(QDir::temp().filePath(outputName(kindBox_->currentData().toString())));
}

// Shows the kind's form; the dialog takes the height of that form alone, not of the longest.
void GenerateDialog::kindChosen(int index) {
    pages_->setCurrentIndex(index);
    for (int i = 0; i < pages_->count(); ++i)
        pages_->widget(i)->setSizePolicy(QSizePolicy::Preferred, i == index ? QSizePolicy::Preferred
                                                                            : QSizePolicy::Ignored);
    pages_->updateGeometry();
    layout()->activate();
    adjustSize();
    const QFileInfo old(output_->text());
    output_->setText(old.dir().filePath(outputName(kindBox_->itemData(index).toString())));
}

GenerateRequest GenerateDialog::request() const {
    GenerateRequest r;
    r.kind = kindBox_->currentData().toString().toStdString();
    r.options = options().paramSet();
    r.seed = static_cast<std::uint64_t>(seed_->value());
    r.compression = compressions.at(static_cast<std::size_t>(compression_->currentIndex())).second;
    return r;
}

ParamForm& GenerateDialog::options() const {
    return *static_cast<ParamForm*>(pages_->currentWidget());
}

QString GenerateDialog::outputPath() const {
    return output_->text();
}

void GenerateDialog::setOutputPath(const QString& path) {
    output_->setText(path);
}

bool GenerateDialog::setKind(const QString& kind) {
    const int index = kindBox_->findData(kind);
    if (index >= 0) kindBox_->setCurrentIndex(index);
    return index >= 0;
}

} // namespace clscope::ui
