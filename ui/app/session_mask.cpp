// The mask editor's part of a session: geometry, partition spec (or none), the shapes kept as
// vectors with their modes, and the painted pixels (zlib-compressed, base64).
#include "ui/app/session.hpp"

#include "core/errors.hpp"
#include "ui/mask/mask_presenter.hpp"

#include <QByteArray>

namespace clscope::ui {

namespace {

using nlohmann::json;

json pointJson(const mask::Point& p) {
    return json::array({p.x, p.y});
}

mask::Point pointOf(const json& j) {
    return {j.at(0).get<double>(), j.at(1).get<double>()};
}

json pointsJson(const std::vector<mask::Point>& points) {
    json out = json::array();
    for (const mask::Point& p : points)
        out.push_back(pointJson(p));
    return out;
}

// The most points of a polygon or brush stroke a session may hold: the rasteriser visits every
// edge for each pixel of the shape's box, and a session of 200,000 points kept the GUI busy past
// 2 minutes at every start (issue 52). Drawn by hand, a shape has tens.
constexpr std::size_t maxShapePoints = 10000;

std::vector<mask::Point> pointsOf(const json& j) {
    if (!j.is_array()) throw InputError("session: a mask shape's points are not a list");
    if (j.size() > maxShapePoints)
        throw InputError("session: a mask shape of " + std::to_string(j.size()) +
                         " points (at most " + std::to_string(maxShapePoints) +
                         "): simplify it or mask the pixels in a mask file");
    std::vector<mask::Point> out;
    for (const json& p : j)
        out.push_back(pointOf(p));
    return out;
}

json shapeJson(const mask::MaskShape& shape) {
    return std::visit(
        [](const auto& s) -> json {
            using T = std::decay_t<decltype(s)>;
            if constexpr (std::is_same_v<T, mask::RectShape>)
                return {{"rect", {pointJson(s.corner0), pointJson(s.corner1)}}};
            else if constexpr (std::is_same_v<T, mask::EllipseShape>)
                return {{"ellipse",
                         {{"center", pointJson(s.center)},
                          {"radiusX", s.radiusX},
                          {"radiusY", s.radiusY},
                          {"angle", s.angle}}}};
            else if constexpr (std::is_same_v<T, mask::PolygonShape>)
                return {{"polygon", pointsJson(s.vertices)}};
            else
                return {{"brush", {{"radius", s.radius}, {"dabs", pointsJson(s.dabs)}}}};
        },
        shape);
}

mask::MaskShape shapeOf(const json& j) {
    if (j.contains("rect"))
        return mask::RectShape{pointOf(j["rect"].at(0)), pointOf(j["rect"].at(1))};
    if (j.contains("ellipse")) {
        const json& e = j["ellipse"];
        return mask::EllipseShape{pointOf(e.at("center")), e.at("radiusX").get<double>(),
                                  e.at("radiusY").get<double>(), e.at("angle").get<double>()};
    }
    if (j.contains("polygon")) return mask::PolygonShape{pointsOf(j["polygon"])};
    if (j.contains("brush"))
        return mask::BrushStroke{j["brush"].at("radius").get<double>(),
                                 pointsOf(j["brush"].at("dabs"))};
    throw InputError("session: a mask shape is none of rect, ellipse, polygon, brush");
}

json geometryJson(const mask::Geometry& g) {
    return {{"beamCenterX", g.beamCenterX},
            {"beamCenterY", g.beamCenterY},
            {"distance", g.distance},
            {"pixelSizeX", g.pixelSizeX},
            {"pixelSizeY", g.pixelSizeY},
            {"wavelength", g.wavelength},
            {"rot1", g.rot1},
            {"rot2", g.rot2},
            {"rot3", g.rot3}};
}

mask::Geometry geometryOf(const json& j) {
    mask::Geometry g;
    g.beamCenterX = j.at("beamCenterX"), g.beamCenterY = j.at("beamCenterY");
    g.distance = j.at("distance"), g.wavelength = j.at("wavelength");
    g.pixelSizeX = j.at("pixelSizeX"), g.pixelSizeY = j.at("pixelSizeY");
    g.rot1 = j.value("rot1", 0.0), g.rot2 = j.value("rot2", 0.0), g.rot3 = j.value("rot3", 0.0);
    return g;
}

json specJson(const mask::PartitionSpec& s) {
    return {{"axis", s.axis == mask::BinAxis::Q ? "q" : "radius"},
            {"spacing", s.spacing == mask::BinSpacing::Linear ? "linear" : "log"},
            {"min", s.min},
            {"max", s.max},
            {"bins", s.bins},
            {"sectors", s.sectors},
            {"phi0", s.phi0}};
}

mask::PartitionSpec specOf(const json& j) {
    mask::PartitionSpec s;
    s.axis = j.at("axis") == "q" ? mask::BinAxis::Q : mask::BinAxis::Radius;
    s.spacing = j.at("spacing") == "log" ? mask::BinSpacing::Logarithmic : mask::BinSpacing::Linear;
    s.min = j.at("min"), s.max = j.at("max");
    s.bins = j.at("bins"), s.sectors = j.at("sectors"), s.phi0 = j.value("phi0", 0.0);
    return s;
}

constexpr const char* modeNames[] = {"mask", "unmask", "toggle"};

} // namespace

json maskToJson(const MaskEditorPresenter& editor) {
    json out = {{"height", editor.height()},
                {"width", editor.width()},
                {"geometry", geometryJson(editor.geometry())},
                {"geometrySource", editor.geometrySource().toStdString()}};
    if (editor.partitionSpec()) out["partition"] = specJson(*editor.partitionSpec());
    json shapes = json::array();
    for (const mask::ShapeEdit& edit : editor.shapes())
        shapes.push_back(
            {{"shape", shapeJson(edit.shape)}, {"mode", modeNames[static_cast<int>(edit.mode)]}});
    out["shapes"] = shapes;
    const auto& bad = editor.paintedMask().bad;
    const QByteArray bytes(reinterpret_cast<const char*>(bad.data()),
                           static_cast<qsizetype>(bad.size()));
    out["painted"] = qCompress(bytes).toBase64().toStdString();
    return out;
}

void maskFromJson(MaskEditorPresenter& editor, const json& j) {
    const std::size_t height = j.at("height"), width = j.at("width");
    if (height != editor.height() || width != editor.width())
        throw InputError("session: the mask is " + std::to_string(height) + "×" +
                         std::to_string(width) + " but the image shown is " +
                         std::to_string(editor.height()) + "×" + std::to_string(editor.width()));
    editor.setGeometry(geometryOf(j.at("geometry")),
                       QString::fromStdString(j.value("geometrySource", std::string("edited"))));
    const QByteArray bytes =
        qUncompress(QByteArray::fromBase64(QByteArray::fromStdString(j.at("painted"))));
    if (static_cast<std::size_t>(bytes.size()) != height * width)
        throw InputError("session: the painted mask does not hold height × width pixels");
    editor.setBaseMask(
        PixelMask{height, width, std::vector<std::uint8_t>(bytes.begin(), bytes.end())});
    for (const json& s : j.at("shapes")) {
        const std::string mode = s.at("mode");
        editor.setEditMode(mode == "unmask"   ? mask::EditMode::Unmask
                           : mode == "toggle" ? mask::EditMode::Toggle
                                              : mask::EditMode::Mask);
        editor.addShape(shapeOf(s.at("shape")));
    }
    editor.setEditMode(mask::EditMode::Mask);
    if (j.contains("partition")) editor.applyPartition(specOf(j["partition"]));
    editor.undoStack()->clear();
}

} // namespace clscope::ui
