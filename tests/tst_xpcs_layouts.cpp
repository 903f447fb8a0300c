// correlate --layout aps and --layout nxxpcs (docs/INTERCHANGE.md) through clscope-cli:
// every path, shape, dtype and unit that pyXpcsViewer / XPCS-Toolkit read (their key maps,
// written here in our words) with the same numbers as clscope's own layout; h5py reads the
// APS file as the viewers do (tests/check_aps_layout.py); every required name of the NXxpcs
// definition (tests/data/NXxpcs.nxdl.xml, parsed) is present with its units and attributes;
// a layout that cannot hold the run is a usage error and writes nothing.
#include "core/hdf5.hpp"
#include "core/mask/mask_io.hpp"
#include "core/xpcs/synthetic.hpp"
#include "gpu/algorithm.hpp"
#include "gpu/xpcs/run_types.hpp"
#include "test_util.hpp"

#include <QDir>
#include <QFile>
#include <QXmlStreamReader>
#include <QtTest>
#include <algorithm>
#include <cmath>

using namespace clscope;

namespace {

// A small brownian run: geometry, q table and a 1 ms frame time written beside the frames.
std::string writeInput(const QTemporaryDir& dir, bool withQ = true) {
    synthetic::XpcsParams p;
    p.frames = 64, p.height = 24, p.width = 28, p.ringWidth = 4, p.frameTime = 1e-3;
    synthetic::XpcsDataset d = synthetic::generateBrownianXpcs(p);
    if (!withQ) d.centers.reset(), d.geometry.reset();
    const std::string file = dir.filePath(withQ ? "in.h5" : "in_no_q.h5").toStdString();
    H5Writer out(file);
    synthetic::writeXpcs(out, d, Compression::None);
    out.commit();
    return file;
}

test::CliRun correlate(const std::string& input, const QString& output, const QStringList& extra) {
    return test::runCli(
        QStringList{"correlate", QString::fromStdString(input), "--device", "cpu", "-o", output} +
        extra);
}

std::map<std::string, std::string> attributesOf(const H5Reader& f, const std::string& path) {
    const auto slash = path.find_last_of('/');
    const std::string parent = slash == 0 ? "/" : path.substr(0, slash);
    for (const H5Node& node : f.children(parent))
        if (node.path == path) return node.attributes;
    return {};
}

// The dataset exists with this shape and stored type ("float64", "int64", "string", ...).
void expectDataset(const H5Reader& f, const std::string& path, const Shape& shape,
                   const std::string& type) {
    QVERIFY2(f.hasDataset(path), path.c_str());
    const DatasetInfo info = f.info(path);
    QVERIFY2(info.shape == shape, (path + ": shape " + shapeString(info.shape)).c_str());
    QVERIFY2(info.typeName == type, (path + ": type " + info.typeName).c_str());
}

void expectUnits(const H5Reader& f, const std::string& path, const std::string& units) {
    const auto attributes = attributesOf(f, path);
    const auto it = attributes.find("units");
    QVERIFY2(it != attributes.end() && it->second == units, (path + " units").c_str());
}

std::vector<double> values(const H5Reader& f, const std::string& path) {
    const Array a = f.read(path, DType::Float64);
    return {a.as<double>().begin(), a.as<double>().end()};
}

// q (1/Å) of each label from the input's table (nm^-1, pyFAI's unit).
std::vector<double> inputQ(const std::string& input, const std::vector<double>& labels) {
    const H5Reader in(input);
    const std::vector<double> q = values(in, mask::paths::qmaskQ);
    const std::vector<double> ids = values(in, mask::paths::qmaskLabelIds);
    std::vector<double> out;
    for (double label : labels)
        out.push_back(q[std::find(ids.begin(), ids.end(), label) - ids.begin()] / 10.0);
    return out;
}

// One element of the NXDL tree: a group (type, name) or field with what it requires.
struct NxdlNode {
    bool group = false;
    std::string type, name;
    bool required = true;
    bool hasUnits = false;
    std::vector<std::string> attributes;
    std::vector<NxdlNode> children;
};

NxdlNode parseElement(QXmlStreamReader& xml) {
    NxdlNode node;
    const auto a = xml.attributes();
    node.group = xml.name() == u"group" || xml.name() == u"definition";
    node.type = a.value("type").toString().toStdString();
    node.name = a.value("name").toString().toStdString();
    node.required = a.value("minOccurs") != u"0" && !a.hasAttribute("deprecated");
    node.hasUnits = a.hasAttribute("units");
    while (xml.readNextStartElement()) {
        if (xml.name() == u"group" || xml.name() == u"field")
            node.children.push_back(parseElement(xml));
        else if (xml.name() == u"attribute")
            node.attributes.push_back(xml.attributes().value("name").toString().toStdString()),
                xml.skipCurrentElement();
        else
            xml.skipCurrentElement();
    }
    return node;
}

NxdlNode readNxdl(const std::string& file) {
    QFile in(QString::fromStdString(file));
    if (!in.open(QIODevice::ReadOnly)) return {};
    QXmlStreamReader xml(&in);
    xml.readNextStartElement(); // <definition>
    return parseElement(xml);
}

// The file's group for an NXDL group under `parent`: by name, else by NX_class.
std::string findGroup(const H5Reader& f, const std::string& parent, const NxdlNode& g) {
    const std::string prefix = parent == "/" ? "/" : parent + "/";
    if (!g.name.empty()) return f.hasObject(prefix + g.name) ? prefix + g.name : "";
    for (const H5Node& node : f.children(parent))
        if (node.kind == H5Node::Group && node.attributes.count("NX_class") &&
            node.attributes.at("NX_class") == g.type)
            return node.path;
    return "";
}

// Every required group and field of `def` under `path`, units on those with units, the
// attributes the definition gives each field written; returns the names checked.
int checkAgainst(const H5Reader& f, const std::string& path, const NxdlNode& def,
                 std::vector<std::string>& missing) {
    int checked = 0;
    for (const NxdlNode& child : def.children) {
        if (child.group) {
            const std::string found = findGroup(f, path, child);
            if (found.empty() && child.required) missing.push_back(path + " " + child.type);
            if (!found.empty()) checked += 1 + checkAgainst(f, found, child, missing);
            continue;
        }
        const std::string field = (path == "/" ? "/" : path + "/") + child.name;
        if (!f.hasDataset(field)) {
            if (child.required) missing.push_back(field);
            continue;
        }
        ++checked;
        const auto attributes = attributesOf(f, field);
        if (child.hasUnits && !attributes.count("units")) missing.push_back(field + "@units");
        for (const std::string& a : child.attributes)
            if (!attributes.count(a)) missing.push_back(field + "@" + a);
    }
    return checked;
}

} // namespace

