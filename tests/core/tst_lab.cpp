// SPDX-License-Identifier: MIT
// The relative-error lab: its data-cube workload has the right cells and counts, every method
// sees the same workload, results are reproducible and cancellable, and noise reduction answers
// more counts than doubling under the same budget (the seed paper's headline claim).
#include "core/io/csv_reader.h"
#include "core/io/dataset_metadata.h"
#include "core/simulation/relative_error_lab.h"
#include "tests/testutils.h"

using namespace pbx;
using simulation::LabSettings;

namespace {
/// 20,000 rows: region (south every 4th row), group a/b/c (70/20/10 %), and years ∈ 0..9 with
/// years = ⌊10·(i/n)²⌋, so cells range from a few dozen to thousands of rows.
std::shared_ptr<const data::Table> labTable()
{
    const std::size_t n = 20000;
    data::Column region{
        {"region", data::ColumnType::Categorical, std::nullopt, "", {"north", "south"}}, {}, {}};
    data::Column group{{"group", data::ColumnType::Categorical, std::nullopt, "", {"a", "b", "c"}}, {}, {}};
    data::Column years{{"years", data::ColumnType::Numeric, data::Bounds{0, 10}, "", {}}, {}, {}};
    for (std::size_t i = 0; i < n; ++i) {
        region.codes.push_back(i % 4 == 0 ? 1 : 0);
        group.codes.push_back(i % 10 < 7 ? 0 : i % 10 < 9 ? 1 : 2);
        const double u = static_cast<double>(i) / static_cast<double>(n);
        years.numeric.push_back(std::floor(10.0 * u * u));
    }
    // A synthetic table of the test's own making: public.
    return std::make_shared<const data::Table>(
        data::Table::create("lab", {region, group, years}).value().withPublic(true));
}

/// A CSV of 400 people (region, smoker), and its neighbour with one row added.
std::string neighbouringCsv(bool withExtraRow)
{
    std::string csv = "region,smoker\n";
    for (int i = 0; i < 400; ++i)
        csv += std::string(i % 2 ? "north" : "south") + "," + (i % 5 == 0 ? "yes" : "no") + "\n";
    if (withExtraRow)
        csv += "north,yes\n";
    return csv;
}

constexpr const char *kMetadata = R"({"format": "pbx-dataset-metadata", "version": 1, %1
    "columns": [{"name": "region", "type": "categorical", "categories": ["north", "south"]},
                {"name": "smoker", "type": "categorical", "categories": ["no", "yes"]}]})";
} // namespace

class TestLab : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void dataCube();
    void headlineClaim();
    void reproducibleAndCancellable();
    void invalidSettings();
    void refusesDataNotDeclaredPublic();
};

