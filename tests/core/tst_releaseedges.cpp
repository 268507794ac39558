// SPDX-License-Identifier: MIT
// Edges of the release paths : the relative-error acceptance test uses directed
// rounding, Gaussian widths use −Φ⁻¹(β/2), and a random source that fails after a level was
// charged leaves a ledger that agrees with the filter (and restores).
#include "core/math/normal.h"
#include "core/mechanisms/additive_noise.h"
#include "core/mechanisms/stopping_rules.h"
#include "core/session/ledger/cost_audit.h"
#include "core/session/release/release_plan.h"
#include "core/session/session.h"
#include "tests/synthetic_table.h"
#include "tests/testutils.h"

#include "tests/failing_bits.h"

#include <random>

using namespace pbx;
using session::AccuracyTarget;
using session::TargetKind;

using pbx::test::FailingBits;

namespace {} // namespace

class TestReleaseEdges : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void certifiesUsesDirectedRounding();
    void gaussianWidthForTinyBeta();
    void laplaceDoublingInZcdpShowsWhatWasCharged();
    void drawFailureAfterChargeIsRecorded_data();
    void drawFailureAfterChargeIsRecorded();
};

// Random borderline answers: w = α·(|y| − w) up to rounding. Round-to-nearest accepts some that
// the exact inequality may refuse; certifies() must agree with the directed-rounding rule on
// every one, and the search must find such disagreements (otherwise the test proves nothing).
void TestReleaseEdges::certifiesUsesDirectedRounding()
{
    std::mt19937_64 rng(11);
    std::uniform_real_distribution<double> pick(10.0, 1e6);
    int nearestOnly = 0;
    for (int i = 0; i < 200000; ++i) {
        const double alpha = 0.1;
        const double y = pick(rng);
        const double w = alpha * y / (1.0 + alpha);
        session::Attempt a;
        a.estimate = y;
        a.halfWidth = w;
        const bool nearest = std::fabs(y) - w > 0.0 && w <= alpha * (std::fabs(y) - w);
        const bool directed = mechanisms::acceptsRelativeError(y, w, alpha);
        QCOMPARE(session::QueryShape::certifies(a, AccuracyTarget{TargetKind::Relative, alpha, 0.95}),
                 directed);
        nearestOnly += nearest && !directed;
    }
    QVERIFY2(nearestOnly > 0, "no borderline case where round-to-nearest over-accepts");
}

// β/K for many levels gets tiny; 1 − β/2 then rounds (to 1 below 1.1e-16) while β/2 is exact.
void TestReleaseEdges::gaussianWidthForTinyBeta()
{
    auto m = mechanisms::AdditiveNoiseMechanism::withScale(mechanisms::NoiseKind::Gaussian, 1.0, 1.0);
    QVERIFY(m.ok());
    const double beta = 1e-20;
    const double w = m->halfWidth(beta);
    QVERIFY(std::isfinite(w));
    QVERIFY(w >= -math::normalQuantile(beta / 2.0));
    PBX_FUZZY_COMPARE(w, 9.336044849234058, 1e-12); // −Φ⁻¹(5e-21)
    // A moderate β: the same value as before, to the last few ulps.
    PBX_FUZZY_COMPARE(m->halfWidth(0.05), 1.9599639845400538, 1e-14);
}

// Multi-level Laplace doubling in a zCDP filter: each level is charged ρ = ε_j²/2, so the event
// costs Σ ε_j²/2 (what the result card shows), well below (Σ ε_j)²/2 (what it used to show).
void TestReleaseEdges::laplaceDoublingInZcdpShowsWhatWasCharged()
{
    auto f = filters::PrivacyFilter::create(filters::FilterKind::Zcdp, 1.0, 1e-6).value();
    auto noise = mechanisms::NoiseSource::seeded(5, 0);
    data::QueryStatistics exact;
    exact.count = 300.0;
    const session::ReleaseContext context{
        session::QueryShape::of(data::Aggregate::Count, {}, exact, data::Neighbouring::AddRemove, 20000.0),
        *f, noise, session::ReleaseMethod::DoublingLaplace, 1};
    const auto out
        = session::releaseByDoubling(context, AccuracyTarget{TargetKind::Relative, 0.1, 0.95}, std::nullopt);
    QVERIFY(out.attempts.size() > 1);
    QCOMPARE(out.costKind, filters::ChargeKind::PureEpsilon);
    session::LedgerEvent e;
    e.cost = out.cost;
    e.attempts = out.attempts;
    const double charged = session::rhoChargedForPureEvent(e);
    PBX_FUZZY_COMPARE(charged, f->spent(), 1e-14);
    QVERIFY(charged >= f->spent());
    QVERIFY(charged < 0.8 * out.cost * out.cost / 2.0);
}

