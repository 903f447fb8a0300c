// The kernel lab (clscope-cli lab, DESIGN.md §4) on PoCL, through rbf's `tiled` program
// (resources/kernels/rbf_tiled.cl, the seed bench case): a fork checked and timed beside its base,
// wrong and broken kernels reported with their exit codes, a kernel that never finishes stopped, a
// sweep (each row with its kernels' OpenCL figures and compiled output), and user variants saved,
// listed and run by other commands.
#include "test_util.hpp"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>

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

const QString kernelLine = "rbf_store(out, first + u * RBF_WG, sum[u]);";

} // namespace

class TestLab : public QObject {
    Q_OBJECT
    QTemporaryDir dir;
    QMap<QString, QString> env;
    QString printed; // rbf tiled's program as --print-source writes it

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
            QStringList{"lab", "rbf", "--from", "tiled", "--device", "ocl:0", "--repeat", "2"} +
                args,
            env, timeoutMs);
    }

  private slots:
    void initTestCase() {
        QVERIFY(dir.isValid());
        env["CLSCOPE_USER_VARIANTS"] = file("variants");
        const auto run =
            runCli({"lab", "rbf", "--from", "tiled", "--device", "ocl:0", "--print-source"}, env);
        QCOMPARE(run.code, 0);
        printed = run.out;
        QVERIFY2(printed.contains(
                     QRegularExpression("\n// tunable RBF_WG = \\d+ \\(allowed: 1..1024\\)")),
                 qPrintable(printed));
        QVERIFY(printed.contains("__kernel") && printed.contains(kernelLine));
    }
    void forkUnchangedPassesBesideItsBase() {
        writeText(file("same.cl"), printed);
        const auto run = lab({"--source", file("same.cl"), "--json", file("same.json")});
        QVERIFY2(run.code == 0, qPrintable(run.out + run.err));
        const QJsonArray rows = rowsOf(file("same.json"));
        QCOMPARE(rows.size(), 2);
        QCOMPARE(rows[0].toObject()["label"].toString(), QString("tiled"));
        for (const auto& row : rows) {
            const QJsonObject r = row.toObject();
            QCOMPARE(r["check"].toString(), QString("pass"));
            QCOMPARE(r["source_sha256"].toString().size(), 64);
            QVERIFY(r["median_ms"].toDouble() > 0 &&
                    r["p80_ms"].toDouble() >= r["p20_ms"].toDouble());
        }
        // The printed values are the host's on this device (RBF_WG 64 on a CPU, not the
        // declared 128) and the header is not built: an unchanged fork is its base's program,
        // the same text built with the same options, and gives the same figures.
        const QJsonObject base = rows[0].toObject(), fork = rows[1].toObject();
        QCOMPARE(fork["source_sha256"].toString(), base["source_sha256"].toString());
        const auto optionsOf = [](const QJsonObject& row) {
            return row["programs"].toArray()[0].toObject()["options"].toString();
        };
        QVERIFY(!optionsOf(base).isEmpty());
        QCOMPARE(optionsOf(fork), optionsOf(base));
        QCOMPARE(fork["tunables"].toObject(), base["tunables"].toObject());
        QVERIFY2(printed.contains("// tunable RBF_WG = " +
                                  base["tunables"].toObject()["RBF_WG"].toString() + " "),
                 qPrintable(optionsOf(base)));
        QCOMPARE(fork["max_deviation"].toDouble(), base["max_deviation"].toDouble());
        const auto diff =
            runCli({"lab-diff", file("same.json") + ":0", file("same.json") + ":1"}, env);
        QVERIFY2(diff.code == 0 && diff.out.contains("source: the same") &&
                     diff.out.contains("options: the same"),
                 qPrintable(diff.out + diff.err));
    }
    // Issue 40: every built-in OpenCL variant of every algorithm (as `variants ALGO` lists
    // them), forked unchanged, passes its check beside its base on a small generated input:
    // the same program (sha256) and the same deviation. A variant that cannot run here with the
    // input's default parameters is refused with its reason (exit 2: mma needs an NVIDIA GPU,
    // multitau --multitau, spots extended dispersion_extended, rbf separable --planes targets);
    // each algorithm has at least one that runs.
    void everyVariantForkedUnchangedPasses_data() {
        QTest::addColumn<QString>("algorithm");
        QTest::addColumn<QStringList>("generate");
        QTest::newRow("xpcs") << "xpcs" << QStringList{"xpcs", "--frames", "40", "--height",
                                                       "48",   "--width",  "48"};
        QTest::newRow("spots") << "spots"
                               << QStringList{"diffraction", "--frames", "2",  "--height",
                                              "128",         "--width",  "128"};
        QTest::newRow("cluster") << "cluster" << QStringList{"digis", "--modules", "64"};
        QTest::newRow("rbf") << "rbf"
                             << QStringList{"particles", "--sources", "50", "--grid-points", "40"};
    }
    void everyVariantForkedUnchangedPasses() {
        QFETCH(QString, algorithm);
        QFETCH(QStringList, generate);
        const QString input = file(algorithm + "_small.h5");
        const auto made = runCli(QStringList{"generate"} + generate + QStringList{"-o", input});
        QVERIFY2(made.code == 0, qPrintable(made.err));
        const auto listed = runCli({"variants", algorithm}, env);
        QVERIFY2(listed.code == 0, qPrintable(listed.err));
        // What a variant needs beyond the input's defaults, given as a user would (--params,
        // --tune): without it each is refused with the reason (exit 2).
        const QMap<QString, QStringList> needs{
            {"xpcs/multitau", {"--params", R"({"multitau": true})"}},
            {"xpcs/sparse", {"--params", R"({"multitau": true})"}},
            {"xpcs/mma", {"--tune", "MMA_EMULATE=1"}},
            {"spots/extended", {"--params", R"({"threshold_algorithm": "dispersion_extended"})"}},
            {"rbf/separable", {"--params", R"({"planes": 40})"}}};
        int ran = 0;
        for (const QString& line : listed.out.split('\n', Qt::SkipEmptyParts)) {
            const QString variant = line.section('\t', 0, 0);
            const bool host = line.section('\t', 2, 2).startsWith("device cpu");
            if (host || variant.startsWith("user:")) continue; // no kernel to fork
            const QString json = file(algorithm + "_" + variant + ".json");
            // PoCL compiles a kernel's work-group function at its first launch, which the
            // kernel watch counts: cmssw's took past 30 s on a loaded 2-core machine with a cold
            // cache. This test is about forks, not time limits (tst_reliability has those).
            const QStringList args{"lab", algorithm,  "--from", variant,
                                   input, "--device", "ocl:0",  "--repeat",
                                   "1",   "--json",   json,     "--kernel-timeout",
                                   "300"};
            const QStringList extra = needs.value(algorithm + "/" + variant);
            if (!extra.isEmpty()) {
                const auto refused = runCli(args, env);
                QVERIFY2(refused.code == 2 && refused.err.contains("cannot run on ocl:0"),
                         qPrintable(variant + ": " + refused.err));
            }
            const auto run = runCli(args + extra, env);
            QVERIFY2(run.code == 0, qPrintable(variant + ": " + run.out + run.err));
            const QJsonArray rows = rowsOf(json);
            QCOMPARE(rows.size(), 2);
            const QJsonObject base = rows[0].toObject(), fork = rows[1].toObject();
            QCOMPARE(base["label"].toString(), variant);
            for (const QJsonObject& r : {base, fork})
                QVERIFY2(r["check"].toString() == "pass", qPrintable(variant));
            QCOMPARE(fork["source_sha256"].toString(), base["source_sha256"].toString());
            QCOMPARE(fork["max_deviation"].toDouble(), base["max_deviation"].toDouble());
            if (extra.contains("--params")) // every row ran with them, and says so
                QVERIFY2(!fork["params"].toObject().isEmpty(), qPrintable(variant));
            ++ran;
        }
        QVERIFY2(ran >= 2, qPrintable(listed.out));
    }
    void rooflineAgainstTheMeasuredPeaks() { // declared work / median time, kept peaks
        const QString peaksFile = file("variants/lab_peaks.json");
        QFile::remove(peaksFile);
        const auto run = lab({"--json", file("roof.json")});
        QVERIFY2(run.code == 0 && run.out.contains("roofline: "), qPrintable(run.out + run.err));
        QVERIFY(QFile::exists(peaksFile));
        const QJsonArray rows = rowsOf(file("roof.json"));
        for (const auto& row : rows) {
            const QJsonObject f = row.toObject()["roofline"].toObject();
            const double seconds = row.toObject()["median_ms"].toDouble() * 1e-3;
            QCOMPARE(row.toObject()["programs"].toArray().size(), 1); // the probes are not listed
            for (const char* key :
                 {"work_bytes", "work_operations", "peak_bytes_per_s", "peak_operations_per_s",
                  "bandwidth_fraction", "compute_fraction"})
                QVERIFY2(f[key].toDouble() > 0 && std::isfinite(f[key].toDouble()), key);
            QCOMPARE(f["achieved_bytes_per_s"].toDouble(), f["work_bytes"].toDouble() / seconds);
            QCOMPARE(f["achieved_operations_per_s"].toDouble(),
                     f["work_operations"].toDouble() / seconds);
            QCOMPARE(f["bandwidth_fraction"].toDouble(),
                     f["achieved_bytes_per_s"].toDouble() / f["peak_bytes_per_s"].toDouble());
            QCOMPARE(f["compute_fraction"].toDouble(), f["achieved_operations_per_s"].toDouble() /
                                                           f["peak_operations_per_s"].toDouble());
            QCOMPARE(f["work_bytes"].toDouble(),
                     rows[0].toObject()["roofline"].toObject()["work_bytes"].toDouble());
        }
        // Kept per device and reused: a kept value comes back as it is; --probe-peaks measures.
        QJsonObject kept = QJsonDocument::fromJson(readText(peaksFile).toUtf8()).object();
        QCOMPARE(kept.size(), 1);
        QJsonObject device = kept.begin().value().toObject();
        device["bytes_per_s"] = 1e18;
        kept[kept.begin().key()] = device;
        writeText(peaksFile, QJsonDocument(kept).toJson());
        const auto reused = lab({"--json", file("reused.json")});
        QVERIFY2(reused.code == 0, qPrintable(reused.out + reused.err));
        const auto peakOf = [&](const QString& json) {
            return rowsOf(json)[1].toObject()["roofline"].toObject()["peak_bytes_per_s"].toDouble();
        };
        QCOMPARE(peakOf(file("reused.json")), 1e18);
        const auto probed = lab({"--probe-peaks", "--json", file("probed.json")});
        QVERIFY2(probed.code == 0, qPrintable(probed.out + probed.err));
        QVERIFY(peakOf(file("probed.json")) > 0 && peakOf(file("probed.json")) < 1e18);
    }
    void figuresAndCompiledOutputOfEachBuild() { // CL_KERNEL_* and CL_PROGRAM_BINARIES
        const auto run = lab({"--binary", file("bin"), "--json", file("figures.json")});
        QVERIFY2(run.code == 0, qPrintable(run.out + run.err));
        QVERIFY2(run.out.contains("kernels (OpenCL)"), qPrintable(run.out));
        const QJsonArray rows = rowsOf(file("figures.json"));
        QCOMPARE(rows.size(), 2);
        for (const auto& row : rows) {
            const QJsonArray programs = row.toObject()["programs"].toArray();
            QCOMPARE(programs.size(), 1);
            const QJsonObject p = programs[0].toObject();
            QCOMPARE(p["program"].toString(), QString("rbf_tiled"));
            // The values as built: the host's per-device ones too (RBF_WG 64 on a CPU).
            const QString wg = row.toObject()["tunables"].toObject()["RBF_WG"].toString();
            QVERIFY2(p["options"].toString().contains(" -DRBF_WG=" + wg + " "),
                     qPrintable(wg + ": " + p["options"].toString()));
            QVERIFY(!p["options"].toString().contains("-cl-nv-verbose")); // PoCL is not NVIDIA
            const QJsonArray kernels = p["kernels"].toArray();
            QVERIFY(!kernels.isEmpty());
            for (const auto& k : kernels) {
                const QJsonObject o = k.toObject();
                QVERIFY2(run.out.contains(o["name"].toString()), qPrintable(run.out));
                QVERIFY(o["work_group_size"].toInteger() >= 1);
                QVERIFY(o["preferred_work_group_size_multiple"].toInteger() >= 1);
            }
            // The compiled output, whole: its size as the API gave it (text loses its end NULs).
            const QString out = p["binary_file"].toString();
            QVERIFY2(out.startsWith(file("bin/")) && QFile::exists(out), qPrintable(out));
            const qint64 bytes = QFileInfo(out).size();
            QVERIFY(bytes > 0 && bytes <= p["binary_bytes"].toInteger());
            if (!p["binary_text"].toBool()) QCOMPARE(bytes, p["binary_bytes"].toInteger());
        }
        QVERIFY(rows[0].toObject()["programs"].toArray()[0].toObject()["binary_file"] !=
                rows[1].toObject()["programs"].toArray()[0].toObject()["binary_file"]);
    }
    void coldCacheWritesTheCacheBeforeEachRun() {
        const auto run = lab({"--cold-cache", "--json", file("cold.json")});
        QVERIFY2(run.code == 0, qPrintable(run.out + run.err));
        const QJsonArray rows = rowsOf(file("cold.json"));
        const qint64 bytes = rows[0].toObject()["cold_cache_bytes"].toInteger();
        QVERIFY(bytes > 0 && bytes == rows[1].toObject()["cold_cache_bytes"].toInteger());
        QVERIFY2(run.out.contains(QString("cold cache: %1 bytes").arg(bytes)), qPrintable(run.out));
        for (const auto& row : rows)
            QCOMPARE(row.toObject()["check"].toString(), QString("pass"));
        QCOMPARE(rowsOf(file("figures.json"))[0].toObject()["cold_cache_bytes"].toInteger(), 0);
    }
    void wrongKernelFailsWithItsDeviation() {
        const QString source =
            forkWith("wrong", kernelLine, "rbf_store(out, first + u * RBF_WG, sum[u] + 1);");
        const auto run = lab({"--source", source, "--json", file("wrong.json")});
        QVERIFY2(run.code == 1, qPrintable(run.out + run.err));
        QVERIFY(run.out.contains("FAIL"));
        const QJsonObject fork = rowsOf(file("wrong.json"))[1].toObject();
        QCOMPARE(fork["check"].toString(), QString("fail"));
        QVERIFY(fork["max_deviation"].toDouble() > 0);
        QVERIFY(!fork["deviation"].toObject()["first_where"].toString().isEmpty());
    }
    void kernelWritingNothingFails() { // outputs poisoned: nothing stale or zero can pass
        const QString source = forkWith("empty", "if (first + u * RBF_WG < targetCount) rbf_store",
                                        "if (targetCount == 0) rbf_store");
        const auto run = lab({"--source", source});
        QVERIFY2(run.code == 1, qPrintable(run.out + run.err));
    }
    void syntaxErrorNamesTheLine() {
        QStringList lines = printed.split('\n');
        const int at =
            int(lines.indexOf(QRegularExpression(".*const uint first = \\(firstGroup.*")));
        QVERIFY(at > 0);
        lines[at] = "    const uint first = this is not C;";
        writeText(file("broken.cl"), lines.join('\n'));
        const auto run = lab({"--source", file("broken.cl")});
        QVERIFY2(run.code == 4, qPrintable(run.out + run.err));
        const QString where = file("broken.cl") + ":" + QString::number(at + 1) + ":";
        QVERIFY2(run.err.contains(where), qPrintable(where + "\n" + run.err));
    }
    // A fork that did not build lists the values it was to be built with: the host's where the
    // input sets them (multi-tau's ring type: int for this input, declared long), as its base.
    void unbuiltForkListsTheHostsValues() {
        const QStringList common{"lab",      "xpcs",     "--from",
                                 "multitau", "--params", R"({"multitau": true})",
                                 "--device", "ocl:0"};
        const auto printedMt = runCli(common + QStringList{"--print-source"}, env);
        QVERIFY2(printedMt.code == 0, qPrintable(printedMt.err));
        writeText(file("mt_broken.cl"), printedMt.out + "\nint broken = missing_name;\n");
        const auto run = runCli(common + QStringList{"--source", file("mt_broken.cl"), "--repeat",
                                                     "1", "--json", file("mt_broken.json")},
                                env);
        QVERIFY2(run.code == 4, qPrintable(run.out + run.err));
        const QJsonArray rows = rowsOf(file("mt_broken.json"));
        QCOMPARE(rows[1].toObject()["check"].toString(), QString("not run"));
        const QJsonObject base = rows[0].toObject()["tunables"].toObject();
        const QJsonObject fork = rows[1].toObject()["tunables"].toObject();
        QCOMPARE(base["RING_T"].toString(), QString("int"));
        for (const QString& name : {"RING_T", "DATA_T", "ACC_T"})
            QCOMPARE(fork[name].toString(), base[name].toString());
    }
    void neverFinishingKernelIsStopped() {
        const QString source =
            forkWith("spin", "planes, step, origin, coordScale);",
                     "planes, step, origin, coordScale); { volatile int s = 1; while (s) {} }");
        QElapsedTimer clock;
        clock.start();
        const auto run = lab({"--source", source, "--kernel-timeout", "5"}, 90000);
        QVERIFY2(run.code == 4, qPrintable(run.out + run.err));
        QVERIFY2(run.err.contains("the kernel did not finish in 5 s"), qPrintable(run.err));
        QVERIFY2(clock.elapsed() < 60000, qPrintable(QString::number(clock.elapsed())));
    }
    void sweepGivesOneCheckedRowPerValue() {
        const auto run = lab({"--sweep", "RBF_WG=32,64", "--json", file("sweep.json")});
        QVERIFY2(run.code == 0, qPrintable(run.out + run.err));
        const QJsonArray rows = rowsOf(file("sweep.json"));
        QCOMPARE(rows.size(), 3);
        const QStringList values{"", "32", "64"}; // the base: the host's value for the device
        std::vector<qint64> local;                // the tile's local memory: RBF_WG sources staged
        for (int i = 0; i < rows.size(); ++i) {
            const QJsonObject r = rows[i].toObject();
            QCOMPARE(r["check"].toString(), QString("pass"));
            const QString wg = r["tunables"].toObject()["RBF_WG"].toString();
            QVERIFY(i == 0 || wg == values[i]);
            const QJsonObject p = r["programs"].toArray()[0].toObject();
            QVERIFY(p["options"].toString().contains("-DRBF_WG=" + wg + " "));
            local.push_back(p["kernels"].toArray()[0].toObject()["local_mem_bytes"].toInteger());
        }
        QVERIFY2(local[1] > 0 && local[1] < local[2],
                 qPrintable(QString("%1 %2").arg(local[1]).arg(local[2])));
        for (const auto& row : rows)
            QVERIFY(!row.toObject()["cached"].toBool()); // a new cache
    }
    void sweepRunAgainMeasuresOnlyNewValues() {                                // the sweep cache
        const QJsonObject measured = rowsOf(file("sweep.json"))[2].toObject(); // RBF_WG=64
        const auto run = lab({"--sweep", "RBF_WG=64,16", "--json", file("again.json")});
        QVERIFY2(run.code == 0, qPrintable(run.out + run.err));
        QVERIFY2(run.out.contains("from the sweep cache (measured before, not again; --no-cache "
                                  "measures them): fork RBF_WG=64\n"),
                 qPrintable(run.out));
        const QJsonArray rows = rowsOf(file("again.json"));
        QCOMPARE(rows.size(), 3);
        QVERIFY(!rows[0].toObject()["cached"].toBool()); // the base: measured beside them
        const QJsonObject cached = rows[1].toObject();
        QVERIFY(cached["cached"].toBool() && !rows[2].toObject()["cached"].toBool());
        for (const char* key : {"min_ms", "median_ms", "p20_ms", "p80_ms"})
            QCOMPARE(cached[key].toDouble(), measured[key].toDouble());
        QCOMPARE(cached["programs"], measured["programs"]);
        const auto fresh =
            lab({"--sweep", "RBF_WG=64,16", "--no-cache", "--json", file("no.json")});
        QVERIFY2(fresh.code == 0 && !fresh.out.contains("sweep cache"), qPrintable(fresh.out));
        for (const auto& row : rowsOf(file("no.json")))
            QVERIFY(!row.toObject()["cached"].toBool());
    }
    void labDiffSaysWhatChanged() { // two rows: of a sweep, and a fork beside its base
        const auto sweep =
            runCli({"lab-diff", file("sweep.json") + ":1", file("sweep.json") + ":2"}, env);
        QVERIFY2(sweep.code == 0, qPrintable(sweep.out + sweep.err));
        for (const char* expected : {"tunables:\n  RBF_WG: 32 -> 64\n", "source: the same",
                                     "options: ", "local_mem_bytes: ", "compiled output: "})
            QVERIFY2(sweep.out.contains(expected),
                     qPrintable(expected + QString("\n") + sweep.out));
        const QJsonArray rows = rowsOf(file("sweep.json"));
        const auto localOf = [&](int row) {
            return rows[row]
                .toObject()["programs"]
                .toArray()[0]
                .toObject()["kernels"]
                .toArray()[0]
                .toObject()["local_mem_bytes"]
                .toInteger();
        };
        QVERIFY(sweep.out.contains(
            QString("local_mem_bytes: %1 -> %2\n").arg(localOf(1)).arg(localOf(2))));
        const auto fork =
            runCli({"lab-diff", file("wrong.json") + ":0", file("wrong.json") + ":-1"}, env);
        QVERIFY2(fork.code == 0, qPrintable(fork.out + fork.err));
        QVERIFY2(fork.out.contains("source: differ\n") &&
                     fork.out.contains(
                         QRegularExpression("\n  -[^\n]*rbf_store\\(out, first \\+ u \\* RBF_WG, "
                                            "sum\\[u\\]\\);\n  \\+[^\n]*rbf_store\\(out, "
                                            "first \\+ u \\* RBF_WG, sum\\[u\\] \\+ 1\\);\n")) &&
                     fork.out.contains("check: pass") && fork.out.contains("-> fail"),
                 qPrintable(fork.out));
        QCOMPARE(
            runCli({"lab-diff", file("sweep.json") + ":3", file("sweep.json") + ":0"}, env).code,
            2);
        QCOMPARE(runCli({"lab-diff", file("sweep.json"), file("sweep.json") + ":0"}, env).code, 2);
        QCOMPARE(
            runCli({"lab-diff", file("absent.json") + ":0", file("sweep.json") + ":0"}, env).code,
            3);
    }
    void badSetsAreUsageErrors() {
        QCOMPARE(lab({"--set", "NOPE=1"}).code, 2);
        QCOMPARE(lab({"--set", "RBF_WG=0"}).code, 2);
        QCOMPARE(runCli({"lab", "rbf", "--from", "cpu", "--print-source"}, env).code, 2);
        QCOMPARE(lab({"--source", file("absent.cl")}).code, 3);
    }
    void savedUserVariantIsListedAndRuns() {
        const auto saved = lab({"--set", "RBF_WG=64", "--save", "four"});
        QVERIFY2(saved.code == 0, qPrintable(saved.out + saved.err));
        QVERIFY(QFile::exists(file("variants/rbf/four.cl")));
        QVERIFY(readText(file("variants/rbf/four.json")).contains("\"RBF_WG\": \"64\""));
        const auto listed = runCli({"variants", "rbf"}, env);
        QVERIFY2(listed.out.contains("user:four\tthe user's fork of tiled"),
                 qPrintable(listed.out));
        QCOMPARE(runCli({"generate", "particles", "-o", file("in.h5"), "--sources", "200",
                         "--grid-points", "16"},
                        env)
                     .code,
                 0);
        const auto ran = runCli({"rbf", file("in.h5"), "--variant", "user:four", "--device",
                                 "ocl:0", "-o", file("o.h5")},
                                env);
        QVERIFY2(ran.code == 0 && ran.out.contains("user:four"), qPrintable(ran.out + ran.err));
    }
    void userVariantSourceIsTheOneBuilt() { // a wrong saved source fails wherever it runs
        writeText(file("variants/rbf/bad.cl"),
                  QString(printed).replace(kernelLine,
                                           "rbf_store(out, first + u * RBF_WG, sum[u] * 2);"));
        writeText(file("variants/rbf/bad.json"),
                  R"({"base": "tiled", "program": "rbf_tiled", "tunables": {}})");
        // bench runs it as its base variant (checked as the base: it once said "no rbf
        // variant 'user:bad'") with the saved source, so its check fails.
        const auto bench = runCli(
            {"bench", "rbf", "--variant", "user:bad", "--device", "ocl:0", "--repeat", "1"}, env);
        QVERIFY2(bench.code == 0 && bench.out.contains("FAIL"), qPrintable(bench.out + bench.err));
        QCOMPARE(runCli({"lab", "rbf", "--from", "user:bad", "--repeat", "1"}, env).code, 1);
        QCOMPARE(
            runCli({"rbf", file("in.h5"), "--variant", "user:none", "-o", file("x.h5")}, env).code,
            2);
    }
};

QTEST_GUILESS_MAIN(TestLab)
#include "tst_lab.moc"
