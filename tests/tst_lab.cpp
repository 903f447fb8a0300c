// The kernel lab (clscope-cli lab, DESIGN.md §4) on PoCL, through the toy's declared program
// (resources/kernels/toy_frame_sums.cl): a fork checked and timed beside its base, wrong and
// broken kernels reported with their exit codes, a kernel that never finishes stopped, a sweep,
// and user variants saved, listed and run by other commands.
#include "test_util.hpp"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

using clscope::test::runCli;

namespace {

QString readText(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

void writeText(const QString& path, const QString& text) {
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(text.toUtf8());
}

QJsonArray rowsOf(const QString& jsonPath) {
    return QJsonDocument::fromJson(readText(jsonPath).toUtf8()).object()["rows"].toArray();
}

const QString kernelLine = "scale * (double)total";

} // namespace

class TestLab : public QObject {
    Q_OBJECT
    QTemporaryDir dir;
    QMap<QString, QString> env;
    QString printed; // the toy's program as --print-source writes it

    QString file(const QString& name) const { return dir.filePath(name); }
    // The printed program with one text replaced, written to NAME.cl.
    QString forkWith(const QString& name, const QString& from, const QString& to) {
        QString text = printed;
        text.replace(from, to);
        writeText(file(name + ".cl"), text);
        return file(name + ".cl");
    }
    clscope::test::CliRun lab(QStringList args, int timeoutMs = 120000) {
        return runCli(
            QStringList{"lab", "toy", "--from", "ocl", "--device", "ocl:0", "--repeat", "2"} + args,
            env, timeoutMs);
    }

