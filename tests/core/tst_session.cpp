// SPDX-License-Identifier: MIT
// Sessions end to end on a synthetic table: single releases, the doubling baseline for relative
// targets and means (accuracy measured by Monte Carlo against the known truth), refusals, the
// append-only ledger, restore, and reproducibility.
#include "core/session/ledger/cost_audit.h"
#include "core/session/session.h"
#include "tests/synthetic_table.h"
#include "tests/testutils.h"

#include <random>

using namespace pbx;
using session::AccuracyTarget;
using session::EventStatus;
using session::QueryRequest;
using session::Session;
using session::SessionSettings;
using session::TargetKind;

namespace {

QueryRequest request(data::Aggregate aggregate, std::string column, std::string where, TargetKind kind,
                     double error, double confidence = 0.95)
{
    QueryRequest r;
    r.query.aggregate = aggregate;
    r.query.column = std::move(column);
    r.query.where = std::move(where);
    r.target = AccuracyTarget{kind, error, confidence};
    return r;
}

std::unique_ptr<Session> newSession(filters::FilterKind filter, double epsilon, std::uint64_t seed,
                                    data::Neighbouring neighbours = data::Neighbouring::AddRemove)
{
    SessionSettings s;
    s.epsilon = epsilon;
    s.delta = 1e-6;
    s.filter = filter;
    s.neighbours = neighbours;
    s.seed = seed;
    // Room on the unified filter's ex-post side for Laplace noise reduction of a mean (its default
    // share is 5 % since Brownian runs are routed to the zCDP side).
    s.split.expostEpsilonShare = 0.25;
    return std::move(Session::create(pbx::test::syntheticTable(), s).value());
}

// Exact answers on the synthetic table (5,000 rows are south).
constexpr double kSouthCount = 5000.0;
double southIncomeMean()
{
    double sum = 0;
    for (int i = 0; i < 20000; i += 4)
        sum += 1000.0 + 10.0 * (i % 300);
    return sum / 5000.0;
}

} // namespace

class TestSession : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void absoluteCountSingleRelease_data();
    void absoluteCountSingleRelease();
    void relativeTargetsAreMet_data();
    void relativeTargetsAreMet();
    void meanErrorBarCovers_data();
    void meanErrorBarCovers();
    void smallCountIsAbandonedCheaply();
    void refusesWhenBudgetIsExhausted();
    void refusalsSayWhatTheBudgetBuys_data();
    void refusalsSayWhatTheBudgetBuys();
    void invalidRequestsSpendNothing();
    void restoreRechargesTheLedger();
    void seededSessionsReplay();
    void randomAdaptiveSessions();
    void hugeBudgetsAnswerAndRestore();
};

void TestSession::absoluteCountSingleRelease_data()
{
    QTest::addColumn<filters::FilterKind>("filter");
    QTest::addColumn<QString>("mechanism");
    QTest::addColumn<double>("expectedCost");
    // ε = ln(1/β)/a = ln 20/40; ρ = (Φ⁻¹(0.975)/40)²/2.
    QTest::newRow("basic") << filters::FilterKind::Basic << QStringLiteral("laplace")
                           << 2.995732273553991 / 40;
    QTest::newRow("zcdp") << filters::FilterKind::Zcdp << QStringLiteral("gaussian")
                          << std::pow(1.959963984540054 / 40, 2) / 2;
}

void TestSession::absoluteCountSingleRelease()
{
    QFETCH(filters::FilterKind, filter);
    QFETCH(QString, mechanism);
    QFETCH(double, expectedCost);
    auto s = newSession(filter, 1.0, 11);
    auto e = s->ask(request(data::Aggregate::Count, "", "region == \"south\"", TargetKind::Absolute, 40));
    QVERIFY(e.ok());
    QCOMPARE(e->status, EventStatus::Released);
    QCOMPARE(QString::fromStdString(e->mechanismName()), mechanism);
    QCOMPARE(e->request.id, std::string("q1"));
    QCOMPARE(e->attempts.size(), std::size_t(1));
    QVERIFY(e->targetMet);
    QVERIFY(e->errorBound <= 40.0);
    // Exact discrete noise (CKS 2020) calibrated by its exact tails costs a little less than the
    // continuous calibration, never more; and the cost is that of the recorded scale.
    QVERIFY(e->cost <= expectedCost);
    QVERIFY(e->cost >= 0.95 * expectedCost);
    const double scale = e->attempts.front().releases.front().scale;
    PBX_FUZZY_COMPARE(e->cost, filter == filters::FilterKind::Basic ? 1.0 / scale : 1.0 / (2 * scale * scale),
                      1e-9);
    QVERIFY(QString::fromStdString(e->accounting).contains(QStringLiteral("exact discrete")));
    QCOMPARE(e->answer, std::round(e->answer)); // an integer count stays an integer
    QCOMPARE(e->spentAfter, s->filter().spent());
    QVERIFY(std::fabs(e->answer - kSouthCount) < 200); // > 10 sd away would be astronomically rare
    QCOMPARE(s->events().size(), std::size_t(1));
}

