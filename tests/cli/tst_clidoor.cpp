// SPDX-License-Identifier: MIT
// One door to private data (docs/private-data.md): every pbx-cli subcommand and every
// session request kind, on the embedded dataset, a declared-public CSV, a private CSV (metadata
// without "public") and a CSV without metadata, is either charged to a session or refused (or
// reads no data at all); and the audit's neighbouring-CSV pairs (two files differing in one row)
// cannot be told apart by a side command or a refusal.
#include "tests/testutils.h"

#include "clitestutils.h"

#include <QTemporaryDir>

#include <cstdint>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

class TestCliDoor : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void sideCommandsRunOnlyOnPublicData();
    void sessionRequestsAreChargedOrRefused();
    void iqrWhereCannotTellNeighboursApart();
    void inferredCategoriesAreRefusedForSvtAndRecover();
    void recoverRepeatReportsTotalCost();
    void universeRefusalComesFromMetadata();

private:
    QTemporaryDir m_dir;
    QString path(const QString &name) const { return m_dir.filePath(name); }
    /// A CSV (and its sidecar when `metadata` is non-empty) named `stem`.csv.
    QString dataset(const QString &stem, const std::string &csv, const std::string &metadata);
    /// The four datasets of the table: name → --dataset value.
    std::map<std::string, QString> m_datasets;
    /// Neighbouring private datasets: one row's region south → west.
    QString m_privateD, m_privateDPrime;
};

using nlohmann::json;
using namespace pbx;

namespace {
using test::runCli;
using test::writeFile;

constexpr int kRows = 1500;

/// A CPS-like table of kRows rows (deterministic), with row `changedRow`'s region replaced by
/// `changedRegion` when that is non-empty (the neighbouring dataset).
std::string csvText(int changedRow = -1, const std::string &changedRegion = {})
{
    static const char *regions[] = {"northeast", "midwest", "south", "west"};
    std::string text = "wage,education,experience,ethnicity,smsa,region,parttime\n";
    std::uint64_t state = 12345;
    auto next = [&state](std::uint64_t m) {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        return (state >> 33) % m;
    };
    for (int i = 0; i < kRows; ++i) {
        const auto wage = 100 + next(1500);
        const auto education = 6 + next(14);
        const auto experience = next(45);
        const char *ethnicity = next(10) == 0 ? "afam" : "cauc";
        const char *smsa = next(4) == 0 ? "no" : "yes";
        std::string region = regions[next(4)];
        if (i == changedRow)
            region = changedRegion;
        const char *parttime = next(12) == 0 ? "yes" : "no";
        text += std::to_string(wage) + "," + std::to_string(education) + "," + std::to_string(experience)
                + "," + ethnicity + "," + smsa + "," + region + "," + parttime + "\n";
    }
    return text;
}

/// The metadata sidecar: CPS1988's declarations, public or not, with `regions` as the declared
/// region categories.
std::string metadataText(bool isPublic,
                         const std::string &regions = R"("northeast", "midwest", "south", "west")")
{
    return std::string(R"({"format": "pbx-dataset-metadata", "version": 1, "name": "door",)")
           + (isPublic ? R"( "public": true,)" : "") + R"( "columns": [
  {"name": "wage", "type": "numeric", "bounds": [0, 5000]},
  {"name": "education", "type": "numeric", "bounds": [0, 20]},
  {"name": "experience", "type": "numeric", "bounds": [-8, 64]},
  {"name": "ethnicity", "type": "categorical", "categories": ["cauc", "afam"]},
  {"name": "smsa", "type": "categorical", "categories": ["no", "yes"]},
  {"name": "region", "type": "categorical", "categories": [)"
           + regions + R"(]},
  {"name": "parttime", "type": "categorical", "categories": ["no", "yes"]}]})";
}

/// One session request kind: its line and the run's flags.
struct RequestKind
{
    const char *name;
    std::string line;
    QStringList flags;
};

