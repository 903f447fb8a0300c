// CsrFrames::openEvents: an event list's frames found from its time column, read once in
// blocks (bounded memory however many events), checked as it goes.
#include "core/errors.hpp"
#include "core/limits.hpp"
#include "core/sparse/csr_frames.hpp"

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>

namespace clscope {

namespace {

// The frames' first events of an event list scanned before, by file, group and Δ.
struct ScanKey {
    std::string file, group;
    std::uint64_t frameNs = 0;
    auto operator<=>(const ScanKey&) const = default;
};
struct Scan {
    std::uintmax_t size = 0;
    std::filesystem::file_time_type modified;
    std::vector<std::int64_t> ptr;
};

std::mutex scansMutex;
std::map<ScanKey, Scan> scans; // the last few scans; an event list's ptr is T + 1 values
std::atomic<std::uint64_t> scansMade{0};

// The file's size and modification time, where it can be read.
std::optional<std::pair<std::uintmax_t, std::filesystem::file_time_type>>
fileStamp(const std::string& name) {
    std::error_code e1, e2;
    const auto size = std::filesystem::file_size(name, e1);
    const auto modified = std::filesystem::last_write_time(name, e2);
    if (e1 || e2) return std::nullopt;
    return std::pair{size, modified};
}

} // namespace

std::uint64_t CsrFrames::eventScans() {
    return scansMade.load();
}

CsrFrames CsrFrames::openEvents(const H5Reader& file, const std::string& group,
                                std::uint64_t frameNs) {
    CsrFrames f(file, group);
    const std::uint64_t events = f.checkColumn("pixel");
    if (f.checkColumn("time") != events)
        throw InputError(f.where("time") + ": " +
                         std::to_string(file.info(group + "/time").shape[0]) + " time stamps for " +
                         std::to_string(events) + " pixels");
    if (events == 0) throw InputError(f.where("time") + ": the event list holds no events");
    f.readShape("pixel", 2);
    const std::string time = group + "/time";
    const std::int64_t last =
        file.readSlab(time, events - 1, 1, DType::Int64).as<std::int64_t>()[0];
    if (last < 0)
        throw InputError(f.where("time") + ": time " + std::to_string(last) + " at index " +
                         std::to_string(events - 1) + " is negative (time counts from 0)");
    const std::uint64_t frames = static_cast<std::uint64_t>(last) / frameNs + 1;
    // A time stamp of 2⁶³ ns with Δ = 1 ns would ask for 2⁶⁶ bytes: checked without overflow.
    const auto ptrBytes = checkedBytes({frames + 1}, sizeof(std::int64_t));
    checkHostMemory(ptrBytes ? *ptrBytes : UINT64_MAX, f.where("time") +
                                                           ": the first event of each of " +
                                                           std::to_string(frames) + " frames");
    const ScanKey key{file.fileName(), group, frameNs};
    const auto stamp = fileStamp(file.fileName());
    if (stamp) {
        const std::lock_guard lock(scansMutex);
        const auto it = scans.find(key);
        if (it != scans.end() && it->second.size == stamp->first &&
            it->second.modified == stamp->second && it->second.ptr.size() == frames + 1 &&
            std::uint64_t(it->second.ptr.back()) == events) {
            f.ptr_ = it->second.ptr;
            return f;
        }
    }
    ++scansMade;
    f.ptr_.reserve(frames + 1);
    constexpr std::uint64_t block = std::uint64_t(1) << 20; // time stamps read at once
    std::int64_t previous = 0;
    for (std::uint64_t at = 0; at < events; at += block) {
        const std::uint64_t n = std::min(block, events - at);
        const Array stamps = file.readSlab(time, at, n, DType::Int64);
        const std::span<const std::int64_t> t = stamps.as<std::int64_t>();
        for (std::uint64_t i = 0; i < n; ++i) {
            if (t[i] < previous)
                throw InputError(f.where("time") + ": must be non-negative and non-decreasing, " +
                                 "but time[" + std::to_string(at + i) +
                                 "] = " + std::to_string(t[i]) + " < " + std::to_string(previous));
            if (t[i] > last) // decreases later on: said now, before frames past T are made
                throw InputError(f.where("time") + ": must be non-decreasing, but time[" +
                                 std::to_string(at + i) + "] = " + std::to_string(t[i]) +
                                 " > the last time stamp " + std::to_string(last));
            previous = t[i];
            // Frame k = ⌊t / Δ⌋ begins at this event: frames before it that hold none begin
            // here too.
            const std::uint64_t k = static_cast<std::uint64_t>(t[i]) / frameNs;
            while (f.ptr_.size() <= k)
                f.ptr_.push_back(static_cast<std::int64_t>(at + i));
        }
    }
    f.ptr_.push_back(static_cast<std::int64_t>(events));
    if (stamp) {
        const std::lock_guard lock(scansMutex);
        if (scans.size() >= 8) scans.clear(); // a few files at a time; memory stays small
        scans[key] = Scan{stamp->first, stamp->second, f.ptr_};
    }
    return f;
}

} // namespace clscope