void TestSession::relativeTargetsAreMet_data()
{
    QTest::addColumn<filters::FilterKind>("filter");
    QTest::addColumn<session::ReleaseMethod>("mechanism");
    QTest::addColumn<data::Aggregate>("aggregate");
    QTest::addColumn<double>("truth");
    using F = filters::FilterKind;
    using M = session::ReleaseMethod;
    const struct
    {
        F filter;
        M mechanism;
    } pairs[]
        = {{F::Basic, M::DoublingLaplace}, {F::Zcdp, M::DoublingGaussian}, {F::Basic, M::LaplaceNr},
           {F::ExPost, M::Brownian},       {F::Unified, M::LaplaceNr},     {F::BrownianZcdp, M::Brownian}};
    for (const auto &p : pairs) {
        const auto name = std::string(filters::filterKindName(p.filter)) + " "
                          + std::string(releaseMethodName(p.mechanism));
        QTest::addRow("count %s", name.c_str())
            << p.filter << p.mechanism << data::Aggregate::Count << kSouthCount;
        QTest::addRow("mean %s", name.c_str())
            << p.filter << p.mechanism << data::Aggregate::Mean << southIncomeMean();
    }
}

// 300 seeded sessions per row: released answers reported as meeting the target must be within α
// of the truth in at least 95 % of runs (the union bound over levels makes the real rate far
// higher), the charges of the attempts add up to the event's cost, and the filter never overspends.
void TestSession::relativeTargetsAreMet()
{
    QFETCH(filters::FilterKind, filter);
    QFETCH(session::ReleaseMethod, mechanism);
    QFETCH(data::Aggregate, aggregate);
    QFETCH(double, truth);
    const double alpha = 0.05;
    int met = 0, within = 0;
    for (std::uint64_t seed = 1; seed <= 300; ++seed) {
        auto s = newSession(filter, 1.0, seed);
        auto r = request(aggregate, "income", "region == \"south\"", TargetKind::Relative, alpha);
        r.mechanism = mechanism;
        auto e = s->ask(r);
        QVERIFY2(e.ok(), e.ok() ? "" : e.error().message.c_str());
        QCOMPARE(e->status, EventStatus::Released);
        QCOMPARE(QString::fromStdString(e->mechanismName()),
                 QString::fromStdString(std::string(releaseMethodName(mechanism))));
        double attemptsCost = 0;
        for (const auto &a : e->attempts)
            attemptsCost += a.cost;
        PBX_FUZZY_COMPARE(attemptsCost, e->cost, 1e-12);
        for (const auto &system : s->filter().systems())
            QVERIFY(system.spent <= system.budget);
        if (e->targetMet) {
            ++met;
            within += std::fabs(e->answer - truth) <= alpha * std::fabs(truth);
        }
    }
    QVERIFY2(met >= 290, qPrintable(QStringLiteral("target met in only %1 of 300 runs").arg(met)));
    QVERIFY2(within >= 0.95 * met, qPrintable(QStringLiteral("%1 of %2 within α").arg(within).arg(met)));
}

void TestSession::meanErrorBarCovers_data()
{
    QTest::addColumn<filters::FilterKind>("filter");
    QTest::addColumn<data::Neighbouring>("neighbours");
    QTest::newRow("zcdp add/remove") << filters::FilterKind::Zcdp << data::Neighbouring::AddRemove;
    QTest::newRow("basic replace") << filters::FilterKind::Basic << data::Neighbouring::Replace;
}

