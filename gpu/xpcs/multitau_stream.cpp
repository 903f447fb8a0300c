// The OpenCL variant `multitau`: frames streamed once, front to back, in blocks of F frames.
// Each level keeps a device ring of its last C + F/2^k + 2 rows (labelled pixels in bin
// order); a block is gathered into level 0, new rows cascade to the next level in pairs, and
// each level's new rows are reduced per bin (xpcs_multitau.cl). The frame sums and lag
// products come back per row and are folded into MultitauStats on the host: memory is bounded
// by the block size, not by the number of frames.
#include "core/errors.hpp"
#include "gpu/xpcs/multitau.hpp"
#include "gpu/xpcs/runner.hpp"

#include <algorithm>
#include <deque>

namespace clscope::xpcs {

namespace {

constexpr int maxChannels = 64; // the kernel's private sums and local reduction

std::string dataType(DType d) {
    switch (d) {
    case DType::UInt8:
        return "uchar";
    case DType::UInt16:
        return "ushort";
    case DType::UInt32:
        return "uint";
    default:
        return "int";
    }
}

// Frames per block: the level-0 ring about 2 MiB (power of two in [64, 16384]), or MT_FRAMES.
std::size_t streamBlock(std::size_t pixels, const std::map<std::string, int>& tuning) {
    if (const auto it = tuning.find("MT_FRAMES"); it != tuning.end())
        return static_cast<std::size_t>(std::max(1, it->second));
    std::size_t f = 64;
    while (f < 16384 && 2 * f * pixels * sizeof(std::int64_t) <= (std::size_t(4) << 20))
        f *= 2;
    return f;
}

class Stream {
  public:
    Stream(ClSession& s, const Bins& bins, const LabelMask& labels, const Params& params,
           DType dtype, std::size_t frameSize, std::size_t block)
        : s_(s), bins_(bins), labels_(labels), stats_(bins, params.channels, true),
          c_(params.channels), block_(block), frameSize_(frameSize),
          pixels_(bins.pixelIndex.size()) {
        dtype_ = dtype;
        most_ = *std::max_element(bins.pixelCounts.begin(), bins.pixelCounts.end());
        // CPU devices (PoCL): one work-item per (row, bin), no barriers; else MT_WG wide.
        const auto wg = params.tuning.find("MT_WG");
        wg_ = wg != params.tuning.end() ? std::max(1, wg->second) : s.info().type == "CPU" ? 1 : 64;
        while (wg_ & (wg_ - 1)) // the reduction halves: a power of two
            wg_ &= wg_ - 1;
        options_ = "-D DATA_T=" + dataType(dtype) + " -D MT_LAGS=" + std::to_string(c_) +
                   " -D MT_WG=" + std::to_string(wg_);
        for (cl::Buffer& raw : raw_)
            raw = s.allocate(block * frameSize * dtypeSize(dtype), "multitau frames",
                             CL_MEM_READ_ONLY);
        uploads_ = cl::CommandQueue(s.context(), s.device().device(), CL_QUEUE_PROFILING_ENABLE);
        pix_ = s.allocate(pixels_ * sizeof(std::int32_t), "multitau pixels", CL_MEM_READ_ONLY);
        s.upload(pix_, bins.pixelIndex.data(), pixels_ * sizeof(std::int32_t), "multitau pixels");
        offsets_ = s.allocate(bins.offsets.size() * sizeof(std::int64_t), "multitau offsets",
                              CL_MEM_READ_ONLY);
        s.upload(offsets_, bins.offsets.data(), bins.offsets.size() * sizeof(std::int64_t),
                 "multitau offsets");
        sums_ = s.allocate(block * bins.count() * sizeof(std::int64_t), "multitau sums");
        prods_ = s.allocate(block * bins.count() * std::size_t(c_) * sizeof(std::int64_t),
                            "multitau products");
        gather_ = s.kernel("xpcs_multitau", "mt_gather", options_);
        lags_ = s.kernel("xpcs_multitau", "mt_lags", options_);
        bin_ = s.kernel("xpcs_multitau", "mt_bin", options_);
    }

