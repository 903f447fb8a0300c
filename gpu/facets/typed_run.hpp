// The prepared run of a typed algorithm (gpu/typed_algorithm.hpp): the request's input as the
// algorithm's own type and its parameters parsed into the algorithm's Params, once. Typed facets
// take it; runOf and resultOf are the one place the generic types are cast to an algorithm's.
#pragma once
#include "core/errors.hpp"
#include "gpu/algorithm.hpp"

#include <memory>
#include <string>
#include <utility>

namespace clscope {

template <class InputT, class ParamsT> class TypedRun : public PreparedRun {
  public:
    TypedRun(const Algorithm& algorithm, const RunRequest& request, ParamsT params)
        : PreparedRun(algorithm, request), params_(std::move(params)) {
        const AlgorithmInput* input = this->request().input.get();
        input_ = dynamic_cast<const InputT*>(input);
        if (input && !input_) throw notMine(algorithm.id(), "input");
    }
    // The input; UsageError when the request has none (a pass plan's or a stream's run).
    const InputT& input() const {
        if (!input_) throw UsageError(algorithm().id() + ": no input to run on");
        return *input_;
    }
    const InputT* inputOrNull() const { return input_; }
    const ParamsT& params() const { return params_; }

    static UsageError notMine(const std::string& id, const std::string& what) {
        return UsageError(id + ": the " + what + " is not a " + id + " " + what);
    }

  private:
    const InputT* input_ = nullptr;
    ParamsT params_;
};

// The prepared run as the algorithm's own (RunT: its TypedRun); UsageError when it is another's.
template <class RunT> const RunT& runOf(const PreparedRun& run) {
    const auto* typed = dynamic_cast<const RunT*>(&run);
    if (!typed) throw UsageError(run.algorithm().id() + ": a run prepared by another algorithm");
    return *typed;
}

// A result as the algorithm's own (ResultT); UsageError naming `id` when it is another's.
template <class ResultT>
std::shared_ptr<ResultT> resultOf(const std::shared_ptr<AlgorithmResult>& result,
                                  const std::string& id) {
    auto typed = std::dynamic_pointer_cast<ResultT>(result);
    if (!typed) throw UsageError(id + ": the result is not a " + id + " result");
    return typed;
}
template <class ResultT> ResultT& resultOf(AlgorithmResult& result, const std::string& id) {
    auto* typed = dynamic_cast<ResultT*>(&result);
    if (!typed) throw UsageError(id + ": the result is not a " + id + " result");
    return *typed;
}
template <class ResultT>
const ResultT& resultOf(const AlgorithmResult& result, const std::string& id) {
    return resultOf<ResultT>(const_cast<AlgorithmResult&>(result), id);
}

} // namespace clscope
