// SPDX-License-Identifier: MIT
// Replays the fuzzers' inputs through the normal build: every file in fuzz/regressions/<target>/
// (inputs that once crashed a parser or broke an invariant, kept after the fix) and every seed in
// fuzz/corpus/<target>/ goes through the same checks as the fuzz target (fuzz/fuzz_checks.cpp).
// Each must give a value or a non-empty error, with no invariant broken; seeds named bad_* must be
// refused. Hostile inputs too large for the fuzzers' length limits (deep nesting, long texts,
// many columns) are generated here. Last, a sample of bad inputs per parser checks that the
// message names the place: line, column, field.
#include "core/accounting/ledger_json.h"
#include "core/data/predicate.h"
#include "core/io/csv_reader.h"
#include "core/io/dataset_metadata.h"
#include "core/io/journal.h"
#include "core/io/request_json.h"
#include "core/io/session_journal.h"
#include "core/io/transcript_json.h"
#include "fuzz/fuzz_checks.h"
#include "tests/testutils.h"

#include <filesystem>

using namespace pbx;

namespace {

const char *const kTargets[]
    = {"predicate", "csv", "gzip", "metadata", "request", "transcript", "journal", "ledger"};

std::filesystem::path fuzzDir()
{
    return std::filesystem::path(PBX_SOURCE_DIR) / "fuzz";
}

std::vector<std::filesystem::path> filesIn(const std::filesystem::path &dir)
{
    std::vector<std::filesystem::path> files;
    if (std::filesystem::is_directory(dir))
        for (const auto &entry : std::filesystem::directory_iterator(dir))
            if (entry.is_regular_file())
                files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    return files;
}

std::string nested(std::size_t depth, std::string_view open, std::string_view close,
                   std::string_view inner = {})
{
    std::string text;
    text.reserve(depth * (open.size() + close.size()) + inner.size());
    for (std::size_t i = 0; i < depth; ++i)
        text += open;
    text += inner;
    for (std::size_t i = 0; i < depth; ++i)
        text += close;
    return text;
}

// A chained journal line (see core/io/journal.h) for hand-made journals.
std::string journalLine(std::string &previousHash, const std::string &payload)
{
    previousHash = io::sha256Hex(previousHash + payload);
    return payload + "\t" + previousHash + "\n";
}

} // namespace

class TestFuzzRegression : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void savedInputs_data();
    void savedInputs();
    void hostileInputs_data();
    void hostileInputs();
    void messagesNameThePlace_data();
    void messagesNameThePlace();
};

void TestFuzzRegression::savedInputs_data()
{
    QTest::addColumn<QString>("target");
    QTest::addColumn<QString>("path");
    QTest::addColumn<bool>("mustRefuse");
    std::size_t seeds = 0;
    for (const char *target : kTargets) {
        for (const char *kind : {"corpus", "regressions"}) {
            for (const auto &file : filesIn(fuzzDir() / kind / target)) {
                const std::string name = file.filename().string();
                const bool bad = std::string_view(kind) == "corpus" && name.rfind("bad_", 0) == 0;
                QTest::addRow("%s/%s/%s", kind, target, name.c_str())
                    << QString::fromLatin1(target) << QString::fromStdString(file.string()) << bad;
                seeds += std::string_view(kind) == "corpus";
            }
        }
    }
    QVERIFY2(seeds >= 8 * 4, "the seed corpora are missing");
}

void TestFuzzRegression::savedInputs()
{
    QFETCH(QString, target);
    QFETCH(QString, path);
    QFETCH(bool, mustRefuse);
    const std::string bytes = test::readTextFile(path.toStdString());
    const fuzz::Check check = fuzz::checkByName(target.toStdString());
    QVERIFY(check);
    const fuzz::Outcome outcome = check(bytes);
    QVERIFY2(outcome.violation.empty(), outcome.violation.c_str());
    QVERIFY(outcome.accepted || !outcome.error.empty());
    if (mustRefuse)
        QVERIFY2(!outcome.accepted, "a bad_* seed was accepted");
    if (!outcome.error.empty())
        qDebug("%s", outcome.error.c_str());
}