// Absolute target ±20 on a mean: the error bar (derived from noisy sum and noisy count only)
// covers the true mean in ≥ 95 % of 300 runs.
void TestSession::meanErrorBarCovers()
{
    QFETCH(filters::FilterKind, filter);
    QFETCH(data::Neighbouring, neighbours);
    const double truth = southIncomeMean();
    int covered = 0, met = 0;
    for (std::uint64_t seed = 1; seed <= 300; ++seed) {
        auto s = newSession(filter, 2.0, 1000 + seed, neighbours);
        auto e = s->ask(
            request(data::Aggregate::Mean, "income", "region == \"south\"", TargetKind::Absolute, 20));
        QVERIFY(e.ok());
        QCOMPARE(e->status, EventStatus::Released);
        met += e->targetMet;
        covered += std::fabs(e->answer - truth) <= e->errorBound;
        if (e->targetMet)
            QVERIFY(e->errorBound <= 20.0);
        QVERIFY(e->answer >= 0.0 && e->answer <= 5000.0); // clipped to the bounds
    }
    QVERIFY2(met >= 290, qPrintable(QStringLiteral("target met in %1 of 300").arg(met)));
    QVERIFY2(covered >= 285, qPrintable(QStringLiteral("covered in %1 of 300").arg(covered)));
}

// A count of 0 cannot be certified to ±10 %: the doubling run is abandoned early and spends
// far less than the budget (every attempt is still charged).
void TestSession::smallCountIsAbandonedCheaply()
{
    auto s = newSession(filters::FilterKind::Zcdp, 1.0, 5);
    auto e = s->ask(request(data::Aggregate::Count, "", "age > 1000", TargetKind::Relative, 0.1));
    QVERIFY(e.ok());
    QCOMPARE(e->status, EventStatus::Released);
    QVERIFY(!e->targetMet);
    QVERIFY(QString::fromStdString(e->reason).contains(QStringLiteral("abandoned")));
    QVERIFY2(s->filter().spent() < 0.1 * s->filter().budget(),
             qPrintable(QStringLiteral("spent %1").arg(s->filter().spent())));
}

void TestSession::refusesWhenBudgetIsExhausted()
{
    auto s = newSession(filters::FilterKind::Zcdp, 0.5, 3);
    int refused = 0;
    double previous = 0.0;
    for (int i = 0; i < 40; ++i) {
        auto e = s->ask(request(data::Aggregate::Count, "", "age >= 30", TargetKind::Absolute, 15));
        QVERIFY(e.ok());
        QVERIFY(e->spentAfter >= previous);
        previous = e->spentAfter;
        if (e->status == EventStatus::Refused) {
            ++refused;
            QCOMPARE(e->cost, 0.0);
            QVERIFY(e->attempts.empty());
            QVERIFY(QString::fromStdString(e->reason).startsWith(QStringLiteral("this query needs ρ = ")));
        }
        QVERIFY(s->filter().spent() <= s->filter().budget());
    }
    QVERIFY(refused > 0);
    QCOMPARE(s->events().size(), std::size_t(40)); // refusals are in the ledger too
    for (std::size_t i = 0; i < s->events().size(); ++i)
        QCOMPARE(s->events()[i].index, i);
}

void TestSession::refusalsSayWhatTheBudgetBuys_data()
{
    QTest::addColumn<filters::FilterKind>("filter");
    QTest::addColumn<data::Aggregate>("aggregate");
    QTest::addColumn<double>("error");
    QTest::addColumn<QString>("expected");
    // ρ = 0.004444 (ε = 0.5, δ = 1e-6): σ ≈ 1/√(2ρ) = 10.6, 1.96σ ≈ ±21 for a count.
    QTest::newRow("zcdp count")
        << filters::FilterKind::Zcdp << data::Aggregate::Count << 5.0
        << QStringLiteral("with ρ = 0.004444, one release can answer this count to ±21 at 95 % confidence");
    // ε = 0.5: Laplace b = 2, b·ln(1/β) = 6.
    QTest::newRow("basic count")
        << filters::FilterKind::Basic << data::Aggregate::Count << 2.0
        << QStringLiteral("with ε = 0.5, one release can answer this count to ±6 at 95 % confidence");
    QTest::newRow("basic sum") << filters::FilterKind::Basic << data::Aggregate::Sum << 10.0
                               << QStringLiteral("one release can answer this sum to ±");
}

