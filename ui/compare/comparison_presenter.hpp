// The comparison of one algorithm's variants across devices (no widgets; the view is
// comparison_view.hpp). The grid is variants × devices (the algorithm's variants, then the
// user's `user:NAME` from the kernel lab; listDevices(): the host `cpu` and every OpenCL device),
// each cell with Algorithm::supports() and its reason. Run executes the checked cells as ONE job:
// the reference variant on the host first, then each cell through runAlgorithm() twice (an untimed
// warm-up that pays kernel builds, then the timed run), progress per cell, Cancel between and
// inside cells. Each finished run becomes a row (times, speed-up against the reference, the
// Deviation); rows stay when cancelled. Rows are bound to the input they ran on: a new input marks
// them stale, and stale rows are not exported.
#pragma once
#include "gpu/algorithm.hpp"
#include "gpu/command_line.hpp"
#include "ui/jobs/job_runner.hpp"
#include "ui/results/provenance.hpp"

#include <QObject>
#include <atomic>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace clscope::ui {

struct ComparisonRow {
    std::string variant, device, deviceName;
    bool reference = false;
    double kernelMs = 0, wallMs = 0; // of the timed run, after an untimed warm-up run
    double setupMs = 0; // one-time setup: the warm-up's wall time minus the timed run's
    double speedup = 0; // reference kernel time / this kernel time (0: unknown)
    Deviation deviation;
    std::string error; // the run failed: why (then there is no result)
    std::shared_ptr<const AlgorithmResult> result;
    bool pass() const { return error.empty() && deviation.pass; }
    std::string label() const { return variant + " @ " + device; } // "gemm @ ocl:0"
};

struct ComparisonCell {
    std::size_t variant = 0, device = 0;
};

class ComparisonPresenter : public QObject {
    Q_OBJECT
  public:
    // devices: empty = listDevices(). Throws UsageError for an unknown algorithm.
    explicit ComparisonPresenter(const std::string& algorithm, std::vector<DeviceInfo> devices = {},
                                 QObject* parent = nullptr);
    ~ComparisonPresenter() override;

    const Algorithm& algorithm() const { return algorithm_; }
    const std::vector<VariantEntry>& variants() const { return variants_; }
    const std::vector<DeviceInfo>& devices() const { return devices_; }
    // A column that runs one split over several devices (runOnDevices: Algorithm::split/join),
    // beside the single-device columns; its spec is "ocl:0,ocl:1". Every OpenCL GPU makes one
    // such column by itself when there are two or more. Returns the column.
    std::size_t addDeviceGroup(const std::vector<DeviceInfo>& members);
    bool isDeviceGroup(std::size_t device) const { return groups_.count(device) > 0; }

    // The input and parameters the next Run uses; support is re-checked against them and
    // rows of an earlier input become stale. command: the run as clscope-cli names it (its
    // sources; device and variant are each row's), for the exports' command lines.
    void setInput(std::shared_ptr<const AlgorithmInput> input, ParamSet params,
                  RunCommand command = {});
    bool hasInput() const { return input_ != nullptr; }
    const ParamSet& params() const { return params_; }

    Support support(std::size_t variant, std::size_t device) const;
    // false (and unchecked) when the device cannot run the variant.
    bool setChecked(std::size_t variant, std::size_t device, bool on);
    bool isChecked(std::size_t variant, std::size_t device) const;
    void checkAllSupported();
    // Checked cells in grid order (variants, then devices).
    std::vector<ComparisonCell> checkedCells() const;
    // Where the reference runs: the reference variant on the host.
    std::size_t referenceVariant() const;
    std::size_t hostDevice() const;

    // The job of the checked cells (UsageError without input or cells); run() submits it.
    Job makeJob();
    bool run(JobRunner& runner);
    void cancel();
    bool isRunning() const { return running_; }
    bool isCancelling() const { return running_ && cancel_.load(); }

    const std::vector<ComparisonRow>& rows() const { return rows_; }
    bool isStale() const { return stale_; }
    void markStale();
    void clearRows();

    // variant, device, kernel_ms, wall_ms, setup_ms, speedup, metric, max_deviation, tolerance,
    // beyond, first_index, first_where, pass, error, command_line — one row per run.
    std::string csv() const;
    // The clscope-cli command line that repeats a row's run ("" without sources).
    std::string commandLineOf(const ComparisonRow& row) const;
    // One group per run: /compare/<NN>_<variant>_<device> (AlgorithmResult::write, provenance
    // included, and its command_line) plus the table as attributes of /compare; the export's
    // provenance on the root group.
    void writeHdf5(H5Writer& out) const;
    // UsageError when there is nothing current to export (no rows, stale, running).
    void exportCsv(const std::string& path) const;
    void exportHdf5(const std::string& path) const;

  signals:
    void gridChanged();
    void started(int cells);
    void cellStarted(int index, int cells, const QString& label);
    void rowAdded(int row);
    void cancelling();
    void runTimings(const clscope::ui::RunTimings& timings);
    void finished(bool completed); // completed: every cell ran (failed cells included)
    void staleChanged(bool stale);

  private:
    // What one Run works on, fixed when it starts.
    struct Batch {
        std::vector<ComparisonCell> cells; // the reference first
        std::shared_ptr<const AlgorithmInput> input;
        ParamSet params;
    };
    void checkExportable() const;
    ProvenanceFields provenance() const;
    void runCells(const Batch& batch, const Progress& progress);
    ComparisonRow runOne(const Batch& batch, const ComparisonCell& cell,
                         const ComparisonRow* reference, const Progress& progress);
    void deliverRow(ComparisonRow row, RunTimings timings);
    const Algorithm& algorithm_;
    std::vector<VariantEntry> variants_;
    std::vector<DeviceInfo> devices_;
    std::map<std::size_t, std::vector<DeviceInfo>> groups_; // column -> its devices
    std::vector<std::vector<char>> checked_;
    std::shared_ptr<const AlgorithmInput> input_;
    ParamSet params_;
    RunCommand command_;
    std::vector<ComparisonRow> rows_;
    std::atomic<bool> cancel_{false};
    bool running_ = false;
    int pendingCells_ = 0;
    bool stale_ = false;
};

} // namespace clscope::ui
