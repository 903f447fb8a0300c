#include "ui/lab/build_log_list.hpp"

#include <QFontDatabase>

namespace clscope::ui {

BuildLogList::BuildLogList(QWidget* parent) : QListWidget(parent) {
    setObjectName("LabBuildLog");
    setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    setWordWrap(true);
    const auto choose = [this](QListWidgetItem* item) {
        if (const int line = lineOf(item); line > 0) emit lineChosen(line);
    };
    connect(this, &QListWidget::itemClicked, this, choose);
    connect(this, &QListWidget::itemActivated, this, choose);
}

void BuildLogList::showMessages(const std::vector<BuildMessage>& messages) {
    clear();
    for (const BuildMessage& m : messages) {
        auto* item = new QListWidgetItem(QString("%1:%2  %3: %4\n      %5")
                                             .arg(m.line)
                                             .arg(m.column)
                                             .arg(QString::fromStdString(m.kind),
                                                  QString::fromStdString(m.text),
                                                  QString::fromStdString(m.sourceLine).trimmed()));
        item->setData(Qt::UserRole, int(m.line));
        item->setForeground(m.kind.find("error") != std::string::npos ? QColor(0xb0, 0, 0)
                            : m.kind == "warning"                     ? QColor(0x90, 0x60, 0)
                                                                      : QColor(0x30, 0x30, 0x30));
        item->setToolTip("Click: go to line " + QString::number(m.line));
        addItem(item);
    }
}

void BuildLogList::showText(const QString& text) {
    clear();
    addItem(text);
}

int BuildLogList::lineOf(const QListWidgetItem* item) {
    return item ? item->data(Qt::UserRole).toInt() : 0;
}

} // namespace clscope::ui
