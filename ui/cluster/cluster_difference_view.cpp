#include "ui/cluster/cluster_difference_view.hpp"
#include "core/cluster/digis.hpp"
#include "core/json_parse.hpp"

#include "core/errors.hpp"
#include "core/io.hpp"
#include "gpu/cluster/algorithm.hpp"
#include "ui/cluster/cluster_overview.hpp"
#include "ui/kit/typed_result.hpp"

#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>
#include <nlohmann/json.hpp>

namespace clscope::ui {

namespace {

constexpr int listedAtMost = 5000;

// The digis a run read: "FILE:PATH" of its provenance's digis dataset.
std::shared_ptr<const Digis> digisOfRun(const AlgorithmResult& run) {
    const auto j = parseJsonQuietly(run.info.parametersJson);
    const nlohmann::json* where = nullptr;
    if (j.is_object() && j.contains("input") && j.at("input").contains("datasets") &&
        j.at("input").at("datasets").contains("digis"))
        where = &j.at("input").at("datasets").at("digis");
    if (!where || !where->is_string()) throw InputError("the run does not say which digis it read");
    const std::string text = where->get<std::string>();
    const std::size_t colon = text.rfind(':');
    if (colon == std::string::npos) throw InputError("bad digis location '" + text + "'");
    const H5Reader file(text.substr(0, colon));
    return std::make_shared<Digis>(readDigis(file, text.substr(colon + 1)));
}

} // namespace

ClusterDifferenceView::ClusterDifferenceView(std::shared_ptr<const Digis> digis,
                                             const cluster::Result& a, const std::string& labelA,
                                             const cluster::Result& b, const std::string& labelB,
                                             QWidget* parent)
    : QWidget(parent) {
    difference_ = partitionDifference(*digis, a, b);
    auto* box = new QVBoxLayout(this);
    box->setContentsMargins(0, 0, 0, 0);
    caption_ = new QLabel(this);
    caption_->setWordWrap(true);
    caption_->setText(
        difference_.digis.empty()
            ? QString("%1 and %2 partition all %3 digis alike.")
                  .arg(QString::fromStdString(labelA), QString::fromStdString(labelB))
                  .arg(digis->size())
            : QString("<b>%1 digis in %2 module%3</b> are clustered differently by %4 and %5 "
                      "(a digi differs when the set of digis in its cluster differs).")
                  .arg(difference_.digis.size())
                  .arg(difference_.modulesWithDifferences)
                  .arg(difference_.modulesWithDifferences == 1 ? "" : "s")
                  .arg(QString::fromStdString(labelA), QString::fromStdString(labelB)));
    auto* split = new QSplitter(Qt::Vertical, this);
    overview_ = new ClusterOverview(split);
    overview_->setValues(difference_.perModule, "differing digis per module");
    list_ = new QTableWidget(split);
    box->addWidget(caption_);
    box->addWidget(split, 1);
    fillList(*digis, a, b);
    list_->setHorizontalHeaderLabels({"digi", "module", "x", "y", "adc (e⁻)",
                                      QString::fromStdString("cluster in " + labelA),
                                      QString::fromStdString("cluster in " + labelB)});
}

void ClusterDifferenceView::fillList(const Digis& digis, const cluster::Result& a,
                                     const cluster::Result& b) {
    const int rows = int(std::min<std::size_t>(difference_.digis.size(), listedAtMost));
    list_->setColumnCount(7);
    list_->setRowCount(rows);
    list_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    for (int r = 0; r < rows; ++r) {
        const std::size_t i = difference_.digis[std::size_t(r)];
        const long long values[] = {static_cast<long long>(i),
                                    digis.module[i],
                                    digis.x[i],
                                    digis.y[i],
                                    digis.adc[i],
                                    a.id[i],
                                    b.id[i]};
        for (int c = 0; c < 7; ++c)
            list_->setItem(r, c, new QTableWidgetItem(QString::number(values[c])));
    }
    list_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    if (difference_.digis.size() > std::size_t(rows))
        caption_->setText(caption_->text() + QString(" The list shows the first %1.").arg(rows));
}

QWidget* makeClusterDifferenceView(const AlgorithmResult& a, const AlgorithmResult& b) {
    try {
        const auto& ra = typedAs<cluster::ClusterResult>(a);
        const auto& rb = typedAs<cluster::ClusterResult>(b);
        return new ClusterDifferenceView(digisOfRun(a), ra.clusters,
                                         a.info.variant + " @ " + a.info.device, rb.clusters,
                                         b.info.variant + " @ " + b.info.device);
    } catch (const std::exception& e) {
        auto* label = new QLabel(QString("No cluster difference view: %1").arg(e.what()));
        label->setWordWrap(true);
        return label;
    }
}

} // namespace clscope::ui