// A refused single release says what the remaining budget buys, and that statement holds: asking
// for exactly that accuracy is then released within the budget.
void TestSession::refusalsSayWhatTheBudgetBuys()
{
    QFETCH(filters::FilterKind, filter);
    QFETCH(data::Aggregate, aggregate);
    QFETCH(double, error);
    QFETCH(QString, expected);
    auto s = newSession(filter, 0.5, 3);
    const std::string column = aggregate == data::Aggregate::Sum ? "age" : "";
    auto refused = s->ask(request(aggregate, column, "", TargetKind::Absolute, error));
    QVERIFY(refused.ok());
    QCOMPARE(refused->status, EventStatus::Refused);
    const QString reason = QString::fromStdString(refused->reason);
    QVERIFY2(reason.contains(expected), qPrintable(reason));
    const qsizetype at = reason.lastIndexOf(QStringLiteral("±"));
    bool ok = false;
    const double affordable = reason.mid(at + 1).section(QLatin1Char(' '), 0, 0).toDouble(&ok);
    QVERIFY(ok && affordable > error);
    auto answered = s->ask(request(aggregate, column, "", TargetKind::Absolute, affordable));
    QVERIFY(answered.ok());
    QVERIFY2(answered->status == EventStatus::Released, answered->reason.c_str());
    QVERIFY(s->filter().spent() <= s->filter().budget());
}

void TestSession::invalidRequestsSpendNothing()
{
    auto s = newSession(filters::FilterKind::Zcdp, 1.0, 3);
    PBX_VERIFY_ERROR(s->ask(request(data::Aggregate::Sum, "salary", "", TargetKind::Absolute, 10)), NotFound,
                     "column");
    PBX_VERIFY_ERROR(s->ask(request(data::Aggregate::Count, "", "regon == \"x\"", TargetKind::Absolute, 10)),
                     NotFound, "where");
    PBX_VERIFY_ERROR(s->ask(request(data::Aggregate::Mean, "region", "", TargetKind::Absolute, 10)),
                     InvalidArgument, "column");
    PBX_VERIFY_ERROR(s->ask(request(data::Aggregate::Count, "", "", TargetKind::Absolute, -1)),
                     InvalidArgument, "target error");
    PBX_VERIFY_ERROR(s->ask(request(data::Aggregate::Count, "", "", TargetKind::Absolute, 5, 1.0)),
                     InvalidArgument, "target confidence");
    QCOMPARE(s->events().size(), std::size_t(0));
    QCOMPARE(s->filter().spent(), 0.0);
}

void TestSession::restoreRechargesTheLedger()
{
    auto s = newSession(filters::FilterKind::Basic, 1.0, 9);
    for (double a : {50.0, 30.0, 2.0})
        QVERIFY(
            s->ask(request(data::Aggregate::Count, "", "region == \"north\"", TargetKind::Absolute, a)).ok());
    auto restored = Session::restore(s->sharedTable(), s->settings(), s->events());
    QVERIFY(restored.ok());
    QCOMPARE((*restored)->filter().spent(), s->filter().spent());
    QCOMPARE((*restored)->events().size(), s->events().size());
    // A ledger that does not fit the budget is refused.
    auto tampered = s->events();
    tampered[0].attempts[0].cost = 5.0;
    tampered[0].cost = 5.0;
    PBX_VERIFY_ERROR(Session::restore(s->sharedTable(), s->settings(), tampered), Parse, "event 0 ('q1')");
    // A cost that disagrees with its attempts is refused too (the document was edited).
    auto edited = s->events();
    edited[1].cost /= 2;
    auto refused = Session::restore(s->sharedTable(), s->settings(), edited);
    PBX_VERIFY_ERROR(refused, Parse, "event 1 ('q2')");
    QVERIFY(
        QString::fromStdString(refused.error().message).contains(QStringLiteral("not the recorded cost")));
}

void TestSession::seededSessionsReplay()
{
    auto a = newSession(filters::FilterKind::Zcdp, 1.0, 77);
    auto b = newSession(filters::FilterKind::Zcdp, 1.0, 77);
    for (auto *s : {a.get(), b.get()}) {
        QVERIFY(s->ask(request(data::Aggregate::Count, "", "", TargetKind::Absolute, 30)).ok());
        QVERIFY(s->ask(request(data::Aggregate::Sum, "age", "age < 40", TargetKind::Relative, 0.02)).ok());
    }
    for (std::size_t i = 0; i < 2; ++i) {
        QCOMPARE(a->events()[i].answer, b->events()[i].answer);
        QCOMPARE(a->events()[i].cost, b->events()[i].cost);
    }
}