class TestXpcsLayouts : public QObject {
    Q_OBJECT
  private slots:
    void apsHasEveryPathTheViewersRead();
    void apsMultitauWithTwotimeMaps();
    void apsOpensInH5pyAsTheViewersRead();
    void nxxpcsHasEveryRequiredName();
    void layoutThatCannotHoldTheRunWritesNothing();
    void layoutsReadBackAsTheRun();
    void apsFileOfAnotherWriterReads();
};

void TestXpcsLayouts::apsHasEveryPathTheViewersRead() {
    QTemporaryDir dir;
    const std::string input = writeInput(dir);
    const QString own = dir.filePath("own.h5"), aps = dir.filePath("aps.h5");
    QCOMPARE(correlate(input, own, {}).code, 0);
    const auto run = correlate(input, aps, {"--layout", "aps"});
    QVERIFY2(run.code == 0, qPrintable(run.err));
    const H5Reader o(own.toStdString()), f(aps.toStdString());
    const std::size_t bins = o.info("/xpcs/labels").shape[0], lags = 63, h = 24, w = 28;
    QVERIFY(f.hasObject("/entry/instrument/bluesky/metadata"));
    expectDataset(f, "/entry/start_time", {}, "string");
    for (const char* name : {"frame_time", "count_time"}) {
        const std::string path = std::string("/entry/instrument/detector_1/") + name;
        expectDataset(f, path, {}, "float64");
        expectUnits(f, path, "s");
        QCOMPARE(f.readScalar(path), 1e-3);
    }
    for (const char* name : {"x_pixel_size", "y_pixel_size"})
        expectUnits(f, std::string("/entry/instrument/detector_1/") + name, "m");
    const std::string energy = "/entry/instrument/incident_beam/incident_energy";
    expectUnits(f, energy, "keV");
    QVERIFY(std::abs(f.readScalar(energy) - 12.398 / 1.0) < 0.01); // 1 Å
    // The 17 keys of the q map.
    const std::string q = "/xpcs/qmap/";
    for (const char* map : {"mask", "dynamic_roi_map", "static_roi_map"})
        QCOMPARE(f.info(q + map).shape, (Shape{h, w}));
    expectDataset(f, q + "dynamic_roi_map", {h, w}, "int32");
    for (const char* kind : {"dynamic", "static"}) {
        const std::string k = q + kind;
        expectDataset(f, k + "_v_list_dim0", {bins}, "float64");
        expectUnits(f, k + "_v_list_dim0", "1/angstrom");
        expectDataset(f, k + "_v_list_dim1", {1}, "float64");
        expectDataset(f, k + "_index_mapping", {bins}, "int64");
        expectDataset(f, k + "_num_pts", {2}, "int64");
        QCOMPARE(values(f, k + "_num_pts"), (std::vector<double>{double(bins), 1}));
    }
    const std::vector<double> binQ = values(f, q + "dynamic_v_list_dim0");
    const std::vector<double> expectedQ = inputQ(input, values(o, "/xpcs/labels"));
    for (std::size_t b = 0; b < bins; ++b)
        QVERIFY(std::abs(binQ[b] - expectedQ[b]) <= 1e-12 * expectedQ[b]);
    for (const char* scalar : {"beam_center_x", "beam_center_y", "detector_distance", "pixel_size"})
        expectDataset(f, q + scalar, {}, "float64");
    expectDataset(f, q + "map_names", {2}, "string");
    expectDataset(f, q + "map_units", {2}, "string");
    QVERIFY(attributesOf(f, "/xpcs/qmap").count("hash"));
    // g2 (delays × bins) equal to clscope's own (bins × lags, lag 0 first), delays in frames.
    const std::string m = "/xpcs/multitau/";
    expectDataset(f, m + "normalized_g2", {lags, bins}, "float64");
    expectDataset(f, m + "normalized_g2_err", {lags, bins}, "float64");
    expectDataset(f, m + "delay_list", {lags}, "int64");
    expectDataset(f, m + "config/stride_frame", {}, "int64");
    expectDataset(f, m + "config/avg_frame", {}, "int64");
    const auto g2 = values(f, m + "normalized_g2"), err = values(f, m + "normalized_g2_err");
    const auto ownG2 = values(o, "/xpcs/g2"), ownErr = values(o, "/xpcs/g2_err");
    const auto delays = values(f, m + "delay_list"), tau = values(o, "/xpcs/tau");
    for (std::size_t i = 0; i < lags; ++i) {
        QCOMPARE(delays[i] * 1e-3, tau[i + 1]); // the viewers' t_el = delay × frame_time
        for (std::size_t b = 0; b < bins; ++b) {
            QCOMPARE(g2[i * bins + b], ownG2[b * 64 + i + 1]);
            QCOMPARE(err[i * bins + b], ownErr[b * 64 + i + 1]);
        }
    }
    expectDataset(f, "/xpcs/spatial_mean/intensity_vs_time", {2, 64}, "float64");
    expectDataset(f, "/xpcs/temporal_mean/scattering_2d", {1, h, w}, "float32");
    expectDataset(f, "/xpcs/temporal_mean/scattering_1d", {1, bins}, "float64");
    expectDataset(f, "/xpcs/temporal_mean/scattering_1d_segments", {10, bins}, "float64");
    QVERIFY(!f.hasObject("/xpcs/twotime"));
}

