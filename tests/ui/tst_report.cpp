// SPDX-License-Identifier: MIT
// File ▸ Export report… end to end: a seeded CPS1988 session in the main window is exported as
// HTML and as PDF through the action's function (exportReportTo); the HTML holds every event and
// the seeded mark, the PDF is a real PDF, and every PDF page carries the seeded band in its
// header. The pages (PDF layout painted to images, as QPdfWriter receives them) and the HTML in
// a QTextBrowser are saved as screenshots at 1024×700 and 1920×1080 for looking at.
#include "core/io/request_json.h"
#include "core/report/event_description.h"
#include "core/report/report_html.h"
#include "core/report/session_report.h"
#include "resources/dataset_catalog.h"
#include "ui/appsettings.h"
#include "ui/comparison/comparisonview.h"
#include "ui/comparison/strategyresultsmodel.h"
#include "ui/mainwindow.h"
#include "ui/report/reportexport.h"
#include "ui/report/reportwriter.h"
#include "ui/sessiondocument.h"
#include "ui/widgets/resultcard.h"
#include "uitestutils.h"

#include <QAction>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QMenuBar>
#include <QPainter>
#include <QProgressDialog>
#include <QRegularExpression>
#include <QScrollBar>
#include <QSettings>
#include <QStandardPaths>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextCursor>
#include <QTextDocument>
#include <QTextLayout>
#include <QTextTable>
#include <QTimer>
#include <QtTest/QtTest>

#include <cmath>

using namespace pbx;
using pbx::ui::MainWindow;

