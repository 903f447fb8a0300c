// The kernel lab's sweep cache: the rows of `clscope-cli lab --sweep` kept per (program text,
// tunable values, device) with what else decides a row (algorithm, variant, input or bench size,
// repeat, cold cache, clscope version), so a sweep run again measures only the values it has not
// measured yet. One folder per row under userVariantsRoot()/lab_cache/<sha256 of the key>: the
// row as JSON and its compiled outputs (given back under the new run's --binary prefix).
#pragma once
#include "gpu/lab/lab_job.hpp"
#include "gpu/runtime/device_info.hpp"

#include <filesystem>
#include <optional>
#include <string>

namespace clscope {

class SweepCache {
  public:
    explicit SweepCache(std::filesystem::path folder);
    // userVariantsRoot()/lab_cache
    static std::filesystem::path defaultFolder();

    // The key of a job on a device: the sha256 of what decides its row.
    static std::string keyOf(const LabJob& job, const DeviceInfo& device);
    // The row kept for the key, its compiled outputs copied to the job's binary prefix; none
    // when absent or unreadable.
    std::optional<LabRow> find(const std::string& key, const LabJob& job) const;
    // Keeps a row that ran (others are not kept); errors writing the cache are ignored.
    void store(const std::string& key, const LabRow& row) const;

  private:
    std::filesystem::path folder_;
};

} // namespace clscope
