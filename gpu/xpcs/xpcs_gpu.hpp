// xpcs on OpenCL devices: variants naive, ordered, gemm and mma (tensor cores, NVIDIA) and
// multitau next to the CPU reference `cpu`. Runs go through runAlgorithm() (gpu/algorithm.hpp):
// xpcs::Algorithm::runWith runs the variant object it looks up in variantSet().
#pragma once
#include "core/xpcs/xpcs.hpp"
#include "gpu/recipe.hpp"
#include "gpu/runtime/device_info.hpp"
#include "gpu/variant/variant_set.hpp"

#include <string>

namespace clscope::xpcs {

struct XpcsInput; // gpu/xpcs/algorithm.hpp

// What one xpcs run gives its variant; a support query may lack the input or the parameters.
struct Job {
    DeviceInfo device;
    const XpcsInput* input = nullptr;
    const Params* params = nullptr; // the run's tuning in params->tuning; multitau: the mode
    Progress progress{};
    ProgramOverrides programs{}; // its programs (gpu/xpcs/recipes.hpp) are built with these
};

// Which runs a variant serves, and which variant runs frames it does not take.
struct Modes {
    bool dense = true;     // dense lags
    bool multitau = false; // --multitau
    // "": frames of every dtype; else the variant that runs frames other than uint8 (mma: gemm,
    // its device check and its result).
    std::string bytesElseBy{};
    // Dense lags read a sparse file's stored entries as they are (Algorithm::readFor streams
    // them), never the densified stack.
    bool entries = false;
    // --multitau holds the whole series' stored entries (sparse-pairs), checked against the
    // memory budget as dense lags' are.
    bool multitauHeld = false;
    // Dense lags hold one bin's T x T Gram matrix on the host at a time (cpu, sparse-cpu),
    // counted against the memory budget beside the input (Algorithm::holdsBeside).
    bool hostGram = false;
    // Dense variants refuse --multitau, the multi-tau variant refuses a dense run.
    Support serves(bool multitauRun) const;
};

// The variants, declared once (variants.cpp): naive, ordered, gemm, mma, cpu, multitau. A run
// throws InputError for bad inputs, UsageError for bad tuning, DeviceError for device trouble,
// Cancelled when cancelled.
const VariantSet<Job, Result, Modes>& variantSet();

} // namespace clscope::xpcs