namespace {

session::QueryRequest request(const char *line)
{
    auto r = io::readRequestLine(line, 1);
    if (!r)
        qFatal("%s", r.error().message.c_str());
    return *r;
}

const std::vector<const char *> kScalarRequests = {
    "{\"id\":\"south\",\"aggregate\":\"count\",\"where\":\"region == \\\"south\\\"\",\"target\":{\"kind\":"
    "\"absolute\",\"error\":40,\"confidence\":0.95}}",
    "{\"id\":\"wage\",\"aggregate\":\"mean\",\"column\":\"wage\",\"bounds\":[0,4000],\"target\":{\"kind\":"
    "\"relative\",\"error\":0.05,\"confidence\":0.95}}",
    "{\"id\":\"edu-west\",\"aggregate\":\"sum\",\"column\":\"education\",\"where\":\"region == \\\"west\\\"\","
    "\"target\":{\"kind\":\"absolute\",\"error\":2000}}",
    "{\"id\":\"afam\",\"aggregate\":\"count\",\"where\":\"ethnicity == \\\"afam\\\"\",\"target\":{\"kind\":"
    "\"relative\",\"error\":0.1,\"confidence\":0.9}}",
    "{\"id\":\"too-precise\",\"aggregate\":\"count\",\"target\":{\"kind\":\"absolute\",\"error\":0.5}}",
};

const std::vector<const char *> kHistogramRequests = {
    "{\"id\":\"regions\",\"aggregate\":\"histogram\",\"column\":\"region\",\"target\":{\"kind\":\"absolute\","
    "\"error\":20,\"confidence\":0.95}}",
    "{\"id\":\"south+west\",\"aggregate\":\"derived\",\"of\":\"regions\",\"derived\":\"range\",\"cells\":[2,3],"
    "\"target\":{\"kind\":\"absolute\",\"error\":100}}",
    "{\"id\":\"all\",\"aggregate\":\"count\",\"target\":{\"kind\":\"absolute\",\"error\":50}}",
};

/// A window on CPS1988 with seeded noise and `filter`, after asking `lines`.
std::unique_ptr<MainWindow> windowWith(const std::vector<const char *> &lines, filters::FilterKind filter)
{
    auto w = std::make_unique<MainWindow>();
    if (!w->openDataset(QStringLiteral("cps1988")).ok())
        qFatal("cannot open cps1988");
    session::SessionSettings settings;
    settings.seed = 20240601;
    settings.filter = filter;
    if (!w->startNewSession(settings).ok())
        qFatal("cannot start session");
    for (const char *line : lines)
        if (!w->document()->ask(request(line)).ok())
            qFatal("ask failed: %s", line);
    return w;
}

/// Saves every page of the PDF layout at `size`; returns the page count. Checks the seeded band.
int savePdfPages(const report::SessionReport &facts, QSize size, const QString &name)
{
    int count = 0;
    ui::renderReportPage(facts, 0, size, &count);
    for (int page = 0; page < count; ++page) {
        const QImage image = ui::renderReportPage(facts, page, size);
        image.save(test::screenshotDir()
                       + QStringLiteral("/%1-pdf-%2x%3-page%4.png")
                             .arg(name)
                             .arg(size.width())
                             .arg(size.height())
                             .arg(page + 1),
                   "PNG");
        // The page is centred; its header band (#fff0c0) is near the top of the page area: find
        // it in the image's upper tenth.
        bool band = false;
        for (int y = 0; y < size.height() / 10 && !band; ++y)
            for (int x = size.width() / 3; x < size.width() * 2 / 3 && !band; x += 7)
                band = test::closeColour(image.pixelColor(x, y), QColor(0xff, 0xf0, 0xc0), 6);
        if (facts.seeded() != band) {
            qWarning("page %d: seeded band %s", page + 1, band ? "present" : "missing");
            return -1;
        }
    }
    return count;
}

/// The report in a QTextBrowser of `size`, one screenshot per screenful. QTextBrowser does not
/// draw inline SVG, so the charts are handed to it as images rendered from the same SVG.
int saveHtmlScreens(const report::SessionReport &facts, QSize size, const QString &name)
{
    QTextBrowser browser;
    browser.resize(size);
    report::HtmlOptions options;
    options.charts = report::HtmlOptions::ChartMode::ImageReferences;
    for (const auto &chart : report::reportCharts(facts)) {
        QSvgRenderer renderer(QByteArray::fromStdString(chart.svg));
        if (!renderer.isValid())
            return -1;
        QImage image(QSize(int(chart.width), int(chart.height)), QImage::Format_ARGB32);
        image.fill(Qt::white);
        QPainter painter(&image);
        renderer.render(&painter);
        painter.end();
        image.save(test::screenshotDir()
                   + QStringLiteral("/%1-svg-%2.png").arg(name, QString::fromStdString(chart.name)));
        browser.document()->addResource(QTextDocument::ImageResource,
                                        QUrl(QString::fromStdString("pbx-chart:" + chart.name)), image);
    }
    browser.setHtml(QString::fromStdString(report::reportHtml(facts, options)));
    browser.show();
    QTest::qWait(50);
    QScrollBar *bar = browser.verticalScrollBar();
    int screen = 0;
    for (int y = 0;; y += bar->pageStep()) {
        bar->setValue(y);
        test::saveScreenshot(browser, QStringLiteral("%1-html-%2x%3-screen%4")
                                          .arg(name)
                                          .arg(size.width())
                                          .arg(size.height())
                                          .arg(++screen));
        if (y >= bar->maximum())
            break;
    }
    return screen;
}

} // namespace

