// The typed base of an algorithm (gpu/algorithm.hpp): its names, its input, parameters and
// result types are given once, and the algorithm writes supports, run and compare on its own
// types. The casts from the generic interface are made here, once, and the parameters are
// parsed here (parameters()) into the prepared run (TypedRun) that the run and every facet
// take, so no algorithm re-declares the generic overrides. What an algorithm does besides is
// in its facets (gpu/facet.hpp), registered in its constructor.
#pragma once
#include "core/errors.hpp"
#include "gpu/algorithm.hpp"
#include "gpu/facets/typed_run.hpp"

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
    // What the typed facets (gpu/facets/) take: the prepared run and the result type. Named so
    // as not to hide an algorithm's own Input, Params or Result in its member functions.
    using Run = TypedRun<InputT, ParamsT>;
    using ResultType = ResultT;

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
        return parse(request)->run(progress);
    }
    // The input typed and the parameters parsed, once for every check, facet and the run.
    std::unique_ptr<PreparedRun> parse(const RunRequest& request) const final {
        return std::make_unique<Prepared>(*this, request);
    }
    Deviation compare(const AlgorithmResult& result, const AlgorithmResult& reference) const final {
        return compareWith(resultOf<ResultT>(result, id()), resultOf<ResultT>(reference, id()));
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

  private:
    AlgorithmNames names_;

    class Prepared : public Run {
      public:
        Prepared(const TypedAlgorithm& algorithm, const RunRequest& request)
            : Run(algorithm, request, algorithm.parameters(request.params)), algorithm_(algorithm) {
        }
        Support supports(const VariantEntry& variant) const override {
            return algorithm_.supportsWith(variant, this->request().device, this->inputOrNull(),
                                           &this->params());
        }
        std::shared_ptr<AlgorithmResult> run(const Progress& progress) const override {
            return algorithm_.runWith(this->request(), this->input(), this->params(), progress);
        }

      private:
        const TypedAlgorithm& algorithm_;
    };
};

} // namespace clscope
