#include "ui/jobs/stored_result.hpp"

#include "core/errors.hpp"
#include "gpu/runtime/devices.hpp"

#include <memory>

namespace clscope::ui {

namespace {

// The run's input from the sources its provenance names, as `want` asks (null: not wanted or,
// for IfItFits, not readable).
std::shared_ptr<const AlgorithmInput> storedInput(const Algorithm& algorithm,
                                                  const RunCommand& command, WholeInput want) {
    if (want == WholeInput::Never) return nullptr;
    try {
        return algorithm.read(command.sources, command.params);
    } catch (const std::exception& e) {
        if (want == WholeInput::IfItFits) return nullptr;
        throw InputError("the " + algorithm.id() + " result is shown with its input, which " +
                         "cannot be read: " + e.what());
    }
}

} // namespace

Job storedResultJob(const Algorithm& algorithm, const std::string& file, WholeInput input,
                    std::function<void(const StoredDelivery&)> deliver) {
    Job job;
    job.algorithm = algorithm.id();
    job.device = hostDevice();
    job.title = "read the " + algorithm.id() + " result of " + file;
    job.work = [&algorithm, file, input, deliver = std::move(deliver)](const Progress& progress) {
        const H5Reader reader(file);
        std::shared_ptr<const AlgorithmResult> result = algorithm.readResult(reader);
        progress.checkCancel();
        StoredDelivery stored;
        stored.command =
            storedCommand(algorithm, result->info, reader.where(algorithm.outputGroup()));
        const auto storedIn = storedInput(algorithm, stored.command, input);
        stored.delivery = {storedIn, result, reproducingLine(stored.command),
                           layoutExport(algorithm, stored.command, storedIn, result)};
        JobOutcome outcome;
        outcome.summary = result->summary();
        if (deliver) outcome.deliver = [deliver, stored] { deliver(stored); };
        return outcome;
    };
    return job;
}

} // namespace clscope::ui
