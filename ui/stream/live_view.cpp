// LiveView: its widgets, Start / Stop / Save, and the window File ▸ Open stream… opens.
#include "ui/stream/live_view.hpp"

#include "ui/image/image_view.hpp"
#include "ui/kit/workbench.hpp"
#include "ui/mask/q_bin_labels.hpp"
#include "ui/params/param_form.hpp"
#include "ui/stream/live_chart.hpp"

#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScreen>
#include <QSettings>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QTimer>
#include <QVBoxLayout>
#include <algorithm>
#include <exception>
#include <utility>

namespace clscope::ui {

LiveView::LiveView(QWidget* parent) : QWidget(parent), receiver_(new StreamReceiver) {
    auto* layout = new QVBoxLayout(this);
    auto* bar = new QHBoxLayout;
    startStop_ = new QPushButton("Stop", this);
    save_ = new QPushButton("Save what was received…", this);
    // One line each, as wide as the window: what does not fit is in the tooltip.
    status_ = new QLabel(this);
    status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    status_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    bar->addWidget(startStop_);
    bar->addWidget(save_);
    bar->addWidget(status_, 1);
    layout->addLayout(bar);
    layout->addLayout(buildSettingsLine());
    auto* split = new QSplitter(Qt::Horizontal, this);
    image_ = new ImageView(split);
    side_ = new QSplitter(Qt::Vertical, split);
    chart_ = std::make_unique<LiveChart>(side_);
    chart_->setHitThreshold(hitThreshold_->value());
    split->setSizes({900, 600});
    layout->addWidget(split, 1);

    connect(startStop_, &QPushButton::clicked, this,
            [this] { isReceiving() ? stop() : open(request_); });
    connect(save_, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, "Save what was received",
                                                          "received.h5", "HDF5 (*.h5)");
        if (path.isEmpty()) return;
        if (QString error; !saveReceived(path, &error)) showStatus(error);
    });
    connect(receiver_.get(), &StreamReceiver::connected, this, &LiveView::onConnected);
    connect(receiver_.get(), &StreamReceiver::finished, this, &LiveView::onFinished);
    connect(receiver_.get(), &StreamReceiver::retuned, this, &LiveView::onRetuned);
    connect(image_->controls(), &ImageControls::selectionChanged, this, &LiveView::drawOverlays);
    display_ = new QTimer(this);
    display_->setInterval(33);
    connect(display_, &QTimer::timeout, this, [this] {
        showNewest();
        plotValues();
    });
    second_ = new QTimer(this);
    second_->setInterval(1000);
    connect(second_, &QTimer::timeout, this, [this] {
        updateChart();
        updateSeries();
        checkStall();
    });
}

// What the analyses run with, the hit rate's threshold and the latency to the screen.
QLayout* LiveView::buildSettingsLine() {
    auto* line = new QHBoxLayout;
    settings_ = new QLabel(this);
    settings_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    settings_->setToolTip("What the analyses of every frame run with: their panel's parameters "
                          "when the stream was opened or as the panel changed them since");
    hitLabel_ = new QLabel("Hit: at least", this);
    hitThreshold_ = new QSpinBox(this);
    hitThreshold_->setRange(1, 1000000);
    hitThreshold_->setValue(QSettings().value("live/hitThreshold", 20).toInt());
    hitThreshold_->setToolTip("A frame is a hit when it has at least this many; the hit rate "
                              "is the share of the frames so far that are hits");
    hitLabel_->setToolTip(hitThreshold_->toolTip());
    hitLabel_->setBuddy(hitThreshold_);
    latency_ = new QLabel(this);
    latency_->setToolTip("From a frame's arrival in the receiver to the repaint of the chart "
                         "that shows its point: the newest frame's, and the median over the "
                         "frames so far");
    line->addWidget(settings_, 1);
    line->addWidget(hitLabel_);
    line->addWidget(hitThreshold_);
    line->addSpacing(12);
    line->addWidget(latency_);
    hitLabel_->hide(), hitThreshold_->hide(); // until a series has a hit curve
    connect(hitThreshold_, &QSpinBox::valueChanged, this, &LiveView::setHitThreshold);
    return line;
}

void LiveView::setHitThreshold(int threshold) {
    QSettings().setValue("live/hitThreshold", threshold);
    chart_->setHitThreshold(threshold);
    chart_->replot();
}

QCustomPlot* LiveView::stripChart() const {
    return chart_->plot();
}

LiveView::~LiveView() {
    receiver_->stop();
    receiver_.reset(); // waits for the receiving thread
    waitForSeries();
}

void LiveView::waitForSeries() {
    for (Series& s : series_)
        if (s.watcher) s.watcher->waitForFinished();
}