// The lab's output is a deterministic function of the data (seeded noise, true counts
// scored), so on neighbouring tables it differs visibly. It must refuse data not declared public:
// no metadata, metadata without "public", "public": false; it runs with "public": true and on a
// synthetic table drawn from the metadata alone (identical for both neighbours).
void TestLab::refusesDataNotDeclaredPublic()
{
    LabSettings s;
    s.repetitions = 4;
    s.queriesPerRepetition = 8;
    s.maxEpsilonPerQuery = 0.5;
    for (const char *flag : {"", R"("public": false,)"}) {
        auto metadata
            = io::parseDatasetMetadata(QString::fromLatin1(kMetadata).arg(QLatin1String(flag)).toStdString());
        QVERIFY(metadata.ok());
        for (bool extra : {false, true}) {
            auto plain = io::readCsv(neighbouringCsv(extra), "private");
            io::CsvReadOptions options;
            options.metadata = &metadata.value();
            auto described = io::readCsv(neighbouringCsv(extra), "private", options);
            QVERIFY(plain.ok() && described.ok());
            for (const auto *table : {&plain.value(), &described.value()}) {
                QVERIFY(!table->isPublic());
                auto w = simulation::countCells(*table);
                QVERIFY(!w.ok());
                QCOMPARE(w.error().code, ErrorCode::Unsupported);
                QVERIFY(w.error().message.find("public") != std::string::npos);
            }
            // The synthetic table reads only the declared domain and the public row count.
            auto synthetic = simulation::synthesizeFromMetadata(described.value(), 3);
            QVERIFY(synthetic.ok() && synthetic->isPublic());
            QVERIFY(simulation::countCells(*synthetic).ok());
            // Without metadata, the categories came from the data: nothing public to draw from.
            QCOMPARE(simulation::synthesizeFromMetadata(plain.value(), 3).error().code,
                     ErrorCode::Unsupported);
        }
    }
    // "public": true is the user's knowing declaration: the lab runs, and its results on the two
    // neighbours differ — exactly the disclosure the rule prevents on private data.
    auto metadata = io::parseDatasetMetadata(
        QString::fromLatin1(kMetadata).arg(QLatin1String(R"("public": true,)")).toStdString());
    QVERIFY(metadata.ok() && metadata->isPublic);
    io::CsvReadOptions options;
    options.metadata = &metadata.value();
    std::vector<double> totals;
    for (bool extra : {false, true}) {
        auto table = io::readCsv(neighbouringCsv(extra), "declared", options);
        QVERIFY(table.ok() && table->isPublic());
        auto w = simulation::countCells(*table);
        QVERIFY(w.ok());
        double total = 0;
        for (const auto &c : w->cells)
            total += c.count;
        totals.push_back(total);
    }
    QVERIFY(totals[0] != totals[1]);
}

// 2 regions × 3 groups = 6 categorical cells (< 200), so the numeric column with ≤ 30 distinct
// values joins: (2+1)·(3+1)·(10+1) − 1 = 131 cube cells; each one-dimensional margin sums to n.
void TestLab::dataCube()
{
    auto w = simulation::countCells(*labTable());
    QVERIFY(w.ok());
    QCOMPARE(w->cells.size(), std::size_t(131));
    QCOMPARE(w->rowCount, 20000.0);
    double regionCells = 0, yearCells = 0;
    for (const auto &c : w->cells) {
        const QString where = QString::fromStdString(c.where);
        if (where == QStringLiteral("region == \"south\""))
            QCOMPARE(c.count, 5000.0);
        if (where == QStringLiteral("group == \"c\""))
            QCOMPARE(c.count, 2000.0);
        if (where == QStringLiteral("region == \"south\" and group == \"a\""))
            QCOMPARE(c.count, 4000.0); // i ≡ 0 mod 4 gives i mod 10 ∈ {0,4,8,2,6}; 4 of those 5 are < 7
        if (!where.contains(QStringLiteral(" and ")) && where.startsWith(QStringLiteral("region")))
            regionCells += c.count;
        if (!where.contains(QStringLiteral(" and ")) && where.startsWith(QStringLiteral("years")))
            yearCells += c.count;
    }
    QCOMPARE(regionCells, 20000.0);
    QCOMPARE(yearCells, 20000.0);
}

void TestLab::headlineClaim()
{
    auto w = simulation::countCells(*labTable()).value();
    LabSettings s;
    s.repetitions = 40;
    s.queriesPerRepetition = 100;
    s.epsilon = 2.0;
    s.maxEpsilonPerQuery = 0.2;
    auto results = simulation::runRelativeErrorLab(w, s, simulation::defaultLabMethods());
    QVERIFY(results.ok());
    QCOMPARE(results->size(), std::size_t(8));
    auto find = [&](session::ReleaseMethod m, filters::FilterKind f) {
        for (const auto &r : *results)
            if (r.method.mechanism == m && r.method.filter == f)
                return r;
        return simulation::LabResult{};
    };
    using M = session::ReleaseMethod;
    using F = filters::FilterKind;
    const auto bnr = find(M::Brownian, F::BrownianZcdp), gaussDoubling = find(M::DoublingGaussian, F::Zcdp);
    const auto lnr = find(M::LaplaceNr, F::ExPost), lapDoubling = find(M::DoublingLaplace, F::Basic);
    QVERIFY2(bnr.answeredMean > gaussDoubling.answeredMean,
             qPrintable(QStringLiteral("Brownian %1 vs Gaussian doubling %2")
                            .arg(bnr.answeredMean)
                            .arg(gaussDoubling.answeredMean)));
    QVERIFY2(lnr.answeredMean > lapDoubling.answeredMean,
             qPrintable(QStringLiteral("Laplace NR %1 vs Laplace doubling %2")
                            .arg(lnr.answeredMean)
                            .arg(lapDoubling.answeredMean)));
    for (const auto &r : *results) {
        QVERIFY(!r.withinAlpha || *r.withinAlpha >= 0.95); // certified answers really are within α
        QVERIFY(r.epsilonSpentMean <= s.epsilon * (1 + 1e-12));
        QCOMPARE(r.answeredCurve.size(), std::size_t(100));
        PBX_FUZZY_COMPARE(r.answeredCurve.back(), r.answeredMean, 1e-12);
    }
}

