// SPDX-License-Identifier: MIT
// Every chart is a picture you can keep: a lab chart, a comparison chart and the budget
// gauge exported to PNG (at the asked pixel size), SVG (well-formed XML holding the title, the axis
// titles and the legend) and PDF (a "%PDF-" file); the right-click menu with its four actions; the
// PNG size dialog; and presentation mode, which scales the application font and every chart's
// fonts and lines, live and back. The main window's charts are exported at 1024 × 700 and
// 1920 × 1080 into the screenshot folder (export-*.png/svg/pdf, the SVGs also drawn to PNG by
// QSvgRenderer) for a look by eye.
#include "ui/appsettings.h"
#include "ui/charts/chartexport.h"
#include "ui/charts/comparisoncharts.h"
#include "ui/charts/labchart.h"
#include "ui/charts/presentation.h"
#include "ui/charts/unitsquarechart.h"
#include "ui/mainwindow.h"
#include "ui/risk/privacyriskview.h"
#include "ui/widgets/budgetgauge.h"
#include "uitestutils.h"

#include <QAbstractAxis>
#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QClipboard>
#include <QContextMenuEvent>
#include <QDockWidget>
#include <QFile>
#include <QFileInfo>
#include <QGroupBox>
#include <QImage>
#include <QLegend>
#include <QMenu>
#include <QPainter>
#include <QRegularExpression>
#include <QSpinBox>
#include <QStandardPaths>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QVBoxLayout>
#include <QValueAxis>
#include <QXYSeries>

#include <csignal>

#include <QXmlStreamReader>
#include <QtTest/QtTest>
#include <sys/resource.h>

#include <cmath>
#include <memory>

using namespace pbx;
using namespace pbx::ui;

namespace {

struct SvgContent
{
    bool wellFormed = false;
    QString error;
    QString text; ///< every character node, joined
};

SvgContent readSvg(const QString &path)
{
    SvgContent out;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        out.error = QStringLiteral("cannot open");
        return out;
    }
    QXmlStreamReader xml(&file);
    bool sawSvg = false;
    while (!xml.atEnd()) {
        xml.readNext();
        if (xml.isStartElement() && xml.name() == QStringLiteral("svg"))
            sawSvg = true;
        if (xml.isCharacters())
            out.text += xml.text().toString();
    }
    out.wellFormed = sawSvg && !xml.hasError();
    out.error = xml.errorString();
    return out;
}

/// `text` contains `part`, ignoring white space (SVG text is split where the font changes, e.g.
/// around Greek letters, and spaces land on either side of a split).
bool containsText(const QString &text, const QString &part)
{
    const auto squeeze = [](QString s) {
        return s.remove(
            QRegularExpression(QStringLiteral("\\s+"), QRegularExpression::UseUnicodePropertiesOption));
    };
    return squeeze(text).contains(squeeze(part));
}

QByteArray head(const QString &path, int n)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.read(n) : QByteArray();
}

/// The SVG drawn by Qt SVG's renderer at its own size onto white, saved next to it as *-svg.png.
QString renderSvgToPng(const QString &svgPath)
{
    QSvgRenderer renderer(svgPath);
    if (!renderer.isValid())
        return {};
    QImage image(renderer.defaultSize(), QImage::Format_ARGB32);
    image.fill(Qt::white);
    QPainter painter(&image);
    renderer.render(&painter);
    painter.end();
    QString png = svgPath;
    png.replace(QStringLiteral(".svg"), QStringLiteral("-svg.png"));
    return image.save(png) ? png : QString();
}

