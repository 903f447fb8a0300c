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
        QCOMPARE(r.code, 1); // not every line succeeded
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
        QCOMPARE(cli({"batch", m}).code, 1);
        const QDateTime before = QFileInfo(path("g0.h5")).lastModified();
        QCOMPARE(cli({"batch", m, "--resume", "--report", path("resume.jsonl")}).code, 1);
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
