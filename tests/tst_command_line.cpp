// The command line that reproduces a run (gpu/command_line.hpp): for every registered algorithm,
// a small synthetic input run in process through runAlgorithm, then the command line built for
// it run through the CLI, and the same run again from the exported `parameters` (--params):
// every dataset equal. xpcs with a frame range and a fit.
#include "app/cli/commands.hpp"
#include "core/errors.hpp"
#include "gpu/command_line.hpp"
#include "gpu/runtime/devices.hpp"
#include "registry_cases.hpp"
#include "toy/algorithm.hpp"

#include <QTemporaryDir>
#include <QTest>

#include <cstring>

using namespace clscope;
using test::compareTrees;
using test::writeSmallInput;

namespace {

int cliRun(std::vector<std::string> args) {
    std::vector<const char*> argv;
    for (const std::string& a : args)
        argv.push_back(a.c_str());
    return cli::run(static_cast<int>(argv.size()), argv.data());
}

} // namespace

class TestCommandLine : public QObject {
    Q_OBJECT
    QTemporaryDir tmp;
    std::string path(const std::string& name) {
        return tmp.filePath(QString::fromStdString(name)).toStdString();
    }

  private slots:
    // The toy of the tests (tests/toy/) is listed with the five algorithms here.
    void initTestCase() { toy::registerForTests(); }

    void reproducesEveryAlgorithm_data() {
        QTest::addColumn<std::string>("id");
        for (const std::string& id : AlgorithmRegistry::instance().ids())
            QTest::newRow(id.c_str()) << id;
    }

    void reproducesEveryAlgorithm() {
        QFETCH(std::string, id);
        const Algorithm& algorithm = AlgorithmRegistry::instance().find(id);
        RunCommand run;
        run.algorithm = id;
        run.sources.file = path(id + "_in.h5");
        writeSmallInput(algorithm, run.sources.file);
        if (algorithm.readsFrames()) run.sources.frames = {2, 10};
        run.params = algorithm.defaultParams();
        if (id == "xpcs") run.params.set("fit", "single");
        RunRequest request{
            hostDevice(), "", algorithm.read(run.sources, run.params), run.params, {}};
        const auto result = runAlgorithm(algorithm, request);
        const std::string inProcess = path(id + "_a.h5");
        test::writeResult(algorithm, *result, inProcess);
        run.variant = result->info.variant;
        run.output = path(id + "_b.h5");
        const std::string line = commandLine(run);
        if (algorithm.readsFrames())
            QVERIFY2(line.find("--frames 2:10") != std::string::npos, line.c_str());
        QCOMPARE(cliRun(commandArgs(run)), 0);
        const std::string parameters =
            *H5Reader(inProcess).stringAttribute(algorithm.outputGroup(), "parameters");
        const std::string exported = path(id + "_c.h5");
        QCOMPARE(cliRun({"clscope-cli", algorithm.command(), run.sources.file, "--device", "cpu",
                         "--params", parameters, "-o", exported}),
                 0);
        for (const std::string& other : {run.output, exported}) {
            const H5Reader a(inProcess), b(other);
            int compared = 0;
            compareTrees(a, b, algorithm.outputGroup(), compared);
            QVERIFY(compared > 0);
            QCOMPARE(*b.stringAttribute(algorithm.outputGroup(), "parameters"), parameters);
        }
    }

    void quoting() {
        QCOMPARE(shellQuote("a-b_c.h5"), std::string("a-b_c.h5"));
        QCOMPARE(shellQuote("{\"a\": 1}"), std::string("'{\"a\": 1}'"));
        QCOMPARE(shellQuote("it's"), std::string("'it'\\''s'"));
        // shellWords undoes the quoting (an export renames words of the line, local_inputs.cpp).
        const std::vector<std::string> words{"clscope-cli", "/a b/it's.h5:/x", "{\"a\": 1}", "-o"};
        std::string line;
        for (const std::string& w : words)
            line += (line.empty() ? "" : " ") + shellQuote(w);
        QCOMPARE(shellWords(line), words);
        RunCommand held;
        held.algorithm = AlgorithmRegistry::instance().ids().front();
        const Algorithm& a = AlgorithmRegistry::instance().find(held.algorithm);
        held.sources.arrays[a.inputRoles().front().id] = std::make_shared<Array>();
        QVERIFY_THROWS_EXCEPTION(UsageError, commandArgs(held));
    }
};

QTEST_APPLESS_MAIN(TestCommandLine)
#include "tst_command_line.moc"
