# Precompiled headers (CLSCOPE_PCH, on by default with GCC). Most of a translation unit's
# compile time here is parsing the same external headers (Qt, QCustomPlot, the OpenCL C++
# bindings, CLI11, JSON, the standard library): a 2-core CI machine spent about 17 of its 40
# minutes on the Release build. Each library parses its set once; the test executables reuse
# one of two hosts' (their compile definitions match within each group). Only external headers
# and gpu/runtime/opencl.hpp (the bindings' one include) go in, so editing a project header rebuilds
# what it did before. The libraries use them with either compiler; the suites' shared hosts
# only with GCC (clang's PCH refuses a translation unit whose command-line macros differ).
# -DCLSCOPE_PCH=OFF turns them all off (e.g. for ccache across work trees).
option(CLSCOPE_PCH "Precompiled headers for the heavy external headers" ON)

set(CLSCOPE_PCH_STD <algorithm> <array> <atomic> <chrono> <cmath> <cstdint> <cstring> <filesystem>
    <functional> <map> <memory> <mutex> <optional> <random> <sstream> <string> <thread> <vector>)
set(CLSCOPE_PCH_CORE ${CLSCOPE_PCH_STD} <hdf5.h> <nlohmann/json.hpp>)
set(CLSCOPE_PCH_GPU ${CLSCOPE_PCH_CORE} ${CMAKE_SOURCE_DIR}/gpu/runtime/opencl.hpp)
set(CLSCOPE_PCH_CLI ${CLSCOPE_PCH_GPU} <CLI/CLI.hpp>)
set(CLSCOPE_PCH_UI ${CLSCOPE_PCH_STD} <QtWidgets> <qcustomplot.h>)

function(clscope_pch_enabled out)
  if(CLSCOPE_PCH AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    set(${out} ON PARENT_SCOPE)
  else()
    set(${out} OFF PARENT_SCOPE)
  endif()
endfunction()

# clscope_pch(TARGET header ...): TARGET's translation units start from these headers.
function(clscope_pch target)
  if(CLSCOPE_PCH)
    target_precompile_headers(${target} PRIVATE ${ARGN})
  endif()
endfunction()
