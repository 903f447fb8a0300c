// The typed base of an algorithm (gpu/algorithm.hpp): its names, its input, parameters and
// result types are given once, and the algorithm writes supports, run, compare, split and join
// on its own types. The casts from the generic interface are made here, once, and the
// parameters are parsed here (parameters()), so no algorithm re-declares the generic overrides.
#pragma once
#include "core/errors.hpp"
#include "gpu/algorithm.hpp"

#include <memory>
#include <string>
#include <vector>

namespace clscope {

// What names an algorithm: its id, one line for people, its clscope-cli subcommand ("": the
// id) and its output group ("": "/" + id).
struct AlgorithmNames {
    std::string id, label, command = {}, outputGroup = {};
};

template <class InputT, class ParamsT, class ResultT>
class TypedAlgorithm : public clscope::Algorithm {
  public:
    explicit TypedAlgorithm(AlgorithmNames names) : names_(std::move(names)) {}
    std::string id() const final { return names_.id; }
    std::string label() const final { return names_.label; }
    std::string command() const final {
        return names_.command.empty() ? names_.id : names_.command;
    }
    std::string outputGroup() const final {
        return names_.outputGroup.empty() ? "/" + names_.id : names_.outputGroup;
    }

    // The algorithm's parameters from the parameter set, kernel tuning not included (the run
    // adds the request's): UsageError naming what is wrong.
    virtual ParamsT parameters(const ParamSet& params) const = 0;

    Support supports(const VariantEntry& variant, const DeviceInfo& device,
                     const AlgorithmInput* input, const ParamSet* params) const final {
        const auto* in = dynamic_cast<const InputT*>(input); // another type: as none
        if (!params) return supportsWith(variant, device, in, nullptr);
        const ParamsT parsed = parameters(*params);
        return supportsWith(variant, device, in, &parsed);
    }
    std::shared_ptr<AlgorithmResult> run(const RunRequest& request,
                                         const Progress& progress) const final {
        return prepare(request)->run(request, progress);
    }
    // The input typed and the parameters parsed, once for every check and the run.
    std::unique_ptr<PreparedRun> prepare(const RunRequest& request) const final {
        return std::make_unique<Prepared>(*this, request);
    }
    Deviation compare(const AlgorithmResult& result, const AlgorithmResult& reference) const final {
        return compareWith(typed(result), typed(reference));
    }
    TunableValues hostTunables(const std::string& variant, const DeviceInfo& device,
                               const AlgorithmInput& input, const ParamSet& params) const final {
        return hostTunablesWith(variant, device, typed(&input), parameters(params));
    }
    RunWork work(const AlgorithmInput& input, const ParamSet& params) const final {
        return workWith(typed(&input), parameters(params));
    }
    std::vector<Part> split(const AlgorithmInput& input, const ParamSet& params,
                            std::size_t parts) const final {
        return splitWith(typed(&input), params, parts);
    }
    SplitWork splitWork(const AlgorithmInput& input, const ParamSet& params) const final {
        return splitWorkWith(typed(&input), parameters(params));
    }
    std::shared_ptr<AlgorithmResult>
    join(const std::vector<std::shared_ptr<AlgorithmResult>>& parts) const final {
        std::vector<std::shared_ptr<ResultT>> typedParts;
        for (const auto& part : parts)
            typedParts.push_back(typed(part));
        return joinWith(typedParts);
    }

  protected:
    // Whether the variant runs on the device and, when given, on this input with these
    // parameters, with the reason when not. Default: the variant entry's own check.
    virtual Support supportsWith(const VariantEntry& variant, const DeviceInfo& device,
                                 const InputT* input, const ParamsT* params) const {
        (void)input, (void)params;
        return variant.supports(device);
    }
    // One run of request.variant (resolved) on the input with the parsed parameters.
    virtual std::shared_ptr<ResultT> runWith(const RunRequest& request, const InputT& input,
                                             ParamsT params, const Progress& progress) const = 0;
    virtual Deviation compareWith(const ResultT& result, const ResultT& reference) const = 0;
    // The host's tunable values for the variant's programs (Algorithm::hostTunables). Default:
    // none.
    virtual TunableValues hostTunablesWith(const std::string& variant, const DeviceInfo& device,
                                           const InputT& input, const ParamsT& params) const {
        (void)variant, (void)device, (void)input, (void)params;
        return {};
    }
    // The work of one run (Algorithm::work). Default: none declared.
    virtual RunWork workWith(const InputT& input, const ParamsT& params) const {
        (void)input, (void)params;
        return {};
    }
    // Default: the algorithm cannot split (empty), and join refuses.
    virtual std::vector<Part> splitWith(const InputT& input, const ParamSet& params,
                                        std::size_t parts) const {
        return clscope::Algorithm::split(input, params, parts);
    }
    // What a split takes off one device (Algorithm::splitWork). Default: none declared.
    virtual SplitWork splitWorkWith(const InputT& input, const ParamsT& params) const {
        (void)input, (void)params;
        return {};
    }
    virtual std::shared_ptr<AlgorithmResult>
    joinWith(const std::vector<std::shared_ptr<ResultT>>& parts) const {
        return clscope::Algorithm::join({parts.begin(), parts.end()});
    }

  private:
    AlgorithmNames names_;

    class Prepared : public PreparedRun {
      public:
        Prepared(const TypedAlgorithm& algorithm, const RunRequest& request)
            : algorithm_(algorithm), device_(request.device),
              input_(algorithm.typed(request.input.get())),
              params_(algorithm.parameters(request.params)) {}
        Support supports(const VariantEntry& variant) const override {
            return algorithm_.supportsWith(variant, device_, &input_, &params_);
        }
        std::shared_ptr<AlgorithmResult> run(const RunRequest& request,
                                             const Progress& progress) const override {
            return algorithm_.runWith(request, input_, params_, progress);
        }

      private:
        const TypedAlgorithm& algorithm_;
        DeviceInfo device_;
        const InputT& input_;
        ParamsT params_;
    };

    UsageError notMine(const std::string& what) const {
        return UsageError(names_.id + ": the " + what + " is not a " + names_.id + " " + what);
    }

    const InputT& typed(const AlgorithmInput* input) const {
        const auto* in = dynamic_cast<const InputT*>(input);
        if (!in) throw notMine("input");
        return *in;
    }
    const ResultT& typed(const AlgorithmResult& result) const {
        const auto* r = dynamic_cast<const ResultT*>(&result);
        if (!r) throw notMine("result");
        return *r;
    }
    std::shared_ptr<ResultT> typed(const std::shared_ptr<AlgorithmResult>& result) const {
        auto r = std::dynamic_pointer_cast<ResultT>(result);
        if (!r) throw notMine("result");
        return r;
    }
};

} // namespace clscope
