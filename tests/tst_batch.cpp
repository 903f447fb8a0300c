// clscope-cli batch: every line once over the shards, --resume redoes nothing, a bad line is
// reported and the rest complete, the exit code says whether all succeeded.
#include "batch_report.hpp"
#include "core/hdf5.hpp"
#include "test_util.hpp"

#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSet>
#include <QStandardPaths>

namespace {

using Run = clscope::test::CliRun;
Run cli(const QStringList& args, const QMap<QString, QString>& env = {}) {
    return clscope::test::runCli(args, env);
}

} // namespace

class TestBatch : public QObject {
    Q_OBJECT
    QTemporaryDir tmp;
    QString path(const QString& name) { return tmp.filePath(name); }

    // Six lines: four generate + correlate outputs, one failing command, one malformed line.
    QString writeManifest() {
        QFile f(path("m.jsonl"));
        f.open(QIODevice::WriteOnly | QIODevice::Truncate);
        for (int i = 0; i < 4; ++i)
            f.write(
                QString(
                    R"(["generate", "xpcs", "-o", "%1", "--frames", "%2", "--height", "24", "--width", "20"])"
                    "\n")
                    .arg(path(QString("g%1.h5").arg(i)))
                    .arg(8 + i)
                    .toUtf8());
        f.write(QString(R"(["correlate", "%1", "--device", "cpu", "-o", "%2"])"
                        "\n")
                    .arg(path("missing.h5"), path("never.h5"))
                    .toUtf8());
        f.write("this is not json\n");
        return f.fileName();
    }

  private slots:
    void allLinesRunOnceAndFailuresAreReported() {
        const QString m = writeManifest();
        const Run r = cli({"batch", m, "--report", path("r.jsonl")});
        QCOMPARE(r.code, 3); // not every line succeeded (DESIGN.md §4)
        const auto lines = reportLines(path("r.jsonl"));
        QCOMPARE(lines.size(), 6);
        for (int i = 0; i < 4; ++i) {
            QCOMPARE(lines[i]["status"].toString(), QString("ok"));
            QVERIFY(QFile::exists(path(QString("g%1.h5").arg(i))));
        }
        QCOMPARE(lines[4]["exit_code"].toInt(), 3);
        QCOMPARE(lines[5]["status"].toString(), QString("failed"));
        QVERIFY(!QFile::exists(path("never.h5")));
    }

    void resumeRedoesNothing() {
        const QString m = writeManifest();
        QCOMPARE(cli({"batch", m}).code, 3);
        const QDateTime before = QFileInfo(path("g0.h5")).lastModified();
        QCOMPARE(cli({"batch", m, "--resume", "--report", path("resume.jsonl")}).code, 3);
        const auto lines = reportLines(path("resume.jsonl"));
        for (int i = 0; i < 4; ++i)
            QCOMPARE(lines[i]["status"].toString(), QString("skipped"));
        QCOMPARE(QFileInfo(path("g0.h5")).lastModified(), before);
    }

    void shardsCoverEveryLineExactlyOnce_data() {
        QTest::addColumn<QString>("how");
        QTest::newRow("--shard") << "shard";
        QTest::newRow("slurm array") << "slurm";
        QTest::newRow("mpi ranks") << "mpi";
    }

    void shardsCoverEveryLineExactlyOnce() {
        QFETCH(QString, how);
        const QString m = writeManifest();
        QList<int> seen;
        for (int i = 0; i < 3; ++i) {
            const QString report = path(QString("%1-%2.jsonl").arg(how).arg(i));
            QFile::remove(report);
            QStringList args{"batch", m, "--report", report};
            QMap<QString, QString> env;
            if (how == "shard") args << "--shard" << QString("%1/3").arg(i);
            if (how == "slurm")
                env = {{"SLURM_ARRAY_TASK_ID", QString::number(i)},
                       {"SLURM_ARRAY_TASK_COUNT", "3"}};
            if (how == "mpi") {
                args << "--mpi";
                env = {{"OMPI_COMM_WORLD_RANK", QString::number(i)}, {"OMPI_COMM_WORLD_SIZE", "3"}};
            }
            cli(args, env);
            for (const QJsonObject& line : reportLines(report))
                seen.append(line["line"].toInt());
        }
        std::sort(seen.begin(), seen.end());
        QCOMPARE(seen, QList<int>({0, 1, 2, 3, 4, 5}));
    }