class TestReportExport : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_dir.isValid());
    }

    void fileMenuExportsHtmlAndPdf()
    {
        auto w = windowWith(kScalarRequests, filters::FilterKind::Zcdp);
        auto *action = w->findChild<QAction *>(QStringLiteral("exportReportAction"));
        QVERIFY(action);
        QVERIFY(action->isEnabled());
        QCOMPARE(action->text(), QStringLiteral("Export &report…"));

        const QString html = m_dir.filePath(QStringLiteral("session-report.html"));
        auto written = w->exportReportTo(html);
        QVERIFY2(written.ok(), written.ok() ? "" : written.error().message.c_str());
        QFile file(html);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(file.readAll());
        for (const auto &e : w->document()->session().events())
            QVERIFY2(text.contains(QStringLiteral("<td>%1</td>").arg(QString::fromStdString(e.request.id))),
                     e.request.id.c_str());
        QCOMPARE(text.count(QString::fromUtf8(report::kSeededMark)), 2);
        QVERIFY(text.contains(QStringLiteral("Made by</th><td>pbx ")));

        const QString pdf = m_dir.filePath(QStringLiteral("session-report.pdf"));
        written = w->exportReportTo(pdf);
        QVERIFY2(written.ok(), written.ok() ? "" : written.error().message.c_str());
        QFile pdfFile(pdf);
        QVERIFY(pdfFile.open(QIODevice::ReadOnly));
        const QByteArray bytes = pdfFile.readAll();
        QVERIFY(bytes.startsWith("%PDF-"));
        QVERIFY(bytes.size() > 20000); // text, fonts and two chart images
        QVERIFY(bytes.contains("%%EOF"));

        // A name that is neither: refused, nothing written.
        const QString txt = m_dir.filePath(QStringLiteral("report.txt"));
        auto refused = w->exportReportTo(txt);
        QVERIFY(!refused.ok());
        QCOMPARE(refused.error().code, ErrorCode::InvalidArgument);
        QVERIFY(refused.error().message.find(".html or .pdf") != std::string::npos);
        QVERIFY(!QFile::exists(txt));
        // A folder that does not exist: Io naming the path.
        auto missing = w->exportReportTo(m_dir.filePath(QStringLiteral("no/such/folder/r.pdf")));
        QVERIFY(!missing.ok());
        QCOMPARE(missing.error().code, ErrorCode::Io);
        QVERIFY(missing.error().message.find("no/such/folder") != std::string::npos);
    }

    // A 10⁴-request PDF took 149 s and 334 MB (one QTextDocument table of every request)
    // on the GUI thread. The PDF now prints the first 200 requests in tables of 50, with a note
    // naming how many are left out; the export runs on a worker thread behind a progress dialog.
    void pdfOfManyRequestsIsCapped()
    {
        session::SessionSettings settings;
        settings.seed = 7;
        settings.filter = filters::FilterKind::Basic;
        settings.epsilon = 1000.0;
        auto table = std::make_shared<const data::Table>(std::move(*resources::loadDataset("cps1988")));
        auto s = std::move(session::Session::create(table, settings).value());
        for (int i = 0; i < 600; ++i)
            QVERIFY(
                s->ask(request("{\"aggregate\":\"count\",\"target\":{\"kind\":\"absolute\",\"error\":5000}}"))
                    .ok());
        const auto facts = report::collectReport(*s, {});
        auto doc = ui::reportTextDocument(facts, 700.0);
        const QString text = doc->toPlainText();
        QVERIFY2(text.contains(
                     QStringLiteral("This PDF lists the first 200 of 600 requests; the other 400 are in the "
                                    "HTML report and in the transcript.")),
                 qPrintable(text.right(2000)));
        QVERIFY(text.contains(QStringLiteral("600 requests, 600 released")));
        // Four tables of 50 requests (each with its header), not one of 600.
        QCOMPARE(text.count(QStringLiteral("answer ± error bar")), 4);
        int pages = 0;
        ui::renderReportPage(facts, 0, QSize(200, 283), &pages);
        QVERIFY2(pages <= 20, qPrintable(QString::number(pages))); // 17; all 600 requests made about 50

        // The window's export: a progress dialog over the window while a worker writes the file.
        auto w = windowWith(kScalarRequests, filters::FilterKind::Zcdp);
        bool sawDialog = false;
        QTimer probe;
        probe.setInterval(5);
        connect(&probe, &QTimer::timeout, this, [&] {
            sawDialog = sawDialog || w->findChild<QProgressDialog *>(QStringLiteral("reportExportProgress"));
        });
        probe.start();
        const QString pdf = m_dir.filePath(QStringLiteral("threaded.pdf"));
        auto written = w->exportReportTo(pdf);
        probe.stop();
        QVERIFY2(written.ok(), written.ok() ? "" : written.error().message.c_str());
        QVERIFY(sawDialog); // the GUI thread ran its timers while the report was written
        QVERIFY(QFile::exists(pdf));
    }

    /// The PDF's request numbers sit on one line: the "#" column was 3 % of the page wide and
    /// QTextDocument broke "14" into "1" over "4".
    void requestNumbersDoNotWrap()
    {
        session::SessionSettings settings;
        settings.seed = 7;
        settings.filter = filters::FilterKind::Basic;
        settings.epsilon = 100.0;
        auto table = std::make_shared<const data::Table>(std::move(*resources::loadDataset("cps1988")));
        auto s = std::move(session::Session::create(table, settings).value());
        for (int i = 0; i < 120; ++i)
            QVERIFY(s->ask(request("{\"aggregate\":\"count\",\"target\":{\"kind\":\"absolute\","
                                   "\"error\":500}}"))
                        .ok());
        const auto facts = report::collectReport(*s, {});
        // The A4 page's width at 96 px per inch less the margins, as the PDF lays it out.
        auto doc = ui::reportTextDocument(facts, 689.0);
        doc->setPageSize(QSizeF(689.0, 1000.0));
        QVERIFY(doc->pageCount() > 1); // laid out
        int numbers = 0;
        for (QTextBlock block = doc->begin(); block.isValid(); block = block.next()) {
            QTextCursor cursor(block);
            QTextTable *t = cursor.currentTable();
            if (!t || t->cellAt(cursor).column() != 0)
                continue;
            bool isNumber = false;
            const int n = block.text().toInt(&isNumber);
            if (!isNumber || n < 1)
                continue;
            ++numbers;
            QVERIFY2(
                block.layout()->lineCount() == 1,
                qPrintable(
                    QStringLiteral("request %1 takes %2 lines").arg(n).arg(block.layout()->lineCount())));
        }
        QCOMPARE(numbers, 120);
    }

    /// The report's composition table gives the comparison view's numbers for the same Gaussian
    /// ledger, string for string: basic, advanced and optimal composition through the per-step
    /// (ε, δ) view (the report said "does not apply"), zCDP, RDP and the PLD as the view prints
    /// them (rounded up, four digits).
    void reportAgreesWithComparisonView()
    {
        const std::vector<const char *> counts = {
            "{\"id\":\"a\",\"aggregate\":\"count\",\"target\":{\"kind\":\"absolute\",\"error\":40}}",
            "{\"id\":\"b\",\"aggregate\":\"count\",\"where\":\"region == \\\"south\\\"\",\"target\":{\"kind\":"
            "\"absolute\",\"error\":60}}",
            "{\"id\":\"c\",\"aggregate\":\"count\",\"where\":\"smsa == \\\"yes\\\"\",\"target\":{\"kind\":"
            "\"absolute\",\"error\":80}}",
        };
        auto w = windowWith(counts, filters::FilterKind::Zcdp);
        w->resize(1280, 900);
        w->show();
        QVERIFY(QTest::qWaitForWindowExposed(w.get()));
        w->comparisonDock()->show();
        ui::ComparisonView *view = w->comparisonView();
        QSignalSpy shown(view, &ui::ComparisonView::resultsShown);
        view->recomputeNow();
        QVERIFY(shown.wait(120000) || !shown.isEmpty());
        QTRY_VERIFY_WITH_TIMEOUT(!view->isBusy(), 120000);
        QVERIFY(view->lastInput().perStepDelta > 0.0); // the view's default: Gaussian steps as (ε, δ)

        const auto facts = report::collectReport(w->document()->session(), {});
        QVERIFY(facts.comparison.comparison);
        QCOMPARE(facts.comparison.delta, view->lastInput().delta);
        QCOMPARE(facts.comparison.perStepDelta, view->lastInput().perStepDelta);
        const std::string html = report::reportHtml(facts);
        const ui::StrategyResultsModel *model = view->resultsModel();
        int compared = 0;
        for (int row = 0; row < model->rowCount(); ++row) {
            const QString name = model->index(row, 0).data(ui::StrategyResultsModel::NameRole).toString();
            const QString shownValue = model->index(row, ui::StrategyResultsModel::Value).data().toString();
            const auto *strategy = facts.comparison.comparison->find(name.toStdString());
            QVERIFY2(strategy, qPrintable(name));
            const QString reported = QString::fromStdString(report::comparisonEpsilonText(*strategy));
            if (shownValue == QStringLiteral("—")) {
                QCOMPARE(reported, QStringLiteral("does not apply"));
                continue;
            }
            QCOMPARE(reported, shownValue);
            const QString title = model->index(row, ui::StrategyResultsModel::Strategy).data().toString();
            QVERIFY2(html.find("<td>" + title.toStdString() + "</td><td>" + reported.toStdString() + "</td>")
                         != std::string::npos,
                     qPrintable(title + QStringLiteral(" ") + reported));
            ++compared;
        }
        QCOMPARE(compared, 6); // every strategy applies, basic, advanced and optimal included
    }

    /// σ² of the exact discrete Gaussian reads as a decimal on the result card and in the report
    /// (it read "σ² = 1425840514581/2147483648"); the exact fraction is the card's tooltip and
    /// the report's footnote. A histogram's headline says it is the total of the noisy counts,
    /// whose target is per count.
    void sigmaSquaredIsADecimal()
    {
        auto w = windowWith({kScalarRequests[0]}, filters::FilterKind::Zcdp);
        const auto &event = w->document()->session().events().front();
        QVERIFY(event.accounting.find("σ² = ") != std::string::npos);
        auto *card = w->findChild<ui::ResultCard *>();
        QVERIFY(card);
        card->showLedgerEvent(event, w->document()->session().filter());
        const QString note = card->note();
        QVERIFY2(note.contains(QStringLiteral("σ² ≈ ")), qPrintable(note));
        static const QRegularExpression fraction(QStringLiteral("\\d+/\\d+"));
        QVERIFY2(!note.contains(fraction), qPrintable(note));
        const auto exact = report::exactParameters(event);
        QCOMPARE(exact.size(), std::size_t{1});
        QVERIFY2(card->noteToolTip().contains(QString::fromStdString(exact[0])),
                 qPrintable(card->noteToolTip()));
        // The decimal is the fraction's value at four digits: 'σ² ≈ d' with d·den ≈ num.
        const QString exactText = QString::fromStdString(exact[0]);
        const QStringList parts = exactText.mid(exactText.indexOf(u'=') + 2).split(u'/');
        const double value = parts[0].toDouble() / parts[1].toDouble();
        const QString decimal
            = note.mid(note.indexOf(QStringLiteral("σ² ≈ ")) + 5).section(u' ', 0, 0).remove(u',');
        QVERIFY2(std::fabs(decimal.toDouble() - value) <= 5e-4 * value, qPrintable(decimal));
        const auto facts = report::collectReport(w->document()->session(), {});
        const std::string html = report::reportHtml(facts);
        QVERIFY(html.find("σ² ≈ " + decimal.toStdString()) != std::string::npos);
        QVERIFY(html.find("† Exact noise parameters (shown rounded above): #1: " + exact[0])
                != std::string::npos);
        auto doc = ui::reportTextDocument(facts, 689.0);
        QVERIFY(doc->toPlainText().contains(exactText)); // in the PDF too, as the footnote
        QVERIFY(!pbx::test::saveScreenshot(*card, QStringLiteral("report_card_sigma")).isEmpty());

        auto h = windowWith({kHistogramRequests[0]}, filters::FilterKind::Basic);
        const auto &histogram = h->document()->session().events().front();
        auto *histogramCard = h->findChild<ui::ResultCard *>();
        histogramCard->showLedgerEvent(histogram, h->document()->session().filter());
        const QString details = histogramCard->details();
        QVERIFY2(details.contains(QStringLiteral("the total of the 4 noisy counts")), qPrintable(details));
        QVERIFY2(details.contains(QStringLiteral("met by each value")), qPrintable(details));
        QVERIFY(
            !pbx::test::saveScreenshot(*histogramCard, QStringLiteral("report_card_histogram")).isEmpty());
    }

    /// The report dialog starts where the last report was written (remembered in the settings),
    /// not in the session's or the dataset's folder.
    void reportFolderIsRemembered()
    {
        QSettings().remove(QStringLiteral("files/lastReportFolder"));
        auto w = windowWith(kScalarRequests, filters::FilterKind::Zcdp);
        const QString sessionFolder = m_dir.filePath(QStringLiteral("sessions"));
        const QString reportFolder = m_dir.filePath(QStringLiteral("reports"));
        QVERIFY(QDir().mkpath(sessionFolder) && QDir().mkpath(reportFolder));
        const QString sessionPath = sessionFolder + QStringLiteral("/cps.json");
        // No report yet: beside the session file, named after it.
        QCOMPARE(ui::reportSaveSuggestion(sessionPath, QStringLiteral("cps1988")),
                 sessionFolder + QStringLiteral("/cps-report.html"));
        auto written = w->exportReportTo(reportFolder + QStringLiteral("/first.html"));
        QVERIFY2(written.ok(), written.ok() ? "" : written.error().message.c_str());
        QCOMPARE(ui::AppSettings::lastReportFolder(), QFileInfo(reportFolder).absoluteFilePath());
        // The next report (of this or another session) starts in the reports folder.
        QCOMPARE(ui::reportSaveSuggestion(sessionPath, QStringLiteral("cps1988")),
                 QFileInfo(reportFolder).absoluteFilePath() + QStringLiteral("/cps-report.html"));
        QCOMPARE(ui::reportSaveSuggestion(QString(), QStringLiteral("cps1988")),
                 QFileInfo(reportFolder).absoluteFilePath() + QStringLiteral("/cps1988-report.html"));
        // A failed export does not move it.
        QVERIFY(!w->exportReportTo(m_dir.filePath(QStringLiteral("no/such/r.html"))).ok());
        QCOMPARE(ui::AppSettings::lastReportFolder(), QFileInfo(reportFolder).absoluteFilePath());
    }

    void noSessionNoReport()
    {
        MainWindow w;
        auto *action = w.findChild<QAction *>(QStringLiteral("exportReportAction"));
        QVERIFY(action);
        QVERIFY(!action->isEnabled());
        auto refused = w.exportReportTo(m_dir.filePath(QStringLiteral("x.html")));
        QVERIFY(!refused.ok());
    }

    void pagesCarryTheSeededMark_data()
    {
        QTest::addColumn<int>("which");
        QTest::newRow("scalar") << 0;
        QTest::newRow("histogram") << 1;
    }

    void pagesCarryTheSeededMark()
    {
        QFETCH(int, which);
        auto w = which == 0 ? windowWith(kScalarRequests, filters::FilterKind::Zcdp)
                            : windowWith(kHistogramRequests, filters::FilterKind::Basic);
        report::ReportSource source;
        source.path = "/home/analyst/cps-session.json";
        source.generator = "pbx (test)";
        source.created = "2026-11-26 04:30 UTC";
        const auto facts = report::collectReport(w->document()->session(), source);
        // A histogram is one pure-ε event (parallel composition): both sessions are compared.
        QVERIFY(facts.comparison.comparison.has_value());
        const QString name
            = which == 0 ? QStringLiteral("report-scalar") : QStringLiteral("report-histogram");
        for (const QSize size : {QSize(1024, 700), QSize(1920, 1080)}) {
            const int pages = savePdfPages(facts, size, name);
            QVERIFY2(pages >= 2, qPrintable(QStringLiteral("%1 pages").arg(pages)));
            QVERIFY(saveHtmlScreens(facts, size, name) >= 2);
        }
        // The page count, for the log (the layout does not depend on the image size).
        int count = 0;
        ui::renderReportPage(facts, 0, QSize(1024, 700), &count);
        qInfo("%s: %d PDF pages", qPrintable(name), count);
    }
};

QTEST_MAIN(TestReportExport)
#include "tst_report.moc"
