// SPDX-License-Identifier: MIT
#include "ui/report/reportwriter.h"

#include "core/io/text_file.h"
#include "core/report/report_html.h"
#include "core/util/try.h"

#include <QAbstractTextDocumentLayout>
#include <QBuffer>
#include <QFileInfo>
#include <QGuiApplication>
#include <QPageLayout>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QSvgRenderer>
#include <QTextDocument>
#include <QUrl>

#include <algorithm>
#include <cmath>
#include <optional>
#include <string_view>

namespace pbx::ui {

namespace {

/// Layout resolution: CSS px, so the HTML's sizes mean what they mean in a browser.
constexpr int kDpi = 96;
constexpr double kHeaderHeight = 34.0;
constexpr double kFooterHeight = 26.0;
/// Charts are rendered at this multiple of their nominal size so they stay sharp when printed.
constexpr double kChartOversampling = 2.0;

/// Requests printed in the PDF's requests table; beyond it a note says how many are left out
/// (the HTML report and the transcript list every one). 10⁴ requests took 149 s and
/// 334 MB as one table.
constexpr std::size_t kMaxPdfRequests = 200;
/// The PDF's requests table is cut into tables of this many requests, each with the header row:
/// QTextDocument lays out and paints one huge table in time quadratic in its rows.
constexpr std::size_t kPdfRequestsPerTable = 50;

QString toQString(const std::string &s)
{
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

QImage renderSvg(const report::ReportChart &chart)
{
    QSvgRenderer renderer(QByteArray::fromStdString(chart.svg));
    QImage image(static_cast<int>(std::lround(chart.width * kChartOversampling)),
                 static_cast<int>(std::lround(chart.height * kChartOversampling)), QImage::Format_ARGB32);
    image.fill(Qt::white);
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    renderer.render(&painter);
    return image;
}

/// Lays out `doc` on pages of `page` px and paints page `index` with its header and footer.
void paintPage(QPainter &painter, QTextDocument &doc, const report::SessionReport &report, const QRectF &page,
               int index, int count)
{
    const double bodyHeight = page.height() - kHeaderHeight - kFooterHeight;
    QFont small = doc.defaultFont();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    painter.save();
    painter.setFont(small);
    const QString title
        = QStringLiteral("Privacy Budget Explorer — session report: %1").arg(toQString(report.datasetName));
    if (report.seeded()) {
        const QRectF band(0, 0, page.width(), kHeaderHeight - 8);
        painter.fillRect(band, QColor(0xff, 0xf0, 0xc0));
        painter.setPen(QColor(0x8a, 0x3b, 0x00));
        QFont bold = small;
        bold.setBold(true);
        painter.setFont(bold);
        painter.drawText(band.adjusted(6, 0, -6, 0), Qt::AlignVCenter | Qt::AlignLeft,
                         QStringLiteral("⚠ ") + toQString(report::kSeededMark));
        painter.setFont(small);
    } else {
        painter.setPen(QColor(0x55, 0x55, 0x55));
        painter.drawText(QRectF(0, 0, page.width(), kHeaderHeight - 8), Qt::AlignVCenter | Qt::AlignLeft,
                         title);
    }
    painter.setPen(QColor(0x99, 0x99, 0x99));
    painter.drawLine(QPointF(0, kHeaderHeight - 4), QPointF(page.width(), kHeaderHeight - 4));
    const QRectF footer(0, page.height() - kFooterHeight + 6, page.width(), kFooterHeight - 6);
    painter.setPen(QColor(0x55, 0x55, 0x55));
    painter.drawText(footer, Qt::AlignVCenter | Qt::AlignRight,
                     QStringLiteral("page %1 of %2").arg(index + 1).arg(count));
    if (report.seeded()) {
        painter.setPen(QColor(0x8a, 0x3b, 0x00));
        painter.drawText(footer, Qt::AlignVCenter | Qt::AlignLeft,
                         QStringLiteral("Not for real releases: seeded noise"));
    } else {
        painter.drawText(footer, Qt::AlignVCenter | Qt::AlignLeft, title);
    }
    painter.restore();

    painter.save();
    painter.translate(0, kHeaderHeight - index * bodyHeight);
    doc.drawContents(&painter, QRectF(0, index * bodyHeight, page.width(), bodyHeight));
    painter.restore();
}

/// A QGuiApplication for the PDF's fonts, made only when none exists (pbx-cli).
class GuiForPrinting
{
public:
    GuiForPrinting()
    {
        if (QCoreApplication::instance())
            return;
        if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
            qputenv("QT_QPA_PLATFORM", "offscreen");
        // The offscreen platform warns that XDG_RUNTIME_DIR is unset; a report needs no runtime
        // folder, and pbx-cli's standard error is for the command's own one-line messages.
        m_previous = qInstallMessageHandler(&quietRuntimeDir);
        m_app.emplace(m_argc, m_argv);
    }
    ~GuiForPrinting()
    {
        if (m_app)
            qInstallMessageHandler(m_previous);
    }
    GuiForPrinting(const GuiForPrinting &) = delete;
    GuiForPrinting &operator=(const GuiForPrinting &) = delete;

private:
    int m_argc = 1;
    char m_name[8] = "pbx-cli";
    char *m_argv[2] = {m_name, nullptr};
    QtMessageHandler m_previous = nullptr;
    std::optional<QGuiApplication> m_app;

    static void quietRuntimeDir(QtMsgType type, const QMessageLogContext &context, const QString &message)
    {
        if (message.contains(QLatin1String("XDG_RUNTIME_DIR")))
            return;
        qt_message_output(type, context, message);
    }
};

Result<QByteArray> pdfBytes(const report::SessionReport &report, const ReportProgress &progress)
{
    const auto cancelled
        = [] { return makeError(ErrorCode::Cancelled, "the report was cancelled; nothing written"); };
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    {
        QPdfWriter writer(&buffer);
        writer.setResolution(kDpi);
        writer.setPageLayout(QPageLayout(QPageSize(QPageSize::A4), QPageLayout::Portrait,
                                         QMarginsF(14, 12, 14, 12), QPageLayout::Millimeter));
        writer.setTitle(QStringLiteral("Session report: %1").arg(toQString(report.datasetName)));
        writer.setCreator(QStringLiteral("Privacy Budget Explorer"));
        const QRectF page = QRectF(QPointF(0, 0), writer.pageLayout().paintRectPixels(kDpi).size());
        auto doc = reportTextDocument(report, page.width());
        doc->documentLayout()->setPaintDevice(&writer);
        doc->setPageSize(QSizeF(page.width(), page.height() - kHeaderHeight - kFooterHeight));
        const int count = doc->pageCount();
        if (progress && !progress(0.1))
            return cancelled();
        QPainter painter;
        if (!painter.begin(&writer))
            return makeError(ErrorCode::Io, "the PDF could not be started");
        for (int i = 0; i < count; ++i) {
            if (i > 0)
                writer.newPage();
            paintPage(painter, *doc, report, page, i, count);
            if (progress && !progress(0.1 + 0.9 * (i + 1) / count)) {
                painter.end();
                return cancelled();
            }
        }
        if (!painter.end())
            return makeError(ErrorCode::Io, "the PDF could not be finished");
    }
    return bytes;
}

} // namespace

Result<ReportFormat> reportFormatFor(const QString &path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("html") || suffix == QLatin1String("htm"))
        return ReportFormat::Html;
    if (suffix == QLatin1String("pdf"))
        return ReportFormat::Pdf;
    return makeError(ErrorCode::InvalidArgument,
                     "report file " + path.toStdString() + ": the name must end in .html or .pdf");
}

namespace {

/// Whether `line` starts a request's row of the requests table (its "#" cell, of class "n"), not
/// one of the full-width rows under it (which start with an empty cell).
bool startsRequestRow(std::string_view line)
{
    return line.starts_with("<tr><td class=\"n\">");
}

/// The requests table of report::reportHtml cut into tables of kPdfRequestsPerTable requests
/// (each with the header row), and at most kMaxPdfRequests requests, a note saying how many are
/// left out. The table is found by its heading and its lines (one per row; the table's own
/// "</table>" on a line of its own); HTML without it is returned unchanged.
std::string paginateRequests(const std::string &html, std::size_t requests)
{
    const std::size_t heading = html.find("<h2>Requests</h2>");
    if (heading == std::string::npos)
        return html;
    const std::size_t open = html.find("<table", heading);
    const std::size_t headerStart = open == std::string::npos ? open : html.find("\n", open);
    const std::size_t headerEnd
        = headerStart == std::string::npos ? headerStart : html.find("\n", headerStart + 1);
    const std::size_t close
        = headerEnd == std::string::npos ? headerEnd : html.find("\n</table>\n", headerEnd);
    if (close == std::string::npos)
        return html;
    const std::string tableOpen = html.substr(open, headerStart + 1 - open);
    const std::string header = html.substr(headerStart + 1, headerEnd - headerStart);
    std::string out = html.substr(0, headerEnd + 1);
    std::size_t seen = 0;
    for (std::size_t at = headerEnd + 1; at <= close;) {
        const std::size_t end = html.find('\n', at);
        const std::string_view line(html.data() + at, end - at + 1);
        at = end + 1;
        if (startsRequestRow(line)) {
            if (seen == kMaxPdfRequests)
                break;
            if (seen > 0 && seen % kPdfRequestsPerTable == 0)
                out += "</table>\n" + tableOpen + header;
            ++seen;
        }
        out += line;
    }
    out += "</table>\n";
    if (requests > seen)
        out += "<p class=\"unavailable\"><i>This PDF lists the first " + std::to_string(seen) + " of "
               + std::to_string(requests) + " requests; the other " + std::to_string(requests - seen)
               + " are in the HTML report and in the transcript.</i></p>\n";
    out += html.substr(close + std::string_view("\n</table>\n").size());
    return out;
}

} // namespace

std::unique_ptr<QTextDocument> reportTextDocument(const report::SessionReport &report, double pageWidth)
{
    report::HtmlOptions options;
    options.charts = report::HtmlOptions::ChartMode::ImageReferences;
    options.seededBanner = false; // every page's header carries it
    options.maxChartWidth = pageWidth - 16.0;
    auto doc = std::make_unique<QTextDocument>();
    QFont font(QStringLiteral("DejaVu Sans"));
    font.setPointSizeF(8.5);
    doc->setDefaultFont(font);
    for (const auto &chart : report::reportCharts(report))
        doc->addResource(QTextDocument::ImageResource, QUrl(toQString("pbx-chart:" + chart.name)),
                         renderSvg(chart));
    doc->setHtml(toQString(paginateRequests(report::reportHtml(report, options), report.events.size())));
    return doc;
}

QImage renderReportPage(const report::SessionReport &report, int page, QSize size, int *pageCount)
{
    // The A4 paint rect at kDpi, as in the PDF, scaled onto the image.
    const QPageLayout layout(QPageSize(QPageSize::A4), QPageLayout::Portrait, QMarginsF(14, 12, 14, 12),
                             QPageLayout::Millimeter);
    const QRectF rect(QPointF(0, 0), layout.paintRectPixels(kDpi).size());
    auto doc = reportTextDocument(report, rect.width());
    doc->setPageSize(QSizeF(rect.width(), rect.height() - kHeaderHeight - kFooterHeight));
    const int count = doc->pageCount();
    if (pageCount)
        *pageCount = count;
    QImage image(size, QImage::Format_ARGB32);
    image.fill(Qt::white);
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setRenderHint(QPainter::TextAntialiasing);
    const double scale = std::min(size.width() / rect.width(), size.height() / rect.height());
    painter.translate((size.width() - rect.width() * scale) / 2, (size.height() - rect.height() * scale) / 2);
    painter.scale(scale, scale);
    painter.fillRect(rect, Qt::white);
    if (page >= 0 && page < count)
        paintPage(painter, *doc, report, rect, page, count);
    return image;
}

Result<void> writeReportFile(const report::SessionReport &report, const QString &path,
                             const ReportProgress &progress)
{
    PBX_TRY(format, reportFormatFor(path));
    if (format == ReportFormat::Html)
        return io::writeTextFileAtomically(path.toStdString(), report::reportHtml(report));
    GuiForPrinting gui;
    PBX_TRY(bytes, pdfBytes(report, progress));
    return io::writeTextFileAtomically(path.toStdString(), bytes.toStdString());
}

} // namespace pbx::ui
