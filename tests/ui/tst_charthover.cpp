// SPDX-License-Identifier: MIT
// Hover a point on any chart to read its values (ChartHover, installed by every ChartFrame): a
// mouse move onto a point's pixel position (QChart::mapToPosition) shows a tooltip with the
// series name, x and y in the axes' number style, and on the privacy-loss path the request the
// point belongs to. Covers a line chart with request labels (the path), a comparison chart, a lab
// chart, a bar chart with error bars and an area band (the PLD histogram). Saves screenshots.
#include "ui/charts/charthover.h"
#include "ui/charts/comparisoncharts.h"
#include "ui/charts/labchart.h"
#include "ui/charts/noisereductionchart.h"
#include "ui/charts/privacylosspathchart.h"
#include "ui/charts/strategycharts.h"
#include "uitestutils.h"

#include <QAreaSeries>
#include <QBarSeries>
#include <QChart>
#include <QChartView>
#include <QLabel>
#include <QLineSeries>
#include <QMouseEvent>
#include <QPainter>
#include <QTextDocument>
#include <QToolTip>
#include <QXYSeries>
#include <QtTest/QtTest>

#include <vector>

using namespace pbx::ui;

namespace {

QChartView *viewOf(QWidget &frame)
{
    return frame.findChild<QChartView *>();
}

template<class Series>
Series *seriesNamed(QWidget &frame, const QString &name)
{
    for (QAbstractSeries *series : viewOf(frame)->chart()->series())
        if (series->name() == name)
            return qobject_cast<Series *>(series);
    return nullptr;
}

/// The viewport pixel where `value` of `series` is drawn.
QPoint pixelOf(QWidget &frame, QAbstractSeries *series, QPointF value)
{
    QChartView *view = viewOf(frame);
    const QPointF inChart = view->chart()->mapToPosition(value, series);
    return view->mapFromScene(view->chart()->mapToScene(inChart));
}

/// Moves the pointer (no button) to `pos` in the viewport and returns the hover's tooltip as
/// plain text.
QString hoverAt(QWidget &frame, QPoint pos)
{
    QWidget *viewport = viewOf(frame)->viewport();
    QMouseEvent move(QEvent::MouseMove, QPointF(pos), viewport->mapToGlobal(QPointF(pos)), Qt::NoButton,
                     Qt::NoButton, Qt::NoModifier);
    QApplication::sendEvent(viewport, &move);
    QTextDocument document;
    document.setHtml(ChartHover::of(&frame)->shownText());
    return document.toPlainText();
}

/// Shows the chart at `size` and lets the coalesced update and the layout it causes (legend,
/// axes) settle, so pixel positions computed next stay valid.
void showSettled(ChartFrame &frame, QSize size)
{
    frame.resize(size);
    frame.show();
    QVERIFY(QTest::qWaitForWindowExposed(&frame));
    frame.flush();
    QTest::qWait(150);
}

/// Where a hover went and the tooltip it showed.
struct Hover
{
    QPoint at;
    QString text;
};

/// Moves the pointer onto the pixel where `value` of `series` is drawn; the hover's tooltip text.
Hover hoverOn(QWidget &frame, QAbstractSeries *series, QPointF value)
{
    const QPoint at = pixelOf(frame, series, value);
    return {at, hoverAt(frame, at)};
}

/// The frame with the tooltip painted in at `pos` (a grab does not include tooltip windows).
void saveWithTooltip(QWidget &frame, QPoint pos, const QString &name)
{
    QTest::qWait(120);
    QImage image = frame.grab().toImage();
    QLabel tip;
    tip.setText(ChartHover::of(&frame)->shownText());
    tip.setStyleSheet(
        QStringLiteral("QLabel { background: #ffffe1; border: 1px solid #777; padding: 3px; }"));
    tip.adjustSize();
    QPainter painter(&image);
    const QPoint at = viewOf(frame)->viewport()->mapTo(&frame, pos) + QPoint(12, 12);
    tip.render(&painter, QPoint(std::min(at.x(), image.width() - tip.width()),
                                std::min(at.y(), image.height() - tip.height())));
    painter.end();
    QVERIFY(image.save(pbx::test::screenshotDir() + u'/' + name + QStringLiteral(".png")));
}

} // namespace

