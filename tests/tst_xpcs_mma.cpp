// xpcs variant mma off NVIDIA: its tensor-core tiling emulated in plain C (MMA_EMULATE=1, the
// same fragments, steps and flush points) against the cpu reference bit for bit on awkward
// sizes (g2 and the two-time maps bit for bit), the 64-bit flush at its bound (accumulators
// narrowed by MMA_EMU_BITS so that a partial sum would wrap without the flush), the refusals, and
// uint16 frames run by gemm; the 32-bit Gram matrices (MMA_GRAM32) on, off and refused by the
// host where a bin's entries could reach 2^32, the lag sums' products in double (MMA_LAGS),
// and the wgmma Gram kernel (MMA_WGMMA=1).
#include "core/io.hpp"
#include "gpu/runtime/staging.hpp"
#pragma push_macro("slots") // Qt's keyword; gpu/xpcs/runner.hpp has a member of that name
#undef slots
#include "gpu/xpcs/mma.hpp"
#pragma pop_macro("slots")
#include "mma_checks.hpp"

#include <array>
#include <optional>

using namespace clscope;
using namespace clscope::test;

class TestXpcsMma : public QObject {
    Q_OBJECT
  private slots:
    void emulatedTilingMatchesCpu_data();
    void emulatedTilingMatchesCpu();
    void fusedLagSumsMatchCpu_data();
    void fusedLagSumsMatchCpu();
    void flushAtItsBound_data();
    void flushAtItsBound();
    void gram32OnAndOff_data();
    void gram32OnAndOff();
    void gram32NotWhereEntriesReach2To32();
    void narrowLagSumsMatchCpu_data();
    void narrowLagSumsMatchCpu();
    void prepareOverSeveralSpans_data();
    void prepareOverSeveralSpans();
    void refusals();
    void defaultsByComputeCapability();
    void uint16RunsGemm();
};

void TestXpcsMma::emulatedTilingMatchesCpu_data() {
    QTest::addColumn<int>("frames");
    QTest::addColumn<int>("chunkPixels");
    QTest::addColumn<bool>("pinned");
    QTest::addColumn<QString>("shape"); // MMA_STAGE=1 with MMA_WM,MMA_WN,MMA_MI,MMA_NJ; "" none
    // 70 frames: two 64-frame tiles, the second mostly padding; 129: three.
    QTest::newRow("70 frames") << 70 << 0 << false << QString();
    QTest::newRow("129 frames") << 129 << 0 << false << QString();
    QTest::newRow("70 frames in chunks of 90 pixels") << 70 << 90 << false << QString();
    // Frames made in the device's pinned memory: streamed by DMA from there, no staging copy.
    QTest::newRow("70 frames in pinned memory") << 70 << 0 << true << QString();
    // Rows staged in local memory by the work-group (MMA_STAGE): one warp of 64 x 64, four
    // warps of 2 x 2 over 64 x 64 (each stages 4 of the 128 rows' 16-byte pieces), chunked.
    QTest::newRow("70 frames, staged") << 70 << 0 << false << QString("1,1,4,8");
    QTest::newRow("129 frames, staged by 4 warps") << 129 << 0 << false << QString("2,2,2,4");
    QTest::newRow("70 frames, chunks of 90, staged") << 70 << 90 << false << QString("2,2,2,4");
    // wgmma (MMA_WGMMA): 128 x 128 tiles from local memory; "wgmma" with the pixels a block,
    // the stages of copies and the wgmma groups left in flight.
    QTest::newRow("70 frames, wgmma") << 70 << 0 << false << QString("wgmma32,5,1");
    QTest::newRow("129 frames, wgmma, 64-pixel blocks")
        << 129 << 0 << false << QString("wgmma64,2,0");
    QTest::newRow("129 frames, chunks of 90, wgmma")
        << 129 << 90 << false << QString("wgmma64,3,1");
    QTest::newRow("129 frames, wgmma without swizzle")
        << 129 << 0 << false << QString("wgmma64,2,0,0");
    // One warpgroup with two accumulators (MMA_WG_GROUPS=1): rows 64.. of each tile come from
    // the second one.
    QTest::newRow("129 frames, wgmma by one warpgroup")
        << 129 << 0 << false << QString("wgmma32,5,1,1,1");
    QTest::newRow("129 frames, chunks of 90, wgmma by one warpgroup")
        << 129 << 90 << false << QString("wgmma64,2,0,1,1");
}

