// SPDX-License-Identifier: MIT
// SmallDB by exact enumeration (Dwork & Roth 2014, §4.1), the black box of SmallDBG: the range size
// C(N+m−1, m), the CPS1988 teaching instance's best achievable error, the exact sampler's
// distribution on a tiny instance, and the refusals (docs/growing-databases.md, "SmallDB").
#include "core/datasets/cps1988_smalldb.h"
#include "core/growing/growing_error.h"
#include "core/growing/smalldb.h"
#include "tests/strategies/cps_table.h"
#include "tests/test_rows.h"
#include "tests/testutils.h"

#include <array>
#include <cmath>
#include <ctime>
#include <limits>
#include <numeric>

using namespace pbx;
using namespace pbx::growing;

class TestSmallDb : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void rangeSize()
    {
        QCOMPARE(smallDbRangeSize(16, 6), std::uint64_t{54264});
        QCOMPARE(smallDbRangeSize(16, 8), std::uint64_t{490314});
        QCOMPARE(smallDbRangeSize(16, 10), std::uint64_t{3268760});
        QCOMPARE(smallDbRangeSize(32, 6), std::uint64_t{2324784});
        QCOMPARE(smallDbRangeSize(8, 4), std::uint64_t{330});
        QCOMPARE(smallDbRangeSize(1u << 16, 255), std::numeric_limits<std::uint64_t>::max()); // saturates
        // The enumeration visits exactly |R| candidates (m = 1: the N cells themselves).
        auto tiny = SmallDb::create(5, {{1, 0, 1, 0, 1}}, 3);
        QVERIFY(tiny.ok());
        QCOMPARE(tiny->rangeSize(), std::uint64_t{35});
    }

    void cpsInstance()
    {
        const auto cps = test::loadCps();
        auto inst = cpsSmallDbInstance(pbx::test::PublicRows(cps));
        QVERIFY(inst.ok());
        QCOMPARE(inst->queries.size(), std::size_t{28});
        std::vector<std::uint64_t> counts(SmallDbInstance::kCells, 0);
        for (const auto c : inst->rowCells)
            ++counts[c];
        QCOMPARE(std::accumulate(counts.begin(), counts.end(), std::uint64_t{0}), std::uint64_t{28155});
        // Best achievable max error over R: m = 8 → 0.0896, m = 6 → 0.1122 (docs/growing-databases.md).
        for (const auto &[m, best] : {std::pair{std::size_t{8}, 0.0896}, std::pair{std::size_t{6}, 0.1122}}) {
            auto db = SmallDb::create(16, inst->queries, m);
            QVERIFY(db.ok());
            QCOMPARE(db->rangeSize(), smallDbRangeSize(16, m));
            auto e = db->bestMaxError(counts);
            QVERIFY(e.ok());
            QVERIFY2(std::fabs(*e - best) < 5e-5, qPrintable(QString::number(*e, 'g', 8)));
        }
        // One exact draw at m = 8 (490,314 candidates) is fast and its error is near the best at ε = 1
        // (E[max error] 0.0897 there).
        auto db = SmallDb::create(16, inst->queries, 8);
        mechanisms::SeededRandomBits bits(7, 0);
        // CPU time, not wall time: the machine may be shared. Each draw enumerates 490,314 candidates.
        const std::clock_t started = std::clock();
        double sum = 0.0;
        for (int rep = 0; rep < 5; ++rep) {
            auto y = db->sample(counts, 1.0, bits);
            QVERIFY(y.ok());
            QCOMPARE(std::accumulate(y->begin(), y->end(), 0u), 8u);
            const auto a = db->answers(*y);
            double worst = 0.0;
            for (std::size_t q = 0; q < a.size(); ++q) {
                std::uint64_t c = 0;
                for (std::size_t j = 0; j < 16; ++j)
                    c += inst->queries[q][j] * counts[j];
                worst = std::max(worst, std::fabs(a[q] - double(c) / 28155.0));
            }
            QVERIFY(worst >= 0.0896 - 5e-5);
            sum += worst;
        }
        QVERIFY(sum / 5.0 < 0.095);
        const double perDraw = double(std::clock() - started) / CLOCKS_PER_SEC / 5.0;
        QVERIFY2(perDraw < 1.0, qPrintable(QString::number(perDraw))); // well under a second (≈ 0.05 s)
    }

    void exactDistribution()
    {
        // N = 2, m = 2, q = (1, 0), x = 3 rows in cell 0 and 1 in cell 1 (t = 4): the candidates
        // (2,0), (1,1), (0,2) have max error 0.25, 0.25, 0.75; at ε = 2 the weights are
        // exp(−ε t err/2) = e^−1, e^−1, e^−3: probabilities 1/(2 + e^−2) twice and e^−2/(2 + e^−2).
        auto db = SmallDb::create(2, {{1, 0}}, 2);
        QVERIFY(db.ok());
        const std::vector<std::uint64_t> counts{3, 1};
        PBX_FUZZY_COMPARE(*db->bestMaxError(counts), 0.25, 1e-15);
        mechanisms::SeededRandomBits bits(11, 0);
        std::array<int, 3> seen{};
        const int draws = 40000;
        for (int i = 0; i < draws; ++i) {
            auto y = db->sample(counts, 2.0, bits);
            QVERIFY(y.ok());
            ++seen[(*y)[1]]; // index by the count in cell 1
        }
        const double pLow = std::exp(-2.0) / (2.0 + std::exp(-2.0));
        QVERIFY(std::fabs(seen[2] / double(draws) - pLow) < 0.006);
        QVERIFY(std::fabs(seen[0] / double(draws) - (1.0 - pLow) / 2.0) < 0.01);
        QVERIFY(std::fabs(seen[1] / double(draws) - (1.0 - pLow) / 2.0) < 0.01);
    }

    void refusals()
    {
        const std::vector<std::vector<std::uint8_t>> q{std::vector<std::uint8_t>(16, 1)};
        auto big = SmallDb::create(16, q, 11); // C(26, 11) = 7,726,160 > 5·10⁶
        QVERIFY(!big.ok());
        QCOMPARE(growingErrorCode(big.error()), kSmallDbTooLarge);
        QCOMPARE(big.error().code, ErrorCode::ResourceLimit);
        QVERIFY(big.error().message.find("black_box.m") != std::string::npos);
        QCOMPARE(growingErrorCode(SmallDb::create(16, q, 0).error()), kInvalidBlackBox);
        QCOMPARE(growingErrorCode(SmallDb::create(1, q, 2).error()), kInvalidBlackBox);
        QCOMPARE(growingErrorCode(SmallDb::create(16, {{1, 0}}, 2).error()), kInvalidBlackBox);
        QCOMPARE(growingErrorCode(SmallDb::create(2, {{2, 0}}, 2).error()), kInvalidBlackBox);
        auto db = SmallDb::create(2, {{1, 0}}, 2);
        mechanisms::SeededRandomBits bits(1, 0);
        QCOMPARE(growingErrorCode(db->sample(std::vector<std::uint64_t>{0, 0}, 1.0, bits).error()),
                 kInvalidBlackBox);
        QCOMPARE(growingErrorCode(db->sample(std::vector<std::uint64_t>{1, 1}, 1e-9, bits).error()),
                 kInvalidBudget);
    }
};

QTEST_GUILESS_MAIN(TestSmallDb)
#include "tst_smalldb.moc"