void TestReleaseEdges::drawFailureAfterChargeIsRecorded_data()
{
    QTest::addColumn<session::ReleaseMethod>("mechanism");
    QTest::addColumn<filters::FilterKind>("filter");
    QTest::addColumn<int>("words");
    QTest::newRow("gaussian doubling, first level")
        << session::ReleaseMethod::DoublingGaussian << filters::FilterKind::Zcdp << 0;
    QTest::newRow("gaussian doubling, later level")
        << session::ReleaseMethod::DoublingGaussian << filters::FilterKind::Zcdp << 3;
    QTest::newRow("laplace doubling")
        << session::ReleaseMethod::DoublingLaplace << filters::FilterKind::Basic << 2;
    QTest::newRow("laplace-nr, first level")
        << session::ReleaseMethod::LaplaceNr << filters::FilterKind::ExPost << 0;
    QTest::newRow("laplace-nr, later level")
        << session::ReleaseMethod::LaplaceNr << filters::FilterKind::ExPost << 3;
    QTest::newRow("brownian, zCDP") << session::ReleaseMethod::Brownian << filters::FilterKind::BrownianZcdp
                                    << 2;
}

void TestReleaseEdges::drawFailureAfterChargeIsRecorded()
{
    QFETCH(session::ReleaseMethod, mechanism);
    QFETCH(filters::FilterKind, filter);
    QFETCH(int, words);
    session::SessionSettings settings;
    settings.epsilon = 1.0;
    settings.delta = 1e-6;
    settings.filter = filter;
    auto created = filters::PrivacyFilter::create(filter, settings.epsilon, settings.delta, settings.split);
    QVERIFY(created.ok());
    filters::PrivacyFilter &f = **created;
    auto noise
        = mechanisms::NoiseSource::withBits(std::make_unique<FailingBits>(static_cast<std::uint64_t>(words)));
    data::QueryStatistics exact;
    exact.count = 40.0; // small: the first levels cannot certify ±5 %, so the plan continues
    const session::ReleaseContext context{
        session::QueryShape::of(data::Aggregate::Count, {}, exact, data::Neighbouring::AddRemove, 20000.0), f,
        noise, mechanism, 1};
    const AccuracyTarget target{TargetKind::Relative, 0.05, 0.95};
    const auto out = session::isNoiseReduction(mechanism)
                         ? session::releaseByNoiseReduction(context, target, std::nullopt)
                         : session::releaseByDoubling(context, target, std::nullopt);
    QVERIFY(!out.attempts.empty());
    QVERIFY2(out.reason.find("the charge stands") != std::string::npos, out.reason.c_str());
    QVERIFY(std::isnan(out.attempts.back().releases.front().value));
    QVERIFY(out.attempts.back().cost > 0.0);
    // The ledger's cost is what the filter spent, attempt by attempt.
    QCOMPARE(out.cost, f.spent());
    double total = 0.0;
    for (const auto &a : out.attempts)
        total = math::addRoundUp(total, a.cost);
    QCOMPARE(total, out.cost);

    // Restore (and the audit) accept the event and re-charge the same spend.
    session::QueryRequest request;
    request.id = "q1";
    request.query.aggregate = data::Aggregate::Count;
    request.target = target;
    request.mechanism = mechanism;
    const session::LedgerEvent e = session::ledgerEventFor(std::move(request), out);
    auto restored = session::auditLedger(pbx::test::syntheticTable(), settings, {e});
    QVERIFY2(restored.ok(), restored.ok() ? "" : restored.error().message.c_str());
    QCOMPARE((*restored)->filter().spent(), f.spent());
}

QTEST_APPLESS_MAIN(TestReleaseEdges)
#include "tst_releaseedges.moc"
