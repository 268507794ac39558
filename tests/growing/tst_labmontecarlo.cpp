// SPDX-License-Identifier: MIT
// The growing labs' Monte Carlo pieces (core/growing/lab_monte_carlo.h) and runGrowingLab's progress
// reports: the noise seed of repetition 0 is the lab seed, reports count repetitions (SmallDBG and
// ERMG: their epochs or fits) and only move forward, and a report that answers "stop" ends the
// simulation with ErrorCode::Cancelled after no more work.
#include "core/growing/growing_lab.h"
#include "core/growing/lab_monte_carlo.h"
#include "core/io/digest.h"
#include "core/io/growing_lab_json.h"
#include "core/simulation/growing_lab_run.h"
#include "resources/dataset_catalog.h"

#include <QTest>

using namespace pbx;
using io::json::Json;

namespace {

Json smallDbgLab(int repetitions)
{
    return Json{{"format", "pbx-growing-lab"},
                {"version", 1u},
                {"algorithm", "bbscheduler"},
                {"stream", Json{{"start_size", 1000u}, {"order", "random"}, {"end", 28155u}}},
                {"budget", Json{{"kind", "pure"}, {"epsilon", 1.0}}},
                {"schedule", Json{{"kind", "geometric"}, {"gamma", 1.0}}},
                {"black_box", Json{{"kind", "smalldb"}, {"m", 4u}}},
                {"repetitions", unsigned(repetitions)}};
}

} // namespace

class TestLabMonteCarlo : public QObject
{
    Q_OBJECT
private slots:
    void seeds()
    {
        QCOMPARE(growing::labNoiseSeed(42, 0), std::uint64_t(42));
        QVERIFY(growing::labNoiseSeed(42, 1) != growing::labNoiseSeed(42, 2));
        QVERIFY(growing::labNoiseSeed(42, 1) != growing::labOrderSeed(42, 1));
        QCOMPARE(growing::labNoiseSeed(42, 3), growing::labNoiseSeed(42, 3));
    }

    void reportCounts()
    {
        std::vector<growing::LabProgressStep> seen;
        const growing::LabProgress record = [&](const growing::LabProgressStep &s) {
            seen.push_back(s);
            return true;
        };
        // Repetition 1 of 3, epoch 4 of 5 (its last): 10 of 15 units, 2 repetitions done.
        QVERIFY(growing::reportLabProgress(record, 1, 3, 4, 5, 0.25).ok());
        QVERIFY(growing::reportLabProgress(record, 2, 3, 0, 5, 0.5).ok());
        QCOMPARE(seen.size(), std::size_t(2));
        QCOMPARE(seen[0].done, std::uint64_t(10));
        QCOMPARE(seen[0].total, std::uint64_t(15));
        QCOMPARE(seen[0].repetitionsDone, 2);
        QCOMPARE(*seen[0].runError, 0.25);
        QCOMPARE(seen[1].done, std::uint64_t(11));
        QCOMPARE(seen[1].repetitionsDone, 2);
        QVERIFY(!seen[1].runError); // not the repetition's last step
        const growing::LabProgress stop = [](const growing::LabProgressStep &) { return false; };
        auto cancelled = growing::reportLabProgress(stop, 0, 1);
        QVERIFY(!cancelled.ok());
        QCOMPARE(cancelled.error().code, ErrorCode::Cancelled);
        QVERIFY(growing::reportLabProgress({}, 0, 1).ok()); // no callback: nothing to report
    }

    /// SmallDBG (m = 4, 3 runs of 5 epochs): a report after every epoch, 1 … 15 of 15, the runs'
    /// largest errors as the document summarises them; stopping at the 7th ends the run there.
    void smallDbgProgressAndCancel()
    {
        auto table = resources::loadDataset("cps1988");
        QVERIFY(table.ok());
        auto config = growing::parseGrowingLab(smallDbgLab(3));
        QVERIFY2(config.ok(), config.ok() ? "" : config.error().message.c_str());
        std::vector<std::uint64_t> done, totals;
        std::vector<double> runErrors;
        const growing::LabProgress record = [&](const growing::LabProgressStep &s) {
            totals.push_back(s.total);
            done.push_back(s.done);
            if (s.runError)
                runErrors.push_back(*s.runError);
            return true;
        };
        auto doc = growing::runGrowingLab(*config, &*table, 1, false, record);
        QVERIFY(doc.ok());
        QCOMPARE(done.size(), std::size_t(15));
        for (std::size_t i = 0; i < done.size(); ++i) {
            QCOMPARE(done[i], std::uint64_t(i + 1));
            QCOMPARE(totals[i], std::uint64_t(15));
        }
        QCOMPARE(runErrors.size(), std::size_t(3));
        QCOMPARE(std::get<growing::SchedulerResult>(doc->body).monteCarlo->maxError.max,
                 *std::max_element(runErrors.begin(), runErrors.end()));
        // The same document without reports.
        QVERIFY(growing::growingLabResultJson(*growing::runGrowingLab(*config, &*table, 1, false))
                == growing::growingLabResultJson(*doc));

        int calls = 0;
        const growing::LabProgress stopAt7 = [&](const growing::LabProgressStep &) { return ++calls < 7; };
        auto cancelled = growing::runGrowingLab(*config, &*table, 1, false, stopAt7);
        QVERIFY(!cancelled.ok());
        QCOMPARE(cancelled.error().code, ErrorCode::Cancelled);
        QCOMPARE(calls, 7);
    }

