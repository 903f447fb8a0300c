// The column an algorithm panel lays its groups in (margins 4 px), with the line that says what
// the run reads on top: word-wrapped and selectable (Spots, Azint).
#pragma once

class QLabel;
class QVBoxLayout;
class QWidget;

namespace clscope::ui {

struct PanelColumn {
    QVBoxLayout* layout = nullptr;
    QLabel* inputInfo = nullptr;
};

PanelColumn panelColumnWithInputLine(QWidget& panel);

} // namespace clscope::ui
