// ComparisonPresenter exports: the table as CSV (atomically), every run as an HDF5 group.
#include "core/atomic_file.hpp"
#include "core/errors.hpp"
#include "core/hdf5.hpp"
#include "ui/compare/comparison_presenter.hpp"
#include "ui/jobs/algorithm_run.hpp"
#include "ui/results/timings_table.hpp"

#include <cctype>
#include <cstdio>
#include <sstream>

namespace clscope::ui {

namespace {

// Letters, digits, '.', '-' kept; anything else becomes '_' (ocl:0 → ocl_0).
std::string groupSafe(const std::string& text) {
    std::string out = text;
    for (char& c : out)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '-') c = '_';
    return out;
}

std::string number(double value) {
    std::ostringstream out;
    out.precision(10);
    out << value;
    return out.str();
}

} // namespace

std::string ComparisonPresenter::commandLineOf(const ComparisonRow& row) const {
    if (command_.sources.file.empty()) return {};
    RunCommand run = command_;
    run.algorithm = algorithm_.id(), run.params = params_;
    run.device = row.device, run.variant = row.variant;
    if (row.device.find(',') != std::string::npos) run.split = SplitRule::Always; // runOne's
    return reproducingLine(run);
}

std::string ComparisonPresenter::csv() const {
    std::ostringstream out;
    out << "variant,device,kernel_ms,wall_ms,setup_ms,speedup,metric,max_deviation,tolerance,"
           "beyond,first_index,first_where,pass,error,command_line\n";
    for (const ComparisonRow& r : rows_) {
        const Deviation& d = r.deviation;
        out << csvField(r.variant) << ',' << csvField(r.device) << ',' << number(r.kernelMs) << ','
            << number(r.wallMs) << ',' << number(r.setupMs) << ',' << number(r.speedup) << ','
            << csvField(d.metric) << ',' << number(d.maxDeviation) << ',' << number(d.tolerance)
            << ',' << d.beyond << ',' << d.firstIndex << ',' << csvField(d.firstWhere) << ','
            << (r.pass() ? 1 : 0) << ',' << csvField(r.error) << ',' << csvField(commandLineOf(r))
            << '\n';
    }
    return out.str();
}

// The export's provenance: the comparison, its devices and variants, the input and parameters
// (each row's command line is in its own field).
ProvenanceFields ComparisonPresenter::provenance() const {
    RunProvenance run;
    for (const ComparisonRow& r : rows_) {
        const QString device = QString::fromStdString(r.device);
        const QString variant = QString::fromStdString(r.variant);
        if (!run.device.split(' ').contains(device))
            run.device += (run.device.isEmpty() ? "" : " ") + device;
        if (!run.variant.split(' ').contains(variant))
            run.variant += (run.variant.isEmpty() ? "" : " ") + variant;
    }
    run.input = QString::fromStdString(command_.sources.file.empty() ? input_->describe()
                                                                     : command_.sources.file);
    run.parametersJson = QString::fromStdString(provenanceJson(*input_, params_));
    return provenanceFields(QString::fromStdString(algorithm_.id() + ": comparison of variants"),
                            run, {});
}

void ComparisonPresenter::writeHdf5(H5Writer& out) const {
    writeProvenanceAttributes(out, provenance());
    out.createGroup("/compare");
    out.setAttribute("/compare", "algorithm", algorithm_.id());
    out.setAttribute("/compare", "reference", algorithm_.referenceVariant() + " @ cpu");
    out.setAttribute("/compare", "table_csv", csv());
    for (std::size_t i = 0; i < rows_.size(); ++i) {
        const ComparisonRow& r = rows_[i];
        const std::string number = (i < 10 ? "0" : "") + std::to_string(i);
        const std::string group =
            "/compare/" + number + "_" + groupSafe(r.variant) + "_" + groupSafe(r.device);
        if (r.result)
            r.result->write(out, group);
        else
            out.createGroup(group);
        out.setAttribute(group, "deviation_metric", r.deviation.metric);
        out.setAttribute(group, "deviation_max", r.deviation.maxDeviation);
        out.setAttribute(group, "deviation_beyond", static_cast<double>(r.deviation.beyond));
        out.setAttribute(group, "deviation_first_index",
                         static_cast<double>(r.deviation.firstIndex));
        out.setAttribute(group, "pass", r.pass() ? "yes" : "no");
        out.setAttribute(group, "wall_ms", r.wallMs);
        out.setAttribute(group, "setup_ms", r.setupMs);
        if (const std::string line = commandLineOf(r); !line.empty())
            out.setAttribute(group, "command_line", line);
        if (!r.error.empty()) out.setAttribute(group, "error", r.error);
    }
}

void ComparisonPresenter::checkExportable() const {
    if (running_) throw UsageError("the comparison is still running: wait for it or cancel it");
    if (rows_.empty())
        throw UsageError("there is no comparison to export: check cells and press Run");
    if (stale_)
        throw UsageError("the comparison is stale: its input or parameters changed since it ran; "
                         "run it again before exporting");
}

void ComparisonPresenter::exportCsv(const std::string& path) const {
    checkExportable();
    writeFileAtomically(path, csvProvenanceHeader(provenance()) + csv());
}

void ComparisonPresenter::exportHdf5(const std::string& path) const {
    checkExportable();
    H5Writer out(path);
    writeHdf5(out);
    out.commit();
}

} // namespace clscope::ui