    /// NSG reports once per repetition; a plan reports nothing.
    void nsgReportsRepetitions()
    {
        auto table = resources::loadDataset("cps1988");
        QVERIFY(table.ok());
        Json lab{{"format", "pbx-growing-lab"},
                 {"version", 1u},
                 {"algorithm", "nsg"},
                 {"stream", Json{{"start_size", 1000u}, {"order", "random"}, {"end", 28155u}}},
                 {"budget", Json{{"kind", "pure"}, {"epsilon", 1.0}}},
                 {"nsg", Json{{"cap", Json{{"kind", "time"}, {"c0", 10}}},
                              {"queries", Json::array({"wage < 500"})}}},
                 {"repetitions", 4u}};
        auto config = growing::parseGrowingLab(lab);
        QVERIFY2(config.ok(), config.ok() ? "" : config.error().message.c_str());
        int reports = 0;
        std::vector<growing::LabProgressStep> seen;
        const growing::LabProgress count = [&](const growing::LabProgressStep &s) {
            ++reports;
            seen.push_back(s);
            return true;
        };
        auto doc = growing::runGrowingLab(*config, &*table, 9, false, count);
        QVERIFY(doc.ok());
        QCOMPARE(reports, 4);
        for (int i = 0; i < 4; ++i) {
            QCOMPARE(seen[std::size_t(i)].repetitionsDone, i + 1);
            QCOMPARE(seen[std::size_t(i)].total, std::uint64_t(4));
        }
        QCOMPARE(std::get<growing::NsgResult>(doc->body).monteCarlo->repetitions, 4);
        reports = 0;
        QVERIFY(growing::runGrowingLab(*config, nullptr, 9, true, count).ok());
        QCOMPARE(reports, 0);
    }