std::vector<RequestKind> requestKinds()
{
    const QStringList basic{QStringLiteral("--epsilon"), QStringLiteral("10")};
    const QStringList odp{QStringLiteral("--filter"),     QStringLiteral("odp"),
                          QStringLiteral("--epsilon"),    QStringLiteral("10"),
                          QStringLiteral("--delta"),      QStringLiteral("1e-5"),
                          QStringLiteral("--neighbours"), QStringLiteral("replace")};
    const QStringList growing{QStringLiteral("--epsilon"), QStringLiteral("10"),
                              QStringLiteral("--neighbours"), QStringLiteral("replace")};
    const QStringList growingZcdp{QStringLiteral("--filter"),     QStringLiteral("zcdp"),
                                  QStringLiteral("--epsilon"),    QStringLiteral("10"),
                                  QStringLiteral("--delta"),      QStringLiteral("1e-5"),
                                  QStringLiteral("--neighbours"), QStringLiteral("replace")};
    const std::string stream = R"("stream":{"start_size":500,"end":1500,"seed":7},)";
    return {
        {"count", R"({"id":"q","aggregate":"count","target":{"kind":"absolute","error":50}})", basic},
        {"sum", R"({"id":"q","aggregate":"sum","column":"wage","target":{"kind":"absolute","error":100000}})",
         basic},
        {"mean", R"({"id":"q","aggregate":"mean","column":"wage","target":{"kind":"relative","error":0.1}})",
         basic},
        {"histogram",
         R"({"id":"q","aggregate":"histogram","column":"region","target":{"kind":"absolute","error":60}})",
         basic},
        {"quantile",
         R"({"id":"q","aggregate":"quantile","column":"wage","q":0.5,"target":{"kind":"absolute","error":400}})",
         basic},
        {"workload",
         R"({"id":"q","aggregate":"workload","column":"education","strategy":{"kind":"tree","branching":3},)"
         R"("workload":"prefixes","target":{"kind":"absolute","error":200}})",
         basic},
        {"svt", R"({"id":"q","mechanism":"svt","column":"region","threshold":100000,"c":2,"epsilon":0.4})",
         odp},
        {"ptr-iqr", R"({"id":"q","mechanism":"ptr-iqr","column":"wage","epsilon":0.5})", odp},
        {"early-stop",
         R"({"id":"q","mechanism":"early-stop","column":"wage","step_epsilon":0.05,"stops":[5,10,20],)"
         R"("delta":1e-7,"tolerance":0.02})",
         odp},
        {"recover",
         R"({"id":"q","mechanism":"recover","label_threshold":600,"features":["education","region"]})", odp},
        {"bbscheduler",
         R"({"id":"q","type":"growing","algorithm":"bbscheduler",)" + stream
             + R"("budget":{"kind":"pure","epsilon":1},"schedule":{"kind":"geometric","gamma":1},)"
               R"("black_box":{"kind":"laplace-k","queries":["education >= 16"]}})",
         growing},
        {"bbimprover",
         R"({"id":"q","type":"growing","algorithm":"bbimprover",)" + stream
             + R"("budget":{"kind":"zcdp","rho":0.5},"schedule":{"a":0.1,"every":250},)"
               R"("black_box":{"kind":"laplace-k","queries":["education >= 16"]}})",
         growingZcdp},
        {"nsg",
         R"({"id":"q","type":"growing","algorithm":"nsg",)" + stream
             + R"("budget":{"kind":"pure","epsilon":1},"nsg":{"p":0.5,"T":0.3,"cap":{"kind":"time","c0":10},)"
               R"("queries":["region == \"south\""],"checkpoints":5}})",
         growing},
        {"pmwg",
         R"({"id":"q","type":"growing","algorithm":"pmwg",)" + stream
             + R"("budget":{"kind":"pure","epsilon":1},"pmwg":{"universe":"small","p":0.5,"c0":40,"T":0.05,)"
               R"("eta":0.3,"checkpoints":5,"per_checkpoint":5}})",
         growing},
        {"ermg",
         R"({"id":"q","type":"growing","algorithm":"ermg",)" + stream
             + R"("budget":{"kind":"zcdp","rho":0.5},"schedule":{"kind":"improver","a":0.1,"every":500},)"
               R"("erm":{"lambda":0.01,"tol":1e-8}})",
         growingZcdp},
        {"smalldb",
         R"({"id":"q","type":"growing","algorithm":"smalldb",)" + stream
             + R"("budget":{"kind":"pure","epsilon":1},"schedule":{"kind":"geometric","gamma":1},)"
               R"("black_box":{"m":8}})",
         growing},
    };
}

