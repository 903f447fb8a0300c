#include "gpu/opencl.hpp"

namespace clscope {

std::string clErrorName(int code) {
    switch (code) {
        // clang-format off (a table of cases; clang-format does not settle on one layout of it)
#define CLSCOPE_CASE(x)                                                                            \
    case x:                                                                                        \
        return #x;
        CLSCOPE_CASE(CL_SUCCESS)
            CLSCOPE_CASE(CL_DEVICE_NOT_FOUND) CLSCOPE_CASE(CL_DEVICE_NOT_AVAILABLE) CLSCOPE_CASE(
                CL_COMPILER_NOT_AVAILABLE) CLSCOPE_CASE(CL_MEM_OBJECT_ALLOCATION_FAILURE)
                CLSCOPE_CASE(CL_OUT_OF_RESOURCES) CLSCOPE_CASE(CL_OUT_OF_HOST_MEMORY) CLSCOPE_CASE(
                    CL_PROFILING_INFO_NOT_AVAILABLE) CLSCOPE_CASE(CL_BUILD_PROGRAM_FAILURE)
                    CLSCOPE_CASE(CL_INVALID_VALUE) CLSCOPE_CASE(CL_INVALID_DEVICE) CLSCOPE_CASE(
                        CL_INVALID_CONTEXT) CLSCOPE_CASE(CL_INVALID_COMMAND_QUEUE)
                        CLSCOPE_CASE(CL_INVALID_MEM_OBJECT) CLSCOPE_CASE(CL_INVALID_BUILD_OPTIONS)
                            CLSCOPE_CASE(CL_INVALID_PROGRAM) CLSCOPE_CASE(
                                CL_INVALID_PROGRAM_EXECUTABLE) CLSCOPE_CASE(CL_INVALID_KERNEL_NAME)
                                CLSCOPE_CASE(CL_INVALID_KERNEL) CLSCOPE_CASE(CL_INVALID_ARG_INDEX)
                                    CLSCOPE_CASE(CL_INVALID_ARG_VALUE) CLSCOPE_CASE(
                                        CL_INVALID_ARG_SIZE) CLSCOPE_CASE(CL_INVALID_KERNEL_ARGS)
                                        CLSCOPE_CASE(CL_INVALID_WORK_DIMENSION)
                                            CLSCOPE_CASE(CL_INVALID_WORK_GROUP_SIZE) CLSCOPE_CASE(
                                                CL_INVALID_WORK_ITEM_SIZE)
                                                CLSCOPE_CASE(CL_INVALID_GLOBAL_OFFSET) CLSCOPE_CASE(
                                                    CL_INVALID_EVENT)
                                                    CLSCOPE_CASE(CL_INVALID_OPERATION) CLSCOPE_CASE(
                                                        CL_INVALID_BUFFER_SIZE)
                                                        CLSCOPE_CASE(CL_INVALID_GLOBAL_WORK_SIZE)
                                                            CLSCOPE_CASE(CL_PLATFORM_NOT_FOUND_KHR)
#undef CLSCOPE_CASE
            // clang-format on
            default : return "OpenCL error " +
                      std::to_string(code);
    }
}

} // namespace clscope
