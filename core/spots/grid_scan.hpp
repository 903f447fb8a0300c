// A grid scan's images in scan order: rows × columns cells, image i at row i / columns, column
// i % columns, or, snaked, with every odd row run backwards (the stage's serpentine path). A
// per-image value laid out on the grid (the Spots panel's heat map of spot counts).
#pragma once
#include <cstddef>
#include <optional>
#include <vector>

namespace clscope::spots {

struct GridScan {
    std::size_t rows = 1, columns = 1;
    bool snake = false;
};

// The image of a cell (in scan order).
std::size_t gridImage(const GridScan& grid, std::size_t row, std::size_t column);
// The cell of an image, none when the image is past the grid's last cell.
struct GridCell {
    std::size_t row = 0, column = 0;
};
std::optional<GridCell> gridCell(const GridScan& grid, std::size_t image);
// rows × columns values, row-major: perImage[gridImage(row, column)], NaN past its end.
std::vector<double> gridValues(const GridScan& grid, const std::vector<double>& perImage);
// The grid a scan of `images` images most likely has when nothing says: as square as it can be,
// columns = ceil(sqrt(images)).
GridScan squareGrid(std::size_t images);

} // namespace clscope::spots
