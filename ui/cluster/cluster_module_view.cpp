#include "ui/cluster/cluster_module_view.hpp"

#include "ui/cluster/cluster_layout.hpp"
#include "ui/image/colormaps.hpp"

#include <QLabel>
#include <QVBoxLayout>
#include <cmath>

namespace clscope::ui {

namespace {

constexpr int rowsX = cluster::moduleSizeX, columnsY = cluster::moduleSizeY;
constexpr double pitchRatio = 1.5; // 150 µm columns (y) / 100 µm rows (x)

// Digi-order labels (y * 160 + x) as the drawn image: 160 rows (x) of 416 columns (y).
std::vector<std::int32_t> transposed(const std::vector<std::int32_t>& labels) {
    std::vector<std::int32_t> out(labels.size(), 0);
    for (int y = 0; y < columnsY; ++y)
        for (int x = 0; x < rowsX; ++x)
            out[std::size_t(x) * columnsY + y] = labels[std::size_t(y) * rowsX + x];
    return out;
}

std::vector<std::pair<int, int>> pixelsOf(const std::vector<std::int32_t>& labels) {
    std::vector<std::pair<int, int>> out;
    for (std::size_t p = 0; p < labels.size(); ++p)
        if (labels[p]) out.push_back({int(p % rowsX), int(p / rowsX)});
    return out;
}

// "1 cluster", "3 clusters".
QString counted(std::size_t n, const char* what) {
    return QString("%1 %2%3").arg(n).arg(what).arg(n == 1 ? "" : "s");
}

struct Box {
    int minX = rowsX, maxX = -1, minY = columnsY, maxY = -1;
};

// Bounding box of every cluster of the map (index = cluster number within the module).
std::vector<Box> clusterBoxes(const ClusterModuleMap& map) {
    std::vector<Box> boxes(map.clusters);
    for (std::size_t p = 0; p < map.cluster.size(); ++p) {
        const std::int32_t label = map.cluster[p];
        if (label <= 0 || std::size_t(label) > boxes.size()) continue;
        Box& b = boxes[std::size_t(label - 1)];
        const int x = int(p % rowsX), y = int(p / rowsX);
        b.minX = std::min(b.minX, x), b.maxX = std::max(b.maxX, x);
        b.minY = std::min(b.minY, y), b.maxY = std::max(b.maxY, y);
    }
    return boxes;
}

// A frame one pixel outside the box, in plot coordinates (column y across, row x up).
void placeFrame(QCPItemRect* frame, const Box& b) {
    frame->topLeft->setCoords(b.minY - 1.0, b.maxX + 2.0);
    frame->bottomRight->setCoords(b.maxY + 2.0, b.minX - 1.0);
}

} // namespace

ClusterModuleView::ClusterModuleView(QWidget* parent) : QWidget(parent) {
    auto* box = new QVBoxLayout(this);
    box->setContentsMargins(0, 0, 0, 0);
    caption_ = new QLabel("click a module in the detector overview", this);
    caption_->setWordWrap(true);
    plot_ = new QCustomPlot(this);
    plot_->setMinimumHeight(220);
    readout_ = new QLabel(" ", this);
    box->addWidget(caption_);
    box->addWidget(plot_, 1);
    box->addWidget(readout_);
    buildPlot();
}

ClusterModuleView::~ClusterModuleView() {
    overlays_.clear();
}

void ClusterModuleView::buildPlot() {
    plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    plot_->xAxis->setLabel("y: column (pixel, 150 µm)");
    plot_->yAxis->setLabel("x: row (pixel, 100 µm)");
    plot_->axisRect()->setupFullAxesBox(true);
    plot_->xAxis->grid()->setVisible(false);
    plot_->yAxis->grid()->setVisible(false);
    auto* outline = new QCPItemRect(plot_);
    outline->topLeft->setCoords(0, rowsX);
    outline->bottomRight->setCoords(columnsY, 0);
    outline->setPen(QPen(Qt::darkGray, 1));
    // The legend of the markers under the plot, outside the data.
    auto* legendRow = new QCPLayoutGrid;
    plot_->plotLayout()->addElement(1, 0, legendRow);
    plot_->plotLayout()->setRowStretchFactor(1, 0.001);
    plot_->legend->setVisible(true);
    plot_->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    plot_->legend->setBorderPen(Qt::NoPen);
    legendRow->addElement(0, 0, plot_->legend);
    plot_->setMouseTracking(true);
    connect(plot_, &QCustomPlot::mouseMove, this, [this](QMouseEvent* event) {
        const QString text = readoutAt(plot_->xAxis->pixelToCoord(event->position().x()),
                                       plot_->yAxis->pixelToCoord(event->position().y()));
        readout_->setText(text.isEmpty() ? " " : text);
    });
    plot_->xAxis->setRange(0, columnsY);
    plot_->yAxis->setRange(0, rowsX);
}

void ClusterModuleView::clearLayers() {
    overlays_.clear();
    for (int i = plot_->graphCount() - 1; i >= 0; --i)
        plot_->removeGraph(i);
    for (int i = plot_->itemCount() - 1; i >= 0; --i)
        if (plot_->item(i)->property("clusterFrame").toBool()) plot_->removeItem(i);
    highlight_ = nullptr;
    highlighted_.reset();
}

void ClusterModuleView::setModule(ClusterModuleMap map, const cluster::Result* result,
                                  std::size_t firstCluster) {
    clearLayers();
    map_ = std::move(map);
    result_ = result;
    firstCluster_ = firstCluster;
    addOverlay("below charge cut", map_.belowCut, OverlayData::Style::Solid, QColor(150, 150, 150),
               1.0);
    addOverlay("duplicate digis", map_.duplicate, OverlayData::Style::Solid, Qt::black, 1.0);
    addOverlay("clusters", map_.cluster, OverlayData::Style::Categorical, {}, 1.0);
    addClusterFrames();
    addMarkers("duplicate (dropped)", pixelsOf(map_.duplicate),
               QCPScatterStyle(QCPScatterStyle::ssCross, Qt::black, 9));
    addMarkers("below charge cut", pixelsOf(map_.belowCut),
               QCPScatterStyle(QCPScatterStyle::ssSquare, QColor(120, 120, 120), 7));
    addMarkers("invalid (65534) in its run", map_.invalid,
               QCPScatterStyle(QCPScatterStyle::ssCircle, QColor(200, 0, 200), 11));
    const std::size_t duplicates = pixelsOf(map_.duplicate).size();
    caption_->setText(QString("<b>%1</b> — %2, %3, %4, %5 in its run. Drag to pan, wheel to zoom.")
                          .arg(QString::fromStdString(clusterlayout::moduleName(map_.module)),
                               counted(map_.digis, "digi"), counted(map_.clusters, "cluster"),
                               counted(duplicates, "duplicated pixel"),
                               counted(map_.invalid.size(), "invalid digi")));
    fitModule();
    plot_->replot();
}

void ClusterModuleView::addOverlay(const QString& name, const std::vector<std::int32_t>& labels,
                                   OverlayData::Style style, QColor color, double opacity) {
    OverlayData data;
    data.name = name;
    data.width = columnsY;
    data.height = rowsX;
    data.labels = transposed(labels);
    data.style = style;
    data.color = color;
    data.opacity = opacity;
    overlays_.push_back(std::make_unique<OverlayLayer>(plot_, std::move(data), "main"));
}

// A thin frame in the cluster's colour around each cluster: small clusters stay visible.
void ClusterModuleView::addClusterFrames() {
    const std::vector<Box> boxes = clusterBoxes(map_);
    const QVector<QColor>& palette = labelPalette();
    for (std::size_t c = 0; c < boxes.size(); ++c) {
        if (boxes[c].maxX < 0) continue;
        auto* frame = new QCPItemRect(plot_);
        frame->setProperty("clusterFrame", true);
        frame->setPen(QPen(palette[int(c % palette.size())], 1));
        placeFrame(frame, boxes[c]);
    }
}

void ClusterModuleView::addMarkers(const QString& name,
                                   const std::vector<std::pair<int, int>>& pixels,
                                   QCPScatterStyle style) {
    QCPGraph* graph = plot_->addGraph();
    graph->setName(QString("%1: %2").arg(name).arg(pixels.size()));
    graph->setLineStyle(QCPGraph::lsNone);
    graph->setScatterStyle(style);
    for (const auto& [x, y] : pixels)
        graph->addData(y + 0.5, x + 0.5);
}

void ClusterModuleView::highlightCluster(std::optional<int> clusterInModule) {
    if (highlight_) plot_->removeItem(highlight_);
    highlight_ = nullptr;
    highlighted_.reset();
    const std::vector<Box> boxes = clusterBoxes(map_);
    if (clusterInModule && *clusterInModule >= 0 && std::size_t(*clusterInModule) < boxes.size()) {
        highlight_ = new QCPItemRect(plot_);
        highlight_->setProperty("clusterFrame", true);
        highlight_->setPen(QPen(QColor(220, 0, 0), 2.5));
        Box b = boxes[std::size_t(*clusterInModule)];
        b.minX -= 2, b.minY -= 2, b.maxX += 2, b.maxY += 2;
        placeFrame(highlight_, b);
        highlighted_ = clusterInModule;
    }
    plot_->replot();
}

void ClusterModuleView::fitModule() {
    const QRect rect = plot_->axisRect()->rect();
    if (rect.width() < 10 || rect.height() < 10) return;
    // Pixels on screen per 100 µm: the module (416 x 150 µm by 160 x 100 µm) just fits.
    const double perRow =
        std::min(rect.width() / (columnsY * pitchRatio), double(rect.height()) / rowsX);
    const double spanY = rect.width() / (perRow * pitchRatio), spanX = rect.height() / perRow;
    plot_->xAxis->setRange(columnsY / 2.0 - spanY / 2, columnsY / 2.0 + spanY / 2);
    plot_->yAxis->setRange(rowsX / 2.0 - spanX / 2, rowsX / 2.0 + spanX / 2);
    plot_->replot();
}

void ClusterModuleView::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    QMetaObject::invokeMethod(
        this, [this] { fitModule(); }, Qt::QueuedConnection);
}