void LiveView::open(StreamRequest request) {
    receiver_->stop();
    waitForSeries();
    delete std::exchange(seriesTabs_, nullptr); // the series' boxes of widget and note
    series_.clear();
    request_ = std::move(request);
    shown_ = lastCount_ = arrived_ = 0, rate_ = seriesRate_ = 0, sourceSet_ = false;
    ended_.clear();
    stall_.clear();
    settings_->clear();
    image_->setFrameSource(nullptr);
    chart_->reset();
    latencyMs_.clear();
    latency_->clear();
    setWindowTitle("Live: " + QString::fromStdString(request_.endpoint));
    showStatus("Waiting for " + QString::fromStdString(request_.endpoint) + "…");
    status_->setStyleSheet("");
    startStop_->setText("Stop");
    receiver_->start(request_);
}

void LiveView::followParams(const std::string& algorithm, const ParamSet& params) {
    request_.context.params[algorithm] = params;
    if (isReceiving()) receiver_->setParams(algorithm, params);
}

// The settings line, cut where the view is narrow: its tooltip has the whole text.
void LiveView::showSettings() {
    const QString text = receiver_->settings();
    settings_->setText(text);
    settings_->setToolTip(text + "\n\nWhat the analyses of every frame run with: their panel's "
                                 "parameters when the stream was opened or as the panel changed "
                                 "them since");
}

void LiveView::onRetuned(const QString& algorithm, qulonglong first) {
    showSettings();
    emit changed(QString("%1 runs with its panel's parameters from frame %2 on: %3")
                     .arg(algorithm)
                     .arg(first)
                     .arg(settings_->text()));
}

void LiveView::showStatus(const QString& text) {
    status_->setText(text);
    status_->setToolTip(text);
}

void LiveView::stop() {
    receiver_->stop();
    startStop_->setEnabled(false); // until finished() comes
}

bool LiveView::saveReceived(const QString& path, QString* error) {
    try {
        const auto frames = receiver_->frames();
        if (!frames) throw std::runtime_error("nothing was received yet");
        const auto saved = frames->save(path.toStdString());
        const std::size_t n = saved.frames.frameCount();
        QString text = QString("Saved %1 frames to %2").arg(n).arg(path);
        if (saved.first)
            text = QString("Saved frames %1..%2 to %3: %4")
                       .arg(saved.first)
                       .arg(saved.first + n - 1)
                       .arg(path)
                       .arg(QString::fromStdString(frames->droppedText()));
        showStatus(text);
        return true;
    } catch (const std::exception& e) {
        if (error) *error = QString("Save what was received: %1").arg(e.what());
        return false;
    }
}

void LiveView::onConnected(const QString& description) {
    showStatus(description);
    showSettings();
    QStringList notes;
    for (const auto& a : receiver_->analyses())
        if (const QString m = a->missing(); !m.isEmpty()) notes << m;
    chart_->setCurves(receiver_->curves(), notes);
    const QString hits = chart_->hitQuantity();
    hitThreshold_->setSuffix(" " + hits);
    hitLabel_->setVisible(!hits.isEmpty()), hitThreshold_->setVisible(!hits.isEmpty());
    const LiveContext c = receiver_->context();
    for (const LiveAnalysisSpec& spec : LiveAnalysisRegistry::instance().specs())
        if (spec.overFrames) addSeries(spec, c);
    lastTick_ = lastArrival_ = std::chrono::steady_clock::now();
    display_->start();
    second_->start();
}

// The analysis over the frames of `spec`, if it applies to the stream: a tab under the strip
// chart (the tab bar shows from two on: stacked, three plots left the chart's axes unreadable
// at 1280x800).
void LiveView::addSeries(const LiveAnalysisSpec& spec, const LiveContext& c) {
    auto* box = new QWidget;
    auto* layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    Series s;
    try {
        s.analysis = spec.overFrames(c, box);
    } catch (const std::exception& e) { // e.g. a geometry file it cannot read: said, skipped
        emit notice(QString::fromStdString(spec.algorithm + ": " + e.what()));
    }
    if (!s.analysis) {
        delete box;
        return;
    }
    layout->addWidget(s.analysis->widget(), 1);
    // Hidden until it has drawn: an empty plot (no range yet, or an analysis that cannot
    // run) says nothing; the note says what it waits for or why it cannot run.
    s.analysis->widget()->hide();
    s.note = new QLabel(s.analysis->title() + ": waiting for frames…", box);
    s.note->setWordWrap(true);
    s.note->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    layout->addWidget(s.note);
    if (!seriesTabs_) {
        seriesTabs_ = new QTabWidget;
        seriesTabs_->setTabBarAutoHide(true);
        seriesTabs_->setDocumentMode(true);
        side_->addWidget(seriesTabs_); // shown: made after the splitter was shown
        seriesTabs_->show();
    }
    seriesTabs_->addTab(box, s.analysis->title());
    s.watcher = std::make_unique<QFutureWatcher<std::pair<std::function<void()>, QString>>>();
    connect(s.watcher.get(), &QFutureWatcherBase::finished, this,
            [this, i = series_.size()] { showSeries(series_.at(i)); });
    series_.push_back(std::move(s));
}

