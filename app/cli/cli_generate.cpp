// clscope-cli generate xpcs|diffraction|digis|particles -o OUT.h5 [--seed N] [size options]
#include "app/cli/cli_options.hpp"
#include "app/cli/commands.hpp"
#include "core/errors.hpp"
#include "core/synthetic/request.hpp"

#include <iostream>
#include <map>
#include <memory>

namespace clscope::cli {

namespace {

using synthetic::Request;
namespace limits = synthetic::limits;

// What every generator shares: the output, the seed and the compression.
struct GenerateOptions {
    std::string output;
    std::string compression = "gzip";
    std::string dtype = "uint8"; // xpcs only
    Request request;
};

Compression parseCompression(const std::string& name) {
    if (name == "none") return Compression::None;
    if (name == "gzip") return Compression::Gzip;
    if (name == "bslz4") return Compression::Bitshuffle;
    throw UsageError("--compression must be none, gzip or bslz4, not '" + name + "'");
}

DType parseDType(const std::string& name) {
    static const std::map<std::string, DType> types{{"uint8", DType::UInt8},
                                                    {"uint16", DType::UInt16},
                                                    {"uint32", DType::UInt32},
                                                    {"int32", DType::Int32},
                                                    {"float32", DType::Float32}};
    const auto it = types.find(name);
    if (it == types.end())
        throw UsageError("--dtype must be uint8, uint16, uint32, int32 or float32");
    return it->second;
}

// A generator subcommand with the common options; its action writes the request.
CLI::App* addGenerator(CLI::App* generate, Request::Kind kind, const std::string& help,
                       Action& action, const std::shared_ptr<GenerateOptions>& opts) {
    opts->request.kind = kind;
    auto* sub = generate->add_subcommand(synthetic::kindName(kind), help);
    sub->add_option("-o,--output", opts->output, "Output HDF5 file")->required();
    sub->add_option("--seed", opts->request.seed, "Random seed")
        ->capture_default_str()
        ->check(integerIn(0, UINT64_MAX));
    sub->add_option("--compression", opts->compression, "none, gzip or bslz4 (bitshuffle-LZ4)")
        ->capture_default_str();
    sub->callback([&action, opts] {
        action = [opts] {
            opts->request.compression = parseCompression(opts->compression);
            opts->request.xpcs.dtype = parseDType(opts->dtype);
            const std::string summary = synthetic::writeDataset(opts->request, opts->output);
            std::cout << "wrote " << opts->output << ": " << summary << "\n";
        };
    });
    return sub;
}

void addXpcs(CLI::App* generate, Action& action) {
    auto opts = std::make_shared<GenerateOptions>();
    auto* sub = addGenerator(generate, Request::Kind::Xpcs,
                             "Frames and ring q-bin labels (seed 000)", action, opts);
    synthetic::XpcsParams& p = opts->request.xpcs;
    sub->add_option("--frames", p.frames, "Number of frames T")
        ->capture_default_str()
        ->check(integerIn(1, limits::maxFrames));
    sub->add_option("--height", p.height, "Frame height H")
        ->capture_default_str()
        ->check(integerIn(1, limits::maxSide));
    sub->add_option("--width", p.width, "Frame width W")
        ->capture_default_str()
        ->check(integerIn(1, limits::maxSide));
    sub->add_option("--ring-width", p.ringWidth, "Ring width in pixels (label = r // width)")
        ->capture_default_str()
        ->check(numberIn(limits::minRingWidth, limits::maxRingWidth));
    sub->add_option("--intensity", p.intensity, "Peak mean counts I0")
        ->capture_default_str()
        ->check(numberIn(0, limits::maxIntensity));
    sub->add_option("--dtype", opts->dtype, "uint8, uint16, uint32, int32 or float32")
        ->capture_default_str();
    sub->add_option("--frame-time", p.frameTime,
                    "Frame time in seconds (0: none written; brownian: 1 ms)")
        ->check(numberIn(0, limits::maxFrameTime));
    sub->add_option(
           "--model", p.model,
           "brownian (diffusing particles, known D; the default) or seed (flat g2, the bench case)")
        ->capture_default_str();
    sub->add_option("--diffusion", p.diffusion, "brownian: diffusion coefficient D in Å²/s")
        ->capture_default_str()
        ->check(numberIn(0, 1e30));
    sub->add_option("--distance", p.distance, "brownian: sample-detector distance in m")
        ->capture_default_str()
        ->check(numberIn(1e-6, 1e6));
    sub->add_option("--pixel-size", p.pixelSize, "brownian: pixel size in m")
        ->capture_default_str()
        ->check(numberIn(1e-12, 1));
    sub->add_option("--wavelength", p.wavelength, "brownian: wavelength in m")
        ->capture_default_str()
        ->check(numberIn(1e-15, 1));
}

void addDiffraction(CLI::App* generate, Action& action) {
    auto opts = std::make_shared<GenerateOptions>();
    auto* sub = addGenerator(generate, Request::Kind::Diffraction,
                             "Poisson background with Gaussian spots (seed 002)", action, opts);
    synthetic::DiffractionParams& p = opts->request.diffraction;
    sub->add_option("--frames", p.frames, "Number of frames T")->capture_default_str();
    sub->add_option("--height", p.height, "Image height H")->capture_default_str();
    sub->add_option("--width", p.width, "Image width W")->capture_default_str();
    sub->add_option("--spots", p.spots, "Spots per frame")
        ->capture_default_str()
        ->check(integerIn(0, limits::maxSpots));
    sub->add_option("--background", p.background, "Mean background counts per pixel")
        ->capture_default_str()
        ->check(numberIn(0, limits::maxIntensity));
    sub->add_option("--spot-intensity", p.spotIntensity, "Mean total counts per spot")
        ->capture_default_str()
        ->check(numberIn(1e-9, limits::maxIntensity));
    sub->add_flag("--gaps", p.gaps, "EIGER-like chip and module gaps, recorded in pixel_mask");
}

void addDigis(CLI::App* generate, Action& action) {
    auto opts = std::make_shared<GenerateOptions>();
    auto* sub = addGenerator(generate, Request::Kind::Digis,
                             "Pixel digis of Phase-1 modules (seed 001)", action, opts);
    synthetic::DigisParams& p = opts->request.digis;
    sub->add_option("--modules", p.modules, "Number of modules")
        ->capture_default_str()
        ->check(integerIn(1, limits::maxModules));
    sub->add_option("--clusters-per-module", p.clustersPerModule, "Mean clusters per module")
        ->capture_default_str()
        ->check(numberIn(0, limits::maxClustersPerModule));
    sub->add_option("--duplicates", p.duplicates, "Duplicated digis")
        ->capture_default_str()
        ->check(integerIn(0, limits::maxFaults));
    sub->add_option("--invalid", p.invalid, "Invalid digis (module 65534)")
        ->capture_default_str()
        ->check(integerIn(0, limits::maxFaults));
}

void addParticles(CLI::App* generate, Action& action) {
    auto opts = std::make_shared<GenerateOptions>();
    auto* sub = addGenerator(generate, Request::Kind::Particles,
                             "Random sources, targets on three planes (seed 003)", action, opts);
    synthetic::ParticlesParams& p = opts->request.particles;
    sub->add_option("--sources", p.sources, "Number of sources N")
        ->capture_default_str()
        ->check(integerIn(1, limits::maxSources));
    sub->add_option("--grid-points", p.gridPoints, "Targets per plane side n (M = 3 n^2)")
        ->capture_default_str()
        ->check(integerIn(1, limits::maxGridPoints));
    sub->add_flag("--complex", p.complexWeights, "Complex weights (for Helmholtz)");
}

} // namespace

void addGenerateCommand(CLI::App& app, Action& action) {
    auto* generate = app.add_subcommand("generate", "Write a synthetic dataset");
    generate->require_subcommand(1);
    addXpcs(generate, action);
    addDiffraction(generate, action);
    addDigis(generate, action);
    addParticles(generate, action);
}

} // namespace clscope::cli
