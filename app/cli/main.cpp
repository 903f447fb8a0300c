// clscope-cli: the headless front end (DESIGN.md §4).
#include "app/cli/commands.hpp"

int main(int argc, char** argv) {
    return clscope::cli::run(argc, argv);
}