    /// The documents `pbx-cli simulate growing --seed 7` wrote before the labs returned typed
    /// results (their SHA-256): every algorithm's simulation and three plans, byte for byte. A
    /// change in a number or in the document's shape fails here; regenerate a digest with
    /// `pbx-cli simulate growing --config C --seed 7 [--plan-only] --out D && sha256sum D` only when
    /// the change is meant.
    void documentsUnchanged()
    {
        struct Case
        {
            const char *config;
            bool planOnly;
            const char *sha256;
        };
        const Case cases[] = {
            {"{\"format\":\"pbx-growing-lab\",\"version\":1,\"algorithm\":\"bbscheduler\",\"stream\":{\"start_size\":1000,\"end\":20000},\"budget\":{\"kind\":\"pure\",\"epsilon\":1},\"schedule\":{\"kind\":\"geometric\",\"gamma\":\"optimal\"},\"black_box\":{\"kind\":\"laplace-k\",\"queries\":[\"region == \\\"south\\\"\",\"parttime == \\\"yes\\\"\"]},\"repetitions\":5}",
             false, "e920be5e11f6b2f29fa8cd0673cf1fae6d9c627eb6dc4ffe6c41a009acb4708f"},
            {"{\"format\":\"pbx-growing-lab\",\"version\":1,\"algorithm\":\"bbscheduler\",\"stream\":{\"start_size\":2000,\"end\":28155},\"budget\":{\"kind\":\"pure\",\"epsilon\":2},\"schedule\":{\"kind\":\"geometric\",\"gamma\":1},\"black_box\":{\"kind\":\"smalldb\",\"m\":4},\"repetitions\":2}",
             false, "f4a4c8d63d4c58e37e0832e155f209bac41a7d89901d3f2368ce575d913c9f25"},
            {"{\"format\":\"pbx-growing-lab\",\"version\":1,\"algorithm\":\"bbimprover\",\"stream\":{\"start_size\":1000,\"end\":15000},\"budget\":{\"kind\":\"zcdp\",\"rho\":0.5},\"schedule\":{\"a\":0.1,\"every\":50},\"black_box\":{\"kind\":\"laplace-k\",\"queries\":[\"region == \\\"south\\\"\"]},\"repetitions\":3}",
             false, "54f8f597fdac5a2dc2dc08870fa6ff64a76bf19c80a780aa360189c19303d193"},
            {"{\"format\":\"pbx-growing-lab\",\"version\":1,\"algorithm\":\"pmwg\",\"stream\":{\"start_size\":14000,\"end\":28155},\"budget\":{\"kind\":\"approx\",\"epsilon\":1,\"delta\":1e-6},\"pmwg\":{\"checkpoints\":5,\"per_checkpoint\":5}}",
             false, "5c924c62232af8f55d8104f02a1b646b4876838e7c22f3d030f775a75c9e8774"},
            {"{\"format\":\"pbx-growing-lab\",\"version\":1,\"algorithm\":\"nsg\",\"stream\":{\"start_size\":1000,\"end\":28155},\"budget\":{\"kind\":\"approx\",\"epsilon\":1,\"delta\":1e-6},\"nsg\":{\"cap\":{\"kind\":\"time\",\"c0\":5},\"T\":0.3,\"queries\":[\"region == \\\"south\\\"\",\"parttime == \\\"yes\\\"\",\"smsa == \\\"yes\\\"\"],\"checkpoints\":6},\"repetitions\":3}",
             false, "434a4e9de6d608de14e34e470c8220192f67ef67bef81d69db3dab5f8639956f"},
            {"{\"format\":\"pbx-growing-lab\",\"version\":1,\"algorithm\":\"ermg\",\"stream\":{\"start_size\":2000,\"end\":6000},\"budget\":{\"kind\":\"zcdp\",\"rho\":0.5},\"schedule\":{\"kind\":\"improver\",\"every\":1000},\"erm\":{\"draws\":10},\"repetitions\":2}",
             false, "8fcb9c51f5df01ac67b04b1392fb47096bd10831f285f3aefa037c2340a13452"},
            {"{\"format\":\"pbx-growing-lab\",\"version\":1,\"algorithm\":\"bbimprover\",\"stream\":{\"start_size\":1000,\"end\":15000},\"budget\":{\"kind\":\"approx\",\"epsilon\":1,\"delta\":1e-6},\"schedule\":{\"a\":0.1,\"every\":50},\"black_box\":{\"kind\":\"noisy-histogram\",\"universe\":16},\"repetitions\":3}",
             true, "bc3aac58b53665c56b49bf33222ccb86f28f94d3f9058f597a71cfed16d325d8"},
            {"{\"format\":\"pbx-growing-lab\",\"version\":1,\"algorithm\":\"nsg\",\"stream\":{\"start_size\":1000,\"end\":28155},\"budget\":{\"kind\":\"approx\",\"epsilon\":1,\"delta\":1e-6},\"nsg\":{\"cap\":{\"kind\":\"time\",\"c0\":5},\"T\":0.3,\"queries\":[\"region == \\\"south\\\"\",\"union == \\\"yes\\\"\",\"smsa == \\\"yes\\\"\"],\"checkpoints\":6},\"repetitions\":3}",
             true, "3d0b37b50a27153698ce80c2643886c6326f61129e503650bf0cf6fe164e2bf1"},
            {"{\"format\":\"pbx-growing-lab\",\"version\":1,\"algorithm\":\"ermg\",\"stream\":{\"start_size\":2000,\"end\":8000},\"budget\":{\"kind\":\"approx\",\"epsilon\":1,\"delta\":1e-6},\"schedule\":{\"kind\":\"zcdp-geometric\",\"gamma\":1},\"erm\":{\"draws\":5}}",
             true, "f7b572161894728538dd5db233cfdee0c48ebefd68ecfe0c6e69b1059efac137"},
        };
        auto table = resources::loadDataset("cps1988");
        QVERIFY(table.ok());
        for (const Case &c : cases) {
            auto config = growing::parseGrowingLab(Json::parse(c.config));
            QVERIFY2(config.ok(), config.ok() ? "" : config.error().message.c_str());
            auto result = growing::runGrowingLab(*config, &*table, 7, c.planOnly);
            QVERIFY2(result.ok(), result.ok() ? "" : result.error().message.c_str());
            const std::string document = growing::growingLabResultJson(*result).dump(2) + "\n";
            QVERIFY2(io::sha256Hex(document) == c.sha256, c.config);
        }
    }
};

QTEST_GUILESS_MAIN(TestLabMonteCarlo)
#include "tst_labmontecarlo.moc"