void LiveView::onFinished(const QString& error, bool stopped) {
    display_->stop();
    second_->stop();
    startStop_->setText("Start");
    startStop_->setEnabled(true);
    status_->setStyleSheet(error.isEmpty() ? "" : "color: #b00000");
    ended_ = endText(error, stopped); // after the controls: a screenshot may follow at once
    stall_.clear();
    showNewest();
    plotValues();
    updateChart();
    // The status line's rate from now on: the series' own (the last tick's covers a part of
    // a second).
    seriesRate_ = receiver_->seriesRate();
    updateSeries();
    updateStatus();
    if (!error.isEmpty() || ended_.contains(" of ")) emit notice(ended_);
    emit finished(error, stopped);
    maybeScreenshot(true);
}

QString LiveView::receivedText() const {
    const auto frames = receiver_->frames();
    const std::size_t n = frames ? frames->frameCount() : 0;
    const std::size_t announced = frames ? frames->start().numberOfImages : 0;
    return announced ? QString("%1 of %2 frames received").arg(n).arg(announced)
                     : QString("%1 frames received").arg(n);
}

// How the series ended: its error, Stop, all the frames announced, or fewer (the publisher
// went silent for the timeout, or sent its end message early).
QString LiveView::endText(const QString& error, bool stopped) const {
    const auto frames = receiver_->frames();
    const std::size_t n = frames ? frames->frameCount() : 0;
    const std::size_t announced = frames ? frames->start().numberOfImages : 0;
    if (!error.isEmpty()) return frames ? error + " — " + receivedText() : error;
    if (stopped) return QString("Stopped after %1 frames").arg(n);
    if (!announced || n >= announced) return QString("Series ended: %1 frames").arg(n);
    return "Series ended early: " + receivedText() +
           (receiver_->timedOut() ? QString(" (no message in %1 s)").arg(request_.timeoutSeconds)
                                  : QString(" (the end message came first)"));
}

// A publisher silent for a few seconds mid-series (stalled, or dead: the timeout ends the
// series later) is said at once, with the frames received of announced.
void LiveView::checkStall() {
    const auto frames = receiver_->frames();
    if (!frames || !ended_.isEmpty()) return;
    const auto now = std::chrono::steady_clock::now();
    if (frames->frameCount() != arrived_) {
        arrived_ = frames->frameCount(), lastArrival_ = now;
        stall_.clear();
        return;
    }
    const double silent = std::chrono::duration<double>(now - lastArrival_).count();
    const double after = std::min(3.0, request_.timeoutSeconds / 2);
    if (!stall_.isEmpty() || silent < after) return;
    stall_ = QString("no frame for %1 s: %2; the series ends after %3 s of silence")
                 .arg(int(silent))
                 .arg(receivedText())
                 .arg(request_.timeoutSeconds);
    updateStatus();
    emit notice(stall_);
}

namespace {

// The parameters on the algorithm's panel (its ParamForm in the workbench's window), if any.
std::optional<ParamSet> panelParams(Workbench& workbench, const std::string& algorithm) {
    if (!workbench.parent()) return std::nullopt;
    for (const ParamForm* form : workbench.parent()->findChildren<ParamForm*>())
        if (form->group() == algorithm) return form->paramSet();
    return std::nullopt;
}

// Each panel's parameter changes go to the view's per-frame analyses of its algorithm.
void followPanels(Workbench& workbench, LiveView* view) {
    if (!workbench.parent()) return;
    for (ParamForm* form : workbench.parent()->findChildren<ParamForm*>())
        for (const LiveAnalysisSpec& spec : LiveAnalysisRegistry::instance().specs())
            if (spec.perFrame && form->group() == spec.algorithm)
                QObject::connect(form, &ParamForm::changed, view, [view, form] {
                    view->followParams(form->group(), form->paramSet());
                });
}

} // namespace

LiveView* openLiveWindow(Workbench& workbench, const QString& endpoint, QWidget* parent) {
    auto* view = new LiveView(parent);
    view->setWindowFlag(Qt::Window);
    view->setAttribute(Qt::WA_DeleteOnClose);
    // 1500x900, or what the screen has room for.
    const QSize room = view->screen()->availableGeometry().size() * 0.95;
    view->resize(std::min(1500, room.width()), std::min(900, room.height()));
    StreamRequest request;
    request.endpoint = endpoint.toStdString();
    request.context.device = workbench.device();
    for (const LiveAnalysisSpec& spec : LiveAnalysisRegistry::instance().specs()) {
        request.context.variants[spec.algorithm] = workbench.variant(spec.algorithm);
        if (auto params = panelParams(workbench, spec.algorithm))
            request.context.params[spec.algorithm] = std::move(*params);
    }
    request.context.labels = QBinLabels::of(workbench).current().mask;
    followPanels(workbench, view);
    QObject::connect(view, &LiveView::notice, &workbench, [&workbench](const QString& text) {
        workbench.log(LogLevel::Warning, "Live view: " + text);
        emit workbench.statusMessage("Live view: " + text, 15000);
    });
    QObject::connect(view, &LiveView::changed, &workbench, [&workbench](const QString& text) {
        workbench.log(LogLevel::Info, "Live view: " + text);
    });
    view->show();
    view->open(std::move(request));
    return view;
}

} // namespace clscope::ui
