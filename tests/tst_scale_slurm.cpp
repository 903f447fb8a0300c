// A real `sbatch --array` of scripts/slurm/clscope-array.sbatch on a one-node SLURM cluster
// started for the test (scripts/slurm/local-cluster: Debian's slurm-wlm, auth/none): every
// manifest line runs once over the array tasks, the bad line is reported, and the resubmitted
// array (the template passes --resume) redoes nothing. Skipped, saying why, when slurmctld and
// slurmd are not installed or do not come up within a minute.
#include "batch_report.hpp"
#include "test_util.hpp"

#include <QDir>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QStandardPaths>

namespace {

QString scriptsDir() {
    return QDir(QString::fromStdString(clscope::test::dataFile("")))
        .absoluteFilePath("../../scripts/slurm");
}

struct Done {
    int code;
    QString output;
};

Done runTool(const QString& program, const QStringList& args, const QStringList& env = {},
             int timeoutMs = 90000) {
    QProcess p;
    QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
    for (const QString& kv : env)
        e.insert(kv.section('=', 0, 0), kv.section('=', 1));
    p.setProcessEnvironment(e);
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(program, args);
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
        return {-1, "timed out"};
    }
    return {p.exitCode(), QString::fromUtf8(p.readAll()).trimmed()};
}

// Every report line the array tasks wrote into dir (batch's reportLines, file by file).
QList<QJsonObject> reports(const QString& dir) {
    QList<QJsonObject> out;
    for (const QString& name : QDir(dir).entryList({"clscope-report-*.jsonl"}))
        out += reportLines(QDir(dir).filePath(name));
    return out;
}

} // namespace

class TestScaleSlurm : public QObject {
    Q_OBJECT
    QTemporaryDir tmp;
    QString cluster, env;

    QString writeManifest() {
        QFile f(tmp.filePath("experiment.jsonl"));
        f.open(QIODevice::WriteOnly);
        for (int i = 0; i < 5; ++i)
            f.write(QString(R"(["generate", "digis", "--modules", "4", "--seed", "%1", "-o", "%2"])"
                            "\n")
                        .arg(i)
                        .arg(tmp.filePath(QString("d%1.h5").arg(i)))
                        .toUtf8());
        f.write(R"(["cluster", "no-such-file.h5", "-o", "never.h5"])"
                "\n");
        return f.fileName();
    }

  private slots:
    void initTestCase() {
        cluster = tmp.filePath("cluster");
        const Done up = runTool("bash", {scriptsDir() + "/local-cluster", "start", cluster});
        if (up.code != 0)
            QSKIP(qPrintable("no one-node SLURM cluster here (scripts/slurm/local-cluster): " +
                             up.output));
        env = "SLURM_CONF=" + cluster + "/slurm.conf";
    }

    void cleanupTestCase() {
        if (!env.isEmpty()) runTool("bash", {scriptsDir() + "/local-cluster", "stop", cluster});
    }

    void arrayRunsEveryLineOnceAndResumes() {
        const QString manifest = writeManifest(), work = tmp.filePath("work");
        QDir().mkpath(work);
        for (const bool again : {false, true}) {
            for (const QString& name : QDir(work).entryList({"clscope-report-*"}))
                QFile::remove(QDir(work).filePath(name));
            // The template asks for a GPU and 4 CPUs; this test node has neither to give.
            const Done job =
                runTool("sbatch",
                        {"--wait", "--array=0-2", "--gres=none", "--cpus-per-task=1", "--chdir",
                         work, scriptsDir() + "/clscope-array.sbatch", manifest},
                        {env, "CLSCOPE_CLI=" + qEnvironmentVariable("CLSCOPE_CLI")}, 120000);
            QVERIFY2(job.code != 0, qPrintable(job.output)); // the task with the bad line fails
            QVERIFY2(job.output.startsWith("Submitted batch job"), qPrintable(job.output));
            QList<int> seen;
            QSet<QString> shards;
            for (const QJsonObject& line : reports(work)) {
                seen.append(line["line"].toInt());
                shards.insert(line["shard"].toString());
                const int index = line["line"].toInt();
                const QString want = index == 5 ? "failed" : again ? "skipped" : "ok";
                QCOMPARE(line["status"].toString(), want);
            }
            std::sort(seen.begin(), seen.end());
            QCOMPARE(seen, QList<int>({0, 1, 2, 3, 4, 5}));
            QCOMPARE(shards, QSet<QString>({"0/3", "1/3", "2/3"}));
            for (int i = 0; i < 5; ++i)
                QVERIFY(QFile::exists(tmp.filePath(QString("d%1.h5").arg(i))));
        }
    }
};

QTEST_GUILESS_MAIN(TestScaleSlurm)
#include "tst_scale_slurm.moc"