void TestLab::reproducibleAndCancellable()
{
    auto w = simulation::countCells(*labTable()).value();
    LabSettings s;
    s.repetitions = 6;
    s.queriesPerRepetition = 30;
    const auto methods = simulation::defaultLabMethods();
    auto a = simulation::runRelativeErrorLab(w, s, methods, {}, 2).value();
    auto b = simulation::runRelativeErrorLab(w, s, methods, {}, 1).value();
    for (std::size_t i = 0; i < a.size(); ++i)
        QCOMPARE(a[i].answeredPerRepetition, b[i].answeredPerRepetition); // thread count does not matter
    s.repetitions = 2000;
    auto cancelled = simulation::runRelativeErrorLab(
        w, s, methods, [](std::int64_t done, std::int64_t) { return done < 3; });
    QVERIFY(!cancelled.ok());
    QCOMPARE(cancelled.error().code, ErrorCode::Cancelled);
}

void TestLab::invalidSettings()
{
    const auto w = simulation::countCells(*labTable()).value();
    // Each bad setting is refused by the name of its command-line option, before any run starts.
    struct Case
    {
        void (*set)(LabSettings &);
        const char *field;
    };
    const Case cases[] = {
        {[](LabSettings &s) { s.alpha = 0.0; }, "--alpha"},
        {[](LabSettings &s) { s.alpha = std::nan(""); }, "--alpha"},
        {[](LabSettings &s) { s.confidence = 1.0; }, "--confidence"},
        {[](LabSettings &s) { s.epsilon = 0.0; }, "--epsilon"},
        {[](LabSettings &s) { s.delta = 0.0; }, "--delta"},
        {[](LabSettings &s) { s.delta = 1.0; }, "--delta"},
        {[](LabSettings &s) { s.repetitions = 0; }, "--repetitions"},
        {[](LabSettings &s) { s.repetitions = 100001; }, "--repetitions"},
        {[](LabSettings &s) { s.queriesPerRepetition = 0; }, "--queries"},
        {[](LabSettings &s) { s.maxEpsilonPerQuery = -1.0; }, "--max-epsilon-per-query"},
        {[](LabSettings &s) { s.plannedQueries = -1; }, "--plan-queries"},
        {[](LabSettings &s) { s.split.expostEpsilonShare = 1.0; }, "ex-post shares of ε and δ"},
    };
    for (const auto &c : cases) {
        LabSettings s;
        c.set(s);
        PBX_VERIFY_ERROR(simulation::runRelativeErrorLab(w, s, simulation::defaultLabMethods()),
                         InvalidArgument, c.field);
    }
    PBX_VERIFY_ERROR(
        simulation::runRelativeErrorLab(simulation::Workload{}, {}, simulation::defaultLabMethods()),
        InvalidArgument, "workload");
    // Laplace noise reduction is ex-post: a zCDP filter cannot account it.
    PBX_VERIFY_ERROR(simulation::runRelativeErrorLab(
                         w, {}, {{session::ReleaseMethod::LaplaceNr, filters::FilterKind::Zcdp}}),
                     InvalidArgument, "mechanism: the zcdp filter cannot account");
}

QTEST_APPLESS_MAIN(TestLab)
#include "tst_lab.moc"
