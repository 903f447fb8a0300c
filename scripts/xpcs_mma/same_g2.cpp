// Device-machine check (docs/PERFORMANCE.md, issue 21): whether two correlate outputs hold the
// same g2 bit for bit, and how far g2_err is apart. Usage: same_g2 A.h5 B.h5 [group [names]]
// (names: datasets of the group, g2 and g2_err by default, e.g. "g2 twotime/3"; every one but
// g2_err must be bit-identical for exit status 0).
// Build: g++ -O2 same_g2.cpp -I/usr/include/hdf5/serial -lhdf5_serial -o same_g2
#include <hdf5.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

static std::vector<double> readAll(const char* file, const std::string& path) {
    const hid_t f = H5Fopen(file, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (f < 0) return {};
    const hid_t d = H5Dopen2(f, path.c_str(), H5P_DEFAULT);
    if (d < 0) return H5Fclose(f), std::vector<double>{}; // missing: "sizes differ" below
    const hid_t s = H5Dget_space(d);
    std::vector<double> v(static_cast<std::size_t>(H5Sget_simple_extent_npoints(s)));
    H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data());
    H5Sclose(s), H5Dclose(d), H5Fclose(f);
    return v;
}

int main(int argc, char** argv) {
    if (argc < 3) return std::fprintf(stderr, "usage: same_g2 A.h5 B.h5 [group [names]]\n"), 2;
    const std::string group = argc > 3 ? argv[3] : "/xpcs";
    std::vector<std::string> names(argv + std::min(argc, 4), argv + argc);
    if (names.empty()) names = {"g2", "g2_err"};
    int rc = 0;
    for (const std::string& name : names) {
        const auto a = readAll(argv[1], group + "/" + name),
                   b = readAll(argv[2], group + "/" + name);
        std::size_t differ = 0;
        double worst = 0;
        for (std::size_t i = 0; i < a.size() && a.size() == b.size(); ++i) {
            if (std::isnan(a[i]) && std::isnan(b[i])) continue;
            if (std::memcmp(&a[i], &b[i], 8) != 0) ++differ;
            worst = std::fmax(worst, std::fabs(a[i] - b[i]) / std::fmax(std::fabs(b[i]), 1e-300));
        }
        std::printf("%s: %zu values, %zu not bit-identical, max rel diff %.3g%s\n", name.c_str(),
                    a.size(), differ, worst, a.size() == b.size() ? "" : " (sizes differ)");
        if (a.size() != b.size() || (differ && name != "g2_err")) rc = 1;
    }
    return rc;
}
