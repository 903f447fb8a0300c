// The disk cache of compiled programs (gpu/runtime/program_store.hpp) on PoCL: a program built
// by one process is loaded by the next, a new source or option makes a new entry, a damaged or
// foreign entry is rebuilt from source, CLSCOPE_PROGRAM_CACHE=0 leaves the disk alone and
// processes writing one entry at once leave a whole one. Each case runs this suite's executable
// again as a child (TST_PROGRAM_CACHE_CHILD set), which builds one program, runs it, checks its
// output and prints what its device counted: "source N disk M".
#include "gpu/runtime/cl_device.hpp"
#include "gpu/runtime/devices.hpp"
#include "gpu/runtime/program_entry.hpp"
#include "gpu/runtime/program_store.hpp"
#include "test_util.hpp"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <thread>

using namespace clscope;

namespace {

// The child: one program (its source tagged by TST_TAG, built with TST_OPTIONS) run on 64
// items; exit 0 when its output is i * 3 + TST_ADD.
int childRun() {
    const std::string tag = qEnvironmentVariable("TST_TAG").toStdString();
    const std::string source = "// " + tag + R"(
#ifndef ADD
#define ADD 0
#endif
kernel void fill(global int* out, const int scale) {
    out[get_global_id(0)] = (int)get_global_id(0) * scale + ADD;
})";
    const auto device = ClDevice::get(openclDevices().at(0));
    const cl::Program program =
        device->program(source, qEnvironmentVariable("TST_OPTIONS").toStdString());
    const int n = 64, add = qEnvironmentVariableIntValue("TST_ADD");
    cl::CommandQueue queue(device->context(), device->device());
    cl::Buffer out(device->context(), CL_MEM_WRITE_ONLY, n * sizeof(int));
    cl::Kernel fill(program, "fill");
    fill.setArg(0, out), fill.setArg(1, 3);
    queue.enqueueNDRangeKernel(fill, cl::NullRange, cl::NDRange(n));
    std::vector<int> host(n);
    queue.enqueueReadBuffer(out, CL_TRUE, 0, n * sizeof(int), host.data());
    for (int i = 0; i < n; ++i)
        if (host[i] != i * 3 + add) return 3;
    const ProgramCounts counts = device->programCounts();
    std::printf("source %zu disk %zu\n", counts.fromSource, counts.fromDisk);
    return 0;
}

struct Child {
    int code;
    QString counts, err;
};

QMap<QString, QString> childEnv(const QString& cache, const QMap<QString, QString>& more = {}) {
    QMap<QString, QString> env{{"TST_PROGRAM_CACHE_CHILD", "1"}, {"CLSCOPE_CACHE_DIR", cache}};
    env.insert(more);
    return env;
}

Child child(const QString& cache, const QMap<QString, QString>& more = {}) {
    const test::CliRun r = test::runProgram(QCoreApplication::applicationFilePath(), {},
                                            childEnv(cache, more), 120000);
    return {r.code, r.out.trimmed(), r.err};
}

QStringList entries(const QString& cache) {
    return QDir(cache).entryList({"*.clprogram"}, QDir::Files, QDir::Name);
}

QStringList everything(const QString& cache) {
    return QDir(cache).entryList(QDir::Files | QDir::Hidden | QDir::NoDotAndDotDot);
}

QByteArray readAll(const QString& file) {
    QFile f(file);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

void writeAll(const QString& file, const QByteArray& bytes) {
    QFile f(file);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write(bytes);
}

#define EXPECT_CHILD(run, expected)                                                                \
    do {                                                                                           \
        const Child c_ = (run);                                                                    \
        QVERIFY2(c_.code == 0, qPrintable(QString::number(c_.code) + " " + c_.err));               \
        QCOMPARE(c_.counts, QString(expected));                                                    \
    } while (0)

} // namespace

