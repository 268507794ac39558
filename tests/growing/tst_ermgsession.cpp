// SPDX-License-Identifier: MIT
// ERMG streams in a session (core/session/growing_ermg.h; Cummings, Krehbiel, Lai & Tantipongpipat
// 2018 with the lab's output-perturbed logistic regression): every release is one ρ_t charge made
// before its Gaussian noise, bit for bit the improver's (or the zCDP schedule's) ρ_t, σ_t =
// growing::ermNoiseScale, the charges sum to at most the stream's ρ, the released θ lies near the
// fit on the same arrival order, a refusal mid-stream keeps what was released, the record survives
// a transcript round trip, the audit catches edits, the comparison ledger gets one ρ event per
// release, and bad values are refused naming the field with nothing spent
// (docs/growing-databases.md, §9).
#include "core/datasets/cps1988_ermg.h"
#include "core/growing/bb_improver.h"
#include "core/growing/bb_scheduler.h"
#include "core/growing/ermg.h"
#include "core/growing/stream_model.h"
#include "core/io/event_json.h"
#include "core/io/request_json.h"
#include "core/session/growing/growing_ermg.h"
#include "core/session/growing/growing_release.h"
#include "core/session/ledger/cost_audit.h"
#include "core/session/ledger/session_ledger.h"
#include "core/session/session.h"
#include "resources/dataset_catalog.h"
#include "tests/growing/growing_session_fixture.h"
#include "tests/test_rows.h"
#include "tests/testutils.h"

using namespace pbx;
using session::EventStatus;
using session::QueryRequest;
using session::Session;
using session::SessionSettings;

using growing_fixture::cps;
using growing_fixture::openSession;
using growing_fixture::request;

namespace {

/// An ermg line: ρ = 0.5 over t = 1000 … 28155, improver a = 0.1, a release every 1000 rows, λ = 0.01.
std::string ermgSessionLine(const std::string &budget = R"("budget":{"kind":"zcdp","rho":0.5},)",
                            const std::string &schedule
                            = R"("schedule":{"kind":"improver","a":0.1,"every":1000},)",
                            const std::string &erm = R"("erm":{"lambda":0.01,"tol":1e-10}})")
{
    return R"({"id":"e","type":"growing","algorithm":"ermg","stream":{"start_size":1000,"end":28155,"seed":7},)"
           + budget + schedule + erm;
}

growing::BBImprover ermgImprover()
{
    growing::ImproverConfig c;
    c.startSize = 1000;
    c.decay = 0.1;
    c.every = 1000;
    c.budget = growing::Budget{growing::BudgetKind::Zcdp, 1.0, 0.5};
    return std::move(*growing::BBImprover::create(c));
}

} // namespace

class TestErmgSession : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void releasesChargeTheImproversRho();
    void schedulerEpochsChargeTheirRho();
    void releasesAreNearTheFit();
    void refusalMidStreamKeepsWhatWasReleased();
    void transcriptRoundTripAndAudit();
    void releasesFeedTheComparison();
    void badValuesSpendNothing();
};

