// The kernel lab's report on the terminal (clscope-cli lab, cli_lab.cpp): the rows' table with
// their checks and times, the sweep cache's rows, the roofline, each program's kernels and build
// log, then why each failed row failed.
#pragma once
#include "gpu/lab/lab_plan.hpp"

#include <vector>

namespace clscope::cli {

void printLabReport(const LabPlan& plan, const std::vector<LabRow>& rows, bool coldCache);

} // namespace clscope::cli