// 1,000 random adaptive sessions: random filters and budgets, random requests (aggregate, column,
// predicate, absolute or relative target, any mechanism the filter accepts, sometimes a per-query
// cap), each chosen after seeing the previous answers. The filter never overspends, every event's
// cost audits against its releases, and replaying the ledger reproduces the spend exactly (the
// recorded costs are the spend).
void TestSession::randomAdaptiveSessions()
{
    std::mt19937_64 rng(2026);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    const filters::FilterKind kinds[]
        = {filters::FilterKind::Basic, filters::FilterKind::Zcdp, filters::FilterKind::ExPost,
           filters::FilterKind::Unified, filters::FilterKind::BrownianZcdp};
    const session::ReleaseMethod mechanisms[]
        = {session::ReleaseMethod::Laplace,         session::ReleaseMethod::Gaussian,
           session::ReleaseMethod::DoublingLaplace, session::ReleaseMethod::DoublingGaussian,
           session::ReleaseMethod::LaplaceNr,       session::ReleaseMethod::Brownian};
    const char *wheres[]
        = {"", "region == \"south\"", "age < 30", "income >= 2500 and not region == \"north\"", "age > 68"};
    int released = 0, refused = 0;
    for (int run = 0; run < 1000; ++run) {
        auto s = newSession(kinds[rng() % 5], 0.2 + 3.0 * unit(rng), rng());
        const int requests = 1 + static_cast<int>(rng() % 8);
        for (int q = 0; q < requests; ++q) {
            const auto aggregate = static_cast<data::Aggregate>(rng() % 3);
            const bool relative = unit(rng) < 0.5;
            auto r = request(aggregate, unit(rng) < 0.5 ? "age" : "income", wheres[rng() % 5],
                             relative ? TargetKind::Relative : TargetKind::Absolute,
                             relative ? 0.02 + 0.3 * unit(rng) : std::pow(10.0, 4.0 * unit(rng)),
                             0.8 + 0.19 * unit(rng));
            if (unit(rng) < 0.7)
                r.mechanism = mechanisms[rng() % 6];
            if (unit(rng) < 0.2)
                r.maxCost = 0.5 * unit(rng) + 1e-6;
            auto e = s->ask(r);
            if (!e.ok())
                continue; // a mechanism the filter cannot account: refused up front, nothing spent
            (e->status == EventStatus::Released ? released : refused)++;
            for (const auto &system : s->filter().systems())
                QVERIFY(system.spent <= system.budget);
            if (e->status == EventStatus::Released && unit(rng) < 0.15)
                break; // the analyst stops adaptively
        }
        QVERIFY(s->filter().epsilonSpent() <= s->settings().epsilon * (1 + 1e-12));
        auto replayed = session::auditLedger(s->sharedTable(), s->settings(), s->events());
        QVERIFY2(replayed.ok(), replayed.ok() ? "" : replayed.error().message.c_str());
        const auto a = s->filter().systems(), b = (*replayed)->filter().systems();
        for (std::size_t i = 0; i < a.size(); ++i)
            QCOMPARE(b[i].spent, a[i].spent);
        QCOMPARE((*replayed)->filter().deltaSpent(), s->filter().deltaSpent());
    }
    QVERIFY(released > 1000 && refused > 100);
}

// ε ≥ 1.4·10¹⁵⁴ hung every zCDP-based filter (ρ(ε) overflowed ε²); a session
// with such a budget must start, answer and restore (as verify, resume and the GUI do).
void TestSession::hugeBudgetsAnswerAndRestore()
{
    for (auto kind :
         {filters::FilterKind::Zcdp, filters::FilterKind::Unified, filters::FilterKind::BrownianZcdp}) {
        session::SessionSettings settings;
        settings.epsilon = 1e300;
        settings.filter = kind;
        settings.seed = 1;
        auto s = session::Session::create(test::syntheticTable(), settings);
        QVERIFY(s.ok());
        QVERIFY(std::isfinite((*s)->filter().budget()));
        session::QueryRequest r;
        r.target = {session::TargetKind::Absolute, 5, 0.95};
        const auto e = (*s)->ask(r);
        QVERIFY(e.ok());
        QCOMPARE(e->status, session::EventStatus::Released);
        auto restored = session::Session::restore(test::syntheticTable(), settings, (*s)->events());
        QVERIFY(restored.ok());
        QCOMPARE((*restored)->filter().spent(), (*s)->filter().spent());
    }
}

QTEST_APPLESS_MAIN(TestSession)
#include "tst_session.moc"
