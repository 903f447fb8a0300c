// tst_spots: the cases of spots_local's strip forms (uchar/ushort data, windows <= 64 pixels) for
// variantsMatchCpu: the tile form (STRIP_WALK=0, the GPU's) and the walk form (the CPU's), each
// pinned, in awkward shapes, tunings and values.
#include "tst_spots_images.hpp"

namespace clscope::spots_test {

using spots::Method;

namespace {

// Sigmas of 0.5 put many pixels at the edges of DIALS' tests; a threshold between integers.
spots::Params loose() {
    spots::Params p = params(Method::Dispersion);
    p.sigmaBackground = 0.5, p.sigmaStrong = 0.5, p.globalThreshold = 2.5;
    return p;
}

// The tile form (STRIP_WALK=0): blocks, strips, frames a work-group, loads, rows' sums shared
// or not, runs, squares split or not.
std::vector<MaskCase> tileCases() {
    // blocks of 8 x 6 (strips of 3 rows, one frame a work-group: bad flags read with the
    // values) that cut spots; tall strips.
    spots::Params strips = params(Method::Dispersion);
    strips.tuning = {{"STRIP_WALK", 0}, {"STRIP_X", 8},      {"STRIP_Y", 2},
                     {"STRIP_ROWS", 3}, {"STRIP_FRAMES", 1}, {"LIST_CAPACITY", 40}};
    spots::Params tall = params(Method::Dispersion, 1, 2);
    tall.tuning = {{"STRIP_WALK", 0}, {"STRIP_X", 16}, {"STRIP_Y", 1}, {"STRIP_ROWS", 32}};
    tall.globalThreshold = 1.5;
    // the strip kernel's work-groups over several frames of a chunk (the last group short) and
    // its loads of 2 (below), 4 (the default) and 8 pixels (odd widths: vectors cut by the edges,
    // misaligned rows and frames), with and without the list overflowing (the mask written by a
    // relaunch); the old way: one frame a group, one pixel a load, every launch writing the mask.
    spots::Params stripFrames = params(Method::Dispersion), framesOverflow = stripFrames;
    stripFrames.tuning = {{"STRIP_WALK", 0}, {"STRIP_X", 8},      {"STRIP_Y", 2},
                          {"STRIP_ROWS", 3}, {"STRIP_FRAMES", 2}, {"STRIP_VEC", 4}};
    framesOverflow.tuning = {
        {"STRIP_WALK", 0}, {"STRIP_FRAMES", 3}, {"STRIP_VEC", 8}, {"LIST_CAPACITY", 3}};
    // rows' sums per work-item instead of shared (k5,2: 11-pixel rows; tall strips)
    spots::Params ownRows = params(Method::Dispersion, 5, 2),
                  ownRowsTall = params(Method::Dispersion);
    ownRows.tuning = {
        {"STRIP_WALK", 0}, {"STRIP_SHARED_ROWS", 0}, {"STRIP_FRAMES", 2}, {"STRIP_VEC", 2}};
    ownRowsTall.tuning = {{"STRIP_WALK", 0}, {"STRIP_SHARED_ROWS", 0}, {"STRIP_X", 16},
                          {"STRIP_Y", 1},    {"STRIP_ROWS", 32},       {"STRIP_VEC", 4}};
    spots::Params uint8Frames = params(Method::Dispersion, 2, 2);
    uint8Frames.tuning = {
        {"STRIP_WALK", 0}, {"STRIP_FRAMES", 2}, {"STRIP_VEC", 8}, {"STRIP_X", 16}};
    spots::Params maskAlways = params(Method::Dispersion, 1, 2);
    maskAlways.tuning = {{"STRIP_WALK", 0},
                         {"STRIP_FRAMES", 1},
                         {"STRIP_VEC", 1},
                         {"SIGNAL_MASK_ALWAYS", 1},
                         {"LIST_CAPACITY", 3}};
    spots::Params looseTile = loose();
    looseTile.globalThreshold = 10.5, looseTile.tuning = {{"STRIP_WALK", 0}};
    // the tile form's rows' sums slid along runs: of 4 in blocks 8 wide over 2 frames, of 8 with
    // k5,2 (11-pixel rows), of the whole block's 32 columns
    spots::Params runs = params(Method::Dispersion), runsK5 = params(Method::Dispersion, 5, 2),
                  runsWhole = params(Method::Dispersion);
    runs.tuning = {{"STRIP_WALK", 0}, {"STRIP_RUN", 4},  {"STRIP_X", 8},
                   {"STRIP_Y", 2},    {"STRIP_ROWS", 3}, {"STRIP_FRAMES", 2}};
    runsK5.tuning = {{"STRIP_WALK", 0}, {"STRIP_RUN", 8}};
    runsWhole.tuning = {{"STRIP_WALK", 0}, {"STRIP_RUN", 32}, {"LIST_CAPACITY", 3}};
    // squares' sums split in 32 bits and a byte (the default) and in 64 bits: high values
    // (below) carry into the byte
    spots::Params qsplit = params(Method::Dispersion), q64 = qsplit;
    qsplit.tuning = {{"STRIP_WALK", 0}};
    q64.tuning = {{"STRIP_WALK", 0}, {"STRIP_QSPLIT", 0}};
    return {
        {"2x41x29 strips 8x2x3, list of 40", DType::UInt16, 2, 41, 29, strips},
        {"2x70x29 strips 16x1x32", DType::UInt16, 2, 70, 29, tall},
        {"5x41x29 strips 8x2x3 over 2 frames, loads of 4", DType::UInt16, 5, 41, 29, stripFrames},
        {"5x41x29 strips over 3 frames, loads of 8, overflow", DType::UInt16, 5, 41, 29,
         framesOverflow},
        {"3x45x70 k5,2 rows summed per work-item", DType::UInt16, 3, 45, 70, ownRows},
        {"2x70x29 rows summed per work-item, strips 16x1x32", DType::UInt16, 2, 70, 29,
         ownRowsTall},
        {"3x41x29 k1,2 loads of 1, mask always written, overflow", DType::UInt16, 3, 41, 29,
         maskAlways},
        {"3x40x41 uint8 strips over 2 frames, loads of 8", DType::UInt8, 3, 40, 41, uint8Frames},
        {"3x41x29 sigmas 0.5, threshold 10.5", DType::UInt16, 3, 41, 29, looseTile},
        {"5x41x29 runs of 4 in strips 8x2x3 over 2 frames", DType::UInt16, 5, 41, 29, runs},
        {"3x45x70 k5,2 runs of 8", DType::UInt16, 3, 45, 70, runsK5},
        {"3x41x69 runs of 32, overflow", DType::UInt16, 3, 41, 69, runsWhole},
        {"3x41x29 squares split, high", DType::UInt16, 3, 41, 29, qsplit},
        {"3x41x29 squares in 64 bits, high", DType::UInt16, 3, 41, 29, q64},
    };
}

// The walk form (STRIP_WALK=1).
std::vector<MaskCase> walkCases() {
    // the walk form: strips of 5 rows in groups of 4 x 2 that cut spots, one frame a group; over
    // 2 frames with a staging of 3 signal pixels (the rest each take a slot of the list), loads
    // of 2, 6 columns a work-item (k5: 3-vector halos); uint8 loads of 8 with an overflowing
    // list; the gain; k4,3 (63 pixels) with loads of 1 and 3 columns. Widths of 29 and 41 read
    // pixel by pixel; widths of 32, 36, 48 and 70 read vectors inside the frame.
    spots::Params walk = params(Method::Dispersion), walkStage = params(Method::Dispersion, 5, 2);
    walk.tuning = {{"STRIP_WALK", 1}, {"STRIP_X", 4},      {"STRIP_Y", 2},
                   {"WALK_ROWS", 5},  {"STRIP_FRAMES", 1}, {"LIST_CAPACITY", 40}};
    walkStage.tuning = {{"STRIP_WALK", 1}, {"WALK_STAGE", 3}, {"STRIP_FRAMES", 2},
                        {"STRIP_VEC", 2},  {"WALK_COLS", 6},  {"WALK_ROWS", 7}};
    spots::Params walk8 = params(Method::Dispersion, 2, 2),
                  walkGain = params(Method::Dispersion, 2, 3),
                  walk63 = params(Method::Dispersion, 4, 3);
    walkGain.gain = 1.7, walkGain.minLocal = 0;
    walk8.tuning = {{"STRIP_WALK", 1}, {"STRIP_VEC", 8}, {"WALK_COLS", 16}, {"LIST_CAPACITY", 3}};
    walkGain.tuning = {{"STRIP_WALK", 1}, {"WALK_COLS", 4}, {"WALK_ROWS", 3}};
    walkGain.globalThreshold = 2.5; // v > 2.5: v > 2 for the integers
    walk63.globalThreshold = 3;     // an integer: v > 3
    walk63.tuning = {{"STRIP_WALK", 1}, {"STRIP_VEC", 1}, {"WALK_COLS", 3}, {"WALK_ROWS", 64}};
    spots::Params looseWalk = loose(), looseGain = loose();
    looseWalk.tuning = {{"STRIP_WALK", 1}};
    looseGain.gain = 1.3, looseGain.tuning = {{"STRIP_WALK", 1}};
    return {
        {"2x41x29 walk 4x2, 8 x 5 a work-item, list of 40", DType::UInt16, 2, 41, 29, walk},
        {"5x45x70 k5,2 walk over 2 frames, stage of 3, loads of 2", DType::UInt16, 5, 45, 70,
         walkStage},
        {"3x40x48 uint8 walk, loads of 8, overflow", DType::UInt8, 3, 40, 48, walk8},
        {"50x36 gain, walk 4 x 3", DType::UInt16, 1, 50, 36, walkGain},
        {"45x70 k4,3 walk, loads of 1, 3 columns", DType::UInt16, 1, 45, 70, walk63},
        {"3x41x32 sigmas 0.5, threshold 2.5, walk", DType::UInt16, 3, 41, 32, looseWalk},
        {"3x41x29 sigmas 0.5, threshold 2.5, gain, walk", DType::UInt16, 3, 41, 29, looseGain},
    };
}

} // namespace

std::vector<MaskCase> stripFormCases() {
    std::vector<MaskCase> cases = tileCases();
    for (const MaskCase& c : walkCases())
        cases.push_back(c);
    return cases;
}

} // namespace clscope::spots_test