/// The side commands that read a dataset's rows, each with arguments that succeed on public data.
std::vector<std::pair<const char *, QStringList>> sideCommands()
{
    auto words = [](std::initializer_list<const char *> list) {
        QStringList out;
        for (const char *w : list)
            out << QString::fromUtf8(w);
        return out;
    };
    return {
        {"odp svt", words({"odp", "svt", "--threshold", "300", "--c", "2", "--epsilon", "1", "--column",
                           "region", "--seed", "1"})},
        {"odp iqr", words({"odp", "iqr", "--neighbours", "replace", "--column", "wage", "--where",
                           "region == 'south'", "--mode", "bin", "--order", "fixed", "--seed", "1"})},
        {"odp recover", words({"odp", "recover", "--repeat", "3", "--seed", "1"})},
    };
}

} // namespace

QString TestCliDoor::dataset(const QString &stem, const std::string &csv, const std::string &metadata)
{
    writeFile(path(stem + QStringLiteral(".csv")), csv);
    if (!metadata.empty())
        writeFile(path(stem + QStringLiteral(".json")), metadata);
    return path(stem + QStringLiteral(".csv"));
}

void TestCliDoor::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_datasets["embedded"] = QStringLiteral("cps1988");
    m_datasets["public-csv"] = dataset(QStringLiteral("public"), csvText(), metadataText(true));
    m_datasets["private-csv"] = dataset(QStringLiteral("private"), csvText(), metadataText(false));
    m_datasets["no-metadata-csv"] = dataset(QStringLiteral("bare"), csvText(), {});
    // Row 3 (0-based 2) of csvText() is in the south: the neighbour moves it west.
    const std::string d = csvText();
    const std::string dPrime = csvText(2, "west");
    QVERIFY(d != dPrime);
    m_privateD = dataset(QStringLiteral("d"), d, metadataText(false));
    m_privateDPrime = dataset(QStringLiteral("dprime"), dPrime, metadataText(false));
}

void TestCliDoor::sideCommandsRunOnlyOnPublicData()
{
    for (const auto &[command, args] : sideCommands()) {
        for (const auto &[name, data] : m_datasets) {
            const auto run = runCli(args + QStringList{QStringLiteral("--dataset"), data});
            const bool isPublic = name == "embedded" || name == "public-csv";
            const QString where
                = QStringLiteral("%1 on %2: %3")
                      .arg(QString::fromLatin1(command), QString::fromStdString(name), run.err);
            if (isPublic) {
                QVERIFY2(run.exitCode == 0, qPrintable(where));
                QVERIFY2(json::parse(run.out.toStdString()).is_object(), qPrintable(where));
            } else {
                QVERIFY2(run.exitCode == 1, qPrintable(where));
                QVERIFY2(run.out.isEmpty(), qPrintable(where));
                QVERIFY2(run.err.contains(QStringLiteral("which is not declared public")), qPrintable(where));
            }
        }
    }
    // The lab simulations already refused private data; with the door they still do.
    for (const auto &[name, data] : m_datasets) {
        const bool isPublic = name == "embedded" || name == "public-csv";
        const auto run = runCli({QStringLiteral("simulate"), QStringLiteral("relative-error"),
                                 QStringLiteral("--dataset"), data, QStringLiteral("--repetitions"),
                                 QStringLiteral("4"), QStringLiteral("--queries"), QStringLiteral("50"),
                                 QStringLiteral("--out"), path(QStringLiteral("re.json"))});
        QVERIFY2((run.exitCode == 0) == isPublic, qPrintable(QString::fromStdString(name) + run.err));
    }
    // Subcommands that read no data run on any dataset flag they take (none): table1, thm15, early-stop,
    // svt-figure.
    for (const QStringList &args :
         {QStringList{QStringLiteral("odp"), QStringLiteral("table1")},
          QStringList{QStringLiteral("odp"), QStringLiteral("svt-figure"), QStringLiteral("--counts"),
                      QStringLiteral("0,1")},
          QStringList{QStringLiteral("odp"), QStringLiteral("early-stop"), QStringLiteral("--stops"),
                      QStringLiteral("10,20"), QStringLiteral("--step-epsilon"), QStringLiteral("0.1"),
                      QStringLiteral("--delta"), QStringLiteral("1e-6")}}) {
        const auto run = runCli(args);
        QVERIFY2(run.exitCode == 0, qPrintable(args.join(QLatin1Char(' ')) + run.err));
    }
}

