// clscope-cli average (DESIGN.md §5 "Averaging"): 8 series cut from one stationary synthetic
// run (brownian, 640 frames of 64x64), each correlated, averaged; planted bad series rejected
// by the right rule; runs of another q partition or other lags refused as bad input naming the
// difference; the weights combine the runs' sums as docs/design/semantics.md says.
#include "core/hdf5.hpp"
#include "core/xpcs/average_runs.hpp"
#include "core/xpcs/result_sums.hpp"
#include "core/xpcs/xpcs_io.hpp"
#include "test_util.hpp"

#include <QTemporaryDir>
#include <QtTest>
#include <cmath>

using namespace clscope;

namespace {

constexpr int seriesFrames = 80, seriesCount = 8;

QString planter() {
    return QString::fromStdString(test::dataFile("../xpcs_average_plant.py"));
}

xpcs::AverageRun readRun(const QString& file) {
    return xpcs::readAverageRun(file.toStdString());
}

// A 1-d dataset of byte strings, read by h5py (core reads no text datasets).
std::vector<std::string> texts(const QString& file, const std::string& path) {
    const QString python = qEnvironmentVariable("CLSCOPE_PYTHON", "/usr/bin/python3");
    const test::CliRun r = test::runProgram(python,
                                            {"-c",
                                             "import sys, h5py; print(repr([x.decode() for x in "
                                             "h5py.File(sys.argv[1], 'r')[sys.argv[2]][()]]))",
                                             file, QString::fromStdString(path)},
                                            {}, 60000);
    if (r.code != 0) qWarning("%s", qPrintable(r.err));
    std::vector<std::string> out;
    const QString list = r.out.trimmed().mid(1).chopped(1); // ['a', 'b']
    for (const QString& item : list.split(", ", Qt::SkipEmptyParts))
        out.push_back(item.mid(1).chopped(1).toStdString());
    return out;
}

} // namespace

class TestXpcsAverage : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString whole_, wholeResult_, skip_;
    QStringList series_; // the 8 correlated series

    QString path(const QString& name) const { return dir_.filePath(name); }
    void cli(const QStringList& args) {
        const test::CliRun r = test::runCli(args);
        if (r.code != 0) qWarning("%s", qPrintable(r.err));
        QCOMPARE(r.code, 0);
    }
    void plant(const QStringList& args) {
        QVERIFY(test::runPython(QStringList{planter()} + args, skip_));
        if (!skip_.isEmpty()) QSKIP(qPrintable(skip_));
    }
    // A series of `count` frames from `first` of `input` correlated on the cpu into `name`.
    QString correlate(const QString& input, const QString& name, int first = 0, int count = 0) {
        QStringList args{"correlate", input, "--device", "cpu", "-o", path(name)};
        if (count) args << "--frames" << QString("%1:%2").arg(first).arg(count);
        cli(args);
        return path(name);
    }
    test::CliRun average(const QStringList& runs, const QString& out,
                         const QStringList& more = {}) {
        return test::runCli(QStringList{"average"} + runs + more + QStringList{"-o", path(out)});
    }

  private slots:
    void initTestCase();
    void averageOfSeriesIsTheWholeRun();
    void oneRunAveragedIsItself();
    void badSeriesAreRejected();
    void everyRunRejectedWritesNothing();
    void otherPartitionOrLagsIsBadInput();
    void weightsCombineTheSums();
    void sumsAreKeptInEveryResult();
    void symmetricRunsAverageTheirSums();
};

void TestXpcsAverage::initTestCase() {
    QVERIFY(dir_.isValid());
    whole_ = path("whole.h5");
    cli({"generate", "xpcs", "-o", whole_, "--frames", QString::number(seriesFrames * seriesCount),
         "--height", "64", "--width", "64", "--seed", "3", "--intensity", "20", "--diffusion",
         "1e8"});
    wholeResult_ = correlate(whole_, "whole_g2.h5");
    for (int i = 0; i < seriesCount; ++i)
        series_ << correlate(whole_, QString("series%1.h5").arg(i), i * seriesFrames, seriesFrames);
}

