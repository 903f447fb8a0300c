// The OpenCL layer on PoCL: enumeration, device specs, build, launch checks, profiling.
#include "core/errors.hpp"
#include "gpu/algorithm.hpp"
#include "gpu/kernel_source.hpp"
#include "gpu/runtime/arch_specific.hpp"
#include "gpu/runtime/compiler_output.hpp"
#include "gpu/runtime/devices.hpp"
#include "gpu/runtime/session.hpp"
#include "gpu/runtime/staging.hpp"
#include "gpu/variant/variant.hpp"
#include "test_util.hpp"

#include <QTemporaryDir>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <future>
#include <iterator>
#include <optional>
#include <unistd.h>

using namespace clscope;

namespace {

const char* fillSource = R"(
kernel void fill_index(global int* out, const int n, const int scale) {
    const int i = get_global_id(0);
    if (i < n) out[i] = i * scale;
}
kernel void use_local(global int* out, local int* scratch) {
    scratch[get_local_id(0)] = 1;
    out[0] = scratch[0];
}
)";

bool timed(ClSession& s, const std::string& label) {
    return test::timed(s.timings(), label);
}

// Chunk `index` of `from` through the stream, read back from its device buffer.
std::vector<std::uint8_t> throughStream(ClSession& s, StreamUpload& up, std::size_t index,
                                        const Array& from) {
    up.send(index, from.bytes(), from.byteSize(), "test upload");
    std::vector<std::uint8_t> back(from.byteSize());
    s.download(up.acquire(index), back.data(), back.size(), "test download");
    up.release(index);
    return back;
}

DeviceInfo firstOpenCl() {
    const auto& devices = openclDevices();
    if (devices.empty()) throw std::runtime_error("no OpenCL device: install pocl-opencl-icd");
    return devices.front();
}

} // namespace

class TestGpu : public QObject {
    Q_OBJECT

  private slots:
    void enumeration() {
        const auto all = listDevices();
        QVERIFY(all.size() >= 2);
        QCOMPARE(all[0].spec, std::string("cpu"));
        QVERIFY(all[0].isHost());
        const bool hasPocl = std::any_of(all.begin(), all.end(), [](const DeviceInfo& d) {
            return d.platform.find("Portable Computing Language") != std::string::npos;
        });
        QVERIFY2(hasPocl, "PoCL is not listed");
        const DeviceInfo d = firstOpenCl();
        QCOMPARE(d.spec, std::string("ocl:0"));
        QVERIFY(d.computeUnits > 0 && d.globalMemBytes > 0 && d.maxAllocBytes > 0);
        QVERIFY(d.maxWorkGroupSize > 0 && d.maxWorkItemSizes.size() == 3);
        QVERIFY(!d.version.empty() && !d.name.empty());
        QVERIFY(d.summary().find("ocl:0") == 0);
    }

    void deviceSpecs() {
        const DeviceInfo d = firstOpenCl();
        QVERIFY(resolveDevice("cpu").isHost());
        QVERIFY(resolveDevice("CPU").isHost());
        QCOMPARE(resolveDevice("ocl:0").name, d.name);
        const std::string part = d.name.substr(0, 4);
        QCOMPARE(resolveDevice("ocl:" + part).index, 0);
        EXPECT_ERROR(DeviceError, resolveDevice("ocl:99"), "ocl:99", "no such", "cpu");
        EXPECT_ERROR(DeviceError, resolveDevice("ocl:no-such-name"), "no-such-name");
        EXPECT_ERROR(DeviceError, resolveDevice("gpu0"), "gpu0", "cpu, ocl:N or ocl:TEXT");
        qputenv("CLSCOPE_DEVICE", "cpu");
        QVERIFY(resolveDevice("").isHost());
        qunsetenv("CLSCOPE_DEVICE");
        QVERIFY(!resolveDevice("").isHost()); // default: first GPU, else first OpenCL device
    }

