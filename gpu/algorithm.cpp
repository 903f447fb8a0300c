#include "gpu/algorithm.hpp"

#include "core/errors.hpp"
#include "core/input/provenance.hpp"
#include "core/json_parse.hpp"
#include "gpu/variant/user_variants.hpp"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <optional>

namespace clscope {

// Every algorithm's registration (one line each), in gpu/registry.cpp.
void registerAllAlgorithms(AlgorithmRegistry& registry);

ParamSpec syntheticOption(std::string name, ParamSpec::Type type, nlohmann::json defaultValue,
                          std::string help, std::optional<double> min, std::optional<double> max,
                          std::string unit) {
    ParamSpec s =
        makeParam(std::move(name), type, std::move(defaultValue), std::move(help), std::move(unit));
    s.flag = "--" + s.name;
    std::replace(s.flag.begin(), s.flag.end(), '_', '-');
    s.label = s.name; // "ring_width" -> "Ring width" (the GUI's label)
    std::replace(s.label.begin(), s.label.end(), '_', ' ');
    s.label[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(s.label[0])));
    s.min = min, s.max = max;
    return s;
}

Deviation compareValues(const std::string& metric, const double* got, const double* ref,
                        std::size_t n, double tolerance, bool relative, double floor) {
    Deviation d;
    d.metric = metric;
    d.tolerance = tolerance;
    d.compared = n;
    for (std::size_t i = 0; i < n; ++i) {
        const double a = got[i], b = ref[i];
        double dev = 0;
        if (std::isnan(a) || std::isnan(b))
            dev = std::isnan(a) && std::isnan(b) ? 0.0 : INFINITY;
        else if (a != b)
            dev = std::abs(a - b) / (relative ? std::max(std::abs(b), floor) : 1.0);
        if (std::isnan(dev)) dev = INFINITY; // inf - inf
        d.maxDeviation = std::max(d.maxDeviation, dev);
        if (dev > tolerance) {
            if (d.beyond++ == 0) d.firstIndex = static_cast<long long>(i);
        }
    }
    d.pass = d.beyond == 0;
    return d;
}

Support Algorithm::supports(const VariantEntry& variant, const DeviceInfo& device,
                            const AlgorithmInput*, const ParamSet*) const {
    return variant.supports(device);
}

VariantEntry Algorithm::variant(const std::string& id) const {
    if (isUserVariantId(id)) { // the base variant's entry, under the user's id
        const UserVariant user = loadUserVariant(this->id(), id);
        VariantEntry entry = variant(user.base);
        entry.info.label = "user's fork of " + user.base + " (" + user.program + ")";
        entry.info.id = user.id(), entry.info.preferred = false;
        return entry;
    }
    std::string ids;
    for (const VariantEntry& v : variants()) {
        if (v.info.id == id) return v;
        ids += (ids.empty() ? "" : ", ") + v.info.id;
    }
    throw UsageError(this->id() + ": no variant '" + id + "'; variants: " + ids);
}

ProgramRecipe Algorithm::recipe(const std::string& name) const {
    std::string names;
    for (const ProgramRecipe& r : recipes()) {
        if (r.name() == name) return r;
        names += (names.empty() ? "" : ", ") + r.name();
    }
    throw UsageError(id() + ": no program '" + name + "'; programs: " + names);
}

InputRole Algorithm::role(const std::string& id) const {
    std::string ids;
    for (const InputRole& r : inputRoles()) {
        if (r.id == id) return r;
        ids += (ids.empty() ? "" : ", ") + r.id;
    }
    throw UsageError(this->id() + ": no input role '" + id + "'; roles: " + ids);
}

bool Algorithm::readsFrames() const {
    const auto roles = inputRoles();
    return std::any_of(roles.begin(), roles.end(), [](const InputRole& r) { return r.stack; });
}

