#include "gpu/lab/lab_diff.hpp"

#include "gpu/lab/lab_store.hpp"

#include <algorithm>
#include <cstdio>
#include <sstream>

namespace clscope {

namespace {

constexpr std::size_t maxLines = 4000;

std::vector<std::string> linesOf(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line))
        lines.push_back(line);
    return lines;
}

// Each line of the longest common subsequence walk: ' ', '-' or '+' with its text.
std::vector<std::pair<char, std::string>> walk(const std::vector<std::string>& a,
                                               const std::vector<std::string>& b) {
    const std::size_t n = a.size(), m = b.size();
    std::vector<std::uint16_t> common((n + 1) * (m + 1), 0); // suffix LCS lengths
    const auto at = [&](std::size_t i, std::size_t j) -> std::uint16_t& {
        return common[i * (m + 1) + j];
    };
    for (std::size_t i = n; i-- > 0;)
        for (std::size_t j = m; j-- > 0;)
            at(i, j) = a[i] == b[j] ? std::uint16_t(at(i + 1, j + 1) + 1)
                                    : std::max(at(i + 1, j), at(i, j + 1));
    std::vector<std::pair<char, std::string>> out;
    std::size_t i = 0, j = 0;
    while (i < n || j < m) {
        if (i < n && j < m && a[i] == b[j])
            out.emplace_back(' ', a[i]), ++i, ++j;
        else if (i < n && (j == m || at(i + 1, j) >= at(i, j + 1)))
            out.emplace_back('-', a[i++]); // what went before what came
        else
            out.emplace_back('+', b[j++]);
    }
    return out;
}

std::string text(const nlohmann::json& j, const char* key) {
    const auto it = j.find(key);
    if (it == j.end() || it->is_null()) return "";
    return it->is_string() ? it->get<std::string>() : it->dump();
}

std::string number(double value) {
    char out[32];
    std::snprintf(out, sizeof out, "%.4g", value);
    return out;
}

void compareValue(std::ostringstream& out, const std::string& what, const std::string& a,
                  const std::string& b) {
    if (a != b)
        out << "  " << what << ": " << (a.empty() ? "-" : a) << " -> " << (b.empty() ? "-" : b)
            << "\n";
}

void tunables(std::ostringstream& out, const nlohmann::json& a, const nlohmann::json& b) {
    const nlohmann::json ta = a.value("tunables", nlohmann::json::object());
    const nlohmann::json tb = b.value("tunables", nlohmann::json::object());
    nlohmann::json names = ta;
    names.update(tb);
    std::ostringstream changed;
    for (auto it = names.begin(); it != names.end(); ++it)
        compareValue(changed, it.key(), text(ta, it.key().c_str()), text(tb, it.key().c_str()));
    out << "tunables:" << (changed.str().empty() ? " the same\n" : "\n" + changed.str());
}

void results(std::ostringstream& out, const nlohmann::json& a, const nlohmann::json& b) {
    out << "check: " << text(a, "check") << " (max deviation "
        << number(a.value("max_deviation", 0.0)) << ") -> " << text(b, "check")
        << " (max deviation " << number(b.value("max_deviation", 0.0)) << ")\n";
    for (const char* key : {"min_ms", "p20_ms", "median_ms", "p80_ms", "wall_median_ms"}) {
        const double x = a.value(key, 0.0), y = b.value(key, 0.0);
        out << key << ": " << number(x) << " -> " << number(y);
        if (x > 0 && y > 0) out << " (x" << number(y / x) << ")";
        out << "\n";
    }
}

