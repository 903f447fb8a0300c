# Third-party dependencies, all from Debian packages (see scripts/lib.sh).
find_package(Threads REQUIRED)
find_package(HDF5 REQUIRED COMPONENTS C)
find_package(OpenCL REQUIRED)

# Header-only libraries: the Debian packages' CMake configs when present, else
# plain headers under CLSCOPE_EXTRA_INCLUDE (how the headless GPU build gets them).
set(CLSCOPE_EXTRA_INCLUDE "${CMAKE_SOURCE_DIR}/.deps/include" CACHE PATH
    "Extra include folder holding CLI/CLI.hpp and nlohmann/json.hpp")
find_path(CLSCOPE_CLI11_DIR CLI/CLI.hpp HINTS ${CLSCOPE_EXTRA_INCLUDE} REQUIRED)
find_path(CLSCOPE_JSON_DIR nlohmann/json.hpp HINTS ${CLSCOPE_EXTRA_INCLUDE} REQUIRED)
find_path(CLSCOPE_CLHPP_DIR CL/opencl.hpp HINTS ${CLSCOPE_EXTRA_INCLUDE} REQUIRED)

# GSL for the least-squares fits; optional so the headless GPU build works without it.
find_package(GSL QUIET)

if(CLSCOPE_BUILD_GUI)
  find_package(Qt6 REQUIRED COMPONENTS Core Gui Widgets PrintSupport Concurrent Test)
  find_package(QCustomPlotQt6 REQUIRED)
elseif(CLSCOPE_BUILD_TESTS)
  find_package(Qt6 QUIET COMPONENTS Core Test)
endif()