void TestXpcsLayouts::apsMultitauWithTwotimeMaps() {
    QTemporaryDir dir;
    const std::string input = writeInput(dir);
    const QString own = dir.filePath("own.h5"), aps = dir.filePath("aps.h5");
    const QStringList options{"--multitau", "--channels",    "8", "--twotime",
                              "1,2",        "--twotime-bin", "2"};
    QCOMPARE(correlate(input, own, options).code, 0);
    const auto run = correlate(input, aps, options + QStringList{"--layout", "aps"});
    QVERIFY2(run.code == 0, qPrintable(run.err));
    const H5Reader o(own.toStdString()), f(aps.toStdString());
    const auto lagFrames = values(o, "/xpcs/lag_frames");
    const auto delays = values(f, "/xpcs/multitau/delay_list");
    QCOMPARE(delays, std::vector<double>(lagFrames.begin() + 1, lagFrames.end()));
    const std::string t = "/xpcs/twotime/";
    expectDataset(f, t + "correlation_map/c2_00001", {32, 32}, "float32");
    expectDataset(f, t + "correlation_map/c2_00002", {32, 32}, "float32");
    expectDataset(f, t + "normalized_g2", {32, 2}, "float64");
    expectDataset(f, t + "normalized_g2_segments", {6, 5, 2}, "float64");
    expectDataset(f, t + "processed_bins", {2}, "int32");
    QCOMPARE(f.read(t + "config/avg_frame", DType::Int64).as<std::int64_t>()[0], std::int64_t(2));
    // The upper half of clscope's map (the viewers add its transpose).
    const auto c2 = values(f, t + "correlation_map/c2_00001");
    const auto map = values(o, "/xpcs/twotime/1");
    for (std::size_t i = 0; i < 32; ++i)
        for (std::size_t j = 0; j < 32; ++j)
            QCOMPARE(c2[i * 32 + j], j >= i ? map[i * 32 + j] : 0.0);
}

