// Runs of one algorithm with its typed input and parameters, for the algorithm's own tests:
// the parameters become the ParamSet the algorithm declares, the run goes through
// runAlgorithm() (the one way to run: variant resolution, support check, timing, provenance)
// and the algorithm's typed result comes back.
#pragma once
#include "core/xpcs/normalisation.hpp"
#include "gpu/algorithm.hpp"
#include "gpu/cluster/algorithm.hpp"
#include "gpu/rbf/algorithm.hpp"
#include "gpu/runtime/staging.hpp"
#include "gpu/spots/run_types.hpp"
#include "gpu/xpcs/algorithm.hpp"

#include <cstring>

namespace clscope::test {

inline std::shared_ptr<AlgorithmResult>
runTyped(const std::string& algorithm, const DeviceInfo& device, const std::string& variant,
         std::shared_ptr<const AlgorithmInput> input, const ParamSet& params,
         const std::map<std::string, int>& tuning, const Progress& progress = {}) {
    const Algorithm& a = AlgorithmRegistry::instance().find(algorithm);
    return runAlgorithm(a, {device, variant, std::move(input), params, tuning}, progress);
}

// A copy of `a` in the device's pinned memory, where pinnedInputScope puts a GPU run's frames:
// on PoCL too, so that a test runs the path a GPU takes (uploads queued from there, in place).
inline Array pinnedCopy(const Array& a, const DeviceInfo& device) {
    const HostAllocatorScope scope(pinnedAllocator(device), 0);
    Array out(a.dtype(), a.shape());
    std::memcpy(out.bytes(), a.bytes(), a.byteSize());
    return out;
}

inline xpcs::Result runXpcs(const DeviceInfo& device, const std::string& variant,
                            const Array& frames, const LabelMask& labels,
                            const xpcs::Params& p = {}, const Progress& progress = {}) {
    ParamSet set = AlgorithmRegistry::instance().find("xpcs").defaultParams();
    set.set("twotime", p.twotimeLabels);
    if (p.frameTime) set.set("frame_time", *p.frameTime);
    set.set("chunk_pixels", p.chunkPixels);
    set.set("threads", p.threads);
    set.set("multitau", p.multitau);
    set.set("channels", p.channels);
    set.set("twotime_bin", p.twotimeBin);
    set.set("g2_normalisation", xpcs::normalisationName(p.normalisation));
    const auto result =
        runTyped("xpcs", device, variant, xpcs::makeInput(frames, labels), set, p.tuning, progress);
    return dynamic_cast<const xpcs::XpcsResult&>(*result).result;
}

inline cluster::Result runCluster(const DeviceInfo& device, const std::string& variant,
                                  const Digis& digis, const cluster::Params& p = {}) {
    ParamSet set = AlgorithmRegistry::instance().find("cluster").defaultParams();
    set.set("charge_cut", p.chargeCut.text());
    const auto result = runTyped("cluster", device, variant,
                                 std::make_shared<cluster::ClusterInput>(digis), set, p.tuning);
    return dynamic_cast<const cluster::ClusterResult&>(*result).clusters;
}

inline rbf::Result runRbf(const DeviceInfo& device, const std::string& variant,
                          const rbf::Problem& problem, const rbf::Params& p = {}) {
    ParamSet set = AlgorithmRegistry::instance().find("rbf").defaultParams();
    set.set("kernel", rbf::kernelName(p.kernel));
    set.set("sigma", p.sigma);
    set.set("wavenumber", p.wavenumber);
    set.set("planes", p.planes);
    set.set("threads", p.threads);
    set.set("sample_targets", p.sampleTargets);
    const auto result = runTyped("rbf", device, variant, rbf::makeInput(problem), set, p.tuning);
    return dynamic_cast<const rbf::RbfResult&>(*result).result;
}

// The signal mask kept or not (signalMask, a property of the input, as the stream bench sets it).
inline spots::Result runSpots(const DeviceInfo& device, const std::string& variant,
                              const spots::Input& in, const spots::Params& p) {
    ParamSet set = AlgorithmRegistry::instance().find("spots").defaultParams();
    set.set("threshold_algorithm", spots::methodName(p.method));
    set.set("gain", p.gain);
    set.set("kernel_size", std::vector<long long>{p.kernelX, p.kernelY});
    set.set("sigma_background", p.sigmaBackground);
    set.set("sigma_strong", p.sigmaStrong);
    set.set("min_local", p.minLocal);
    set.set("global_threshold",
            p.globalAuto ? nlohmann::json("auto") : nlohmann::json(p.globalThreshold));
    set.set("min_spot_size", p.minSpotSize);
    set.set("max_spot_size", p.maxSpotSize);
    set.set("max_separation", p.maxSeparation);
    set.set("three_d", p.threeD);
    auto input = std::make_shared<spots::SpotsInput>();
    input->data = in;
    input->signalMask = p.signalMask;
    const auto result = runTyped("spots", device, variant, input, set, p.tuning);
    return dynamic_cast<const spots::SpotsResult&>(*result).result;
}

} // namespace clscope::test
