// SPDX-License-Identifier: MIT
// Writing a dataset's metadata sidecar (File ▸ Import CSV): write → read gives the same metadata;
// the CSV, a link to it and an existing sidecar are never written over; a refused write leaves no
// file; the CSV preview reads a bounded prefix with the loader's parser.
#include "core/io/csv_reader.h"
#include "core/io/dataset_metadata_file.h"

#include "tests/testutils.h"

#include <QTemporaryDir>

#include <filesystem>
#include <fstream>

using pbx::ErrorCode;
using pbx::data::Bounds;
using pbx::data::ColumnType;
using pbx::io::ColumnMetadata;
using pbx::io::DatasetMetadata;

namespace {

std::string slurp(const std::string &path)
{
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void spit(const std::string &path, const std::string &bytes)
{
    std::ofstream(path, std::ios::binary) << bytes;
}

DatasetMetadata sample()
{
    DatasetMetadata metadata;
    metadata.name = "survey";
    metadata.title = "A survey, \"quoted\" — ünïcode";
    metadata.provenance = "typed by hand";
    metadata.licence = "CC0-1.0";
    metadata.rows = 3;
    metadata.isPublic = true;
    ColumnMetadata wage;
    wage.name = "wage";
    wage.type = ColumnType::Numeric;
    wage.bounds = Bounds{-0.1, 1e308}; // shortest round trip of awkward doubles
    wage.description = "weekly, <b>USD</b>";
    ColumnMetadata region;
    region.name = "region";
    region.type = ColumnType::Categorical;
    region.categories = {"south, deep", "north", "\"east\"", "wést"};
    ColumnMetadata id;
    id.name = "id";
    id.type = ColumnType::Numeric; // numeric without bounds: counted, never summed
    metadata.columns = {wage, region, id};
    return metadata;
}

/// Names in `folder` (no temporary file may be left behind).
std::vector<std::string> entries(const QString &folder)
{
    std::vector<std::string> names;
    for (const auto &entry : std::filesystem::directory_iterator(folder.toStdString()))
        names.push_back(entry.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

} // namespace

class TestDatasetMetadataFile : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void writeThenReadGivesTheSameMetadata()
    {
        QTemporaryDir dir;
        const std::string csv = dir.filePath(QStringLiteral("survey.csv")).toStdString();
        spit(csv, "wage,region,id\n1,north,1\n2,south,2\n3,north,3\n");
        const std::string path = pbx::io::datasetMetadataSidecars(csv).front();
        QCOMPARE(path, csv + ".json");
        const DatasetMetadata written = sample();
        auto done = pbx::io::writeDatasetMetadataFile(path, written, {csv});
        QVERIFY2(done.ok(), done.ok() ? "" : done.error().message.c_str());

        auto read = pbx::io::readDatasetMetadataFile(path);
        QVERIFY2(read.ok(), read.ok() ? "" : read.error().message.c_str());
        QCOMPARE(read->name, written.name);
        QCOMPARE(read->title, written.title);
        QCOMPARE(read->provenance, written.provenance);
        QCOMPARE(read->licence, written.licence);
        QCOMPARE(read->rows, std::optional<std::size_t>(3));
        QCOMPARE(read->isPublic, true);
        QCOMPARE(read->columns.size(), std::size_t{3});
        QCOMPARE(read->columns[0].name, std::string("wage"));
        QCOMPARE(read->columns[0].type, std::optional<ColumnType>(ColumnType::Numeric));
        QCOMPARE(read->columns[0].bounds->lower, -0.1); // bit for bit
        QCOMPARE(read->columns[0].bounds->upper, 1e308);
        QCOMPARE(read->columns[0].description, written.columns[0].description);
        QCOMPARE(read->columns[1].type, std::optional<ColumnType>(ColumnType::Categorical));
        QCOMPARE(read->columns[1].categories, written.columns[1].categories);
        QVERIFY(!read->columns[1].bounds);
        QCOMPARE(read->columns[2].type, std::optional<ColumnType>(ColumnType::Numeric));
        QVERIFY(!read->columns[2].bounds);
        QCOMPARE(slurp(path), pbx::io::datasetMetadataToJson(*read)); // what is written is what is read
        QCOMPARE(entries(dir.path()), (std::vector<std::string>{"survey.csv", "survey.csv.json"}));
    }

    void neverWritesOverTheCsvOrALinkToIt()
    {
        QTemporaryDir dir;
        const std::string csv = dir.filePath(QStringLiteral("survey.csv")).toStdString();
        const std::string bytes = "wage\n1\n";
        spit(csv, bytes);
        auto over = pbx::io::writeDatasetMetadataFile(csv, sample(), {csv});
        QVERIFY(!over.ok());
        QCOMPARE(over.error().code, ErrorCode::InvalidArgument);
        QCOMPARE(over.error().message, csv + " names the same file as " + csv + ", which it would overwrite");
        QCOMPARE(slurp(csv), bytes);

        // A sidecar name that is a symbolic link, or a hard link, to the CSV is the CSV.
        const std::string symlink = csv + ".json";
        std::filesystem::create_symlink(csv, symlink);
        auto viaSymlink = pbx::io::writeDatasetMetadataFile(symlink, sample(), {csv});
        QVERIFY(!viaSymlink.ok());
        QVERIFY2(viaSymlink.error().message.find("names the same file as " + csv) != std::string::npos,
                 viaSymlink.error().message.c_str());
        const std::string hardlink = dir.filePath(QStringLiteral("survey.json")).toStdString();
        std::filesystem::create_hard_link(csv, hardlink);
        QVERIFY(!pbx::io::writeDatasetMetadataFile(hardlink, sample(), {csv}).ok());
        QCOMPARE(slurp(csv), bytes);
        QCOMPARE(entries(dir.path()),
                 (std::vector<std::string>{"survey.csv", "survey.csv.json", "survey.json"}));
    }

    void neverReplacesAnExistingSidecar()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("survey.csv.json")).toStdString();
        spit(path, "old metadata");
        auto done = pbx::io::writeDatasetMetadataFile(path, sample(), {});
        QVERIFY(!done.ok());
        QCOMPARE(done.error().code, ErrorCode::Io);
        QCOMPARE(done.error().message,
                 path + ": already exists; a dataset's metadata file is never replaced (move it away first)");
        QCOMPARE(slurp(path), std::string("old metadata"));
        QCOMPARE(entries(dir.path()), std::vector<std::string>{"survey.csv.json"});
    }