void TestXpcsLayouts::apsOpensInH5pyAsTheViewersRead() {
    const QString python = qEnvironmentVariable("CLSCOPE_PYTHON");
    if (python.isEmpty() || QProcess::execute(python, {"-c", "import h5py, numpy"}) != 0)
        QSKIP("python3-h5py not available");
    QTemporaryDir dir;
    const std::string input = writeInput(dir);
    const QString own = dir.filePath("own.h5"), aps = dir.filePath("aps.h5");
    QCOMPARE(correlate(input, own, {"--twotime", "1"}).code, 0);
    QCOMPARE(correlate(input, aps, {"--twotime", "1", "--layout", "aps"}).code, 0);
    const auto check =
        test::runProgram(python,
                         {QString::fromStdString(test::dataFile("../check_aps_layout.py")), aps,
                          own, QString::fromStdString(input)},
                         {}, 60000);
    QVERIFY2(check.code == 0, qPrintable(check.out + check.err));
    QVERIFY2(check.out.contains("aps layout ok"), qPrintable(check.out));
}

void TestXpcsLayouts::nxxpcsHasEveryRequiredName() {
    QTemporaryDir dir;
    const std::string input = writeInput(dir);
    const QString own = dir.filePath("own.h5"), nx = dir.filePath("nx.h5");
    QCOMPARE(correlate(input, own, {"--twotime", "1"}).code, 0);
    const auto run = correlate(input, nx, {"--twotime", "1", "--layout", "nxxpcs"});
    QVERIFY2(run.code == 0, qPrintable(run.err));
    const H5Reader o(own.toStdString()), f(nx.toStdString());
    const NxdlNode definition = readNxdl(test::dataFile("NXxpcs.nxdl.xml"));
    QCOMPARE(definition.children.size(), std::size_t(2)); // NXentry and NXprocess
    std::vector<std::string> missing;
    const int checked = checkAgainst(f, "/", definition, missing);
    std::string text;
    for (const std::string& m : missing)
        text += m + " ";
    QVERIFY2(missing.empty(), text.c_str());
    QVERIFY2(checked >= 25, std::to_string(checked).c_str());
    QCOMPARE(attributesOf(f, "/entry/data/g2").at("storage_mode"), std::string("one_array"));
    QCOMPARE(f.info("/entry/data/delay_difference").typeName, std::string("int64"));
    expectUnits(f, "/entry/data/delay_difference", "frames");
    expectUnits(f, "/entry/instrument/detector_1/frame_time", "s");
    expectUnits(f, "/entry/instrument/masks/dynamic_q_list", "1/angstrom");
    const std::size_t bins = o.info("/xpcs/labels").shape[0];
    QCOMPARE(f.info("/entry/data/g2").shape, (Shape{63, bins}));
    const auto g2 = values(f, "/entry/data/g2"), ownG2 = values(o, "/xpcs/g2");
    for (std::size_t b = 0; b < bins; ++b)
        QCOMPARE(g2[5 * bins + b], ownG2[b * 64 + 6]);
    QCOMPARE(f.info("/entry/twotime/two_time_corr_func").shape, (Shape{1, 64, 64}));
}

