// The /particles layout: read (positions and weights checked) and written.
#include "core/rbf/particles.hpp"

#include "core/errors.hpp"
#include "core/io.hpp"

namespace clscope {

Particles readParticles(const H5Reader& file, const std::string& group) {
    Particles p;
    p.sources = readPositions(file, group + "/sources");
    p.targets = readPositions(file, group + "/targets");
    const std::string wpath = group + "/weights";
    const DatasetInfo di = file.info(wpath);
    const std::size_t n = p.sourceCount();
    p.complexWeights = di.shape.size() == 2;
    const bool ok = di.dtype && !dtypeIsInteger(*di.dtype) && !di.shape.empty() &&
                    di.shape[0] == n && (di.shape.size() == 1 || di.shape == Shape{n, 2});
    if (!ok)
        throw InputError(file.where(wpath) + ": expected (" + std::to_string(n) + ",) real or (" +
                         std::to_string(n) + ", 2) complex float weights, found " + di.typeName +
                         " " + shapeString(di.shape));
    const Array w = file.read(wpath, DType::Float64);
    p.weights.assign(w.as<double>().begin(), w.as<double>().end());
    return p;
}

void writeParticles(H5Writer& out, const Particles& p, const std::string& group) {
    out.write(group + "/sources", makeArray(Shape{p.sourceCount(), 3}, p.sources));
    out.write(group + "/targets", makeArray(Shape{p.targetCount(), 3}, p.targets));
    const Shape w = p.complexWeights ? Shape{p.sourceCount(), 2} : Shape{p.sourceCount()};
    out.write(group + "/weights", makeArray(w, p.weights));
}

} // namespace clscope
