// An algorithm panel whose runs deliver the algorithm's own Result (and Input) types: the job of
// an AlgorithmRun (makeRunJob) hands its result to showResult typed, the type checked once here
// (typedAs: a result of another type fails the run, said in the Log), then the run is finished
// (AlgorithmPanel::runDelivered). A panel derives from TypedPanelOf<its algorithm's class> (the
// Result and Input that algorithm declares), makes its job with runJob and shows the result in
// showResult; its views never cast.
#pragma once
#include "gpu/algorithm.hpp"
#include "gpu/typed_algorithm.hpp"
#include "ui/jobs/algorithm_run.hpp"
#include "ui/kit/algorithm_panel.hpp"
#include "ui/kit/typed_result.hpp"

#include <QPointer>
#include <functional>
#include <memory>
#include <type_traits>

namespace clscope::ui {

template <class Result, class Input = AlgorithmInput> class TypedPanel : public AlgorithmPanel {
  public:
    // What a run delivers, typed.
    struct Delivery {
        std::shared_ptr<const Result> result;
        std::shared_ptr<const Input> input; // null when the run streamed or ran in passes
    };
    // The clscope-cli command line of the result shown ("" before the first delivery).
    QString resultCommand() const { return resultCommand_; }
    // A result read back from its file: the same delivery as a run's (showResult), keepStored
    // instead of the run's keep(), then runEnded(true) as after a run (no run to finish).
    void showStoredResult(const StoredDelivery& stored) final {
        deliver(stored.delivery, [this, &stored] { keepStored(stored.command); });
        runEnded(true);
    }

  protected:
    using AlgorithmPanel::AlgorithmPanel;
    // Shows a run's result, on the GUI thread. What it throws fails the run (the job runner
    // reports "error showing results"; runFinished(false)).
    virtual void showResult(const Delivery& delivery) = 0;
    // The job of `run`: its result goes to showResult, after keep() (what the panel keeps of
    // the run's request, e.g. the parameters it ran with) and with resultCommand() set.
    Job runJob(AlgorithmRun run, std::function<void()> keep = {}) {
        QPointer<TypedPanel> self(this);
        return makeRunJob(std::move(run), [self, keep = std::move(keep)](const RunDelivery& d) {
            if (!self) return; // the panel went away while its job ran
            self->deliver(d, keep);
            self->runDelivered();
        });
    }
    // What the panel keeps of a stored result's run (its parameters, frame range), as keep()
    // does for a run of its own. Default: nothing.
    virtual void keepStored(const RunCommand&) {}

  private:
    // The one delivery of a result to showResult: typed once, keep(), the command line set.
    void deliver(const RunDelivery& d, const std::function<void()>& keep) {
        const Delivery typed{typedAs<Result>(d.result), typedAs<Input>(d.input)};
        if (keep) keep();
        resultCommand_ = QString::fromStdString(d.command);
        showResult(typed);
        offerLayouts(d.layouts);
    }
    QString resultCommand_;
};

namespace detail {
template <class Input, class Params, class Result>
std::type_identity<TypedPanel<Result, Input>>
typedPanelOf(const TypedAlgorithm<Input, Params, Result>*);
} // namespace detail

// The panel base of an algorithm's own types, read from the algorithm's class: TypedPanelOf<
// xpcs::Algorithm> is TypedPanel<xpcs::XpcsResult, xpcs::XpcsInput>. A panel cannot name a result
// type its algorithm does not make.
template <class Algorithm>
using TypedPanelOf =
    typename decltype(detail::typedPanelOf(static_cast<const Algorithm*>(nullptr)))::type;

} // namespace clscope::ui
