// Program recipes (gpu/recipe.hpp): every tunable passed from the declaration, values checked,
// the printed program builds the same kernels, launch rules from tunables.
#include "core/errors.hpp"
#include "gpu/recipe.hpp"
#include "gpu/runtime/devices.hpp"
#include "gpu/runtime/session.hpp"

#include <QtTest>

using namespace clscope;

namespace {

ProgramRecipe scaleRecipe() {
    return ProgramRecipe("scale", {"common"},
                         {fromInput(choiceTunable("DATA_T", "int", {"int", "float"}, "element")),
                          integerTunable("SCALE", 3, 1, 100, "factor"),
                          integerTunable("WG", 8, 1, 256, "work-group size")})
        .launch("scale", {{"WG"}, {"1"}});
}

const char* scaleKernel = R"(
kernel void scale(global DATA_T* out, const int n) {
    const int i = get_global_id(0);
    if (i < n) out[i] = (DATA_T)(i * SCALE);
}
)";

} // namespace

class TestRecipe : public QObject {
    Q_OBJECT
  private slots:
    void everyTunablePassedInOrder() {
        const ProgramRecipe r = scaleRecipe();
        QCOMPARE(QString::fromStdString(r.options({{"SCALE", "7"}})),
                 QString("-cl-std=CL1.2 -DDATA_T=int -DSCALE=7 -DWG=8"));
        QCOMPARE(r.resolve().at("SCALE"), std::string("3"));
        // Values of tunables the program does not declare are ignored (one set serves a run).
        QCOMPARE(r.resolve({{"OTHER", "1"}}).count("OTHER"), std::size_t(0));
    }
    void valuesOutsideTheDeclarationAreRefused() {
        const ProgramRecipe r = scaleRecipe();
        QVERIFY_THROWS_EXCEPTION(UsageError, r.options({{"SCALE", "0"}}));
        QVERIFY_THROWS_EXCEPTION(UsageError, r.options({{"SCALE", "2x"}}));
        QVERIFY_THROWS_EXCEPTION(UsageError, r.options({{"DATA_T", "double"}}));
        QVERIFY_THROWS_EXCEPTION(UsageError, r.tunable("NOPE"));
    }
    void printedProgramCarriesItsTunables() {
        const ProgramRecipe r = scaleRecipe().withSource(scaleKernel);
        const std::string text = r.printable({{"SCALE", "5"}});
        QVERIFY(text.find("// tunable SCALE = 5 (allowed: 1..100)") != std::string::npos);
        QVERIFY(text.find("// tunable DATA_T = int (allowed: int|float) [from input]") !=
                std::string::npos);
        const TunableValues back = parseTunableLines(text);
        QCOMPARE(back.at("SCALE"), std::string("5"));
        QCOMPARE(back.at("WG"), std::string("8"));
    }
    void launchRuleFromTunables() {
        const ProgramRecipe r = scaleRecipe();
        const LaunchShape s = r.shape("scale", {{"WG", "16"}}, {100});
        QCOMPARE(s.global, std::vector<std::size_t>{100});
        QCOMPARE(s.local, std::vector<std::size_t>{16});
        QVERIFY_THROWS_EXCEPTION(UsageError, r.shape("other", {}, {1}));
    }
    // The printed program, given back as a replaced source with its tunable lines, builds and
    // runs to the same numbers as the declared one.
    void printedProgramBuildsTheSame() {
        if (openclDevices().empty()) QSKIP("no OpenCL device");
        ClSession session(openclDevices().front());
        const ProgramRecipe r = scaleRecipe().withSource(scaleKernel);
        const TunableValues values{{"SCALE", "4"}};
        const std::string printed = r.printable(values);
        const ProgramRecipe fork = r.withSource(printed);
        const auto runOnce = [&](const ProgramRecipe& recipe, const TunableValues& vals) {
            std::vector<int> out(20);
            cl::Kernel k = session.kernel(recipe, vals, "scale");
            cl::Buffer buffer = session.allocate(out.size() * sizeof(int), "out");
            k.setArg(0, buffer), k.setArg(1, int(out.size()));
            session.launch(k, "scale", recipe.shape("scale", vals, {out.size()}));
            session.download(buffer, out.data(), out.size() * sizeof(int), "download");
            return out;
        };
        const std::vector<int> a = runOnce(r, values);
        const std::vector<int> b = runOnce(fork, parseTunableLines(printed));
        QCOMPARE(a, b);
        QCOMPARE(a[19], 19 * 4);
    }
};

QTEST_GUILESS_MAIN(TestRecipe)
#include "tst_recipe.moc"
