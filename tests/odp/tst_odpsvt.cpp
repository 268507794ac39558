// SPDX-License-Identifier: MIT
// Sparse vector with ODP cost (Hartmann et al. 2023, Lemma 8; Lyu, Su & Li 2017): the costs and
// splits of T4, the release-noise figure of T5, the exact discrete mechanism, hostile inputs.
#include "core/mechanisms/random_bits.h"
#include "core/odp/sparse_vector.h"
#include "tests/testutils.h"

using namespace pbx;
using namespace pbx::odp;

class TestOdpSvt : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void splits();
    void cellCosts();
    void refreshedThresholdCosts();
    void releaseScales();
    void figureWellSeparated();
    void figureNoisy();
    void discreteMechanism();
    void largeEntries();
    void hostileInputs();
};

void TestOdpSvt::splits()
{
    PBX_FUZZY_COMPARE(lyuSplit(1.0, 1)->epsilon1, 0.3864882095643094, 1e-14);
    auto four = lyuSplit(0.5, 4);
    PBX_FUZZY_COMPARE(four->epsilon1, 0.1, 1e-14);
    PBX_FUZZY_COMPARE(four->epsilon2, 0.4, 1e-14);
    PBX_FUZZY_COMPARE(lyuSplit(1.0, 10)->epsilon1, 0.11950196841550463, 1e-14);
    auto ten = lyuSplit(0.5, 10);
    PBX_FUZZY_COMPARE(ten->epsilon1, 0.059751, 1e-5);
    PBX_FUZZY_COMPARE(ten->epsilon2, 0.440249, 1e-6);
}

void TestOdpSvt::cellCosts()
{
    // The exactly checked case of docs/output-dp.md (sparse vector): E = 0.3, 0.65, 1.0 for ε₁ = 0.3, ε₂ =
    // 0.7, c = 2.
    const SvtParameters small{0.3, 0.7, 2, 1.0};
    PBX_FUZZY_COMPARE(svtCellCost(small, 0), 0.3, 1e-15);
    PBX_FUZZY_COMPARE(svtCellCost(small, 1), 0.65, 1e-15);
    PBX_FUZZY_COMPARE(svtCellCost(small, 2), 1.0, 1e-15);
    // The transcript example: ε₁ = 0.1, ε₂ = 0.4, c = 4, j = 1 costs exactly 0.2.
    QCOMPARE(svtCellCost(SvtParameters{0.1, 0.4, 4, 1.0}, 1), 0.2);
    // T4: ε_SVT = 0.5, c = 10.
    auto split = lyuSplit(0.5, 10);
    const SvtParameters p{split->epsilon1, split->epsilon2, 10, 1.0};
    const double expected[] = {0.059751, 0.103776, 0.147801, 0.191826, 0.235851, 0.279875,
                               0.323900, 0.367925, 0.411950, 0.455975, 0.500000};
    auto g = svtGuarantee(p);
    QVERIFY(g.ok());
    QCOMPARE(g->cells.size(), std::size_t{11});
    for (int j = 0; j <= 10; ++j) {
        QVERIFY(std::abs(svtCellCost(p, j) - expected[j]) < 1e-6);
        QVERIFY(svtCellCost(p, j) >= p.epsilon1 + j * p.epsilon2 / 10); // never below the exact cost
    }
    PBX_FUZZY_COMPARE(g->worstEpsilon(), 0.5, 1e-15);
    QCOMPARE(g->delta, 0.0);
}

void TestOdpSvt::refreshedThresholdCosts()
{
    // Verified bounds: j = 0 → 0.15, j = 1 → 0.65 (trailing ⊥ paid), j = 2 = c → 1.0.
    const SvtParameters p{0.3, 0.7, 2, 1.0, SvtVariant::RefreshedThreshold};
    PBX_FUZZY_COMPARE(svtCellCost(p, 0), 0.15, 1e-15);
    PBX_FUZZY_COMPARE(svtCellCost(p, 1), 0.65, 1e-15);
    PBX_FUZZY_COMPARE(svtCellCost(p, 2), 1.0, 1e-15);
}

void TestOdpSvt::releaseScales()
{
    auto split = lyuSplit(0.5, 10);
    const SvtParameters p{split->epsilon1, split->epsilon2, 10, 1.0};
    const double expected[]
        = {1.115792, 2.346869, 3.712070, 5.234578, 6.943244, 8.874432, 11.074640, 13.604290, 16.543360, 20.0};
    for (int j = 1; j <= 10; ++j) {
        QVERIFY2(std::abs(releaseScale(ReleaseAnalysis::Odp, p, 0.5, j) - expected[j - 1]) < 1e-6,
                 qPrintable(QString::number(j)));
        QVERIFY(releaseScale(ReleaseAnalysis::Odp, p, 0.5, j)
                <= releaseScale(ReleaseAnalysis::Dp, p, 0.5, j) * (1 + 1e-15));
    }
    PBX_FUZZY_COMPARE(releaseScale(ReleaseAnalysis::Dp, p, 0.5, 3), 20.0, 1e-15);
    PBX_FUZZY_COMPARE(releaseScale(ReleaseAnalysis::Filter, p, 0.5, 3), 6.0, 1e-15);
}