class TestProgramCache : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() {
        if (openclDevices().empty()) QSKIP("no OpenCL device");
    }

    void loadedInASecondProcess() {
        QTemporaryDir dir;
        const QString cache = dir.filePath("programs");
        EXPECT_CHILD(child(cache), "source 1 disk 0");
        QCOMPARE(entries(cache).size(), 1);
        EXPECT_CHILD(child(cache), "source 0 disk 1");
        QCOMPARE(everything(cache), entries(cache)); // no temporary left
    }

    void newEntryForAnotherOptionOrSource() {
        QTemporaryDir dir;
        const QString cache = dir.filePath("programs");
        EXPECT_CHILD(child(cache), "source 1 disk 0");
        EXPECT_CHILD(child(cache, {{"TST_OPTIONS", "-DADD=5"}, {"TST_ADD", "5"}}),
                     "source 1 disk 0");
        QCOMPARE(entries(cache).size(), 2);
        EXPECT_CHILD(child(cache, {{"TST_TAG", "changed"}}), "source 1 disk 0");
        QCOMPARE(entries(cache).size(), 3);
        EXPECT_CHILD(child(cache, {{"TST_OPTIONS", "-DADD=5"}, {"TST_ADD", "5"}}),
                     "source 0 disk 1");
    }

    // Each damage is found (a one-line warning on stderr), the program built from source and
    // its output right; the entry written again then loads.
    void damagedEntryRebuilt() {
        QTemporaryDir dir;
        const QString cache = dir.filePath("programs");
        EXPECT_CHILD(child(cache, {{"TST_TAG", "other"}}), "source 1 disk 0");
        const QString other = cache + "/" + entries(cache).front();
        EXPECT_CHILD(child(cache), "source 1 disk 0");
        QStringList files = entries(cache);
        files.removeAll(QFileInfo(other).fileName());
        const QString file = cache + "/" + files.front();
        const QByteArray whole = readAll(file);
        QByteArray flipped = whole;
        for (qsizetype i = whole.size() / 2; i < whole.size() / 2 + 16; ++i)
            flipped[i] = char(~flipped[i]);
        std::optional<ProgramEntry> entry = decodeEntry(whole.toStdString());
        QVERIFY(entry);
        entry->binary = "not a binary of any device";
        const std::string unbuildable = encodeEntry(*entry);
        const QList<QByteArray> damages{flipped,        whole.left(whole.size() / 2),
                                        whole.left(5),  QByteArray(),
                                        readAll(other), QByteArray::fromStdString(unbuildable)};
        for (const QByteArray& damaged : damages) {
            writeAll(file, damaged);
            const Child c = child(cache);
            QVERIFY2(c.code == 0, qPrintable(c.err));
            QCOMPARE(c.counts, QString("source 1 disk 0"));
            QCOMPARE(c.err.count("program cache"), 1);
            QVERIFY(!c.err.trimmed().contains('\n'));
            EXPECT_CHILD(child(cache), "source 0 disk 1");
        }
    }

    void offByEnvironment() {
        QTemporaryDir dir;
        const QString cache = dir.filePath("programs");
        EXPECT_CHILD(child(cache, {{"CLSCOPE_PROGRAM_CACHE", "0"}}), "source 1 disk 0");
        QVERIFY(!QFileInfo::exists(cache));
        EXPECT_CHILD(child(cache), "source 1 disk 0");
        EXPECT_CHILD(child(cache, {{"CLSCOPE_PROGRAM_CACHE", "0"}}), "source 1 disk 0");
    }

    // Four processes build and write the same entry at once: one whole entry is left, no
    // temporary, and it loads.
    void concurrentWritersLeaveOneWholeEntry() {
        QTemporaryDir dir;
        const QString cache = dir.filePath("programs");
        std::vector<std::unique_ptr<QProcess>> children;
        for (int i = 0; i < 4; ++i) {
            auto& p = children.emplace_back(std::make_unique<QProcess>());
            QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
            const auto more = childEnv(cache);
            for (auto it = more.begin(); it != more.end(); ++it)
                env.insert(it.key(), it.value());
            p->setProcessEnvironment(env);
            p->start(QCoreApplication::applicationFilePath(), {});
        }
        for (auto& p : children) {
            QVERIFY(p->waitForFinished(120000));
            QCOMPARE(p->exitCode(), 0);
            QVERIFY(p->readAllStandardError().isEmpty());
        }
        QCOMPARE(entries(cache).size(), 1);
        QCOMPARE(everything(cache), entries(cache));
        EXPECT_CHILD(child(cache), "source 0 disk 1");
    }

    // Past its bound, the store removes its least recently used entries; any cut of an entry's
    // bytes is refused.
    void boundAndWholeness() {
        QTemporaryDir dir;
        const std::string folder = dir.filePath("programs").toStdString();
        const ProgramEntry a{"key a", "", "", std::string(1000, 'a')};
        const std::string bytes = encodeEntry(a);
        for (std::size_t n = 0; n < bytes.size(); ++n)
            QVERIFY(!decodeEntry(std::string_view(bytes).substr(0, n)));
        QVERIFY(decodeEntry(bytes) && decodeEntry(bytes)->binary == a.binary);
        const ProgramStore store(folder, 2 * bytes.size() + 100);
        store.save(a);
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        store.save({"key b", "", "", std::string(1000, 'b')});
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        QVERIFY(store.load("key a")); // a is now the latest used
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        store.save({"key c", "", "", std::string(1000, 'c')});
        QVERIFY(store.load("key a") && store.load("key c"));
        QVERIFY(!store.load("key b"));
        QCOMPARE(entries(QString::fromStdString(folder)).size(), 2);
    }
};

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsSet("TST_PROGRAM_CACHE_CHILD")) {
        try {
            return childRun();
        } catch (const std::exception& e) {
            std::fprintf(stderr, "child: %s\n", e.what());
            return 2;
        }
    }
    QCoreApplication app(argc, argv);
    TestProgramCache test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_program_cache.moc"
