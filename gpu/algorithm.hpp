// The one algorithm interface. Each algorithm (xpcs, spots, cluster, rbf, ...) describes
// itself through an Algorithm object: its input roles and how they are read, its parameters,
// its variants (the CPU reference among them), how a run goes, how two results compare, how a
// result is written and which synthetic inputs the benchmark uses. The CLI plumbing, the bench
// loop, the GUI batch runner and the comparison view are written once and iterate these.
// Adding an algorithm: its own folders plus one line in gpu/registry.cpp (docs/DESIGN.md).
#pragma once
#include "core/array.hpp"
#include "core/hdf5.hpp"
#include "core/input/frame_range.hpp"
#include "core/input/input_role.hpp"
#include "core/input/input_sources.hpp"
#include "core/io.hpp"
#include "core/params.hpp"
#include "core/progress.hpp"
#include "core/timing.hpp"
#include "gpu/facet.hpp"
#include "gpu/facet_types.hpp"
#include "gpu/recipe.hpp"
#include "gpu/runtime/device_info.hpp"
#include "gpu/variant/variant.hpp"

#include <cstdint>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace clscope {

namespace pipeline {
class FrameStage;
}

// An algorithm's input in memory. Concrete types are each algorithm's own (xpcs::XpcsInput, ...);
// the GUI builds them from what is on screen, the CLI through Algorithm::read.
class AlgorithmInput {
  public:
    virtual ~AlgorithmInput() = default;
    // One line for people, e.g. "500 frames of 201x241 uint8, 15 bins".
    virtual std::string describe() const = 0;
    // Where the input came from (inputProvenance, core/input/provenance.hpp, plus what the
    // algorithm adds). Written into every output's `parameters` attribute (parametersJson).
    nlohmann::json provenance = nlohmann::json::object();
};

// One comparison of a result with the reference, in the algorithm's own metric.
// NaN against a number is a difference; NaN against NaN agrees.
struct Deviation {
    std::string metric;        // e.g. "|Δg2| / max(|g2|, 1e-300)"
    double maxDeviation = 0;   // over every compared element
    double tolerance = 0;      // the algorithm's written tolerance for this metric
    std::size_t compared = 0;  // elements compared
    std::size_t beyond = 0;    // elements beyond the tolerance
    long long firstIndex = -1; // flat index of the first one beyond, -1 when none
    std::string firstWhere;    // the same for people, e.g. "bin 3, lag 17"
    std::string note;          // e.g. "checked on 3 of 45 bins", or why nothing was compared
    bool pass = true;
};

// Elementwise deviation of two arrays of the same length: |a − b| / max(|b|, floor) when
// relative, else |a − b|; NaN rules as above. The building block of most compare()s.
Deviation compareValues(const std::string& metric, const double* got, const double* ref,
                        std::size_t n, double tolerance, bool relative, double floor = 1e-300);

// What every result carries, whatever the algorithm.
struct RunInfo {
    std::string algorithm, variant;
    std::string device;         // device spec, e.g. "ocl:0" or "cpu"
    std::string deviceName;     // e.g. "NVIDIA H200"
    std::string parametersJson; // parameters + input provenance (DESIGN.md §3)
    double kernelMs = 0;        // summed device kernel time (the cpu variant: its compute time)
    double wallMs = 0;          // wall time of run(), transfers and setup included
    std::vector<TimingRecord> timings;
    // The stored entries (events) a run over sparse frames read (entries / wall: events/s);
    // 0 where it read dense frames.
    std::uint64_t entries = 0;
};

class AlgorithmResult {
  public:
    virtual ~AlgorithmResult() = default;
    RunInfo info;
    // The DESIGN.md §3 datasets of this algorithm under `group` plus the provenance attributes.
    virtual void write(H5Writer& out, const std::string& group) const = 0;
    // One line for people, e.g. "15 bins x 500 lags".
    virtual std::string summary() const = 0;
};

// One run: where, which variant, on what, with which parameters.
// Whether a run over several devices splits (runOnDevices): only where the split pays (Auto), or
// whenever the algorithm can (Always: tests, and measuring what a split gives).
enum class SplitRule { Auto, Always };

