// SPDX-License-Identifier: MIT
// Odometer sessions (--filter odometer): no ε budget, every predictable charge answered, and after
// each release the λ-grid zCDP odometer's running ε (min with the basic Σε while every step is
// pure), valid at every request at once. The readings after 10, 100 and 300 Laplace counts
// (ε_i = 0.01, δ = 1e-6) are the filters-odometers check script's (fo_odometers.out, an independent
// Python evaluation, 1e-4 absolute) and this file's own long-double evaluation of the formula
// (1e-12 relative); the pre-planned ledger is Bun & Steinke 2016, Prop. 1.3.
#include "core/filters/guarantee_text.h"
#include "core/filters/odometer_filter.h"
#include "core/io/transcript_json.h"
#include "core/session/ledger/odometer_path.h"
#include "core/session/session.h"
#include "core/util/number_format.h"
#include "tests/synthetic_table.h"
#include "tests/testutils.h"

#include <cmath>
#include <limits>

using namespace pbx;
using filters::Charge;
using filters::ChargeKind;
using filters::OdometerFilter;

namespace {
/// u_n = min_j (1 + λ_j)R + ln(25/δ)/λ_j, λ_j = 2^{j/2}, j = 0 … 24, in long double.
double lambdaGrid(long double rho, long double delta)
{
    long double best = std::numeric_limits<long double>::infinity();
    for (int j = 0; j < 25; ++j) {
        const long double lambda = std::exp2(0.5L * j);
        best = std::min(best, (1 + lambda) * rho + std::log(25.0L / delta) / lambda);
    }
    return static_cast<double>(best);
}

std::unique_ptr<session::Session> odometerSession(double epsilonIgnored = 1.0)
{
    session::SessionSettings s;
    s.epsilon = epsilonIgnored;
    s.delta = 1e-6;
    s.filter = filters::FilterKind::Odometer;
    s.seed = 11;
    return std::move(session::Session::create(test::syntheticTable(), s).value());
}

session::QueryRequest count(session::TargetKind kind, double error)
{
    session::QueryRequest r;
    r.query.aggregate = data::Aggregate::Count;
    r.query.where = "region == 'south'";
    r.target = session::AccuracyTarget{kind, error, 0.95};
    return r;
}
} // namespace

class TestOdometerSession : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void readingsAfterLaplaceCounts();
    void noBudgetAndNoExPost();
    void sessionAnswersEveryRelease();
    void stoppingRulesNeedAPerQueryMaximum();
    void transcriptRestoresTheReading();
};

void TestOdometerSession::readingsAfterLaplaceCounts()
{
    auto f = OdometerFilter::create(1e-6).value();
    QCOMPARE(f->epsilonSpent(), 0.0);
    QCOMPARE(f->preplannedEpsilon(), 0.0);
    const struct
    {
        int n;
        double reported;   ///< min(basic, λ-grid), fo_odometers.out
        double preplanned; ///< min(Σε, zCDP fixed n), fo_odometers.out
    } expected[] = {{10, 0.1, 0.1}, {100, 0.5912, 0.5307}, {300, 1.0273, 0.9255}};
    int n = 0;
    for (const auto &e : expected) {
        for (; n < e.n; ++n)
            QVERIFY(f->charge({ChargeKind::PureEpsilon, 0.01, 0.0}).ok());
        QVERIFY2(std::fabs(f->epsilonSpent() - e.reported) <= 1e-4,
                 qPrintable(QString::number(f->epsilonSpent())));
        QVERIFY2(std::fabs(f->preplannedEpsilon() - e.preplanned) <= 1e-4,
                 qPrintable(QString::number(f->preplannedEpsilon())));
        const double independent = std::min(0.01 * n, lambdaGrid(n * 5e-5L, 1e-6L));
        PBX_FUZZY_COMPARE(f->epsilonSpent(), independent, 1e-11);
        QVERIFY(f->epsilonSpent() >= independent); // rounded up
        PBX_FUZZY_COMPARE(f->spent(), n * 5e-5, 1e-12);
        QCOMPARE(f->deltaSpent(), 1e-6);
        QVERIFY(e.n == 10 || f->epsilonSpent() > f->preplannedEpsilon()); // the price of no budget
    }
    // The statement the CLI's run and verify print, ε rounded up.
    const std::string text = filters::guaranteeText(*f);
    QVERIFY2(text.rfind("the session so far is (" + formatDirected(f->epsilonSpent(), 6, Rounding::Up)
                            + ", 1e-06)-DP by the privacy odometer",
                        0)
                 == 0,
             text.c_str());
}