void TestErmgSession::releasesChargeTheImproversRho()
{
    auto s = openSession(filters::FilterKind::Zcdp, 10.0);
    auto e = s->ask(request(ermgSessionLine()));
    QVERIFY2(e.ok(), e ? "" : e.error().message.c_str());
    QCOMPARE(e->status, EventStatus::Released);
    QCOMPARE(e->mechanismName(), std::string("ermg"));
    QCOMPARE(e->costKind, filters::ChargeKind::Rho);
    const auto &r = *e->growingRecord();
    // Releases at t = 1000, 2000, …, 28000: (28155 − 1000)/1000 + 1 = 28.
    QCOMPARE(r.plannedEpochs, std::uint64_t{28});
    QCOMPARE(r.epochs.size(), std::size_t{28});
    QCOMPARE(e->attempts.size(), std::size_t{28});
    QCOMPARE(r.seriesTotal, 0.5);
    const auto b = ermgImprover();
    double sum = 0.0;
    for (std::size_t j = 0; j < r.epochs.size(); ++j) {
        const std::uint64_t t = 1000 + 1000 * j;
        const double rho = b.step(t).rho;
        QCOMPARE(r.epochs[j].start, t);
        QCOMPARE(r.epochs[j].rho, rho); // bit for bit the improver's ρ_t
        QCOMPARE(e->attempts[j].cost, rho);
        QCOMPARE(r.epochs[j].epsilon, 0.0);
        // σ_t ≥ Δ_t/√(2ρ_t) chooses the grid g; the discrete Gaussian is calibrated to ρ_t with the
        // sensitivity Δ_t/g + 3 grid steps, so the recorded σ = g·σ_g is σ_t(1 + 3g/Δ_t), g ≤ Δ_t/2^20
        // here: at most 3·2^-20 more noise (tst_exactnoise checks the grid and the ρ exactly).
        const double sigma = growing::ermNoiseScale(t, 0.01, 1e-10, rho);
        QVERIFY(r.epochs[j].scale >= sigma);
        QVERIFY2(r.epochs[j].scale <= sigma * (1.0 + 3.0 / 1048576.0),
                 qPrintable(QString::number(r.epochs[j].scale / sigma - 1.0, 'g', 17)));
        const double delta = growing::ermSensitivity(t, 0.01, 1e-10);
        QVERIFY(delta * delta / (2.0 * sigma * sigma) <= rho);
        QCOMPARE(r.epochs[j].answers.size(), std::size_t{9});
        QVERIFY(r.epochs[j].cells.empty());
        sum += rho;
    }
    // Δ_1000 = 2/(1000 · 0.01) = 0.2, ρ_1000 = 1000 · 0.5/(Z · 1999^1.1) with Z = 5.012374.
    QVERIFY(std::abs(r.epochs[0].rho - 500.0 / (5.012374 * std::pow(1999.0, 1.1))) < 1e-7);
    QVERIFY2(std::abs(r.epochs[0].scale / (0.2 / std::sqrt(2.0 * r.epochs[0].rho)) - 1.0) < 2e-6,
             qPrintable(QString::number(r.epochs[0].scale, 'g', 17)));
    QCOMPARE(r.epochs.back().last, std::uint64_t{28155});
    QVERIFY(e->cost >= sum && std::abs(e->cost - sum) < 1e-12);
    QVERIFY(e->cost <= 0.5);
    QVERIFY2(std::abs(e->cost - 0.1228005) < 1e-6, qPrintable(QString::number(e->cost, 'g', 17)));
    QVERIFY(std::abs(s->filter().spent() - e->cost) < 1e-12);
    QVERIFY2(QString::fromStdString(session::growingEpochLabel(*e, 3))
                 .startsWith(QStringLiteral("ERMG release 3 of 28: t = 4000, ρ = ")),
             session::growingEpochLabel(*e, 3).c_str());
    QVERIFY(session::auditGrowingEvent(*e, *cps(), s->settings()).ok());
    QVERIFY(
        QString::fromStdString(session::describeGrowingRequest(e->request))
            .startsWith(QStringLiteral("ERMG stream, t = 1000 … 28155, improver a = 0.1, every 1000 rows")));
}

void TestErmgSession::schedulerEpochsChargeTheirRho()
{
    auto s = openSession(filters::FilterKind::Zcdp, 10.0);
    auto e = s->ask(request(ermgSessionLine(R"("budget":{"kind":"zcdp","rho":0.5},)",
                                            R"("schedule":{"kind":"zcdp-geometric","gamma":1},)")));
    QVERIFY2(e.ok(), e ? "" : e.error().message.c_str());
    growing::SchedulerConfig c;
    c.startSize = 1000;
    c.gamma = 1.0;
    c.budget = growing::Budget{growing::BudgetKind::Zcdp, 1.0, 0.5};
    c.schedule = growing::ScheduleKind::ZcdpGeometric;
    auto epochs = growing::planEpochs(c, 28155);
    QVERIFY(epochs.ok());
    const auto &r = *e->growingRecord();
    // t_i = 1000 · 2^i ≤ 28155: 1000, 2000, 4000, 8000, 16000.
    QCOMPARE(r.epochs.size(), std::size_t{5});
    QCOMPARE(r.epochs.size(), epochs->size());
    for (std::size_t i = 0; i < 5; ++i) {
        QCOMPARE(r.epochs[i].start, std::uint64_t(1000) << i);
        QCOMPARE(r.epochs[i].rho, (*epochs)[i].privacy.rho);
        QCOMPARE(e->attempts[i].cost, (*epochs)[i].privacy.rho);
    }
    QCOMPARE(r.epochs[4].last, std::uint64_t{28155});
    QVERIFY(e->cost <= 0.5);
    QVERIFY(session::auditGrowingEvent(*e, *cps(), s->settings()).ok());
}