struct RunRequest {
    DeviceInfo device;
    std::string variant; // "" = the algorithm's default for the device
    std::shared_ptr<const AlgorithmInput> input;
    ParamSet params;
    std::map<std::string, int> tuning; // -D NAME=VALUE kernel overrides (bench --tune)
    // Tunable values and replaced program texts for the programs the run builds (the kernel
    // lab's user variants); applied by the variant wherever it builds a recipe.
    ProgramOverrides programs{};
    SplitRule split = SplitRule::Auto; // over several devices
};

class PassPlan; // gpu/scale/passes.hpp
class Algorithm;

// The variant an algorithm's rule picks for a run's input files when the run names none, and
// why (said on stderr when it runs: runWithinBudget).
struct ChosenVariant {
    std::string variant, why;
};

// One run's request with its input typed and its parameters parsed, once (TypedAlgorithm: a
// TypedRun, gpu/facets/typed_run.hpp): runAlgorithm asks it which variants can run, then runs
// one; every facet takes it (gpu/facet.hpp). Algorithm::prepare also resolves the variant and
// its support verdict, once.
class PreparedRun {
  public:
    PreparedRun(const Algorithm& algorithm, RunRequest request)
        : algorithm_(algorithm), request_(std::move(request)) {}
    virtual ~PreparedRun() = default;
    const Algorithm& algorithm() const { return algorithm_; }
    // The request; its variant is the resolved one after Algorithm::prepare.
    const RunRequest& request() const { return request_; }
    // The parameter values as given (the parts and passes a facet makes are derived from them).
    const ParamSet& values() const { return request_.params; }
    // Whether the variant can run the request's input with its parameters on its device, with
    // the reason when it cannot.
    virtual Support supports(const VariantEntry& variant) const = 0;
    // Runs request().variant.
    virtual std::shared_ptr<AlgorithmResult> run(const Progress& progress) const = 0;

    // Set by Algorithm::prepare: the variant's entry (the preferred one that can run when the
    // request named none), whether prepare chose it, and whether it can run (the reason if not).
    const VariantEntry& variant() const { return *entry_; }
    bool chosen() const { return chosen_; }
    const Support& verdict() const { return verdict_; }
    void resolve();

  private:
    const Algorithm& algorithm_;
    RunRequest request_;
    std::optional<VariantEntry> entry_;
    bool chosen_ = false;
    Support verdict_;
};

class Algorithm {
  public:
    virtual ~Algorithm() = default;
    virtual std::string id() const = 0;                  // xpcs, spots, cluster, rbf
    virtual std::string label() const = 0;               // one line for people
    virtual std::string command() const { return id(); } // clscope-cli subcommand
    virtual std::string outputGroup() const { return std::string(1, '/').append(id()); }
    virtual std::vector<InputRole> inputRoles() const = 0;
    // The input role of that id; UsageError listing the roles when absent. Readers look their
    // roles up by id, never by position.
    InputRole role(const std::string& id) const;
    virtual std::vector<ParamSpec> parameterSpecs() const = 0;
    ParamSet defaultParams() const { return ParamSet(parameterSpecs()); }
    virtual std::vector<VariantEntry> variants() const = 0;
    virtual std::string referenceVariant() const { return "cpu"; }
    // The variant a run's input files call for when it names none on `device` (taken where it
    // can run there and what it holds (streamsFor) fits the memory budget, before the stream
    // stage and the preferred variant), and why: a rule from measurements, decided from what
    // opening the files says and what the device holds. Default: none.
    virtual std::optional<ChosenVariant> choiceFor(const InputSources&, const ParamSet&,
                                                   const DeviceInfo&) const {
        return std::nullopt;
    }
    // Every kernel program the variants build, declared (gpu/recipe.hpp); a variant names its
    // own in VariantInfo::programs. Default: none.
    virtual std::vector<ProgramRecipe> recipes() const { return {}; }
    // The recipe of that name; UsageError listing the algorithm's programs when absent.
    ProgramRecipe recipe(const std::string& name) const;