    void kernelBuiltAndRunWithProfiling() {
        ClSession s(firstOpenCl());
        cl::Kernel k(s.device().program(fillSource, ""), "fill_index");
        const int n = 1000; // not a multiple of the work-group size: global is rounded up
        cl::Buffer out = s.allocate(n * sizeof(int), "out");
        k.setArg(0, out), k.setArg(1, n), k.setArg(2, 3);
        s.launch(k, "fill", {{std::size_t(n)}, {64}});
        s.launch(k, "fill", {{std::size_t(n)}, {64}});
        std::vector<int> host(n);
        s.download(out, host.data(), n * sizeof(int), "copy D->H out");
        s.finish();
        for (int i = 0; i < n; ++i)
            QCOMPARE(host[i], 3 * i);
        const auto records = s.timings().records();
        QCOMPARE(records.size(), std::size_t{2});
        QCOMPARE(records[0].label, std::string("fill"));
        QCOMPARE(records[0].count, std::size_t{2});
        QVERIFY(records[0].minMs <= records[0].medianMs && records[0].medianMs <= records[0].maxMs);
        QVERIFY(records[0].minMs >= 0);
        QCOMPARE(records[1].label, std::string("copy D->H out"));
    }

    void programCache() {
        ClDevice& dev = ClSession(firstOpenCl()).device();
        const std::size_t before = dev.cachedPrograms();
        dev.program(fillSource, "-DX=1");
        dev.program(fillSource, "-DX=1");
        QCOMPARE(dev.cachedPrograms(), before + 1);
        dev.program(fillSource, "-DX=2");
        QCOMPARE(dev.cachedPrograms(), before + 2);
    }

    // Builds run outside the cache's lock: threads asking for the same program at once get one
    // build (the same cl_program); a failed build is not kept and fails for every thread.
    void programCacheFromThreads() {
        ClDevice& dev = ClSession(firstOpenCl()).device();
        const std::size_t before = dev.cachedPrograms();
        std::vector<std::future<cl::Program>> same;
        for (int t = 0; t < 4; ++t)
            same.push_back(std::async(std::launch::async,
                                      [&dev] { return dev.program(fillSource, "-DX=31"); }));
        std::vector<cl_program> handles;
        for (auto& f : same)
            handles.push_back(f.get()());
        QCOMPARE(dev.cachedPrograms(), before + 1);
        for (cl_program h : handles)
            QCOMPARE(h, handles.front());
        const std::string broken = "kernel void broken(global int* a) { a[0] = undeclared; }";
        std::vector<std::future<std::string>> failing;
        for (int t = 0; t < 3; ++t)
            failing.push_back(std::async(std::launch::async, [&dev, &broken]() -> std::string {
                try {
                    dev.program(broken, "-DX=32");
                } catch (const DeviceError& e) {
                    return e.what();
                }
                return "built";
            }));
        for (auto& f : failing) {
            const std::string what = f.get();
            QVERIFY2(what.find("undeclared") != std::string::npos, what.c_str());
        }
        QCOMPARE(dev.cachedPrograms(), before + 1);
        EXPECT_ERROR(DeviceError, dev.program(broken, "-DX=32"), "undeclared"); // built again
    }

    // A build (or a load from the disk cache of programs, which the suite's earlier runs may
    // have filled) is timed in the session's records; a program from the process's cache is
    // not. The device keeps each built program's resolved tunable values.
    void programBuildsAreTimed() {
        ClSession s(firstOpenCl());
        const auto builds = [&s] {
            std::size_t n = 0;
            for (const TimingRecord& r : s.timings().records())
                n += r.label == "program builds (host)" ||
                             r.label == "program loads (host, disk cache)"
                         ? r.count
                         : 0;
            return n;
        };
        const ProgramRecipe gather("gather", {"common", "gather"},
                                   {choiceTunable("ELEM", "int", {"int"}, "element type"),
                                    integerTunable("X", 0, 0, 99, "makes the program new")});
        s.kernel(gather, {{"X", "34"}}, "gather_elements");
        QCOMPARE(builds(), std::size_t(1));
        s.kernel(gather, {{"X", "33"}}, "gather_elements");
        s.kernel(gather, {{"X", "33"}}, "gather_elements");
        QCOMPARE(builds(), std::size_t(2));
        const TunableValues built{{"ELEM", "int"}, {"X", "33"}};
        const auto programs = s.device().builtPrograms();
        QVERIFY(std::any_of(programs.begin(), programs.end(),
                            [&](const BuiltProgram& p) { return p.values == built; }));
    }

