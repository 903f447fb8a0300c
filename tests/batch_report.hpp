// The JSON-lines report of clscope-cli batch, read back (tst_batch, tst_scale_slurm).
#pragma once
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QList>
#include <QString>

// One object per non-empty line; none when the file cannot be read.
inline QList<QJsonObject> reportLines(const QString& path) {
    QFile f(path);
    QList<QJsonObject> out;
    if (!f.open(QIODevice::ReadOnly)) return out;
    for (const QByteArray& line : f.readAll().split('\n'))
        if (!line.trimmed().isEmpty()) out.append(QJsonDocument::fromJson(line).object());
    return out;
}
