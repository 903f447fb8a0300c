#include "ui/lab/lab_outcome.hpp"

namespace clscope::ui {

int LabOutcome::bestForkRow() const {
    int best = -1;
    for (int i = 1; i < int(rows.size()); ++i) { // row 0: the variant forked from
        const nlohmann::json& r = rows[std::size_t(i)];
        if (!r.value("ran", false) || r.value("check", "") != "pass") continue;
        if (best < 0 || r.value("median_ms", 0.0) < rows[std::size_t(best)].value("median_ms", 0.0))
            best = i;
    }
    return best;
}

} // namespace clscope::ui