    // The compiler's own summary on stderr (PoCL's clang: "1 warning generated.") does not
    // reach it; other lines do.
    void compilerSummaryOffStderr() {
        QVERIFY(CompilerOutput::summaryLine("8 warnings generated."));
        QVERIFY(CompilerOutput::summaryLine("1 warning and 2 errors generated."));
        QVERIFY(!CompilerOutput::summaryLine("note: 8 warnings generated."));
        QCOMPARE(CompilerOutput::passedOn("a\n1 warning generated.\nb\n", false),
                 std::string("a\nb\n"));
        QCOMPARE(CompilerOutput::passedOn("1 warning generated.", true),
                 std::string("1 warning generated."));
        ClSession s(firstOpenCl());
        std::FILE* file = std::tmpfile();
        std::fflush(stderr);
        const int saved = ::dup(2);
        ::dup2(fileno(file), 2);
        s.device().program("kernel void k(global int* a) { int y = 1.5; a[0] = y; }",
                           "-DCOMPILER_SUMMARY=1");
        std::fflush(stderr);
        ::dup2(saved, 2);
        ::close(saved);
        std::rewind(file);
        std::string text(4096, '\0');
        text.resize(std::fread(text.data(), 1, text.size(), file));
        std::fclose(file);
        QVERIFY2(text.find("generated") == std::string::npos, text.c_str());
    }

    void buildFailureCarriesLog() {
        ClSession s(firstOpenCl());
        EXPECT_ERROR(
            DeviceError,
            s.device().program("kernel void broken(global int* a) { a[0] = undeclared_name; }",
                               "-DTUNE=7"),
            "kernel build failed", "ocl:0", "-DTUNE=7", "build log", "undeclared_name");
    }

    void launchChecksRefuseImpossibleShapes() {
        const DeviceInfo d = firstOpenCl();
        ClSession s(d);
        cl::Kernel k(s.device().program(fillSource, ""), "fill_index");
        cl::Buffer out = s.allocate(64 * sizeof(int), "out");
        k.setArg(0, out), k.setArg(1, 64), k.setArg(2, 1);
        EXPECT_ERROR(DeviceError, s.launch(k, "too wide", {{4096}, {d.maxWorkGroupSize * 2}}),
                     "too wide", "exceeds");
        EXPECT_ERROR(DeviceError, s.launch(k, "zero", {{64}, {0}}), "local size 0");
        EXPECT_ERROR(DeviceError, s.launch(k, "dims", {{64, 2}, {8}}), "same 1-3 dimensions");
        cl::Kernel l(s.device().program(fillSource, ""), "use_local");
        l.setArg(0, out), l.setArg(1, cl::Local(d.localMemBytes * 2));
        EXPECT_ERROR(DeviceError, s.launch(l, "big local", {{1}, {1}}), "local memory");
        EXPECT_ERROR(DeviceError, s.allocate(d.maxAllocBytes + 1, "huge"), "huge",
                     "maximum allocation");
    }

    void checkLaunchRounding() {
        DeviceInfo d;
        d.spec = "ocl:9", d.maxWorkGroupSize = 256, d.maxWorkItemSizes = {256, 256, 64},
        d.localMemBytes = 49152;
        QCOMPARE(checkLaunch(d, 1024, 0, "r", {{1000, 3}, {64, 2}}),
                 (std::vector<std::size_t>{1024, 4}));
        EXPECT_ERROR(DeviceError, checkLaunch(d, 128, 0, "k", {{256}, {256}}), "limit of 128");
        EXPECT_ERROR(DeviceError, checkLaunch(d, 1024, 0, "z", {{8, 8, 128}, {1, 1, 128}}),
                     "dimension 2");
        EXPECT_ERROR(DeviceError, checkLaunch(d, 1024, 65536, "m", {{8}, {8}}),
                     "65536 bytes of local memory");
    }

    void kernelSources() {
        const auto names = embeddedKernelNames();
        QVERIFY(std::find(names.begin(), names.end(), "common") != names.end());
        QVERIFY(kernelSource("common").find("clscope_div_up") != std::string::npos);
        EXPECT_ERROR(DeviceError, kernelSource("no_such_kernel"), "no_such_kernel.cl");
        QTemporaryDir dir;
        std::ofstream(dir.filePath("common.cl").toStdString()) << "// from disk\n";
        qputenv("CLSCOPE_KERNEL_DIR", dir.path().toUtf8());
        QCOMPARE(kernelSource("common"), std::string("// from disk\n"));
        EXPECT_ERROR(DeviceError, kernelSource("xpcs_missing"), "CLSCOPE_KERNEL_DIR");
        qunsetenv("CLSCOPE_KERNEL_DIR");
    }

