#include "gpu/lab/lab_plan.hpp"

#include "core/atomic_file.hpp"
#include "core/errors.hpp"
#include "core/sha256.hpp"

#include <algorithm>
#include <sstream>

namespace clscope {

namespace {

std::pair<std::string, std::string> nameValue(const std::string& text, const char* option) {
    const auto eq = text.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == text.size())
        throw UsageError(std::string(option) + " takes NAME=VALUE, not '" + text + "'");
    return {text.substr(0, eq), text.substr(eq + 1)};
}

// The values of a comma-separated list, each once (in the order first given): 1,000 copies of
// one --sweep value ran 1,001 rows (issue 52).
std::vector<std::string> splitList(const std::string& text) {
    std::vector<std::string> items;
    std::istringstream in(text);
    std::string item;
    while (std::getline(in, item, ','))
        if (!item.empty() && std::find(items.begin(), items.end(), item) == items.end())
            items.push_back(item);
    return items;
}

// A printed program without the header and tunable lines it starts with (printable()'s), so an
// unchanged one is the program it was printed from; `lines` is how many were dropped.
std::string withoutPrintedHeader(const std::string& text, std::size_t& lines) {
    std::size_t at = 0;
    lines = 0;
    while (text.compare(at, 19, "// clscope program ") == 0 ||
           text.compare(at, 11, "// tunable ") == 0) {
        const auto end = text.find('\n', at);
        at = end == std::string::npos ? text.size() : end + 1, ++lines;
    }
    return text.substr(at);
}

std::string joinedNames(const std::vector<ProgramRecipe>& recipes) {
    std::string names;
    for (const ProgramRecipe& r : recipes)
        names += (names.empty() ? "" : ", ") + r.name();
    return names;
}

} // namespace

LabPlan::LabPlan(const Algorithm& algorithm, const LabOptions& o)
    : algorithm_(algorithm), options_(o), base_(o.from) {
    if (o.from.empty()) throw UsageError("lab: --from VARIANT is required");
    if (o.repeat < 1) throw UsageError("lab: --repeat must be at least 1");
    if (!(o.kernelTimeout > 0)) throw UsageError("lab: --kernel-timeout must be positive");
    const auto sizes = algorithm.benchSizes();
    if (o.input.empty() && std::find(sizes.begin(), sizes.end(), o.size) == sizes.end())
        throw UsageError("lab " + algorithm.id() + ": no size '" + o.size + "'");
    if (isUserVariantId(o.from)) {
        const UserVariant user = loadUserVariant(algorithm.id(), o.from);
        base_ = user.base, program_ = user.program, start_ = fork_ = user.overrides();
    }
    const VariantEntry entry = algorithm.variant(base_);
    for (const std::string& name : entry.info.programs)
        recipes_.push_back(algorithm.recipe(name));
    if (recipes_.empty())
        throw UsageError(algorithm.id() + " variant '" + base_ + "' builds no declared program" +
                         (entry.info.kind == VariantKind::Host
                              ? " (it runs on the host)"
                              : " (its algorithm declares no recipes for it yet)"));
    if (!o.program.empty()) {
        algorithm.recipe(o.program); // unknown: UsageError listing the algorithm's programs
        if (std::none_of(recipes_.begin(), recipes_.end(),
                         [&](const ProgramRecipe& r) { return r.name() == o.program; }))
            throw UsageError("variant '" + base_ + "' does not build program " + o.program +
                             " (it builds: " + joinedNames(recipes_) + ")");
        program_ = o.program;
    } else if (program_.empty() && recipes_.size() == 1) {
        program_ = recipes_.front().name();
    }
    if (program_.empty() && (!o.sourceFile.empty() || !o.save.empty()))
        throw UsageError("variant '" + base_ + "' builds programs " + joinedNames(recipes_) +
                         ": pick the one to fork with --program NAME");
    if (!o.sourceFile.empty()) {
        const std::string text = readWholeFile(o.sourceFile); // InputError when unreadable
        fork_.sources[program_] = withoutPrintedHeader(text, headerLines_);
        for (const auto& [name, value] : parseTunableLines(text))
            if (algorithm.recipe(program_).declares(name) &&
                !algorithm.recipe(program_).tunable(name).fromInput)
                fork_.values[name] = value;
    }
    for (const std::string& set : o.sets) {
        const auto [name, value] = nameValue(set, "--set");
        settable(name, value);
        fork_.values[name] = value;
    }
    if (!o.params.empty()) { // checked here, before any device: UsageError naming the key
        const nlohmann::json given = readParamsArgument(o.params);
        algorithm.defaultParams().merge(given, o.params.front() == '{' ? "--params (inline JSON)"
                                                                       : "--params " + o.params);
        for (const auto& [key, value] : given.items())
            if (!isProvenanceKey(key)) params_[key] = value;
    }
    if (!o.sweep.empty()) {
        const auto [name, list] = nameValue(o.sweep, "--sweep");
        sweepName_ = name, sweepValues_ = splitList(list);
        for (const std::string& value : sweepValues_)
            settable(name, value);
    }
}

