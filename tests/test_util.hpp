// Helpers shared by the test suites.
#pragma once
#include <QTemporaryDir>
#include <QtTest>
#include <cstdlib>
#include <string>

namespace clscope::test {

// tests/data (CLSCOPE_TEST_DATA, set by ctest).
inline std::string dataFile(const std::string& name) {
    const char* dir = std::getenv("CLSCOPE_TEST_DATA");
    return std::string(dir ? dir : "tests/data") + "/" + name;
}

// Run f, expect exception E whose message contains every part; fail the test otherwise.
template <class E, class F>
void expectError(F&& f, std::initializer_list<std::string> parts, const char* file, int line) {
    try {
        f();
    } catch (const E& e) {
        const std::string message = e.what();
        for (const std::string& part : parts)
            if (message.find(part) == std::string::npos)
                QTest::qFail(("message '" + message + "' lacks '" + part + "'").c_str(), file, line);
        return;
    } catch (const std::exception& e) {
        QTest::qFail((std::string("wrong exception type: ") + e.what()).c_str(), file, line);
        return;
    }
    QTest::qFail("no exception thrown", file, line);
}

} // namespace clscope::test

#define EXPECT_ERROR(E, expr, ...)                                                                 \
    do {                                                                                           \
        clscope::test::expectError<E>([&] { (void)(expr); }, {__VA_ARGS__}, __FILE__, __LINE__);   \
        if (QTest::currentTestFailed()) return;                                                    \
    } while (0)
