// SPDX-License-Identifier: MIT
#include "ui/report/reportwriter.h"

#include "core/io/text_file.h"
#include "core/report/report_html.h"

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

namespace pbx::ui {

namespace {

/// Layout resolution: CSS px, so the HTML's sizes mean what they mean in a browser.
constexpr int kDpi = 96;
constexpr double kHeaderHeight = 34.0;
constexpr double kFooterHeight = 26.0;
/// Charts are rendered at this multiple of their nominal size so they stay sharp when printed.
constexpr double kChartOversampling = 2.0;

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

Result<QByteArray> pdfBytes(const report::SessionReport &report)
{
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
        QPainter painter;
        if (!painter.begin(&writer))
            return makeError(ErrorCode::Io, "the PDF could not be started");
        for (int i = 0; i < count; ++i) {
            if (i > 0)
                writer.newPage();
            paintPage(painter, *doc, report, page, i, count);
        }
        painter.end();
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
    doc->setHtml(toQString(report::reportHtml(report, options)));
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

Result<void> writeReportFile(const report::SessionReport &report, const QString &path)
{
    auto format = reportFormatFor(path);
    if (!format)
        return format.error();
    if (*format == ReportFormat::Html)
        return io::writeTextFileAtomically(path.toStdString(), report::reportHtml(report));
    GuiForPrinting gui;
    auto bytes = pdfBytes(report);
    if (!bytes)
        return bytes.error();
    return io::writeTextFileAtomically(path.toStdString(), bytes->toStdString());
}

} // namespace pbx::ui