const Tunable& LabPlan::settable(const std::string& name, const std::string& value) const {
    const Tunable* found = nullptr;
    for (const ProgramRecipe& r : recipes_)
        if (r.declares(name)) r.tunable(name).check(value), found = &r.tunable(name);
    if (!found) {
        std::string names;
        for (const ProgramRecipe& r : recipes_)
            for (const Tunable& t : r.tunables())
                if (!t.fromInput) names += (names.empty() ? "" : ", ") + t.name;
        throw UsageError("variant '" + base_ + "' has no tunable " + name +
                         " (its tunables: " + (names.empty() ? "none" : names) + ")");
    }
    if (found->fromInput)
        throw UsageError("tunable " + name + " is set from the input or the parameters");
    return *found;
}

std::vector<ProgramRecipe> LabPlan::chosen() const {
    std::vector<ProgramRecipe> out;
    for (const ProgramRecipe& r : recipes_)
        if (program_.empty() || r.name() == program_) out.push_back(r);
    return out;
}

std::string LabPlan::printSource(const TunableValues& host) const {
    const TunableValues values = ProgramOverrides{fork_.values, {}}.over(host);
    std::string text;
    for (const ProgramRecipe& r : chosen()) {
        const ProgramRecipe built = fork_.apply(r);
        std::size_t lines = 0;
        const ProgramRecipe shown =
            built.sourceReplaced() ? r.withSource(withoutPrintedHeader(built.source(), lines)) : r;
        text += (text.empty() ? "" : "\n") + shown.printable(values);
    }
    return text;
}

ProgramOverrides LabPlan::forkWith(const TunableValues& extra) const {
    ProgramOverrides o = fork_;
    o.values = ProgramOverrides{extra, {}}.over(o.values);
    return o;
}

std::vector<LabJob> LabPlan::jobs() const {
    LabJob base;
    base.algorithm = algorithm_.id(), base.variant = options_.from;
    base.label = options_.from, base.device = options_.device, base.input = options_.input;
    base.size = options_.size, base.repeat = options_.repeat, base.coldCache = options_.coldCache;
    base.params = params_, base.tuning = options_.tuning;
    std::vector<LabJob> jobs{base};
    LabJob fork = base;
    fork.variant = base_, fork.label = "fork";
    const auto forked = [&](const TunableValues& extra, const std::string& label) {
        LabJob job = fork;
        job.programs = forkWith(extra), job.label = label;
        return job;
    };
    if (sweepValues_.empty()) jobs.push_back(forked({}, "fork"));
    for (const std::string& value : sweepValues_)
        jobs.push_back(forked({{sweepName_, value}}, "fork " + sweepName_ + "=" + value));
    for (LabJob& job : jobs)
        job.sourceSha256 = sha256Hex(sourceOf(job));
    return jobs;
}

std::string LabPlan::sourceOf(const LabJob& job) const {
    std::string text;
    for (const ProgramRecipe& r : chosen())
        text += overridesOf(job).apply(r).source();
    return text;
}

const ProgramOverrides& LabPlan::overridesOf(const LabJob& job) const {
    return job.variant == base_ ? job.programs : start_;
}

TunableValues LabPlan::tunablesOf(const LabJob& job, const TunableValues& host) const {
    const TunableValues values = ProgramOverrides{overridesOf(job).values, {}}.over(host);
    TunableValues all;
    for (const ProgramRecipe& r : recipes_)
        for (const auto& [name, value] : r.resolve(values))
            all[name] = value;
    return all;
}

std::vector<SourcePart> LabPlan::sourcePartsOf(const LabJob& job) const {
    const ProgramOverrides& o = overridesOf(job);
    std::vector<SourcePart> parts;
    const std::string file = options_.sourceFile.empty() ? program_ + ".cl" : options_.sourceFile;
    for (const ProgramRecipe& r : chosen())
        for (SourcePart& p : sourceParts(o.apply(r), file)) {
            // The fork's file: its printed header lines come before the program built.
            if (job.variant == base_ && r.name() == program_ && o.sources.count(program_))
                p.fileFirst += headerLines_;
            parts.push_back(std::move(p));
        }
    return parts;
}

UserVariant LabPlan::toSave(const LabJob& job) const {
    UserVariant v;
    v.algorithm = algorithm_.id(), v.name = options_.save, v.base = base_, v.program = program_;
    const ProgramRecipe recipe = job.programs.apply(algorithm_.recipe(program_));
    v.source = recipe.source(); // the program as built; its values are in the JSON
    for (const auto& [name, value] : job.programs.values)
        if (recipe.declares(name)) v.tunables[name] = value;
    return v;
}

} // namespace clscope