    // A real mpirun (Debian's openmpi-bin) with two ranks: each line once, both ranks used, the
    // failing lines reported; again with --resume: nothing redone.
    void mpirunRunsEveryLineOnce() {
        const QString mpirun = QStandardPaths::findExecutable("mpirun");
        if (mpirun.isEmpty())
            QSKIP("mpirun not found (install Debian's openmpi-bin); the rank variables are "
                  "covered by shardsCoverEveryLineExactlyOnce");
        const QString m = writeManifest(), report = path("mpi.jsonl");
        for (int i = 0; i < 4; ++i)
            QFile::remove(path(QString("g%1.h5").arg(i)));
        for (const bool resume : {false, true}) {
            QFile::remove(report);
            QStringList args{"--allow-run-as-root",
                             "--oversubscribe",
                             "-np",
                             "2",
                             qEnvironmentVariable("CLSCOPE_CLI"),
                             "batch",
                             m,
                             "--mpi",
                             "--report",
                             report};
            if (resume) args << "--resume";
            QProcess p;
            p.start(mpirun, args);
            QVERIFY(p.waitForFinished(120000));
            QVERIFY(p.exitCode() != 0); // two lines fail, so some rank exits 1
            const auto lines = reportLines(report);
            QList<int> seen;
            QSet<QString> shards;
            for (const QJsonObject& line : lines) {
                seen.append(line["line"].toInt());
                shards.insert(line["shard"].toString());
                if (line["line"].toInt() < 4)
                    QCOMPARE(line["status"].toString(), QString(resume ? "skipped" : "ok"));
            }
            std::sort(seen.begin(), seen.end());
            QCOMPARE(seen, QList<int>({0, 1, 2, 3, 4, 5}));
            QCOMPARE(shards, QSet<QString>({"0/2", "1/2"}));
            for (int i = 0; i < 4; ++i)
                QVERIFY(QFile::exists(path(QString("g%1.h5").arg(i))));
        }
    }

    // Hangs and lost data (6, 7, 12, 19): a line running batch (731 nested processes), a line
    // writing the manifest or the report, the report being the manifest, a folder as manifest.
    void selfReferencesRefused() {
        const QString m = path("self.jsonl"), report = path("self_report.jsonl");
        const QString gen =
            R"(["generate", "xpcs", "--frames", "2", "--height", "8", "--width", "8", "-o", "%1"])";
        const QByteArray text = (QString(R"(["batch", "%1"])").arg(m) + "\n" + gen.arg(m) + "\n" +
                                 gen.arg(report) + "\n" + R"(["devices", "a\u0000b"])" + "\n")
                                    .toUtf8();
        QFile f(m);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(text), f.close();
        QCOMPARE(cli({"batch", m, "--report", report}).code, 3);
        const auto lines = reportLines(report);
        QCOMPARE(lines.size(), 4);
        for (const QJsonObject& line : lines)
            QVERIFY2(line["exit_code"].toInt() == 2, qPrintable(line["error"].toString()));
        QCOMPARE(cli({"batch", m, "--report", m}).code, 2);
        QCOMPARE(cli({"batch", tmp.path()}).code, 3);
        QFile back(m);
        QVERIFY(back.open(QIODevice::ReadOnly));
        QCOMPARE(back.readAll(), text);
    }

    // Lost work (13): --resume skips a line only when its output is a complete output of that
    // command, whichever spelling of -o the line uses.
    void resumeKnowsCompleteOutputs() {
        const QString a = path("ra.h5"), b = path("rb.h5"), other = path("rother.h5");
        const QStringList tinyXpcs{"generate", "xpcs",    "--frames", "2", "--height",
                                   "8",        "--width", "8",        "-o"};
        QCOMPARE(cli(tinyXpcs + QStringList{other}).code, 0); // another command's output
        const QString gen =
            R"(["generate", "xpcs", "--frames", "12", "--height", "24", "--width", "20", "--ring-width", "4", %1])";
        QFile f(path("complete.jsonl"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write((gen.arg(QString(R"("--output=%1")").arg(a)) + "\n" +
                 gen.arg(QString(R"("-o%1")").arg(b)) + "\n" +
                 QString(R"(["correlate", "%1", "--device", "cpu", "-o", "%2"])").arg(a, other) +
                 "\n")
                    .toUtf8());
        f.close();
        const Run first = cli({"batch", f.fileName()});
        QVERIFY2(first.code == 0, qPrintable(first.err));
        QFile::remove(other);
        QCOMPARE(cli(tinyXpcs + QStringList{other}).code, 0);
        QCOMPARE(cli({"batch", f.fileName(), "--resume", "--report", path("rr.jsonl")}).code, 0);
        const auto lines = reportLines(path("rr.jsonl"));
        QCOMPARE(lines.size(), 3);
        QCOMPARE(lines[0]["status"].toString(), QString("skipped"));
        QCOMPARE(lines[1]["status"].toString(), QString("skipped"));
        QCOMPARE(lines[2]["status"].toString(), QString("ok")); // frames are not correlate's
    }

    void badOptions() {
        const QString m = writeManifest();
        QCOMPARE(cli({"batch", m, "--shard", "3/3"}).code, 2);
        QCOMPARE(cli({"batch", m, "--shard", "x"}).code, 2);
        QCOMPARE(cli({"batch", m, "--mpi"}).code, 2); // not under mpirun
        QCOMPARE(cli({"batch", path("nope.jsonl")}).code, 3);
    }
};

QTEST_GUILESS_MAIN(TestBatch)
#include "tst_batch.moc"