namespace {
struct FigureRowExpected
{
    int large;
    double pNothing, expectedJ, filter, odp;
};

void checkRow(const SvtFigureRow &row, const FigureRowExpected &e)
{
    QVERIFY2(std::abs(row.pNothing - e.pNothing) < 6e-6, qPrintable(QString::number(row.pNothing, 'g', 10)));
    QVERIFY2(std::abs(row.expectedJ - e.expectedJ) < 6e-5 + 1e-4 * e.expectedJ,
             qPrintable(QString::number(row.expectedJ, 'g', 10)));
    QVERIFY2(std::abs(row.filterStd - e.filter) < 6e-5 + 1e-4 * e.filter,
             qPrintable(QString::number(row.filterStd, 'g', 10)));
    QVERIFY2(std::abs(row.odpStd - e.odp) < 6e-5 + 1e-4 * e.odp,
             qPrintable(QString::number(row.odpStd, 'g', 10)));
    PBX_FUZZY_COMPARE(row.dpStd, 28.2843, 2e-6);
}
} // namespace

void TestOdpSvt::figureWellSeparated()
{
    // T5, Table 3.6a: N = 100, big = 1000, T = 500, ε = 1, ε_SVT = ε_rel = 0.5, c = 10.
    auto split = lyuSplit(0.5, 10);
    const SvtParameters p{split->epsilon1, split->epsilon2, 10, 1.0};
    const FigureRowExpected rows[] = {
        {0, 0.99904, 0.0010, 2.8306, 1.5793}, {1, 0.00001, 1.0009, 2.8311, 1.5796},
        {2, 0.0, 2.0009, 5.6595, 3.3208},     {3, 0.0, 3.0009, 8.4878, 5.2516},
        {5, 0.0, 5.0009, 14.1446, 9.8216},    {8, 0.0, 8.0008, 22.6297, 19.2428},
        {10, 0.0, 9.9999, 28.2840, 28.2838},  {12, 0.0, 10.0, 28.2843, 28.2843},
        {20, 0.0, 10.0, 28.2843, 28.2843},
    };
    for (const auto &e : rows) {
        auto row = svtFigureRow(100, e.large, 1000.0, 500.0, p, 0.5);
        QVERIFY(row.ok());
        checkRow(*row, e);
    }
    auto three = svtFigureRow(100, 3, 1000.0, 500.0, p, 0.5);
    PBX_FUZZY_COMPARE(three->odpStdIfExact, 5.2497, 2e-5);
    PBX_FUZZY_COMPARE(three->pmf[3], 9.990405e-01, 1e-6);
    PBX_FUZZY_COMPARE(three->pmf[2], 2.878582e-05, 1e-4);
}

void TestOdpSvt::figureNoisy()
{
    // T5, Table 3.6b: big = 100, T = 50.
    auto split = lyuSplit(0.5, 10);
    const SvtParameters p{split->epsilon1, split->epsilon2, 10, 1.0};
    const FigureRowExpected rows[] = {
        {0, 0.00098, 9.4933, 26.8774, 26.3804},
        {3, 0.00051, 9.7051, 27.4640, 27.1616},
        {10, 0.00018, 9.9019, 28.0119, 27.9126},
        {20, 0.00007, 9.9650, 28.1871, 28.1527},
    };
    for (const auto &e : rows) {
        auto row = svtFigureRow(100, e.large, 100.0, 50.0, p, 0.5);
        QVERIFY(row.ok());
        checkRow(*row, e);
    }
    auto three = svtFigureRow(100, 3, 100.0, 50.0, p, 0.5);
    const double pmf[] = {0.000507, 0.001380, 0.002585, 0.004129, 0.006056, 0.008425};
    for (int j = 0; j < 6; ++j)
        QVERIFY2(std::abs(three->pmf[j] - pmf[j]) < 6e-7, qPrintable(QString::number(three->pmf[j], 'g', 8)));
}

