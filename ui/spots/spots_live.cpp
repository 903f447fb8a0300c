#include "ui/spots/spots_live.hpp"

#include "core/azint/expt.hpp"
#include "core/azint/header_geometry.hpp"
#include "gpu/runtime/devices.hpp"
#include "gpu/spots/run_types.hpp"
#include "ui/kit/typed_result.hpp"
#include "ui/params/params_text.hpp"
#include "ui/spots/spots_markers.hpp"

#include <QFileInfo>
#include <cmath>
#include <map>
#include <mutex>
#include <optional>

namespace clscope::ui {

namespace {

using spots::PerImageStats;

// The geometry d_min is estimated with: the start message's, else the experiment list the
// Spots panel names (its detector the frames' size); none with why in `why`.
std::optional<azint::Geometry> geometryOf(const LiveContext& c, const ParamSet& params,
                                          QString* why) {
    if (auto g = azint::headerGeometry(c.detector, c.height, c.width)) return g;
    const std::string expt = params.has("expt") ? params.text("expt") : std::string();
    *why = "none in the start message, no .expt on the Spots panel";
    if (expt.empty()) return std::nullopt;
    try {
        const azint::Geometry g = azint::readExpt(expt);
        if (g.height == c.height && g.width == c.width) return g;
        *why = QString("the Spots panel's %1 is %2x%3 pixels, the frames %4x%5")
                   .arg(QFileInfo(QString::fromStdString(expt)).fileName())
                   .arg(g.width)
                   .arg(g.height)
                   .arg(c.width)
                   .arg(c.height);
    } catch (const std::exception& e) {
        *why = QString::fromUtf8(e.what());
    }
    return std::nullopt;
}

// A frame's values, in the order of SpotsLive::quantities(): spots, d_min (with a geometry),
// mean intensity. With a geometry, DIALS' per-image numbers of the frame; NaN where none.
std::vector<double> frameValues(const spots::Result& r, const std::optional<azint::Geometry>& g) {
    const double none = std::nan("");
    if (!g) {
        double total = 0;
        for (const spots::Spot& s : r.spots)
            total += s.intensity;
        const double n = double(r.spots.size());
        return {n, n > 0 ? total / n : none};
    }
    const PerImageStats s = spots::perImageStats(r, *g);
    const double noIce = double(s.nSpotsNoIce.at(0));
    return {double(s.nSpotsTotal.at(0)), s.estimatedDMin.at(0) > 0 ? s.estimatedDMin.at(0) : none,
            noIce > 0 ? s.totalIntensity.at(0) / noIce : none};
}

class SpotsLive : public LiveFrameAnalysis {
  public:
    explicit SpotsLive(const LiveContext& c)
        : algorithm_(AlgorithmRegistry::instance().find("spots")), mask_(c.mask),
          params_(c.paramsOf("spots", algorithm_.defaultParams())) {
        variant_ = c.variantOf("spots");
        if (variant_.empty()) variant_ = algorithm_.defaultVariant(c.device, nullptr, &params_);
        const VariantEntry entry = algorithm_.variant(variant_);
        device_ = entry.info.kind == VariantKind::Host ? hostDevice() : c.device;
        geometry_ = geometryOf(c, params_, &noGeometry_);
    }

    std::vector<LiveQuantity> quantities() const override {
        std::vector<LiveQuantity> q{{"spots", "spots per frame", true}};
        if (geometry_) q.push_back({"d_min", "d_min (Å)", false, true});
        q.push_back({"mean spot intensity", "mean intensity (counts)"});
        return q;
    }

    QString missing() const override {
        return geometry_ ? QString() : "no geometry: d_min not shown\n(" + noGeometry_ + ")";
    }

    QString settings() const override {
        std::lock_guard lock(mutex_);
        return "spots: " + paramsText(params_, thresholds);
    }

    bool setParams(const ParamSet& params) override {
        std::lock_guard lock(mutex_);
        params_ = params;
        return true;
    }

    std::vector<double> analyse(const Array& frame, std::size_t index) override {
        auto in = std::make_shared<spots::SpotsInput>();
        in->data.frames = frame;
        in->data.mask = mask_;
        in->signalMask = false;
        in->provenance["file"] = "stream frame " + std::to_string(index);
        const auto result = runAlgorithm(algorithm_, {device_, variant_, in, params(), {}});
        const spots::Result& found = typedAs<spots::SpotsResult>(*result).result;
        std::vector<double> values = frameValues(found, geometry_);
        std::lock_guard lock(mutex_);
        spots_[index] = found.spots;
        return values;
    }

    void draw(QCustomPlot* image, std::size_t index) override {
        if (!markers_ || plot_ != image) markers_ = std::make_unique<SpotMarkers>(image);
        plot_ = image;
        std::lock_guard lock(mutex_);
        const auto it = spots_.find(index);
        markers_->setSpots(it == spots_.end() ? std::vector<spots::Spot>{} : it->second,
                           std::nullopt);
    }

  private:
    // The parameters that decide which pixels are signal and which groups of them are spots.
    static constexpr const char* thresholds[] = {"threshold_algorithm", "sigma_background",
                                                 "sigma_strong",        "global_threshold",
                                                 "min_local",           "min_spot_size"};

    ParamSet params() const {
        std::lock_guard lock(mutex_);
        return params_;
    }

    const Algorithm& algorithm_; // looked up once, not per frame
    PixelMask mask_;
    ParamSet params_;
    std::string variant_;
    DeviceInfo device_;
    std::optional<azint::Geometry> geometry_; // d_min's; fixed for the series
    QString noGeometry_;                      // why there is none
    mutable std::mutex mutex_;
    std::map<std::size_t, std::vector<spots::Spot>> spots_; // frame -> its spots
    std::unique_ptr<SpotMarkers> markers_;                  // GUI thread only
    QCustomPlot* plot_ = nullptr;
};

} // namespace

LiveAnalysisSpec spotsLiveSpec() {
    LiveAnalysisSpec spec;
    spec.algorithm = "spots";
    spec.perFrame = [](const LiveContext& c) { return std::make_unique<SpotsLive>(c); };
    return spec;
}

} // namespace clscope::ui
