#include "ui/image/frame_reduction.hpp"

#include <algorithm>

namespace clscope::ui {

std::size_t selectedFrameCount(const ImageSelection& selection) {
    if (selection.reduction == Reduction::Single) return 1;
    return selection.lastFrame + 1 - std::min(selection.firstFrame, selection.lastFrame);
}

bool isLongReduction(const ImageSelection& selection) {
    return selectedFrameCount(selection) > longReductionFrames;
}

Image reduceSelection(const FrameSource& source, const ImageSelection& selection,
                      const Progress& progress) {
    if (selection.reduction == Reduction::Single)
        return reduceFrames(source.readFrames(selection.frame, 1), Reduction::Single);
    // Combine chunk results: sums add, maxima take the max; the mean divides at the end.
    const Reduction chunkReduction =
        selection.reduction == Reduction::Max ? Reduction::Max : Reduction::Sum;
    const std::size_t total = selectedFrameCount(selection);
    Image image;
    for (std::size_t done = 0; done < total;) {
        progress.checkCancel();
        const std::size_t count = std::min(reductionChunkFrames, total - done);
        Image part =
            reduceFrames(source.readFrames(selection.firstFrame + done, count), chunkReduction);
        done += count;
        if (image.values.empty())
            image = std::move(part);
        else
            for (std::size_t i = 0; i < part.values.size(); ++i)
                image.values[i] = chunkReduction == Reduction::Max
                                      ? std::max(image.values[i], part.values[i])
                                      : image.values[i] + part.values[i];
        progress.report(static_cast<double>(done) / static_cast<double>(total));
    }
    if (selection.reduction == Reduction::Mean)
        for (double& v : image.values)
            v /= static_cast<double>(total);
    return image;
}

} // namespace clscope::ui