void TestOdpSvt::discreteMechanism()
{
    // Large ε: the noise is tiny next to the gap, so the answers are determined.
    const SvtParameters p{40.0, 40.0, 2, 1.0};
    mechanisms::SeededRandomBits bits(7, 0);
    auto svt = SparseVector::start(p, bits);
    QVERIFY(svt.ok());
    QCOMPARE(*svt->query(0, 500, bits), false);
    QCOMPARE(*svt->query(1000, 500, bits), true);
    QCOMPARE(*svt->query(3, 500, bits), false);
    QCOMPARE(*svt->query(999, 500, bits), true);
    QVERIFY(svt->closed());
    QCOMPARE(svt->positives(), 2);
    auto after = svt->query(1000, 500, bits);
    PBX_VERIFY_ERROR(after, InvalidArgument, "the sparse vector halted");
    QCOMPARE(QString::fromStdString(after.error().message),
             QStringLiteral("the sparse vector halted after c = 2 positives"));
    // Frequencies: AboveThreshold (c = 1) with q = T has P[⊤] = P[ν ≥ ρ] — symmetric noise, so
    // a little above ½ (ties count as ⊤). 20000 runs: within 4 standard errors of the exact value.
    const SvtParameters at{0.5, 0.5, 1, 1.0};
    mechanisms::DiscreteLaplaceSampler rho
        = *mechanisms::DiscreteLaplaceSampler::create(*mechanisms::rationalAtLeast(2.0));
    mechanisms::DiscreteLaplaceSampler nu
        = *mechanisms::DiscreteLaplaceSampler::create(*mechanisms::rationalAtLeast(4.0));
    double exact = 0.0;
    for (int r = -200; r <= 200; ++r)
        for (int v = r; v <= r + 400; ++v)
            exact += rho.probability(r) * nu.probability(v);
    int positives = 0;
    const int runs = 20000;
    for (int i = 0; i < runs; ++i) {
        mechanisms::SeededRandomBits b(11, static_cast<std::uint64_t>(i));
        auto s = SparseVector::start(at, b);
        positives += *s->query(10, 10, b) ? 1 : 0;
    }
    const double se = std::sqrt(exact * (1 - exact) / runs);
    QVERIFY2(std::abs(positives / double(runs) - exact) < 4 * se,
             qPrintable(QStringLiteral("%1 vs %2").arg(positives / double(runs)).arg(exact)));
}

void TestOdpSvt::largeEntries()
{
    std::vector<std::int64_t> f(20, 0);
    f[3] = 1000;
    f[7] = -1000; // |f_i| is the query
    f[15] = 1000;
    auto split = lyuSplit(5.0, 5);
    const SvtParameters p{split->epsilon1, split->epsilon2, 5, 1.0};
    mechanisms::SeededRandomBits bits(3, 0);
    auto run = releaseLargeEntries(f, 500, p, 10.0, bits);
    QVERIFY(run.ok());
    QCOMPARE(run->j, 3);
    QCOMPARE(run->flagged, (std::vector<std::size_t>{3, 7, 15}));
    QCOMPARE(run->answers.size(), f.size());
    PBX_FUZZY_COMPARE(run->svtCost, p.epsilon1 + 3 * p.epsilon2 / 5, 1e-14);
    PBX_FUZZY_COMPARE(run->releaseScale, 3.0 / (10.0 - run->svtCost), 1e-12);
    QCOMPARE(run->released.size(), std::size_t{3});
    QVERIFY(run->svtCost + run->releaseEpsilon <= 10.0 + 1e-12);
    // No large entry: nothing released, nothing spent on releases.
    auto none = releaseLargeEntries(std::vector<std::int64_t>(20, 0), 500, p, 10.0, bits);
    QCOMPARE(none->j, 0);
    QVERIFY(none->released.empty());
    PBX_FUZZY_COMPARE(none->svtCost, p.epsilon1, 1e-15);
}

void TestOdpSvt::hostileInputs()
{
    mechanisms::SeededRandomBits bits(1, 0);
    const SvtParameters bad[] = {
        {0.1, 0.4, 0, 1.0},          {0.0, 0.4, 4, 1.0}, {-0.1, 0.4, 4, 1.0},
        {0.1, std::nan(""), 4, 1.0}, {0.1, 0.4, 4, 0.0}, {0.1, INFINITY, 4, 1.0},
    };
    const char *fields[] = {"c (the cut-off)", "epsilon1", "epsilon1", "epsilon2", "sensitivity", "epsilon2"};
    for (int i = 0; i < 6; ++i) {
        auto g = svtGuarantee(bad[i]);
        QVERIFY(!g.ok());
        QCOMPARE(g.error().code, ErrorCode::InvalidArgument);
        QVERIFY2(QString::fromStdString(g.error().message).startsWith(QString::fromUtf8(fields[i])),
                 g.error().message.c_str());
        PBX_VERIFY_ERROR(SparseVector::start(bad[i], bits), InvalidArgument, fields[i]);
    }
    PBX_VERIFY_ERROR(SparseVector::start(SvtParameters{0.1, 0.4, 4, 1.5}, bits), InvalidArgument,
                     "sensitivity"); // non-integer Δ
    PBX_VERIFY_ERROR(lyuSplit(0.5, 0), InvalidArgument, "c (the cut-off)");
    PBX_VERIFY_ERROR(svtFigureRow(100, 3, 1000.0, std::nan(""), SvtParameters{0.1, 0.4, 4, 1.0}, 0.5),
                     InvalidArgument, "the large value and the threshold");
    PBX_VERIFY_ERROR(releaseLargeEntries({1, 2}, 1, SvtParameters{0.1, 0.4, 4, 1.0}, 0.5, bits),
                     InvalidArgument, "epsilon"); // ε ≤ ε_SVT
}

QTEST_APPLESS_MAIN(TestOdpSvt)
#include "tst_odpsvt.moc"
