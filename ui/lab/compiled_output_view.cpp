#include "ui/lab/compiled_output_view.hpp"
#include "ui/base/qstring.hpp"

#include "core/atomic_file.hpp"

#include <QComboBox>
#include <QFile>
#include <QFileDialog>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalBlocker>
#include <QVBoxLayout>

namespace clscope::ui {

namespace {

constexpr int hexBytes = 4096;

QString hexDump(const QByteArray& bytes) {
    QString out;
    for (int at = 0; at < std::min<int>(hexBytes, int(bytes.size())); at += 16) {
        out += QString("%1 ").arg(at, 8, 16, QChar('0'));
        const QByteArray line = bytes.mid(at, 16);
        for (char c : line)
            out += QString(" %1").arg(static_cast<unsigned char>(c), 2, 16, QChar('0'));
        out += '\n';
    }
    return out;
}

} // namespace

CompiledOutputView::CompiledOutputView(QWidget* parent)
    : QWidget(parent), choice_(new QComboBox(this)), info_(new QLabel(this)),
      text_(new QPlainTextEdit(this)), export_(new QPushButton("Export…", this)) {
    setObjectName("LabCompiledOutput");
    choice_->setObjectName("LabCompiledChoice");
    text_->setReadOnly(true);
    text_->setLineWrapMode(QPlainTextEdit::NoWrap);
    text_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    info_->setWordWrap(true);
    info_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    export_->setEnabled(false);
    export_->setToolTip("Write the compiled output to a file (clscope-cli lab --binary DIR)");
    auto* row = new QHBoxLayout;
    row->addWidget(new QLabel("Program", this)), row->addWidget(choice_, 1);
    row->addWidget(export_);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(row);
    layout->addWidget(info_);
    layout->addWidget(text_, 1);
    connect(choice_, &QComboBox::currentIndexChanged, this, &CompiledOutputView::showChoice);
    connect(export_, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, "Export the compiled output");
        if (path.isEmpty()) return;
        if (const QString why = exportTo(path); !why.isEmpty()) info_->setText(why);
    });
    text_->setPlainText("Save & run: what the driver compiled shows here.");
}

void CompiledOutputView::showRows(const nlohmann::json& rows) {
    const QSignalBlocker block(choice_);
    choice_->clear(), programs_.clear();
    int fork = -1;
    for (std::size_t i = 0; i < rows.size(); ++i)
        for (const nlohmann::json& p : rows[i].value("programs", nlohmann::json::array())) {
            if (p.value("binary_file", "").empty()) continue;
            if (i > 0 && fork < 0) fork = int(programs_.size());
            choice_->addItem(q(rows[i].value("label", "") + " — " + p.value("program", "")));
            programs_.push_back(p);
        }
    choice_->setCurrentIndex(std::max(0, fork));
    showChoice();
}

int CompiledOutputView::choices() const {
    return choice_->count();
}

void CompiledOutputView::choose(int index) {
    choice_->setCurrentIndex(index);
}

QString CompiledOutputView::choiceText() const {
    return choice_->currentText();
}

QString CompiledOutputView::shownText() const {
    return text_->toPlainText();
}

void CompiledOutputView::showChoice() {
    const int at = choice_->currentIndex();
    export_->setEnabled(at >= 0);
    if (at < 0) {
        info_->clear(), text_->setPlainText("No compiled output: the run built nothing.");
        return;
    }
    const nlohmann::json& p = programs_[std::size_t(at)];
    QFile file(q(p.value("binary_file", "")));
    const QByteArray bytes = file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
    const bool text = p.value("binary_text", false);
    const std::string log = p.value("build_log", "");
    info_->setText(QString("%1, %2 bytes; built with %3%4")
                       .arg(text ? "text" : "binary")
                       .arg(p.value("binary_bytes", std::uint64_t(0)))
                       .arg(q(p.value("options", "")))
                       .arg(log.find_first_not_of(" \t\r\n") == std::string::npos
                                ? QString()
                                : "\nBuild log:\n" + q(log).trimmed()));
    if (bytes.isEmpty())
        text_->setPlainText("The file " + file.fileName() + " is gone (a newer run replaced it).");
    else if (text)
        text_->setPlainText(QString::fromUtf8(bytes));
    else
        text_->setPlainText(QString("Not text: the first %1 of %2 bytes in hex (Export… writes "
                                    "them all).\n\n")
                                .arg(std::min<qsizetype>(hexBytes, bytes.size()))
                                .arg(bytes.size()) +
                            hexDump(bytes));
}

QString CompiledOutputView::exportTo(const QString& path) const {
    const int at = choice_->currentIndex();
    if (at < 0) return "No compiled output to export.";
    QFile file(q(programs_[std::size_t(at)].value("binary_file", "")));
    if (!file.open(QIODevice::ReadOnly)) return "Cannot read " + file.fileName();
    try {
        writeFileAtomically(path.toStdString(), file.readAll().toStdString());
    } catch (const std::exception& e) {
        return QString::fromUtf8(e.what());
    }
    return {};
}

} // namespace clscope::ui
