#include "core/spots/grid_scan.hpp"

#include <cmath>
#include <limits>

namespace clscope::spots {

std::size_t gridImage(const GridScan& grid, std::size_t row, std::size_t column) {
    const bool backwards = grid.snake && row % 2 == 1;
    return row * grid.columns + (backwards ? grid.columns - 1 - column : column);
}

std::optional<GridCell> gridCell(const GridScan& grid, std::size_t image) {
    if (grid.columns == 0 || image >= grid.rows * grid.columns) return std::nullopt;
    const std::size_t row = image / grid.columns, along = image % grid.columns;
    const bool backwards = grid.snake && row % 2 == 1;
    return GridCell{row, backwards ? grid.columns - 1 - along : along};
}

std::vector<double> gridValues(const GridScan& grid, const std::vector<double>& perImage) {
    std::vector<double> out(grid.rows * grid.columns, std::numeric_limits<double>::quiet_NaN());
    for (std::size_t r = 0; r < grid.rows; ++r)
        for (std::size_t c = 0; c < grid.columns; ++c) {
            const std::size_t image = gridImage(grid, r, c);
            if (image < perImage.size()) out[r * grid.columns + c] = perImage[image];
        }
    return out;
}

GridScan squareGrid(std::size_t images) {
    const auto columns =
        std::max<std::size_t>(1, std::size_t(std::ceil(std::sqrt(double(images)))));
    return {std::max<std::size_t>(1, (images + columns - 1) / columns), columns, false};
}

} // namespace clscope::spots
