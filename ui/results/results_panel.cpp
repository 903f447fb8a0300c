#include "ui/results/results_panel.hpp"

#include "core/errors.hpp"
#include "ui/results/export.hpp"

#include <QLabel>
#include <QTabWidget>
#include <QVBoxLayout>

namespace clscope::ui {

ResultsPanel::ResultsPanel(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    tabWidget_ = new QTabWidget(this);
    tabWidget_->setDocumentMode(true);
    emptyHint_ = new QLabel("Results of runs appear here as tabs: choose an algorithm panel and press Run.", this);
    emptyHint_->setWordWrap(true);
    emptyHint_->setAlignment(Qt::AlignCenter);
    emptyHint_->setStyleSheet("color: #707070");
    layout->addWidget(emptyHint_);
    layout->addWidget(tabWidget_);
    connect(this, &ResultsPanel::tabsChanged, this, [this] {
        emptyHint_->setVisible(tabs_.empty());
        tabWidget_->setVisible(!tabs_.empty());
    });
    tabWidget_->hide();
}

void ResultsPanel::addTab(ResultTab tab) {
    removeTab(tab.title);
    const int index = tabWidget_->addTab(tab.widget, tab.title);
    tabs_.push_back(std::move(tab));
    tabWidget_->setCurrentIndex(index);
    emit tabsChanged();
}

void ResultsPanel::removeTab(const QString& title) {
    for (std::size_t i = 0; i < tabs_.size(); ++i) {
        if (tabs_[i].title != title) continue;
        const int index = tabWidget_->indexOf(tabs_[i].widget);
        tabWidget_->removeTab(index);
        delete tabs_[i].widget;
        tabs_.erase(tabs_.begin() + static_cast<std::ptrdiff_t>(i));
        emit tabsChanged();
        return;
    }
}

void ResultsPanel::clear() {
    while (!tabs_.empty()) removeTab(tabs_.front().title);
}

const ResultTab* ResultsPanel::currentTab() const {
    QWidget* shown = tabWidget_->currentWidget();
    for (const ResultTab& tab : tabs_)
        if (tab.widget == shown) return &tab;
    return nullptr;
}

void ResultsPanel::exportHdf5(const QString& path) const {
    std::vector<std::function<void(H5Writer&)>> writers;
    for (const ResultTab& tab : tabs_)
        if (tab.writeHdf5) writers.push_back(tab.writeHdf5);
    ui::exportHdf5(path, writers);
}

void ResultsPanel::exportCsv(const QString& path) const {
    const ResultTab* tab = currentTab();
    if (!tab || !tab->csv) throw UsageError("the result shown has no table or curve to export as CSV");
    writeTextFile(path, tab->csv());
}

} // namespace clscope::ui
