// The attack of issue 52 (item 7), each finding as the attack met it, through clscope-cli where
// it ran it: JSON nested too deep, a compressed chunk judged by the device, bytes that are not
// UTF-8 in the lab, kept state that is not what clscope wrote.
#include "core/errors.hpp"
#include "core/json_parse.hpp"
#include "test_util.hpp"

#include <QThread>

using namespace clscope;

namespace {

using Run = test::CliRun;

QByteArray nested(int depth) {
    return QByteArray(depth, '[') + QByteArray(depth, ']');
}

void writeFile(const QString& path, const QByteArray& bytes) {
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    QCOMPARE(f.write(bytes), bytes.size());
}

} // namespace

class TstAttack : public QObject {
    Q_OBJECT
    QTemporaryDir tmp_;
    QString path(const QString& name) const { return tmp_.filePath(name); }

  private slots:
    void initTestCase();
    void depthLimitBeforeTheStack();
    void deepJsonRefused();
};

void TstAttack::initTestCase() {
    const Run made = test::runCli({"generate", "diffraction", "-o", path("d.h5"), "--frames", "2",
                                   "--height", "32", "--width", "40", "--spots", "3"});
    QVERIFY2(made.code == 0, qPrintable(made.err));
}

// The limit is reached before the stack: a value 512 deep is copied, compared and dumped in
// a thread of 1 MiB of stack (the main thread has 8); 513 deep is refused naming its origin;
// brackets inside strings do not count.
void TstAttack::depthLimitBeforeTheStack() {
    const QByteArray deepest = nested(int(jsonDepthLimit));
    bool done = false;
    QThread* thread = QThread::create([&] {
        const nlohmann::json value = parseJson(deepest.toStdString(), "test");
        const nlohmann::json copy = value;
        done = copy == value && copy.dump() == deepest.toStdString();
    });
    thread->setStackSize(1 << 20);
    thread->start();
    QVERIFY(thread->wait(60000));
    delete thread;
    QVERIFY(done);
    EXPECT_ERROR(InputError, parseJson(nested(jsonDepthLimit + 1).toStdString(), "FILE.json"),
                 "FILE.json", "512");
    const std::string brackets = std::string("{\"a\": \"").append(5000, '[').append("\\\"[\"}");
    QCOMPARE(parseJson(brackets, "test")["a"].get<std::string>().size(), std::size_t(5002));
    QVERIFY(parseJsonQuietly(nested(100000).toStdString()).is_discarded());
}

// JSON nested 65,000 deep inline and 200,000 deep in a file (--params, lab-diff): exit 3
// naming the argument and the limit (issue 52: SIGSEGV).
void TstAttack::deepJsonRefused() {
    const QString out = path("s.h5");
    EXPECT_EXIT(test::runCli({"spots", path("d.h5"), "-o", out, "--device", "cpu", "--params",
                              "{\"sigma_strong\":" + nested(65000) + "}"}),
                3, "--params (inline JSON): JSON nested deeper than 512");
    writeFile(path("deep.json"), "{\"sigma_strong\":" + nested(200000) + "}");
    EXPECT_EXIT(test::runCli({"spots", path("d.h5"), "-o", out, "--device", "cpu", "--params",
                              path("deep.json")}),
                3, path("deep.json") + ": JSON nested deeper than 512");
    QVERIFY(!QFile::exists(out));
    writeFile(path("rows.json"), "{\"rows\":" + nested(200000) + "}");
    EXPECT_EXIT(test::runCli({"lab-diff", path("rows.json") + ":0", path("rows.json") + ":1"}), 3,
                path("rows.json") + ": JSON nested deeper than 512");
}

QTEST_GUILESS_MAIN(TstAttack)
#include "tst_attack.moc"