/// Exports `exporter` to PNG (at `pixels`), SVG and PDF in `dir` under `name`, checks each file and
/// returns the SVG's text.
QString exportAll(const ChartExporter &exporter, const QString &dir, const QString &name, QSize pixels)
{
    const QString base = dir + u'/' + name;
    QString error;
    if (!exporter.savePng(base + QStringLiteral(".png"), pixels, &error))
        qFatal("PNG: %s", qPrintable(error));
    const QImage png(base + QStringLiteral(".png"));
    if (png.size() != pixels)
        qFatal("PNG %s is %dx%d, asked %dx%d", qPrintable(name), png.width(), png.height(), pixels.width(),
               pixels.height());
    if (!exporter.saveSvg(base + QStringLiteral(".svg"), &error))
        qFatal("SVG: %s", qPrintable(error));
    const SvgContent svg = readSvg(base + QStringLiteral(".svg"));
    if (!svg.wellFormed)
        qFatal("SVG %s does not parse: %s", qPrintable(name), qPrintable(svg.error));
    if (!exporter.savePdf(base + QStringLiteral(".pdf"), &error))
        qFatal("PDF: %s", qPrintable(error));
    if (!head(base + QStringLiteral(".pdf"), 5).startsWith("%PDF-")
        || QFileInfo(base + QStringLiteral(".pdf")).size() < 1000)
        qFatal("PDF %s has no PDF header", qPrintable(name));
    renderSvgToPng(base + QStringLiteral(".svg"));
    return svg.text;
}

/// A picture is not blank: some pixels far from white.
int inkPixels(const QImage &image)
{
    int ink = 0;
    for (int y = 0; y < image.height(); y += 2)
        for (int x = 0; x < image.width(); x += 2)
            if (qGray(image.pixel(x, y)) < 128)
                ++ink;
    return ink;
}

LabChart::Curve labCurve(const QString &name, QColor colour, double slope)
{
    LabChart::Curve curve;
    curve.name = name;
    curve.colour = colour;
    for (int k = 1; k <= 20; ++k) {
        curve.epsilon.push_back(0.05 * k);
        curve.answered.push_back(slope * k);
    }
    curve.finalSd = 2.0;
    return curve;
}

QChart *chartOf(QWidget &frame)
{
    auto *view = frame.findChild<QChartView *>();
    return view ? view->chart() : nullptr;
}

} // namespace

