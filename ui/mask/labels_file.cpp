#include "ui/mask/labels_file.hpp"

#include "core/errors.hpp"
#include "core/io.hpp"
#include "core/mask/mask_io.hpp"
#include "ui/results/local_inputs.hpp"

#include <QCryptographicHash>
#include <QDir>
#include <QFileInfo>

namespace clscope::ui {

namespace {

template <typename T> void addValues(QCryptographicHash& hash, const std::vector<T>& values) {
    const auto count = static_cast<quint64>(values.size());
    hash.addData(QByteArrayView(reinterpret_cast<const char*>(&count), sizeof count));
    hash.addData(QByteArrayView(reinterpret_cast<const char*>(values.data()),
                                static_cast<qsizetype>(values.size() * sizeof(T))));
}

QString contentHash(const LabelMask& labels, const std::optional<mask::LabelCenters>& centres) {
    QCryptographicHash hash(QCryptographicHash::Sha256);
    addValues(hash, std::vector<std::size_t>{labels.height, labels.width});
    addValues(hash, labels.labels);
    if (centres) {
        addValues(hash, centres->labelIds);
        addValues(hash, centres->q);
        addValues(hash, centres->phi);
    }
    return QString::fromLatin1(hash.result().toHex().left(16));
}

} // namespace

QString savedLabelsLocation(const LabelMask& labels,
                            const std::optional<mask::LabelCenters>& centres) {
    const QDir folder(localDataFolder() + "/labels");
    if (!folder.mkpath("."))
        throw InputError(folder.path().toStdString() + ": cannot create the labels folder");
    const QString file = folder.absoluteFilePath("labels-" + contentHash(labels, centres) + ".h5");
    if (!QFileInfo::exists(file)) {
        mask::MaskFile content;
        content.labels = labels;
        content.centers = centres;
        mask::writeMaskFile(file.toStdString(), content);
    }
    return file + ":" + QString::fromStdString(paths::qmask);
}

} // namespace clscope::ui