void TestErmgSession::releasesAreNearTheFit()
{
    auto s = openSession(filters::FilterKind::Zcdp, 10.0);
    auto e = s->ask(request(ermgSessionLine()));
    QVERIFY(e.ok());
    // The same arrival order (seed 7) and the same fit on its first 28,000 rows.
    auto order = growing::arrivalOrder(pbx::test::PublicRows(*cps()), "random", 7);
    auto data = growing::cpsErmData(pbx::test::PublicRows(*cps()));
    QVERIFY(order.ok() && data.ok());
    const Eigen::Index t = 28000;
    Eigen::MatrixXd x(t, 9);
    Eigen::VectorXd y(t);
    for (Eigen::Index r = 0; r < t; ++r) {
        x.row(r) = data->features.row(Eigen::Index((*order)[std::size_t(r)]));
        y(r) = data->labels(Eigen::Index((*order)[std::size_t(r)]));
    }
    auto fit = growing::fitLogistic(x, y, 0.01, 1e-10);
    QVERIFY(fit.ok());
    const auto &last = e->growingRecord()->epochs.back();
    QCOMPARE(last.start, std::uint64_t{28000});
    // σ_28000 ≈ 0.2/28/√(2ρ_t): every coordinate within the recorded tail bound (w.p. ≥ 1 − β_t).
    for (Eigen::Index j = 0; j < 9; ++j)
        QVERIFY2(std::abs(last.answers[std::size_t(j)] - fit->theta(j)) <= last.bound,
                 qPrintable(QString::number(last.answers[std::size_t(j)] - fit->theta(j))));
    // The noise shrinks as rows accumulate: σ_t ∝ 1/(t√ρ_t) and ρ_t ∝ t^−1.1.
    QVERIFY(last.scale < e->growingRecord()->epochs.front().scale / 2.0);
}

void TestErmgSession::refusalMidStreamKeepsWhatWasReleased()
{
    // A zCDP filter from ε = 2, δ = 1e-6 holds ρ ≈ 0.0676: fewer than the stream's 28 releases.
    auto s = openSession(filters::FilterKind::Zcdp, 2.0);
    const double budget = s->filter().remaining();
    QVERIFY(budget < 0.1228);
    auto e = s->ask(request(ermgSessionLine()));
    QVERIFY2(e.ok(), e ? "" : e.error().message.c_str());
    QCOMPARE(e->status, EventStatus::Released);
    const auto &r = *e->growingRecord();
    QVERIFY2(!r.epochs.empty() && r.epochs.size() < 28, qPrintable(QString::number(r.epochs.size())));
    QCOMPARE(r.refusedEpoch, std::optional<std::uint64_t>(r.epochs.size()));
    QVERIFY(std::abs(s->filter().spent() - e->cost) < 1e-12);
    QVERIFY(s->filter().spent() <= budget);
    QVERIFY(e->cost + ermgImprover().step(1000 + 1000 * r.epochs.size()).rho > budget);
    QVERIFY2(QString::fromStdString(e->reason).startsWith(QStringLiteral("release ")), e->reason.c_str());
    QVERIFY2(QString::fromStdString(e->reason).endsWith(
                 QString::fromStdString(session::releasedBefore(r.epochs.size(), "release"))),
             e->reason.c_str());
    QVERIFY(!e->targetMet);
    QVERIFY(session::auditGrowingEvent(*e, *cps(), s->settings()).ok());
    // A pure filter cannot take ρ: refused before anything is spent.
    auto basic = openSession(filters::FilterKind::Basic, 1.0);
    auto refused = basic->ask(request(ermgSessionLine()));
    QVERIFY(!refused.ok());
    QVERIFY2(QString::fromStdString(refused.error().message)
                 .contains(QStringLiteral("algorithm: 'ermg' charges ρ")),
             refused.error().message.c_str());
    QCOMPARE(basic->filter().spent(), 0.0);
    QVERIFY(basic->events().empty());
}

void TestErmgSession::transcriptRoundTripAndAudit()
{
    auto s = openSession(filters::FilterKind::Zcdp, 10.0);
    auto e = s->ask(request(ermgSessionLine()));
    QVERIFY(e.ok());
    std::vector<session::LedgerEvent> events;
    for (const auto &event : s->events()) {
        auto back = io::eventFromJson(nlohmann::json::parse(io::eventToJson(event, s->filter()).dump()),
                                      events.size());
        QVERIFY2(back.ok(), back ? "" : back.error().message.c_str());
        events.push_back(*back);
    }
    const auto &g = events[0];
    QCOMPARE(g.request.growing()->algorithm, session::GrowingAlgorithm::Ermg);
    QVERIFY(g.request.growing()->ermgImprover);
    QCOMPARE(g.request.growing()->every, std::uint64_t{1000});
    QCOMPARE(g.request.growing()->ermLambda, 0.01);
    QCOMPARE(g.request.growing()->ermTol, 1e-10);
    QCOMPARE(g.growingRecord()->epochs[10].answers, e->growingRecord()->epochs[10].answers);
    auto audited = session::auditLedger(cps(), s->settings(), events);
    QVERIFY2(audited.ok(), audited ? "" : audited.error().message.c_str());
    QCOMPARE((*audited)->filter().spent(), s->filter().spent());

    const auto check = [&](session::LedgerEvent edited, const char *needle) {
        auto result = session::auditGrowingEvent(edited, *cps(), s->settings());
        QVERIFY2(!result.ok(), needle);
        QVERIFY2(QString::fromStdString(result.error().message).contains(QString::fromUtf8(needle)),
                 result.error().message.c_str());
    };
    auto edited = *e;
    edited.attempts[2].cost = 1e-6; // a release charged less than its ρ_t
    check(edited, "release 2: it charged ρ = 1e-06, but its schedule gives");
    edited = *e;
    edited.growingRecord()->epochs[0].scale = 0.01; // less noise than ρ_t allows
    check(edited, "release 0: its noise scale or bound");
    edited = *e;
    edited.cost = 0.1;
    check(edited, "not the recorded cost 0.1");
    edited = *e;
    edited.growingRecord()->epochs.pop_back();
    edited.attempts.pop_back();
    check(edited, "stops after 27 of 28 releases without a refusal");
    edited = *e;
    edited.request.growing()->ermLambda = 0.1; // the parameters no longer give the recorded σ_t
    check(edited, "release 0: its noise scale or bound");
}

