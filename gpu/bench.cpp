#include "gpu/bench.hpp"

#include "core/errors.hpp"

namespace clscope {

// Each algorithm's bench registration (gpu/<algo>/bench.cpp); listed in registry.cpp.
void registerAllBenchCases(BenchRegistry& registry);

BenchRegistry& BenchRegistry::instance() {
    static BenchRegistry registry = [] {
        BenchRegistry r;
        registerAllBenchCases(r);
        return r;
    }();
    return registry;
}

void BenchRegistry::add(const std::string& algorithm, BenchCase run) {
    cases_[algorithm] = std::move(run);
}

std::vector<std::string> BenchRegistry::algorithms() const {
    std::vector<std::string> out;
    for (const auto& [name, run] : cases_) out.push_back(name);
    return out;
}

const BenchCase& BenchRegistry::find(const std::string& algorithm) const {
    const auto it = cases_.find(algorithm);
    if (it == cases_.end()) throw UsageError("bench: no bench case for '" + algorithm + "'");
    return it->second;
}

} // namespace clscope
