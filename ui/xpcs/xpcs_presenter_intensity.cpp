// XpcsPresenter: mean intensity per bin against time (stability) and against q (I(q)), their
// CSV tables and the HDF5 datasets the g2(τ) export writes beside the fits.
#include "core/hdf5.hpp"
#include "core/number_text.hpp"
#include "ui/xpcs/xpcs_presenter.hpp"

#include <charconv>
#include <cmath>
#include <limits>
#include <sstream>

namespace clscope::ui {

void XpcsPresenter::setIntensity(std::optional<xpcs::BinIntensity> intensity) {
    intensity_ = std::move(intensity);
}

std::optional<double> XpcsPresenter::frameSeconds() const {
    if (empty() || !reference().tauInSeconds) return std::nullopt;
    const xpcs::Result& r = reference();
    for (std::size_t t = 0; t < r.tau.size(); ++t) {
        const double frames = r.multitau ? static_cast<double>(r.lagFrames.at(t)) : double(t);
        if (frames > 0 && r.tau[t] > 0) return r.tau[t] / frames;
    }
    return std::nullopt;
}

std::string XpcsPresenter::intensityCsv() const {
    if (!intensity_) return {};
    const xpcs::BinIntensity& in = *intensity_;
    const std::optional<double> dt = frameSeconds();
    std::ostringstream out;
    out << (dt ? "time_s" : "frame");
    for (std::int32_t label : in.labels)
        out << ",I_L" << label;
    out << '\n';
    for (std::size_t t = 0; t < in.frames; ++t) {
        out << shortestText(dt ? double(t) * *dt : double(t));
        for (std::size_t b = 0; b < in.binCount(); ++b)
            out << ',' << shortestText(in.at(b, t));
        out << '\n';
    }
    return out.str();
}

std::string XpcsPresenter::iqCsv() const {
    if (!intensity_) return {};
    const xpcs::BinIntensity& in = *intensity_;
    const auto mean = in.timeMean(), spread = in.timeSpread();
    std::ostringstream out;
    out << "label,q_1/angstrom,mean_counts_per_pixel,std_over_frames,pixels\n";
    for (std::size_t b = 0; b < in.binCount(); ++b) {
        const auto q = in.binCount() == binCount() ? binQ(b) : std::nullopt;
        out << in.labels[b] << ',' << (q ? shortestText(*q) : std::string()) << ','
            << shortestText(mean[b]) << ',' << shortestText(spread[b]) << ',' << in.pixels[b]
            << '\n';
    }
    return out.str();
}

void writeIntensity(H5Writer& out, const XpcsPresenter& presenter, const std::string& group) {
    if (!presenter.intensity()) return;
    const xpcs::BinIntensity& in = *presenter.intensity();
    const std::size_t bins = in.binCount();
    out.write(group + "/mean", makeArray<double>({bins, in.frames}, in.mean));
    out.setAttribute(group + "/mean", "units", "counts per pixel per frame");
    out.write(group + "/labels", makeArray<std::int32_t>({bins}, in.labels));
    out.write(group + "/pixels", makeArray<std::int64_t>({bins}, in.pixels));
    const std::optional<double> dt = presenter.frameSeconds();
    std::vector<double> time(in.frames);
    for (std::size_t t = 0; t < in.frames; ++t)
        time[t] = dt ? double(t) * *dt : double(t);
    out.write(group + "/time", makeArray<double>({in.frames}, time));
    out.setAttribute(group + "/time", "units", dt ? "s" : "frames");
    out.write(group + "/mean_over_frames", makeArray<double>({bins}, in.timeMean()));
    out.write(group + "/std_over_frames", makeArray<double>({bins}, in.timeSpread()));
    if (presenter.hasQ() && presenter.binCount() == bins) {
        std::vector<double> q;
        for (std::size_t b = 0; b < bins; ++b)
            q.push_back(presenter.binQ(b).value_or(std::numeric_limits<double>::quiet_NaN()));
        out.write(group + "/q", makeArray<double>({bins}, q));
        out.setAttribute(group + "/q", "units", "1/angstrom");
    }
}

} // namespace clscope::ui
