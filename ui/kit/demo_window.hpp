// What the demos do to the window (`clscope --demo ALGO`, ui/kit/panel_demo.hpp): the data
// set's path, a dock given the middle of the window, a result tab or a dock brought to the front.
#pragma once
#include "ui/data/generate_request.hpp"

#include <QList>
#include <QString>
#include <QStringList>
#include <functional>

class QDockWidget;

namespace clscope::ui {

class Workbench;

// FILE in the temp folder.
QString demoPath(const QString& fileName);
// The demo's data set generated as FILE in the temp folder and opened, then then(): `request`
// with CLSCOPE_DEMO_OPTIONS over its options (a JSON object of the generator's options, e.g.
// {"frames":100}: a smaller or larger demo). A bad CLSCOPE_DEMO_OPTIONS is a UsageError naming it,
// thrown before anything is generated.
void generateDemo(Workbench& workbench, GenerateRequest request, const QString& fileName,
                  std::function<void()> then);
// The window's dock of that object name, or nullptr.
QDockWidget* demoDock(Workbench& workbench, const QString& name);
// The dock where the image was (the image one tab away), shown and raised; returns it (nullptr
// when the window, the image dock or the dock is not there).
QDockWidget* showDockInTheMiddle(Workbench& workbench, const QString& name);
// The result tab of that title in front (none of that title, or empty: as it is).
void showResultTab(Workbench& workbench, const QString& title);
// The named docks given these fractions of the window's width, once the docks have settled
// (queued; fixed sizes made the window wider than a 1600-pixel screen). Absent docks: none.
void widenDocks(Workbench& workbench, const QStringList& names, const QList<double>& fractions);

} // namespace clscope::ui