void TestOdometerSession::noBudgetAndNoExPost()
{
    auto f = OdometerFilter::create(1e-6).value();
    QVERIFY(std::isinf(f->epsilonBudget()));
    QVERIFY(std::isinf(f->budget()));
    QVERIFY(std::isinf(f->remaining()));
    QVERIFY(std::isinf(f->remainingFor(ChargeKind::Rho)));
    QVERIFY(std::isinf(f->remainingFor(ChargeKind::PureEpsilon)));
    QCOMPARE(f->remainingFor(ChargeKind::ExPost), 0.0);
    QVERIFY(f->charge({ChargeKind::Rho, 1e6, 0.0}).ok()); // nothing is ever refused for budget
    PBX_VERIFY_ERROR(f->charge({ChargeKind::ExPost, 0.1, 0.0}), Unsupported, "noise reduction");
    QCOMPARE(f->spent(), 1e6);
    PBX_VERIFY_ERROR(OdometerFilter::create(0.0), InvalidArgument, "δ");
    PBX_VERIFY_ERROR(OdometerFilter::create(1.0), InvalidArgument, "δ");
    // A Gaussian step voids the basic bound: the reading is the λ-grid's.
    auto g = OdometerFilter::create(1e-6).value();
    QVERIFY(g->charge({ChargeKind::Rho, 5e-5, 0.0}).ok());
    PBX_FUZZY_COMPARE(g->epsilonSpent(), lambdaGrid(5e-5L, 1e-6L), 1e-11);
    PBX_FUZZY_COMPARE(g->epsilonOf(5e-5), lambdaGrid(5e-5L, 1e-6L), 1e-11);
}

void TestOdometerSession::sessionAnswersEveryRelease()
{
    auto s = odometerSession();
    QVERIFY(std::isinf(s->settings().epsilon)); // no ε budget, whatever was passed
    double previous = 0.0;
    for (int i = 0; i < 40; ++i) {
        auto r = count(session::TargetKind::Absolute, 20.0);
        r.mechanism = i % 2 ? session::ReleaseMethod::Laplace : session::ReleaseMethod::Gaussian;
        auto e = s->ask(r);
        QVERIFY(e.ok());
        QCOMPARE(e->status, session::EventStatus::Released);
        QVERIFY(e->epsilonSpentAfter > previous);
        QCOMPARE(e->epsilonSpentAfter, s->filter().epsilonSpent());
        previous = e->epsilonSpentAfter;
    }
    // Far beyond what a (1, 1e-6) filter admits at ±20, still answered.
    QVERIFY(s->filter().epsilonSpent() > 1.0);
    // The pre-planned ledger after each event, by replaying the ledger.
    const auto path = session::preplannedEpsilonPath(s->events(), 1e-6);
    QCOMPARE(path.size(), s->events().size());
    QCOMPARE(path.back(), dynamic_cast<const OdometerFilter &>(s->filter()).preplannedEpsilon());
    for (std::size_t i = 0; i < path.size(); ++i)
        QVERIFY(path[i] < s->events()[i].epsilonSpentAfter);
    // Laplace noise reduction is refused before anything is spent, with the reason.
    auto nr = count(session::TargetKind::Relative, 0.05);
    nr.mechanism = session::ReleaseMethod::LaplaceNr;
    const std::size_t before = s->events().size();
    PBX_VERIFY_ERROR(s->ask(nr), InvalidArgument, "odometer");
    QCOMPARE(s->events().size(), before);
}

void TestOdometerSession::stoppingRulesNeedAPerQueryMaximum()
{
    auto s = odometerSession();
    // Doubling with no budget to divide and no max_cost: refused, nothing spent.
    auto e = s->ask(count(session::TargetKind::Relative, 0.05));
    QVERIFY(e.ok());
    QCOMPARE(e->status, session::EventStatus::Refused);
    QVERIFY2(e->reason.find("max_cost") != std::string::npos, e->reason.c_str());
    QCOMPARE(s->filter().spent(), 0.0);
    // With a per-query maximum (ρ) it runs and stays within it.
    auto capped = count(session::TargetKind::Relative, 0.05);
    capped.maxCost = 0.01;
    auto released = s->ask(capped);
    QVERIFY(released.ok());
    QCOMPARE(released->status, session::EventStatus::Released);
    QVERIFY(released->cost > 0.0 && released->cost <= 0.01);
}

void TestOdometerSession::transcriptRestoresTheReading()
{
    auto s = odometerSession();
    for (double error : {50.0, 20.0, 10.0})
        QVERIFY(s->ask(count(session::TargetKind::Absolute, error)).ok());
    const std::string text = io::writeTranscriptJson(*s);
    QVERIFY(text.find("\"epsilon\": null") != std::string::npos); // budget.epsilon: none
    auto doc = io::readTranscriptJson(text);
    QVERIFY2(doc.ok(), doc.ok() ? "" : doc.error().message.c_str());
    QCOMPARE(doc->settings.filter, filters::FilterKind::Odometer);
    QVERIFY(std::isinf(doc->settings.epsilon));
    auto restored = session::Session::restore(test::syntheticTable(), doc->settings, doc->events);
    QVERIFY(restored.ok());
    QCOMPARE((*restored)->filter().epsilonSpent(), s->filter().epsilonSpent());
    QCOMPARE((*restored)->filter().spent(), s->filter().spent());
}

QTEST_GUILESS_MAIN(TestOdometerSession)
#include "tst_odometersession.moc"
