# Shared by scripts/run and scripts/test: install missing Debian packages, configure, build.
# shellcheck shell=bash
CLSCOPE_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CLSCOPE_BUILD="${CLSCOPE_BUILD:-$CLSCOPE_ROOT/build}"

# Everything clscope needs on Debian 12, as Debian packages.
CLSCOPE_PACKAGES=(
  cmake ninja-build g++ pkg-config
  qt6-base-dev qt6-qpa-plugins libqcustomplot-dev fonts-dejavu-core
  opencl-clhpp-headers ocl-icd-opencl-dev pocl-opencl-icd clinfo
  libhdf5-dev bitshuffle libcli11-dev nlohmann-json3-dev libgsl-dev
  xvfb xauth xdotool python3-h5py python3-numpy # xdotool: scripts/gui_check
  libzmq3-dev cppzmq-dev libcbor-dev liblz4-dev python3-zmq python3-cbor2 python3-lz4 # live input
  openmpi-bin slurm-wlm # tst_batch runs a real mpirun, tst_scale_slurm a real sbatch --array
  clang clang-format libclang-rt-14-dev # sanitizer build, libFuzzer target fuzz_hdf5, scripts/check_format
  lld # the linker of both builds (CMakeLists.txt: CLSCOPE_LLD)
)

# What only the tests need besides (scripts/test adds them): the independent references — scipy's
# curve_fit for the fits, pyFAI (and pyopencl for azint's kernels) for azint, DIALS and dxtbx for
# the per-image analysis and .expt geometry.
CLSCOPE_TEST_PACKAGES=(python3-scipy python3-pyfai python3-pyopencl python3-dials)

clscope_missing_packages() {
  local p
  for p in "${CLSCOPE_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || echo "$p"
  done
}

# Install what is missing (as root), or print the exact command and stop.
clscope_ensure_packages() {
  local missing
  mapfile -t missing < <(clscope_missing_packages)
  [ "${#missing[@]}" -eq 0 ] && return 0
  if [ "$(id -u)" -ne 0 ]; then
    echo "clscope needs these Debian packages. Install them with:" >&2
    echo "  sudo apt-get install -y ${missing[*]}" >&2
    exit 1
  fi
  echo "== installing ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
}

# Unity builds (8 files of a target as one translation unit; README): about 37 % less compile
# work for the same objects on a 2-core CI machine. CLSCOPE_UNITY=0: file by file.
clscope_unity_option() {
  echo "-DCMAKE_UNITY_BUILD=$([ "${CLSCOPE_UNITY:-1}" = 0 ] && echo OFF || echo ON)"
}

# Configure and build into $CLSCOPE_BUILD (Release, Ninja): every target, or only those of the
# array CLSCOPE_TARGETS that this configuration has (clscope needs the GUI build).
clscope_build() {
  echo "== building clscope in $CLSCOPE_BUILD"
  cmake -S "$CLSCOPE_ROOT" -B "$CLSCOPE_BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
  local targets=() t
  for t in ${CLSCOPE_TARGETS[@]+"${CLSCOPE_TARGETS[@]}"}; do
    if [ -d "$CLSCOPE_BUILD/app/CMakeFiles/$t.dir" ]; then targets+=("$t"); fi
  done
  cmake --build "$CLSCOPE_BUILD" -j"$(nproc)" ${targets[@]+--target "${targets[@]}"}
}
