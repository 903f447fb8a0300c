#include "core/hdf5.hpp"

namespace clscope {
std::string clscopeVersion() {
    return CLSCOPE_VERSION;
}
} // namespace clscope