void textDiff(std::ostringstream& out, const std::string& what, const std::string& shaA,
              const std::string& shaB) {
    if (shaA == shaB) {
        out << what << ": the same (" << shaA.substr(0, 12) << ")\n";
        return;
    }
    const auto x = fromLabStore(shaA), y = fromLabStore(shaB);
    if (!x || !y) {
        out << what << ": differ (" << shaA.substr(0, 12) << " -> " << shaB.substr(0, 12)
            << "; not both in the lab store " << labStoreFolder().string() << ")\n";
        return;
    }
    const bool binary = x->find('\0') != std::string::npos || y->find('\0') != std::string::npos;
    if (binary) {
        out << what << ": binary, " << x->size() << " -> " << y->size() << " bytes, differ\n";
        return;
    }
    out << what << ": differ\n";
    for (const std::string& line : lineDiff(*x, *y))
        out << "  " << line << "\n";
}

void kernels(std::ostringstream& out, const nlohmann::json& pa, const nlohmann::json& pb) {
    for (const nlohmann::json& ka : pa.value("kernels", nlohmann::json::array()))
        for (const nlohmann::json& kb : pb.value("kernels", nlohmann::json::array())) {
            if (ka.value("name", "") != kb.value("name", "")) continue;
            std::ostringstream changed;
            for (const char* key : {"work_group_size", "preferred_work_group_size_multiple",
                                    "local_mem_bytes", "private_mem_bytes"})
                compareValue(changed, key, text(ka, key), text(kb, key));
            out << "kernel " << ka.value("name", "") << ":"
                << (changed.str().empty() ? " the same figures\n" : "\n" + changed.str());
        }
}

void programs(std::ostringstream& out, const nlohmann::json& a, const nlohmann::json& b) {
    const nlohmann::json pa = a.value("programs", nlohmann::json::array());
    const nlohmann::json pb = b.value("programs", nlohmann::json::array());
    for (std::size_t i = 0; i < std::max(pa.size(), pb.size()); ++i) {
        if (i >= pa.size() || i >= pb.size()) {
            out << "program " << (i < pa.size() ? pa[i] : pb[i]).value("program", "")
                << ": built by " << (i < pa.size() ? "A" : "B") << " only\n";
            continue;
        }
        out << "program " << pa[i].value("program", "") << ":\n";
        std::ostringstream options;
        compareValue(options, "options", text(pa[i], "options"), text(pb[i], "options"));
        out << (options.str().empty() ? "options: the same\n" : options.str().substr(2));
        kernels(out, pa[i], pb[i]);
        textDiff(out, "compiled output", text(pa[i], "binary_sha256"),
                 text(pb[i], "binary_sha256"));
    }
}

} // namespace

std::vector<std::string> lineDiff(const std::string& a, const std::string& b, std::size_t context) {
    if (a == b) return {};
    const auto x = linesOf(a), y = linesOf(b);
    if (x.size() > maxLines || y.size() > maxLines)
        return {"(" + std::to_string(x.size()) + " -> " + std::to_string(y.size()) +
                " lines: too long to compare line by line)"};
    const auto steps = walk(x, y);
    std::vector<bool> keep(steps.size(), false);
    for (std::size_t i = 0; i < steps.size(); ++i)
        if (steps[i].first != ' ')
            for (std::size_t k = i >= context ? i - context : 0;
                 k <= i + context && k < steps.size(); ++k)
                keep[k] = true;
    std::vector<std::string> out;
    for (std::size_t i = 0; i < steps.size(); ++i) {
        if (!keep[i]) {
            if (out.empty() || out.back() != "...") out.push_back("...");
            continue;
        }
        out.push_back(std::string(1, steps[i].first) + steps[i].second);
    }
    return out;
}

std::string labDiff(const nlohmann::json& a, const nlohmann::json& b) {
    std::ostringstream out;
    for (const auto& [name, row] : {std::pair{"A", &a}, std::pair{"B", &b}})
        out << name << ": " << text(*row, "label") << " of " << text(*row, "algorithm") << " "
            << text(*row, "variant") << " on " << text(*row, "device")
            << (text(*row, "date").empty() ? "" : ", " + text(*row, "date")) << "\n";
    tunables(out, a, b);
    results(out, a, b);
    textDiff(out, "source", text(a, "source_sha256"), text(b, "source_sha256"));
    programs(out, a, b);
    return out.str();
}

} // namespace clscope