    // Read every role; InputError naming file, dataset and what was expected.
    virtual std::shared_ptr<const AlgorithmInput> read(const InputSources& sources,
                                                       const ParamSet& params) const = 0;
    // read() for a run of `variant` ("": the device's default), where a variant reads its input
    // its own way (runWithinBudget's whole-input run). Default: read().
    virtual std::shared_ptr<const AlgorithmInput> readFor(const InputSources& sources,
                                                          const ParamSet& params,
                                                          const std::string& /*variant*/) const {
        return read(sources, params);
    }
    // What a variant that reads its input its own way holds in memory, known before anything is
    // read (e.g. a file's stored entries, from its index): runWithinBudget refuses a run whose
    // `bytes` pass the memory budget, naming `what` and `instead` (what to run instead).
    struct Held {
        std::string what;
        std::uint64_t bytes = 0;
        std::string instead;
    };
    // Whether readFor streams `variant`'s input its own way (held as the variant needs it, not
    // as the dense stack), and what it holds: runWithinBudget then plans no passes, whose slabs
    // are read dense, but checks the held bytes against the budget. Default: none.
    virtual std::optional<Held> streamsFor(const InputSources& /*sources*/,
                                           const ParamSet& /*params*/,
                                           const std::string& /*variant*/) const {
        return std::nullopt;
    }
    // What `variant` holds in host memory besides its input (e.g. xpcs' host references on
    // dense lags: one bin's T x T Gram matrix), known before anything is read: runWithinBudget
    // leaves the rest of the budget to the input (its passes or what streamsFor holds) and
    // refuses a run where the two pass the budget. Default: nothing.
    virtual std::optional<Held> holdsBeside(const InputSources& /*sources*/,
                                            const ParamSet& /*params*/,
                                            const std::string& /*variant*/) const {
        return std::nullopt;
    }
    // Whether the variant can run on this device (and, when given, this input with these
    // parameters), with the reason when it cannot. Default: the variant entry's own check.
    virtual Support supports(const VariantEntry& variant, const DeviceInfo& device,
                             const AlgorithmInput* input, const ParamSet* params) const;
    // Run one variant. Reports progress in [0, 1] and checks cancel at least every second.
    // Throws UsageError, InputError, DeviceError or Cancelled. Callers use runAlgorithm().
    virtual std::shared_ptr<AlgorithmResult> run(const RunRequest& request,
                                                 const Progress& progress) const = 0;
    // The request with its input typed and its parameters parsed once (UsageError naming what
    // is wrong); its variant not resolved. The input may be null (passes, streams). Default:
    // supports() and run() on the request as it is.
    virtual std::unique_ptr<PreparedRun> parse(const RunRequest& request) const;
    // parse() and the variant resolved with its support verdict (PreparedRun::resolve): what
    // runAlgorithm runs. UsageError for an unknown variant, before parsing.
    std::unique_ptr<PreparedRun> prepare(const RunRequest& request) const;
    // How far result is from reference, in the algorithm's metric and written tolerance.
    virtual Deviation compare(const AlgorithmResult& result,
                              const AlgorithmResult& reference) const = 0;

    // The entry of a variant id; UsageError listing the ids when unknown.
    VariantEntry variant(const std::string& id) const;
    // The preferred variant among those that can run on the device (and, when given, this
    // input with these parameters); the reference variant when none can.
    std::string defaultVariant(const DeviceInfo& device, const AlgorithmInput* input = nullptr,
                               const ParamSet* params = nullptr) const;
    // Whether the input has a frame stack (a role with `stack`): --frames applies.
    bool readsFrames() const;

    // The facet of that interface the algorithm registered (gpu/facet.hpp), null when none.
    // F's definition is needed where this is called (gpu/facets/F.hpp).
    template <class F> const F* facet() const {
        for (const auto& f : facets_)
            if (const auto* found = dynamic_cast<const F*>(f.get())) return found;
        return nullptr;
    }

    // What the facets give; without the facet, the behaviour written at each. Each is defined
    // beside its facet's interface (gpu/facets/*.cpp).

