// SPDX-License-Identifier: MIT
// File-supplied text is shown as plain text: a dataset's metadata name, provenance and
// column descriptions with 18 nested <table>s (which hung the dataset panel for over a minute),
// <img>, links and <h1> reach the dataset panel's labels as Qt::PlainText and its tooltips escaped,
// and the panel lays out at once. A lesson's dataset declared public by the same metadata runs.
#include "tests/testutils.h"
#include "ui/mainwindow.h"
#include "ui/models/ledgermodel.h"
#include "ui/panels/datasetpanel.h"
#include "ui/sessiondocument.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QTableWidget>
#include <QTemporaryDir>

using namespace pbx;

class TestPlainText : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void datasetPanelShowsMetadataAsText();
    void ledgerTooltipsAreText();
    void labelTheJournalCannotHoldIsRefusedAtOpen();
};

void TestPlainText::datasetPanelShowsMetadataAsText()
{
    QTemporaryDir dir;
    QString nested;
    for (int i = 0; i < 18; ++i)
        nested += QStringLiteral("<table><tr><td>");
    const QString spoof = QStringLiteral("<h1>Official</h1><img src=\"x.png\"><a href=\"http://x\">link</a>");
    {
        QFile csv(dir.filePath(QStringLiteral("survey.csv")));
        QVERIFY(csv.open(QIODevice::WriteOnly));
        csv.write("age,group\n30,a\n41,b\n52,a\n");
    }
    const QJsonObject metadata{
        {QStringLiteral("format"), QStringLiteral("pbx-dataset-metadata")},
        {QStringLiteral("version"), 1},
        {QStringLiteral("name"), spoof},
        {QStringLiteral("provenance"), nested + QStringLiteral("provenance")},
        {QStringLiteral("columns"),
         QJsonArray{
             QJsonObject{{QStringLiteral("name"), QStringLiteral("age")},
                         {QStringLiteral("type"), QStringLiteral("numeric")},
                         {QStringLiteral("bounds"), QJsonArray{0, 120}},
                         {QStringLiteral("description"), nested + spoof}},
             QJsonObject{{QStringLiteral("name"), QStringLiteral("group")},
                         {QStringLiteral("type"), QStringLiteral("categorical")},
                         {QStringLiteral("categories"), QJsonArray{QStringLiteral("a"), QStringLiteral("b")}},
                         {QStringLiteral("description"), spoof}}}}};
    {
        QFile sidecar(dir.filePath(QStringLiteral("survey.json")));
        QVERIFY(sidecar.open(QIODevice::WriteOnly));
        sidecar.write(QJsonDocument(metadata).toJson());
    }
    ui::MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QElapsedTimer clock;
    clock.start();
    const auto opened = w.openDataset(dir.filePath(QStringLiteral("survey.csv")));
    QVERIFY2(opened.ok(), opened.ok() ? "" : opened.error().message.c_str());
    w.grab(); // lays out and paints the panel
    QVERIFY2(clock.elapsed() < 10000, qPrintable(QString::number(clock.elapsed())));
    auto *panel = w.findChild<ui::DatasetPanel *>();
    QVERIFY(panel);
    int fromFile = 0;
    for (QLabel *label : panel->findChildren<QLabel *>())
        if (label->text().contains(QStringLiteral("<table>"))
            || label->text().contains(QStringLiteral("<h1>"))) {
            QCOMPARE(label->textFormat(), Qt::PlainText);
            ++fromFile;
        }
    QCOMPARE(fromFile, 2); // the name and the provenance, verbatim
    auto *columns = panel->findChild<QTableWidget *>();
    QVERIFY(columns);
    for (int row = 0; row < columns->rowCount(); ++row)
        for (int column = 0; column < columns->columnCount(); ++column) {
            const QString tip = columns->item(row, column)->toolTip();
            QVERIFY2(!tip.contains(QStringLiteral("<table>")) && !tip.contains(QStringLiteral("<img"))
                         && !tip.contains(QStringLiteral("<h1>")),
                     qPrintable(tip));
        }
    QVERIFY(columns->item(0, 3)->toolTip().contains(QStringLiteral("&lt;table&gt;")));
    QVERIFY(columns->item(1, 0)->toolTip().contains(QStringLiteral("&lt;h1&gt;Official")));
}

// A request's id and predicate (from a transcript or a lesson) reach the ledger's tooltips
// escaped, never as HTML.
void TestPlainText::ledgerTooltipsAreText()
{
    QTemporaryDir dir;
    const QString csv = dir.filePath(QStringLiteral("labels.csv"));
    {
        QFile f(csv);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("age,group\n30,<h1>Official</h1>\n41,b\n52,b\n");
    }
    ui::MainWindow w;
    QVERIFY(w.openDataset(csv).ok());
    session::QueryRequest r;
    r.id = "q1";
    r.query.where = "group == \"<h1>Official</h1>\"";
    r.target = {session::TargetKind::Absolute, 50, 0.95};
    const auto asked = w.document()->ask(r);
    QVERIFY2(asked.ok(), asked.ok() ? "" : asked.error().message.c_str());
    const QString tip = w.ledgerModel()
                            ->data(w.ledgerModel()->index(0, ui::LedgerModel::Query), Qt::ToolTipRole)
                            .toString();
    QVERIFY2(tip.contains(QStringLiteral("&lt;h1&gt;Official")), qPrintable(tip));
    QVERIFY2(!tip.contains(QStringLiteral("<h1>")), qPrintable(tip));
}

// A category label that is not UTF-8 (arbitrary bytes in a CSV file) cannot be written into the
// journal: the GUI refuses the dataset when it is opened, as pbx-cli run does, naming the column and
// never the label, instead of charging a sparse vector or histogram whose record cannot be written.
void TestPlainText::labelTheJournalCannotHoldIsRefusedAtOpen()
{
    QTemporaryDir dir;
    const QString csv = dir.filePath(QStringLiteral("people.csv"));
    {
        QFile f(csv);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("region,wage\nsouth,100\ncaf\xe9,200\nnorth,300\n");
    }
    ui::MainWindow w;
    const auto opened = w.openDataset(csv);
    QVERIFY(!opened.ok());
    const QString message = QString::fromStdString(opened.error().message);
    QVERIFY2(message.contains(QStringLiteral("region")), qPrintable(message));
    QVERIFY2(message.contains(QStringLiteral("UTF-8")), qPrintable(message));
    QVERIFY(!w.document()->hasSession());
}

QTEST_MAIN(TestPlainText)
#include "tst_plaintext.moc"
