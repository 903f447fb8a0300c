// The parameters as a DIALS find_spots.phil snippet, so tuned values carry over to DIALS.
#include "core/spots/spots.hpp"

#include <sstream>

namespace clscope::spots {

std::string philSnippet(const Params& p) {
    std::ostringstream s;
    s.precision(17);
    s << "spotfinder {\n"
      << "  threshold {\n"
      << "    algorithm = " << methodName(p.method) << "\n"
      << "    dispersion {\n";
    if (p.gain != 1.0) s << "      gain = " << p.gain << "\n";
    // DIALS' kernel_size is (slow, fast): rows first, so KY then KX.
    s << "      kernel_size = " << p.kernelY << " " << p.kernelX << "\n"
      << "      sigma_background = " << p.sigmaBackground << "\n"
      << "      sigma_strong = " << p.sigmaStrong << "\n"
      << "      min_local = " << p.minLocal << "\n";
    if (p.globalAuto)
        s << "      global_threshold = Auto\n";
    else
        s << "      global_threshold = " << p.globalThreshold << "\n";
    s << "    }\n"
      << "  }\n"
      << "  filter {\n"
      << "    min_spot_size = " << p.minSpotSize << "\n"
      << "    max_spot_size = " << p.maxSpotSize << "\n"
      << "    max_separation = " << p.maxSeparation << "\n"
      << "  }\n"
      << "}\n";
    return s.str();
}

} // namespace clscope::spots
