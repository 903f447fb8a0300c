// ComparisonPresenter: the grid and the batch job. Export: comparison_export.cpp.
#include "ui/compare/comparison_presenter.hpp"

#include "core/errors.hpp"
#include "gpu/runtime/devices.hpp"
#include "gpu/variant/user_variants.hpp"
#include "ui/jobs/job_runner.hpp"

#include <QMetaObject>
#include <QString>
#include <algorithm>

namespace clscope::ui {

namespace {

// The algorithm's variants, then the user's (user:NAME: the base variant's entry under the
// user's id), so the grid runs every variant on every device.
std::vector<VariantEntry> everyVariant(const Algorithm& algorithm) {
    std::vector<VariantEntry> all = algorithm.variants();
    for (const UserVariant& user : listUserVariants(algorithm.id())) {
        try {
            all.push_back(algorithm.variant(user.id()));
        } catch (const std::exception&) { // its base is gone: not offered
        }
    }
    return all;
}

} // namespace

ComparisonPresenter::ComparisonPresenter(const std::string& algorithm,
                                         std::vector<DeviceInfo> devices, QObject* parent)
    : QObject(parent), algorithm_(AlgorithmRegistry::instance().find(algorithm)),
      variants_(everyVariant(algorithm_)),
      devices_(devices.empty() ? listDevices() : std::move(devices)),
      params_(algorithm_.defaultParams()) {
    qRegisterMetaType<clscope::ui::RunTimings>();
    checked_.assign(variants_.size(), std::vector<char>(devices_.size(), 0));
    std::vector<DeviceInfo> gpus;
    for (const DeviceInfo& d : devices_)
        if (d.type == "GPU") gpus.push_back(d);
    if (gpus.size() >= 2) addDeviceGroup(gpus);
}

std::size_t ComparisonPresenter::addDeviceGroup(const std::vector<DeviceInfo>& members) {
    if (members.size() < 2) throw UsageError("a device group needs two or more devices");
    DeviceInfo column = members.front();
    column.spec.clear();
    for (const DeviceInfo& d : members)
        column.spec += (column.spec.empty() ? "" : ",") + d.spec;
    column.name = std::to_string(members.size()) + " devices, split: " + members.front().name;
    devices_.push_back(column);
    groups_[devices_.size() - 1] = members;
    for (std::vector<char>& row : checked_)
        row.push_back(0);
    return devices_.size() - 1;
}

ComparisonPresenter::~ComparisonPresenter() {
    cancel_ = true;
}

void ComparisonPresenter::setInput(std::shared_ptr<const AlgorithmInput> input, ParamSet params,
                                   RunCommand command) {
    input_ = std::move(input);
    params_ = std::move(params);
    command_ = std::move(command);
    for (std::size_t v = 0; v < variants_.size(); ++v)
        for (std::size_t d = 0; d < devices_.size(); ++d)
            if (!support(v, d).ok) checked_[v][d] = 0;
    markStale();
    emit gridChanged();
}

Support ComparisonPresenter::support(std::size_t variant, std::size_t device) const {
    // A user variant runs as its base variant: the base's checks are its own.
    const std::string& id = variants_.at(variant).info.id;
    const VariantEntry entry = isUserVariantId(id)
                                   ? algorithm_.variant(builtInVariantOf(algorithm_.id(), id))
                                   : variants_[variant];
    const auto group = groups_.find(device);
    if (group == groups_.end())
        return algorithm_.supports(entry, devices_.at(device), input_.get(),
                                   input_ ? &params_ : nullptr);
    for (const DeviceInfo& member : group->second) { // a split runs where every part can
        const Support s =
            algorithm_.supports(entry, member, input_.get(), input_ ? &params_ : nullptr);
        if (!s.ok) return s;
    }
    return {};
}

bool ComparisonPresenter::setChecked(std::size_t variant, std::size_t device, bool on) {
    const bool ok = !on || support(variant, device).ok;
    checked_.at(variant).at(device) = on && ok;
    return ok;
}

bool ComparisonPresenter::isChecked(std::size_t variant, std::size_t device) const {
    return checked_.at(variant).at(device) != 0;
}

void ComparisonPresenter::checkAllSupported() {
    for (std::size_t v = 0; v < variants_.size(); ++v)
        for (std::size_t d = 0; d < devices_.size(); ++d)
            setChecked(v, d, true);
    emit gridChanged();
}

std::vector<ComparisonCell> ComparisonPresenter::checkedCells() const {
    std::vector<ComparisonCell> out;
    for (std::size_t v = 0; v < variants_.size(); ++v)
        for (std::size_t d = 0; d < devices_.size(); ++d)
            if (checked_[v][d]) out.push_back({v, d});
    return out;
}

std::size_t ComparisonPresenter::referenceVariant() const {
    const std::string id = algorithm_.referenceVariant();
    for (std::size_t v = 0; v < variants_.size(); ++v)
        if (variants_[v].info.id == id) return v;
    throw UsageError(algorithm_.id() + ": the reference variant '" + id +
                     "' is not among its variants");
}

std::size_t ComparisonPresenter::hostDevice() const {
    for (std::size_t d = 0; d < devices_.size(); ++d)
        if (devices_[d].isHost()) return d;
    throw UsageError("no host device to run the reference on");
}

void ComparisonPresenter::markStale() {
    if (rows_.empty() || stale_) return;
    stale_ = true;
    emit staleChanged(true);
}

void ComparisonPresenter::clearRows() {
    rows_.clear();
    if (stale_) emit staleChanged(stale_ = false);
}

Job ComparisonPresenter::makeJob() {
    if (!input_)
        throw UsageError("nothing to compare on: no input (open a file and assign its roles)");
    std::vector<ComparisonCell> cells = checkedCells();
    if (cells.empty())
        throw UsageError("check at least one cell of the grid that its device can run");
    // The reference on the host first (once, also when its own cell is checked).
    const ComparisonCell reference{referenceVariant(), hostDevice()};
    std::erase_if(cells, [&](const ComparisonCell& c) {
        return c.variant == reference.variant && c.device == reference.device;
    });
    cells.insert(cells.begin(), reference);
    Job job;
    job.title = "compare " + algorithm_.id() + ": " + std::to_string(cells.size()) + " runs";
    job.algorithm = algorithm_.id();
    job.device = devices_[reference.device];
    for (const ComparisonCell& c : cells) {
        job.watchKernels = job.watchKernels || isUserVariantId(variants_.at(c.variant).info.id);
        job.otherDevices.push_back(devices_[c.device].spec);
    }
    pendingCells_ = static_cast<int>(cells.size());
    job.work = [this, batch = Batch{cells, input_, params_}](const Progress& progress) {
        runCells(batch, progress);
        const auto& cells = batch.cells;
        JobOutcome outcome;
        outcome.summary = std::to_string(cells.size()) + " runs compared";
        return outcome;
    };
    return job;
}

bool ComparisonPresenter::run(JobRunner& runner) {
    if (running_) return false;
    Job job = makeJob();
    const int cells = pendingCells_;
    clearRows();
    cancel_ = false;
    if (!runner.submit(std::move(job))) return false;
    running_ = true;
    connect(&runner, &JobRunner::cancelRequested, this, &ComparisonPresenter::cancel,
            Qt::UniqueConnection);
    connect(
        &runner, &JobRunner::succeeded, this,
        [this] {
            running_ = false;
            emit finished(true);
        },
        Qt::SingleShotConnection);
    connect(
        &runner, &JobRunner::finished, this,
        [this] {
            if (!running_) return;
            running_ = false;
            emit finished(false);
        },
        Qt::SingleShotConnection);
    emit started(cells);
    return true;
}

void ComparisonPresenter::cancel() {
    if (!running_ || cancel_) return;
    cancel_ = true;
    emit cancelling();
}

// On the job runner's worker thread: the input, parameters and cells were fixed at makeJob.
void ComparisonPresenter::runCells(const Batch& batch, const Progress& progress) {
    const std::vector<ComparisonCell>& cells = batch.cells;
    const double count = static_cast<double>(cells.size());
    std::optional<ComparisonRow> reference;
    for (std::size_t i = 0; i < cells.size(); ++i) {
        if (progress.cancelled()) cancel_ = true;
        if (cancel_) throw Cancelled();
        const QString label = QString::fromStdString(variants_[cells[i].variant].info.id + " @ " +
                                                     devices_[cells[i].device].spec);
        QMetaObject::invokeMethod(
            this, [this, i, n = int(count), label] { emit cellStarted(int(i), n, label); },
            Qt::QueuedConnection);
        progress.report(double(i) / count);
        // The cell's own progress: scaled into the batch, cancel from either side.
        const Progress inner(
            [this, &progress, i, count](double f) {
                progress.report((double(i) + f) / count);
                if (progress.cancelled()) cancel_ = true;
            },
            &cancel_);
        ComparisonRow row = runOne(batch, cells[i], reference ? &*reference : nullptr, inner);
        if (i == 0) reference = row;
        RunTimings timings{algorithm_.id(),
                           row.variant,
                           row.device + " " + row.deviceName,
                           row.result ? row.result->info.timings : std::vector<TimingRecord>{},
                           row.result ? row.result->info.entries : 0,
                           row.result ? row.result->info.wallMs : 0.0};
        QMetaObject::invokeMethod(
            this, [this, row, timings] { deliverRow(row, timings); }, Qt::QueuedConnection);
    }
    progress.report(1.0);
}

ComparisonRow ComparisonPresenter::runOne(const Batch& batch, const ComparisonCell& cell,
                                          const ComparisonRow* reference,
                                          const Progress& progress) {
    ComparisonRow row;
    row.variant = variants_[cell.variant].info.id;
    row.device = devices_[cell.device].spec;
    row.deviceName = devices_[cell.device].name;
    row.reference = reference == nullptr;
    RunRequest request{devices_[cell.device], row.variant, batch.input, batch.params, {}};
    // A column of several devices is there to measure the split: it always splits.
    request.split = SplitRule::Always;
    const auto group = groups_.find(cell.device);
    // Each half of the cell's progress: the warm-up, then the timed run.
    const auto runHalf = [&](double from) {
        const Progress half([&progress, from](double f) { progress.report(from + f / 2); },
                            progress.cancelFlag());
        return group == groups_.end() ? runAlgorithm(algorithm_, request, half)
                                      : runOnDevices(algorithm_, request, group->second, half);
    };
    try {
        // The warm-up pays the one-time setup (kernel builds, first allocations) and is not
        // timed; the row's times are the second run's, its setup the difference of the walls.
        const std::shared_ptr<const AlgorithmResult> warmUp = runHalf(0.0);
        row.result = runHalf(0.5);
        row.setupMs = std::max(0.0, warmUp->info.wallMs - row.result->info.wallMs);
    } catch (const Cancelled&) {
        throw;
    } catch (const std::exception& e) {
        row.error = e.what();
        row.deviation.pass = false;
        return row;
    }
    row.kernelMs = row.result->info.kernelMs;
    row.wallMs = row.result->info.wallMs;
    if (!reference) {
        row.speedup = 1.0;
        row.deviation = algorithm_.compare(*row.result, *row.result);
    } else if (reference->result) {
        row.speedup = row.kernelMs > 0 ? reference->kernelMs / row.kernelMs : 0.0;
        row.deviation = algorithm_.compare(*row.result, *reference->result);
    } else {
        row.deviation.pass = false;
        row.deviation.note = "the reference failed: nothing to compare with";
    }
    return row;
}

void ComparisonPresenter::deliverRow(ComparisonRow row, RunTimings timings) {
    rows_.push_back(std::move(row));
    if (!timings.records.empty()) emit runTimings(timings);
    emit rowAdded(static_cast<int>(rows_.size()) - 1);
}

} // namespace clscope::ui