class TestChartExport : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    // A lab chart has no title of its own: the group box it sits in heads the picture.
    void labChartWithOuterTitle()
    {
        QGroupBox box(QStringLiteral("Answered counts against ε"));
        auto *chart = new LabChart(&box);
        auto *layout = new QVBoxLayout(&box);
        layout->addWidget(chart);
        const std::vector<LabChart::Curve> curves{labCurve(QStringLiteral("Brownian NR"), Qt::blue, 3.0),
                                                  labCurve(QStringLiteral("Gaussian"), Qt::red, 2.0)};
        chart->setCurves(curves);
        chart->flush();
        box.resize(640, 420);
        box.show();
        QVERIFY(QTest::qWaitForWindowExposed(&box));

        const ChartExporter *exporter = ChartExporter::of(chart);
        QVERIFY(exporter);
        QCOMPARE(exporter->title().text, QStringLiteral("Answered counts against ε"));
        QVERIFY(!exporter->title().drawn);
        QCOMPARE(exporter->fileBaseName(), QStringLiteral("answered-counts-against"));
        const QSize natural = exporter->naturalSize();
        QCOMPARE(natural.width(), chart->width());
        QVERIFY(natural.height() > chart->height()); // + the heading

        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString text = exportAll(*exporter, dir.path(), QStringLiteral("lab"), QSize(1500, 1000));
        QVERIFY2(containsText(text, QStringLiteral("ε spent (mean over repetitions)")), qPrintable(text));
        QVERIFY2(containsText(text, QStringLiteral("answered within target (mean)")), qPrintable(text));
        QVERIFY2(containsText(text, QStringLiteral("Answered counts against ε")), qPrintable(text));
        QVERIFY2(containsText(text, QStringLiteral("Brownian NR"))
                     && containsText(text, QStringLiteral("Gaussian")),
                 qPrintable(text)); // the legend
        QVERIFY(inkPixels(QImage(dir.filePath(QStringLiteral("lab.png")))) > 500);
        // Exporting at another aspect ratio lays the chart out again, then puts it back.
        const QSize before = chart->size();
        const QImage wide = exporter->image(QSize(1920, 600));
        QCOMPARE(wide.size(), QSize(1920, 600));
        QCOMPARE(chart->size(), before);
        QVERIFY(exporter->image(QSize(8, 8)).isNull()); // below 16 px: refused
        for (const QString &name :
             {QStringLiteral("lab.png"), QStringLiteral("lab.svg"), QStringLiteral("lab.pdf")})
            QFile::copy(dir.filePath(name), test::screenshotDir() + QStringLiteral("/export-") + name);
    }

    // A comparison chart draws its own title: no heading is added, the title is in the file.
    void comparisonChart()
    {
        CompositionCurveChart chart;
        std::vector<StrategyCurve> curves;
        for (const QString &name : {QStringLiteral("basic"), QStringLiteral("rdp")}) {
            StrategyCurve c{name, {}, {}};
            for (int k = 1; k <= 10; ++k) {
                c.x.push_back(k);
                c.y.push_back(name == QStringLiteral("basic") ? 0.1 * k : 0.1 * std::sqrt(k * 3.0));
            }
            curves.push_back(c);
        }
        chart.setCurves(curves, QStringLiteral("steps composed k"), 1e-6);
        chart.setBudget(0.8);
        chart.flush();
        chart.resize(560, 400);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        const ChartExporter *exporter = ChartExporter::of(&chart);
        QVERIFY(exporter);
        QVERIFY(exporter->title().drawn);
        QVERIFY(exporter->title().text.startsWith(QStringLiteral("ε after k steps, at δ = ")));
        QCOMPARE(exporter->naturalSize(), chart.size()); // no heading

        QTemporaryDir dir;
        const QString text = exportAll(*exporter, dir.path(), QStringLiteral("comparison"), QSize(800, 300));
        QVERIFY2(containsText(text, QStringLiteral("ε after k steps")), qPrintable(text));
        QVERIFY2(containsText(text, QStringLiteral("steps composed k")), qPrintable(text));
        QVERIFY2(containsText(text, QStringLiteral("Basic composition")), qPrintable(text)); // legend
        QFile::copy(dir.filePath(QStringLiteral("comparison.svg")),
                    test::screenshotDir() + QStringLiteral("/export-comparison.svg"));
        QFile::copy(dir.filePath(QStringLiteral("comparison.png")),
                    test::screenshotDir() + QStringLiteral("/export-comparison-800x300.png"));
    }

    // The gauge is painted, not a Qt chart: its dock's title heads the picture.
    void gauge()
    {
        QDockWidget dock(QStringLiteral("Privacy budget"));
        auto *gauge = new BudgetGauge(&dock);
        dock.setWidget(gauge);
        gauge->setBudget(0.0175, QStringLiteral("ρ"), 1.0, 1e-6);
        gauge->setSpent(0.007, 0.62);
        dock.resize(340, 320);
        dock.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dock));
        const ChartExporter *exporter = ChartExporter::of(gauge);
        QVERIFY(exporter);
        QCOMPARE(exporter->title().text, QStringLiteral("Privacy budget"));

        QTemporaryDir dir;
        const QSize twice = exporter->naturalSize() * 2;
        const QString text = exportAll(*exporter, dir.path(), QStringLiteral("gauge"), twice);
        QVERIFY2(containsText(text, QStringLiteral("Privacy budget")), qPrintable(text));
        QVERIFY2(containsText(text, QStringLiteral("of the ρ budget used")), qPrintable(text));
        QVERIFY2(containsText(text, QStringLiteral("ρ spent")), qPrintable(text));
        // The arc's fill colour is in the PNG, at twice the scale.
        const QImage png(dir.filePath(QStringLiteral("gauge.png")));
        const int headingPx = 2 * (exporter->naturalSize().height() - gauge->height());
        const QPointF onArc = gauge->pointOnRing(BudgetGauge::Ring::Native, 0.2) * 2 + QPointF(0, headingPx);
        QVERIFY2(test::closeColour(png.pixelColor(onArc.toPoint()), BudgetGauge::colourForFraction(0.4), 20),
                 qPrintable(png.pixelColor(onArc.toPoint()).name()));
        for (const QString &name : {QStringLiteral("gauge.png"), QStringLiteral("gauge.svg"),
                                    QStringLiteral("gauge-svg.png"), QStringLiteral("gauge.pdf")})
            QFile::copy(dir.filePath(name), test::screenshotDir() + QStringLiteral("/export-") + name);
    }

    void failureNamesThePath()
    {
        BudgetGauge gauge;
        const ChartExporter *exporter = ChartExporter::of(&gauge);
        const QString path = QStringLiteral("/nonexistent-folder-pbx/gauge");
        QString error;
        QVERIFY(!exporter->savePng(path + QStringLiteral(".png"), QSize(100, 100), &error));
        QVERIFY2(error.contains(QStringLiteral("nonexistent-folder-pbx")), qPrintable(error));
        error.clear();
        QVERIFY(!exporter->saveSvg(path + QStringLiteral(".svg"), &error));
        QVERIFY2(error.contains(QStringLiteral("gauge.svg")), qPrintable(error));
        error.clear();
        QVERIFY(!exporter->savePdf(path + QStringLiteral(".pdf"), &error));
        QVERIFY2(error.contains(QStringLiteral("gauge.pdf")), qPrintable(error));
        QVERIFY(!exporter->savePng(path + QStringLiteral(".png"), QSize(30000, 100), &error));
        QVERIFY2(error.contains(QStringLiteral("20000")), qPrintable(error));
    }

    // QPainter::end()'s result and short writes were ignored, so an SVG or PDF cut off
    // by a full disk was reported saved. A file-size limit of 1,000 bytes (SIGXFSZ ignored, so a
    // write past it fails with EFBIG, as on a full disk) must make every save fail, naming the
    // path, and leave no file behind.
    void truncatedWriteIsNotReportedSaved()
    {
        BudgetGauge gauge;
        gauge.resize(400, 300);
        const ChartExporter *exporter = ChartExporter::of(&gauge);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        struct rlimit old
        {};
        QCOMPARE(getrlimit(RLIMIT_FSIZE, &old), 0);
        const auto previousHandler = std::signal(SIGXFSZ, SIG_IGN);
        struct rlimit tight = old;
        tight.rlim_cur = 1000;
        QCOMPARE(setrlimit(RLIMIT_FSIZE, &tight), 0);
        QString svgError, pdfError, pngError;
        const bool svg = exporter->saveSvg(dir.filePath(QStringLiteral("gauge.svg")), &svgError);
        const bool pdf = exporter->savePdf(dir.filePath(QStringLiteral("gauge.pdf")), &pdfError);
        const bool png
            = exporter->savePng(dir.filePath(QStringLiteral("gauge.png")), QSize(600, 400), &pngError);
        setrlimit(RLIMIT_FSIZE, &old);
        std::signal(SIGXFSZ, previousHandler);
        QVERIFY(!svg);
        QVERIFY2(svgError.contains(QStringLiteral("gauge.svg")), qPrintable(svgError));
        QVERIFY(!pdf);
        QVERIFY2(pdfError.contains(QStringLiteral("gauge.pdf")), qPrintable(pdfError));
        QVERIFY(!png);
        QVERIFY2(pngError.contains(QStringLiteral("gauge.png")), qPrintable(pngError));
        for (const char *name : {"gauge.svg", "gauge.pdf", "gauge.png"})
            QVERIFY2(!QFile::exists(dir.filePath(QString::fromLatin1(name))), name);
        // Without the limit the same saves succeed (the files are larger than 1,000 bytes).
        QVERIFY(exporter->saveSvg(dir.filePath(QStringLiteral("gauge.svg")), &svgError));
        QVERIFY(QFileInfo(dir.filePath(QStringLiteral("gauge.svg"))).size() > 1000);
        QVERIFY(exporter->savePdf(dir.filePath(QStringLiteral("gauge.pdf")), &pdfError));
        QVERIFY(QFileInfo(dir.filePath(QStringLiteral("gauge.pdf"))).size() > 1000);
    }

    // Right-click on the plot (the chart view's viewport) and on the gauge opens the menu.
    void contextMenu()
    {
        QWidget window;
        auto *layout = new QVBoxLayout(&window);
        auto *chart = new LabChart(&window);
        auto *gauge = new BudgetGauge(&window);
        layout->addWidget(chart);
        layout->addWidget(gauge);
        window.resize(500, 700);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));

        const auto openMenu = [](QWidget *target) -> QMenu * {
            const QPoint pos(target->width() / 2, target->height() / 2);
            QContextMenuEvent event(QContextMenuEvent::Mouse, pos, target->mapToGlobal(pos));
            QApplication::sendEvent(target, &event);
            return qobject_cast<QMenu *>(QApplication::activePopupWidget());
        };
        const QStringList expected{QStringLiteral("exportCopy"), QStringLiteral("exportPng"),
                                   QStringLiteral("exportSvg"), QStringLiteral("exportPdf")};
        auto *view = chart->findChild<QChartView *>();
        QVERIFY(view);
        for (QWidget *target : {view->viewport(), static_cast<QWidget *>(gauge)}) {
            QMenu *menu = openMenu(target);
            QVERIFY2(menu, target->metaObject()->className());
            QStringList names;
            QStringList texts;
            for (QAction *action : menu->actions()) {
                if (!action->isSeparator()) {
                    names << action->objectName();
                    texts << action->text().remove(u'&');
                }
            }
            QCOMPARE(names, expected);
            QCOMPARE(texts, (QStringList{QStringLiteral("Copy image"), QStringLiteral("Save as PNG…"),
                                         QStringLiteral("Save as SVG…"), QStringLiteral("Save as PDF…")}));
            menu->close();
            QApplication::processEvents();
        }

        // Copy image puts the picture on the clipboard.
        ChartExporter::of(gauge)->copyToClipboard();
        const QImage copied = QApplication::clipboard()->image();
        QVERIFY(!copied.isNull());
        QVERIFY(copied.width() >= gauge->width());
    }

    void pngSizeDialogKeepsTheAspectRatio()
    {
        PngSizeDialog dialog(QSize(400, 300));
        QCOMPARE(dialog.pixelSize(), QSize(800, 600));
        auto *width = dialog.findChild<QSpinBox *>(QStringLiteral("pngWidth"));
        auto *height = dialog.findChild<QSpinBox *>(QStringLiteral("pngHeight"));
        QVERIFY(width && height);
        width->setValue(1600);
        QCOMPARE(dialog.pixelSize(), QSize(1600, 1200));
        height->setValue(300);
        QCOMPARE(dialog.pixelSize(), QSize(400, 300));
        dialog.setKeepAspect(false);
        height->setValue(1080);
        width->setValue(1920);
        QCOMPARE(dialog.pixelSize(), QSize(1920, 1080));
    }

    // View ▸ Presentation mode: the application font × 1.5, a chart's fonts × 1.5 and its lines ×
    // 1.8, live, also for a chart redrawn while it is on, and back when it is switched off.
    void presentationMode()
    {
        Presentation &mode = Presentation::instance();
        QVERIFY(!mode.isEnabled());
        LabChart chart;
        const std::vector<LabChart::Curve> curves{labCurve(QStringLiteral("Gaussian"), Qt::red, 2.0)};
        chart.setCurves(curves);
        chart.flush();
        chart.resize(600, 400);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        QChart *qchart = chartOf(chart);
        QVERIFY(qchart);
        QAbstractAxis *axis = qchart->axes(Qt::Horizontal).value(0);
        auto *series = qobject_cast<QXYSeries *>(qchart->series().value(0));
        QVERIFY(axis && series);
        const double appFont = QApplication::font().pointSizeF();
        const double axisTitle = axis->titleFont().pointSizeF();
        const double labels = axis->labelsFont().pointSizeF();
        const double legend = qchart->legend()->font().pointSizeF();
        const double pen = series->pen().widthF();
        QCOMPARE(pen, 2.2);

        mode.setEnabled(true);
        QCOMPARE(QApplication::font().pointSizeF(), appFont * Presentation::fontFactor);
        QCOMPARE(chart.font().pointSizeF(), appFont * Presentation::fontFactor);
        QCOMPARE(axis->titleFont().pointSizeF(), axisTitle * Presentation::fontFactor);
        QCOMPARE(axis->labelsFont().pointSizeF(), labels * Presentation::fontFactor);
        QCOMPARE(qchart->legend()->font().pointSizeF(), legend * Presentation::fontFactor);
        QCOMPARE(series->pen().widthF(), pen * Presentation::lineFactor);
        QVERIFY(!test::saveScreenshot(chart, QStringLiteral("export-presentation-lab")).isEmpty());

        // A redraw sets the chart's own pen again; the scene's change brings the scale back.
        chart.setCurves(curves);
        chart.flush();
        QTRY_COMPARE(series->pen().widthF(), pen * Presentation::lineFactor);
        QCOMPARE(axis->titleFont().pointSizeF(), axisTitle * Presentation::fontFactor);

        // A chart created while on: its title and axis fonts are scaled once, not twice.
        CompositionCurveChart later;
        later.flush();
        QChart *laterChart = chartOf(later);
        QApplication::processEvents();
        mode.setEnabled(false);
        const double normalTitle = laterChart->titleFont().pointSizeF();
        mode.setEnabled(true);
        QCOMPARE(laterChart->titleFont().pointSizeF(), normalTitle * Presentation::fontFactor);
        QCOMPARE(normalTitle, appFont); // setBoldTitle: the widget's normal font size

        // A chart on Qt Charts' theme fonts, shown while on: scaled once however often the scene
        // changes (a font that rounds its size must not be taken for a new normal size).
        UnitSquareChart square(QStringLiteral("Unit square"), QStringLiteral("x"), QStringLiteral("y"));
        square.addCurve(QStringLiteral("curve"), Qt::blue, Qt::SolidLine);
        square.setPoints(0, {QPointF(0, 0), QPointF(0.5, 0.8), QPointF(1, 1)});
        square.resize(400, 400);
        square.show();
        QVERIFY(QTest::qWaitForWindowExposed(&square));
        QTest::qWait(300);
        QVERIFY(!test::saveScreenshot(square, QStringLiteral("export-presentation-unitsquare")).isEmpty());
        QChart *squareChart = chartOf(square);
        const auto size = [](const QFont &f) { return f.pointSizeF() > 0 ? f.pointSizeF() : f.pixelSize(); };
        const double titleOn = size(squareChart->titleFont());
        // The theme's fonts start from the application font: they are already large, not × 1.5 again.
        QVERIFY2(size(squareChart->axes().value(0)->labelsFont()) <= appFont * Presentation::fontFactor + 0.5,
                 qPrintable(squareChart->axes().value(0)->labelsFont().toString()));
        const double axisOn = size(squareChart->axes().value(0)->titleFont());
        const double penOn = qobject_cast<QXYSeries *>(squareChart->series().value(0))->pen().widthF();
        mode.setEnabled(false);
        const double titleOff = size(squareChart->titleFont());
        QVERIFY2(std::abs(titleOn - titleOff * Presentation::fontFactor) <= 0.5,
                 qPrintable(QStringLiteral("%1 vs %2").arg(titleOn).arg(titleOff)));
        QVERIFY(std::abs(axisOn - size(squareChart->axes().value(0)->titleFont()) * Presentation::fontFactor)
                <= 0.5);
        QCOMPARE(penOn, 2.5 * Presentation::lineFactor);
        mode.setEnabled(true);

        mode.setEnabled(false);
        QCOMPARE(QApplication::font().pointSizeF(), appFont);
        QCOMPARE(axis->titleFont().pointSizeF(), axisTitle);
        QCOMPARE(axis->labelsFont().pointSizeF(), labels);
        QCOMPARE(qchart->legend()->font().pointSizeF(), legend);
        QCOMPARE(series->pen().widthF(), pen);
    }

    // The main window's action, remembered in the settings.
    void presentationModeAction()
    {
        MainWindow w;
        auto *action = w.findChild<QAction *>(QStringLiteral("presentationModeAction"));
        QVERIFY(action);
        QVERIFY(action->isCheckable());
        QVERIFY(!action->isChecked());
        const double appFont = QApplication::font().pointSizeF();
        action->trigger();
        QVERIFY(Presentation::instance().isEnabled());
        QCOMPARE(QApplication::font().pointSizeF(), appFont * Presentation::fontFactor);
        QVERIFY(AppSettings::presentationMode());
        action->trigger();
        QVERIFY(!Presentation::instance().isEnabled());
        QVERIFY(!AppSettings::presentationMode());
        QCOMPARE(QApplication::font().pointSizeF(), appFont);
    }

    // Every exportable widget of the main window at two window sizes (and in presentation mode at
    // the larger), written to the screenshot folder to be looked at.
    void mainWindowCharts_data()
    {
        QTest::addColumn<QSize>("windowSize");
        QTest::addColumn<bool>("presentation");
        QTest::newRow("1024x700") << QSize(1024, 700) << false;
        QTest::newRow("1920x1080") << QSize(1920, 1080) << false;
        QTest::newRow("1920x1080-presentation") << QSize(1920, 1080) << true;
    }

    void mainWindowCharts()
    {
        QFETCH(QSize, windowSize);
        QFETCH(bool, presentation);
        MainWindow w;
        QVERIFY(w.openDataset(QStringLiteral("cps1988")).ok());
        session::SessionSettings settings;
        settings.seed = 20240601;
        QVERIFY(w.startNewSession(settings).ok());
        for (int i = 0; i < 3; ++i)
            w.ask();
        Presentation::instance().setEnabled(presentation);
        w.resize(windowSize);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        const QString tag = QString::fromLatin1(QTest::currentDataTag());
        QVERIFY(!test::saveScreenshot(w, QStringLiteral("export-window-") + tag).isEmpty());
        QWidget *risk = w.showPrivacyRisk(); // a dialog with two charts
        QVERIFY(QTest::qWaitForWindowExposed(risk));
        QVERIFY(!test::saveScreenshot(*risk, QStringLiteral("export-risk-") + tag).isEmpty());

        int exported = 0;
        const auto exporters = w.findChildren<ChartExporter *>();
        for (const ChartExporter *exporter : exporters) {
            // Only what can be right-clicked: not a chart in a hidden tab or dock.
            QWidget *chart = exporter->widget();
            QWidget *window = chart->window();
            QWidget *hit = chart->isVisible() ? window->childAt(chart->mapTo(window, chart->rect().center()))
                                              : nullptr;
            if (!hit || (hit != chart && !chart->isAncestorOf(hit)))
                continue;
            const QString name = QStringLiteral("export-%1-%2").arg(tag, exporter->fileBaseName());
            const QString text
                = exportAll(*exporter, test::screenshotDir(), name, exporter->naturalSize() * 2);
            QVERIFY2(containsText(text, exporter->title().text.left(12)), qPrintable(name + u':' + text));
            ++exported;
        }
        QVERIFY(exported >= 4); // the gauge, the privacy-loss path, the risk view's two charts
        Presentation::instance().setEnabled(false);
    }
};

QTEST_MAIN(TestChartExport)
#include "tst_chartexport.moc"
