// SPDX-License-Identifier: MIT
// The stream model over CPS1988: seeded arrival orders (random and sorted), prefix counts, the
// two scales, query weights.
#include "core/data/predicate.h"
#include "core/growing/growing_error.h"
#include "core/growing/stream_model.h"
#include "tests/strategies/cps_table.h"
#include "tests/test_rows.h"
#include "tests/testutils.h"

#include <algorithm>

using namespace pbx;
using namespace pbx::growing;

class TestGrowingStream : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void arrivalOrders()
    {
        const auto cps = test::loadCps();
        QCOMPARE(cps.rowCount(), std::size_t{28155});
        auto a = arrivalOrder(pbx::test::PublicRows(cps), "random", 7);
        auto b = arrivalOrder(pbx::test::PublicRows(cps), "random", 7);
        auto c = arrivalOrder(pbx::test::PublicRows(cps), "random", 8);
        QVERIFY(a.ok() && b.ok() && c.ok());
        QCOMPARE(*a, *b);
        QVERIFY(*a != *c);
        auto sorted = *a;
        std::sort(sorted.begin(), sorted.end());
        for (std::size_t i = 0; i < sorted.size(); ++i)
            QCOMPARE(sorted[i], std::uint32_t(i)); // a permutation
        // Sorted: every non-south row arrives before every south row.
        auto s = arrivalOrder(pbx::test::PublicRows(cps), "sorted:region == \"south\"", 7);
        QVERIFY(s.ok());
        auto south = data::Predicate::compile("region == \"south\"", cps);
        std::vector<std::uint8_t> mask;
        south->evaluate(pbx::test::PublicRows(cps), mask);
        const std::size_t nSouth = south->countMatches(pbx::test::PublicRows(cps));
        PrefixCounts counts({mask}, *s);
        QCOMPARE(counts.count(0, cps.rowCount() - nSouth), std::uint32_t{0});
        QCOMPARE(counts.count(0, cps.rowCount()), std::uint32_t(nSouth));
        PBX_FUZZY_COMPARE(counts.fraction(0, cps.rowCount()), double(nSouth) / 28155.0, 1e-15);
        // Random order: the running fraction at t = 1000 is near the final one.
        PrefixCounts random({mask}, *a);
        QVERIFY(std::fabs(random.fraction(0, 1000) - double(nSouth) / 28155.0) < 0.06);
        auto bad = arrivalOrder(pbx::test::PublicRows(cps), "alphabetical", 1);
        QCOMPARE(growingErrorCode(bad.error()), kInvalidConfig);
        QVERIFY(bad.error().message.find("stream.order") != std::string::npos);
        QVERIFY(!arrivalOrder(pbx::test::PublicRows(cps), "sorted:regon == \"south\"", 1));
    }

    void scalesAndQueries()
    {
        QCOMPARE(toCountScale(0.25, 1000), 250.0);
        QCOMPARE(toFractionScale(250.0, 1000), 0.25);
        const double good[] = {0.0, 0.5, 1.0};
        QVERIFY(checkQueryWeights(good).ok());
        const double bad[] = {0.0, -0.5, 1.0};
        auto e = checkQueryWeights(bad);
        QCOMPARE(growingErrorCode(e.error()), kInvalidQuery);
        QVERIFY(e.error().message.find("weight 1") != std::string::npos);
        QCOMPARE(growingErrorCode(checkStartSize(0).error()), kInvalidStartSize);
        QVERIFY(checkStartSize(1).ok());
        QCOMPARE(growingErrorCode(checkBeta(0.0).error()), kInvalidBeta);
    }
};

QTEST_APPLESS_MAIN(TestGrowingStream)
#include "tst_stream.moc"
