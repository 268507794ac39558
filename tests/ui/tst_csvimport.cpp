// SPDX-License-Identifier: MIT
// File ▸ Import CSV (ui/dataset/csvimportdialog): a CSV with odd bytes (quotes, a byte that is not
// UTF-8, a cell that looks like HTML) is previewed as plain text; no bound or category is filled in
// from the data; declared types, bounds and categories are written to the sidecar the loader reads,
// and read back by the core reader; invalid bounds and an existing sidecar are refused with one
// line naming the column and field, and nothing is written. Screenshots at 1024×768 and 1920×1080.
#include "core/io/dataset_metadata.h"
#include "resources/dataset_catalog.h"
#include "tests/testutils.h"
#include "ui/dataset/csvimportdialog.h"
#include "ui/mainwindow.h"
#include "uitestutils.h"

#include <QCheckBox>
#include <QComboBox>
#include <QElapsedTimer>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QProgressDialog>
#include <QPushButton>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QThreadPool>
#include <QTimer>

using pbx::ui::CsvImportDialog;

namespace {

// id, wage (a quoted number), region, note (quotes, a comma, HTML-looking text, a byte 0xE9 that
// is not UTF-8). Three data rows.
const QByteArray oddCsv = "id,wage,region,note\n"
                          "1,\"1200\",south,<b>x</b>\n"
                          "2,30,north,\"he said \"\"hi\"\", then left\"\n"
                          "3,45.5,south,caf\xE9\n";

QString writeCsv(const QTemporaryDir &dir, const QByteArray &bytes = oddCsv)
{
    const QString path = dir.filePath(QStringLiteral("survey.csv"));
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size())
        qFatal("cannot write %s", qPrintable(path));
    return path;
}

/// Declares wage numeric [lower, upper], region categorical over `categories`, id numeric without
/// bounds; note stays undeclared. Typed as a user types.
void declare(CsvImportDialog &dialog, const QString &lower, const QString &upper,
             const QString &categories = QStringLiteral("north, south, west"))
{
    dialog.typeBox(0)->setCurrentIndex(int(CsvImportDialog::ColumnChoice::Numeric));
    dialog.typeBox(1)->setCurrentIndex(int(CsvImportDialog::ColumnChoice::Numeric));
    QTest::keyClicks(dialog.lowerEdit(1), lower);
    QTest::keyClicks(dialog.upperEdit(1), upper);
    dialog.typeBox(2)->setCurrentIndex(int(CsvImportDialog::ColumnChoice::Categorical));
    QTest::keyClicks(dialog.categoriesEdit(2), categories);
}

} // namespace

