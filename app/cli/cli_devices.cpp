// clscope-cli devices [--json] and clscope-cli variants ALGO.
#include "app/cli/commands.hpp"
#include "core/errors.hpp"
#include "gpu/algorithm.hpp"
#include "gpu/runtime/devices.hpp"
#include "gpu/variant/user_variants.hpp"
#include "gpu/variant/variant.hpp"

#include <algorithm>
#include <iostream>
#include <nlohmann/json.hpp>

namespace clscope::cli {

namespace {

nlohmann::json toJson(const DeviceInfo& d) {
    return {{"spec", d.spec},
            {"index", d.index},
            {"platform", d.platform},
            {"name", d.name},
            {"vendor", d.vendor},
            {"type", d.type},
            {"version", d.version},
            {"driver", d.driver},
            {"compute_units", d.computeUnits},
            {"global_mem_bytes", d.globalMemBytes},
            {"local_mem_bytes", d.localMemBytes},
            {"max_alloc_bytes", d.maxAllocBytes},
            {"max_work_group_size", d.maxWorkGroupSize},
            {"max_work_item_sizes", d.maxWorkItemSizes},
            {"fp64", d.fp64}};
}

void printDevices(bool json) {
    const std::vector<DeviceInfo> devices = listDevices();
    if (json) {
        nlohmann::json out = nlohmann::json::array();
        for (const DeviceInfo& d : devices)
            out.push_back(toJson(d));
        std::cout << out.dump(2) << "\n";
        return;
    }
    // OpenCL devices in ocl:N order, then the host reference.
    for (std::size_t i = 1; i < devices.size(); ++i)
        std::cout << devices[i].summary() << "\n";
    std::cout << devices[0].summary() << "\n";
}

void printVariants(const std::string& algorithm) {
    const auto variants = AlgorithmRegistry::instance().find(algorithm).variants();
    for (const VariantEntry& v : variants)
        std::cout << v.info.id << "\t" << v.info.label << "\t"
                  << (v.info.kind == VariantKind::Host ? "device cpu" : "OpenCL device")
                  << (v.info.needs.empty() ? "" : ", " + v.info.needs)
                  << (v.info.preferred ? " (default)" : "") << "\n";
    for (const UserVariant& u : listUserVariants(algorithm))
        std::cout << u.id() << "\tthe user's fork of " << u.base << " (" << u.program << "), "
                  << (userVariantsRoot() / algorithm / (u.name + ".cl")).string() << "\n";
}

} // namespace

void addDevicesCommands(CLI::App& app, Action& action) {
    auto* devices =
        app.add_subcommand("devices", "List the compute devices in ocl:N order, then cpu");
    auto json = std::make_shared<bool>(false);
    devices->add_flag("--json", *json, "Full information as JSON");
    devices->callback([&action, json] { action = [json] { printDevices(*json); }; });

    auto* variants = app.add_subcommand("variants", "List an algorithm's variants");
    auto algorithm = std::make_shared<std::string>();
    std::string ids;
    for (const std::string& id : AlgorithmRegistry::instance().ids())
        ids += (ids.empty() ? "" : ", ") + id;
    variants->add_option("ALGO", *algorithm, "One of " + ids)->required();
    variants->callback(
        [&action, algorithm] { action = [algorithm] { printVariants(*algorithm); }; });
}

} // namespace clscope::cli
