// Helpers shared by the test suites.
#pragma once
#include "core/timing.hpp"

#include <QFile>
#include <QMap>
#include <QProcess>
#include <QProcessEnvironment>
#include <QStringList>
#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <cstdlib>
#include <string>

namespace clscope::test {

// Whether a run's timings hold `label` (which path, kernel or copy ran).
inline bool timed(const TimingStats& timings, const std::string& label) {
    const auto records = timings.records();
    return std::any_of(records.begin(), records.end(),
                       [&](const TimingRecord& r) { return r.label == label; });
}

// tests/data (CLSCOPE_TEST_DATA, set by ctest).
inline std::string dataFile(const std::string& name) {
    const char* dir = std::getenv("CLSCOPE_TEST_DATA");
    return std::string(dir ? dir : "tests/data") + "/" + name;
}

// Runs a python script ($CLSCOPE_PYTHON, default /usr/bin/python3), `skip` set (exit 77 or no
// python) or the test failed on other errors.
inline bool runPython(const QStringList& args, QString& skip) {
    const QString python = qEnvironmentVariable("CLSCOPE_PYTHON", "/usr/bin/python3");
    QProcess p;
    p.start(python, args);
    if (!p.waitForStarted()) {
        skip = "no python3 (" + python + ")";
        return true;
    }
    if (!p.waitForFinished(120000)) return false;
    const QString err = QString::fromUtf8(p.readAllStandardError()).trimmed();
    if (p.exitCode() == 77) skip = err;
    if (p.exitCode() != 0 && p.exitCode() != 77) qWarning("%s", qPrintable(err));
    return p.exitCode() == 0 || p.exitCode() == 77;
}

// One run of clscope-cli ($CLSCOPE_CLI, set by ctest) as a script would make it.
struct CliRun {
    int code; // exit code; -1 timed out, -2 crashed
    QString out, err;
};

// Runs `program` with `args` and the environment plus `env`, waiting at most timeoutMs.
inline CliRun runProgram(const QString& program, const QStringList& args,
                         const QMap<QString, QString>& env, int timeoutMs) {
    QProcess p;
    QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
    for (auto it = env.begin(); it != env.end(); ++it)
        e.insert(it.key(), it.value());
    p.setProcessEnvironment(e);
    p.start(program, args);
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
        return {-1, {}, "timed out"};
    }
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2,
            QString::fromUtf8(p.readAllStandardOutput()),
            QString::fromUtf8(p.readAllStandardError())};
}

// clscope-cli ($CLSCOPE_CLI) with `args`.
inline CliRun runCli(const QStringList& args, const QMap<QString, QString>& env = {},
                     int timeoutMs = 120000) {
    return runProgram(qEnvironmentVariable("CLSCOPE_CLI", "clscope-cli"), args, env, timeoutMs);
}

// A POSIX shell's words of a command line that shellQuote wrote (single quotes only).
inline QStringList shellWords(const QString& line) {
    QStringList words;
    QString word;
    bool quoted = false, any = false;
    for (QChar c : line) {
        if (c == '\'') {
            quoted = !quoted, any = true;
        } else if (c == ' ' && !quoted) {
            if (any) words << word;
            word.clear(), any = false;
        } else {
            word += c, any = true;
        }
    }
    if (any) words << word;
    return words;
}

// Run f, expect exception E whose message contains every part; fail the test otherwise.
template <class E, class F>
void expectError(F&& f, std::initializer_list<std::string> parts, const char* file, int line) {
    try {
        f();
    } catch (const E& e) {
        const std::string message = e.what();
        for (const std::string& part : parts)
            if (message.find(part) == std::string::npos)
                QTest::qFail(("message '" + message + "' lacks '" + part + "'").c_str(), file,
                             line);
        return;
    } catch (const std::exception& e) {
        QTest::qFail((std::string("wrong exception type: ") + e.what()).c_str(), file, line);
        return;
    }
    QTest::qFail("no exception thrown", file, line);
}

// A file's bytes (empty when it cannot be read).
inline QByteArray readAll(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace clscope::test

// A CliRun's exit code is `expected` and its stderr contains `text`, else the test fails.
#define EXPECT_EXIT(run, expected, text)                                                           \
    do {                                                                                           \
        const clscope::test::CliRun r_ = (run);                                                    \
        if (r_.code != (expected) || !r_.err.contains(text))                                       \
            QFAIL(qPrintable(QString("exit %1 (expected %2), stderr: %3 (expected '%4')")          \
                                 .arg(r_.code)                                                     \
                                 .arg(expected)                                                    \
                                 .arg(r_.err, QString(text))));                                    \
    } while (0)

#define EXPECT_ERROR(E, expr, ...)                                                                 \
    do {                                                                                           \
        clscope::test::expectError<E>([&] { (void)(expr); }, {__VA_ARGS__}, __FILE__, __LINE__);   \
        if (QTest::currentTestFailed()) return;                                                    \
    } while (0)
