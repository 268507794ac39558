// SPDX-License-Identifier: MIT
// Charts a room can read, on a projector's screen (1024×768; PBX_TEST_SCREEN=1920x1080 for the
// large one), each lab at the size it opens at: integer quantities get integer ticks ("25", not
// "25.0"; "8000", not "8e+03"; range lengths 5, 10, 15, not 0.0 and 20.0; nice ticks 50, 100, 150
// for a Monte Carlo, not its data's ends 6.4, 99.2, 192.0); coinciding markers (a run's error
// before and after a projection that moved nothing) stay visible, and so do the first run's true,
// noisy and projected values where they coincide; charts with nothing to draw say
// what to do instead of drawing axes of made-up numbers; the relative-error lab's legend stays
// clear of its axis title and shows "—" for the share of no answers; the growing lab's read-out
// is read whole after a run. What Qt drew is read back from the charts' scenes and images.
// Screenshots: projectorcharts_*_<screen>.png.
#include "chartinspect.h"
#include "testscreen.h"
#include "ui/charts/axisticks.h"
#include "ui/charts/growingchart.h"
#include "ui/charts/labchart.h"
#include "ui/charts/odplinechart.h"
#include "ui/charts/strategycharts.h"
#include "ui/growing/growinglabdialog.h"
#include "ui/lab/labdialog.h"
#include "ui/mainwindow.h"
#include "ui/odp/odplabdialog.h"
#include "ui/sessiondocument.h"
#include "ui/strategies/strategieslabdialog.h"
#include "uitestutils.h"

#include <QAbstractAxis>
#include <QChart>
#include <QChartView>
#include <QGraphicsTextItem>
#include <QLabel>
#include <QLogValueAxis>
#include <QPushButton>
#include <QRegularExpression>
#include <QScatterSeries>
#include <QSettings>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableWidget>
#include <QValueAxis>
#include <QXYSeries>
#include <QtTest/QtTest>

#include <algorithm>
#include <cmath>

using pbx::test::testScreen;
using pbx::test::testScreenName;
using namespace pbx::ui;

