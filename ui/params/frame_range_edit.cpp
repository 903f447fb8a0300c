#include "ui/params/frame_range_edit.hpp"

#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>

namespace clscope::ui {

FrameRangeEdit::FrameRangeEdit(QWidget* parent) : QWidget(parent) {
    first_ = new QSpinBox(this);
    first_->setToolTip("First frame of the range (0-based)");
    count_ = new QSpinBox(this);
    count_->setSpecialValueText("all");
    count_->setToolTip("Number of frames (all: to the last frame)");
    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(first_, 1);
    row->addWidget(new QLabel("count", this));
    row->addWidget(count_, 1);
    for (QSpinBox* box : {first_, count_}) {
        box->setRange(0, 1 << 30);
        box->setMinimumWidth(60); // not the width of 2^30
        connect(box, &QSpinBox::valueChanged, this, &FrameRangeEdit::changed);
    }
}

FrameRange FrameRangeEdit::range() const {
    return {static_cast<std::uint64_t>(first_->value()),
            static_cast<std::uint64_t>(count_->value())};
}

void FrameRangeEdit::setRange(const FrameRange& range) {
    first_->setValue(static_cast<int>(range.first));
    count_->setValue(static_cast<int>(range.count));
}

} // namespace clscope::ui
