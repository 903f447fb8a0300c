// tests/stream_publisher.py (a DECTRIS Stream V2 publisher) run from a test suite.
#pragma once
#include "test_util.hpp"

#include <string>

namespace clscope::test {

// The publisher serving one file with these arguments; killed when the test ends.
struct Publisher {
    QProcess process;
    std::string endpoint; // tcp://127.0.0.1:PORT, its first line of output
    explicit Publisher(const QStringList& args) {
        const QString script = QString::fromStdString(dataFile("../stream_publisher.py"));
        process.start(qEnvironmentVariable("CLSCOPE_PYTHON", "python3"),
                      QStringList{script} + args);
        if (process.waitForReadyRead(20000)) endpoint = process.readLine().trimmed().toStdString();
    }
    ~Publisher() {
        process.kill();
        process.waitForFinished();
    }
};

// Why the publisher cannot run here (python3-zmq, -cbor2, -lz4 or -h5py missing), or "".
inline QString publisherMissing() {
    const QString python = qEnvironmentVariable("CLSCOPE_PYTHON", "python3");
    if (QProcess::execute(python, {"-c", "import zmq, cbor2, lz4.block, h5py"}) == 0) return {};
    return "the stream publisher needs python3-zmq, python3-cbor2, python3-lz4 and python3-h5py";
}

} // namespace clscope::test