void TestFuzzRegression::hostileInputs_data()
{
    QTest::addColumn<QString>("target");
    QTest::addColumn<QByteArray>("bytes");
    const auto row = [](const char *name, const char *target, const std::string &bytes) {
        QTest::newRow(name) << QString::fromLatin1(target)
                            << QByteArray(bytes.data(), static_cast<qsizetype>(bytes.size()));
    };
    // 100,000 levels of JSON nesting where each reader looks (and where it ignores unknown keys).
    const std::string deepArray = nested(100'000, "[", "]");
    const std::string deepObject = nested(100'000, "{\"a\":", "}", "0");
    row("metadata: deep array", "metadata", deepArray);
    row("metadata: deep column", "metadata",
        R"({"format":"pbx-dataset-metadata","version":1,"columns":[{"name":"a","description":)" + deepArray
            + "}]}");
    row("request: deep field", "request", R"({"aggregate":"count","id":)" + deepObject + "}");
    row("request: deep target", "request", R"({"aggregate":"count","target":)" + deepObject + "}");
    const std::string transcriptHead
        = R"({"format":"pbx-transcript","version":1,"dataset":{"name":"x"},"budget":{"epsilon":1,"delta":1e-6},)"
          R"("filter":{"kind":"zcdp"},"events":[{"extra":)";
    row("transcript: deep event field", "transcript", transcriptHead + deepArray + "}]}");
    row("transcript: deep array", "transcript", deepArray);
    std::string hash;
    row("journal: deep record", "journal", journalLine(hash, deepObject));
    row("ledger: deep events", "ledger", R"({"events":)" + deepArray + "}");
    row("ledger: deep sampling", "ledger",
        R"({"events":[{"mechanism":"pure","epsilon":1,"sampling":)" + deepObject + "}]}");
    // Texts far over the limits.
    // Appended in place: GCC 12's -Warray-bounds misreads `std::string(n, c) + "…"` once inlined
    // (GCC bug 105651).
    row("predicate: over 64 KiB", "predicate", [] {
        std::string text(70'000, ' ');
        text += "wage > 1";
        return text;
    }());
    row("predicate: deep parentheses", "predicate", nested(20'000, "(", ")", "wage > 1"));
    row("predicate: deep not", "predicate", [] {
        std::string text;
        for (int i = 0; i < 12'000; ++i)
            text += "not ";
        return text + "wage > 1";
    }());
    row("predicate: long or chain", "predicate", [] {
        std::string text = "wage > 1";
        for (int i = 0; i < 5'000; ++i)
            text += " or wage > 1";
        return text;
    }());
    row("csv: 2,000 columns", "csv", [] {
        std::string header = "c0";
        for (int i = 1; i < 2'000; ++i)
            header += ",c" + std::to_string(i);
        return header + "\n";
    }());
    row("csv: 100,000 one-cell rows", "csv", [] {
        std::string text = "a\n";
        for (int i = 0; i < 100'000; ++i)
            text += "1\n";
        return text;
    }());
    // A stored block claiming 65,535 bytes (LEN ffff, NLEN 0000) and then nothing.
    row("gzip: a stored block cut short", "gzip",
        std::string("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03\x01\xff\xff\x00\x00", 15));
}

void TestFuzzRegression::hostileInputs()
{
    QFETCH(QString, target);
    QFETCH(QByteArray, bytes);
    const fuzz::Outcome outcome
        = fuzz::checkByName(target.toStdString())(std::string_view(bytes.constData(), bytes.size()));
    QVERIFY2(outcome.violation.empty(), outcome.violation.c_str());
    QVERIFY(outcome.accepted || !outcome.error.empty());
    if (!outcome.error.empty())
        qDebug("%s", outcome.error.c_str());
}

void TestFuzzRegression::messagesNameThePlace_data()
{
    QTest::addColumn<QString>("target");
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("expected");
    const auto row
        = [](const char *name, const char *target, const std::string &bytes, const char *expected) {
              QTest::newRow(name) << QString::fromLatin1(target)
                                  << QByteArray(bytes.data(), static_cast<qsizetype>(bytes.size()))
                                  << QString::fromUtf8(expected);
          };
    row("predicate: unknown column", "predicate", R"(wage > 1 and regon == "south")",
        "character 14: unknown column 'regon'; did you mean 'region'?");
    row("predicate: NaN", "predicate", "wage < nan", "character 8: NaN and infinite values are not allowed");
    row("predicate: out of range", "predicate", "wage < 1e999",
        "character 8: number '1e999' is out of range");
    row("predicate: unterminated", "predicate", R"(region == "south)", "character 11: unterminated string");
    row("csv: ragged row", "csv", "a,b\n1,2\n3\n", "line 3: expected 2 fields as in the header, found 1");
    row("csv: empty cell", "csv", "a,b\n1,2\n3,\n", "line 3, column 2 ('b'): empty cell");
    row("csv: bad quoting", "csv", "a,b\n1,x\"y\n", "line 2, character 4: malformed quoting");
    row("csv: empty header name", "csv", "a,,c\n1,2,3\n", "line 1, column 2: empty column name");
    row("metadata: bad bounds", "metadata",
        R"({"format":"pbx-dataset-metadata","version":1,"columns":[{"name":"a"},{"name":"b","bounds":[5,1]}]})",
        "columns[1].bounds: ");
    row("metadata: syntax", "metadata", R"({"format": pbx})", "at byte 12");
    row("request: zero error", "request", R"({"aggregate":"count","target":{"kind":"absolute","error":0}})",
        "line 7.target: target error must be a finite number > 0");
    row("request: unknown field", "request", R"({"aggregate":"count","colum":"wage"})",
        "line 7: unknown field 'colum'");
    row("request: inverted bounds", "request",
        R"({"aggregate":"sum","column":"wage","bounds":[9,1],"target":{"kind":"absolute","error":1}})",
        "line 7.bounds: ");
    row("request: NaN as text", "request",
        R"({"aggregate":"count","target":{"kind":"absolute","error":"nan"}})",
        "line 7.target.error: expected a number");
    const std::string transcript
        = R"({"format":"pbx-transcript","version":1,"dataset":{"name":"x"},"filter":{"kind":"zcdp"},"events":[],)";
    row("transcript: delta one", "transcript", transcript + R"("budget":{"epsilon":1,"delta":1}})",
        "budget: δ must lie strictly between 0 and 1");
    row("transcript: negative epsilon", "transcript", transcript + R"("budget":{"epsilon":-1,"delta":1e-6}})",
        "budget: ε must be a finite number > 0");
    std::string hash;
    const std::string header
        = R"({"type":"header","format":"pbx-journal","version":1,"dataset":{"name":"x"},"budget":{"epsilon":1,"delta":1e-6},"filter":{"kind":"zcdp"}})";
    std::string edited = journalLine(hash, header); // line 1 intact
    edited += R"({"type":"event"})"
              "\t"
              + std::string(64, '0') + "\n";            // line 2: a wrong checksum
    edited += journalLine(hash, R"({"type":"event"})"); // line 3 chains from line 1: intact
    row("journal: edited line", "journal", edited, "journal line 2: checksum mismatch");
    row("ledger: delta one", "ledger",
        R"({"events":[{"mechanism":"pure","epsilon":1},{"mechanism":"approx","epsilon":1,"delta":1}]})",
        "events[1].delta");
    row("ledger: number overflow", "ledger", R"({"events":[{"mechanism":"pure","epsilon":1e999}]})",
        "the ledger is not valid JSON: number overflow parsing '1e999'");
    row("ledger: syntax", "ledger", R"({"events":[})",
        "the ledger is not valid JSON: parse error at line 1, column 12");
    row("request: nested too deep", "request", std::string(300, '[') + std::string(300, ']'),
        "line 7 is nested deeper than 256 levels of arrays and objects (byte 256)");
    row("ledger: typo", "ledger", R"({"events":[{"mechanism":"gaussian","sigma":1,"sensitivty":2}]})",
        "events[0].sensitivty");
}

void TestFuzzRegression::messagesNameThePlace()
{
    QFETCH(QString, target);
    QFETCH(QByteArray, bytes);
    QFETCH(QString, expected);
    const fuzz::Outcome outcome
        = fuzz::checkByName(target.toStdString())(std::string_view(bytes.constData(), bytes.size()));
    QVERIFY2(outcome.violation.empty(), outcome.violation.c_str());
    QVERIFY2(!outcome.accepted, "the input was accepted");
    const QString message = QString::fromStdString(outcome.error);
    QVERIFY2(message.contains(expected), qPrintable(QStringLiteral("message: ") + message));
}

QTEST_GUILESS_MAIN(TestFuzzRegression)
#include "tst_fuzzregression.moc"
