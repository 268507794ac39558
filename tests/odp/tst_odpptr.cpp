// SPDX-License-Identifier: MIT
// Propose-test-release with ODP cost (Hartmann et al. 2023, Lemma 10): the threshold round trip
// (T6), γ of the IQR mechanism on unit vectors and CPS1988 (T7), the composite cell costs (T8),
// the mechanism itself, hostile inputs.
#include "core/mechanisms/random_bits.h"
#include "core/odp/ptr_iqr.h"
#include "resources/dataset_catalog.h"
#include "tests/test_rows.h"
#include "tests/testutils.h"

using namespace pbx;
using namespace pbx::odp;

class TestOdpPtr : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void thresholdRoundTrip();
    void passProbability();
    void unitVectors();
    void cps1988();
    void compositeCosts();
    void mechanism();
    void hostileInputs();
};

void TestOdpPtr::thresholdRoundTrip()
{
    // T6 (the IQR mechanism's g₀ = 2): t = 1 + ln(1/(2δ_f))/ε.
    auto t = ptrThreshold(0.1, 1e-6, 2);
    QVERIFY(t.ok());
    QCOMPARE(*t, 132.22363377404326);
    const double recomputed = ptrFailureProbability(0.1, *t, 2);
    QVERIFY(recomputed >= 1.0000000000000023e-06); // rounded up, never below the true δ_f
    PBX_FUZZY_COMPARE(recomputed, 1.0000000000000023e-06, 1e-14);
    // Dwork–Roth's generic PTR is g₀ = 1: t = ln(1/(2δ_f))/ε.
    PBX_FUZZY_COMPARE(*ptrThreshold(0.1, 1e-6, 1), 131.22363377404326, 1e-15);
}

void TestOdpPtr::passProbability()
{
    const double t = *ptrThreshold(0.1, 1e-6, 2);
    PBX_FUZZY_COMPARE(t, 132.223634, 1e-8);
    PBX_FUZZY_COMPARE(ptrPassProbability(223, 0.1, t), 0.999942904417, 1e-11);
    PBX_FUZZY_COMPARE(ptrPassProbability(171, 0.1, t), 0.989650155703, 1e-11);
    PBX_FUZZY_COMPARE(ptrPassProbability(3, 0.1, t), 1.2214e-06, 1e-4);
    PBX_FUZZY_COMPARE(ptrPassProbability(8, 0.1, t), 2.01375e-06, 1e-5);
    const double t1 = *ptrThreshold(1.0, 1e-6, 2);
    PBX_FUZZY_COMPARE(t1, 14.122363, 1e-7);
    PBX_FUZZY_COMPARE(ptrPassProbability(3, 1.0, t1), 7.38906e-06, 1e-5);
    PBX_FUZZY_COMPARE(ptrPassProbability(8, 1.0, t1), 0.00109663, 1e-5);
    PBX_FUZZY_COMPARE(*ptrThreshold(0.5, 1e-6, 2), 27.244727, 1e-7);
}

void TestOdpPtr::unitVectors()
{
    auto a = IqrData::create({1, 2, 2, 3, 5, 8, 13, 21}, 1, 30);
    QVERIFY(a.ok());
    QCOMPARE(a->rank1(), std::size_t{2});
    QCOMPARE(a->rank3(), std::size_t{6});
    QCOMPARE(a->iqr(), 6.0);
    const double maxA[] = {11, 19, 28, 29};
    const double minA[] = {3, 1, 0, 0};
    for (int k = 1; k <= 4; ++k) {
        QCOMPARE(a->iqrMax(k), maxA[k - 1]);
        QCOMPARE(a->iqrMin(k), minA[k - 1]);
    }
    auto b = IqrData::create({1, 2, 3, 3, 3, 3, 3, 4, 5, 6, 8, 8, 8, 8, 8, 9, 12, 20}, 1, 30);
    QCOMPARE(b->rank1(), std::size_t{5});
    QCOMPARE(b->rank3(), std::size_t{14});
    QCOMPARE(b->iqr(), 5.0);
    const double maxB[] = {5, 6, 9, 17};
    const double minB[] = {5, 5, 4, 3};
    for (int k = 1; k <= 4; ++k) {
        QCOMPARE(b->iqrMax(k), maxB[k - 1]);
        QCOMPARE(b->iqrMin(k), minB[k - 1]);
    }
    for (double w : {0.4, 1.0})
        for (double o : {0.0, 0.5}) {
            QCOMPARE(*iqrGamma(*a, w, o), 1LL);
            QCOMPARE(*iqrGamma(*b, w, o), 3LL);
        }
    // The bins of w = 0.4: [4.953032, 7.389056) at offset 0 (j = 4), [4.055200, 6.049647) at ½ (j = 3).
    QCOMPARE(*iqrBin(5.0, 0.4, 0.0), 4LL);
    QCOMPARE(*iqrBin(5.0, 0.4, 0.5), 3LL);
    QCOMPARE(*iqrBin(4.95, 0.4, 0.0), 3LL);
    QCOMPARE(*iqrBin(6.05, 0.4, 0.5), 4LL);
    QVERIFY(!iqrBin(0.0, 0.4, 0.0));
}

