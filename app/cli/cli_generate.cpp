// clscope-cli generate KIND -o OUT.h5 [--seed N] [--compression C] [KIND's options]: one
// subcommand per synthetic kind of the registered algorithms, its options built from the kind's
// declared specs (Algorithm::syntheticKinds).
#include "app/cli/cli_options.hpp"
#include "app/cli/commands.hpp"
#include "core/errors.hpp"
#include "gpu/algorithm.hpp"

#include <iostream>
#include <memory>

namespace clscope::cli {

namespace {

// What every generator shares: the output, the seed and the compression.
struct GenerateArgs {
    std::string output;
    std::uint64_t seed = 0;
    std::string compression = "gzip";
    SpecArgs options;
};

Compression parseCompression(const std::string& name) {
    if (name == "none") return Compression::None;
    if (name == "gzip") return Compression::Gzip;
    if (name == "bslz4") return Compression::Bitshuffle;
    throw UsageError("--compression must be none, gzip or bslz4, not '" + name + "'");
}

void addGenerator(CLI::App* generate, Action& action, const SyntheticKind& kind) {
    auto a = std::make_shared<GenerateArgs>();
    auto* sub = generate->add_subcommand(kind.name, kind.help);
    sub->add_option("-o,--output", a->output, "Output HDF5 file")->required();
    sub->add_option("--seed", a->seed, "Random seed")
        ->capture_default_str()
        ->check(integerIn(0, UINT64_MAX));
    sub->add_option("--compression", a->compression, "none, gzip or bslz4 (bitshuffle-LZ4)")
        ->capture_default_str();
    addSpecOptions(sub, kind.specs, a->options);
    sub->callback([&action, a, kind] {
        action = [a, kind] {
            const Compression compression = parseCompression(a->compression);
            ParamSet options(kind.specs);
            applySpecArgs(options, a->options);
            const std::string summary = kind.write(options, a->seed, compression, a->output);
            std::cout << "wrote " << a->output << ": " << summary << "\n";
        };
    });
}

} // namespace

void addGenerateCommand(CLI::App& app, Action& action) {
    auto* generate = app.add_subcommand("generate", "Write a synthetic dataset");
    generate->require_subcommand(1);
    for (const auto& [algorithm, kind] : AlgorithmRegistry::instance().syntheticKinds())
        addGenerator(generate, action, kind);
}

} // namespace clscope::cli
