#include "ui/compare/comparison_row_text.hpp"

#include "ui/base/qstring.hpp"

namespace clscope::ui {

namespace {

QString ms(double value) {
    return value > 0 ? QString::number(value, 'f', value < 10 ? 3 : 1) : "—";
}

QString verdict(const ComparisonRow& r) {
    if (!r.error.empty()) return "error";
    return r.reference ? "reference" : r.pass() ? "pass" : "FAIL";
}

} // namespace

QStringList comparisonRowCells(const ComparisonRow& r) {
    const Deviation& d = r.deviation;
    return {q(r.variant),
            q(r.device),
            ms(r.kernelMs),
            ms(r.wallMs),
            ms(r.setupMs),
            r.speedup > 0 ? QString("%1×").arg(r.speedup, 0, 'g', 3) : "—",
            r.error.empty() ? QString::number(d.maxDeviation, 'g', 3) : "—",
            r.error.empty() ? QString("%1 of %2").arg(d.beyond).arg(d.compared) : "—",
            verdict(r)};
}

QString comparisonRowDetails(const ComparisonRow& r) {
    const QString label = q(r.label()) + ": ";
    if (!r.error.empty()) return label + "error: " + q(r.error);
    const Deviation& d = r.deviation;
    QString text = label + verdict(r);
    if (!r.pass() && d.firstIndex >= 0)
        text += QString(" — first at %1")
                    .arg(d.firstWhere.empty() ? QString::number(d.firstIndex) : q(d.firstWhere));
    text += "; " + q(d.metric) + ", tolerance " + QString::number(d.tolerance, 'g', 3);
    if (!d.note.empty()) text += "; " + q(d.note);
    return text;
}

} // namespace clscope::ui
