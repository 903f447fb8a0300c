// The demos' last step (`clscope --demo compare`, `--demo ID` of an algorithm without a panel):
// the Compare dock raised, every variant the devices can run compared on the algorithm's input
// on screen; the workbench's demoFinished says whether every row ran.
#pragma once
#include <string>

namespace clscope::ui {

class Workbench;

void compareEveryVariant(Workbench& workbench, const std::string& algorithm);

} // namespace clscope::ui
