// The frame range of a run that reads frames (`--frames FIRST:COUNT`, DESIGN.md §4): the first
// frame (0-based) and the number of frames ("all": to the last frame), as one row of a panel's
// form. Every panel that reads a frame stack shows it this way.
#pragma once
#include "core/input/frame_range.hpp"

#include <QWidget>

class QSpinBox;

namespace clscope::ui {

class FrameRangeEdit : public QWidget {
    Q_OBJECT
  public:
    explicit FrameRangeEdit(QWidget* parent = nullptr);

    FrameRange range() const; // count 0: to the last frame
    void setRange(const FrameRange& range);

  signals:
    void changed();

  private:
    QSpinBox *first_ = nullptr, *count_ = nullptr;
};

} // namespace clscope::ui