namespace {

/// The tick labels Qt draws on `axis` (a value axis: its ticks in its label format; a log axis:
/// its decades).
QStringList tickLabels(const QAbstractAxis *axis)
{
    QStringList labels;
    if (const auto *value = qobject_cast<const QValueAxis *>(axis)) {
        for (double v : tickValues(value))
            labels << tickLabel(value->labelFormat(), v);
    } else if (const auto *log = qobject_cast<const QLogValueAxis *>(axis)) {
        for (double v = std::pow(10.0, std::ceil(std::log10(log->min()) - 1e-9));
             v <= log->max() * (1 + 1e-9); v *= 10.0)
            labels << tickLabel(log->labelFormat(), v);
    }
    return labels;
}

/// The chart view inside `frame`.
QChartView *viewOf(QWidget *frame)
{
    return frame->findChild<QChartView *>();
}

/// The axis of `frame`'s chart on `side`.
QAbstractAxis *axisOn(QWidget *frame, Qt::Alignment side)
{
    for (QAbstractAxis *axis : viewOf(frame)->chart()->axes())
        if (axis->alignment() == side)
            return axis;
    return nullptr;
}

/// Every label reads as an integer: digits only, with a minus sign (no ".0", no exponent).
void verifyIntegerLabels(const QStringList &labels, const QString &what)
{
    QVERIFY2(!labels.isEmpty(), qPrintable(what));
    static const QRegularExpression integer(QStringLiteral("^-?\\d+$"));
    for (const QString &label : labels)
        QVERIFY2(integer.match(label).hasMatch(),
                 qPrintable(QStringLiteral("%1: '%2' in %3").arg(what, label, labels.join(u' '))));
}

/// Every text item Qt drew in `frame`'s chart.
QStringList drawnTexts(QWidget *frame)
{
    QStringList texts;
    for (QGraphicsItem *item : viewOf(frame)->scene()->items())
        if (auto *text = dynamic_cast<QGraphicsTextItem *>(item); text && text->isVisible())
            texts << text->toPlainText();
    return texts;
}

/// Shows `chart` at `size`, lets it lay out and fit its axes.
void showChart(ChartFrame &chart, QSize size)
{
    chart.resize(size);
    chart.show();
    QVERIFY(QTest::qWaitForWindowExposed(&chart));
    chart.flush();
    QTest::qWait(100);
    chart.flush();
}

/// The chart frame under `root` whose chart has the title `title`.
QWidget *chartTitled(QWidget *root, const QString &title)
{
    for (QChartView *view : root->findChildren<QChartView *>())
        if (view->chart()->title().startsWith(title))
            return view->parentWidget();
    return nullptr;
}

/// Pixels on the vertical line through `centre`, up to `reach` px above and below it, that are
/// `colour` (within a small tolerance).
int pixelsOfColour(const QImage &image, QPoint centre, int reach, const QColor &colour)
{
    int count = 0;
    for (int dy = -reach; dy <= reach; ++dy) {
        const QPoint p(centre.x(), centre.y() + dy);
        if (image.rect().contains(p) && pbx::test::closeColour(image.pixelColor(p), colour, 16))
            ++count;
    }
    return count;
}

/// The relative-error lab's x axis title lies above its wrapping legend, whose text is whole.
void verifyLegendClearOfAxisTitle(LabDialog *lab, const QString &where)
{
    lab->chart()->flush();
    QChartView *view = viewOf(lab->chart());
    QRectF title;
    for (QGraphicsItem *item : view->scene()->items())
        if (auto *text = dynamic_cast<QGraphicsTextItem *>(item);
            text && text->isVisible() && text->toPlainText().startsWith(QStringLiteral("ε spent")))
            title = text->sceneBoundingRect();
    QVERIFY2(!title.isEmpty(), qPrintable(where));
    const QRect titleInLab(view->mapTo(lab, view->mapFromScene(title).boundingRect().topLeft()),
                           title.size().toSize());
    QLabel *legend = nullptr;
    for (QLabel *label : lab->chart()->findChildren<QLabel *>())
        if (label->isVisible() && label->text().contains(QStringLiteral("Doubling")))
            legend = label;
    QVERIFY2(legend, qPrintable(where));
    const QRect legendText = legend->contentsRect().translated(legend->mapTo(lab, QPoint(0, 0)));
    QVERIFY2(titleInLab.bottom() - 3 <= legendText.top(),
             qPrintable(QStringLiteral("%1 (%2×%3): axis title ends at %4, legend starts at %5")
                            .arg(where)
                            .arg(lab->width())
                            .arg(lab->height())
                            .arg(titleInLab.bottom())
                            .arg(legendText.top())));
    QVERIFY2(legend->heightForWidth(legend->width()) <= legend->height() + 1,
             qPrintable(QStringLiteral("%1: legend needs %2 px, has %3")
                            .arg(where)
                            .arg(legend->heightForWidth(legend->width()))
                            .arg(legend->height())));
    // The view keeps its minimum height: the legend took no room from it.
    QVERIFY2(view->height() >= view->minimumHeight(), qPrintable(where));
}

/// What `frame`'s value axes draw: each axis' tick labels are the texts Qt drew beside it (the
/// labels of the ticks it holds now, none left over from an earlier fit), each whole (no "…",
/// none cut short), none over the plot and none over the other axis' labels.
void verifyTickLabelsAsFitted(QWidget *frame, const QString &where)
{
    QChartView *view = viewOf(frame);
    QChart *chart = view->chart();
    const QRectF plot = chart->plotArea();
    QStringList drawnX, drawnY;
    QList<QRectF> rectsX, rectsY;
    for (QGraphicsItem *item : view->scene()->items()) {
        auto *text = dynamic_cast<QGraphicsTextItem *>(item);
        if (!text || !text->isVisible() || text->rotation() != 0.0 || text->toPlainText().trimmed().isEmpty())
            continue;
        const QRectF rect = text->sceneBoundingRect();
        const QPointF c = rect.center();
        if (c.y() > plot.bottom() && c.x() >= plot.left() - rect.width()
            && c.x() <= plot.right() + rect.width() && c.y() < plot.bottom() + 2.0 * rect.height()) {
            drawnX << text->toPlainText();
            rectsX << rect.adjusted(3, 3, -3, -3);
        } else if (c.x() < plot.left() && c.y() >= plot.top() - rect.height()
                   && c.y() <= plot.bottom() + rect.height()) {
            drawnY << text->toPlainText();
            rectsY << rect.adjusted(3, 3, -3, -3);
        }
    }
    for (QAbstractAxis *axis : chart->axes()) {
        if (!axis->isVisible() || !qobject_cast<QValueAxis *>(axis))
            continue;
        QStringList expected = tickLabels(axis);
        QStringList drawn = axis->orientation() == Qt::Horizontal ? drawnX : drawnY;
        if (axis->orientation() == Qt::Horizontal)
            drawn.removeAll(axis->titleText());
        std::sort(expected.begin(), expected.end());
        std::sort(drawn.begin(), drawn.end());
        QVERIFY2(drawn == expected,
                 qPrintable(QStringLiteral("%1, %2 axis: drew '%3', its ticks read '%4'")
                                .arg(where,
                                     axis->orientation() == Qt::Horizontal ? QStringLiteral("x")
                                                                           : QStringLiteral("y"),
                                     drawn.join(u' '), expected.join(u' '))));
    }
    for (const QRectF &y : std::as_const(rectsY)) {
        QVERIFY2(y.right() <= plot.left() + 1.0,
                 qPrintable(QStringLiteral("%1: a y tick label reaches %2 px into the plot")
                                .arg(where)
                                .arg(y.right() - plot.left())));
        for (const QRectF &x : std::as_const(rectsX))
            QVERIFY2(!y.intersects(x),
                     qPrintable(where + QStringLiteral(": a y tick label overlaps an x one")));
    }
}

/// What is on screen in `view` is the chart as it is now: the pixels the window last painted
/// (the platform's copy of the window, as a screenshot has them) equal a fresh rendering of the
/// view. Before, a chart whose ticks were fitted after its data arrived kept its first picture on
/// screen ("30000.0" cut to "20000.", ticks every 50 beside grid lines every 100) until the
/// window was resized, while its scene held the fitted labels.
void verifyPaintedAsDrawn(QChartView *view, const QString &where)
{
    QWidget *viewport = view->viewport();
    const QPoint at = viewport->mapTo(viewport->window(), QPoint(0, 0));
    const QImage painted
        = viewport->screen()
              ->grabWindow(viewport->window()->winId(), at.x(), at.y(), viewport->width(), viewport->height())
              .toImage()
              .convertToFormat(QImage::Format_RGB32);
    const QImage fresh = viewport->grab().toImage().convertToFormat(QImage::Format_RGB32);
    QCOMPARE(painted.size(), fresh.size());
    int differing = 0;
    for (int y = 0; y < fresh.height(); ++y)
        for (int x = 0; x < fresh.width(); ++x)
            if (!pbx::test::closeColour(painted.pixelColor(x, y), fresh.pixelColor(x, y), 24))
                ++differing;
    if (differing > 0) {
        painted.save(pbx::test::screenshotDir() + QStringLiteral("/projectorcharts_painted.png"));
        fresh.save(pbx::test::screenshotDir() + QStringLiteral("/projectorcharts_fresh.png"));
    }
    QVERIFY2(differing == 0,
             qPrintable(QStringLiteral("%1: %2 of %3 pixels on screen are not the chart as it is now")
                            .arg(where)
                            .arg(differing)
                            .arg(fresh.width() * fresh.height())));
}

/// Pixels of `colour` (within a small tolerance) in the box of half-size `reach` around `centre`.
int pixelsOfColourAround(const QImage &image, QPoint centre, QSize reach, const QColor &colour)
{
    int count = 0;
    for (int dy = -reach.height(); dy <= reach.height(); ++dy)
        for (int dx = -reach.width(); dx <= reach.width(); ++dx) {
            const QPoint p(centre.x() + dx, centre.y() + dy);
            if (image.rect().contains(p) && pbx::test::closeColour(image.pixelColor(p), colour, 16))
                ++count;
        }
    return count;
}

/// Constrained inference ▸ First run shows three series, each visible where the three coincide:
/// all three named in the legend, and around every coordinate whose three values (and those of
/// its neighbours within the box looked at) fall on one pixel row, each series' colour is on
/// screen. Before, the projected line (drawn last, as wide as the true one) covered the true line
/// and the noisy dots wherever they met: one orange curve.
void verifyFirstRunSeriesVisible(QWidget *frame, const QString &where)
{
    auto *curves = qobject_cast<CurvesChart *>(frame);
    QVERIFY(curves);
    QChartView *view = viewOf(frame);
    QChart *chart = view->chart();
    const auto series = chart->series();
    QCOMPARE(series.size(), 3);
    const QString legend = curves->legendText();
    for (const QString &name :
         {QStringLiteral("true (simulation)"), QStringLiteral("noisy q̃"), QStringLiteral("projected q̄")})
        QVERIFY2(legend.contains(name), qPrintable(where + QStringLiteral(": legend ") + legend));
    auto *truth = qobject_cast<QXYSeries *>(series[0]);
    auto *noisy = qobject_cast<QScatterSeries *>(series[1]);
    auto *projected = qobject_cast<QXYSeries *>(series[2]);
    QVERIFY(truth && noisy && projected);
    QCOMPARE(truth->count(), projected->count());
    QCOMPARE(truth->count(), noisy->count());
    const QColor colours[3] = {truth->pen().color(), noisy->color(), projected->pen().color()};
    const QImage image = view->grab().toImage();
    const QSize reach(5, 6);
    const auto pixel = [&](QXYSeries *s, int i) {
        return view->mapFromScene(chart->mapToScene(chart->mapToPosition(s->at(i), s)));
    };
    // Coordinates whose neighbourhood (the box looked at) has the three on one pixel row.
    int checked = 0;
    for (int i = 0; i < truth->count() && checked < 8; i += 3) {
        const QPoint at = pixel(truth, i);
        bool together = true;
        for (int j = 0; j < truth->count() && together; ++j) {
            const QPoint t = pixel(truth, j);
            if (std::abs(t.x() - at.x()) > reach.width() + 4)
                continue;
            together = std::abs(t.y() - at.y()) <= 1 && std::abs(pixel(noisy, j).y() - at.y()) <= 1
                       && std::abs(pixel(projected, j).y() - at.y()) <= 1;
        }
        if (!together || !chart->plotArea().contains(chart->mapToPosition(truth->at(i), truth)))
            continue;
        static const char *const names[3] = {"true", "noisy", "projected"};
        for (int k = 0; k < 3; ++k)
            QVERIFY2(pixelsOfColourAround(image, at, reach, colours[k]) > 0,
                     qPrintable(QStringLiteral("%1: at coordinate %2 (%3, %4) the %5 series is hidden")
                                    .arg(where)
                                    .arg(i)
                                    .arg(at.x())
                                    .arg(at.y())
                                    .arg(QLatin1String(names[k]))));
        ++checked;
    }
    QVERIFY2(
        checked >= 3,
        qPrintable(QStringLiteral("%1: %2 coordinates where the three coincide").arg(where).arg(checked)));
}

void verifyNoChartProblems(QWidget *root, const QString &where)
{
    QTest::qWait(150);
    const QStringList problems = pbx::test::chartProblems(root);
    QVERIFY2(problems.isEmpty(), qPrintable(where + QStringLiteral(":\n  ") + problems.join(u'\n')));
}

} // namespace