// "Equal" here: at every bin and lag up to half a series (0..40 frames; each series holds at
// least 40 pairs there), |g2_avg − g2_whole| is within 2 of the average's error bars
// (g2_err_avg), their root mean square (lags 1..40) below 1, and the error bars within a factor
// 0.5..3 of the whole run's (the average lacks only the 7·τ pairs across the cuts); at the
// longer lags, where a series holds few pairs, within 4 error bars; no run is rejected.
void TestXpcsAverage::averageOfSeriesIsTheWholeRun() {
    const test::CliRun r = average(series_, "avg.h5");
    QVERIFY2(r.code == 0, qPrintable(r.err));
    const auto avg = readRun(path("avg.h5"));
    const auto whole = readRun(wholeResult_);
    QCOMPARE(avg.result.frames, std::size_t(seriesFrames));
    QCOMPARE(avg.result.labels, whole.result.labels);
    QCOMPARE(avg.sums.frames, std::size_t(seriesFrames * seriesCount));
    double squares = 0;
    for (std::size_t b = 0; b < avg.result.binCount(); ++b)
        for (std::size_t j = 0; j + 1 < avg.result.frames; ++j) { // lag 79: one pair a series
            const double g = avg.result.g2At(b, j), w = whole.result.g2At(b, j);
            const double e = avg.result.g2ErrAt(b, j), we = whole.result.g2ErrAt(b, j);
            const bool near = j <= 40;
            if (!(std::abs(g - w) <= (near ? 2 : 4) * e))
                QFAIL(qPrintable(QString("bin %1 lag %2: average %3 ± %4, whole %5")
                                     .arg(b)
                                     .arg(j)
                                     .arg(g)
                                     .arg(e)
                                     .arg(w)));
            if (j >= 1 && near && !(e >= 0.5 * we && e <= 3 * we))
                QFAIL(qPrintable(QString("bin %1 lag %2: error bars %3 against the whole run's %4")
                                     .arg(b)
                                     .arg(j)
                                     .arg(e)
                                     .arg(we)));
            if (j >= 1 && near) squares += (g - w) * (g - w) / (e * e);
        }
    QVERIFY(std::sqrt(squares / (40.0 * double(avg.result.binCount()))) < 1);
    QCOMPARE(texts(path("avg.h5"), "/xpcs/average/files").size(), std::size_t(seriesCount));
    QCOMPARE(texts(path("avg.h5"), "/xpcs/average/rejected/rule").size(), std::size_t(0));
    QCOMPARE(H5Reader(path("avg.h5").toStdString()).read("/xpcs/average/rejected/value").size(),
             std::size_t(0));
}

// The sums round trip: one run averaged gives its own g2 back (to 1e-12).
void TestXpcsAverage::oneRunAveragedIsItself() {
    const test::CliRun r = average({series_[0]}, "one.h5");
    QVERIFY2(r.code == 0, qPrintable(r.err));
    const auto one = readRun(path("one.h5")), run = readRun(series_[0]);
    for (std::size_t i = 0; i < run.result.g2.size(); ++i)
        QVERIFY2(std::abs(one.result.g2[i] - run.result.g2[i]) <= 1e-12 * run.result.g2[i],
                 qPrintable(QString::number(i)));
}

// A series whose g2 is 1.2 times (baseline 1.2), one whose intensity jumps by 40 % in the
// middle and one with its frames shuffled (decorrelated: its g2 far from the runs' median at
// most lags) among the 8 good ones: each rejected by its rule (the value beside it that rule's
// statistic), the good ones kept.
void TestXpcsAverage::badSeriesAreRejected() {
    plant({"scale", series_[0], path("bad_baseline.h5"), "1.2"});
    plant({"jump", whole_, path("jump_frames.h5"), "80", "80", "1.4"});
    plant({"shuffle", whole_, path("shuffled_frames.h5"), "160", "80", "5"});
    const QString jump = correlate(path("jump_frames.h5"), "bad_jump.h5");
    const QString shuffled = correlate(path("shuffled_frames.h5"), "bad_decorrelated.h5");
    const QStringList runs = series_ + QStringList{path("bad_baseline.h5"), jump, shuffled};
    const test::CliRun r = average(runs, "rejected.h5");
    QVERIFY2(r.code == 0, qPrintable(r.err));
    const QString out = path("rejected.h5");
    const auto files = texts(out, "/xpcs/average/rejected/file");
    const auto rules = texts(out, "/xpcs/average/rejected/rule");
    const Array values = H5Reader(out.toStdString()).read("/xpcs/average/rejected/value");
    QCOMPARE(texts(out, "/xpcs/average/files").size(), std::size_t(runs.size()));
    QCOMPARE(rules, (std::vector<std::string>{"baseline", "intensity_jump", "zscore"}));
    QCOMPARE(files, (std::vector<std::string>{path("bad_baseline.h5").toStdString(),
                                              jump.toStdString(), shuffled.toStdString()}));
    QVERIFY2(std::abs(values.as<double>()[0] - 1.2) < 0.03, "baseline near 1.2");
    // 40 % of the first half's intensity, 0.4 / 1.2 of the run's mean
    QVERIFY2(std::abs(values.as<double>()[1] - 0.4 / 1.2) < 0.03, "a jump of 40 %");
    QVERIFY(values.as<double>()[2] > 3.5);
}

