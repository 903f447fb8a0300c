// Where each module of a CMS Phase-1 pixel event sits (Qt-free), in CMSSW's module order
// (phase1PixelTopology): barrel layers 1-4 (96, 224, 352, 512 modules: ladder-major, 8 modules
// along z per ladder), then 6 forward disks of 112 modules in the order E+1, E+2, E+3, E-1, E-2,
// E-3 (per disk: 56 blades, 1-22 the inner ring and 23-56 the outer, 2 panels each, in detId
// order blade then panel). The detector overview draws 5 grids: one per barrel layer (module
// along z x ladder) and one for the forward disks (disk and panel x blade).
#pragma once
#include <array>
#include <optional>
#include <string>

namespace clscope::ui::clusterlayout {

constexpr int barrelLayers = 4;
constexpr std::array<int, 5> layerStart{0, 96, 320, 672, 1184}; // barrel layers, then disks
constexpr int modulesPerLadder = 8;
constexpr int disks = 6, modulesPerDisk = 112, blades = 56, innerBlades = 22, panels = 2;
constexpr int phase1Modules = 1856;
constexpr int gridCount = barrelLayers + 1; // 4 barrel grids, then the forward grid
constexpr int forwardGrid = barrelLayers;

// One module's cell: grid 0-3 barrel layers 1-4, 4 forward; column and row from 0.
struct ModulePlace {
    int grid = 0, column = 0, row = 0;
};

int columns(int grid);
int rows(int grid);
// The module's cell; none for modules beyond Phase-1 (>= 1856).
std::optional<ModulePlace> placeOf(int module);
// The module in a cell; -1 outside the grid.
int moduleAt(int grid, int column, int row);
// "BPix L1", ..., "FPix": the grid's title.
std::string gridTitle(int grid);
// Axis texts of a grid's columns: "1".."8" along z for the barrel, "-3/1", "-3/2", ... forward.
std::string columnText(int grid, int column);
// "module 42: BPix L1, ladder 6, module 3 along z" / "... FPix E-2, blade 30 (outer), panel 1".
std::string moduleName(int module);

} // namespace clscope::ui::clusterlayout