// The tuning of the wgmma Gram kernel: blocks of `kb` pixels, `stages` stages of copies,
// `inflight` wgmma groups left running across a barrier, local layout swizzled or not, `groups`
// warpgroups a work-group.
void useWgmma(xpcs::Params& p, int kb = 32, int stages = 5, int inflight = 1, int swizzle = 1,
              int groups = 2) {
    const std::pair<const char*, int> tuning[] = {{"MMA_WGMMA", 1},
                                                  {"MMA_WM", 8},
                                                  {"MMA_WN", 1},
                                                  {"MMA_MI", 1},
                                                  {"MMA_NJ", 16},
                                                  {"MMA_WG_KB", kb},
                                                  {"MMA_WG_STAGES", stages},
                                                  {"MMA_WG_INFLIGHT", inflight},
                                                  {"MMA_WG_SWIZZLE", swizzle},
                                                  {"MMA_WG_GROUPS", groups}};
    for (const auto& [name, value] : tuning)
        p.tuning[name] = value;
}

void TestXpcsMma::emulatedTilingMatchesCpu() {
    QFETCH(int, frames);
    QFETCH(int, chunkPixels);
    QFETCH(bool, pinned);
    QFETCH(QString, shape);
    xpcs::Params p = emulated();
    if (shape.startsWith("wgmma")) {
        const QStringList v = shape.mid(5).split(',');
        useWgmma(p, v[0].toInt(), v[1].toInt(), v[2].toInt(), v.value(3, "1").toInt(),
                 v.value(4, "2").toInt());
    } else if (!shape.isEmpty()) {
        const QStringList v = shape.split(',');
        p.tuning["MMA_STAGE"] = 1;
        for (int i = 0; i < 4; ++i)
            p.tuning[std::array{"MMA_WM", "MMA_WN", "MMA_MI", "MMA_NJ"}[i]] = v[i].toInt();
    }
    p.chunkPixels = std::size_t(chunkPixels);
    p.twotimeLabels = {2};
    std::optional<HostAllocatorScope> scope; // the stack and its copies (the run's input)
    if (pinned) scope.emplace(pinnedAllocator(testDevice()), std::size_t(frames) * 17 * 23);
    const Array stack = randomU8(std::size_t(frames), 17, 23, 5);
    xpcs::Result got;
    checkAgainstCpu(stack, scattered(17, 23, 4, 6), p, "mma", &got);
    QVERIFY(ran(got, gram32)); // by default, the two-time map reading it
    if (pinned) QVERIFY(ran(got, "upload from pinned memory (host, queued)"));
    QCOMPARE(ran(got, "copy to pinned staging (host)"), !pinned && !chunkPixels);
}

// Bins 4 (every pixel 3 in every frame: g2 exactly 1, g2_err 0) and 5 (zeros: NaN) of mask
// m made so in frames f.
Array withConstantAndZeroBins(Array f, const LabelMask& m) {
    for (std::size_t t = 0; t < f.frameCount(); ++t)
        for (std::size_t p = 0; p < m.labels.size(); ++p)
            if (m.labels[p] >= 4)
                reinterpret_cast<std::uint8_t*>(f.bytes())[t * m.labels.size() + p] =
                    m.labels[p] == 4 ? 3 : 0;
    return f;
}

void TestXpcsMma::fusedLagSumsMatchCpu_data() {
    QTest::addColumn<int>("frames");
    QTest::addColumn<bool>("ask"); // MMA_FUSE_LAGS=1 (off by default)
    QTest::addColumn<bool>("fused");
    // 129 frames: 3 x 3 tiles, diagonals spanning two tiles, a last tile of one valid row.
    QTest::newRow("129 frames, fused") << 129 << true << true;
    QTest::newRow("70 frames, two-time map: not fused") << 70 << true << false;
    QTest::newRow("70 frames, not asked: not fused") << 70 << false << false;
}

