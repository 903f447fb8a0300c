// tst_rbf: rbf's variants, reference, files and command line. One test class, its slots in
// tst_rbf.cpp (variants against the reference, semantics, support) and tst_rbf_cli.cpp (files,
// the Algorithm object, clscope-cli rbf).
#pragma once
#include "core/rbf/rbf.hpp"
#include "gpu/runtime/device_info.hpp"

#include <QObject>
#include <QtTest>

#include <string>

// The first OpenCL device (PoCL in CI), else the host.
clscope::DeviceInfo testDevice();
// The named problems of the variant rows, built once: "1x1 coincident", "4097x1000",
// "7x4097", "1000x7 complex", "planes 7 x13", "planes 33 x50 complex", "no sources",
// "offset 1000x300".
const clscope::rbf::Problem& namedProblem(const std::string& name);
// The CPU reference of a named problem, cached.
const clscope::rbf::Result& reference(const std::string& name, const clscope::rbf::Params& params);
// Fail with the compared count, the worst target and the largest error when beyond tolerance.
void expectClose(const clscope::rbf::Result& got, const clscope::rbf::Result& want,
                 double tolerance);
clscope::rbf::Params kernelParams(clscope::rbf::Kernel kernel, double sigma = 0.1, double k = 10.0);

class TestRbf : public QObject {
    Q_OBJECT
  private slots:
    void variantsMatchReference_data();
    void variantsMatchReference();
    void referenceMatchesScipy();
    void planesMatchTheSeedNotebook();
    void referenceSemantics();
    void planeTargetsFollowTheSeed();
    void supportReasons();
    void floatVariantsRefuseWhatFp32CannotHold();
    void compareOnTargetSubset();
    void fileRoundTrip();
    void rejectsBadInputs();
    void algorithmOnSample();
    void splitOverDevices();
    void commandLine();
};