void TestXpcsAverage::everyRunRejectedWritesNothing() {
    const test::CliRun r = average(series_, "none.h5", {"--baseline-max", "1.0"});
    QCOMPARE(r.code, 3);
    QVERIFY2(r.err.contains("every run was rejected"), qPrintable(r.err));
    QVERIFY(!QFile::exists(path("none.h5")));
    const QDir d(dir_.path());
    QVERIFY(d.entryList({"none.h5*", ".none.h5*"}, QDir::Files | QDir::Hidden).isEmpty());
}

// Another q partition (the top ring merged into the one below) and other lags (another frame
// time) are bad input naming the file and the difference; nothing is written.
void TestXpcsAverage::otherPartitionOrLagsIsBadInput() {
    plant({"relabel", whole_, path("relabelled.h5")});
    const QString other = correlate(path("relabelled.h5"), "other_bins.h5", 0, seriesFrames);
    test::CliRun r = average({series_[0], series_[1], other}, "bad_bins.h5");
    QCOMPARE(r.code, 3);
    QVERIFY2(r.err.contains(other) && r.err.contains("q bins 3 against 4"), qPrintable(r.err));
    QVERIFY(!QFile::exists(path("bad_bins.h5")));
    cli({"correlate", whole_, "--device", "cpu", "--frames", "0:80", "--frame-time", "0.002", "-o",
         path("slow.h5")});
    r = average({series_[0], path("slow.h5")}, "bad_lags.h5");
    QCOMPARE(r.code, 3);
    QVERIFY2(r.err.contains(path("slow.h5")) && r.err.contains("lag 1: tau 0.002 against 0.001"),
             qPrintable(r.err));
    r = average({series_[0], series_[1]}, "x.h5", {"--weights", "median"});
    QCOMPARE(r.code, 2);
    r = test::runCli({"average", series_[0], series_[1], "-o", series_[1]});
    QCOMPARE(r.code, 2); // never over an input
}

// Per bin and lag, with c_i = ω_i / P_i: g2 = n Σ c_i ΣN_i / Σ c_i ΣSS'_i (frame). frames: the
// sums added; equal: the runs' per-pair means; inverse-variance: ω_i = 1 / g2_err_i². With a
// run of 80 frames and one of 20, the three differ, and frames follows the longer run more.
void TestXpcsAverage::weightsCombineTheSums() {
    const QString shortRun = correlate(whole_, "short.h5", 400, 20);
    const QStringList runs{series_[0], shortRun};
    const xpcs::AverageRun a = readRun(series_[0]), b = readRun(shortRun);
    std::map<QString, xpcs::AverageRun> got;
    for (const QString w : {"equal", "frames", "inverse-variance"}) {
        const test::CliRun r = average(runs, w + ".h5", {"--weights", w});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        got.emplace(w, readRun(path(w + ".h5")));
    }
    const std::size_t lags = 20;
    double frameCloser = 0;
    for (std::size_t bin = 0; bin < a.result.binCount(); ++bin)
        for (std::size_t j = 1; j < lags; ++j) {
            const std::size_t ia = bin * a.result.frames + j, ib = bin * b.result.frames + j;
            const auto &sa = a.sums.pairSums[ia], &sb = b.sums.pairSums[ib];
            const double n = static_cast<double>(a.result.pixels[bin]);
            const auto expect = [&](double ca, double cb) {
                return n * (ca * a.sums.numerator[ia] + cb * b.sums.numerator[ib]) /
                       (ca * sa.products + cb * sb.products);
            };
            const double ea = a.result.g2Err[ia], eb = b.result.g2Err[ib];
            const bool errors = ea > 0 && eb > 0; // lag 19 of 20 frames: one pair, g2_err 0
            const std::map<QString, double> want{
                {"frames", expect(1, 1)},
                {"equal", expect(1 / sa.pairs, 1 / sb.pairs)},
                {"inverse-variance",
                 errors ? expect(1 / (ea * ea * sa.pairs), 1 / (eb * eb * sb.pairs))
                        : expect(1 / sa.pairs, 1 / sb.pairs)}};
            for (const auto& [w, value] : want) {
                const double g = got.at(w).result.g2[bin * lags + j];
                QVERIFY2(std::abs(g - value) <= 1e-12 * value,
                         qPrintable(QString("%1 bin %2 lag %3: %4, expected %5")
                                        .arg(w)
                                        .arg(bin)
                                        .arg(j)
                                        .arg(g)
                                        .arg(value)));
            }
            frameCloser += std::abs(got.at("frames").result.g2[bin * lags + j] - a.result.g2[ia]) -
                           std::abs(got.at("equal").result.g2[bin * lags + j] - a.result.g2[ia]);
            QVERIFY(got.at("frames").result.g2[bin * lags + j] !=
                    got.at("equal").result.g2[bin * lags + j]);
        }
    QVERIFY2(frameCloser < 0, "frames weighs the longer run more than equal does");
}

