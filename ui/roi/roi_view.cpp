#include "ui/roi/roi_view.hpp"

#include "core/atomic_file.hpp"
#include "gpu/command_line.hpp"
#include "gpu/runtime/devices.hpp"
#include "ui/base/qstring.hpp"
#include "ui/image/colormaps.hpp"
#include "ui/image/image_view.hpp"
#include "ui/kit/workbench.hpp"

#include <QClipboard>
#include <QComboBox>
#include <QFileDialog>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>
#include <cmath>
#include <qcustomplot.h>

namespace clscope::ui {

namespace {

const QString overlayName = "ROIs";
const QStringList columns{"region", "x0 | cx", "y0 | cy", "x1 | r0", "y1 | r1", "pixels"};

QColor regionColour(std::size_t r) { // the overlay's colour of label r + 1
    const QVector<QColor> palette = labelPalette();
    return palette[qsizetype(r % std::size_t(palette.size()))];
}

// "x0,y0,x1,y1;…" of the regions of one kind.
std::string joined(const std::vector<roi::Region>& regions, roi::Region::Kind kind) {
    std::string out;
    for (const roi::Region& r : regions)
        if (r.kind == kind) out += (out.empty() ? "" : ";") + r.text();
    return out;
}

// Names "rect N" / "ring N" in order, as parseRegions gives them.
void renumber(std::vector<roi::Region>& regions) {
    std::size_t rects = 0, rings = 0;
    for (roi::Region& r : regions)
        r.name = r.kind == roi::Region::Kind::Rect ? "rect " + std::to_string(++rects)
                                                   : "ring " + std::to_string(++rings);
}

} // namespace

RoiView::RoiView(Workbench& workbench, QWidget* parent) : QWidget(parent), wb_(workbench) {
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(buildTableSide());
    plot_ = new QCustomPlot(split);
    plot_->setMinimumSize(240, 160);
    plot_->xAxis->setLabel("frame");
    plot_->legend->setVisible(true);
    auto* legendRect = new QCPLayoutGrid; // the legend right of the data, at its top
    plot_->plotLayout()->addElement(0, 1, legendRect);
    legendRect->addElement(0, 0, plot_->legend);
    legendRect->addElement(1, 0, new QCPLayoutElement(plot_));
    legendRect->setRowStretchFactor(0, 0.001);
    legendRect->setRowStretchFactor(1, 1);
    plot_->plotLayout()->setColumnStretchFactor(1, 0.001);
    split->addWidget(plot_);
    split->setStretchFactor(1, 1);
    layout->addWidget(split);
    QCustomPlot* image = wb_.image().plot();
    connect(image, &QCustomPlot::mousePress, this, &RoiView::onPress);
    connect(image, &QCustomPlot::mouseRelease, this, &RoiView::onRelease);
    connect(&wb_, &Workbench::fileOpened, this, [this] {
        series_.reset();
        redrawPlot();
        showOverlay();
    });
    std::vector<roi::Region> saved = savedRegions();
    if (saved.empty() && (!QSettings().value("roi/rects").toStringList().join("").isEmpty() ||
                          !QSettings().value("roi/rings").toStringList().join("").isEmpty()))
        wb_.log(LogLevel::Warning, "ROI: the saved regions could not be read and are dropped");
    setRegions(std::move(saved));
}

RoiView::~RoiView() = default;

void RoiView::stopDrawing() {
    draw_->setCurrentIndex(0);
    dragStart_.reset();
}

std::vector<roi::Region> RoiView::savedRegions() {
    const QSettings settings;
    // A list where a hand-written ini file left the commas unquoted.
    const auto text = [&settings](const char* key) {
        return settings.value(key).toStringList().join(',').toStdString();
    };
    try {
        std::vector<roi::Region> regions =
            roi::parseRegions(text("roi/rects"), roi::Region::Kind::Rect, "roi/rects");
        for (const roi::Region& r :
             roi::parseRegions(text("roi/rings"), roi::Region::Kind::Ring, "roi/rings"))
            regions.push_back(r);
        return regions;
    } catch (const std::exception&) {
        return {};
    }
}

QWidget* RoiView::buildTableSide() {
    auto* side = new QWidget(this);
    auto* layout = new QVBoxLayout(side);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* tools = new QHBoxLayout;
    draw_ = new QComboBox(side);
    draw_->addItems({"Draw: off", "Draw: rectangle", "Draw: ring"});
    draw_->setToolTip("Drag on the image: a rectangle's corners, or a ring from its centre to "
                      "its outer radius (the inner radius at half of it; edit it in the table)");
    auto* remove = new QPushButton("Remove", side);
    auto* clear = new QPushButton("Clear", side);
    tools->addWidget(draw_);
    tools->addWidget(remove);
    tools->addWidget(clear);
    table_ = new QTableWidget(0, int(columns.size()), side);
    table_->setHorizontalHeaderLabels(columns);
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    auto* actions = new QHBoxLayout;
    computeButton_ = new QPushButton("Compute series", side);
    computeButton_->setToolTip("The sum and mean of every frame of the open file over each region "
                               "(as clscope-cli roi)");
    quantity_ = new QComboBox(side);
    quantity_->addItems({"sum", "mean"});
    auto* csv = new QPushButton("Export CSV…", side);
    auto* copy = new QPushButton("Copy command line", side);
    // Two rows: the side stays narrow enough for the plot beside it at 1280x800.
    actions->addWidget(computeButton_);
    actions->addWidget(quantity_);
    auto* exports = new QHBoxLayout;
    exports->addWidget(csv);
    exports->addWidget(copy);
    status_ = new QLabel(side);
    status_->setWordWrap(true);
    layout->addLayout(tools);
    layout->addWidget(table_, 1);
    layout->addLayout(actions);
    layout->addLayout(exports);
    layout->addWidget(status_);
    connect(draw_, &QComboBox::currentIndexChanged, this,
            [this](int index) { wb_.image().setDrawingActive(index > 0); });
    connect(remove, &QPushButton::clicked, this, [this] {
        const int row = table_->currentRow();
        if (row < 0 || row >= int(regions_.size())) return;
        std::vector<roi::Region> left = regions_;
        left.erase(left.begin() + row);
        setRegions(std::move(left));
    });
    connect(clear, &QPushButton::clicked, this, [this] { setRegions({}); });
    connect(table_, &QTableWidget::itemChanged, this, [this] { readTable(); });
    connect(computeButton_, &QPushButton::clicked, this, &RoiView::compute);
    connect(quantity_, &QComboBox::currentIndexChanged, this, &RoiView::redrawPlot);
    connect(csv, &QPushButton::clicked, this, &RoiView::exportCsv);
    connect(copy, &QPushButton::clicked, this,
            [this] { QGuiApplication::clipboard()->setText(commandLine()); });
    return side;
}

void RoiView::setRegions(std::vector<roi::Region> regions) {
    renumber(regions);
    regions_ = std::move(regions);
    series_.reset(); // of other regions
    fillTable();
    saveRegions();
    showOverlay();
    redrawPlot();
}

void RoiView::addRegion(const roi::Region& region) {
    std::vector<roi::Region> more = regions_;
    more.push_back(region);
    setRegions(std::move(more));
}

void RoiView::fillTable() {
    filling_ = true;
    table_->setRowCount(int(regions_.size()));
    for (std::size_t r = 0; r < regions_.size(); ++r) {
        const roi::Region& g = regions_[r];
        auto* name = new QTableWidgetItem(q(g.name));
        name->setFlags(name->flags() & ~Qt::ItemIsEditable);
        name->setForeground(regionColour(r));
        table_->setItem(int(r), 0, name);
        const double values[] = {g.a, g.b, g.c, g.d};
        for (int c = 0; c < 4; ++c)
            table_->setItem(int(r), c + 1,
                            new QTableWidgetItem(QString::number(values[c], 'g', 8)));
        const QString pixels = series_ ? QString::number(series_->pixels(r)) : QString("—");
        auto* count = new QTableWidgetItem(pixels);
        count->setFlags(count->flags() & ~Qt::ItemIsEditable);
        table_->setItem(int(r), 5, count);
    }
    filling_ = false;
}

// An edited cell: the regions re-read through parseRegions (its checks), else put back.
void RoiView::readTable() {
    if (filling_) return;
    std::vector<roi::Region> edited;
    try {
        for (std::size_t r = 0; r < regions_.size(); ++r) {
            QStringList four;
            for (int c = 1; c <= 4; ++c)
                four << (table_->item(int(r), c) ? table_->item(int(r), c)->text() : QString());
            const auto one =
                roi::parseRegions(four.join(',').toStdString(), regions_[r].kind, regions_[r].name);
            edited.push_back(one.at(0));
        }
    } catch (const std::exception& e) {
        status_->setText(QString("Not changed: %1").arg(e.what()));
        fillTable();
        return;
    }
    status_->clear();
    setRegions(std::move(edited));
}

void RoiView::saveRegions() const {
    QSettings settings;
    settings.setValue("roi/rects", q(joined(regions_, roi::Region::Kind::Rect)));
    settings.setValue("roi/rings", q(joined(regions_, roi::Region::Kind::Ring)));
}

// The regions as labels 1..R on the image (a later region over an earlier), outlined.
void RoiView::showOverlay() {
    ImageView& image = wb_.image();
    const auto source = image.presenter().hasImage();
    if (regions_.empty() || !source) {
        image.removeOverlay(overlayName);
        return;
    }
    const Image& shown = image.presenter().image();
    OverlayData data;
    data.name = overlayName;
    data.width = shown.width, data.height = shown.height;
    data.labels.assign(data.width * data.height, 0);
    for (std::size_t r = 0; r < regions_.size(); ++r)
        for (const std::uint32_t p : roi::regionPixels(regions_[r], data.height, data.width))
            data.labels[p] = std::int32_t(r + 1);
    data.opacity = 0.25;
    data.contours = true;
    const auto names = regions_;
    data.labelText = [names](std::int32_t label) {
        return label > 0 && std::size_t(label) <= names.size()
                   ? q(names[std::size_t(label) - 1].name)
                   : QString();
    };
    image.setOverlay(std::move(data));
}

bool RoiView::compute() {
    const DatasetRoles& roles = wb_.dataset();
    const auto frames = roles.path(DataRole::Frames);
    if (!frames || regions_.empty()) {
        wb_.log(LogLevel::Warning, !frames ? QString("ROI: open a file with frames first")
                                           : QString("ROI: draw or type a region first"));
        return false;
    }
    const roi::FileInput input{roles.fileName(), *frames,
                               roles.path(DataRole::PixelMask).value_or(""),
                               roles.eventFrameTime()};
    const std::vector<roi::Region> regions = regions_;
    QPointer<RoiView> self(this);
    Job job;
    job.title = "roi series of " + std::to_string(regions.size()) + " regions";
    job.algorithm = "roi";
    job.device = hostDevice();
    job.work = [=](const Progress& progress) {
        auto series =
            std::make_shared<const roi::Series>(roi::seriesOfFile(input, regions, progress));
        JobOutcome outcome;
        outcome.summary = roi::seriesSummary(*series);
        outcome.deliver = [self, series] {
            if (self) self->showSeries(series);
        };
        return outcome;
    };
    return wb_.submit(std::move(job));
}

void RoiView::showSeries(std::shared_ptr<const roi::Series> series) {
    if (series->regions().size() != regions_.size()) return; // the regions changed meanwhile
    series_ = std::move(series);
    fillTable();
    redrawPlot();
    status_->setText(
        QString("%1 frames of %2").arg(series_->frames()).arg(q(wb_.dataset().fileName())));
    emit seriesShown();
}

void RoiView::redrawPlot() {
    plot_->clearGraphs();
    const bool mean = quantity_->currentIndex() == 1;
    plot_->yAxis->setLabel(mean ? "mean (counts / pixel)" : "sum (counts)");
    if (series_)
        for (std::size_t r = 0; r < series_->regions().size(); ++r) {
            QVector<double> t, v;
            for (std::size_t i = 0; i < series_->frames(); ++i)
                t << double(i), v << (mean ? series_->mean(r, i) : series_->sum(r, i));
            QCPGraph* g = plot_->addGraph();
            g->setName(q(series_->regions()[r].name));
            g->setPen(QPen(regionColour(r), 1.5));
            g->setData(t, v, true);
        }
    plot_->rescaleAxes();
    if (plot_->graphCount() > 0) plot_->yAxis->scaleRange(1.1);
    plot_->replot();
}

void RoiView::exportCsv() {
    if (!series_) {
        QMessageBox::information(this, "Export ROI series", "Compute the series first.");
        return;
    }
    const QString path =
        QFileDialog::getSaveFileName(this, "Export ROI series", "roi.csv", "CSV (*.csv)");
    if (path.isEmpty()) return;
    try {
        writeFileAtomically(path.toStdString(), "# command_line: " + commandLine().toStdString() +
                                                    "\n" + roi::seriesCsv(*series_));
        wb_.log(LogLevel::Info, "exported the ROI series to " + path);
    } catch (const std::exception& e) {
        wb_.log(LogLevel::Error, QString("Export ROI series: %1").arg(e.what()));
        QMessageBox::warning(this, "Export ROI series", e.what());
    }
}

QString RoiView::commandLine(const QString& output) const {
    const DatasetRoles& roles = wb_.dataset();
    std::string line = "clscope-cli roi " + shellQuote(roles.fileName());
    if (const auto frames = roles.path(DataRole::Frames)) line += " --data " + shellQuote(*frames);
    if (const auto mask = roles.path(DataRole::PixelMask))
        line += " --pixel-mask " + shellQuote(*mask);
    if (const auto width = roles.eventFrameTime()) // an event list's frames, as binned here
        line += " --frame-time " + QString::number(*width, 'g', 17).toStdString();
    for (const auto kind : {roi::Region::Kind::Rect, roi::Region::Kind::Ring})
        if (const std::string list = joined(regions_, kind); !list.empty())
            line +=
                (kind == roi::Region::Kind::Rect ? " --rects " : " --rings ") + shellQuote(list);
    return q(line) + " -o " + q(shellQuote(output.toStdString()));
}

void RoiView::onPress(QMouseEvent* event) {
    if (draw_->currentIndex() == 0 || event->button() != Qt::LeftButton) return;
    QCustomPlot* plot = wb_.image().plot();
    dragStart_ = QPointF(plot->xAxis->pixelToCoord(event->position().x()),
                         plot->yAxis->pixelToCoord(event->position().y()));
}

// A drag's end: the rectangle of its two corners, or the ring about its start.
void RoiView::onRelease(QMouseEvent* event) {
    if (!dragStart_ || event->button() != Qt::LeftButton) return;
    QCustomPlot* plot = wb_.image().plot();
    const QPointF a = *dragStart_, b(plot->xAxis->pixelToCoord(event->position().x()),
                                     plot->yAxis->pixelToCoord(event->position().y()));
    dragStart_.reset();
    roi::Region r;
    if (draw_->currentIndex() == 1) {
        r.kind = roi::Region::Kind::Rect;
        r.a = std::floor(std::min(a.x(), b.x())), r.b = std::floor(std::min(a.y(), b.y()));
        r.c = std::ceil(std::max(a.x(), b.x())), r.d = std::ceil(std::max(a.y(), b.y()));
        if (r.c <= r.a || r.d <= r.b) return;
    } else {
        r.kind = roi::Region::Kind::Ring;
        r.a = a.x(), r.b = a.y();
        r.d = std::hypot(b.x() - a.x(), b.y() - a.y());
        r.c = r.d / 2;
        if (r.d <= 0) return;
    }
    addRegion(r);
}

} // namespace clscope::ui
