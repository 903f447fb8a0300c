// xpcs through the algorithm interface (gpu/algorithm.hpp): the Algorithm object that the CLI
// (`clscope-cli correlate`), the bench, the GUI and the tests use (its input and result types:
// run_types.hpp), and the helpers its reading, passes and facets share.
#pragma once
#include "gpu/typed_algorithm.hpp"
#include "gpu/xpcs/run_types.hpp"

#include <memory>

namespace clscope::xpcs {

// Its facets (gpu/xpcs/facets.hpp): split by bins, passes over groups of bins, a multi-tau
// stream stage, the xpcs synthetic dataset, bench cases and the kernel lab's figures.
class Algorithm : public TypedAlgorithm<XpcsInput, Params, XpcsResult> {
  public:
    Algorithm();
    std::vector<InputRole> inputRoles() const override;
    std::vector<ParamSpec> parameterSpecs() const override;
    std::vector<VariantEntry> variants() const override;
    // A multi-tau run on frames stored sparsely below the crossover occupancy
    // (xpcs::sparseCrossover): `sparse`; a dense-lag run below xpcs::denseLagsCrossover:
    // `sparse-pairs`, where its Gram matrices fit the device and its sums 64 bits.
    std::optional<ChosenVariant> choiceFor(const InputSources& sources, const ParamSet& params,
                                           const DeviceInfo& device) const override;
    // Its kernel programs (gpu/xpcs/recipes.cpp).
    std::vector<ProgramRecipe> recipes() const override;
    Params parameters(const ParamSet& params) const override;
    std::shared_ptr<const AlgorithmInput> read(const InputSources& sources,
                                               const ParamSet& params) const override;
    // sparse-cpu's and sparse-pairs' dense lags on frames a file stores as entries: the entries
    // streamed, never densified whole (readStreamed, as a multi-tau run's); else read().
    std::shared_ptr<const AlgorithmInput> readFor(const InputSources& sources,
                                                  const ParamSet& params,
                                                  const std::string& variant) const override;
    // A file's stored entries, for a variant that declares Modes::entries on dense lags.
    std::optional<Held> streamsFor(const InputSources& sources, const ParamSet& params,
                                   const std::string& variant) const override;
    // One bin's T x T Gram matrix, for a host variant that declares Modes::hostGram on dense
    // lags (16 bytes an element from entries or frames over 16 bits, else 8).
    std::optional<Held> holdsBeside(const InputSources& sources, const ParamSet& params,
                                    const std::string& variant) const override;

  protected:
    // The variant entry's check, and OpenCL variants refuse data whose 64-bit sums could
    // overflow (xpcs::sums64Overflow) where no value planes hold them (xpcs::hasValuePlanes):
    // they never wrap.
    Support supportsWith(const VariantEntry& variant, const DeviceInfo& device,
                         const XpcsInput* input, const Params* params) const override;
    std::shared_ptr<XpcsResult> runWith(const RunRequest& request, const XpcsInput& input,
                                        Params params, const Progress& progress) const override;
    Deviation compareWith(const XpcsResult& result, const XpcsResult& reference) const override;
};

// Every lag (not multi-tau) of frames in memory: the frames read once and g2 written once
// (a double per bin and lag), 2 operations per multiply-add of the lower-triangle Gram
// matrices (the bench's GFLOP). Multi-tau: the frames and labels read once, 2 operations
// per multiply-add of a row and a lag of each level, an add per value of the level above.
RunWork runWork(const XpcsInput& input, const Params& params);

// The correlator's sums of the result's bins and lags (/xpcs/sums/*, core/xpcs/result_sums.hpp)
// from a pass over the input's frames (params.keepSums), and g2 made params.normalisation with
// them; nothing for an input whose frames went by (a stream).
void addSums(XpcsResult& out, const XpcsInput& in, const Params& params);
// The input's q of each label into the result and, with --fit, the fits of the result's bins
// (q from `qByLabel`), as a run adds them.
void addFits(XpcsResult& out, const ParamSet& params,
             const std::map<std::int32_t, double>& qByLabel);
// Labels with the pixel mask applied: label of a flagged pixel set to 0; returns how many
// labelled pixels that removed.
std::size_t applyPixelMask(LabelMask& labels, const PixelMask& pixelMask);
// q (1/Å) of each label, NaN where unknown; empty without a label table.
std::vector<double> binQ(const std::map<std::int32_t, double>& qByLabel,
                         const std::vector<std::int32_t>& labels);
// Everything read() reads but the frames, for frames of height x width: labels (pixel mask
// applied), excluded pixels, frame time, q table and provenance (frames left empty).
std::shared_ptr<XpcsInput> readBinning(const InputSources& sources, std::size_t height,
                                       std::size_t width);
// The frame time (s) and the q of the labels (1/Å) with their units attributes honoured
// (DESIGN.md §3): InputError naming dataset and unit for a unit clscope does not know.
void readPhysicalValues(XpcsInput& in, const H5Reader& frameFile, const std::string& frameTimePath,
                        const H5Reader& labelFile);
// UsageError for what a stream cannot give (it is read once): a dense run (correlate on a
// stream is multi-tau), two-time maps (a second pass).
void refuseOnStream(const InputSources& sources, const ParamSet& params);
// An input of these frames and labels with the rest of `binning` (read() and budgeted passes).
std::shared_ptr<XpcsInput> withFrames(const XpcsInput& binning, Array frames, LabelMask labels);
// The parameters of a run on some bins only: two-time maps of the other bins left out.
ParamSet paramsForBins(const ParamSet& params, const std::vector<std::int32_t>& sortedLabels);
// The xpcs input of a frame stack and labels made in memory (GUI, tests, bench).
std::shared_ptr<XpcsInput> makeInput(Array frames, LabelMask labels,
                                     nlohmann::json provenance = {});

} // namespace clscope::xpcs
