#include "core/rbf/rbf_io.hpp"
#include "core/rbf/particles.hpp"

#include "core/errors.hpp"
#include "core/io.hpp"

namespace clscope::rbf {

Problem readProblem(const H5Reader& file, const std::string& group, std::size_t planes) {
    Particles particles;
    if (!planes) {
        particles = readParticles(file, group);
    } else {
        // Only sources and weights: the targets are the planes.
        const std::string spath = group + "/sources";
        if (!file.hasDataset(spath)) throw InputError(file.where(spath) + ": no such dataset");
        particles.sources = readPositions(file, spath);
        const std::string wpath = group + "/weights";
        if (!file.hasDataset(wpath)) throw InputError(file.where(wpath) + ": no such dataset");
        const DatasetInfo di = file.info(wpath);
        const std::size_t n = particles.sourceCount();
        particles.complexWeights = di.shape.size() == 2;
        if (!di.dtype || dtypeIsInteger(*di.dtype) || di.shape.empty() || di.shape[0] != n ||
            (di.shape.size() != 1 && di.shape != Shape{n, 2}))
            throw InputError(file.where(wpath) + ": expected (" + std::to_string(n) +
                             ",) real or (" + std::to_string(n) +
                             ", 2) complex float weights, found " + di.typeName + " " +
                             shapeString(di.shape));
        const Array w = file.read(wpath, DType::Float64);
        particles.weights.assign(w.as<double>().begin(), w.as<double>().end());
    }
    Problem p = makeProblem(std::move(particles), planes);
    try {
        p.check();
    } catch (const InputError& e) {
        throw InputError(file.where(group) + ": " + e.what());
    }
    return p;
}

void writePotential(H5Writer& out, const Result& r, const std::string& group) {
    const Shape shape = r.complex ? Shape{r.count(), 2} : Shape{r.count()};
    out.write(group + "/potential", makeArray<double>(shape, r.potential));
}

Result readPotential(const H5Reader& file, const std::string& group) {
    const std::string path = group + "/potential";
    const Array a = file.read(path, DType::Float64);
    Result r;
    r.complex = a.rank() == 2;
    if (a.rank() > 2 || (r.complex && a.shape()[1] != 2))
        throw InputError(file.where(path) + ": expected (M) or (M, 2), found " +
                         shapeString(a.shape()));
    r.potential.assign(a.as<double>().begin(), a.as<double>().end());
    r.device = file.stringAttribute(group, "device").value_or("");
    r.variant = file.stringAttribute(group, "variant").value_or("");
    return r;
}

} // namespace clscope::rbf