    // Arrays made under pinnedInputScope's allocator lie in the device's pinned memory,
    // zeroed; StreamUpload sends them by DMA from there (no staging copy), others through it.
    void pinnedArraysUploadWithoutStaging() {
        const DeviceInfo d = firstOpenCl();
        QVERIFY(!pinnedInputScope({d}) && !pinnedInputScope({hostDevice()})); // GPUs only
        QVERIFY(!pinnedAllocator(d)(d.maxAllocBytes + 1).data); // past one buffer: the heap
        std::optional<HostAllocatorScope> scope(std::in_place, pinnedAllocator(d), 4096);
        Array pinned(DType::UInt8, {3, 40, 50});
        const Array small(DType::UInt8, {10, 10}); // under minBytes: the heap
        scope.reset();
        const Array heap(DType::UInt8, {3, 40, 50});
        ClSession s(d);
        QVERIFY(s.device().holdsPinned(pinned.bytes(), pinned.byteSize()));
        QVERIFY(s.device().holdsPinned(pinned.bytes() + 1, pinned.byteSize() - 1));
        QVERIFY(!s.device().holdsPinned(pinned.bytes() + 1, std::size_t(1) << 40));
        QVERIFY(!s.device().holdsPinned(small.bytes(), small.byteSize()));
        QVERIFY(!s.device().holdsPinned(heap.bytes(), heap.byteSize()));
        // The DMA reads its own blocks (and on NVIDIA those of the platform's other devices).
        QVERIFY(s.device().dmaReads(pinned.bytes(), pinned.byteSize()));
        QVERIFY(!s.device().dmaReads(heap.bytes(), heap.byteSize()));
        auto values = pinned.as<std::uint8_t>();
        QVERIFY(std::all_of(values.begin(), values.end(), [](auto v) { return v == 0; }));
        for (std::size_t i = 0; i < values.size(); ++i)
            values[i] = static_cast<std::uint8_t>(i * 7 % 251);
        const Array copy = pinned; // made outside the scope: the heap, same values
        QVERIFY(!s.device().holdsPinned(copy.bytes(), copy.byteSize()));
        StreamUpload up(s, pinned.byteSize(), "test stream");
        const std::vector<std::uint8_t> want(values.begin(), values.end());
        QVERIFY(throughStream(s, up, 0, pinned) == want);
        QVERIFY(timed(s, "upload from pinned memory (host waits)"));
        QVERIFY(!timed(s, "copy to pinned staging (host)"));
        QVERIFY(throughStream(s, up, 1, copy) == want);
        QVERIFY(timed(s, "copy to pinned staging (host)"));
    }

    // streamChunks sends chunks ahead of the kernels: where the DMA reads the stack in place,
    // four buffers and two chunks queued before chunk 0's kernels; through staging, two and
    // one ahead. Each chunk arrives whole in the buffer its kernels are given.
    // CLSCOPE_TRACE: each session appends its commands (the transfer queue's DMAs too) and
    // host marks in start order, with the busy and idle summary; nothing without it.
    void traceWritesTheTimeline() {
        const DeviceInfo d = firstOpenCl();
        QTemporaryDir dir;
        const std::string path = dir.filePath("trace.txt").toStdString();
        qputenv("CLSCOPE_TRACE", QByteArray::fromStdString(path));
        for (int run = 0; run < 2; ++run) {
            ClSession s(d);
            cl::Buffer b = s.allocate(4096, "trace test");
            s.fill(b, 4096, "test fill");
            s.finish();
            s.mark("filled");
            StreamUpload up(s, 4096, "trace test");
            std::vector<std::uint8_t> bytes(4096, 7);
            up.send(0, bytes.data(), bytes.size(), "test dma");
            s.finish();
        }
        qunsetenv("CLSCOPE_TRACE");
        { ClSession untraced(d); }
        std::ifstream in(path);
        const std::string text((std::istreambuf_iterator<char>(in)), {});
        auto count = [&](const std::string& what) {
            std::size_t n = 0;
            for (std::size_t at = text.find(what); at != std::string::npos;
                 at = text.find(what, at + 1))
                ++n;
            return n;
        };
        QCOMPARE(count("trace of a session on " + d.spec), std::size_t(2));
        QCOMPARE(count(" c test fill\n"), std::size_t(2));
        QCOMPARE(count(" h filled\n"), std::size_t(2));
        QCOMPARE(count(" c test dma\n"), std::size_t(2));
        QCOMPARE(count("\ndevice: "), std::size_t(2));
        QCOMPARE(count("\ncopies: "), std::size_t(2));
        QCOMPARE(count("session ended at "), std::size_t(2));
        QVERIFY(text.find(" c test fill") < text.find(" c test dma")); // in start order
    }