void TestCliDoor::sessionRequestsAreChargedOrRefused()
{
    int charged = 0, refused = 0;
    for (const auto &kind : requestKinds()) {
        writeFile(path(QStringLiteral("req.jsonl")), kind.line + "\n");
        for (const auto &[name, data] : m_datasets) {
            const QString out = path(QStringLiteral("t-%1-%2.json")
                                         .arg(QString::fromLatin1(kind.name), QString::fromStdString(name)));
            const auto run = runCli(QStringList{QStringLiteral("run"), QStringLiteral("--queries"),
                                                path(QStringLiteral("req.jsonl")), QStringLiteral("--out"),
                                                out, QStringLiteral("--dataset"), data,
                                                QStringLiteral("--seed"), QStringLiteral("3")}
                                    + kind.flags);
            const QString where
                = QStringLiteral("%1 on %2: %3 %4")
                      .arg(QString::fromLatin1(kind.name), QString::fromStdString(name), run.err, run.out);
            if (run.exitCode == 0) {
                // Charged: the transcript holds the event and something was spent for it.
                const json t = json::parse(test::readTextFile(out.toStdString()));
                QVERIFY2(t["events"].size() == 1, qPrintable(where));
                const json &e = t["events"][0];
                QVERIFY2(e["status"] == "released", qPrintable(where));
                double spent = 0.0;
                for (const auto &[unit, amount] : e["cost"].items())
                    if (amount.is_number())
                        spent += amount.get<double>();
                QVERIFY2(spent > 0.0, qPrintable(where));
                ++charged;
            } else {
                // Refused before anything was spent or written, naming a field.
                QVERIFY2(run.exitCode == 1, qPrintable(where));
                QVERIFY2(!QFile::exists(out), qPrintable(where));
                QVERIFY2(run.err.contains(QStringLiteral("line 1")), qPrintable(where));
                ++refused;
                // Only the CSV without metadata lacks what these requests need (bounds, categories).
                QVERIFY2(name == "no-metadata-csv", qPrintable(where));
            }
        }
    }
    // Every kind is charged on the three datasets with metadata; on the bare CSV the ones whose
    // shape depends on declared bounds or categories are refused.
    // On the CSV without metadata: count and the four growing streams whose predicates or fixed
    // features need no declaration (bbscheduler, bbimprover, nsg, ermg) are charged; sum, mean,
    // histogram, quantile, workload, svt, ptr-iqr, early-stop, recover (no declared bounds or
    // categories) and pmwg, smalldb (no declared universe) are refused: 16·3 + 5 = 53 and 11.
    QCOMPARE(charged, 53);
    QCOMPARE(refused, 11);
}