// No q table for the bins: --layout aps is a usage error that names it; nothing is written.
void TestXpcsLayouts::layoutThatCannotHoldTheRunWritesNothing() {
    QTemporaryDir dir;
    const std::string input = writeInput(dir, false);
    const QString out = dir.filePath("aps.h5");
    const auto run = correlate(input, out, {"--layout", "aps"});
    QCOMPARE(run.code, 2);
    QVERIFY2(run.err.contains("q of every bin") && run.err.contains("geometry"),
             qPrintable(run.err));
    QVERIFY(!QFile::exists(out));
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files).size(), 1); // the input alone
    const auto unknown = correlate(input, out, {"--layout", "dials"});
    QCOMPARE(unknown.code, 2);
}

QTEST_GUILESS_MAIN(TestXpcsLayouts)
namespace {

// The xpcs result File ▸ Open shows for a file (the registry's reader), as clscope's own type.
std::shared_ptr<xpcs::XpcsResult> readBack(const QString& file) {
    const H5Reader f(file.toStdString());
    const Algorithm* a = AlgorithmRegistry::instance().resultIn(f);
    if (!a || a->id() != "xpcs") return nullptr;
    return std::dynamic_pointer_cast<xpcs::XpcsResult>(a->readResult(f));
}

} // namespace

// A run written in the aps and nxxpcs layouts opens as an xpcs result with the run's numbers:
// g2 and g2_err of every lag but 0, τ in seconds, labels, pixels and q of each bin.
void TestXpcsLayouts::layoutsReadBackAsTheRun() {
    QTemporaryDir dir;
    const std::string input = writeInput(dir);
    const QString own = dir.filePath("own.h5");
    const QStringList options{"--g2-normalisation", "symmetric"};
    QCOMPARE(correlate(input, own, options).code, 0);
    const auto ran = readBack(own);
    QVERIFY(ran);
    const xpcs::Result& r = ran->result;
    for (const char* layout : {"aps", "nxxpcs"}) {
        const QString file = dir.filePath(QString("%1.h5").arg(layout));
        const auto run = correlate(input, file, options + QStringList{"--layout", layout});
        QVERIFY2(run.code == 0, qPrintable(run.err));
        const auto read = readBack(file);
        QVERIFY2(read, layout);
        const xpcs::Result& g = read->result;
        QCOMPARE(g.labels, r.labels);
        QCOMPARE(g.pixels, r.pixels);
        QCOMPARE(g.frames, r.frames - 1);
        QVERIFY(g.tauInSeconds && g.multitau);
        QCOMPARE(g.normalisation, xpcs::Normalisation::Symmetric);
        for (std::size_t b = 0; b < r.binCount(); ++b) {
            QCOMPARE(read->qByLabel.at(r.labels[b]), ran->qByLabel.at(r.labels[b]));
            for (std::size_t j = 0; j < g.frames; ++j) {
                QCOMPARE(g.g2At(b, j), r.g2At(b, j + 1));
                QCOMPARE(g.g2ErrAt(b, j), r.g2ErrAt(b, j + 1));
                QVERIFY(std::abs(g.tau[j] - r.tau[j + 1]) <= 1e-15);
            }
        }
    }
}

