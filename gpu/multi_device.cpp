// One run split over several devices (gpu/algorithm.hpp: runOnDevices).
#include "core/clock.hpp"
#include "core/errors.hpp"
#include "core/input/provenance.hpp"
#include "gpu/algorithm.hpp"
#include "gpu/variant/user_variants.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <mutex>
#include <thread>

namespace clscope {

double splitSavingMs(const SplitWork& work, std::size_t devices) {
    if (devices < 2) return 0;
    const double uploadMs = work.sharedOutBytes / 50e9 * 1e3;
    return (uploadMs + work.kernelMs) * (1.0 - 1.0 / static_cast<double>(devices));
}

namespace {

// Progress of part i as a share of the whole.
struct SharedProgress {
    std::mutex mutex;
    std::vector<double> fractions;
    const Progress& outer;
    void report(std::size_t part, double f) {
        std::lock_guard lock(mutex);
        fractions[part] = f;
        double total = 0;
        for (double x : fractions)
            total += x;
        outer.report(total / static_cast<double>(fractions.size()));
    }
};

std::string milliseconds(double ms) {
    char text[32];
    std::snprintf(text, sizeof text, ms < 10 ? "%.2g" : "%.0f", ms);
    return text;
}

// The variant the parts run: the request's, else the one the first device would be given.
std::string partsVariant(const Algorithm& algorithm, RunRequest request, const DeviceInfo& first) {
    if (!request.variant.empty()) return request.variant;
    request.device = first;
    try {
        return algorithm.prepare(request)->request().variant;
    } catch (const std::exception&) { // the run itself says why
        return {};
    }
}

// Why the run does not split ("" where it does).
std::string whyWhole(const Algorithm& algorithm, const RunRequest& request,
                     const std::string& variant, std::size_t devices) {
    if (std::string why = algorithm.unsplittable(builtInVariantOf(algorithm.id(), variant));
        !why.empty())
        return why;
    if (request.split == SplitRule::Always) return {};
    const double saving =
        splitSavingMs(algorithm.splitWork(*request.input, request.params, variant), devices);
    if (saving >= kSplitPaysMs) return {};
    return "a split would save ~" + milliseconds(saving) + " ms, less than the " +
           milliseconds(kSplitPaysMs) + " ms it must save to pay for another device; --split " +
           "always splits it";
}

std::string joinedSpecs(const std::vector<DeviceInfo>& devices) {
    std::string out;
    for (const DeviceInfo& d : devices)
        out += (out.empty() ? "" : ",") + d.spec;
    return out;
}

} // namespace

std::shared_ptr<AlgorithmResult> runOnDevices(const Algorithm& algorithm, RunRequest request,
                                              const std::vector<DeviceInfo>& devices,
                                              const Progress& progress) {
    if (devices.size() == 1)
        return request.device = devices.front(), runAlgorithm(algorithm, request, progress);
    if (devices.empty()) throw UsageError("no device to run on");
    const std::string variant = partsVariant(algorithm, request, devices.front());
    if (const std::string why = whyWhole(algorithm, request, variant, devices.size());
        !why.empty()) {
        request.device = devices.front();
        auto whole = runAlgorithm(algorithm, request, progress);
        whole->info.deviceName += " (whole on " + devices.front().spec + ": " + why + ")";
        return whole;
    }
    const auto parts = algorithm.split(*request.input, request.params, devices.size(), variant);
    if (parts.empty())
        throw UsageError(algorithm.id() + " cannot split one run over several devices");
    std::vector<std::shared_ptr<AlgorithmResult>> results(parts.size());
    std::vector<std::exception_ptr> errors(parts.size());
    std::vector<double> partMs(parts.size(), 0.0); // each part's runAlgorithm, whole
    SharedProgress shared{{}, std::vector<double>(parts.size(), 0.0), progress};
    const auto start = std::chrono::steady_clock::now();
    std::vector<std::thread> threads;
    for (std::size_t i = 0; i < parts.size(); ++i)
        threads.emplace_back([&, i] {
            try {
                RunRequest r = request;
                r.device = devices[i], r.input = parts[i].input, r.params = parts[i].params;
                const Progress part([&shared, i](double f) { shared.report(i, f); },
                                    progress.cancelFlag());
                const auto began = std::chrono::steady_clock::now();
                results[i] = runAlgorithm(algorithm, r, part);
                partMs[i] = msSince(began);
            } catch (...) {
                errors[i] = std::current_exception();
                if (parts[i].failed) parts[i].failed(errors[i]);
            }
        });
    for (std::thread& t : threads)
        t.join();
    for (const auto& e : errors)
        if (e) std::rethrow_exception(e);
    const auto joining = std::chrono::steady_clock::now();
    auto joined = algorithm.join(results);
    const double joinMs = msSince(joining);
    RunInfo& info = joined->info;
    info = results.front()->info;
    info.device = joinedSpecs(devices);
    info.deviceName = std::to_string(devices.size()) + " devices";
    info.wallMs =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    info.kernelMs = 0, info.timings.clear();
    TimingStats split; // the split's own host steps
    for (std::size_t i = 0; i < results.size(); ++i) {
        info.kernelMs = std::max(info.kernelMs, results[i]->info.kernelMs);
        for (TimingRecord t : results[i]->info.timings) {
            t.label = devices[i].spec + " " + t.label;
            info.timings.push_back(t);
        }
        // What a one-device run's wall leaves out: the part's preparation (the variant's
        // checks of its input) before its run.
        split.add(devices[i].spec + " split: part's preparation (host wall, outside its run)",
                  std::max(0.0, partMs[i] - results[i]->info.wallMs));
    }
    split.add("split: join of the parts' results (host wall)", joinMs);
    const std::vector<TimingRecord> own = split.records();
    info.timings.insert(info.timings.end(), own.begin(), own.end());
    info.parametersJson = runProvenance(request, request.input->provenance);
    return joined;
}

} // namespace clscope