class TestChartHover : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void pathPointNamesItsRequest()
    {
        PrivacyLossPathChart chart;
        chart.setBudget(1.0, 0.0175, QStringLiteral("ρ"), 1e-6);
        const std::vector<PrivacyLossPathChart::PathPoint> points{
            {0.25, 0.00125, false}, {0.25, 0.00125, true}, {0.5625, 0.0045, false}};
        chart.setPath(points);
        chart.setRequestDescriber(
            [](int number) { return QStringLiteral("Q%1 · count of rows").arg(number); });
        showSettled(chart, QSize(480, 420));

        auto *epsilon = seriesNamed<QLineSeries>(chart, QStringLiteral("ε spent (at δ = 1e-6)"));
        QVERIFY(epsilon);
        const auto [third, text] = hoverOn(chart, epsilon, QPointF(3.0, 0.5625));
        QVERIFY2(text.contains(QStringLiteral("ε spent (at δ = 1e-6)")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("request #: 3")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("ε spent (at δ): 0.5625")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("Request 3: Q3 · count of rows")), qPrintable(text));
        QVERIFY(!text.contains(QStringLiteral("refused")));
        // The tooltip itself shows the same text.
        QVERIFY(QToolTip::isVisible());
        QCOMPARE(QToolTip::text(), ChartHover::of(&chart)->shownText());
        saveWithTooltip(chart, third, QStringLiteral("charthover-path"));

        // The refused request's marker says so.
        const QString refused = hoverOn(chart, epsilon, QPointF(2.0, 0.25)).text;
        QVERIFY2(refused.contains(QStringLiteral("Request 2: Q2 · count of rows (refused)")),
                 qPrintable(refused));

        // Away from every point (the middle of an empty stretch of the plot): no tooltip.
        const QPoint empty = pixelOf(chart, epsilon, QPointF(4.5, 0.05));
        QVERIFY(hoverAt(chart, empty).isEmpty());
        QVERIFY(!ChartHover::of(&chart)->hitAt(empty));
        // A few pixels off the point still hits it (radius ChartHover::hitRadius).
        const auto near = ChartHover::of(&chart)->hitAt(third + QPoint(5, -4));
        QVERIFY(near);
        QCOMPARE(near->index, 3);
        QCOMPARE(near->value, QPointF(3.0, 0.5625));
    }

    void pathChartOfALongSessionStaysQuick()
    {
        PrivacyLossPathChart chart;
        chart.setBudget(100.0, 100.0, QStringLiteral("ε"), 0.0);
        std::vector<PrivacyLossPathChart::PathPoint> points;
        for (int i = 1; i <= 10000; ++i)
            points.push_back({0.01 * i, 0.01 * i, false});
        chart.setPath(points);
        showSettled(chart, QSize(480, 420));
        auto *epsilon = seriesNamed<QLineSeries>(chart, QStringLiteral("ε spent"));
        QVERIFY(epsilon);
        const QPoint at = pixelOf(chart, epsilon, QPointF(5000.0, 50.0));
        QElapsedTimer timer;
        timer.start();
        const QString text = hoverAt(chart, at);
        const qint64 ms = timer.elapsed();
        qInfo() << "hover over 10^4 points:" << ms << "ms";
        QVERIFY2(ms < 100, qPrintable(QString::number(ms)));
        // Many points share the pixel; the reported one is within the radius and on the line.
        QVERIFY2(text.contains(QStringLiteral("request #: ")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("Request ")), qPrintable(text));
    }

    void comparisonCurveShowsStrategyAndValues()
    {
        CompositionCurveChart chart;
        chart.setCurves({StrategyCurve{QStringLiteral("basic"), {1, 2, 3}, {0.5, 1.0, 1.5}},
                         StrategyCurve{QStringLiteral("rdp"), {1, 2, 3}, {0.5, 0.8, 1.04321}}},
                        QStringLiteral("steps composed k"), 1e-5);
        showSettled(chart, QSize(480, 380));
        QLineSeries *rdp = nullptr;
        for (QAbstractSeries *series : viewOf(chart)->chart()->series())
            if (auto *line = qobject_cast<QLineSeries *>(series);
                line && line->count() == 4 && line->at(3).y() == 1.04321)
                rdp = line;
        QVERIFY(rdp);
        const auto [at, text] = hoverOn(chart, rdp, QPointF(3.0, 1.04321));
        QVERIFY2(text.startsWith(rdp->name()), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("steps composed k: 3")), qPrintable(text));
        // The y axis labels with "%.3g": the tooltip shows at least four significant digits.
        QVERIFY2(text.contains(QStringLiteral(": 1.043")), qPrintable(text));
        // No request on a comparison curve.
        QVERIFY(!text.contains(QStringLiteral("Request")));
        saveWithTooltip(chart, at, QStringLiteral("charthover-comparison"));
    }

    void labCurveShowsItsPoint()
    {
        LabChart chart;
        const std::vector<LabChart::Curve> curves{
            {QStringLiteral("Laplace NR"), Qt::blue, Qt::SolidLine, {0.1, 0.2, 0.3}, {1, 2, 3}, 0.0},
            {QStringLiteral("doubling"), Qt::red, Qt::DashLine, {0.15, 0.45, 0.9}, {1, 2, 2}, 0.0}};
        chart.setCurves(curves);
        showSettled(chart, QSize(480, 380));
        auto *doubling = seriesNamed<QLineSeries>(chart, QStringLiteral("doubling"));
        QVERIFY(doubling);
        const auto [at, text] = hoverOn(chart, doubling, QPointF(0.45, 2.0));
        QVERIFY2(text.startsWith(QStringLiteral("doubling")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral(": 0.45")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral(": 2")), qPrintable(text));
        saveWithTooltip(chart, at, QStringLiteral("charthover-lab"));
    }

    void barShowsCategoryValueAndErrorBar()
    {
        BarErrorChart chart;
        chart.setBars(QStringLiteral("Released counts"),
                      {QStringLiteral("[0, 10)"), QStringLiteral("[10, 20)")}, {12.5, 30.25}, {10.0, 27.0},
                      {15.0, 33.5}, QStringLiteral("count"));
        showSettled(chart, QSize(480, 380));
        auto *bars = qobject_cast<QBarSeries *>(viewOf(chart)->chart()->series().value(0));
        QVERIFY(bars);
        // Halfway up the second bar.
        const auto [at, text] = hoverOn(chart, bars, QPointF(1.0, 15.0));
        QVERIFY2(text.startsWith(QStringLiteral("count")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("\n[10, 20)\n")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral(": 30.25")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("error bar 27 to 33.5")), qPrintable(text));
        saveWithTooltip(chart, at, QStringLiteral("charthover-bars"));
    }

    void areaBandShowsItsBound()
    {
        PldHistogramChart chart;
        chart.setHistogram({0.0, 0.5, 1.0}, {0.5, 0.3, 0.2}, 0.5, 0.7, 0.0, 0.5, true);
        showSettled(chart, QSize(480, 380));
        auto *above = seriesNamed<QAreaSeries>(chart, QStringLiteral("loss > ε"));
        QVERIFY(above);
        QVERIFY(above->upperSeries()->count() > 0);
        // Some point of the band's upper edge.
        const QPointF value = above->upperSeries()->at(1);
        const QString text = hoverOn(chart, above, value).text;
        QVERIFY2(text.startsWith(QStringLiteral("loss > ε")), qPrintable(text));
    }

    void noiseReductionShowsTheScaleNotItsLogarithm()
    {
        NoiseReductionChart chart;
        const std::vector<NoiseReductionChart::Level> levels{
            {400.0, 130.0, 1200.0, false}, {200.0, 170.0, 600.0, false}, {50.0, 151.5, 150.0, true}};
        chart.setLevels(levels, QStringLiteral("b"), std::nullopt, 200.0);
        showSettled(chart, QSize(480, 380));
        QLineSeries *estimates = nullptr;
        for (QAbstractSeries *series : viewOf(chart)->chart()->series())
            if (auto *line = qobject_cast<QLineSeries *>(series); line && line->count() == 3)
                estimates = line;
        QVERIFY(estimates);
        // The chart's x coordinate is log10(b); the tooltip shows b = 200 itself.
        const QString text = hoverOn(chart, estimates, QPointF(std::log10(200.0), 170.0)).text;
        QVERIFY2(text.contains(QStringLiteral(": 200\n")) || text.contains(QStringLiteral("\n200\n")),
                 qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("170")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("error bar -430 to 770")), qPrintable(text));
    }

    void axisFormats()
    {
        LabChart chart; // any frame: formatValue only reads the axis
        ChartHover *hover = ChartHover::of(&chart);
        QVERIFY(hover);
        QCOMPARE(hover->formatValue(nullptr, 0.123456), QStringLiteral("0.1235"));
    }
};

QTEST_MAIN(TestChartHover)
#include "tst_charthover.moc"
