#include "ui/kit/log_panel.hpp"

#include <QDateTime>
#include <QFontDatabase>
#include <QPlainTextEdit>
#include <QVBoxLayout>

namespace clscope::ui {

LogPanel::LogPanel(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    view_ = new QPlainTextEdit(this);
    view_->setReadOnly(true);
    view_->setMaximumBlockCount(5000);
    view_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    layout->addWidget(view_);
}

void LogPanel::append(LogLevel level, const QString& text) {
    const char* color = level == LogLevel::Error     ? "#c0392b"
                        : level == LogLevel::Warning ? "#b9770e"
                                                     : "#202020";
    const QString stamp = QDateTime::currentDateTime().toString("HH:mm:ss");
    QString body = text.toHtmlEscaped();
    body.replace("\n", "<br>");
    view_->appendHtml(
        QString("<span style='color:#808080'>%1</span> <span style='color:%2'>%3</span>")
            .arg(stamp, color, body));
}

QString LogPanel::text() const {
    return view_->toPlainText();
}

} // namespace clscope::ui
