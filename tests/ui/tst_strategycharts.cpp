// SPDX-License-Identifier: MIT
// The strategies' charts keep every label readable: the category axis of a bar chart
// never elides a label to "[…" nor lets two labels overlap (it rotates them, then shows every k-th),
// and a chart of many named curves never truncates a legend entry (its legend wraps below the
// plot). Checked on the texts Qt Charts actually lays out in the scene, at the request dialog's
// chart width and at the narrow width a 1024 × 700 window leaves. Screenshots: strategycharts-*.png.
#include "tests/ui/uitestutils.h"
#include "ui/charts/strategycharts.h"

#include <QGraphicsScene>
#include <QGraphicsTextItem>
#include <QGraphicsView>
#include <QTextDocument>

#include <vector>

using namespace pbx::ui;

namespace {

struct SceneText
{
    QString text;
    QRectF rect; ///< scene coordinates
};

/// Every visible non-empty text item in the chart's scene (axis labels, titles, legend names).
QList<SceneText> sceneTexts(QWidget &chart)
{
    QList<SceneText> out;
    auto *view = chart.findChild<QGraphicsView *>();
    if (!view || !view->scene())
        return out;
    for (QGraphicsItem *item : view->scene()->items()) {
        auto *text = dynamic_cast<QGraphicsTextItem *>(item);
        if (!text || !text->isVisible() || !text->parentItem() || !text->parentItem()->isVisible())
            continue;
        const QString plain = text->document()->toPlainText();
        if (!plain.trimmed().isEmpty())
            out.push_back({plain, text->mapRectToScene(text->boundingRect())});
    }
    return out;
}

bool elided(const QString &text)
{
    return text.contains(QStringLiteral("...")) || text.contains(QChar(0x2026));
}

/// The 21 prefix ranges of a workload on education: "[0, 0]" … "[0, 20]".
QStringList prefixLabels(int n)
{
    QStringList labels;
    for (int i = 0; i < n; ++i)
        labels << QStringLiteral("[0, %1]").arg(i);
    return labels;
}

} // namespace

class TestStrategyCharts : public QObject
{
    Q_OBJECT

private:
    void checkBars(int count, int width, const QString &screenshot)
    {
        BarErrorChart chart;
        const QStringList labels = prefixLabels(count);
        std::vector<double> values, lows, highs;
        for (int i = 0; i < count; ++i) {
            values.push_back(100.0 * i);
            lows.push_back(100.0 * i - 40.0);
            highs.push_back(100.0 * i + 40.0);
        }
        chart.setBars(QStringLiteral("w1 — released values with 95% error bars"), labels, values, lows, highs,
                      QStringLiteral("noisy value"));
        chart.resize(width, 420);
        chart.show();
        QVERIFY(!pbx::test::saveScreenshot(chart, screenshot).isEmpty());
        QList<SceneText> shown;
        for (const SceneText &t : sceneTexts(chart)) {
            QVERIFY2(!elided(t.text), qPrintable(QStringLiteral("elided: ") + t.text));
            if (t.text.startsWith(u'[') || labels.contains(t.text))
                shown.push_back(t);
        }
        // Every label shown is whole; at the dialog's width all 21 prefixes, always at least every
        // fifth label (a rotated label needs one line height, about 15 px).
        QVERIFY2(shown.size() >= (labels.size() + 4) / 5, qPrintable(QString::number(shown.size())));
        if (count <= 21 && width >= 600)
            QCOMPARE(shown.size(), labels.size());
        for (const SceneText &t : std::as_const(shown))
            QVERIFY2(labels.contains(t.text), qPrintable(t.text));
        // No two labels overlap (1 px of anti-aliasing allowed).
        for (qsizetype i = 0; i < shown.size(); ++i)
            for (qsizetype j = i + 1; j < shown.size(); ++j) {
                const QRectF overlap = shown[i].rect.intersected(shown[j].rect);
                QVERIFY2(overlap.width() <= 1.0 || overlap.height() <= 1.0,
                         qPrintable(shown[i].text + QStringLiteral(" overlaps ") + shown[j].text));
            }
    }

private slots:
    void categoryLabelsAreWholeAndApart_data()
    {
        QTest::addColumn<int>("count");
        QTest::addColumn<int>("width");
        // The request dialog's chart (620 px dialog) and the lab's three charts side by side at 1024.
        QTest::newRow("21 prefixes, dialog") << 21 << 600;
        QTest::newRow("21 prefixes, narrow") << 21 << 330;
        QTest::newRow("4 bins, narrow") << 4 << 330;
        QTest::newRow("80 ranges, dialog") << 80 << 600;
    }

    void categoryLabelsAreWholeAndApart()
    {
        QFETCH(int, count);
        QFETCH(int, width);
        checkBars(count, width, QStringLiteral("strategycharts-bars-%1-%2").arg(count).arg(width));
    }

    void legendNamesAreWhole_data()
    {
        QTest::addColumn<int>("width");
        QTest::newRow("lab at 980") << 940;
        QTest::newRow("lab at 1024x700 in a narrow column") << 480;
    }

    void legendNamesAreWhole()
    {
        QFETCH(int, width);
        // The range-strategy explorer: four predicted lines and four measured marker series.
        const QStringList names{QStringLiteral("identity"), QStringLiteral("hierarchical (b = 2)"),
                                QStringLiteral("hierarchical (b = 2) + least squares"),
                                QStringLiteral("wavelet (Haar)")};
        std::vector<CurvesChart::Curve> curves;
        for (int measured = 0; measured < 2; ++measured)
            for (int k = 0; k < names.size(); ++k) {
                CurvesChart::Curve c;
                c.name = measured ? QStringLiteral("%1 measured").arg(names[k]) : names[k];
                c.markers = measured;
                c.pairedWith = measured ? k : -1;
                for (int L = 1; L <= 20; ++L) {
                    c.x.push_back(L);
                    c.y.push_back((k + 1) * (1.0 + L) * (measured ? 1.05 : 1.0));
                }
                curves.push_back(std::move(c));
            }
        CurvesChart chart;
        chart.setCurves(QStringLiteral("Variance by range length (ε = 1): lines predicted, markers measured"),
                        curves, QStringLiteral("range length L"), QStringLiteral("variance"), true);
        chart.resize(width, 380);
        chart.show();
        QVERIFY(!pbx::test::saveScreenshot(chart, QStringLiteral("strategycharts-legend-%1").arg(width))
                     .isEmpty());
        for (const SceneText &t : sceneTexts(chart))
            QVERIFY2(!elided(t.text), qPrintable(QStringLiteral("elided: ") + t.text));
        // Every strategy's name is readable in full in the legend below the plot, once: the
        // measured markers share their line's entry ("━● name").
        const QString legend = chart.legendText().replace(QChar(0xa0), u' ');
        for (const QString &name : names)
            QVERIFY2(legend.contains(QStringLiteral("━● ") + name), qPrintable(legend));
        QVERIFY2(!legend.contains(QStringLiteral("measured")), qPrintable(legend));
    }
};

QTEST_MAIN(TestStrategyCharts)
#include "tst_strategycharts.moc"
