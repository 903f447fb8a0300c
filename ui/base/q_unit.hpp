// q on screen (issue 52): one unit everywhere, Å⁻¹, the unit of clscope's results (/xpcs/q, the
// XPCS legend, Fits and Γ vs q²). The mask editor computes in nm⁻¹ (pyFAI's, as qmask_q is
// written) and converts at its edges: readouts, label table, partition axis and bounds.
#pragma once
#include <QString>

namespace clscope::ui {

inline const QString qUnit = QStringLiteral("Å⁻¹");

// Å⁻¹ from nm⁻¹, and back.
inline double qShown(double inverseNm) {
    return inverseNm / 10.0;
}
inline double qInverseNm(double shown) {
    return shown * 10.0;
}

// "0.01234 Å⁻¹" of a q in nm⁻¹: five decimals keep the nm⁻¹ table's four.
inline QString qText(double inverseNm) {
    return QString::number(qShown(inverseNm), 'f', 5) + " " + qUnit;
}

} // namespace clscope::ui
