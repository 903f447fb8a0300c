// The spots panel's exports and the difference of two runs' signal masks.
#include "core/atomic_file.hpp"
#include "core/errors.hpp"
#include "core/hdf5.hpp"
#include "ui/spots/spots_presenter.hpp"

#include <algorithm>
#include <sstream>

namespace clscope::ui {

namespace {

bool endsWith(const std::string& text, const std::string& suffix) {
    return text.size() >= suffix.size() &&
           text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// One column of the table as an array of T.
template <class T, class Get>
Array column(const std::vector<spots::Spot>& table, std::size_t width, Get get) {
    Array a(dtypeOf<T>(), width == 1 ? Shape{table.size()} : Shape{table.size(), width});
    auto out = a.as<T>();
    for (std::size_t i = 0; i < table.size(); ++i)
        get(table[i], out.data() + i * width);
    return a;
}

} // namespace

std::string spotTableCsv(const std::vector<spots::Spot>& table) {
    std::ostringstream s;
    s.precision(17); // reads back to the same double
    s << "frame,x,y,npix,intensity,x0,y0,x1,y1\n";
    for (const spots::Spot& p : table)
        s << p.frame << ',' << p.x << ',' << p.y << ',' << p.npix << ',' << p.intensity << ','
          << p.x0 << ',' << p.y0 << ',' << p.x1 << ',' << p.y1 << '\n';
    return s.str();
}

void exportSignalMask(const std::string& path, const spots::Result& run) {
    Array mask(DType::UInt8, run.shape);
    if (mask.size() != run.signal.size()) throw InputError("spots: the run has no signal mask");
    std::copy(run.signal.begin(), run.signal.end(), mask.as<std::uint8_t>().begin());
    H5Writer out(path);
    out.write("/spots/signal", mask, Compression::Gzip);
    out.commit();
}

void exportSpotTable(const std::string& path, const std::vector<spots::Spot>& table,
                     const ProvenanceFields& provenance) {
    if (endsWith(path, ".csv")) return writeFileAtomically(path, spotTableCsv(table));
    using S = spots::Spot;
    H5Writer out(path);
    out.write("/spots/frame",
              column<std::int32_t>(table, 1, [](const S& s, auto* o) { *o = s.frame; }));
    out.write("/spots/x", column<double>(table, 1, [](const S& s, auto* o) { *o = s.x; }));
    out.write("/spots/y", column<double>(table, 1, [](const S& s, auto* o) { *o = s.y; }));
    out.write("/spots/npix",
              column<std::int32_t>(table, 1, [](const S& s, auto* o) { *o = s.npix; }));
    out.write("/spots/intensity",
              column<double>(table, 1, [](const S& s, auto* o) { *o = s.intensity; }));
    out.write("/spots/bbox", column<std::int32_t>(table, 4, [](const S& s, auto* o) {
                  o[0] = s.x0, o[1] = s.y0, o[2] = s.x1, o[3] = s.y1;
              }));
    writeProvenanceAttributes(out, provenance);
    out.commit();
}

void exportPhil(const std::string& path, const spots::Params& params) {
    writeFileAtomically(path, spots::philSnippet(params));
}

SignalDifference signalDifference(const spots::Result& a, const spots::Result& b,
                                  std::size_t frame) {
    if (a.shape != b.shape || a.signal.size() != b.signal.size() || a.shape.size() < 2)
        throw InputError("spots: the two runs' signal masks differ in shape (" +
                         shapeString(a.shape) + " vs " + shapeString(b.shape) + ")");
    SignalDifference d;
    d.height = a.shape[a.shape.size() - 2], d.width = a.shape.back();
    const std::size_t plane = d.height * d.width;
    d.frames = plane ? a.signal.size() / plane : 0;
    for (std::size_t i = 0; i < a.signal.size(); ++i)
        if ((a.signal[i] != 0) != (b.signal[i] != 0)) {
            ++d.totalDiffering;
            if (!d.firstDifferingFrame) d.firstDifferingFrame = i / plane;
        }
    if (frame >= d.frames) return d;
    d.labels.assign(plane, 0);
    for (std::size_t k = 0; k < plane; ++k) {
        const bool inA = a.signal[frame * plane + k] != 0, inB = b.signal[frame * plane + k] != 0;
        d.labels[k] = inA == inB ? 0 : inA ? 1 : 2;
        d.onlyA += inA && !inB, d.onlyB += inB && !inA;
    }
    return d;
}

} // namespace clscope::ui