    // A chunk's DMA is queued only once the host knows its buffer free: send blocks while the
    // session's queue still reads the chunk that used the buffer before (held here by a user
    // event), and that reader sees its own chunk, not the next one.
    void dmaWaitsOnTheHostForItsBuffer() {
        const DeviceInfo d = firstOpenCl();
        ClSession s(d);
        StreamUpload up(s, 4096, "test stream", 2);
        std::vector<std::uint8_t> first(4096, 1), next(4096, 2), back(4096, 0);
        up.send(0, first.data(), first.size(), "test upload");
        cl::UserEvent gate(s.context());
        const std::vector<cl::Event> held{gate};
        const cl::Buffer& buffer = up.acquire(0);
        s.queue().enqueueMarkerWithWaitList(&held);
        s.queue().enqueueReadBuffer(buffer, CL_FALSE, 0, back.size(), back.data());
        up.release(0);
        up.send(1, next.data(), next.size(), "test upload"); // the other buffer: at once
        auto reuse = std::async(std::launch::async, [&] {
            up.send(2, next.data(), next.size(), "test upload"); // buffer 0 again
        });
        const bool blocked =
            reuse.wait_for(std::chrono::milliseconds(300)) == std::future_status::timeout;
        gate.setStatus(CL_COMPLETE); // before any check: nothing may wait on the gate after
        reuse.get();
        s.finish();
        QVERIFY(blocked);
        QVERIFY(std::all_of(back.begin(), back.end(), [](std::uint8_t v) { return v == 1; }));
    }

    // The staging copy over the pool's threads (slices taken in turn), odd sizes included.
    void parallelCopyCopiesEveryByte() {
        for (const std::size_t bytes : {std::size_t(9) << 20 | 7, std::size_t(4) << 20,
                                        std::size_t(33) << 20, std::size_t(100)}) {
            std::vector<std::uint8_t> from(bytes), to(bytes, 0);
            for (std::size_t i = 0; i < bytes; ++i)
                from[i] = static_cast<std::uint8_t>(i * 7 % 251 + 1);
            parallelCopy(to.data(), from.data(), bytes);
            QVERIFY(to == from);
        }
    }

    void chunksRunAheadOfTheKernels() {
        const DeviceInfo d = firstOpenCl();
        std::optional<HostAllocatorScope> scope(std::in_place, pinnedAllocator(d), 4096);
        Array pinned(DType::UInt8, {7, 32, 32});
        scope.reset();
        auto values = pinned.as<std::uint8_t>();
        for (std::size_t i = 0; i < values.size(); ++i)
            values[i] = static_cast<std::uint8_t>(i * 13 % 249);
        const Array heap = pinned;
        for (const Array* stack : std::vector<const Array*>{&pinned, &heap}) {
            ClSession s(d);
            const std::size_t chunk = 2 * 32 * 32, count = 4; // the last chunk of one frame
            const std::size_t depth = uploadDepth(s, stack->bytes(), stack->byteSize());
            QCOMPARE(depth, std::size_t(stack == &pinned ? 4 : 2));
            StreamUpload up(s, chunk, "test stream", depth);
            QCOMPARE(up.depth(), depth);
            QCOMPARE(up.ahead(), std::size_t(stack == &pinned ? 2 : 1));
            std::vector<std::uint8_t> back(stack->byteSize());
            std::vector<std::string> order;
            auto bytesOf = [&](std::size_t i) { return std::min(chunk, back.size() - i * chunk); };
            auto send = [&](std::size_t i) {
                order.push_back("send " + std::to_string(i));
                up.sendInPlace(i, stack->bytes() + i * chunk, bytesOf(i), "test upload");
            };
            auto enqueue = [&](std::size_t i, const cl::Buffer& buffer) {
                order.push_back("run " + std::to_string(i));
                s.queue().enqueueReadBuffer(buffer, CL_FALSE, 0, bytesOf(i),
                                            back.data() + i * chunk);
            };
            streamChunks(up, count, send, enqueue, [&](std::size_t) { s.finish(); });
            const std::vector<std::string> want =
                depth == 4 ? std::vector<std::string>{"send 0", "send 1", "run 0", "send 2",
                                                      "run 1",  "send 3", "run 2", "run 3"}
                           : std::vector<std::string>{"send 0", "run 0", "send 1", "run 1",
                                                      "send 2", "run 2", "send 3", "run 3"};
            QCOMPARE(order, want);
            QVERIFY(std::memcmp(back.data(), stack->bytes(), back.size()) == 0);
            QCOMPARE(timed(s, "upload from pinned memory (host, queued)"), stack == &pinned);
            QCOMPARE(timed(s, "copy to pinned staging (host)"), stack != &pinned);
        }
    }

