// The command line that reproduces a run (gpu/command_line.hpp): for every registered algorithm,
// a small synthetic input run in process through runAlgorithm, then the command line built for
// it run through the CLI, and the same run again from the exported `parameters` (--params):
// every dataset equal. xpcs with a frame range and a fit.
#include "app/cli/commands.hpp"
#include "core/errors.hpp"
#include "gpu/command_line.hpp"
#include "gpu/devices.hpp"

#include <QTemporaryDir>
#include <QTest>

#include <cstring>

using namespace clscope;

namespace {

int cliRun(std::vector<std::string> args) {
    std::vector<const char*> argv;
    for (const std::string& a : args)
        argv.push_back(a.c_str());
    return cli::run(static_cast<int>(argv.size()), argv.data());
}

// The algorithm's first synthetic dataset with every count above 16 brought down to 16, and
// 16 frames where it has frames.
void writeSmallInput(const Algorithm& algorithm, const std::string& file) {
    const SyntheticKind kind = algorithm.syntheticKinds().at(0);
    ParamSet options(kind.specs);
    for (const ParamSpec& s : kind.specs)
        if (s.type == ParamSpec::Type::Int && (options.integer(s.name) > 16 || s.name == "frames"))
            options.set(s.name, std::max(16.0, s.min.value_or(0)));
    kind.write(options, 1, Compression::Gzip, file);
}

// Every numeric dataset under group of a and b holds the same bytes.
void compareTrees(const H5Reader& a, const H5Reader& b, const std::string& group, int& compared) {
    for (const H5Node& node : a.children(group)) {
        if (node.kind == H5Node::Group) compareTrees(a, b, node.path, compared);
        if (node.kind != H5Node::Dataset || node.info.typeName == "string" ||
            node.info.typeName == "compound")
            continue;
        QVERIFY2(b.hasDataset(node.path), node.path.c_str());
        const Array x = a.read(node.path, DType::Float64), y = b.read(node.path, DType::Float64);
        QVERIFY2(x.shape() == y.shape(), node.path.c_str());
        QVERIFY2(std::memcmp(x.bytes(), y.bytes(), x.byteSize()) == 0, node.path.c_str());
        ++compared;
    }
}

} // namespace

class TestCommandLine : public QObject {
    Q_OBJECT
    QTemporaryDir tmp;
    std::string path(const std::string& name) {
        return tmp.filePath(QString::fromStdString(name)).toStdString();
    }

  private slots:
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
        {
            H5Writer out(inProcess);
            result->write(out, algorithm.outputGroup());
            out.commit();
        }
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
        RunCommand held;
        held.algorithm = AlgorithmRegistry::instance().ids().front();
        const Algorithm& a = AlgorithmRegistry::instance().find(held.algorithm);
        held.sources.arrays[a.inputRoles().front().id] = std::make_shared<Array>();
        QVERIFY_THROWS_EXCEPTION(UsageError, commandArgs(held));
    }
};

QTEST_APPLESS_MAIN(TestCommandLine)
#include "tst_command_line.moc"
