#include "ui/results/results_panel.hpp"

#include "ui/base/scrollable.hpp"
#include "ui/results/local_inputs.hpp"

#include <QClipboard>
#include <QFileDialog>
#include <QGuiApplication>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QTabBar>
#include <QTabWidget>
#include <QVBoxLayout>
#include <algorithm>

namespace clscope::ui {

ResultsPanel::ResultsPanel(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    tabWidget_ = new QTabWidget(this);
    tabWidget_->setDocumentMode(true);
    emptyHint_ = new QLabel(
        "Results of runs appear here as tabs: choose an algorithm panel and press Run.", this);
    emptyHint_->setWordWrap(true);
    emptyHint_->setAlignment(Qt::AlignCenter);
    emptyHint_->setStyleSheet("color: #707070");
    staleBanner_ = new QLabel(
        "Results marked (stale) were computed from an input or parameters that have changed "
        "since; run again to refresh them. Export refuses them; close a tab with its ×.",
        this);
    staleBanner_->setWordWrap(true);
    staleBanner_->setStyleSheet(
        "background: #fff3c4; color: #5c4400; padding: 4px; border: 1px solid #e0c060");
    staleBanner_->hide();
    layout->addWidget(staleBanner_);
    layout->addWidget(emptyHint_);
    layout->addWidget(tabWidget_);
    connect(this, &ResultsPanel::tabsChanged, this, [this] {
        emptyHint_->setVisible(tabs_.empty());
        tabWidget_->setVisible(!tabs_.empty());
        staleBanner_->setVisible(hasStale());
    });
    tabWidget_->hide();
    tabWidget_->setTabsClosable(true);
    connect(tabWidget_, &QTabWidget::tabCloseRequested, this, [this](int index) {
        if (const ResultTab* tab = tabAt(index)) removeTab(tab->algorithm, tab->title);
    });
    QTabBar* bar = tabWidget_->tabBar();
    bar->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(bar, &QTabBar::customContextMenuRequested, this, [this, bar](const QPoint& at) {
        QMenu* menu = tabMenu(bar->tabAt(at), this);
        menu->setAttribute(Qt::WA_DeleteOnClose);
        menu->popup(bar->mapToGlobal(at));
    });
}

const ResultTab* ResultsPanel::tabAt(int index) const {
    QWidget* page = tabWidget_->widget(index);
    for (const ResultTab& tab : tabs_)
        if (page && tab.page == page) return &tab;
    return nullptr;
}

QMenu* ResultsPanel::tabMenu(int index, QWidget* parent) const {
    auto* menu = new QMenu(parent);
    const ResultTab* tab = tabAt(index);
    const QString command = tab ? tab->commandLine : QString();
    if (namesLocalInputs(command)) {
        menu->addAction("Copy command line with its labels saved…", menu, [this, index, menu] {
            const QString path = QFileDialog::getSaveFileName(
                menu->parentWidget(), "Save the labels the command line reads", "labels.h5",
                "HDF5 (*.h5)");
            if (path.isEmpty()) return;
            try {
                QGuiApplication::clipboard()->setText(commandLineCarrying(index, path));
            } catch (const std::exception& e) {
                QMessageBox::warning(menu->parentWidget(), "Copy command line", e.what());
            }
        });
        return menu;
    }
    QAction* copy = menu->addAction("Copy command line", menu,
                                    [command] { QGuiApplication::clipboard()->setText(command); });
    copy->setEnabled(!command.isEmpty());
    copy->setToolTip(command);
    return menu;
}

void ResultsPanel::addTab(ResultTab tab) {
    removeTab(tab.algorithm, tab.title);
    if (!tab.provenance.computed.isValid())
        tab.provenance.computed = QDateTime::currentDateTimeUtc();
    // Each tab scrolls on its own: the tallest view (a cluster map over its histograms) made
    // the window taller than a 1280×800 screen (issue 52).
    tab.page = scrollable(tab.widget, Scroll::DownAndAcross);
    const int index = tabWidget_->addTab(tab.page, tab.title);
    tabWidget_->setTabToolTip(index, tab.commandLine);
    tabs_.push_back(std::move(tab));
    tabWidget_->setCurrentIndex(index);
    emit tabsChanged();
}

void ResultsPanel::removeTab(const QString& algorithm, const QString& title) {
    for (std::size_t i = 0; i < tabs_.size(); ++i) {
        if (tabs_[i].algorithm != algorithm || tabs_[i].title != title) continue;
        const int index = tabWidget_->indexOf(tabs_[i].page);
        tabWidget_->removeTab(index);
        delete tabs_[i].page;
        tabs_.erase(tabs_.begin() + static_cast<std::ptrdiff_t>(i));
        emit tabsChanged();
        return;
    }
}

void ResultsPanel::removeTabs(const QString& algorithm) {
    const ResultTab* shown = currentTab();
    if (shown && shown->algorithm == algorithm)
        shownBefore_[algorithm] = shown->title;
    else
        shownBefore_.erase(algorithm);
    for (std::size_t i = tabs_.size(); i-- > 0;)
        if (tabs_[i].algorithm == algorithm) removeTab(algorithm, tabs_[i].title);
}

void ResultsPanel::showAfterRun(const QString& algorithm, QWidget* fallback) {
    const auto before = shownBefore_.find(algorithm);
    for (const ResultTab& tab : tabs_)
        if (before != shownBefore_.end() && tab.algorithm == algorithm &&
            tab.title == before->second)
            return tabWidget_->setCurrentWidget(tab.page);
    if (fallback) showTab(fallback);
}

void ResultsPanel::showTab(const QWidget* widget) {
    for (const ResultTab& tab : tabs_)
        if (widget && (tab.widget == widget || tab.widget->isAncestorOf(widget)))
            return tabWidget_->setCurrentWidget(tab.page);
}

void ResultsPanel::clear() {
    while (!tabs_.empty())
        removeTab(tabs_.front().algorithm, tabs_.front().title);
}

void ResultsPanel::markStale(const QString& algorithm) {
    bool changed = false;
    for (ResultTab& tab : tabs_) {
        if (tab.stale || (!algorithm.isEmpty() && tab.algorithm != algorithm)) continue;
        tab.stale = changed = true;
        tabWidget_->setTabText(tabWidget_->indexOf(tab.page), tab.title + " (stale)");
    }
    if (changed) emit tabsChanged();
}

bool ResultsPanel::hasStale() const {
    return std::any_of(tabs_.begin(), tabs_.end(), [](const ResultTab& t) { return t.stale; });
}

const ResultTab* ResultsPanel::currentTab() const {
    QWidget* shown = tabWidget_->currentWidget();
    for (const ResultTab& tab : tabs_)
        if (tab.page == shown) return &tab;
    return nullptr;
}

} // namespace clscope::ui