    void variantSupport() {
        VariantEntry host{{"demo", "cpu", "host reference", VariantKind::Host, "", "{}"}, {}, {}};
        VariantEntry ocl{{"demo", "fast", "fast", VariantKind::OpenCL, "fp64", "{}"},
                         [](const DeviceInfo& d) {
                             return d.fp64 ? Support{} : Support{false, "needs fp64"};
                         },
                         {}};
        DeviceInfo noFp64 = firstOpenCl();
        noFp64.fp64 = false;
        QVERIFY(host.supports(hostDevice()).ok);
        QVERIFY(!host.supports(firstOpenCl()).ok);
        QVERIFY(!ocl.supports(hostDevice()).ok);
        QCOMPARE(ocl.supports(noFp64).reason, std::string("needs fp64"));
        QVERIFY(ocl.supports(firstOpenCl()).ok || !firstOpenCl().fp64);
        const auto& reg = AlgorithmRegistry::instance();
        EXPECT_ERROR(UsageError, reg.find("xpcs").variant("no-such-variant"), "no-such-variant");
        QCOMPARE(reg.ids(),
                 (std::vector<std::string>{"xpcs", "cluster", "rbf", "spots", "azint"})); // no toy
    }

    // The register cap is NVIDIA's build option, and nothing on other platforms (PoCL's
    // compiler refuses options it does not know), where a kernel built with it still runs.
    void registerCapOnlyOnNvidia() {
        DeviceInfo nvidia;
        nvidia.platform = "NVIDIA CUDA";
        QCOMPARE(registerCap(nvidia, 40), std::string(" -cl-nv-maxrregcount=40"));
        const auto& devices = openclDevices();
        if (devices.empty()) QSKIP("no OpenCL device");
        const DeviceInfo& device = devices.front();
        if (device.platform.find("NVIDIA") == std::string::npos)
            QCOMPARE(registerCap(device, 40), std::string());
        ClSession session(device);
        const cl::Program program = session.device().program(
            "kernel void one(global int* x) { x[0] = 1; }", registerCap(device, 40));
        QVERIFY(cl::Kernel(program, "one")() != nullptr);
    }

    // NVIDIA's PTX of a kernel with marked sm_90a instructions, made specific for the rebuild.
    void archSpecificPtxRestoresMarkedInstructions() {
        const std::string mark = archSpecificMark;
        const std::string ptx = ".version 8.7\n.target sm_90, texmode_independent\n"
                                "\t// begin inline asm\n\t" +
                                mark + "wgmma.fence.sync.aligned;\n\tmov.u32 %r1, 2;\n\t" + mark +
                                "wgmma.commit_group.sync.aligned;\n";
        const auto got = archSpecificPtx(ptx);
        QVERIFY(got.has_value());
        QCOMPARE(*got, std::string(".version 8.7\n.target sm_90a, texmode_independent\n"
                                   "\t// begin inline asm\n\twgmma.fence.sync.aligned;\n"
                                   "\tmov.u32 %r1, 2;\n\twgmma.commit_group.sync.aligned;\n"));
        QCOMPARE(*archSpecificPtx(*got + mark + "x;"), *got + "x;"); // "a" is not added twice
        QVERIFY(!archSpecificPtx(".target sm_90\n// a comment\n").has_value());
        EXPECT_ERROR(DeviceError, archSpecificPtx(mark + "wgmma.fence;"), "no .target sm_");
        EXPECT_ERROR(DeviceError, archSpecificPtx(".target sm_x\n" + mark), "no number");
    }
};

QTEST_APPLESS_MAIN(TestGpu)
#include "tst_gpu.moc"