namespace {
std::vector<double> wages(const data::Table &table, bool subgroup)
{
    const pbx::test::PublicRows holder(table);
    const data::Rows &t = holder;
    const auto wage = *t.columnIndex("wage");
    const auto eth = *t.columnIndex("ethnicity");
    const auto region = *t.columnIndex("region");
    std::vector<double> out;
    for (std::size_t i = 0; i < t.rowCount(); ++i) {
        if (subgroup
            && (t.columnInfo(eth).categories[static_cast<std::size_t>(t.codes(eth)[i])] != "afam"
                || t.columnInfo(region).categories[static_cast<std::size_t>(t.codes(region)[i])] != "west"))
            continue;
        out.push_back(t.numeric(wage)[i]);
    }
    return out;
}
} // namespace

void TestOdpPtr::cps1988()
{
    auto table = resources::loadDataset("cps1988");
    QVERIFY(table.ok());
    auto full = IqrData::create(wages(*table, false), 0, 5000);
    QVERIFY(full.ok());
    QCOMPARE(full->size(), std::size_t{28155});
    QCOMPARE(full->rank1(), std::size_t{7039});
    QCOMPARE(full->rank3(), std::size_t{21117});
    PBX_FUZZY_COMPARE(full->iqr(), 474.84, 1e-12);
    const double w = defaultBinWidth(full->size());
    PBX_FUZZY_COMPARE(w, 0.093130, 1e-5);
    QCOMPARE(*iqrBin(full->iqr(), w, 0.0), 66LL);
    QCOMPARE(*iqrBin(full->iqr(), w, 0.5), 65LL);
    QCOMPARE(*iqrGamma(*full, w, 0.0), 223LL);
    QCOMPARE(*iqrGamma(*full, w, 0.5), 171LL);
    PBX_FUZZY_COMPARE(std::exp((66 + 0.5) * w), 489.3709, 1e-7);
    auto sub = IqrData::create(wages(*table, true), 0, 5000);
    QCOMPARE(sub->size(), std::size_t{195});
    PBX_FUZZY_COMPARE(sub->iqr(), 451.09, 1e-12);
    const double ws = defaultBinWidth(sub->size());
    PBX_FUZZY_COMPARE(ws, 0.173655, 1e-5);
    QCOMPARE(*iqrGamma(*sub, ws, 0.0), 3LL);
    QCOMPARE(*iqrGamma(*sub, ws, 0.5), 8LL);
}

void TestOdpPtr::compositeCosts()
{
    // T8: noisy mode in units of ε: DP 3/3/3, Lemma 10 3/3/2, three cells and two entries 2/3/2;
    // bin mode: DP 2/2/2, two entries 1/2/2. δ_S = 1 − (1 − δ_f)².
    const double e = 0.25; // exact in binary, so the sums are exact
    const double df = 0.05;
    auto costs = [&](PtrAccounting a, IqrReleaseMode m) { return ptrCaseCosts(a, m, e, df); };
    const auto dp = costs(PtrAccounting::Dp, IqrReleaseMode::Noisy);
    const auto l10 = costs(PtrAccounting::Lemma10, IqrReleaseMode::Noisy);
    const auto c3 = costs(PtrAccounting::Cells3, IqrReleaseMode::Noisy);
    const auto entries = costs(PtrAccounting::Entries, IqrReleaseMode::Noisy);
    const auto binDp = costs(PtrAccounting::Dp, IqrReleaseMode::Bin);
    const auto binEntries = costs(PtrAccounting::Entries, IqrReleaseMode::Bin);
    for (int c = 0; c < 3; ++c) {
        QCOMPARE(dp.epsilon[c], 3 * e);
        QCOMPARE(l10.epsilon[c], c == 2 ? 2 * e : 3 * e);
        QCOMPARE(c3.epsilon[c], c == 1 ? 3 * e : 2 * e);
        QCOMPARE(entries.epsilon[c], c == 1 ? 3 * e : 2 * e);
        QCOMPARE(binDp.epsilon[c], 2 * e);
        QCOMPARE(binEntries.epsilon[c], c == 0 ? e : 2 * e);
        PBX_FUZZY_COMPARE(dp.delta[c], 1 - (1 - df) * (1 - df), 1e-14);
        QVERIFY(dp.delta[c] >= 0.0975);
        QCOMPARE(c3.delta[c], 2 * df);
        QCOMPARE(entries.delta[c], c == 0 ? df : 2 * df);
    }
    QCOMPARE(entries.worstEpsilon, 3 * e);
    auto g = ptrGuarantee(IqrReleaseMode::Noisy, 0.2, 1e-6);
    QCOMPARE(g->cells[0].epsilon, 0.2);
    QCOMPARE(g->cells[1].epsilon, 0.4);
    QCOMPARE(g->delta, 1e-6);
}

