// SPDX-License-Identifier: MIT
// File ▸ Open dataset on a database table: the dialog offers CSV, SQLite and
// PostgreSQL and builds the descriptor; opening CPS1988 in SQLite through it shows where the data
// live in the dataset panel; a count answered there equals the in-memory session's (same seed);
// a quantile is refused with nothing spent; the window looked at offscreen at 1024×768.
#include "tests/sources/sqlite_cps.h"
#include "tests/testutils.h"
#include "ui/mainwindow.h"
#include "ui/panels/datasetpanel.h"
#include "ui/sessiondocument.h"
#include "ui/sources/opendatasetdialog.h"
#include "uitestutils.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest/QtTest>

using namespace pbx;
using pbx::ui::MainWindow;
using pbx::ui::OpenDatasetDialog;

namespace {

session::SessionSettings seeded()
{
    session::SessionSettings s;
    s.epsilon = 5.0;
    s.seed = 30;
    return s;
}

session::QueryRequest countSouth()
{
    session::QueryRequest r;
    r.query.aggregate = data::Aggregate::Count;
    r.query.where = "region == \"south\"";
    r.target = {session::TargetKind::Absolute, 50.0, 0.95};
    return r;
}

} // namespace

class TestOpenDatabase : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_dir.isValid());
        m_db = m_dir.filePath(QStringLiteral("cps.db"));
        QVERIFY(test::writeCps(m_db.toStdString(), test::cpsTable()));
        m_metadata = m_dir.filePath(QStringLiteral("cps.json"));
        QVERIFY(QFile::copy(QStringLiteral(PBX_SOURCE_DIR "/resources/datasets/cps1988.json"), m_metadata));
    }

    // The three kinds: CSV is a path; SQLite a file and a table, percent-encoded into a
    // descriptor; PostgreSQL a descriptor as typed. Only database kinds ask for metadata.
    void dialogBuildsTheDescriptor()
    {
        OpenDatasetDialog dialog;
        QCOMPARE(dialog.kindBox()->count(), 3);
        QCOMPARE(dialog.kindBox()->itemText(2), QStringLiteral("PostgreSQL table"));
        dialog.pathField()->setText(QStringLiteral("/data/people.csv"));
        QCOMPARE(dialog.dataset(), QStringLiteral("/data/people.csv"));
        QVERIFY(dialog.metadataField()->isHidden());
        QCOMPARE(dialog.metadataPath(), QString());

        dialog.setKind(OpenDatasetDialog::Kind::Sqlite);
        dialog.pathField()->setText(QStringLiteral("/data/q?a&b.db"));
        dialog.tableField()->setText(QStringLiteral("wages 1988"));
        dialog.metadataField()->setText(QStringLiteral("/data/wages.json"));
        QVERIFY(!dialog.tableField()->isHidden());
        QCOMPARE(dialog.dataset(), QStringLiteral("sqlite:/data/q%3Fa%26b.db?table=wages 1988"));
        QCOMPARE(dialog.metadataPath(), QStringLiteral("/data/wages.json"));

        dialog.setKind(OpenDatasetDialog::Kind::Postgres);
        QVERIFY(dialog.tableField()->isHidden());
        dialog.pathField()->setText(QStringLiteral("postgresql://ana@db:5432/survey?table=wages"));
        QCOMPARE(dialog.dataset(), QStringLiteral("postgresql://ana@db:5432/survey?table=wages"));
    }

    // Through the menu action and the dialog: the panel says where the data live and the declared
    // row count; the same seed gives the in-memory session's answer; a quantile is refused.
    void opensAnSqliteTableFromTheMenu()
    {
        MainWindow w;
        w.resize(1024, 768);
        w.show();
        QAction *open = nullptr;
        for (QAction *action : w.findChildren<QAction *>())
            if (action->text().startsWith(QStringLiteral("Open &dataset")))
                open = action;
        QVERIFY(open);
        QVERIFY(open->text().contains(QStringLiteral("SQLite")));
        bool filled = false;
        QTimer::singleShot(0, this, [&] {
            auto *dialog = qobject_cast<OpenDatasetDialog *>(QApplication::activeModalWidget());
            if (!dialog)
                return;
            dialog->setKind(OpenDatasetDialog::Kind::Sqlite);
            dialog->pathField()->setText(m_db);
            dialog->tableField()->setText(QStringLiteral("cps"));
            dialog->metadataField()->setText(m_metadata);
            QVERIFY(test::saveScreenshot(*dialog, QStringLiteral("open-dataset-sqlite")).size() > 0);
            filled = true;
            dialog->accept();
        });
        open->trigger();
        QVERIFY(filled);
        QVERIFY(w.document()->hasSession());
        QCOMPARE(w.document()->dataSource()->kind(), data::SourceKind::Sqlite);
        const QString location = w.datasetPanel()->sourceLabel()->text();
        QCOMPARE(location, QStringLiteral("SQLite file %1, table cps").arg(m_db));
        QCOMPARE(w.datasetPanel()->rowsLabel()->text(), QStringLiteral("28,155"));
        QCOMPARE(w.datasetPanel()->columnsTable()->rowCount(), 7);
        QVERIFY(test::saveScreenshot(w, QStringLiteral("open-database-1024x768")).size() > 0);

        QVERIFY(w.startNewSession(seeded()).ok());
        auto onSqlite = w.document()->ask(countSouth());
        QVERIFY2(onSqlite.ok(), onSqlite.ok() ? "" : onSqlite.error().message.c_str());
        auto inMemory
            = session::Session::create(std::make_shared<const data::Table>(test::cpsTable()), seeded());
        auto expected = (*inMemory)->ask(countSouth());
        QCOMPARE(onSqlite->answer, expected->answer);
        QCOMPARE(onSqlite->cost, expected->cost);

        session::QueryRequest quantile;
        quantile.query.column = "wage";
        quantile.target = {session::TargetKind::Absolute, 400.0, 0.95};
        session::StrategyRequestSpec spec;
        spec.kind = session::StrategyRequestKind::Quantile;
        quantile.spec = spec;
        const double spent = w.document()->session().filter().spent();
        PBX_VERIFY_ERROR(w.document()->ask(quantile), Unsupported, "a quantile needs an in-memory table");
        QCOMPARE(w.document()->session().filter().spent(), spent);
        QCOMPARE(w.document()->session().events().size(), std::size_t{1});
    }

private:
    QTemporaryDir m_dir;
    QString m_db;
    QString m_metadata;
};

QTEST_MAIN(TestOpenDatabase)
#include "tst_opendatabase.moc"