// Every correlate result keeps its sums: g2 = n Σ N / Σ S S' (frame) from them, and the
// intensity against time is the frames' mean counts per pixel of each bin.
void TestXpcsAverage::sumsAreKeptInEveryResult() {
    const auto run = readRun(series_[2]);
    const xpcs::ResultSums& s = run.sums;
    QCOMPARE(s.frames, std::size_t(seriesFrames));
    for (std::size_t i = 0; i < run.result.g2.size(); ++i) {
        const double n = static_cast<double>(run.result.pixels[i / run.result.frames]);
        const double g2 = n * s.numerator[i] / s.pairSums[i].products;
        QVERIFY(std::abs(g2 - run.result.g2[i]) <= 1e-12 * run.result.g2[i]);
        QCOMPARE(s.pairSums[i].pairs, double(seriesFrames - i % run.result.frames));
    }
    const H5Reader frames(whole_.toStdString());
    const Array stack = frames.read("/entry/data/data");
    const Array labels = frames.read("/entry/processing/qmask", DType::Int32);
    std::vector<double> sum(run.result.binCount(), 0.0);
    const std::size_t pixels = 64 * 64, first = 2 * seriesFrames;
    for (std::size_t p = 0; p < pixels; ++p) {
        const int label = labels.as<std::int32_t>()[p];
        for (std::size_t b = 0; b < sum.size(); ++b)
            if (run.result.labels[b] == label) sum[b] += stack.valueAt(first * pixels + p);
    }
    for (std::size_t b = 0; b < sum.size(); ++b)
        QCOMPARE(s.intensity[b * s.frames], sum[b] / double(run.result.pixels[b]));
}

// boost_corr's normalisation: with frames weights, g2 = n ΣP ΣN / (ΣS ΣS') of the runs' sums
// added; one run averaged is itself; a frame run among symmetric ones is bad input.
void TestXpcsAverage::symmetricRunsAverageTheirSums() {
    QStringList runs;
    for (int i = 0; i < 3; ++i) {
        runs << path(QString("sym%1.h5").arg(i));
        cli({"correlate", whole_, "--device", "cpu", "--g2-normalisation", "symmetric", "--frames",
             QString("%1:%2").arg(i * seriesFrames).arg(seriesFrames), "-o", runs.back()});
    }
    test::CliRun r = average(runs, "sym_avg.h5", {"--weights", "frames"});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    std::vector<xpcs::AverageRun> in;
    for (const QString& run : runs)
        in.push_back(readRun(run));
    const auto avg = readRun(path("sym_avg.h5"));
    QCOMPARE(avg.result.normalisation, xpcs::Normalisation::Symmetric);
    for (std::size_t i = 0; i < avg.result.g2.size(); ++i) {
        double pairs = 0, numerator = 0, later = 0, earlier = 0;
        for (const auto& run : in) {
            pairs += run.sums.pairSums[i].pairs, numerator += run.sums.numerator[i];
            later += run.sums.pairSums[i].later, earlier += run.sums.pairSums[i].earlier;
        }
        const double n = static_cast<double>(avg.result.pixels[i / avg.result.frames]);
        const double want = n * pairs * numerator / (later * earlier);
        QVERIFY2(std::abs(avg.result.g2[i] - want) <= 1e-12 * want, qPrintable(QString::number(i)));
    }
    r = average({runs[0]}, "sym_one.h5");
    QVERIFY2(r.code == 0, qPrintable(r.err));
    const auto one = readRun(path("sym_one.h5"));
    for (std::size_t i = 0; i < one.result.g2.size(); ++i)
        QVERIFY(std::abs(one.result.g2[i] - in[0].result.g2[i]) <= 1e-12 * in[0].result.g2[i]);
    r = average({runs[0], series_[1]}, "mixed.h5");
    QCOMPARE(r.code, 3);
    QVERIFY2(r.err.contains("g2 normalisation frame against symmetric"), qPrintable(r.err));
}

QTEST_GUILESS_MAIN(TestXpcsAverage)
#include "tst_xpcs_average.moc"
