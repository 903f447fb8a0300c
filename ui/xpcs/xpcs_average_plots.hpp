// The plots of the XPCS Average view: each run's g2 of one bin (kept runs in colour, rejected
// ones dashed red, the selected run thicker) with the average in black over them, and each
// run's intensity against time of that bin (/xpcs/intensity_vs_time). Legends outside the data.
#pragma once
#include "core/xpcs/average_file.hpp"

#include <optional>
#include <vector>

class QCustomPlot;
class QWidget;

namespace clscope::ui {

// The g2 plot (log τ axis) and the intensity plot, titled, legend under the axes.
QCustomPlot* makeAverageG2Plot(QWidget* parent);
QCustomPlot* makeAverageIntensityPlot(QWidget* parent);

// What the plots draw: the runs, their verdicts (none before an average), the bin, the run
// selected in the table (none: -1).
struct AveragePlotData {
    const std::vector<xpcs::AverageRun>* runs = nullptr;
    const xpcs::AverageOutcome* outcome = nullptr; // nullptr: no verdicts yet
    std::size_t bin = 0;
    int selected = -1;
};

void plotAverageG2(QCustomPlot& plot, const AveragePlotData& data);
void plotAverageIntensity(QCustomPlot& plot, const AveragePlotData& data);

} // namespace clscope::ui
