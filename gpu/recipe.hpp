// Program recipes: every OpenCL program clscope builds is declared as data — its source files,
// its tunables (the -D macros, each with a type, default, allowed values and meaning) and the
// launch rule of each of its kernels. The host passes every tunable from the declaration (the
// .cl files keep no defaults), so a recipe can be listed, printed as the exact program that is
// built, built with overridden tunables and forked (the kernel lab). Models: ArrayFire's
// getKernel(name, sources, options) and CLBlast's routine objects (docs/DESIGN.md).
#pragma once
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace clscope {

// Work-group layout of a launch, before rounding (ClSession::launch rounds and enqueues it).
struct LaunchShape {
    std::vector<std::size_t> global; // work-items wanted per dimension
    std::vector<std::size_t> local;  // work-group size per dimension
};

// One -D NAME=VALUE of a program.
struct Tunable {
    enum class Kind { Integer, Choice };
    std::string name; // the macro, e.g. "TILE_X"
    Kind kind = Kind::Integer;
    std::string defaultValue;          // as passed, e.g. "16" or "ushort"
    std::optional<long long> min, max; // Integer: inclusive range
    std::vector<std::string> allowed;  // Choice: the values it may take
    std::string help;                  // what it means, one line
    // Set by the host from the input or the parameters (data type, window size): shown and
    // printed like the others, but a sweep or a user variant does not choose it.
    bool fromInput = false;

    // "1..1024" or "uchar|ushort|..." for people and the printed program.
    std::string allowedText() const;
    // UsageError naming the tunable, the value and what is allowed when the value is not.
    void check(const std::string& value) const;
};

// An integer tunable in [min, max].
Tunable integerTunable(std::string name, long long defaultValue, long long min, long long max,
                       std::string help);
// A tunable that takes one of `allowed` (e.g. an OpenCL type name).
Tunable choiceTunable(std::string name, std::string defaultValue, std::vector<std::string> allowed,
                      std::string help);
// A 0/1 switch.
Tunable flagTunable(std::string name, bool defaultValue, std::string help);
// The same tunable, marked as set from the input or parameters.
Tunable fromInput(Tunable tunable);

// Tunable values by name, as text (the -D value).
using TunableValues = std::map<std::string, std::string>;
// Integer overrides (bench --tune, Params::tuning) as tunable values.
TunableValues tunableValues(const std::map<std::string, int>& integers);

// How one kernel of a program is launched: per dimension, the work-group size and the
// elements each work-item covers, each a tunable's name or a literal number. The global size
// is the extent divided by the elements per work-item, rounded up (and to the work-group size
// by the launch itself).
struct LaunchRule {
    std::vector<std::string> local;   // e.g. {"TILE_X", "TILE_Y", "1"}
    std::vector<std::string> perItem; // e.g. {"1", "STRIP_ROWS", "1"}; empty: 1 each
};

class ProgramRecipe {
  public:
    ProgramRecipe(std::string name, std::vector<std::string> sources,
                  std::vector<Tunable> tunables);

    const std::string& name() const { return name_; }
    // resources/kernels/<source>.cl, joined in this order into one program
    const std::vector<std::string>& sources() const { return sources_; }
    const std::vector<Tunable>& tunables() const { return tunables_; }
    // The declaration of a tunable; UsageError listing the program's tunables when absent.
    const Tunable& tunable(const std::string& name) const;
    bool declares(const std::string& name) const;

    // Options passed before the tunables (the OpenCL C version).
    ProgramRecipe& baseOptions(std::string options);
    const std::string& baseOptions() const { return baseOptions_; }
    // Declares the launch rule of a kernel of the program.
    ProgramRecipe& launch(std::string kernel, LaunchRule rule);
    const std::map<std::string, LaunchRule>& launchRules() const { return launches_; }

    // Every tunable's value: its default, then `values` (only those this program declares;
    // others are ignored, so one set of overrides serves every program of a run). Each value
    // is checked against its declaration.
    TunableValues resolve(const TunableValues& values = {}) const;
    // The program text: the sources joined (common.cl's helpers first when listed), or the
    // text of withSource().
    std::string source() const;
    // The build options: the base options, then -DNAME=VALUE for every tunable in declaration
    // order (values resolved first).
    std::string options(const TunableValues& values) const;
    // The program as one self-contained file: a header, one line per tunable
    // "// tunable NAME = VALUE (allowed: ...)", then source(). Given back as a user source it
    // builds the same program (parseTunableLines reads the values back).
    std::string printable(const TunableValues& values) const;
    // The shape of a launch of `kernel` over `extent` work elements per dimension.
    LaunchShape shape(const std::string& kernel, const TunableValues& values,
                      const std::vector<std::size_t>& extent) const;

    // The same recipe built from another program text (a user variant's fork).
    ProgramRecipe withSource(std::string text) const;
    bool sourceReplaced() const { return replacedSource_.has_value(); }

  private:
    long long number(const std::string& nameOrLiteral, const TunableValues& values) const;

    std::string name_;
    std::vector<std::string> sources_;
    std::vector<Tunable> tunables_;
    std::string baseOptions_ = "-cl-std=CL1.2";
    std::map<std::string, LaunchRule> launches_;
    std::optional<std::string> replacedSource_;
};

// The "// tunable NAME = VALUE" lines of a printed program (printable()), in order.
TunableValues parseTunableLines(const std::string& text);

// What a run asks of its programs beyond their declarations: tunable values (applied to every
// program that declares the name) and replaced program texts by recipe name (user variants).
struct ProgramOverrides {
    TunableValues values;
    std::map<std::string, std::string> sources;
    bool empty() const { return values.empty() && sources.empty(); }
    // The recipe as this run builds it: its source replaced when asked.
    ProgramRecipe apply(const ProgramRecipe& recipe) const;
    // values over `base` (the host's own, e.g. data type and per-device tuning).
    TunableValues over(TunableValues base) const;
};

} // namespace clscope