    // The kernel lab's figures (gpu/facets/lab_facet.hpp). The tunable values the host passes
    // to the variant's programs on this device for this input and these parameters, before any
    // override: its tuning table's per-device values and those set from the input (what the
    // kernel lab prints and forks). Without: none (the recipes' declared defaults).
    TunableValues hostTunables(const std::string& variant, const DeviceInfo& device,
                               const AlgorithmInput& input, const ParamSet& params) const;
    // The work of one run on this input with these parameters (the kernel lab's roofline).
    // Without: none declared.
    RunWork work(const AlgorithmInput& input, const ParamSet& params) const;

    // Bench cases (gpu/facets/bench_facet.hpp): "seed" and "large" at least; UsageError for
    // another size. Without: no sizes, and benchCase refuses.
    std::vector<std::string> benchSizes() const;
    BenchCase benchCase(const std::string& size) const;

    // One run over several devices (gpu/facets/split_facet.hpp): the input cut into at most
    // `parts` pieces (each with the parameters it needs) whose results join() puts back
    // together, identical to one run. Without: the algorithm cannot split (empty), join
    // refuses.
    struct Part {
        std::shared_ptr<const AlgorithmInput> input;
        ParamSet params;
        // Called with the part's error wherever it fails (runOnDevices): parts that wait on
        // each other (a merge of their sums) stop too. None: nothing waits on it.
        std::function<void(std::exception_ptr)> failed{};
    };
    // `variant`: the one the parts run (a facet may split by it), "" where not known.
    std::vector<Part> split(const AlgorithmInput& input, const ParamSet& params, std::size_t parts,
                            const std::string& variant = {}) const;
    std::shared_ptr<AlgorithmResult>
    join(const std::vector<std::shared_ptr<AlgorithmResult>>& parts) const;
    // Why `variant` cannot run on the parts split() makes ("" when it can): such a run goes
    // on the first device whole, and its note says why. Without: every variant can.
    std::string unsplittable(const std::string& variant) const;
    // What a split of this input takes off one device (SplitWork). Without: none declared, so
    // the algorithm's runs split only when the request says Always.
    SplitWork splitWork(const AlgorithmInput& input, const ParamSet& params,
                        const std::string& variant = {}) const;

    // Files besides the HDF5 output that the parameters ask for (e.g. spots --phil OUT.phil):
    // written by the CLI after the output, each atomically (gpu/facets/outputs_facet.hpp).
    // Without: none.
    std::vector<std::pair<std::string, std::string>> sideOutputs(const AlgorithmResult& result,
                                                                 const ParamSet& params) const;

    // Output layouts besides clscope's own (--layout; gpu/facets/layouts_facet.hpp). Without:
    // none. checkLayout: before the run (parameters only, no frames read), UsageError naming
    // what the run over these sources lacks for the layout, or that the algorithm has no such
    // layout. layoutOutput: after it, the result in the layout (input: the run's when it read
    // it whole, else null), UsageError as checkLayout.
    std::vector<OutputLayout> outputLayouts() const;
    void checkLayout(const std::string& layout, const InputSources& sources,
                     const ParamSet& params) const;
    LayoutOutput layoutOutput(const std::string& layout,
                              const std::shared_ptr<AlgorithmResult>& result,
                              const AlgorithmInput* input, const InputSources& sources,
                              const ParamSet& params) const;

    // Runs within a memory budget (gpu/scale/passes.hpp, gpu/facets/passes_facet.hpp): how the
    // input on disk is cut into passes that each read only their part, joined by join(). Null
    // when the whole input fits (read() it whole); UsageError when a piece that cannot be cut
    // exceeds the budget. Without: null (the input is always read whole).
    std::unique_ptr<PassPlan> planPasses(const InputSources& sources, const ParamSet& params,
                                         std::uint64_t budgetBytes) const;

