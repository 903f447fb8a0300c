// One run of the Compare dock as its results table shows it: short cells (the result column
// "reference", "pass", "FAIL" or "error"), and the whole story of the result — where it first
// deviates, the metric and tolerance, or the error — for the cell's tooltip and the details
// line under the table (a long result made the table scroll sideways; issue 52).
#pragma once
#include "ui/compare/comparison_presenter.hpp"

#include <QString>
#include <QStringList>

namespace clscope::ui {

// variant, device, kernel ms, wall ms, setup ms, speed-up, max deviation, beyond tol., result.
QStringList comparisonRowCells(const ComparisonRow& row);
// "FAIL — first at frame 3; max |Δ|/|ref|, tolerance 1e-06; NOTE", "error: WHY", ...
QString comparisonRowDetails(const ComparisonRow& row);

} // namespace clscope::ui