class TestCsvImport : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void previewShowsTheFileAsTextAndFillsNothingIn()
    {
        QTemporaryDir dir;
        CsvImportDialog dialog(writeCsv(dir));
        QCOMPARE(dialog.previewError(), QString());
        QTableWidget *preview = dialog.previewTable();
        QCOMPARE(preview->columnCount(), 4);
        QCOMPARE(preview->rowCount(), 3);
        QCOMPARE(preview->horizontalHeaderItem(3)->text(), QStringLiteral("note"));
        QCOMPARE(preview->item(0, 1)->text(), QStringLiteral("1200"));
        QCOMPARE(preview->item(0, 3)->text(), QStringLiteral("<b>x</b>")); // literally, in an item view
        QCOMPARE(preview->item(1, 3)->text(), QStringLiteral("he said \"hi\", then left"));
        QCOMPARE(preview->item(2, 3)->text(), QStringLiteral("caf\uFFFD"));    // the byte is not UTF-8
        QCOMPARE(preview->verticalHeaderItem(2)->text(), QStringLiteral("4")); // the file's line number

        // Nothing is filled in from the data: no type, no bound, no category.
        QCOMPARE(dialog.columnsTable()->rowCount(), 4);
        for (int c = 0; c < 4; ++c) {
            QCOMPARE(dialog.typeBox(c)->currentIndex(), int(CsvImportDialog::ColumnChoice::Undeclared));
            QVERIFY(dialog.lowerEdit(c)->text().isEmpty());
            QVERIFY(dialog.upperEdit(c)->text().isEmpty());
            QVERIFY(dialog.categoriesEdit(c)->text().isEmpty());
        }
        dialog.typeBox(1)->setCurrentIndex(int(CsvImportDialog::ColumnChoice::Numeric));
        QVERIFY(dialog.lowerEdit(1)->isEnabled());
        QVERIFY(dialog.lowerEdit(1)->text().isEmpty()); // choosing numeric fills in no bound either
        QVERIFY(dialog.upperEdit(1)->text().isEmpty());
        QVERIFY(!dialog.rowsPublicBox()->isChecked());
        QVERIFY(!dialog.dataPublicBox()->isChecked());

        // The warning says in words why, as plain text.
        auto *warning = dialog.findChild<QLabel *>(QStringLiteral("importWarning"));
        QVERIFY(warning);
        QCOMPARE(warning->textFormat(), Qt::PlainText);
        QVERIFY(
            warning->text().contains(QStringLiteral("Bounds or categories read off the data are themselves a "
                                                    "disclosure")));
        QVERIFY(warning->text().contains(QStringLiteral("nothing below is filled in from the file")));
        QCOMPARE(dialog.sidecarPath(), dir.filePath(QStringLiteral("survey.csv.json")));
    }

    void declaredValuesAreWrittenAndReadBack()
    {
        QTemporaryDir dir;
        const QString csv = writeCsv(dir);
        CsvImportDialog dialog(csv);
        declare(dialog, QStringLiteral("0"), QStringLiteral("5000"),
                QStringLiteral("north, \"south\", \"west, far\""));
        QTest::keyClicks(dialog.descriptionEdit(1), QStringLiteral("weekly wage, <i>USD</i>"));
        dialog.rowsPublicBox()->setChecked(true);
        auto saved = dialog.save();
        QVERIFY2(saved.ok(), qPrintable(dialog.errorText()));
        QVERIFY(dialog.saved());
        QCOMPARE(dialog.errorText(), QString());

        auto metadata = pbx::io::readDatasetMetadataFile(dialog.sidecarPath().toStdString());
        QVERIFY2(metadata.ok(), metadata.ok() ? "" : metadata.error().message.c_str());
        QCOMPARE(metadata->rows, std::optional<std::size_t>(3)); // counted over the whole file
        QVERIFY(!metadata->isPublic);
        QVERIFY(metadata->name.empty());                    // the loader names it after the file
        QCOMPARE(metadata->columns.size(), std::size_t{3}); // "note" is not declared
        const pbx::io::ColumnMetadata *id = metadata->column("id");
        QVERIFY(id && id->type == pbx::data::ColumnType::Numeric && !id->bounds);
        const pbx::io::ColumnMetadata *wage = metadata->column("wage");
        QVERIFY(wage && wage->type == pbx::data::ColumnType::Numeric);
        QCOMPARE(wage->bounds->lower, 0.0);
        QCOMPARE(wage->bounds->upper, 5000.0);
        QCOMPARE(wage->description, std::string("weekly wage, <i>USD</i>"));
        const pbx::io::ColumnMetadata *region = metadata->column("region");
        QVERIFY(region && region->type == pbx::data::ColumnType::Categorical);
        QCOMPARE(region->categories, (std::vector<std::string>{"north", "south", "west, far"}));
        QVERIFY(!metadata->column("note"));

        // The loader finds it beside the file and applies it.
        auto table = pbx::resources::loadDataset(csv.toStdString());
        QVERIFY2(table.ok(), table.ok() ? "" : table.error().message.c_str());
        QCOMPARE(table->rowCount(), std::size_t{3});
        const auto &info = table->columnInfo(*table->columnIndex("wage"));
        QCOMPARE(info.declaredBounds->upper, 5000.0);
        QVERIFY(!info.domainFromData);
        QCOMPARE(table->columnInfo(*table->columnIndex("region")).categories.size(), std::size_t{3});
        QVERIFY(table->columnInfo(*table->columnIndex("note")).domainFromData);
    }

    /// The two declarations about the whole file are written only when ticked; the row count is then
    /// not in the metadata at all.
    void publicDataAndDatasetFieldsAreWrittenAsTyped()
    {
        QTemporaryDir dir;
        CsvImportDialog dialog(writeCsv(dir));
        declare(dialog, QStringLiteral("-1e3"), QStringLiteral("2.5e3"));
        dialog.dataPublicBox()->setChecked(true);
        for (auto *edit : dialog.findChildren<QLineEdit *>()) {
            if (edit->placeholderText() == QStringLiteral("the file's name"))
                QTest::keyClicks(edit, QStringLiteral("<h1>survey</h1>"));
        }
        QVERIFY2(dialog.save().ok(), qPrintable(dialog.errorText()));
        auto metadata = pbx::io::readDatasetMetadataFile(dialog.sidecarPath().toStdString());
        QVERIFY(metadata.ok());
        QVERIFY(metadata->isPublic);
        QVERIFY(!metadata->rows);
        QCOMPARE(metadata->name, std::string("<h1>survey</h1>"));
        QCOMPARE(metadata->column("wage")->bounds->lower, -1000.0);
        QCOMPARE(metadata->column("wage")->bounds->upper, 2500.0);
    }

    void invalidInputIsRefusedNamingColumnAndField_data()
    {
        QTest::addColumn<QString>("lower");
        QTest::addColumn<QString>("upper");
        QTest::addColumn<QString>("categories");
        QTest::addColumn<QString>("message");
        const QString areas = QStringLiteral("north, south, west");
        QTest::newRow("upper below lower")
            << QStringLiteral("10") << QStringLiteral("5") << areas
            << QStringLiteral("column 'wage', upper bound: 5 is below the lower bound 10");
        QTest::newRow("not a number")
            << QStringLiteral("abc") << QStringLiteral("5") << areas
            << QStringLiteral(
                   "column 'wage', lower bound: 'abc' is not a number (write e.g. 0, 5000, -2.5 or 1e6)");
        QTest::newRow("one bound") << QStringLiteral("") << QStringLiteral("5") << areas
                                   << QStringLiteral(
                                          "column 'wage', lower bound: give both bounds, or neither");
        QTest::newRow("category twice")
            << QStringLiteral("0") << QStringLiteral("5") << QStringLiteral("north, south, north")
            << QStringLiteral("column 'region', categories: 'north' is listed twice");
        QTest::newRow("empty category")
            << QStringLiteral("0") << QStringLiteral("5") << QStringLiteral("north,, south")
            << QStringLiteral("column 'region', categories: label 2 is empty");
        QTest::newRow("label outside the categories")
            << QStringLiteral("0") << QStringLiteral("5000") << QStringLiteral("north, west")
            << QStringLiteral("the file does not fit these declarations: ") + QDir::tempPath()
                   + QStringLiteral(
                       "/…/survey.csv: line 2, column 3 ('region'): label 'south' is not among the "
                       "declared categories");
    }

    void invalidInputIsRefusedNamingColumnAndField()
    {
        QFETCH(QString, lower);
        QFETCH(QString, upper);
        QFETCH(QString, categories);
        QFETCH(QString, message);
        QTemporaryDir dir;
        CsvImportDialog dialog(writeCsv(dir));
        declare(dialog, lower, upper, categories);
        QVERIFY(!dialog.save().ok());
        QString shown = dialog.errorText();
        shown.replace(dir.path(), QDir::tempPath() + QStringLiteral("/…"));
        QCOMPARE(shown, message + QStringLiteral("; nothing was saved"));
        QVERIFY(!dialog.saved());
        QVERIFY(!QFile::exists(dialog.sidecarPath()));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{QStringLiteral("survey.csv")});
    }

    void anExistingSidecarIsNeverReplaced()
    {
        QTemporaryDir dir;
        const QString csv = writeCsv(dir);
        const QString other = dir.filePath(QStringLiteral("survey.json")); // the loader's second place
        {
            QFile file(other);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write("{\"format\": \"pbx-dataset-metadata\", \"version\": 1}");
        }
        CsvImportDialog dialog(csv);
        declare(dialog, QStringLiteral("0"), QStringLiteral("5000"));
        QVERIFY(!dialog.save().ok());
        QCOMPARE(dialog.errorText(),
                 other
                     + QStringLiteral(" already describes this file (the loader reads it); a "
                                      "dataset's metadata file is never replaced: move it away "
                                      "first; nothing was saved"));
        QVERIFY(!QFile::exists(dialog.sidecarPath()));
        QFile file(other);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll(), QByteArray("{\"format\": \"pbx-dataset-metadata\", \"version\": 1}"));
    }

    void anUnreadableFileSaysWhyAndSavesNothing()
    {
        QTemporaryDir dir;
        CsvImportDialog dialog(writeCsv(dir, "a,b\n1,x\"y\n"));
        QVERIFY(dialog.previewError().contains(QStringLiteral("line 2, character 4: malformed quoting")));
        QVERIFY(!dialog.save().ok());
        QVERIFY(!QFile::exists(dialog.sidecarPath()));
    }

    /// The whole-file read runs off the GUI thread behind a window-modal progress dialog; Cancel
    /// returns at once and nothing is written (a 30 MiB file: the read takes far longer than the
    /// first pass of the event loop, where the cancel is clicked).
    void cancellingTheReadSavesNothing()
    {
        QTemporaryDir dir;
        QByteArray big = "id,wage,region,note\n";
        const QByteArray row = "1,30,south,some text that makes the file large\n";
        big.reserve(30 << 20);
        while (big.size() < (30 << 20))
            big += row;
        CsvImportDialog dialog(writeCsv(dir, big));
        declare(dialog, QStringLiteral("0"), QStringLiteral("5000"));
        bool sawProgress = false;
        QTimer::singleShot(0, &dialog, [&] {
            auto *progress = dialog.findChild<QProgressDialog *>(QStringLiteral("csvImportProgress"));
            sawProgress = progress && progress->isVisible();
            if (auto *cancel = progress ? progress->findChild<QPushButton *>() : nullptr)
                cancel->click(); // the user's click
        });
        QElapsedTimer clock;
        clock.start();
        auto saved = dialog.save();
        QVERIFY(sawProgress);
        QVERIFY(!saved.ok());
        QCOMPARE(saved.error().code, pbx::ErrorCode::Cancelled);
        QCOMPARE(dialog.errorText(), QStringLiteral("cancelled while reading the file; nothing was saved"));
        QVERIFY(!QFile::exists(dialog.sidecarPath()));
        QThreadPool::globalInstance()->waitForDone(); // the abandoned read ends on its own
        QVERIFY(!QFile::exists(dialog.sidecarPath()));
    }

    void fileMenuOffersImport()
    {
        pbx::ui::MainWindow window;
        auto *action = window.findChild<QAction *>(QStringLiteral("importCsvAction"));
        QVERIFY(action);
        QCOMPARE(action->text(), QStringLiteral("&Import CSV…"));
        QMenu *file = window.menuBar()->findChildren<QMenu *>().value(0);
        QVERIFY(file && file->actions().contains(action));
    }

    /// Fits a 1024×768 screen (its minimum size, and everything at that size); screenshots.
    void fitsSmallScreens()
    {
        QTemporaryDir dir;
        QByteArray wide = "id,wage,region,note,age,education,experience,ethnicity,smsa,parttime\n";
        for (int i = 0; i < 30; ++i)
            wide += QByteArray::number(i) + ",\"" + QByteArray::number(100 + 37 * i)
                    + "\",south,<b>x</b> caf\xE9,30,12,5,cauc,yes,no\n";
        CsvImportDialog dialog(writeCsv(dir, wide));
        QCOMPARE(dialog.previewTable()->rowCount(), 20);
        declare(dialog, QStringLiteral("10"), QStringLiteral("5"));
        dialog.typeBox(4)->setCurrentIndex(int(CsvImportDialog::ColumnChoice::Numeric));
        QVERIFY(!dialog.save().ok()); // the error line is shown, and fits as well
        const QSize minimum = dialog.minimumSizeHint();
        QVERIFY2(minimum.width() <= 1024 && minimum.height() <= 768 - 40,
                 qPrintable(QStringLiteral("minimum %1×%2").arg(minimum.width()).arg(minimum.height())));
        for (const QSize size : {QSize(1024, 768 - 40), QSize(1920, 1080 - 40)}) {
            dialog.resize(size);
            dialog.show();
            QVERIFY(QTest::qWaitForWindowExposed(&dialog));
            QCOMPARE(dialog.size(), size);
            const QString shot = pbx::test::saveScreenshot(
                dialog, QStringLiteral("csvimport-%1x%2").arg(size.width()).arg(size.height() + 40));
            QVERIFY(!shot.isEmpty());
            // The table views keep room for rows, and the warning shows whole.
            QVERIFY(dialog.previewTable()->viewport()->height() >= 60);
            QVERIFY(dialog.columnsTable()->viewport()->height() >= 60);
            auto *warning = dialog.findChild<QLabel *>(QStringLiteral("importWarning"));
            QVERIFY(warning->height() >= warning->heightForWidth(warning->width()));
        }
    }
};

QTEST_MAIN(TestCsvImport)
#include "tst_csvimport.moc"