void TestErmgSession::releasesFeedTheComparison()
{
    auto s = openSession(filters::FilterKind::Zcdp, 10.0);
    auto e = s->ask(request(ermgSessionLine()));
    QVERIFY(e.ok());
    std::vector<std::size_t> origin;
    auto ledger = accounting::ledgerFromSession(*s, &origin);
    QVERIFY2(ledger.ok(), ledger ? "" : ledger.error().message.c_str());
    QCOMPARE(ledger->events.size(), std::size_t{28});
    QCOMPARE(origin, std::vector<std::size_t>(28, 0));
    for (std::size_t j = 0; j < 28; ++j) {
        // Gaussian: ρ_t-zCDP, no pure ε.
        QCOMPARE(ledger->events[j].mechanism, accounting::MechanismKind::Zcdp);
        QCOMPARE(ledger->events[j].rho, e->attempts[j].cost);
    }
}

void TestErmgSession::badValuesSpendNothing()
{
    const struct
    {
        std::string text;
        const char *field;
    } bad[] = {
        {ermgSessionLine(R"("budget":{"kind":"pure","epsilon":0.5},)"), "INVALID_SCHEDULE: budget.kind"},
        {ermgSessionLine(R"("budget":{"kind":"zcdp","rho":0.5},)",
                         R"("schedule":{"kind":"geometric","gamma":1},)"),
         "INVALID_SCHEDULE: schedule.kind"},
        {ermgSessionLine(R"("budget":{"kind":"zcdp","rho":0.5},)",
                         R"("schedule":{"kind":"improver","a":1.5},)"),
         "INVALID_DECAY: schedule.a"},
        {ermgSessionLine(R"("budget":{"kind":"zcdp","rho":0.5},)",
                         R"("schedule":{"kind":"improver","every":1000},)", R"("erm":{"lambda":0}})"),
         "INVALID_CONFIG: erm.lambda"},
        {ermgSessionLine(R"("budget":{"kind":"zcdp","rho":0.5},)",
                         R"("schedule":{"kind":"improver","every":1000},)", R"("erm":{"tol":0.5}})"),
         "INVALID_CONFIG: erm.tol"},
        {ermgSessionLine(R"("budget":{"kind":"zcdp","rho":0.5},)",
                         R"("schedule":{"kind":"improver","every":1000},)", R"("erm":{"draws":10}})"),
         "unknown field 'draws'"},
        {ermgSessionLine(R"("budget":{"kind":"zcdp","rho":0.5},)",
                         R"("schedule":{"kind":"improver","every":1000},)",
                         R"("black_box":{"kind":"laplace-k","queries":["age > 3"]}})"),
         "unknown field 'black_box'"},
    };
    for (const auto &b : bad) {
        auto r = io::readRequestLine(b.text, 1);
        QVERIFY2(!r.ok(), b.field);
        QVERIFY2(QString::fromStdString(r.error().message).contains(QString::fromUtf8(b.field)),
                 r.error().message.c_str());
    }
    // Parses, but a release every 10 rows is 2,716 model fits: refused by ask, nothing spent.
    auto s = openSession(filters::FilterKind::Zcdp, 10.0);
    auto e = s->ask(request(ermgSessionLine(R"("budget":{"kind":"zcdp","rho":0.5},)",
                                            R"("schedule":{"kind":"improver","a":0.1,"every":10},)")));
    QVERIFY(!e.ok());
    QVERIFY2(
        QString::fromStdString(e.error().message).contains(QStringLiteral("INVALID_CONFIG: schedule.every")),
        e.error().message.c_str());
    QVERIFY(s->events().empty());
    QCOMPARE(s->filter().spent(), 0.0);
}

QTEST_GUILESS_MAIN(TestErmgSession)
#include "tst_ermgsession.moc"
