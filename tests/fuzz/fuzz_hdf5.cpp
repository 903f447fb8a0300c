// libFuzzer target over clscope's HDF5 readers (issue 13). Each input is an HDF5 file image,
// opened from memory (H5Reader's file-image constructor, HDF5's core driver), then read the
// way clscope-cli and the GUI read files: every role reader (frames, q mask, pixel mask,
// frame time, digis, particles, positions), then the whole tree as the data browser walks it,
// every dataset read in its own type and converted to float64. The frames are also read by
// xpcs's parallel reader (raw chunks inflated by zlib on worker threads), which opens the file
// by name: the image is given a name in memory too (memfd_create, /proc/self/fd/N).
//
// Each open first runs the containment probe (core/hdf5_probe.cpp): libhdf5 walks the file in
// a forked child, so a crash or hang inside libhdf5 is an InputError here, while a failure of
// clscope's own code (in the parent's reads, or blamed on clscope by the child's sanitizer
// report) is still a finding.
//
// Bad input must end in InputError (exit 3 in the CLI); anything else escaping, a crash, a
// sanitizer report, a hang or an allocation past the limits is a finding.
//
//   build-fuzz/tests/fuzz/fuzz_hdf5 -max_total_time=60 WORK_CORPUS tests/fuzz/corpus
#include "core/cluster/digis.hpp"
#include "core/errors.hpp"
#include "core/hdf5.hpp"
#include "core/input/metadata.hpp"
#include "core/io.hpp"
#include "core/rbf/particles.hpp"
#include "core/xpcs/frames_read.hpp"

#include <cstdint>
#include <cstdlib>
#include <functional>
#include <string>
#include <sys/mman.h>
#include <unistd.h>

using namespace clscope;

namespace {

// Run one reader; refusals of bad input are the expected outcome.
void attempt(const std::function<void()>& read) {
    try {
        read();
    } catch (const InputError&) {
    }
}

void readDataset(const H5Reader& file, const std::string& path) {
    attempt([&] { file.read(path); });
    attempt([&] { file.read(path, DType::Float64); });
    attempt([&] { file.readSlab(path, 0, 1); });
    attempt([&] { file.stringAttribute(path, "units"); });
}

// The data browser's walk: children of every group, depth-limited (hard links may loop).
void walk(const H5Reader& file, const std::string& group, int depth) {
    if (depth > 6) return;
    std::vector<H5Node> nodes;
    attempt([&] { nodes = file.children(group); });
    for (const H5Node& node : nodes) {
        if (node.kind == H5Node::Group) walk(file, node.path, depth + 1);
        if (node.kind == H5Node::Dataset) readDataset(file, node.path);
    }
}

void readRoles(const H5Reader& file) {
    std::size_t height = 0, width = 0;
    attempt([&] {
        const Array frames = readFrames(file);
        const Shape& s = frames.shape();
        if (s.size() >= 2) height = s[s.size() - 2], width = s[s.size() - 1];
    });
    attempt([&] { readLabels(file, paths::qmask, height, width); });
    attempt([&] { readPixelMask(file, paths::pixelMask, height, width); });
    attempt([&] { readFrameTime(file); });
    attempt([&] { readDigis(file); });
    attempt([&] { readParticles(file); });
    attempt([&] { readPositions(file, "/entry/positions"); });
}

// The image as a file in memory, read by name: H5Reader's file checks and the parallel reader.
// A new memfd for every input: the probe remembers files it found sound by their identity.
void readByName(const std::uint8_t* data, std::size_t size) {
    const int fd = memfd_create("fuzz_hdf5", 0);
    if (fd < 0) return;
    if (pwrite(fd, data, size, 0) == static_cast<ssize_t>(size)) {
        const std::string name = "/proc/self/fd/" + std::to_string(fd);
        attempt([&] {
            const H5Reader file(name);
            xpcs::readFramesParallel(file, name, paths::frames, 2);
        });
    }
    close(fd);
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    // A declared shape must be refused by the memory guard, not allocated (setenv keeps a
    // smaller limit given by the caller).
    setenv("CLSCOPE_MEMORY_LIMIT", "268435456", 0);
    // libhdf5 runs first in the probe's forked child (core/hdf5_probe.cpp): its crashes and
    // hangs there are refusals, not findings; a hang must end well before libFuzzer's -timeout.
    setenv("CLSCOPE_PROBE_SECONDS", "3", 0);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    attempt([&] {
        const H5Reader file("fuzz.h5", data, size);
        readRoles(file);
        walk(file, "/", 0);
    });
    readByName(data, size);
    return 0;
}