namespace {

// The preferred variant among those that can run, else the first that can, else the
// reference: the one rule of the default variant.
std::string preferredOf(const Algorithm& algorithm,
                        const std::function<Support(const VariantEntry&)>& supports) {
    std::string first;
    for (const VariantEntry& v : algorithm.variants()) {
        if (!supports(v).ok) continue;
        if (v.info.preferred) return v.info.id;
        if (first.empty()) first = v.info.id;
    }
    return first.empty() ? algorithm.referenceVariant() : first;
}

// The generic preparation: the request's own parameters, unparsed.
class UnparsedRun : public PreparedRun {
  public:
    using PreparedRun::PreparedRun;
    Support supports(const VariantEntry& variant) const override {
        const RunRequest& r = request();
        return algorithm().supports(variant, r.device, r.input.get(), &r.params);
    }
    std::shared_ptr<AlgorithmResult> run(const Progress& progress) const override {
        return algorithm().run(request(), progress);
    }
};

} // namespace

std::string Algorithm::defaultVariant(const DeviceInfo& device, const AlgorithmInput* input,
                                      const ParamSet* params) const {
    return preferredOf(*this,
                       [&](const VariantEntry& v) { return supports(v, device, input, params); });
}

std::unique_ptr<PreparedRun> Algorithm::parse(const RunRequest& request) const {
    return std::make_unique<UnparsedRun>(*this, request);
}

std::unique_ptr<PreparedRun> Algorithm::parseBorrowed(const AlgorithmInput* input,
                                                      const ParamSet& params,
                                                      const DeviceInfo& device,
                                                      const std::string& variant) const {
    RunRequest request;
    request.device = device, request.variant = variant, request.params = params;
    // Not owned: the caller holds the input for as long as the prepared run lives.
    request.input = std::shared_ptr<const AlgorithmInput>(std::shared_ptr<void>(), input);
    return parse(request);
}

std::unique_ptr<PreparedRun> Algorithm::prepare(const RunRequest& request) const {
    if (!request.variant.empty()) (void)variant(request.variant); // unknown: before parsing
    std::unique_ptr<PreparedRun> prepared = parse(request);
    prepared->resolve();
    return prepared;
}

void PreparedRun::resolve() {
    chosen_ = request_.variant.empty();
    if (chosen_)
        request_.variant =
            preferredOf(algorithm_, [&](const VariantEntry& v) { return supports(v); });
    entry_ = algorithm_.variant(request_.variant);
    // Emulated, the device check is the emulation's; the input's and parameters' still apply.
    if (entry_->emulatedOn(request_.device, request_.tuning)) entry_->extraCheck = nullptr;
    verdict_ = supports(*entry_);
}

std::string provenanceJson(const AlgorithmInput& input, const ParamSet& params) {
    return parametersJson(params, input.provenance);
}

std::string runProvenance(const RunRequest& request, const nlohmann::json& input) {
    nlohmann::json provenance =
        parseJson(parametersJson(request.params, input, request.tuning), "the run's parameters");
    if (!request.programs.values.empty()) provenance["tunables"] = request.programs.values;
    return provenance.dump();
}

namespace {

// No variant was asked for and none runs on the device: every variant's reason, variants
// with the same reason named together ("naive, gemm: values up to ...; cpu: runs on the host").
std::string noVariantRuns(const Algorithm& algorithm, const RunRequest& request,
                          const PreparedRun& prepared) {
    std::vector<std::pair<std::string, std::string>> reasons; // reason, variants
    for (const VariantEntry& v : algorithm.variants()) {
        const std::string why = prepared.supports(v).reason;
        const auto same = std::find_if(reasons.begin(), reasons.end(),
                                       [&](const auto& r) { return r.first == why; });
        if (same == reasons.end())
            reasons.emplace_back(why, v.info.id);
        else
            same->second += ", " + v.info.id;
    }
    std::string text = algorithm.id() + ": no variant can run this input on " +
                       request.device.spec + " (" + request.device.name + "): ";
    for (std::size_t i = 0; i < reasons.size(); ++i)
        text += (i ? "; " : "") + reasons[i].second + ": " + reasons[i].first;
    return text;
}

} // namespace