    // Start copying the block `count` frames at `frames` into slot `slot` (on a queue of its
    // own: it overlaps the kernels of the block before); `frames` must live until add(slot).
    void upload(int slot, const std::byte* frames, std::size_t count) {
        uploads_.enqueueWriteBuffer(raw_[slot], CL_FALSE, 0, count * frameSize_ * dtypeSize(dtype_),
                                    frames, nullptr, &uploaded_[slot]);
        uploads_.flush();
    }

    // The block uploaded into `slot` (count frames, values up to `largest`). UsageError (before
    // anything of it runs) when its values could take a 64-bit sum out of range.
    void add(int slot, std::size_t count, std::uint64_t largest, std::size_t total) {
        largest_ = std::max(largest_, largest);
        if (const std::string why = multitauOverflow(dtype_, largest_, most_, total, c_);
            !why.empty())
            throw UsageError("xpcs variant 'multitau' cannot run this input: " + why);
        const std::vector<cl::Event> wait{uploaded_[slot]};
        s_.queue().enqueueBarrierWithWaitList(&wait);
        s_.record(uploaded_[slot], "multitau upload"); // complete once this queue is
        Level& zero = level(0);
        cl::Kernel& k = gather_;
        setArgs(k, raw_[slot], pix_, zero.ring, zero.rows, int(pixels_), cl_long(frameSize_),
                cl_long(zero.count), int(count));
        s_.launch(k, "xpcs multitau gather", {{pixels_, count}, {64, 1}});
        std::size_t first = zero.count;
        zero.count += count;
        for (std::size_t lv = 0; first < levels_[lv].count; ++lv) {
            lags(lv, first, levels_[lv].count - first);
            first = binNext(lv);
        }
        // The device works on this block while the host folds the previous one's sums.
        s_.queue().flush();
        fold(previous_);
        s_.queue().finish();
        previous_ = std::move(current_);
        current_.clear();
    }

    ~Stream() {
        try {
            uploads_.finish(); // no copy may outlive the frames it reads
        } catch (...) {
        }
    }

    Result finish(std::size_t frames, const Params& params) {
        fold(previous_);
        return stats_.finish(bins_, frames, params);
    }

  private:
    struct Pending {
        int level = 0;
        std::size_t first = 0, rows = 0;
        std::vector<std::int64_t> sums, products;
    };
    struct Level {
        cl::Buffer ring;
        int rows = 0;
        std::size_t count = 0; // rows of this level so far
    };

    Level& level(std::size_t k) {
        while (levels_.size() <= k) {
            Level l;
            l.rows = c_ + static_cast<int>(block_ >> levels_.size()) + 2;
            l.ring =
                s_.allocate(std::size_t(l.rows) * pixels_ * sizeof(std::int64_t), "multitau ring");
            levels_.push_back(l);
        }
        return levels_[k];
    }

    // Frame sums and lag products of level k's rows [first, first + count), to the host.
    void lags(std::size_t k, std::size_t first, std::size_t count) {
        const int lag0 = multitauFirstLag(int(k), c_), lags = multitauLagCount(int(k), c_);
        const int nb = static_cast<int>(bins_.count());
        for (std::size_t done = 0; done < count; done += block_) {
            const std::size_t n = std::min(block_, count - done);
            cl::Kernel& kern = lags_;
            setArgs(kern, levels_[k].ring, levels_[k].rows, offsets_, cl_long(first + done), lag0,
                    lags, nb, sums_, prods_);
            s_.launch(kern, "xpcs multitau lags",
                      {{n * std::size_t(wg_), std::size_t(nb)}, {std::size_t(wg_), 1}});
            Pending& p = current_.emplace_back();
            p.level = int(k), p.first = first + done, p.rows = n;
            p.sums.resize(n * std::size_t(nb));
            p.products.resize(n * std::size_t(nb) * std::size_t(lags));
            s_.queue().enqueueReadBuffer(sums_, CL_FALSE, 0, p.sums.size() * sizeof(std::int64_t),
                                         p.sums.data());
            s_.queue().enqueueReadBuffer(
                prods_, CL_FALSE, 0, p.products.size() * sizeof(std::int64_t), p.products.data());
        }
    }

    // Per-row sums read back (in level order within a block) into the statistics.
    void fold(std::deque<Pending>& pending) {
        for (const Pending& p : pending)
            stats_.addRows<std::int64_t>(p.level, p.first, p.rows, p.sums.data(),
                                         p.products.data());
        pending.clear();
    }

