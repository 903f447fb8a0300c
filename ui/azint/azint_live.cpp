#include "ui/azint/azint_live.hpp"

#include "core/azint/header_geometry.hpp"
#include "gpu/azint/algorithm.hpp"
#include "gpu/azint/geometry_source.hpp"
#include "ui/azint/azint_presenter.hpp"
#include "ui/kit/typed_result.hpp"
#include "ui/results/plot_legend.hpp"
#include "ui/roi/roi_live.hpp"
#include "ui/xpcs/xpcs_g2_view.hpp"

#include <algorithm>
#include <qcustomplot.h>

namespace clscope::ui {

namespace {

constexpr std::size_t framesAveraged = 10; // the newest ones

class AzintLive : public LiveSeriesAnalysis {
  public:
    AzintLive(const LiveContext& c, ParamSet params, azint::Geometry geometry, std::string origin,
              QWidget* parent)
        : algorithm_(AlgorithmRegistry::instance().find("azint")), device_(c.device),
          variant_(c.variantOf("azint")), params_(std::move(params)), mask_(c.mask),
          geometry_(std::move(geometry)), origin_(std::move(origin)),
          plot_(titledPlotLegendBelow(parent, title())) {
        plot_->yAxis->setLabel("I (counts per pixel)");
    }
    QString title() const override { return "azint I(q), newest frames"; }
    QWidget* widget() override { return plot_; }

    std::function<void()> analyse(const Array& frames) override {
        const std::size_t n = frames.frameCount();
        if (n == 0) return {};
        const std::size_t count = std::min(n, framesAveraged);
        auto in = std::make_shared<azint::AzintInput>();
        in->data.frames = frames.frameView(n - count, count);
        in->data.pixelMask = mask_;
        in->geometry = geometry_, in->geometryOrigin = origin_;
        const auto result = runAlgorithm(algorithm_, {device_, variant_, in, params_, {}});
        auto presenter = std::make_shared<AzintPresenter>();
        presenter->setResult(typedAs<azint::AzintResult>(*result).result);
        return [this, presenter, n, count] { draw(*presenter, n, count); };
    }

  private:
    void addCurve(const AzintProfile& p, const QString& name, std::size_t rank) {
        auto* g = plot_->addGraph();
        g->setName(name);
        g->setPen(QPen(seriesColor(rank), 1.5));
        for (std::size_t i = 0; i < p.radial.size() && i < p.intensity.size(); ++i)
            if (std::isfinite(p.intensity[i])) g->addData(p.radial[i], p.intensity[i]);
    }

    void draw(const AzintPresenter& p, std::size_t received, std::size_t count) {
        plot_->clearGraphs();
        plot_->xAxis->setLabel(QString::fromStdString(p.radialTitle()));
        addCurve(p.profile(count - 1, count - 1), QString("frame %1").arg(received - 1), 0);
        if (count > 1)
            addCurve(p.profile(0, count - 1),
                     QString("mean of frames %1–%2").arg(received - count).arg(received - 1), 1);
        plot_->rescaleAxes();
        plot_->replot();
    }

    const Algorithm& algorithm_; // looked up once, not per update
    DeviceInfo device_;
    std::string variant_;
    ParamSet params_;
    PixelMask mask_;
    azint::Geometry geometry_;
    std::string origin_;
    QCustomPlot* plot_;
};

} // namespace

LiveAnalysisSpec azintLiveSpec() {
    LiveAnalysisSpec spec;
    spec.algorithm = "azint";
    // The ROI dock's regions (issue 53's ROI time series), a curve each as frames come.
    spec.perFrame = makeRoiLive;
    // The Azint panel's geometry file, else the start message's geometry (as the live d_min
    // takes it); without either I(q) does not apply: none, said nothing of.
    spec.overFrames = [](const LiveContext& c,
                         QWidget* parent) -> std::unique_ptr<LiveSeriesAnalysis> {
        const ParamSet params =
            c.paramsOf("azint", AlgorithmRegistry::instance().find("azint").defaultParams());
        if (auto named = azint::namedGeometry(params))
            return std::make_unique<AzintLive>(c, params, std::move(named->geometry),
                                               "the Azint panel's geometry file", parent);
        auto header = azint::headerGeometry(c.detector, c.height, c.width);
        if (!header) return nullptr;
        return std::make_unique<AzintLive>(c, params, std::move(*header),
                                           "the start message's geometry", parent);
    };
    return spec;
}

} // namespace clscope::ui