// A user variant runs as its base variant with its program and tunables; overrides the
// request already carries (the lab's) win over the saved ones.
static void useUserVariant(const Algorithm& algorithm, RunRequest& request) {
    const UserVariant user = loadUserVariant(algorithm.id(), request.variant);
    ProgramOverrides programs = user.overrides();
    programs.values = request.programs.over(programs.values);
    for (const auto& [name, text] : request.programs.sources)
        programs.sources[name] = text;
    request.variant = user.base, request.programs = std::move(programs);
}

std::shared_ptr<AlgorithmResult> runAlgorithm(const Algorithm& algorithm, RunRequest request,
                                              const Progress& progress) {
    if (!request.input) throw UsageError(algorithm.id() + ": no input to run on");
    const std::string asked = request.variant;
    if (isUserVariantId(asked)) useUserVariant(algorithm, request);
    const std::unique_ptr<PreparedRun> prepared = algorithm.prepare(request);
    const Support& s = prepared->verdict();
    if (!s.ok && prepared->chosen())
        throw UsageError(noVariantRuns(algorithm, prepared->request(), *prepared));
    if (!s.ok)
        throw UsageError(algorithm.id() + " variant '" + prepared->request().variant +
                         "' cannot run on " + request.device.spec + ": " + s.reason);
    request = prepared->request();
    const auto start = std::chrono::steady_clock::now();
    std::shared_ptr<AlgorithmResult> result = prepared->run(progress);
    const std::chrono::duration<double, std::milli> wall = std::chrono::steady_clock::now() - start;
    RunInfo& info = result->info;
    info.algorithm = algorithm.id();
    info.variant = isUserVariantId(asked) ? asked : request.variant;
    info.device = request.device.spec;
    info.deviceName = request.device.name;
    info.wallMs = wall.count();
    info.kernelMs = kernelTotalMs(info.timings);
    info.parametersJson = runProvenance(request, request.input->provenance);
    progress.report(1.0);
    return result;
}

AlgorithmRegistry& AlgorithmRegistry::instance() {
    static AlgorithmRegistry registry = [] {
        AlgorithmRegistry r;
        registerAllAlgorithms(r);
        return r;
    }();
    return registry;
}

void AlgorithmRegistry::add(std::shared_ptr<const Algorithm> algorithm) {
    for (auto& a : algorithms_)
        if (a->id() == algorithm->id()) {
            a = std::move(algorithm);
            return;
        }
    algorithms_.push_back(std::move(algorithm));
}

std::vector<std::string> AlgorithmRegistry::ids() const {
    std::vector<std::string> out;
    for (const auto& a : algorithms_)
        out.push_back(a->id());
    return out;
}

const Algorithm* AlgorithmRegistry::get(const std::string& id) const {
    for (const auto& a : algorithms_)
        if (a->id() == id) return a.get();
    return nullptr;
}

const Algorithm& AlgorithmRegistry::find(const std::string& id) const {
    if (const Algorithm* a = get(id)) return *a;
    std::string names;
    for (const auto& a : algorithms_)
        names += (names.empty() ? "" : ", ") + a->id();
    throw UsageError("no algorithm '" + id + "'; algorithms: " + names);
}

std::vector<std::pair<const Algorithm*, SyntheticKind>> AlgorithmRegistry::syntheticKinds() const {
    std::vector<std::pair<const Algorithm*, SyntheticKind>> out;
    for (const auto& a : algorithms_)
        for (SyntheticKind& kind : a->syntheticKinds())
            out.emplace_back(a.get(), std::move(kind));
    return out;
}

std::pair<const Algorithm*, SyntheticKind>
AlgorithmRegistry::synthetic(const std::string& name) const {
    std::string names;
    for (auto& entry : syntheticKinds()) {
        if (entry.second.name == name) return entry;
        names += (names.empty() ? "" : ", ") + entry.second.name;
    }
    throw UsageError("no synthetic dataset '" + name + "'; datasets: " + names);
}

} // namespace clscope