    // Level k+1 rows from the pairs of level k completed so far; returns the first new one.
    std::size_t binNext(std::size_t k) {
        Level& next = level(k + 1);
        const std::size_t first = next.count, want = levels_[k].count / 2;
        if (want > first) {
            cl::Kernel& kern = bin_;
            setArgs(kern, levels_[k].ring, levels_[k].rows, next.ring, next.rows, int(pixels_),
                    cl_long(first), int(want - first));
            s_.launch(kern, "xpcs multitau bin", {{pixels_, want - first}, {64, 1}});
            next.count = want;
        }
        return first;
    }

    ClSession& s_;
    const Bins& bins_;
    const LabelMask& labels_;
    MultitauStats stats_;
    std::uint64_t largest_ = 0;
    DType dtype_ = DType::UInt8;
    std::int64_t most_ = 0;
    int c_, wg_ = 64;
    std::size_t block_, frameSize_, pixels_;
    std::string options_;
    cl::Buffer raw_[2], pix_, offsets_, sums_, prods_; // raw_: two slots of frames
    cl::CommandQueue uploads_;
    cl::Event uploaded_[2];
    cl::Kernel gather_, lags_, bin_;
    std::deque<Level> levels_;
    std::deque<Pending> current_, previous_; // sums read back, not yet folded
};

} // namespace

Result correlateMultitauStream(const DeviceInfo& device, const FrameBlocks& frames,
                               const LabelMask& mask, const Params& params,
                               const Progress& progress) {
    checkMultitau(frames.dtype(), frames.frameCount(), mask, params);
    if (params.channels > maxChannels)
        throw UsageError("xpcs multitau: --channels above " + std::to_string(maxChannels) +
                         " run on the cpu variant");
    const Bins bins = makeBins(mask);
    const std::int64_t most = *std::max_element(bins.pixelCounts.begin(), bins.pixelCounts.end());
    const DType d = frames.dtype();
    if (d == DType::Float32 || d == DType::Float64)
        throw UsageError("xpcs variant 'multitau' cannot run this input: " +
                         multitauOverflow(d, 0, most, frames.frameCount(), params.channels));
    const std::size_t total = frames.frameCount(), frameSize = frames.height() * frames.width();
    ClSession session(device);
    Result result;
    try {
        // Block i+1 is read and uploaded while block i runs.
        struct Staged {
            const std::byte* at = nullptr;
            Array copy;
            std::size_t count = 0;
            std::uint64_t largest = 255;
        };
        Staged staged[2]; // before the stream: its uploads finish before these go
        Stream stream(session, bins, mask, params, d, frameSize,
                      streamBlock(bins.pixelIndex.size(), params.tuning));
        const std::size_t block = streamBlock(bins.pixelIndex.size(), params.tuning);
        auto stage = [&](int slot, std::size_t first) {
            Staged& st = staged[slot];
            st.count = std::min(block, total - first);
            // uint8 frames in memory go up in place (every value <= 255: nothing to scan).
            st.at = d == DType::UInt8 ? frames.inPlace(first, st.count) : nullptr;
            st.largest = 255;
            if (!st.at) {
                st.copy = frames.read(first, st.count);
                st.at = st.copy.bytes(), st.largest = largestMagnitude(st.copy, mask);
            }
            stream.upload(slot, st.at, st.count);
        };
        stage(0, 0);
        for (std::size_t first = 0, i = 0; first < total; first += block, ++i) {
            const int slot = static_cast<int>(i % 2);
            if (first + block < total) stage(1 - slot, first + block);
            stream.add(slot, staged[slot].count, staged[slot].largest, total);
            session.finish(); // events released block by block: memory stays bounded
            progress.report(double(std::min(first + block, total)) / double(total));
            progress.checkCancel();
        }
        session.finish();
        result = stream.finish(total, params);
    } catch (const cl::Error& e) {
        rethrowDeviceError(e, "xpcs multitau", device);
    }
    result.device = device.spec + " (" + device.name + ")";
    result.variant = "multitau";
    result.timings = session.timings();
    result.kernelMs = result.timings.kernelMs();
    return result;
}

} // namespace clscope::xpcs
