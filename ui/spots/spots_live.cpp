#include "ui/spots/spots_live.hpp"

#include "gpu/runtime/devices.hpp"
#include "gpu/spots/run_types.hpp"
#include "ui/kit/typed_result.hpp"
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

    double analyse(const Array& frame, std::size_t index) override {
        auto in = std::make_shared<spots::SpotsInput>();
        in->data.frames = frame;
        in->data.mask = mask_;
        in->signalMask = false;
        in->provenance["file"] = "stream frame " + std::to_string(index);
        const auto result = runAlgorithm(algorithm_, {device_, variant_, in, params_, {}});
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
    const Algorithm& algorithm_; // looked up once, not per frame
    PixelMask mask_;
    ParamSet params_;
    std::string variant_;
    DeviceInfo device_;
    std::mutex mutex_;
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