    void refusesWhatTheReaderWouldRefuseNamingTheField_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("message");
        QTest::newRow("bounds reversed")
            << 0 << QStringLiteral("columns[0] ('wage').bounds: lower bound 10 exceeds upper bound 5");
        QTest::newRow("bounds not finite")
            << 1 << QStringLiteral("columns[0] ('wage').bounds: bounds must be finite numbers");
        QTest::newRow("category twice")
            << 2 << QStringLiteral("columns[1] ('region').categories[1]: category 'north' is listed twice");
        QTest::newRow("empty category")
            << 3 << QStringLiteral("columns[1] ('region').categories[0]: a category label cannot be empty");
        QTest::newRow("name not UTF-8") << 4 << QStringLiteral("columns[2].name: not valid UTF-8 text");
        QTest::newRow("bounds on categorical")
            << 5 << QStringLiteral("columns[1] ('region').bounds: bounds apply to numeric columns only");
        QTest::newRow("categories on numeric")
            << 6
            << QStringLiteral("columns[0] ('wage').categories: categories apply to categorical columns only");
        QTest::newRow("name twice") << 7
                                    << QStringLiteral("columns[2].name: column 'wage' is described twice");
        QTest::newRow("title not UTF-8") << 8 << QStringLiteral("title: not valid UTF-8 text");
    }

    void refusesWhatTheReaderWouldRefuseNamingTheField()
    {
        QFETCH(int, kind);
        QFETCH(QString, message);
        DatasetMetadata metadata = sample();
        switch (kind) {
        case 0:
            metadata.columns[0].bounds = Bounds{10, 5};
            break;
        case 1:
            metadata.columns[0].bounds = Bounds{0, std::numeric_limits<double>::infinity()};
            break;
        case 2:
            metadata.columns[1].categories = {"north", "north"};
            break;
        case 3:
            metadata.columns[1].categories = {"", "north"};
            break;
        case 4:
            metadata.columns[2].name = "caf\xE9";
            break;
        case 5:
            metadata.columns[1].bounds = Bounds{0, 1};
            break;
        case 6:
            metadata.columns[0].categories = {"a"};
            break;
        case 7:
            metadata.columns[2].name = "wage";
            break;
        case 8:
            metadata.title = "\xFF";
            break;
        default:
            QFAIL("unknown kind");
        }
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("survey.csv.json")).toStdString();
        auto done = pbx::io::writeDatasetMetadataFile(path, metadata, {});
        QVERIFY(!done.ok());
        QCOMPARE(done.error().code, ErrorCode::InvalidArgument);
        QCOMPARE(QString::fromStdString(done.error().message), message);
        QVERIFY(entries(dir.path()).empty()); // nothing written, no temporary file left
    }

    void aFailedWriteLeavesNothing()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("missing folder/survey.csv.json")).toStdString();
        auto done = pbx::io::writeDatasetMetadataFile(path, sample(), {});
        QVERIFY(!done.ok());
        QCOMPARE(done.error().code, ErrorCode::Io);
        QVERIFY2(done.error().message.rfind(path + ": cannot write", 0) == 0, done.error().message.c_str());
        QVERIFY(entries(dir.path()).empty());
    }

    void sidecarPlacesAreTheLoaders()
    {
        using V = std::vector<std::string>;
        QCOMPARE(pbx::io::datasetMetadataSidecars("/d/survey.csv"),
                 (V{"/d/survey.csv.json", "/d/survey.json"}));
        QCOMPARE(pbx::io::datasetMetadataSidecars("/d/survey.csv.gz"),
                 (V{"/d/survey.csv.gz.json", "/d/survey.json"}));
        QCOMPARE(pbx::io::datasetMetadataSidecars("/d/survey.txt"), V{"/d/survey.txt.json"});
    }

    void previewTakesTheFirstRowsWithTheLoadersParser()
    {
        const std::string text
            = "\xEF\xBB\xBFid,note\n1,\"a, \"\"b\"\"\"\n\n2,\"two\nlines\"\n3,<b>x</b>\n4,caf\xE9\n";
        auto some = pbx::io::previewCsv(text, false, 2);
        QVERIFY(some.ok());
        QCOMPARE(some->header, (std::vector<std::string>{"id", "note"})); // the byte-order mark is skipped
        QCOMPARE(some->rows.size(), std::size_t{2});
        QCOMPARE(some->rows[0][1], std::string("a, \"b\""));
        QCOMPARE(some->rows[1][1], std::string("two\nlines"));
        QCOMPARE(some->lines,
                 (std::vector<std::size_t>{2, 5})); // a blank line is skipped; line where the row ends
        QVERIFY(!some->whole);
        auto all = pbx::io::previewCsv(text, false, 20);
        QVERIFY(all.ok());
        QCOMPARE(all->rows.size(), std::size_t{4});
        QCOMPARE(all->rows[2][1], std::string("<b>x</b>"));
        QCOMPARE(all->rows[3][1], std::string("caf\xE9")); // bytes as they are; the dialog shows U+FFFD
        QVERIFY(all->whole);
        // Exactly as many rows as asked for, and no more in the file: the whole file.
        QVERIFY(pbx::io::previewCsv(text, false, 4)->whole);

        auto bad = pbx::io::previewCsv("a,b\n1,x\"y\n", false, 20);
        QVERIFY(!bad.ok());
        QCOMPARE(bad.error().code, ErrorCode::Parse);
        QVERIFY2(bad.error().message.rfind("line 2", 0) == 0, bad.error().message.c_str());
    }

    void previewReadsABoundedPrefix()
    {
        QTemporaryDir dir;
        const std::string csv = dir.filePath(QStringLiteral("big.csv")).toStdString();
        // 3 MiB; the 1 KiB cut falls inside a quoted field that spans lines, which is dropped.
        std::string bytes = "id,text\n";
        for (int i = 0; bytes.size() < 1000; ++i)
            bytes += std::to_string(i) + ",plain\n";
        const auto shortRows = static_cast<std::size_t>(std::count(bytes.begin(), bytes.end(), '\n')) - 1;
        bytes += "999,\"opens here\n" + std::string(100, 'x') + "\ncloses here\"\n";
        bytes.append(std::size_t{3} << 20, 'y');
        bytes += ",z\n";
        spit(csv, bytes);
        auto preview = pbx::io::previewCsvFile(csv, 1000, 1024);
        QVERIFY2(preview.ok(), preview.ok() ? "" : preview.error().message.c_str());
        QCOMPARE(preview->rows.size(), shortRows);
        QVERIFY(!preview->whole);
        QCOMPARE(preview->rows.back()[1], std::string("plain"));
        // The default limits: 20 rows from at most 1 MiB.
        auto standard = pbx::io::previewCsvFile(csv);
        QVERIFY(standard.ok());
        QCOMPARE(standard->rows.size(), pbx::io::csvPreviewRows);
        QCOMPARE(pbx::io::csvPreviewRows, std::size_t{20});
        QCOMPARE(pbx::io::maxCsvPreviewBytes, std::size_t{1} << 20);

        const std::string gz = dir.filePath(QStringLiteral("data.csv.gz")).toStdString();
        spit(gz, std::string("\x1f\x8b\x08\x00", 4) + "rest");
        auto compressed = pbx::io::previewCsvFile(gz);
        QVERIFY(!compressed.ok());
        QCOMPARE(compressed.error().code, ErrorCode::Unsupported);
    }
};

QTEST_APPLESS_MAIN(TestDatasetMetadataFile)
#include "tst_datasetmetadatafile.moc"
