#include "core/xpcs/result_sums.hpp"

#include "core/errors.hpp"
#include "core/xpcs/normalisation.hpp"

#include <cmath>
#include <limits>

namespace clscope::xpcs {

namespace {

const std::string pairsName = "pairs", numeratorName = "sum_N", laterName = "sum_S",
                  earlierName = "sum_S_prime", productsName = "sum_S_S_prime";

template <class T>
void appendRow(std::vector<T>& to, const std::vector<T>& from, std::size_t row, std::size_t width) {
    to.insert(to.end(), from.begin() + static_cast<std::ptrdiff_t>(row * width),
              from.begin() + static_cast<std::ptrdiff_t>((row + 1) * width));
}

// One field of every (bin, lag) of the lag sums.
std::vector<double> field(const std::vector<LagSums>& sums, double LagSums::*member) {
    std::vector<double> out(sums.size());
    for (std::size_t i = 0; i < sums.size(); ++i)
        out[i] = sums[i].*member;
    return out;
}

// A (rows, columns) float64 dataset of the file; InputError naming it otherwise.
std::vector<double> readTable(const H5Reader& file, const std::string& path, std::size_t rows,
                              std::size_t columns) {
    if (!file.hasDataset(path))
        throw InputError(file.where(path) + ": missing (a result of an older clscope, or of a "
                                            "stream: correlate the file again)");
    const Array a = file.read(path, DType::Float64);
    if (a.rank() != 2 || a.shape()[0] != rows || a.shape()[1] != columns)
        throw InputError(file.where(path) + ": expected (" + std::to_string(rows) + ", " +
                         std::to_string(columns) + "), found " + shapeString(a.shape()));
    return std::vector<double>(a.as<double>().begin(), a.as<double>().end());
}

} // namespace

void ResultSums::appendBin(const ResultSums& from, std::size_t bin) {
    lags = from.lags, frames = from.frames;
    appendRow(pairSums, from.pairSums, bin, lags);
    appendRow(numerator, from.numerator, bin, lags);
    appendRow(intensity, from.intensity, bin, frames);
}

ResultSums resultSums(const FrameSums& frameSums, const std::vector<LagSums>& lagSums,
                      const Result& result) {
    ResultSums out;
    out.lags = result.frames, out.frames = frameSums.frames;
    out.pairSums = lagSums;
    out.numerator = unnormalisedG2(result, lagSums);
    for (std::size_t i = 0; i < out.numerator.size(); ++i) {
        const double n = static_cast<double>(result.pixels[i / out.lags]);
        const double sumN = out.numerator[i] * n * lagSums[i].pairs;
        out.numerator[i] = std::isfinite(sumN) ? sumN : 0.0; // NaN: Σ S S' = 0, so Σ N = 0
    }
    out.intensity.resize(frameSums.sums.size());
    for (std::size_t i = 0; i < out.intensity.size(); ++i)
        out.intensity[i] =
            frameSums.sums[i] / static_cast<double>(frameSums.pixels[i / frameSums.frames]);
    return out;
}

double g2FromSums(const LagSums& s, double numerator, double pixels, Normalisation n) {
    const bool symmetric = n == Normalisation::Symmetric;
    const double denominator = symmetric ? s.later * s.earlier : s.products;
    if (denominator == 0.0) return std::numeric_limits<double>::quiet_NaN();
    return (symmetric ? pixels * s.pairs : pixels) * numerator / denominator;
}

void writeResultSums(H5Writer& out, const ResultSums& s, const std::string& group) {
    const std::size_t bins = s.binCount();
    const std::string g = group + "/sums/";
    const auto table = [&](const std::string& name, std::vector<double> values) {
        out.write(g + name, makeArray<double>({bins, s.lags}, values));
    };
    table(pairsName, field(s.pairSums, &LagSums::pairs));
    table(numeratorName, s.numerator);
    table(laterName, field(s.pairSums, &LagSums::later));
    table(earlierName, field(s.pairSums, &LagSums::earlier));
    table(productsName, field(s.pairSums, &LagSums::products));
    out.write(group + "/intensity_vs_time", makeArray<double>({bins, s.frames}, s.intensity),
              Compression::Gzip);
}

ResultSums readResultSums(const H5Reader& file, const std::string& group, std::size_t bins,
                          std::size_t lags) {
    ResultSums s;
    s.lags = lags;
    const std::string g = group + "/sums/";
    const auto pairs = readTable(file, g + pairsName, bins, lags);
    const auto later = readTable(file, g + laterName, bins, lags);
    const auto earlier = readTable(file, g + earlierName, bins, lags);
    const auto products = readTable(file, g + productsName, bins, lags);
    s.numerator = readTable(file, g + numeratorName, bins, lags);
    s.pairSums.resize(bins * lags);
    for (std::size_t i = 0; i < s.pairSums.size(); ++i)
        s.pairSums[i] = {pairs[i], later[i], earlier[i], products[i]};
    const std::string at = group + "/intensity_vs_time";
    const Array intensity = file.hasDataset(at) ? file.read(at, DType::Float64) : Array{};
    s.frames = intensity.rank() == 2 ? intensity.shape()[1] : 0;
    s.intensity = readTable(file, at, bins, s.frames);
    return s;
}

} // namespace clscope::xpcs
