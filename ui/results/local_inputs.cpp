#include "ui/results/local_inputs.hpp"

#include "core/errors.hpp"
#include "core/hdf5.hpp"
#include "gpu/command_line.hpp"

#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>
#include <set>

namespace clscope::ui {

namespace {

// "/entry/processing/qmask" → "/entry/processing"; a dataset at the root is its own group.
std::string carriedGroup(const std::string& path) {
    const auto slash = path.rfind('/');
    return slash == 0 || slash == std::string::npos ? path : path.substr(0, slash);
}

} // namespace

QString localDataFolder() {
    const QString folder = QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation);
    if (!QDir().mkpath(folder))
        throw InputError(folder.toStdString() + ": cannot create the application's data folder");
    return QDir(folder).absolutePath();
}

CarriedInputs carryLocalInputs(const QString& commandLine, const QString& exportPath) {
    CarriedInputs carried{commandLine, {}};
    const QString folder = QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation);
    if (commandLine.startsWith('#') || folder.isEmpty()) return carried; // nothing is local
    const std::string local = (QDir(folder).absolutePath() + "/").toStdString();
    const std::string target = QFileInfo(exportPath).absoluteFilePath().toStdString();
    std::set<std::pair<std::string, std::string>> copied; // (file, group)
    std::string line;
    for (std::string word : shellWords(commandLine.toStdString())) {
        const auto colon = word.find(":/");
        if (word.starts_with(local) && colon != std::string::npos) {
            const std::string file = word.substr(0, colon), path = word.substr(colon + 1);
            const std::string group = carriedGroup(path);
            if (copied.insert({file, group}).second)
                carried.writers.push_back(
                    [file, group](H5Writer& out) { out.copyFrom(H5Reader(file), group); });
            word = target + ":" + path;
        }
        line += (line.empty() ? "" : " ") + shellQuote(word);
    }
    if (!carried.writers.empty()) carried.commandLine = QString::fromStdString(line);
    return carried;
}

bool namesLocalInputs(const QString& commandLine) {
    return !carryLocalInputs(commandLine, "unused.h5").writers.empty();
}

QString inputsBeside(const QString& exportPath) {
    return exportPath + ".inputs.h5";
}

} // namespace clscope::ui