void TestCliDoor::iqrWhereCannotTellNeighboursApart()
{
    // The audit's case: `odp iqr --where` on D and D′ printed 428.84033 vs 428.87137 (n = 8760 vs
    // 8759) every time. Both private now: the same refusal, nothing on stdout.
    const QStringList args{QStringLiteral("odp"),          QStringLiteral("iqr"),
                           QStringLiteral("--neighbours"), QStringLiteral("replace"),
                           QStringLiteral("--column"),     QStringLiteral("wage"),
                           QStringLiteral("--where"),      QStringLiteral("region == 'south'"),
                           QStringLiteral("--mode"),       QStringLiteral("bin"),
                           QStringLiteral("--order"),      QStringLiteral("fixed")};
    for (const char *seed : {"1", "2", "3"}) {
        const QStringList seeded = args + QStringList{QStringLiteral("--seed"), QString::fromLatin1(seed)};
        const auto d = runCli(seeded + QStringList{QStringLiteral("--dataset"), m_privateD});
        const auto dPrime = runCli(seeded + QStringList{QStringLiteral("--dataset"), m_privateDPrime});
        QCOMPARE(d.exitCode, 1);
        QCOMPARE(dPrime.exitCode, 1);
        QVERIFY(d.out.isEmpty() && dPrime.out.isEmpty());
        QCOMPARE(d.err, QString(dPrime.err).replace(QStringLiteral("dprime"), QStringLiteral("d")));
        QVERIFY2(d.err.contains(
                     QStringLiteral("pbx-cli odp iqr: this command reads the rows of the dataset, which "
                                    "is not declared public")),
                 qPrintable(d.err));
        QVERIFY2(d.err.contains(QStringLiteral("request kind 'ptr-iqr'")), qPrintable(d.err));
    }
    // On public data it runs and says what it computed from the data (n of the subgroup).
    const auto pub = runCli(args
                            + QStringList{QStringLiteral("--seed"), QStringLiteral("1"),
                                          QStringLiteral("--dataset"), m_datasets["public-csv"]});
    QVERIFY2(pub.exitCode == 0, qPrintable(pub.err));
    const json doc = json::parse(pub.out.toStdString());
    QVERIFY(doc["n"].get<int>() > 300 && doc["n"].get<int>() < 450); // ≈ 1500/4 rows in the south
}

void TestCliDoor::inferredCategoriesAreRefusedForSvtAndRecover()
{
    // The audit's case: a CSV plus one row with a new city "Zed". Without metadata the category
    // list comes from the data: the sparse vector's answers had 3 vs 4 entries and recover's θ 3
    // vs 4 coefficients. Both are refused now, identically on D and D′, before anything is spent.
    const std::string base = "city,wage\n" + [] {
        std::string rows;
        for (int i = 0; i < 60; ++i)
            rows += std::string(i % 3 == 0   ? "Ash"
                                : i % 3 == 1 ? "Birch"
                                             : "Cedar")
                    + "," + std::to_string(300 + (i * 37) % 700) + "\n";
        return rows;
    }();
    const QString d = dataset(QStringLiteral("city"), base, {});
    const QString dPrime = dataset(QStringLiteral("cityz"), base + "Zed,450\n", {});
    const std::map<std::string, std::pair<std::string, std::string>> requests{
        {"svt",
         {R"({"id":"s","mechanism":"svt","column":"city","threshold":0,"c":3,"epsilon":0.5})",
          "line 1: column: its categories were inferred from the data; declare them in metadata"}},
        {"recover",
         {R"({"id":"r","mechanism":"recover","label_column":"wage","label_threshold":500,"features":["city"]})",
          "line 1: features: 'city': its categories were inferred from the data; declare them in metadata"}},
        {"histogram",
         {R"({"id":"h","aggregate":"histogram","column":"city","target":{"kind":"absolute","error":20}})",
          "its categories were inferred from the data"}}};
    for (const auto &[kind, request] : requests) {
        writeFile(path(QStringLiteral("z.jsonl")), request.first + "\n");
        QString errors[2];
        int i = 0;
        for (const QString &data : {d, dPrime}) {
            const QString out = path(QStringLiteral("z-transcript.json"));
            QStringList args{QStringLiteral("run"),
                             QStringLiteral("--queries"),
                             path(QStringLiteral("z.jsonl")),
                             QStringLiteral("--out"),
                             out,
                             QStringLiteral("--dataset"),
                             data,
                             QStringLiteral("--epsilon"),
                             QStringLiteral("5"),
                             QStringLiteral("--seed"),
                             QStringLiteral("1")};
            if (kind != "histogram")
                args << QStringLiteral("--filter") << QStringLiteral("odp") << QStringLiteral("--neighbours")
                     << QStringLiteral("replace");
            const auto run = runCli(args);
            QVERIFY2(run.exitCode == 1, qPrintable(QString::fromStdString(kind) + run.out + run.err));
            QVERIFY2(run.err.contains(QString::fromStdString(request.second)), qPrintable(run.err));
            QVERIFY(!QFile::exists(out));
            errors[i++] = run.err;
        }
        QCOMPARE(errors[0], QString(errors[1]).replace(QStringLiteral("cityz"), QStringLiteral("city")));
    }
}