// One slot and no flush due: the Gram kernel reduces each tile's diagonals (exact N sums,
// ratio moments) and xpcs_mma_lags merges them; g2 must still be cpu's bit for bit, including
// a bin of equal constant pixels (g2 exactly 1, g2_err 0) and a bin of zeros (NaN).
void TestXpcsMma::fusedLagSumsMatchCpu() {
    QFETCH(int, frames);
    QFETCH(bool, ask);
    QFETCH(bool, fused);
    const LabelMask m = scattered(17, 23, 5, 8);
    const Array f = withConstantAndZeroBins(randomU8(std::size_t(frames), 17, 23, 7), m);
    xpcs::Params p;
    p.tuning = {{"MMA_EMULATE", 1}, {"MMA_STREAM", 1}, {"MMA_STREAM_FRAMES", 32}};
    if (ask) p.tuning["MMA_FUSE_LAGS"] = 1;
    if (ask && !fused) p.twotimeLabels = {3};
    xpcs::Result got;
    checkAgainstCpu(f, m, p, "mma", &got);
    QCOMPARE(ran(got, "xpcs mma lags"), fused);
    QCOMPARE(ran(got, "xpcs lag sums"), !fused);
}

// A bin of 800 pixels of 255, 400 in each of the 2 slots, sums 400 * 255^2 = 26 010 000 >
// 2^24 per slot in every Gram entry: the 24-bit accumulators wrap unless flushed at their
// bound (4 steps).
// The same with the wgmma kernel (flushes between its blocks of two steps; 7 blocks a slot, so
// its 4 stages of copies wrap around), whose flush interval must also be even.
void TestXpcsMma::flushAtItsBound_data() {
    QTest::addColumn<bool>("wgmma");
    QTest::newRow("mma.sync") << false;
    QTest::newRow("wgmma") << true;
}

void TestXpcsMma::flushAtItsBound() {
    QFETCH(bool, wgmma);
    std::vector<std::uint8_t> v(40 * 20 * 40, 255);
    v[7] = 254; // one frame differs: g2 is not all ones
    const Array f = makeArray<std::uint8_t>({40, 20, 40}, v);
    const LabelMask m{20, 40, std::vector<std::int32_t>(800, 1)};
    xpcs::Params p = emulated();
    if (wgmma) useWgmma(p, 64, 4, 1);
    checkAgainstCpu(f, m, p);
    p.tuning["MMA_FLUSH_STEPS"] = 5; // 5 steps could reach 2^23: refused
    QVERIFY_THROWS_EXCEPTION(UsageError, test::runXpcs(testDevice(), "mma", f, m, p));
    if (!wgmma) return;
    p.tuning["MMA_FLUSH_STEPS"] = 3; // holds the bound, but falls inside a block: refused
    QVERIFY_THROWS_EXCEPTION(UsageError, test::runXpcs(testDevice(), "mma", f, m, p));
    p.tuning["MMA_FLUSH_STEPS"] = 4;
    p.tuning["MMA_WG_STAGES"] = 2; // with one group in flight, no block could be copied ahead
    QVERIFY_THROWS_EXCEPTION(UsageError, test::runXpcs(testDevice(), "mma", f, m, p));
    p.tuning["MMA_WG_STAGES"] = 4;
    p.tuning["MMA_NJ"] = 8; // not the wgmma shape: refused
    QVERIFY_THROWS_EXCEPTION(UsageError, test::runXpcs(testDevice(), "mma", f, m, p));
}