    // Its part of a live run through the streaming pipeline (gpu/pipeline) on `devices` with
    // `request`'s variant and parameters; null where it has none or they need the whole stack
    // (the run then goes through passes) (gpu/facets/stream_facet.hpp). Without: null.
    std::unique_ptr<pipeline::FrameStage> streamStage(const RunRequest& request,
                                                      const std::vector<DeviceInfo>& devices) const;

    // The synthetic datasets this algorithm generates; the first is its demo's
    // (gpu/facets/synthetic_facet.hpp). Without: none.
    std::vector<SyntheticKind> syntheticKinds() const;

    // A result file read back (gpu/facets/result_reader.hpp): whether `file` holds this
    // algorithm's result under outputGroup(), and that result as the algorithm's own type with
    // its provenance (InputError naming a missing or misshapen dataset). Without: holds none,
    // readResult refuses.
    bool holdsResult(const H5Reader& file) const;
    std::shared_ptr<AlgorithmResult> readResult(const H5Reader& file) const;

  protected:
    // Registers a facet (in the algorithm's constructor); one of each interface.
    void add(std::shared_ptr<const Facet> facet) { facets_.push_back(std::move(facet)); }
    // The request borrowing an input the caller holds (the facets' generic entry points), its
    // parameters parsed.
    std::unique_ptr<PreparedRun> parseBorrowed(const AlgorithmInput* input, const ParamSet& params,
                                               const DeviceInfo& device = {},
                                               const std::string& variant = {}) const;

  private:
    std::vector<std::shared_ptr<const Facet>> facets_;
};

// The one way to run: prepares the request once (Algorithm::prepare: parameters parsed, the
// default variant resolved, its support checked; UsageError with the reason), times the run,
// fills RunInfo (provenance included) and the kernel time.
std::shared_ptr<AlgorithmResult> runAlgorithm(const Algorithm& algorithm, RunRequest request,
                                              const Progress& progress = {});

// The same over several devices at once (the request's device is ignored): the input split,
// the parts run in parallel, one per device, and joined. One device: runAlgorithm. The
// result's device is "ocl:0,ocl:1", its kernel time the longest device's, its timing labels
// prefixed with the device. UsageError when the algorithm cannot split. The run goes whole on
// the first device, its device name saying why, where the variant cannot run on parts
// (unsplittable) or, under SplitRule::Auto, where the split saves less than kSplitPaysMs.
std::shared_ptr<AlgorithmResult> runOnDevices(const Algorithm& algorithm, RunRequest request,
                                              const std::vector<DeviceInfo>& devices,
                                              const Progress& progress = {});

// The `parameters` attribute of a run without kernel overrides: parametersJson of the
// parameter values and the input's provenance.
std::string provenanceJson(const AlgorithmInput& input, const ParamSet& params);

// The `parameters` attribute of a run's result (DESIGN.md §3), assembled here alone: the
// parameter values, where the input came from (`input`), the kernel overrides (`tuning`) and
// the tunable values its programs were built with (`tunables`, the kernel lab's). Every route
// (one device, several, passes, the streaming pipeline) records its run through it.
std::string runProvenance(const RunRequest& request, const nlohmann::json& input);

class AlgorithmRegistry {
  public:
    static AlgorithmRegistry& instance();
    void add(std::shared_ptr<const Algorithm> algorithm); // replaces one of the same id
    std::vector<std::shared_ptr<const Algorithm>> all() const { return algorithms_; }
    std::vector<std::string> ids() const;
    const Algorithm* get(const std::string& id) const;  // nullptr when absent
    const Algorithm& find(const std::string& id) const; // UsageError listing the ids
    // The algorithm that generates the synthetic kind `name` and the kind; UsageError listing
    // the kinds when none does.
    std::pair<const Algorithm*, SyntheticKind> synthetic(const std::string& name) const;
    // Every registered algorithm's synthetic kinds, in registration order.
    std::vector<std::pair<const Algorithm*, SyntheticKind>> syntheticKinds() const;
    // The first algorithm whose result `file` holds (Algorithm::holdsResult), null when none.
    const Algorithm* resultIn(const H5Reader& file) const;

  private:
    std::vector<std::shared_ptr<const Algorithm>> algorithms_;
};

} // namespace clscope
