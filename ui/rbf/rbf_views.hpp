// The rbf result views: the planes view (the three planes with one colour bar and the sources,
// a line profile through one plane under them) and the Compare dock's difference view
// (|f − f_ref| per plane with its colour bar). Both draw what RbfPresenter computes.
#pragma once
#include "ui/rbf/rbf_planes_plot.hpp"
#include "ui/rbf/rbf_presenter.hpp"

#include <QWidget>
#include <memory>

class QLabel;

class QScrollArea;

namespace clscope::ui {

// Which grid line the profile runs along.
struct RbfProfileChoice {
    int plane = 0;
    bool alongHorizontal = true; // along the plane's horizontal axis at vertical index `index`
    std::size_t index = 0;
};

// The planes image the presenter describes now (values, shared range, label, log, cyclic).
RbfPlanesImage planesImage(const RbfPresenter& presenter);

class RbfPlanesView : public QWidget {
    Q_OBJECT
  public:
    RbfPlanesView(std::shared_ptr<const RbfPresenter> presenter, const QString& title,
                  QWidget* parent = nullptr);
    // Redraw from the presenter's display and scale, with the profile along `profile`.
    void refresh(const RbfProfileChoice& profile);
    RbfPlanesPlot* planes() const { return planes_; }
    QCustomPlot* profilePlot() const { return profile_; }
    QString captionText() const;

  protected:
    void resizeEvent(QResizeEvent* event) override;

  private:
    void drawProfile(const RbfProfileChoice& choice);
    void keepSquare();
    std::shared_ptr<const RbfPresenter> presenter_;
    RbfPlanesPlot* planes_ = nullptr;
    QCustomPlot* profile_ = nullptr;
    QLabel *title_ = nullptr, *caption_ = nullptr;
};

// Compare dock: |a − b| on the three planes, one colour bar, the largest difference absolute
// and relative to max |b|. Runs that are not on the same planes get a message instead. The
// planes stay square and readable in a narrow dock: in a row where three of at least
// `leastSide` px fit its width, else one above the other, scrolled.
class RbfDifferenceView : public QWidget {
    Q_OBJECT
  public:
    static constexpr int leastSide = 150;
    RbfDifferenceView(const rbf::Result& a, const std::string& labelA, const rbf::Result& b,
                      const std::string& labelB, QWidget* parent = nullptr);
    RbfPlanesPlot* planes() const { return planes_; }
    const RbfDifference& difference() const { return difference_; }

  protected:
    // The scroll area's viewport resized (the dock, or its scroll bar): arranged again.
    bool eventFilter(QObject* watched, QEvent* event) override;

  private:
    void arrange();
    RbfPlanesPlot* planes_ = nullptr;
    QScrollArea* scroll_ = nullptr;
    RbfDifference difference_;
};

} // namespace clscope::ui