void TestCliDoor::recoverRepeatReportsTotalCost()
{
    // The audit's case: --repeat 200 printed 200 noised models and "cost": 2.0. Private data are
    // refused; on public data the total of the R releases is printed (basic composition).
    const QStringList args{QStringLiteral("odp"), QStringLiteral("recover"), QStringLiteral("--repeat"),
                           QStringLiteral("20"),  QStringLiteral("--seed"),  QStringLiteral("4")};
    const auto priv = runCli(args + QStringList{QStringLiteral("--dataset"), m_datasets["private-csv"]});
    QCOMPARE(priv.exitCode, 1);
    QVERIFY(priv.out.isEmpty());
    QVERIFY2(priv.err.contains(QStringLiteral("request kind 'recover'")), qPrintable(priv.err));
    const auto pub = runCli(args);
    QVERIFY2(pub.exitCode == 0, qPrintable(pub.err));
    const json doc = json::parse(pub.out.toStdString());
    QCOMPARE(doc["runs"].size(), std::size_t{20});
    double sum = 0.0;
    for (const json &r : doc["runs"])
        sum += r["cost"].get<double>();
    const double total = doc["total_cost"].get<double>();
    QVERIFY(total >= sum);
    PBX_FUZZY_COMPARE(total, sum, 1e-12);
    // Each run costs at least the test's ε_t = 0.5 and at most ε_p = 2: the total is ≥ 10.
    QVERIFY(total >= 20 * 0.5);
    PBX_FUZZY_COMPARE(doc["mean_cost"].get<double>() * 20.0, total, 1e-12);
}

void TestCliDoor::universeRefusalComesFromMetadata()
{
    // The audit's case: PMWG/SmallDBG on a CSV with a region value outside the universe said
    // "row 1233 has a region value outside the universe" and charged nothing, while its neighbour
    // without that row ran. Now the metadata decides: a declared category outside the universe is
    // refused for both neighbours, with the same message naming the category, not a row.
    const std::string regions = R"("northeast", "midwest", "south", "west", "other")";
    const QString d = dataset(QStringLiteral("u"), csvText(), metadataText(false, regions));
    const QString dPrime
        = dataset(QStringLiteral("uprime"), csvText(1233 % kRows, "other"), metadataText(false, regions));
    for (const auto &kind : requestKinds()) {
        if (std::string(kind.name) != "pmwg" && std::string(kind.name) != "smalldb")
            continue;
        writeFile(path(QStringLiteral("u.jsonl")), kind.line + "\n");
        QString errors[2];
        int i = 0;
        for (const QString &data : {d, dPrime}) {
            const QString out = path(QStringLiteral("u-transcript.json"));
            const auto run = runCli(QStringList{QStringLiteral("run"), QStringLiteral("--queries"),
                                                path(QStringLiteral("u.jsonl")), QStringLiteral("--out"), out,
                                                QStringLiteral("--dataset"), data, QStringLiteral("--seed"),
                                                QStringLiteral("3")}
                                    + kind.flags);
            QCOMPARE(run.exitCode, 1);
            QVERIFY(!QFile::exists(out));
            QVERIFY2(run.err.contains(QStringLiteral("ROW_OUTSIDE_UNIVERSE")), qPrintable(run.err));
            QVERIFY2(
                run.err.contains(QStringLiteral("column 'region' declares the category 'other', which is "
                                                "outside the universe (northeast, midwest, south, west)")),
                qPrintable(run.err));
            QVERIFY2(!run.err.contains(QStringLiteral("row ")), qPrintable(run.err));
            errors[i++] = run.err;
        }
        QCOMPARE(errors[0], QString(errors[1]).replace(QStringLiteral("uprime"), QStringLiteral("u")));
    }
}

QTEST_GUILESS_MAIN(TestCliDoor)
#include "tst_clidoor.moc"