void TestOdpPtr::mechanism()
{
    auto table = resources::loadDataset("cps1988");
    auto full = IqrData::create(wages(*table, false), 0, 5000);
    auto sub = IqrData::create(wages(*table, true), 0, 5000);
    // Full data, bin mode, ε = 1: passes at the first offset (P = 1 to 12 digits).
    int bottoms = 0;
    for (int i = 0; i < 50; ++i) {
        mechanisms::SeededRandomBits bits(5, static_cast<std::uint64_t>(i));
        auto run = runPtrIqr(*full, PtrIqrParameters{1.0, 1e-6, 0.0, IqrReleaseMode::Bin, true}, bits);
        QVERIFY(run.ok());
        QCOMPARE(run->outcome, 1);
        const double mid = run->offsets[0] == 0.0 ? 489.3709 : 467.1059;
        PBX_FUZZY_COMPARE(*run->released, mid, 1e-6);
        QVERIFY(run->failureProbability >= 1e-6);
        mechanisms::SeededRandomBits bits2(6, static_cast<std::uint64_t>(i));
        auto fail = runPtrIqr(*sub, PtrIqrParameters{0.1, 1e-6, 0.0, IqrReleaseMode::Noisy, true}, bits2);
        bottoms += fail->outcome == 3;
    }
    QCOMPARE(bottoms, 50); // the subgroup: both tests fail (P[pass] ≈ 1e-6 each)
}

void TestOdpPtr::hostileInputs()
{
    QCOMPARE(ptrThreshold(0.0, 1e-6, 2).error().code, ErrorCode::InvalidArgument);
    QCOMPARE(ptrThreshold(0.1, 0.5, 2).error().code, ErrorCode::InvalidArgument);
    QCOMPARE(ptrThreshold(0.1, 0.0, 2).error().code, ErrorCode::InvalidArgument);
    QCOMPARE(ptrThreshold(std::nan(""), 1e-6, 2).error().code, ErrorCode::InvalidArgument);
    QCOMPARE(IqrData::create({1, 2, 3}, 0, 5).error().code, ErrorCode::InvalidArgument);
    QCOMPARE(IqrData::create({1, 2, 3, 4}, 5, 5).error().code, ErrorCode::InvalidArgument);
    QCOMPARE(IqrData::create({1, 2, std::nan(""), 4}, 0, 5).error().code, ErrorCode::InvalidArgument);
    auto d = IqrData::create({1, 2, 3, 4}, 0, 5);
    QCOMPARE(iqrGamma(*d, 0.0, 0.0).error().code, ErrorCode::InvalidArgument);
    mechanisms::SeededRandomBits bits(1, 0);
    PBX_VERIFY_ERROR(runPtrIqr(*d, PtrIqrParameters{-1.0, 1e-6}, bits), InvalidArgument, "epsilon");
    PBX_VERIFY_ERROR(runPtrIqr(*d, PtrIqrParameters{1.0, 1e-6, -0.1}, bits), InvalidArgument,
                     "w (the bin width)");
    // Heavy ties: IQR = 0 has its own bin; a pass releases 0.
    auto ties = IqrData::create(std::vector<double>(40, 3.0), 0, 10);
    QCOMPARE(ties->iqr(), 0.0);
    QVERIFY(*iqrGamma(*ties, 0.4, 0.0) >= 1);
}

QTEST_APPLESS_MAIN(TestOdpPtr)
#include "tst_odpptr.moc"
