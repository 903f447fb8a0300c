#include "ui/image/colormaps.hpp"

#include <algorithm>
#include <map>

namespace clscope::ui {

namespace {

using Stops = std::vector<const char*>;

const std::map<QString, Stops>& stopTables() {
    static const std::map<QString, Stops> tables{
        {"viridis",
         {"#440154", "#482878", "#3e4989", "#31688e", "#26828e", "#1f9e89", "#35b779", "#6ece58",
          "#b5de2b", "#fde725"}},
        {"magma",
         {"#000004", "#180f3d", "#440f76", "#721f81", "#9e2f7f", "#cd4071", "#f1605d", "#fd9668",
          "#feca8d", "#fcfdbf"}},
        {"inferno",
         {"#000004", "#1b0c41", "#4a0c6b", "#781c6d", "#a52c60", "#cf4446", "#ed6925", "#fb9b06",
          "#f7d13d", "#fcffa4"}},
        {"cividis",
         {"#00224e", "#123570", "#3b496c", "#575d6d", "#707173", "#8a8678", "#a59c74", "#c3b369",
          "#e1cc55", "#fee838"}},
        {"gray", {"#000000", "#ffffff"}},
    };
    return tables;
}

} // namespace

QStringList colormapNames() {
    return {"viridis", "magma", "inferno", "cividis", "gray"};
}

QCPColorGradient colormapGradient(const QString& name, const QColor& nanColor) {
    const auto& tables = stopTables();
    auto it = tables.find(name);
    if (it == tables.end()) it = tables.find("viridis");
    const Stops& stops = it->second;
    QMap<double, QColor> colorStops;
    for (std::size_t i = 0; i < stops.size(); ++i)
        colorStops.insert(static_cast<double>(i) / static_cast<double>(stops.size() - 1),
                          QColor(stops[i]));
    QCPColorGradient gradient;
    gradient.setColorStops(colorStops);
    gradient.setColorInterpolation(QCPColorGradient::ciRGB);
    gradient.setLevelCount(350);
    gradient.setNanHandling(QCPColorGradient::nhNanColor);
    gradient.setNanColor(nanColor);
    return gradient;
}

const QVector<QColor>& labelPalette() {
    // Tableau-10 style qualitative colours: distinct on dark and light images.
    static const QVector<QColor> palette{QColor("#1f77b4"), QColor("#ff7f0e"), QColor("#2ca02c"),
                                         QColor("#d62728"), QColor("#9467bd"), QColor("#8c564b"),
                                         QColor("#e377c2"), QColor("#7f7f7f"), QColor("#bcbd22"),
                                         QColor("#17becf")};
    return palette;
}

QVector<QColor> distinctPalette(int n) {
    if (n <= labelPalette().size()) return labelPalette().mid(0, std::max(n, 0));
    static constexpr int lightness[] = {105, 150, 75};
    QVector<QColor> colors;
    for (int i = 0; i < n; ++i)
        colors << QColor::fromHsl((360 * i / n) % 360, 210, lightness[i % 3]);
    return colors;
}

} // namespace clscope::ui
