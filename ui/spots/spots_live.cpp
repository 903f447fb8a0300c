#include "ui/spots/spots_live.hpp"

#include "gpu/runtime/devices.hpp"
#include "gpu/spots/run_types.hpp"
#include "ui/kit/typed_result.hpp"
#include "ui/params/params_text.hpp"
#include "ui/spots/spots_markers.hpp"

#include <map>
#include <mutex>

namespace clscope::ui {

namespace {

class SpotsLive : public LiveFrameAnalysis {
  public:
    explicit SpotsLive(const LiveContext& c)
        : algorithm_(AlgorithmRegistry::instance().find("spots")), mask_(c.mask),
          params_(c.paramsOf("spots", algorithm_.defaultParams())) {
        variant_ = c.variantOf("spots");
        if (variant_.empty()) variant_ = algorithm_.defaultVariant(c.device, nullptr, &params_);
        const VariantEntry entry = algorithm_.variant(variant_);
        device_ = entry.info.kind == VariantKind::Host ? hostDevice() : c.device;
    }
    QString quantity() const override { return "spots per frame"; }

    QString settings() const override {
        std::lock_guard lock(mutex_);
        return "spots: " + paramsText(params_, thresholds);
    }

    bool setParams(const ParamSet& params) override {
        std::lock_guard lock(mutex_);
        params_ = params;
        return true;
    }

    double analyse(const Array& frame, std::size_t index) override {
        auto in = std::make_shared<spots::SpotsInput>();
        in->data.frames = frame;
        in->data.mask = mask_;
        in->signalMask = false;
        in->provenance["file"] = "stream frame " + std::to_string(index);
        const auto result = runAlgorithm(algorithm_, {device_, variant_, in, params(), {}});
        std::vector<spots::Spot> found = typedAs<spots::SpotsResult>(*result).result.spots;
        const std::size_t n = found.size();
        std::lock_guard lock(mutex_);
        spots_[index] = std::move(found);
        return double(n);
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