// 70 frames over two slots with a two-time map (it reads the Gram matrices), in one chunk and
// in chunks of 90 pixels (entries added to by later chunks): uint entries by default,
// 64-bit ones with MMA_GRAM32=0, cpu's g2 and maps bit for bit either way.
void TestXpcsMma::gram32OnAndOff_data() {
    QTest::addColumn<int>("ask"); // MMA_GRAM32; -1: not given
    QTest::addColumn<int>("chunkPixels");
    QTest::newRow("default: 32-bit") << -1 << 0;
    QTest::newRow("default, chunks of 90: 32-bit") << -1 << 90;
    QTest::newRow("MMA_GRAM32=0, chunks of 90: 64-bit") << 0 << 90;
}

void TestXpcsMma::gram32OnAndOff() {
    QFETCH(int, ask);
    QFETCH(int, chunkPixels);
    xpcs::Params p = emulated();
    if (ask >= 0) p.tuning["MMA_GRAM32"] = ask;
    p.chunkPixels = std::size_t(chunkPixels);
    p.twotimeLabels = {1, 3};
    xpcs::Result got;
    checkAgainstCpu(randomU8(70, 17, 23, 13), scattered(17, 23, 4, 14), p, "mma", &got);
    QCOMPARE(ran(got, gram32), ask != 0);
}

// A bin of 260 x 260 = 67 600 pixels (> 66 052) of 255 but 500 random ones per frame: its Gram
// entries pass 2^32 (by more than 3.5e7) in its one slot. Asked for MMA_GRAM32=1, the host keeps
// 64-bit entries (uint ones would wrap and g2 would differ from cpu's).
void TestXpcsMma::gram32NotWhereEntriesReach2To32() {
    constexpr std::size_t side = 260, plane = side * side;
    std::vector<std::uint8_t> v(6 * plane, 255);
    std::mt19937 rng(15);
    for (std::size_t t = 0; t < 6; ++t)
        for (int i = 0; i < 500; ++i)
            v[t * plane + rng() % plane] = static_cast<std::uint8_t>(rng() % 256);
    const Array f = makeArray<std::uint8_t>({6, side, side}, v);
    const LabelMask m{side, side, std::vector<std::int32_t>(plane, 1)};
    xpcs::Params p = emulated();
    p.tuning["MMA_GRAM32"] = 1;
    p.tuning["MMA_SLOTS"] = 1; // two slots would hold half an entry each, below 2^32
    xpcs::Result got;
    checkAgainstCpu(f, m, p, "mma", &got);
    QVERIFY(!ran(got, gram32));
}

// The lag sums on 129 frames over two slots, with a bin of constant frames (g2 exactly 1,
// g2_err 0) and one of zeros (NaN): products in double where the entries are uint (the
// default), the 128-bit path asked for (MMA_LAGS=0), and on 64-bit entries.
void TestXpcsMma::narrowLagSumsMatchCpu_data() {
    QTest::addColumn<int>("lags");   // MMA_LAGS
    QTest::addColumn<int>("gram32"); // MMA_GRAM32
    QTest::newRow("products in double") << 1 << 1;
    QTest::newRow("128-bit products") << 0 << 1;
    QTest::newRow("64-bit entries") << 1 << 0;
}

void TestXpcsMma::narrowLagSumsMatchCpu() {
    QFETCH(int, lags);
    QFETCH(int, gram32);
    const LabelMask m = scattered(17, 23, 5, 8);
    const Array f = withConstantAndZeroBins(randomU8(129, 17, 23, 9), m);
    xpcs::Params p = emulated();
    p.tuning["MMA_LAGS"] = lags;
    p.tuning["MMA_GRAM32"] = gram32;
    checkAgainstCpu(f, m, p);
}

// xpcs_mma_prepare gathers a bin MMA_PREP_SPAN (1024) pixels at a time: a bin of 1,300
// pixels takes two spans, the second partly past the bin's end; 37 frames end inside a block
// of MMA_PREP_FRAMES and inside a streamed block of 16 frames; in chunks of 1,500 pixels
// (uploaded at once) the frame sums of later chunks are added.
void TestXpcsMma::prepareOverSeveralSpans_data() {
    QTest::addColumn<int>("frames"); // MMA_PREP_FRAMES
    QTest::addColumn<int>("chunkPixels");
    for (const int framesPerGroup : {2, 1, 8})
        QTest::addRow("%d frames per group", framesPerGroup) << framesPerGroup << 0;
    QTest::newRow("chunks of 1500 pixels") << 2 << 1500;
}

