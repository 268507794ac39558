// SPDX-License-Identifier: MIT
// The growing labs' Monte Carlo pieces (core/growing/lab_monte_carlo.h) and runGrowingLab's progress
// reports: the noise seed of repetition 0 is the lab seed, reports count repetitions (SmallDBG and
// ERMG: their epochs or fits) and only move forward, and a report that answers "stop" ends the
// simulation with ErrorCode::Cancelled after no more work.
#include "core/growing/growing_lab.h"
#include "core/growing/lab_monte_carlo.h"
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
};

QTEST_GUILESS_MAIN(TestLabMonteCarlo)
#include "tst_labmontecarlo.moc"