class TestProjectorCharts : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("pbx-tests"));
        QCoreApplication::setApplicationName(QStringLiteral("projectorcharts"));
        QSettings().clear();
        QCOMPARE(QGuiApplication::primaryScreen()->availableGeometry().size(), testScreen());
    }

    /// Integer quantities get integer ticks, in every chart family that plots them. Before:
    /// range lengths 1…21 read "0.0 … 20.0", entries 0…100 "0.0, 25.0, …", counts up to 8000
    /// "8e+03" and a million rows "1e+06"; a Monte Carlo's bins read 6.4, 52.8, 99.2, 145.6, 192.0.
    void integerQuantitiesGetIntegerTicks()
    {
        const QSize size(480, 340);
        // Range lengths L = 1 … 21, predicted lines and measured markers (the strategies lab).
        CurvesChart ranges;
        CurvesChart::Curve line, measured;
        line.name = QStringLiteral("identity");
        measured.name = QStringLiteral("measured");
        measured.markers = true;
        measured.pairedWith = 0;
        for (int L = 1; L <= 21; ++L) {
            line.x.push_back(L);
            line.y.push_back(2.0 * L);
            measured.x.push_back(L);
            measured.y.push_back(2.1 * L);
        }
        ranges.setCurves(QStringLiteral("Variance by range length"), {line, measured},
                         QStringLiteral("range length L"), QStringLiteral("variance"), true);
        showChart(ranges, size);
        const QStringList lengths = tickLabels(axisOn(&ranges, Qt::AlignBottom));
        verifyIntegerLabels(lengths, QStringLiteral("range length"));
        QVERIFY2(lengths.contains(QStringLiteral("10")), qPrintable(lengths.join(u' ')));

        // Three runs: ticks 1, 2, 3 (never 1.5).
        CurvesChart runs;
        CurvesChart::Curve few;
        few.name = QStringLiteral("error");
        few.x = {1.0, 2.0, 3.0};
        few.y = {5.0, 7.0, 6.0};
        few.markers = true;
        runs.setCurves(QStringLiteral("Run by run"), {few}, QStringLiteral("run"), QStringLiteral("error"));
        showChart(runs, size);
        QCOMPARE(tickLabels(axisOn(&runs, Qt::AlignBottom)),
                 (QStringList{QStringLiteral("1"), QStringLiteral("2"), QStringLiteral("3")}));

        // A Monte Carlo histogram's bin centres (b + ½)·12.8: nice ticks, not the data's ends.
        CurvesChart monteCarlo;
        CurvesChart::Curve bins;
        bins.name = QStringLiteral("A1");
        for (int b = 0; b < 15; ++b) {
            bins.x.push_back((b + 0.5) * 12.8);
            bins.y.push_back(0.05 * (15 - b));
        }
        monteCarlo.setCurves(QStringLiteral("Monte Carlo distribution"), {bins},
                             QStringLiteral("total squared error"), QStringLiteral("share of runs"));
        showChart(monteCarlo, size);
        const QStringList errors = tickLabels(axisOn(&monteCarlo, Qt::AlignBottom));
        verifyIntegerLabels(errors, QStringLiteral("Monte Carlo"));
        for (const QString &label : errors)
            QVERIFY2(label.toInt() % 10 == 0, qPrintable(errors.join(u' ')));

        // The output-DP lab: entries L = 0 … 100 in steps of 5, with markers.
        OdpLineChart entries;
        OdpLineChart::Curve noise;
        noise.name = QStringLiteral("noise");
        noise.colour = Qt::blue;
        noise.markers = true;
        for (int L = 0; L <= 100; L += 5) {
            noise.x.push_back(L);
            noise.y.push_back(1.0 + 0.01 * L);
        }
        entries.setTitles(QStringLiteral("Noise"), QStringLiteral("number of large entries L"),
                          QStringLiteral("std. dev."));
        entries.setCurves({noise});
        showChart(entries, size);
        verifyIntegerLabels(tickLabels(axisOn(&entries, Qt::AlignBottom)), QStringLiteral("entries"));
        QVERIFY(entries.message().isEmpty());

        // The growing lab: noisy counts up to 8000 over t rows, and a million rows on a log axis.
        GrowingChart counts;
        counts.setLogX(false);
        counts.setTitles(QStringLiteral("ATG"), QStringLiteral("t (rows)"), QStringLiteral("count"));
        GrowingChart::Series count;
        count.id = count.name = QStringLiteral("count");
        count.colour = Qt::blue;
        for (int t = 1000; t <= 8000; t += 500)
            count.points.emplace_back(t, t - 120.0);
        counts.setData(1000.0, 8000.0, {}, {count});
        showChart(counts, size);
        verifyIntegerLabels(tickLabels(axisOn(&counts, Qt::AlignLeft)), QStringLiteral("counts"));
        verifyIntegerLabels(tickLabels(axisOn(&counts, Qt::AlignBottom)), QStringLiteral("rows"));
        GrowingChart horizon;
        horizon.setTitles(QStringLiteral("Privacy"), QStringLiteral("t (rows arrived, log scale)"),
                          QStringLiteral("ε"));
        GrowingChart::Series spent;
        spent.id = spent.name = QStringLiteral("spent");
        spent.colour = Qt::red;
        spent.points = {{1000.0, 0.5}, {1e6, 0.99}};
        horizon.setData(1000.0, 1e6, {}, {spent});
        showChart(horizon, size);
        const QStringList rows = tickLabels(axisOn(&horizon, Qt::AlignBottom));
        verifyIntegerLabels(rows, QStringLiteral("log rows"));
        QVERIFY2(rows.contains(QStringLiteral("1000000")), qPrintable(rows.join(u' ')));
        // What Qt drew agrees: no exponent and no ".0" on any of these charts.
        for (ChartFrame *chart :
             std::initializer_list<ChartFrame *>{&ranges, &runs, &monteCarlo, &entries, &counts, &horizon})
            for (const QString &text : drawnTexts(chart))
                QVERIFY2(!text.contains(QStringLiteral("e+")) && !text.endsWith(QStringLiteral(".0")),
                         qPrintable(text));
        QVERIFY(
            !pbx::test::saveScreenshot(ranges, QStringLiteral("projectorcharts_ranges_") + testScreenName())
                 .isEmpty());
        QVERIFY(
            !pbx::test::saveScreenshot(counts, QStringLiteral("projectorcharts_counts_") + testScreenName())
                 .isEmpty());
    }

    /// The fitter labels whole ticks as integers whatever the chart's own format.
    void wholeTicksReadAsIntegers()
    {
        QValueAxis axis;
        axis.setRange(0.0, 8000.0);
        axis.setTickCount(5);
        QFont font;
        font.setPixelSize(12);
        AxisRoom room;
        room.orientation = Qt::Vertical;
        room.length = 300.0;
        room.labelWidth = 200.0;
        room.metrics = QFontMetricsF(font);
        const TickFit fit = fitTicks(&axis, TickFit{QStringLiteral("%.3g"), 5, 0.0, false}, room);
        QVERIFY(fit.fits);
        QCOMPARE(fit.format, QStringLiteral("%.0f"));
        QCOMPARE(tickLabel(fit.format, 8000.0), QStringLiteral("8000")); // "%.3g" printed "8e+03"
        QVERIFY(wholeTicks({0.0, 25.0, 50.0}));
        QVERIFY(!wholeTicks({0.0, 2.5, 5.0}));
        QVERIFY(!wholeTicks({0.0, 5e7, 1e8})); // too long as integers: the chart's format
        QVERIFY(wholeNumbers({1.0, 2.0, std::nan("")}));
        QVERIFY(!wholeNumbers({1.0, 2.5}));
        QVERIFY(!wholeNumbers({}));
    }

    /// The strategies lab at the size it opens at: Constrained inference ▸ Run by run. Tree
    /// consistency is an affine projection, so every run's error before equals after + moved:
    /// those markers coincide. Before, both were 6-px dots and "before" was hidden under the sum;
    /// now a ring (before), a hollow diamond (after + moved) and a dot (after), all visible.
    void runByRunShowsCoincidingMarkers()
    {
        auto table = SessionDocument::loadTable(QStringLiteral("cps1988"));
        QVERIFY(table.ok());
        StrategiesLabDialog lab;
        lab.setTable(std::move(table).value());
        lab.show();
        QVERIFY(QTest::qWaitForWindowExposed(&lab));
        lab.tabs()->setCurrentIndex(3);
        lab.run(3);
        lab.waitForJob();
        QTRY_VERIFY(!lab.isRunning());
        QTest::qWait(200);
        QWidget *frame = chartTitled(&lab, QStringLiteral("Run by run"));
        QVERIFY(frame);
        auto *chart = qobject_cast<CurvesChart *>(frame);
        QVERIFY(chart);
        QChartView *view = viewOf(frame);
        const auto series = view->chart()->series();
        QCOMPARE(series.size(), 3); // before, after, after + moved
        auto *before = qobject_cast<QScatterSeries *>(series[0]);
        auto *sum = qobject_cast<QScatterSeries *>(series[2]);
        QVERIFY(before && sum);
        // The legend shows all three, each with its own glyph.
        const QString legend = chart->legendText();
        for (const QString &glyph : {QStringLiteral("○"), QStringLiteral("●"), QStringLiteral("◇")})
            QVERIFY2(legend.contains(glyph), qPrintable(legend));
        // A run in the middle: its before and after + moved coincide; both colours are drawn there.
        const int run = before->count() / 2;
        QVERIFY(std::fabs(before->at(run).y() - sum->at(run).y()) <= 1e-6 * before->at(run).y());
        const QPointF scene = view->chart()->mapToPosition(before->at(run), before);
        const QPoint at = view->mapFromScene(view->chart()->mapToScene(scene));
        const QImage image = view->grab().toImage();
        const int reach = static_cast<int>(before->markerSize() / 2 + 2);
        QVERIFY2(pixelsOfColour(image, at, reach, chart->curveColour(0)) > 0,
                 "the error before the projection is hidden under another marker");
        QVERIFY2(pixelsOfColour(image, at, reach, chart->curveColour(2)) > 0,
                 "after + moved is hidden under another marker");
        verifyIntegerLabels(tickLabels(axisOn(frame, Qt::AlignBottom)), QStringLiteral("run"));
        QVERIFY(
            !pbx::test::saveScreenshot(lab, QStringLiteral("projectorcharts_inference_") + testScreenName())
                 .isEmpty());
        verifyNoChartProblems(&lab, QStringLiteral("strategies lab, constrained inference"));
    }

    /// Constrained inference ▸ First run, as a lecturer gets it: the lab opened from the Labs
    /// menu at the size it opens at, the tab looked at (its empty charts laid out) before Run is
    /// pressed. Every value axis draws the labels of its ticks (no label left from an earlier
    /// fit), whole, and no tick label lies over the plot or over the other axis' labels. Before,
    /// the y axis kept Qt's "30000.0" cut to "20000." and reaching over the plot, and the x axis
    /// drew "0 50 … 250" squeezed beside grid lines every 100. Its three series (true, noisy,
    /// projected) each show where they coincide (verifyFirstRunSeriesVisible).
    void firstRunTickLabelsDoNotOverlap()
    {
        MainWindow w;
        QVERIFY(w.openDataset(QStringLiteral("cps1988")).ok());
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        StrategiesLabDialog *lab = w.strategiesLab();
        lab->show();
        QVERIFY(QTest::qWaitForWindowExposed(lab));
        lab->waitForJob();
        QTRY_VERIFY(!lab->isRunning());
        lab->tabs()->setCurrentIndex(3);
        QTest::qWait(500);
        // Run pressed; the job's progress is shown while it runs (the event loop turns).
        QPushButton *runButton = nullptr;
        for (auto *button : lab->tabs()->currentWidget()->findChildren<QPushButton *>())
            if (button->text().startsWith(QStringLiteral("Run ")))
                runButton = button;
        QVERIFY(runButton);
        QTest::mouseClick(runButton, Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(!lab->isRunning(), 60000);
        QTest::qWait(500);
        QWidget *frame = chartTitled(lab, QStringLiteral("First run"));
        QVERIFY(frame);
        QVERIFY(
            !pbx::test::saveScreenshot(*lab, QStringLiteral("projectorcharts_firstrun_") + testScreenName())
                 .isEmpty());
        verifyTickLabelsAsFitted(frame, QStringLiteral("First run"));
        verifyPaintedAsDrawn(viewOf(frame), QStringLiteral("First run"));
        verifyFirstRunSeriesVisible(frame, QStringLiteral("First run"));
        verifyNoChartProblems(lab, QStringLiteral("strategies lab, first run"));
    }

    /// Charts with nothing to draw say what to do, with no axes: the relative-error lab before
    /// a run (it drew 0…1 and 0…10), the strategies lab's charts before theirs, the output-DP
    /// lab's sparse-vector figure before Compute.
    void emptyChartsSayWhatToDo()
    {
        MainWindow w;
        QVERIFY(w.openDataset(QStringLiteral("cps1988")).ok());
        LabDialog *lab = w.relativeErrorLab();
        lab->show();
        QVERIFY(QTest::qWaitForWindowExposed(lab));
        lab->chart()->flush();
        QVERIFY2(lab->chart()->message().contains(QStringLiteral("press Run")),
                 qPrintable(lab->chart()->message()));
        for (QAbstractAxis *axis : viewOf(lab->chart())->chart()->axes())
            QVERIFY(!axis->isVisible());
        QVERIFY(
            !pbx::test::saveScreenshot(*lab, QStringLiteral("projectorcharts_lab_empty_") + testScreenName())
                 .isEmpty());
        lab->hide();

        StrategiesLabDialog strategies;
        strategies.show();
        QVERIFY(QTest::qWaitForWindowExposed(&strategies));
        strategies.tabs()->setCurrentIndex(3);
        QTest::qWait(100);
        int empty = 0;
        for (auto *chart : strategies.findChildren<CurvesChart *>()) {
            QVERIFY2(chart->message().startsWith(QStringLiteral("Nothing to draw yet")),
                     qPrintable(chart->message()));
            ++empty;
        }
        for (auto *chart : strategies.findChildren<BarErrorChart *>()) {
            QVERIFY2(chart->message().startsWith(QStringLiteral("Nothing to draw yet")),
                     qPrintable(chart->message()));
            ++empty;
        }
        QVERIFY(empty >= 6);
        QVERIFY(!pbx::test::saveScreenshot(strategies, QStringLiteral("projectorcharts_strategies_empty_")
                                                           + testScreenName())
                     .isEmpty());

        OdpLabDialog odp;
        odp.show();
        QVERIFY(QTest::qWaitForWindowExposed(&odp));
        odp.tabs()->setCurrentIndex(2);
        QTest::qWait(100);
        int odpEmpty = 0;
        for (auto *chart : odp.findChildren<OdpLineChart *>()) {
            if (chart->curveCount() > 0)
                continue;
            QVERIFY2(chart->message().startsWith(QStringLiteral("Nothing to draw yet: press ")),
                     qPrintable(chart->message()));
            for (QAbstractAxis *axis : viewOf(chart)->chart()->axes())
                QVERIFY(!axis->isVisible());
            ++odpEmpty;
        }
        QVERIFY(odpEmpty >= 1);
        QVERIFY(
            !pbx::test::saveScreenshot(odp, QStringLiteral("projectorcharts_odp_empty_") + testScreenName())
                 .isEmpty());
    }

    /// The relative-error lab at the size it opens at, after a run: the wrapping legend lies
    /// below the x axis' title, and a method with no answers shows "—" under Within α (it showed
    /// "100.0 %").
    void relativeErrorLabAtItsOwnSize()
    {
        MainWindow w;
        QVERIFY(w.openDataset(QStringLiteral("cps1988")).ok());
        LabDialog *lab = w.relativeErrorLab();
        auto settings = lab->settings();
        settings.repetitions = 4;
        settings.queriesPerRepetition = 60;
        lab->setSettings(settings);
        lab->show();
        QVERIFY(QTest::qWaitForWindowExposed(lab));
        QSignalSpy finished(lab, &LabDialog::runFinished);
        lab->run();
        QVERIFY(finished.wait(60000));
        QTest::qWait(200);
        lab->chart()->flush();
        QVERIFY(lab->chart()->message().isEmpty());
        QVERIFY(!pbx::test::saveScreenshot(*lab, QStringLiteral("projectorcharts_lab_") + testScreenName())
                     .isEmpty());

        // At the size it opens at and shrunk to its smallest: the x axis' title, in the dialog's
        // coordinates, ends above the legend's first line (at its size hint, 829 × 512, before,
        // the legend started 39 px above the title's end), and the legend's text is whole.
        verifyLegendClearOfAxisTitle(lab, QStringLiteral("at its own size"));
        lab->resize(1, 1); // its minimum size
        QTest::qWait(200);
        QVERIFY(!pbx::test::saveScreenshot(*lab,
                                           QStringLiteral("projectorcharts_lab_smallest_") + testScreenName())
                     .isEmpty());
        verifyLegendClearOfAxisTitle(lab, QStringLiteral("at its minimum size"));
        verifyNoChartProblems(lab, QStringLiteral("relative-error lab"));

        // Within α: a percentage where there were answers, "—" where there were none.
        const QTableWidget *table = lab->resultsTable();
        int none = 0;
        for (int row = 0; row < table->rowCount(); ++row) {
            const double answered
                = table->item(row, LabDialog::AnsweredColumn)->data(LabDialog::RawValueRole).toDouble();
            const QString within = table->item(row, LabDialog::WithinColumn)->text();
            if (answered > 0.0) {
                QVERIFY2(within.endsWith(QStringLiteral("%")), qPrintable(within));
            } else {
                QCOMPARE(within, QStringLiteral("—"));
                QVERIFY(table->item(row, LabDialog::WithinColumn)
                            ->toolTip()
                            .contains(QStringLiteral("No answers")));
                ++none;
            }
        }
        QVERIFY2(none >= 1,
                 "no method without answers in this run (the seeded run had Laplace NR · unified)");
    }

    /// The growing lab at the size it opens at, after a short run: the time cursor's read-out
    /// (now four lines, with the measured accuracy) is shown whole.
    void growingReadoutWholeAfterRun()
    {
        GrowingLabDialog lab;
        lab.show();
        QVERIFY(QTest::qWaitForWindowExposed(&lab));
        lab.repetitionsSpin()->setValue(lab.repetitionsSpin()->minimum());
        QVERIFY(lab.run());
        lab.waitForRun();
        QTRY_VERIFY(!lab.isRunning());
        lab.setCursorTime(5000.0);
        QTest::qWait(200);
        auto *readout = lab.findChild<QLabel *>(QStringLiteral("growingReadout"));
        QVERIFY(readout);
        QVERIFY2(readout->text().contains(QStringLiteral("measured")), qPrintable(readout->text()));
        QVERIFY2(readout->heightForWidth(readout->contentsRect().width())
                     <= readout->contentsRect().height() + 1,
                 qPrintable(QStringLiteral("read-out needs %1 px, has %2 (%3 px wide)")
                                .arg(readout->heightForWidth(readout->contentsRect().width()))
                                .arg(readout->contentsRect().height())
                                .arg(readout->width())));
        // Inside the dialog, not below its edge.
        const QRect inLab(readout->mapTo(&lab, QPoint(0, 0)), readout->size());
        QVERIFY2(lab.rect().contains(inLab), "the read-out lies outside the dialog");
        QVERIFY(!pbx::test::saveScreenshot(lab, QStringLiteral("projectorcharts_growing_") + testScreenName())
                     .isEmpty());
    }
};

int main(int argc, char **argv)
{
    return pbx::test::runOnTestScreen<TestProjectorCharts>(argc, argv);
}

#include "tst_projectorcharts.moc"
