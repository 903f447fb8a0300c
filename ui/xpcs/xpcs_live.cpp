#include "ui/xpcs/xpcs_live.hpp"

#include "gpu/xpcs/algorithm.hpp"
#include "gpu/xpcs/live_choice.hpp"
#include "ui/kit/typed_result.hpp"
#include "ui/results/plot_legend.hpp"
#include "ui/xpcs/xpcs_g2_view.hpp"

#include <QLabel>
#include <QVBoxLayout>
#include <cmath>
#include <qcustomplot.h>

namespace clscope::ui {

namespace {

constexpr std::size_t binsDrawn = 6;

class XpcsLive : public LiveSeriesAnalysis {
  public:
    XpcsLive(const LiveContext& c, QWidget* parent)
        : algorithm_(AlgorithmRegistry::instance().find("xpcs")), device_(c.device),
          frameTime_(c.frameTime), plot_(titledPlotLegendBelow(parent, title())) {
        params_ = algorithm_.defaultParams();
        params_.set("multitau", true);
        variant_ = algorithm_.defaultVariant(device_, nullptr, &params_); // the dense ones refuse
        labels_ = masked(*c.labels, c.mask);
        buildPlot();
    }
    QString title() const override { return "XPCS multi-tau g2"; }
    QWidget* widget() override { return plot_; }

    std::function<void()> analyse(const Array& frames) override {
        if (frames.frameCount() < 2) return {};
        auto in = xpcs::makeInput(frames, labels_, {{"file", "live stream"}});
        if (frameTime_ > 0) in->frameTime = frameTime_;
        // Mostly zero frames on an OpenCL device: the sparse path, by the pipeline's live rule.
        const bool opencl = device_.index >= 0 && variant_ == "multitau";
        const std::string variant =
            opencl && xpcs::liveChoiceOf(frames, labels_).sparse ? "sparse" : variant_;
        const auto result = runAlgorithm(algorithm_, {device_, variant, in, params_, {}});
        const xpcs::Result r = typedAs<xpcs::XpcsResult>(*result).result;
        return [this, r] { draw(r); };
    }

  private:
    // Labels of the pixels the start message's mask keeps.
    static LabelMask masked(LabelMask labels, const PixelMask& mask) {
        if (mask.bad.size() == labels.labels.size())
            for (std::size_t i = 0; i < mask.bad.size(); ++i)
                if (mask.bad[i]) labels.labels[i] = 0;
        return labels;
    }

    void buildPlot() {
        plot_->xAxis->setScaleType(QCPAxis::stLogarithmic);
        plot_->xAxis->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
        plot_->xAxis->setNumberFormat("eb");
        plot_->xAxis->setNumberPrecision(0);
        plot_->yAxis->setLabel("g₂(τ)");
        plot_->legend->setWrap(3);
    }

    void draw(const xpcs::Result& r) {
        // The title says which path ran (the live rule: sparse for mostly zero frames).
        if (auto* t = qobject_cast<QCPTextElement*>(plot_->plotLayout()->element(0, 0)))
            t->setText(title() + " · " + QString::fromStdString(r.variant));
        plot_->clearGraphs();
        plot_->xAxis->setLabel(r.tauInSeconds ? "lag time τ (s)" : "lag τ (frames)");
        for (std::size_t b = 0; b < std::min(binsDrawn, r.binCount()); ++b) {
            auto* g = plot_->addGraph();
            g->setName(QString("q bin %1").arg(r.labels[b]));
            g->setPen(QPen(seriesColor(b), 1.5));
            g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 4));
            for (std::size_t t = 0; t < r.frames; ++t)
                if (r.tau[t] > 0 && std::isfinite(r.g2At(b, t))) g->addData(r.tau[t], r.g2At(b, t));
        }
        plot_->rescaleAxes();
        plot_->replot();
    }

    const Algorithm& algorithm_; // looked up once, not per update
    DeviceInfo device_;
    std::string variant_;
    ParamSet params_;
    double frameTime_;
    LabelMask labels_;
    QCustomPlot* plot_;
};

} // namespace

LiveAnalysisSpec xpcsLiveSpec() {
    LiveAnalysisSpec spec;
    spec.algorithm = "xpcs";
    // Without q-bin labels (e.g. a diffraction stream) g2 does not apply: none, said nothing of.
    spec.overFrames = [](const LiveContext& c,
                         QWidget* parent) -> std::unique_ptr<LiveSeriesAnalysis> {
        if (!c.labels) return nullptr;
        return std::make_unique<XpcsLive>(c, parent);
    };
    return spec;
}

} // namespace clscope::ui