  private slots:
    void initTestCase() {
        QVERIFY(dir.isValid());
        env["CLSCOPE_USER_VARIANTS"] = file("variants");
        const auto run = runCli({"lab", "toy", "--from", "ocl", "--print-source"}, env);
        QCOMPARE(run.code, 0);
        printed = run.out;
        QVERIFY2(printed.contains("// tunable LOCAL_SIZE = 16 (allowed: 1..1024)"),
                 qPrintable(printed));
        QVERIFY(printed.contains("__kernel") && printed.contains(kernelLine));
    }
    void forkUnchangedPassesBesideItsBase() {
        writeText(file("same.cl"), printed);
        const auto run = lab({"--source", file("same.cl"), "--json", file("same.json")});
        QVERIFY2(run.code == 0, qPrintable(run.out + run.err));
        const QJsonArray rows = rowsOf(file("same.json"));
        QCOMPARE(rows.size(), 2);
        QCOMPARE(rows[0].toObject()["label"].toString(), QString("ocl"));
        for (const auto& row : rows) {
            const QJsonObject r = row.toObject();
            QCOMPARE(r["check"].toString(), QString("pass"));
            QCOMPARE(r["tunables"].toObject()["LOCAL_SIZE"].toString(), QString("16"));
            QCOMPARE(r["source_sha256"].toString().size(), 64);
            QVERIFY(r["median_ms"].toDouble() > 0 &&
                    r["p80_ms"].toDouble() >= r["p20_ms"].toDouble());
        }
        QVERIFY(rows[0].toObject()["source_sha256"] != rows[1].toObject()["source_sha256"]);
    }
    void wrongKernelFailsWithItsDeviation() {
        const QString source = forkWith("wrong", kernelLine, "scale * (double)(total + 1)");
        const auto run = lab({"--source", source, "--json", file("wrong.json")});
        QVERIFY2(run.code == 1, qPrintable(run.out + run.err));
        QVERIFY(run.out.contains("FAIL"));
        const QJsonObject fork = rowsOf(file("wrong.json"))[1].toObject();
        QCOMPARE(fork["check"].toString(), QString("fail"));
        QVERIFY(fork["max_deviation"].toDouble() > 0);
        QVERIFY(!fork["deviation"].toObject()["first_where"].toString().isEmpty());
    }
    void kernelWritingNothingFails() { // outputs poisoned: nothing stale or zero can pass
        const QString source = forkWith("empty", "sums[t] =", "if (frameSize == 0) sums[t] =");
        const auto run = lab({"--source", source});
        QVERIFY2(run.code == 1, qPrintable(run.out + run.err));
    }
    void syntaxErrorNamesTheLine() {
        QStringList lines = printed.split('\n');
        const int at = int(lines.indexOf(QRegularExpression(".*ulong total = 0;.*")));
        QVERIFY(at > 0);
        lines[at] = "    ulong total = 0 this is not C;";
        writeText(file("broken.cl"), lines.join('\n'));
        const auto run = lab({"--source", file("broken.cl")});
        QVERIFY2(run.code == 4, qPrintable(run.out + run.err));
        const QString where = file("broken.cl") + ":" + QString::number(at + 1) + ":";
        QVERIFY2(run.err.contains(where), qPrintable(where + "\n" + run.err));
    }
    void neverFinishingKernelIsStopped() {
        const QString source = forkWith("spin", "ulong total = 0;",
                                        "ulong total = 0; volatile int spin = 1; while (spin) {}");
        QElapsedTimer clock;
        clock.start();
        const auto run = lab({"--source", source, "--kernel-timeout", "5"}, 90000);
        QVERIFY2(run.code == 4, qPrintable(run.out + run.err));
        QVERIFY2(run.err.contains("the kernel did not finish in 5 s"), qPrintable(run.err));
        QVERIFY2(clock.elapsed() < 60000, qPrintable(QString::number(clock.elapsed())));
    }
    void sweepGivesOneCheckedRowPerValue() {
        const auto run = lab({"--sweep", "LOCAL_SIZE=1,4,8", "--json", file("sweep.json")});
        QVERIFY2(run.code == 0, qPrintable(run.out + run.err));
        const QJsonArray rows = rowsOf(file("sweep.json"));
        QCOMPARE(rows.size(), 4);
        const QStringList values{"16", "1", "4", "8"};
        for (int i = 0; i < rows.size(); ++i) {
            const QJsonObject r = rows[i].toObject();
            QCOMPARE(r["check"].toString(), QString("pass"));
            QCOMPARE(r["tunables"].toObject()["LOCAL_SIZE"].toString(), values[i]);
        }
    }
    void badSetsAreUsageErrors() {
        QCOMPARE(lab({"--set", "NOPE=1"}).code, 2);
        QCOMPARE(lab({"--set", "LOCAL_SIZE=0"}).code, 2);
        QCOMPARE(runCli({"lab", "toy", "--from", "cpu", "--print-source"}, env).code, 2);
        QCOMPARE(lab({"--source", file("absent.cl")}).code, 3);
    }
    void savedUserVariantIsListedAndRuns() {
        const auto saved = lab({"--set", "LOCAL_SIZE=4", "--save", "four"});
        QVERIFY2(saved.code == 0, qPrintable(saved.out + saved.err));
        QVERIFY(QFile::exists(file("variants/toy/four.cl")));
        QVERIFY(readText(file("variants/toy/four.json")).contains("\"LOCAL_SIZE\": \"4\""));
        const auto listed = runCli({"variants", "toy"}, env);
        QVERIFY2(listed.out.contains("user:four\tthe user's fork of ocl"), qPrintable(listed.out));
        QCOMPARE(runCli({"generate", "toyframes", "-o", file("in.h5"), "--frames", "40"}, env).code,
                 0);
        const auto ran = runCli({"toy", file("in.h5"), "--variant", "user:four", "--device",
                                 "ocl:0", "-o", file("o.h5")},
                                env);
        QVERIFY2(ran.code == 0 && ran.out.contains("user:four"), qPrintable(ran.out + ran.err));
    }
    void userVariantSourceIsTheOneBuilt() { // a wrong saved source fails wherever it runs
        writeText(file("variants/toy/bad.cl"),
                  QString(printed).replace(kernelLine, "scale * (double)total * 2.0"));
        writeText(file("variants/toy/bad.json"),
                  R"({"base": "ocl", "program": "toy_frame_sums", "tunables": {}})");
        const auto bench = runCli(
            {"bench", "toy", "--variant", "user:bad", "--device", "ocl:0", "--repeat", "1"}, env);
        QVERIFY2(bench.code == 0 && bench.out.contains("FAIL"), qPrintable(bench.out + bench.err));
        QCOMPARE(runCli({"lab", "toy", "--from", "user:bad", "--repeat", "1"}, env).code, 1);
        QCOMPARE(
            runCli({"toy", file("in.h5"), "--variant", "user:none", "-o", file("x.h5")}, env).code,
            2);
    }
};

QTEST_GUILESS_MAIN(TestLab)
#include "tst_lab.moc"
