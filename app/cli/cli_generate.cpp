// clscope-cli generate xpcs|diffraction|digis|particles -o OUT.h5 [--seed N] [size options]
#include "app/cli/commands.hpp"
#include "core/errors.hpp"
#include "core/io.hpp"
#include "core/synthetic/synthetic.hpp"

#include <iostream>
#include <map>
#include <memory>

namespace clscope::cli {

namespace {

struct GenerateOptions {
    std::string output;
    std::string compression = "gzip";
    std::uint64_t seed = 0;
};

Compression parseCompression(const std::string& name) {
    if (name == "none") return Compression::None;
    if (name == "gzip") return Compression::Gzip;
    if (name == "bslz4") return Compression::Bitshuffle;
    throw UsageError("--compression must be none, gzip or bslz4, not '" + name + "'");
}

DType parseDType(const std::string& name) {
    static const std::map<std::string, DType> types{{"uint8", DType::UInt8}, {"uint16", DType::UInt16},
                                                    {"uint32", DType::UInt32}, {"int32", DType::Int32},
                                                    {"float32", DType::Float32}};
    const auto it = types.find(name);
    if (it == types.end()) throw UsageError("--dtype must be uint8, uint16, uint32, int32 or float32");
    return it->second;
}

// Common options of every generator; `write` fills the writer and returns a summary.
CLI::App* addGenerator(CLI::App* generate, const std::string& name, const std::string& help,
                       std::shared_ptr<GenerateOptions> opts) {
    auto* sub = generate->add_subcommand(name, help);
    sub->add_option("-o,--output", opts->output, "Output HDF5 file")->required();
    sub->add_option("--seed", opts->seed, "Random seed")->capture_default_str();
    sub->add_option("--compression", opts->compression, "none, gzip or bslz4 (bitshuffle-LZ4)")
        ->capture_default_str();
    return sub;
}

void writeOutput(const GenerateOptions& opts, const std::function<std::string(H5Writer&, Compression)>& fill) {
    const Compression c = parseCompression(opts.compression);
    H5Writer out(opts.output);
    const std::string summary = fill(out, c);
    out.commit();
    std::cout << "wrote " << opts.output << ": " << summary << "\n";
}

void addXpcs(CLI::App* generate, Action& action) {
    auto opts = std::make_shared<GenerateOptions>();
    auto p = std::make_shared<synthetic::XpcsParams>();
    auto dtype = std::make_shared<std::string>("uint8");
    auto* sub = addGenerator(generate, "xpcs", "Frames and ring q-bin labels (seed 000)", opts);
    sub->add_option("--frames", p->frames, "Number of frames T")->capture_default_str();
    sub->add_option("--height", p->height, "Frame height H")->capture_default_str();
    sub->add_option("--width", p->width, "Frame width W")->capture_default_str();
    sub->add_option("--ring-width", p->ringWidth, "Ring width in pixels (label = r // width)")->capture_default_str();
    sub->add_option("--intensity", p->intensity, "Peak mean counts I0")->capture_default_str();
    sub->add_option("--dtype", *dtype, "uint8, uint16, uint32, int32 or float32")->capture_default_str();
    sub->add_option("--frame-time", p->frameTime, "Frame time in seconds (0: none written)");
    sub->callback([&action, opts, p, dtype] {
        action = [opts, p, dtype] {
            p->seed = opts->seed;
            p->dtype = parseDType(*dtype);
            const auto d = synthetic::generateXpcs(*p);
            writeOutput(*opts, [&](H5Writer& out, Compression c) {
                synthetic::writeXpcs(out, d, c);
                return paths::frames + " " + shapeString(d.frames.shape()) + " " + dtypeName(d.frames.dtype()) +
                       ", " + paths::qmask + " with " + std::to_string(d.labels.bins().size()) + " bins";
            });
        };
    });
}

void addDiffraction(CLI::App* generate, Action& action) {
    auto opts = std::make_shared<GenerateOptions>();
    auto p = std::make_shared<synthetic::DiffractionParams>();
    auto* sub = addGenerator(generate, "diffraction", "Poisson background with Gaussian spots (seed 002)", opts);
    sub->add_option("--frames", p->frames, "Number of frames T")->capture_default_str();
    sub->add_option("--height", p->height, "Image height H")->capture_default_str();
    sub->add_option("--width", p->width, "Image width W")->capture_default_str();
    sub->add_option("--spots", p->spots, "Spots per frame")->capture_default_str();
    sub->add_option("--background", p->background, "Mean background counts per pixel")->capture_default_str();
    sub->add_option("--spot-intensity", p->spotIntensity, "Mean total counts per spot")->capture_default_str();
    sub->add_flag("--gaps", p->gaps, "EIGER-like chip and module gaps, recorded in pixel_mask");
    sub->callback([&action, opts, p] {
        action = [opts, p] {
            p->seed = opts->seed;
            const auto d = synthetic::generateDiffraction(*p);
            writeOutput(*opts, [&](H5Writer& out, Compression c) {
                synthetic::writeDiffraction(out, d, c);
                std::size_t bad = 0;
                for (auto b : d.mask.bad) bad += b;
                return paths::frames + " " + shapeString(d.frames.shape()) + " uint16, " + paths::pixelMask +
                       " with " + std::to_string(bad) + " masked pixels";
            });
        };
    });
}

void addDigis(CLI::App* generate, Action& action) {
    auto opts = std::make_shared<GenerateOptions>();
    auto p = std::make_shared<synthetic::DigisParams>();
    auto* sub = addGenerator(generate, "digis", "Pixel digis of Phase-1 modules (seed 001)", opts);
    sub->add_option("--modules", p->modules, "Number of modules")->capture_default_str();
    sub->add_option("--clusters-per-module", p->clustersPerModule, "Mean clusters per module")->capture_default_str();
    sub->add_option("--duplicates", p->duplicates, "Duplicated digis")->capture_default_str();
    sub->add_option("--invalid", p->invalid, "Invalid digis (module 65534)")->capture_default_str();
    sub->callback([&action, opts, p] {
        action = [opts, p] {
            p->seed = opts->seed;
            const Digis d = synthetic::generateDigis(*p);
            writeOutput(*opts, [&](H5Writer& out, Compression) {
                writeDigis(out, d);
                return std::to_string(d.size()) + " digis in " + std::to_string(p->modules) + " modules under " +
                       paths::digis;
            });
        };
    });
}

void addParticles(CLI::App* generate, Action& action) {
    auto opts = std::make_shared<GenerateOptions>();
    auto p = std::make_shared<synthetic::ParticlesParams>();
    auto* sub = addGenerator(generate, "particles", "Random sources, targets on three planes (seed 003)", opts);
    sub->add_option("--sources", p->sources, "Number of sources N")->capture_default_str();
    sub->add_option("--grid-points", p->gridPoints, "Targets per plane side n (M = 3 n^2)")->capture_default_str();
    sub->add_flag("--complex", p->complexWeights, "Complex weights (for Helmholtz)");
    sub->callback([&action, opts, p] {
        action = [opts, p] {
            p->seed = opts->seed;
            const Particles d = synthetic::generateParticles(*p);
            writeOutput(*opts, [&](H5Writer& out, Compression) {
                writeParticles(out, d);
                return std::to_string(d.sourceCount()) + " sources, " + std::to_string(d.targetCount()) +
                       " targets, " + (d.complexWeights ? "complex" : "real") + " weights under " + paths::particles;
            });
        };
    });
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
