#include "ui/results/export.hpp"

#include "core/errors.hpp"
#include "core/hdf5.hpp"

#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QPdfWriter>
#include <qcustomplot.h>

namespace clscope::ui {

namespace {

// The provenance as an XMP packet: title, creator tool and the fields as the description.
QByteArray xmpPacket(const QString& title, const ProvenanceFields& provenance) {
    const QString packet =
        "<?xpacket begin='' id='W5M0MpCehiHzreSzNTczkc9d'?>"
        "<x:xmpmeta xmlns:x='adobe:ns:meta/'><rdf:RDF "
        "xmlns:rdf='http://www.w3.org/1999/02/22-rdf-syntax-ns#'>"
        "<rdf:Description rdf:about='' xmlns:dc='http://purl.org/dc/elements/1.1/' "
        "xmlns:xmp='http://ns.adobe.com/xap/1.0/'>"
        "<dc:title><rdf:Alt><rdf:li xml:lang='x-default'>%1</rdf:li></rdf:Alt></dc:title>"
        "<dc:description><rdf:Alt><rdf:li xml:lang='x-default'>%2</rdf:li></rdf:Alt>"
        "</dc:description><xmp:CreatorTool>clscope %3</xmp:CreatorTool>"
        "</rdf:Description></rdf:RDF></x:xmpmeta><?xpacket end='w'?>";
    return packet
        .arg(title.toHtmlEscaped(), provenanceText(provenance).toHtmlEscaped(),
             QString::fromStdString(clscopeVersion()))
        .toUtf8();
}

// One page of width × height pixels at the plot's screen resolution, drawn as vectors.
bool savePdf(QCustomPlot& plot, const QString& path, int width, int height,
             const ProvenanceFields& provenance, const QString& title) {
    const int dpi = plot.logicalDpiX() > 0 ? plot.logicalDpiX() : 96;
    QPdfWriter writer(path);
    writer.setCreator("clscope " + QString::fromStdString(clscopeVersion()));
    writer.setTitle(title);
    writer.setDocumentXmpMetadata(xmpPacket(title, provenance));
    writer.setResolution(dpi);
    const QSizeF points(width * 72.0 / dpi, height * 72.0 / dpi);
    writer.setPageLayout(QPageLayout(QPageSize(points, QPageSize::Point, {}, QPageSize::ExactMatch),
                                     QPageLayout::Portrait, QMarginsF()));
    QCPPainter painter;
    if (!painter.begin(&writer)) return false;
    painter.setMode(QCPPainter::pmVectorized);
    plot.toPainter(&painter, width, height);
    return painter.end();
}

bool saveImage(QCustomPlot& plot, const QString& path, int width, int height,
               const ProvenanceFields& provenance, const char* format) {
    QImage image = plot.toPixmap(width, height).toImage();
    setImageProvenance(image, provenance);
    // Qt's PNG quality is the inverse of zlib's level (95 stored a plot almost uncompressed,
    // 1.15 MB where the default level gives 80 KB): the default for PNG, 95 for JPEG.
    return image.save(path, format, QByteArray(format) == "PNG" ? -1 : 95);
}

} // namespace

void exportPlot(QCustomPlot& plot, const QString& path, int width, int height,
                const ProvenanceFields& provenance, const QString& title) {
    const QString suffix = QFileInfo(path).suffix().toLower();
    bool ok = false;
    if (suffix == "png")
        ok = saveImage(plot, path, width, height, provenance, "PNG");
    else if (suffix == "pdf")
        ok = savePdf(plot, path, width, height, provenance, title);
    else if (suffix == "jpg" || suffix == "jpeg")
        ok = saveImage(plot, path, width, height, provenance, "JPG");
    else
        throw UsageError("cannot export a plot as '" + suffix.toStdString() +
                         "': use .png, .pdf or .jpg");
    if (!ok) throw InputError(path.toStdString() + ": could not write the plot");
}

void writeTextFile(const QString& path, const std::string& text) {
    // Write beside the target, then rename: never a half-written file.
    const QString temp = path + ".part";
    QFile file(temp);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
        throw InputError(path.toStdString() +
                         ": cannot write: " + file.errorString().toStdString());
    file.write(text.data(), static_cast<qint64>(text.size()));
    file.close();
    QFile::remove(path);
    if (!QFile::rename(temp, path))
        throw InputError(path.toStdString() + ": cannot rename the written file");
}

void exportHdf5(const QString& path, const std::vector<std::function<void(H5Writer&)>>& writers,
                const ProvenanceFields& provenance) {
    if (writers.empty()) throw UsageError("there are no results to export");
    H5Writer out(path.toStdString());
    for (const auto& write : writers)
        write(out);
    writeProvenanceAttributes(out, provenance);
    out.commit();
}

} // namespace clscope::ui