// An APS file as boost_corr writes it, by h5py: scalars of shape (1,1), two φ per q, g2 columns
// of the non-empty bins only (dynamic_index_mapping), frames averaged by 2, no normalisation
// named (boost_corr's symmetric one).
void TestXpcsLayouts::apsFileOfAnotherWriterReads() {
    const QString python = qEnvironmentVariable("CLSCOPE_PYTHON");
    if (python.isEmpty() || QProcess::execute(python, {"-c", "import h5py, numpy"}) != 0)
        QSKIP("python3-h5py not available");
    QTemporaryDir dir;
    const QString file = dir.filePath("boost_corr.h5");
    const QString script = R"(
import sys, h5py, numpy as np
with h5py.File(sys.argv[1], "w") as f:
    f["/entry/instrument/detector_1/frame_time"] = np.array([[0.001]])
    f["/xpcs/multitau/config/avg_frame"] = np.array([[2]])
    f["/xpcs/multitau/config/stride_frame"] = np.array([[1]])
    f["/xpcs/multitau/delay_list"] = np.array([[1, 2, 3, 4, 6, 8]], dtype=np.float64)
    g2 = 1 + 0.3 * np.exp(-np.outer(np.array([1, 2, 3, 4, 6, 8.]), [0.1, 0.2, 0.4]))
    f["/xpcs/multitau/normalized_g2"] = g2
    f["/xpcs/multitau/normalized_g2_err"] = g2 * 0.01
    f["/xpcs/qmap/dynamic_v_list_dim0"] = np.array([0.001, 0.002, 0.003])
    f["/xpcs/qmap/dynamic_v_list_dim1"] = np.array([-90.0, 90.0])
    f["/xpcs/qmap/dynamic_index_mapping"] = np.array([1, 2, 5])
    roi = np.zeros((8, 8), dtype=np.uint32)
    roi[0, :3] = 2; roi[1, :5] = 3; roi[2, :7] = 6
    f["/xpcs/qmap/dynamic_roi_map"] = roi
)";
    const auto wrote = test::runProgram(python, {"-c", script, file}, {}, 60000);
    QVERIFY2(wrote.code == 0, qPrintable(wrote.err));
    const auto read = readBack(file);
    QVERIFY(read);
    const xpcs::Result& g = read->result;
    QCOMPARE(g.labels, (std::vector<std::int32_t>{1, 2, 3}));
    QCOMPARE(g.pixels, (std::vector<std::int64_t>{3, 5, 7}));
    QCOMPARE(g.lagFrames, (std::vector<std::int64_t>{1, 2, 3, 4, 6, 8}));
    QCOMPARE(g.levels, (std::vector<std::int32_t>{0, 0, 0, 0, 1, 1}));
    QCOMPARE(g.tau[4], 6 * 0.002);
    QCOMPARE(g.normalisation, xpcs::Normalisation::Symmetric);
    // natural bins 1, 2, 5 of a 3 (q) x 2 (φ) map: q rows 0, 1, 2
    QCOMPARE(read->qByLabel.at(1), 0.001);
    QCOMPARE(read->qByLabel.at(2), 0.002);
    QCOMPARE(read->qByLabel.at(3), 0.003);
    QCOMPARE(g.g2At(2, 1), 1 + 0.3 * std::exp(-2 * 0.4));
    QCOMPARE(g.g2ErrAt(0, 0), (1 + 0.3 * std::exp(-0.1)) * 0.01);
}

#include "tst_xpcs_layouts.moc"