OverlayLayer* ClusterModuleView::overlay(const QString& name) const {
    for (const auto& o : overlays_)
        if (o->name() == name) return o.get();
    return nullptr;
}

QString ClusterModuleView::readoutAt(double column, double row) const {
    if (column < 0 || row < 0 || column >= columnsY || row >= rowsX || map_.module < 0) return {};
    const int y = int(column), x = int(row);
    const std::size_t p = std::size_t(y) * rowsX + x;
    QString text = QString("x %1  y %2").arg(x).arg(y);
    if (map_.charge[p] > 0) text += QString("  charge %1 e⁻").arg(map_.charge[p]);
    const std::int32_t label = map_.cluster[p];
    if (label > 0 && result_ && firstCluster_ + std::size_t(label - 1) < result_->count()) {
        const std::size_t c = firstCluster_ + std::size_t(label - 1);
        text += QString("  |  cluster %1: %2 pixels (%3 × %4), %5 e⁻")
                    .arg(label - 1)
                    .arg(result_->size[c])
                    .arg(result_->sizeX[c])
                    .arg(result_->sizeY[c])
                    .arg(result_->charge[c]);
    }
    if (map_.duplicate[p]) text += "  |  duplicate (dropped)";
    if (map_.belowCut[p]) text += "  |  below the charge cut (dropped)";
    return text;
}

} // namespace clscope::ui
