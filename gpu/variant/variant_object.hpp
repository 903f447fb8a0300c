// One variant of an algorithm as an object: its entry (gpu/variant/variant.hpp), what it checks on
// a run, its run and its traits. An algorithm declares its variants once, in a VariantSet
// (gpu/variant/variant_set.hpp, in gpu/<algo>/variants.cpp), and runs the one a request names by
// looking it up there.
#pragma once
#include "gpu/variant/variant.hpp"

#include <functional>
#include <string>

namespace clscope {

// What a variant of an algorithm without traits of its own carries beside its entry.
struct NoTraits {};

// One variant of an algorithm as an object. Context: what one run of the algorithm gives a
// variant (device, input, parameters, progress, program overrides); Output: what it returns;
// Traits: what the algorithm's own code asks of a variant (e.g. its precision, the window sums
// it reads), so that it never compares variant ids.
template <class Context, class Output, class Traits = NoTraits> struct Variant {
    VariantEntry entry; // info, device check, emulation
    // The run itself: the support already checked (runAlgorithm).
    std::function<Output(const Context&)> run;
    // Beyond the device: whether it can run this context's input with its parameters, with the
    // reason. Empty: any. (A context of a support query may lack the input or the parameters.)
    std::function<Support(const Context&)> accepts{};
    Traits traits{};

    const std::string& id() const { return entry.info.id; }
    // The entry's device check, then, when a context is given, accepts.
    Support supports(const DeviceInfo& device, const Context* context = nullptr) const {
        Support s = entry.supports(device);
        if (s.ok && context && accepts) s = accepts(*context);
        return s;
    }
};

} // namespace clscope
