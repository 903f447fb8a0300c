#include "ui/stream/open_stream_dialog.hpp"

#include <QDialog>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSettings>
#include <QSpinBox>

namespace clscope::ui {

QString askStreamEndpoint(QWidget* parent) {
    QSettings settings;
    QDialog dialog(parent);
    dialog.setWindowTitle("Open stream");
    auto* form = new QFormLayout(&dialog);
    form->addRow(new QLabel("A DECTRIS Stream V2 detector stream (ZeroMQ PUSH socket):"));
    auto* host = new QLineEdit(settings.value("stream/host", "127.0.0.1").toString());
    auto* port = new QSpinBox;
    port->setRange(1, 65535);
    port->setValue(settings.value("stream/port", 9999).toInt());
    form->addRow("Host", host);
    form->addRow("Port", port);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Open | QDialogButtonBox::Cancel);
    QObject::connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    QObject::connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    form->addRow(buttons);
    if (dialog.exec() != QDialog::Accepted || host->text().trimmed().isEmpty()) return {};
    settings.setValue("stream/host", host->text().trimmed());
    settings.setValue("stream/port", port->value());
    return QString("tcp://%1:%2").arg(host->text().trimmed()).arg(port->value());
}

} // namespace clscope::ui
