// Comparisons with scipy (tst_xpcs_fit_models, tst_xpcs_rate_law): a Python that imports
// scipy, and a script of tests/ run on a JSON input, its JSON output read back.
#pragma once
#include "test_util.hpp"

#include <QProcess>
#include <QTemporaryDir>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

namespace clscope::test {

// Python with scipy ($CLSCOPE_PYTHON or python3); empty when scipy cannot be imported.
inline QString pythonWithScipy() {
    for (const QString& candidate : {qEnvironmentVariable("CLSCOPE_PYTHON"), QString("python3"),
                                     QString("/usr/bin/python3")}) {
        if (candidate.isEmpty()) continue;
        QProcess p;
        p.start(candidate, {"-c", "import scipy.optimize, numpy"});
        if (p.waitForFinished(30000) && p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0)
            return candidate;
    }
    return {};
}

// tests/<script> IN.json OUT.json with `in`; OUT parsed (null when the script failed).
inline nlohmann::json runScipyScript(const QString& python, const std::string& script,
                                     const nlohmann::json& in) {
    QTemporaryDir dir;
    const QString inPath = dir.filePath("in.json"), outPath = dir.filePath("out.json");
    std::ofstream(inPath.toStdString()) << in.dump();
    QProcess p;
    p.start(python, {QString::fromStdString(dataFile("../" + script)), inPath, outPath});
    if (!p.waitForFinished(120000) || p.exitCode() != 0) {
        qWarning("%s", p.readAllStandardError().constData());
        return {};
    }
    std::ifstream out(outPath.toStdString());
    return nlohmann::json::parse(out);
}

} // namespace clscope::test
