// The kernel lab's report on the terminal (lab_report.hpp).
#include "app/cli/lab_report.hpp"
#include "app/cli/cli_options.hpp"
#include "app/cli/commands.hpp"
#include "gpu/lab/roofline.hpp"

#include <cstdio>
#include <string>

namespace clscope::cli {

namespace {

void printCached(const std::vector<LabRow>& rows) {
    std::string names;
    for (const LabRow& r : rows)
        if (r.cached) names += (names.empty() ? "" : ", ") + r.job.label;
    if (!names.empty())
        std::printf("from the sweep cache (measured before, not again; --no-cache measures "
                    "them): %s\n",
                    names.c_str());
}

std::string checkText(const LabRow& r) {
    return r.ran() ? deviationCell(r.deviation, "pass") : "-";
}

void printTable(const std::vector<LabRow>& rows) {
    std::printf("%-24s %-30s %9s %9s %9s %9s %9s %20s %16s  %s\n", "row", "device", "min ms",
                "p20 ms", "median ms", "p80 ms", "wall ms", "throughput", "check", "note");
    for (const LabRow& r : rows) {
        if (!r.ran()) {
            std::printf("%-24.24s %-30.30s %9s %9s %9s %9s %9s %20s %16s  %s\n",
                        r.job.label.c_str(), r.device.c_str(), "-", "-", "-", "-", "-", "-", "-",
                        (r.failure + ": " + r.message.substr(0, r.message.find('\n'))).c_str());
            continue;
        }
        std::printf("%-24.24s %-30.30s %9.4f %9.4f %9.4f %9.4f %9.2f %10.4g %-9s %16s  %s\n",
                    r.job.label.c_str(), r.device.c_str(), r.minMs, r.p20Ms, r.medianMs, r.p80Ms,
                    r.wallMedianMs, r.throughput, r.unit.c_str(), checkText(r).c_str(),
                    r.deviation.pass ? r.deviation.note.c_str()
                                     : ("first at " + r.deviation.firstWhere + "; " +
                                        std::to_string(r.deviation.beyond) + " of " +
                                        std::to_string(r.deviation.compared) + " beyond " +
                                        std::to_string(r.deviation.tolerance))
                                           .c_str());
    }
}

// Each row's declared work over its median kernel time, against the device's measured peaks.
void printRoofline(const std::vector<LabRow>& rows) {
    const auto first = std::find_if(rows.begin(), rows.end(), [](const LabRow& r) {
        return r.ran() && r.work.bytes + r.work.operations > 0;
    });
    if (first == rows.end()) return;
    std::printf("\nroofline: declared work per run / median ms, against %s's peaks measured by the "
                "probes (%.4g GB/s, %.4g Gop/s fp32, %s; --probe-peaks measures again)\n"
                "%-24s %12s %12s %9s %10s %7s %10s %7s\n",
                first->device.c_str(), first->peaks.bytesPerSecond * 1e-9,
                first->peaks.operationsPerSecond * 1e-9, first->peaks.measured.c_str(), "row",
                "work MB", "work Gop", "op/B", "GB/s", "% peak", "Gop/s", "% peak");
    for (const LabRow& r : rows) {
        if (!r.ran()) continue;
        const Roofline f = rooflineOf(r.work, r.medianMs, r.peaks);
        std::printf("%-24.24s %12.4g %12.4g %9.3g %10.4g %7.1f %10.4g %7.1f\n", r.job.label.c_str(),
                    f.work.bytes * 1e-6, f.work.operations * 1e-9, f.operationsPerByte,
                    f.bytesPerSecond * 1e-9, 100 * f.bandwidthFraction,
                    f.operationsPerSecond * 1e-9, 100 * f.computeFraction);
    }
}

// Each program's kernels with the OpenCL API's figures, its compiled output, then any build log
// that is not blank (NVIDIA's verbose one: registers and spills).
void printPrograms(const std::vector<LabRow>& rows) {
    std::printf("\nkernels (OpenCL): work-group size limit, preferred multiple, local and private "
                "memory\n%-24s %-18s %-24s %8s %8s %9s %9s  %s\n",
                "row", "program", "kernel", "wg limit", "multiple", "local B", "private B",
                "compiled output");
    for (const LabRow& r : rows)
        for (const ProgramFigures& p : r.programs)
            for (const KernelFigures& k : p.kernels)
                std::printf(
                    "%-24.24s %-18.18s %-24.24s %8llu %8llu %9llu %9llu  %s %llu B%s\n",
                    r.job.label.c_str(), p.program.c_str(), k.name.c_str(),
                    (unsigned long long)k.workGroupSize, (unsigned long long)k.preferredMultiple,
                    (unsigned long long)k.localMemBytes, (unsigned long long)k.privateMemBytes,
                    p.binaryText ? "text" : "binary", (unsigned long long)p.binaryBytes,
                    p.binaryFile.empty() ? "" : (", " + p.binaryFile).c_str());
    for (const LabRow& r : rows)
        for (const ProgramFigures& p : r.programs)
            if (p.buildLog.find_first_not_of(" \t\r\n") != std::string::npos)
                std::printf("\nbuild log of %s (%s, %s):\n%s\n", r.job.label.c_str(),
                            p.program.c_str(), p.options.c_str(), p.buildLog.c_str());
}

// Build failures with the log at the lines of the user's file; other failures as one line.
// Why a row that ran failed its check, in one line.
std::string checkFailure(const Deviation& d) {
    char text[256];
    std::snprintf(text, sizeof text, "%zu of %zu elements beyond the tolerance %g (%s %g", d.beyond,
                  d.compared, d.tolerance, d.metric.c_str(), d.maxDeviation);
    return text + (d.firstWhere.empty() ? std::string() : ", first at " + d.firstWhere) + ")";
}

// clscope's reason for each row that failed, then what the workers wrote on stderr (a
// compiler's "4 errors generated." after clscope's "the build failed").
void reportFailures(const LabPlan& plan, const std::vector<LabRow>& rows) {
    for (const LabRow& r : rows)
        if (r.ran() && !r.deviation.pass)
            std::cerr << "clscope-cli: lab: " << r.job.label
                      << ": check failed: " << checkFailure(r.deviation) << "\n";
    for (const LabRow& r : rows) {
        if (r.ran()) continue;
        std::cerr << "clscope-cli: lab: " << r.job.label << ": " << r.failure << ": ";
        if (r.failure != "build") {
            std::cerr << r.message << "\n";
            continue;
        }
        const std::string mapped = mapBuildLog(r.message, plan.sourcePartsOf(r.job));
        std::cerr << "the build failed\n"
                  << mapped << (mapped.empty() ? "" : "full message: ") << r.message << "\n";
    }
    for (const LabRow& r : rows)
        std::cerr << r.workerErrors;
}

} // namespace

void printLabReport(const LabPlan& plan, const std::vector<LabRow>& rows, bool coldCache) {
    printTable(rows);
    printCached(rows);
    if (coldCache && !rows.empty() && rows.front().coldCacheBytes > 0)
        std::printf("cold cache: %llu bytes written on the device before each timed run\n",
                    (unsigned long long)rows.front().coldCacheBytes);
    printRoofline(rows);
    printPrograms(rows);
    reportFailures(plan, rows);
}

} // namespace clscope::cli
