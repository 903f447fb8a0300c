#include "ui/cluster/cluster_layout.hpp"

namespace clscope::ui::clusterlayout {

namespace {

// Display slot of disk d (module order E+1, E+2, E+3, E-1, E-2, E-3): -3 ... -1, +1 ... +3.
int diskSlot(int disk) {
    return disk < 3 ? 3 + disk : 5 - disk;
}
int diskOfSlot(int slot) {
    return slot >= 3 ? slot - 3 : 5 - slot;
}
// Signed disk number of a slot: -3, -2, -1, +1, +2, +3.
int signedDisk(int slot) {
    return slot < 3 ? slot - 3 : slot - 2;
}

} // namespace

int columns(int grid) {
    return grid == forwardGrid ? disks * panels : modulesPerLadder;
}

int rows(int grid) {
    if (grid == forwardGrid) return blades;
    return (layerStart[grid + 1] - layerStart[grid]) / modulesPerLadder;
}

std::optional<ModulePlace> placeOf(int module) {
    if (module < 0 || module >= phase1Modules) return std::nullopt;
    if (module < layerStart[forwardGrid]) {
        int layer = 0;
        while (module >= layerStart[layer + 1])
            ++layer;
        const int inLayer = module - layerStart[layer];
        return ModulePlace{layer, inLayer % modulesPerLadder, inLayer / modulesPerLadder};
    }
    const int inForward = module - layerStart[forwardGrid];
    const int disk = inForward / modulesPerDisk, inDisk = inForward % modulesPerDisk;
    return ModulePlace{forwardGrid, diskSlot(disk) * panels + inDisk % panels, inDisk / panels};
}

int moduleAt(int grid, int column, int row) {
    if (grid < 0 || grid >= gridCount || column < 0 || row < 0 || column >= columns(grid) ||
        row >= rows(grid))
        return -1;
    if (grid < forwardGrid) return layerStart[grid] + row * modulesPerLadder + column;
    const int disk = diskOfSlot(column / panels);
    return layerStart[forwardGrid] + disk * modulesPerDisk + row * panels + column % panels;
}

std::string gridTitle(int grid) {
    return grid == forwardGrid ? "FPix disks" : "BPix L" + std::to_string(grid + 1);
}

std::string columnText(int grid, int column) {
    if (grid < forwardGrid) return std::to_string(column + 1);
    const int disk = signedDisk(column / panels);
    return (disk > 0 ? "+" : "") + std::to_string(disk) + "/" + std::to_string(column % panels + 1);
}

std::string moduleName(int module) {
    const std::string head = "module " + std::to_string(module);
    const std::optional<ModulePlace> p = placeOf(module);
    if (!p) return head + " (beyond Phase-1)";
    if (p->grid < forwardGrid)
        return head + ": BPix L" + std::to_string(p->grid + 1) + ", ladder " +
               std::to_string(p->row + 1) + ", module " + std::to_string(p->column + 1) +
               " along z";
    const int disk = signedDisk(p->column / panels);
    return head + ": FPix E" + (disk > 0 ? "+" : "") + std::to_string(disk) + ", blade " +
           std::to_string(p->row + 1) + (p->row < innerBlades ? " (inner)" : " (outer)") +
           ", panel " + std::to_string(p->column % panels + 1);
}

} // namespace clscope::ui::clusterlayout
