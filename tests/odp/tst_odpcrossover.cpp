// SPDX-License-Identifier: MIT
// The simple-vs-advanced crossover table (Hartmann et al. 2023, Table 1, on our grid; T14) and
// its companion columns.
#include "core/odp/crossover.h"
#include "tests/testutils.h"

using namespace pbx;
using namespace pbx::odp;

class TestOdpCrossover : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void spotValues();
    void table();
    void companions();
    void hostileInputs();
};

void TestOdpCrossover::spotValues()
{
    PBX_FUZZY_COMPARE(firstRungDelta(0.5, 10), 5.519627034508e-03, 1e-11);
    PBX_FUZZY_COMPARE(firstRungDelta(0.1, 16), 6.033891721323e-06, 1e-11);
    PBX_FUZZY_COMPARE(firstRungDelta(0.1, 15), 1.149358272715e-05, 1e-11);
    PBX_FUZZY_COMPARE(firstRungDelta(1.0, 2), 4.621171572600e-01, 1e-11);
}

void TestOdpCrossover::table()
{
    const double eps0[] = {0.01, 0.05, 0.1, 0.25, 0.5, 1, 2};
    const double delta[] = {1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9};
    const int expected[7][7]
        = {{5, 8, 12, 15, 18, 22, 25},      {7, 11, 14, 18, 21, 25, 28},  {9, 12, 16, 19, 23, 26, 30},
           {11, 15, 19, 23, 27, 31, 35},    {14, 19, 24, 29, 34, 38, 43}, {22, 29, 37, 44, 51, 59, 66},
           {55, 73, 91, 109, 127, 145, 164}};
    for (int i = 0; i < 7; ++i)
        for (int j = 0; j < 7; ++j) {
            auto k = crossoverK(eps0[i], delta[j]);
            QVERIFY(k.ok());
            QCOMPARE(*k, std::int64_t{expected[i][j]});
            // δ₁ is decreasing: k_min is the first k with δ₁(k) ≤ δ.
            QVERIFY(firstRungDelta(eps0[i], *k) <= delta[j]);
            QVERIFY(*k == 2 || firstRungDelta(eps0[i], *k - 1) > delta[j]);
        }
    QVERIFY(crossoverK(40.0, 1e-6).ok()); // large ε₀: log1p keeps it finite
}

void TestOdpCrossover::companions()
{
    struct Row
    {
        double eps0, delta;
        int a, b, c; // b = -1: never
    };
    const Row rows[] = {{0.01, 1e-5, 17, 24, 11}, {0.01, 1e-6, 22, 29, 14}, {0.01, 1e-9, 37, 43, 29},
                        {0.1, 1e-3, 14, 18, 7},   {0.1, 1e-6, 30, 35, 19},  {0.5, 1e-3, 25, 112, 14},
                        {0.5, 1e-9, 73, 336, 57}, {1, 1e-3, 48, -1, 29},    {1, 1e-9, 144, -1, 109}};
    for (const Row &r : rows) {
        auto c = crossoverCompanions(r.eps0, r.delta);
        QVERIFY(c.ok());
        QCOMPARE(c->kovAnalytic.value_or(-1), std::int64_t{r.a});
        QCOMPARE(c->drv.value_or(-1), std::int64_t{r.b});
        QCOMPARE(c->tenPercent.value_or(-1), std::int64_t{r.c});
    }
}

void TestOdpCrossover::hostileInputs()
{
    QCOMPARE(crossoverK(0.0, 1e-6).error().code, ErrorCode::InvalidArgument);
    QCOMPARE(crossoverK(std::nan(""), 1e-6).error().code, ErrorCode::InvalidArgument);
    QCOMPARE(crossoverK(0.1, 0.0).error().code, ErrorCode::InvalidArgument);
    QCOMPARE(crossoverK(0.1, 1.0).error().code, ErrorCode::InvalidArgument);
    QVERIFY(QString::fromStdString(crossoverK(0.1, 2.0).error().message).startsWith(QStringLiteral("delta")));
}

QTEST_APPLESS_MAIN(TestOdpCrossover)
#include "tst_odpcrossover.moc"
