// Helpers of the registry-wide suites (tst_command_line, tst_conformance): a small synthetic
// input of any registered algorithm, and two outputs compared dataset by dataset.
#pragma once
#include "core/hdf5.hpp"
#include "gpu/algorithm.hpp"

#include <QTest>

#include <cstring>

namespace clscope::test {

// The algorithm's first synthetic dataset with every count above 16 brought down to 16, and
// 16 frames where it has frames (xpcs: rings 3 pixels wide, so that there are several bins).
inline void writeSmallInput(const Algorithm& algorithm, const std::string& file) {
    const SyntheticKind kind = algorithm.syntheticKinds().at(0);
    ParamSet options(kind.specs);
    for (const ParamSpec& s : kind.specs)
        if (s.type == ParamSpec::Type::Int && (options.integer(s.name) > 16 || s.name == "frames"))
            options.set(s.name, std::max(16.0, s.min.value_or(0)));
    if (options.known("ring_width")) options.set("ring_width", 3.0); // xpcs: several bins
    kind.write(options, 1, Compression::Gzip, file);
}

// Every numeric dataset under group of a and b holds the same values; counts them.
inline void compareTrees(const H5Reader& a, const H5Reader& b, const std::string& group,
                         int& compared) {
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

// Writes a result to file under the algorithm's group.
inline void writeResult(const Algorithm& algorithm, const AlgorithmResult& result,
                        const std::string& file) {
    H5Writer out(file);
    result.write(out, algorithm.outputGroup());
    out.commit();
}

} // namespace clscope::test
