// What the optional facets of an algorithm give (gpu/facets/): a bench case, the work of one
// run, what a split over several devices takes off one, a synthetic dataset kind, an output
// layout. Plain values, declared apart from the Algorithm interface (gpu/algorithm.hpp).
#pragma once
#include "core/hdf5.hpp"
#include "core/params.hpp"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace clscope {

class AlgorithmInput;

// A synthetic input for `clscope-cli bench` and what one run of it is worth.
struct BenchCase {
    std::shared_ptr<const AlgorithmInput> input;
    ParamSet params;
    // The reference runs on this input (e.g. a subset of xpcs bins for the large case); null:
    // input.
    std::shared_ptr<const AlgorithmInput> referenceInput;
    double work = 0;         // throughput = work / median seconds
    std::string unit;        // unit of work/s, e.g. "GFLOP/s", "interactions/s"
    double unitScale = 1;    // work/s is divided by it (1e9 for GFLOP/s)
    std::string description; // e.g. "500 x 201x241 uint8, 15 bins"
    bool endToEnd = false;  // throughput from wall time (streams: transfers count), not kernel time
    double uploadBytes = 0; // bytes a run sends to the device: bench reports the transfer bound
};

// What one run of an algorithm must do, from its sizes (the kernel lab's roofline): the bytes
// it moves to or from global memory when it reads its input once and writes its output once,
// and its arithmetic operations as the algorithm counts them. Not what a variant does (its
// re-reads, its recomputations): the work every variant has to do. 0: not declared.
struct RunWork {
    double bytes = 0;
    double operations = 0;
};

// What a split over several devices takes off one device (runOnDevices' rule): the bytes from
// the host that the parts share out among them (not those every part reads whole) and the
// kernels' time on the reference GPU, an H100, from the rates its bench cases measured
// (docs/PERFORMANCE.md). 0: none declared.
struct SplitWork {
    double sharedOutBytes = 0;
    double kernelMs = 0;
};

// The time a split of that work over `devices` devices saves the first one, in ms: its share of
// the kernels and of the upload (at 50 GB/s, the H200's pinned rate) that the others take.
double splitSavingMs(const SplitWork& work, std::size_t devices);
// A split pays where it saves at least this: twice what the second device's session, buffers
// and join added to the smallest bench cases on two H100s (up to 6 ms, rbf seed and cluster
// large, docs/PERFORMANCE.md "Two GPUs").
inline constexpr double kSplitPaysMs = 12;

// A synthetic dataset an algorithm writes: `clscope-cli generate NAME` and the GUI's Generate
// dialog are built from these specs, as the algorithm commands are from parameterSpecs().
// Every kind also takes --seed and --compression (generic, not in specs).
struct SyntheticKind {
    std::string name;             // generate subcommand, e.g. "diffraction"
    std::string help;             // one line
    std::vector<ParamSpec> specs; // its options: name, default, range, unit, flag, help
    // Writes the dataset of these option values (valid against specs) to path (temporary name,
    // then renamed); returns a one-line summary. UsageError when the request cannot be met.
    std::function<std::string(const ParamSet& options, std::uint64_t seed, Compression compression,
                              const std::string& path)>
        write;
    std::string object; // the dataset a complete file holds (batch reruns a line without it)
};

// A synthetic option: its name, type, default, help and unit, the flag "--" + name with '-'
// for '_', and the inclusive range of numbers.
ParamSpec syntheticOption(std::string name, ParamSpec::Type type, nlohmann::json defaultValue,
                          std::string help, std::optional<double> min = {},
                          std::optional<double> max = {}, std::string unit = "");

// An output layout besides clscope's own (--layout NAME; gpu/facets/layouts_facet.hpp): its
// name and, for people, what it is and which tools read it.
struct OutputLayout {
    std::string name, help;
};

// A run's result in one layout: written into the HDF5 output (hdf5), or, for a layout of
// another format, the output file's bytes.
struct LayoutOutput {
    std::function<void(H5Writer&)> hdf5;
    std::string bytes;
};

} // namespace clscope
