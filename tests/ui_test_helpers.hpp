// Shared helpers of the tst_ui_* suites: settings in a temporary folder, small datasets.
#pragma once
#include "core/hdf5.hpp"
#include "core/xpcs/synthetic.hpp"

#include <QCoreApplication>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <string>

namespace clscope::test {

// QSettings() of the code under test then reads and writes an ini file under dir; a clscope
// binary the test starts keeps its settings under dir too (XDG_CONFIG_HOME), not in the user's
// (whose saved parameters, e.g. xpcs multi-tau with two-time binning, made its demo fail).
inline void useTemporarySettings(const QTemporaryDir& dir) {
    qputenv("XDG_CONFIG_HOME", dir.filePath("config").toLocal8Bit());
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName("clscope");
    QCoreApplication::setApplicationName("clscope-tests");
    QSettings::setDefaultFormat(QSettings::IniFormat);
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, dir.path());
    QSettings().clear();
}

// A small xpcs file (frames, ring labels) written to dir; returns its path.
inline std::string writeSmallXpcs(const QTemporaryDir& dir, std::size_t frames = 8,
                                  std::size_t height = 20, std::size_t width = 24) {
    synthetic::XpcsParams p;
    p.frames = frames;
    p.height = height;
    p.width = width;
    p.ringWidth = 4;
    const std::string path = dir.filePath("small-xpcs.h5").toStdString();
    H5Writer out(path);
    synthetic::writeXpcs(out, synthetic::generateXpcs(p), Compression::None);
    out.commit();
    return path;
}

} // namespace clscope::test