void TestXpcsMma::prepareOverSeveralSpans() {
    QFETCH(int, frames);
    QFETCH(int, chunkPixels);
    LabelMask m{40, 41, std::vector<std::int32_t>(40 * 41, 1)};
    for (std::size_t p = 1300; p < m.labels.size(); ++p)
        m.labels[p] = p % 3 ? 2 : 0;
    xpcs::Params p = emulated();
    p.tuning["MMA_PREP_FRAMES"] = frames;
    p.tuning["MMA_PREP_WG"] = 64; // spans of 1024 pixels
    p.chunkPixels = std::size_t(chunkPixels);
    xpcs::Result got;
    checkAgainstCpu(randomU8(37, 40, 41, 11), m, p, "mma", &got);
    QCOMPARE(ran(got, "copy to pinned staging (host)"), chunkPixels == 0); // streamed
}

void TestXpcsMma::refusals() {
    const Array f = randomU8(8, 4, 4, 1);
    const LabelMask m = scattered(4, 4, 2, 2);
    const DeviceInfo device = testDevice();
    if (device.platform.find("NVIDIA") == std::string::npos) // the plain run needs the GPU
        QVERIFY_THROWS_EXCEPTION(UsageError, test::runXpcs(device, "mma", f, m, {}));
    xpcs::Params p;
    p.tuning = {{"MMA_EMU_BITS", 20}}; // narrowed accumulators exist only in the emulation
    QVERIFY_THROWS_EXCEPTION(UsageError, test::runXpcs(device, "mma", f, m, p));
    QVERIFY_THROWS_EXCEPTION(UsageError, test::runXpcs(hostDevice(), "mma", f, m, {}));
}

// NVIDIA GPUs by compute capability: refused before 8.0 (mma.sync u8), mma.sync on 8.x, and
// on Hopper (9) the wgmma default, whose exact tuning runs emulated here against cpu.
void TestXpcsMma::defaultsByComputeCapability() {
    DeviceInfo gpu;
    gpu.index = 0, gpu.spec = "ocl:0", gpu.platform = "NVIDIA CUDA", gpu.type = "GPU";
    gpu.name = "NVIDIA test GPU", gpu.fp64 = true, gpu.nvComputeMajor = 7;
    const Support old = xpcs::mmaSupport(gpu);
    QVERIFY(!old.ok);
    QVERIFY2(old.reason.find("8.0") != std::string::npos, old.reason.c_str());
    gpu.nvComputeMajor = 8;
    QVERIFY(xpcs::mmaSupport(gpu).ok);
    QCOMPARE(xpcs::mmaVariant().tuning(gpu, DType::UInt8).count("MMA_WGMMA"), std::size_t(0));
    gpu.nvComputeMajor = 9;
    const auto hopper = xpcs::mmaVariant().tuning(gpu, DType::UInt8);
    QCOMPARE(hopper.at("MMA_WGMMA"), 1);
    QCOMPARE(hopper.at("MMA_WG_GROUPS"), 1);
    xpcs::Params p;
    p.tuning = hopper;
    p.tuning["MMA_EMULATE"] = 1;
    xpcs::checkMmaTuning(p.tuning); // the defaults are a tuning the host accepts
    checkAgainstCpu(randomU8(129, 17, 23, 8), scattered(17, 23, 4, 6), p);
}

void TestXpcsMma::uint16RunsGemm() {
    std::mt19937 rng(3);
    std::vector<std::uint16_t> v(9 * 6 * 7);
    for (std::uint16_t& x : v)
        x = static_cast<std::uint16_t>(rng());
    checkAgainstCpu(makeArray<std::uint16_t>({9, 6, 7}, v), scattered(6, 7, 3, 4), {}, "gemm");
}

QTEST_GUILESS_MAIN(TestXpcsMma)
#include "tst_xpcs_mma.moc"
