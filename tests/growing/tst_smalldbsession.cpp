// SPDX-License-Identifier: MIT
// SmallDBG streams in a session (core/session/growing_smalldb.h; Cummings, Krehbiel, Lai &
// Tantipongpipat 2018, BBScheduler with the exact SmallDB sampler on the CPS1988 teaching
// instance): every epoch is one ε_i (or ρ_i) charge made before its draw, bit for bit the schedule's,
// the charges sum to at most the stream's budget, each epoch records a synthetic database of m
// universe elements whose 28 answers are the released ones, a refusal mid-stream keeps what was
// released, the record survives a transcript round trip, the audit catches edits, the comparison
// ledger gets one pure ε_i event per epoch, and bad values (a range over 5·10⁶ candidates above
// all) are refused naming the field with nothing spent (docs/growing-databases.md, §9).
#include "core/datasets/cps1988_smalldb.h"
#include "core/growing/bb_scheduler.h"
#include "core/growing/growing_lab.h"
#include "core/growing/smalldb.h"
#include "core/growing/stream_model.h"
#include "core/io/event_json.h"
#include "core/io/request_json.h"
#include "core/session/growing/growing_release.h"
#include "core/session/growing/growing_smalldb.h"
#include "core/session/ledger/cost_audit.h"
#include "core/session/ledger/session_ledger.h"
#include "core/session/session.h"
#include "resources/dataset_catalog.h"
#include "tests/growing/growing_session_fixture.h"
#include "tests/test_rows.h"
#include "tests/testutils.h"

#include <numeric>

using namespace pbx;
using session::EventStatus;
using session::QueryRequest;
using session::Session;
using session::SessionSettings;

using growing_fixture::cps;
using growing_fixture::openSession;
using growing_fixture::request;

namespace {

/// A smalldb line: ε = 1 over t = 1000 … 28155, geometric γ = 1, m = 8.
std::string smalldbSessionLine(const std::string &budget = R"("budget":{"kind":"pure","epsilon":1},)",
                               const std::string &schedule = R"("schedule":{"kind":"geometric","gamma":1},)",
                               const std::string &box = R"("black_box":{"m":8}})")
{
    return R"({"id":"d","type":"growing","algorithm":"smalldb","stream":{"start_size":1000,"end":28155,"seed":7},)"
           + budget + schedule + box;
}

std::vector<growing::EpochPlan> epochs(growing::ScheduleKind kind = growing::ScheduleKind::Geometric,
                                       growing::Budget budget = {growing::BudgetKind::Pure, 1.0, 0.0})
{
    growing::SchedulerConfig c;
    c.startSize = 1000;
    c.gamma = 1.0;
    c.budget = budget;
    c.schedule = kind;
    c.box.kind = growing::BlackBoxKind::SmallDb;
    c.box.universe = 16;
    c.box.queries = 28;
    return std::move(*growing::planEpochs(c, 28155));
}

} // namespace

class TestSmallDbSession : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void epochsChargeTheirEpsilon();
    void zcdpEpochsChargeTheirRho();
    void answersAreTheSyntheticDatabases();
    void refusalMidStreamKeepsWhatWasReleased();
    void transcriptRoundTripAndAudit();
    void epochsFeedTheComparison();
    void badValuesSpendNothing();
};

void TestSmallDbSession::epochsChargeTheirEpsilon()
{
    auto s = openSession(filters::FilterKind::Basic, 2.0);
    auto e = s->ask(request(smalldbSessionLine()));
    QVERIFY2(e.ok(), e ? "" : e.error().message.c_str());
    QCOMPARE(e->status, EventStatus::Released);
    QCOMPARE(e->mechanismName(), std::string("smalldb"));
    QCOMPARE(e->costKind, filters::ChargeKind::PureEpsilon);
    const auto &r = *e->growingRecord();
    const auto plan = epochs();
    // t_i = 1000 · 2^i ≤ 28155: five epochs.
    QCOMPARE(plan.size(), std::size_t{5});
    QCOMPARE(r.plannedEpochs, std::uint64_t{5});
    QCOMPARE(r.epochs.size(), std::size_t{5});
    double sum = 0.0;
    for (std::size_t i = 0; i < 5; ++i) {
        QCOMPARE(r.epochs[i].start, std::uint64_t(1000) << i);
        QCOMPARE(r.epochs[i].epsilon, plan[i].privacy.epsilon); // bit for bit
        QCOMPARE(e->attempts[i].cost, plan[i].privacy.epsilon);
        QCOMPARE(r.epochs[i].bound, plan[i].bound);
        QCOMPARE(r.epochs[i].cells.size(), std::size_t{16});
        QCOMPARE(std::accumulate(r.epochs[i].cells.begin(), r.epochs[i].cells.end(), 0u), 8u);
        QCOMPARE(r.epochs[i].answers.size(), std::size_t{28});
        sum += plan[i].privacy.epsilon;
    }
    QVERIFY(e->cost >= sum && std::abs(e->cost - sum) < 1e-12);
    QVERIFY(e->cost <= 1.0);
    QVERIFY2(std::abs(e->cost - 0.96875) < 1e-4, qPrintable(QString::number(e->cost, 'g', 17)));
    QVERIFY(std::abs(s->filter().spent() - e->cost) < 1e-12);
    QVERIFY2(QString::fromStdString(session::growingEpochLabel(*e, 2))
                 .startsWith(QStringLiteral("SmallDBG epoch 2 of 5: t = 4000, ε = ")),
             session::growingEpochLabel(*e, 2).c_str());
    QVERIFY(QString::fromStdString(session::smallDbDatabaseText(r.epochs[0]))
                .startsWith(QStringLiteral("m = 8 rows (region, smsa, parttime): (")));
    QVERIFY(session::auditGrowingEvent(*e, *cps(), s->settings()).ok());
}

void TestSmallDbSession::zcdpEpochsChargeTheirRho()
{
    auto s = openSession(filters::FilterKind::Zcdp, 10.0);
    auto e = s->ask(request(smalldbSessionLine(R"("budget":{"kind":"zcdp","rho":0.5},)",
                                               R"("schedule":{"kind":"zcdp-geometric","gamma":1},)")));
    QVERIFY2(e.ok(), e ? "" : e.error().message.c_str());
    QCOMPARE(e->costKind, filters::ChargeKind::Rho);
    const auto plan = epochs(growing::ScheduleKind::ZcdpGeometric, {growing::BudgetKind::Zcdp, 1.0, 0.5});
    const auto &r = *e->growingRecord();
    QCOMPARE(r.epochs.size(), plan.size());
    for (std::size_t i = 0; i < plan.size(); ++i) {
        QCOMPARE(e->attempts[i].cost, plan[i].privacy.rho);
        // The sampler runs at ε_i = √(2ρ_i) rounded down: ε_i-DP implies ε_i²/2 ≤ ρ_i-zCDP.
        QVERIFY(r.epochs[i].epsilon * r.epochs[i].epsilon / 2.0 <= e->attempts[i].cost);
    }
    QVERIFY(e->cost <= 0.5);
    QVERIFY(session::auditGrowingEvent(*e, *cps(), s->settings()).ok());
}

void TestSmallDbSession::answersAreTheSyntheticDatabases()
{
    auto s = openSession(filters::FilterKind::Basic, 2.0);
    auto e = s->ask(request(smalldbSessionLine()));
    QVERIFY(e.ok());
    auto inst = growing::cpsSmallDbInstance(pbx::test::PublicRows(*cps()));
    auto db = growing::SmallDb::create(16, inst->queries, 8);
    QVERIFY(inst.ok() && db.ok());
    auto order = growing::arrivalOrder(pbx::test::PublicRows(*cps()), "random", 7);
    QVERIFY(order.ok());
    for (const auto &x : e->growingRecord()->epochs) {
        QCOMPARE(db->answers(x.cells), x.answers);
        // Every answer is a multiple of 1/m.
        for (double a : x.answers)
            QCOMPARE(std::round(a * 8.0) / 8.0, a);
        // The largest error at t_i against the truth on the same prefix: no better than the best
        // 8-row database could do, and within the epoch's bound α_i + s_i.
        std::vector<std::uint64_t> cells(16, 0);
        for (std::uint64_t t = 0; t < x.start; ++t)
            ++cells[inst->rowCells[(*order)[t]]];
        double worst = 0.0;
        for (std::size_t q = 0; q < 28; ++q) {
            double truth = 0.0;
            for (std::size_t c = 0; c < 16; ++c)
                truth += inst->queries[q][c] ? double(cells[c]) : 0.0;
            worst = std::max(worst, std::abs(truth / double(x.start) - x.answers[q]));
        }
        auto best = db->bestMaxError(cells);
        QVERIFY(best.ok());
        QVERIFY(worst >= *best - 1e-12);
        QVERIFY2(worst <= x.bound,
                 qPrintable(QString::number(worst) + QStringLiteral(" > ") + QString::number(x.bound)));
    }
}

void TestSmallDbSession::refusalMidStreamKeepsWhatWasReleased()
{
    // A basic filter holding ε = 0.8: the geometric schedule's first epochs (0.5, 0.25, …) fit, then
    // one is refused.
    auto s = openSession(filters::FilterKind::Basic, 0.8);
    auto e = s->ask(request(smalldbSessionLine()));
    QVERIFY2(e.ok(), e ? "" : e.error().message.c_str());
    QCOMPARE(e->status, EventStatus::Released);
    const auto &r = *e->growingRecord();
    const auto plan = epochs();
    QVERIFY2(!r.epochs.empty() && r.epochs.size() < 5, qPrintable(QString::number(r.epochs.size())));
    QCOMPARE(r.refusedEpoch, std::optional<std::uint64_t>(r.epochs.size()));
    QVERIFY(s->filter().spent() <= 0.8);
    QVERIFY(std::abs(s->filter().spent() - e->cost) < 1e-12);
    QVERIFY(e->cost + plan[r.epochs.size()].privacy.epsilon > 0.8);
    QVERIFY2(QString::fromStdString(e->reason).startsWith(QStringLiteral("epoch ")), e->reason.c_str());
    QVERIFY2(QString::fromStdString(e->reason).endsWith(
                 QString::fromStdString(session::releasedBefore(r.epochs.size(), "epoch"))),
             e->reason.c_str());
    QVERIFY(session::auditGrowingEvent(*e, *cps(), s->settings()).ok());
    // A zCDP schedule under a basic filter: refused naming schedule.kind, nothing spent.
    auto basic = openSession(filters::FilterKind::Basic, 1.0);
    auto refused = basic->ask(request(smalldbSessionLine(
        R"("budget":{"kind":"zcdp","rho":0.5},)", R"("schedule":{"kind":"zcdp-geometric","gamma":1},)")));
    QVERIFY(!refused.ok());
    QVERIFY2(QString::fromStdString(refused.error().message)
                 .contains(QStringLiteral("schedule.kind: 'zcdp-geometric' charges ρ")),
             refused.error().message.c_str());
    QCOMPARE(basic->filter().spent(), 0.0);
}

void TestSmallDbSession::transcriptRoundTripAndAudit()
{
    auto s = openSession(filters::FilterKind::Basic, 2.0);
    auto e = s->ask(request(smalldbSessionLine()));
    QVERIFY(e.ok());
    std::vector<session::LedgerEvent> events;
    for (const auto &event : s->events()) {
        auto back = io::eventFromJson(nlohmann::json::parse(io::eventToJson(event, s->filter()).dump()),
                                      events.size());
        QVERIFY2(back.ok(), back ? "" : back.error().message.c_str());
        events.push_back(*back);
    }
    const auto &g = events[0];
    QCOMPARE(g.request.growing()->algorithm, session::GrowingAlgorithm::SmallDb);
    QCOMPARE(g.request.growing()->smallDbSize, std::uint64_t{8});
    QCOMPARE(g.request.growing()->schedule, growing::ScheduleKind::Geometric);
    QCOMPARE(g.growingRecord()->epochs[3].cells, e->growingRecord()->epochs[3].cells);
    QCOMPARE(g.growingRecord()->epochs[3].answers, e->growingRecord()->epochs[3].answers);
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
    edited.attempts[1].cost = 0.01; // an epoch charged less than its ε_i
    check(edited, "epoch 1: it charged ε = 0.01, but its schedule gives");
    edited = *e;
    edited.growingRecord()->epochs[2].epsilon = 0.9;
    check(edited, "epoch 2: it records ε = 0.9");
    edited = *e;
    edited.growingRecord()->epochs[0].cells[0] += 1; // nine rows
    check(edited, "epoch 0: its synthetic database is not 8 elements");
    edited = *e;
    edited.growingRecord()->epochs[0].answers[0] += 0.125;
    edited.attempts[0].releases[0].value += 0.125;
    check(edited, "epoch 0: its released answers are not its synthetic database's");
    edited = *e;
    edited.request.growing()->smallDbSize = 6;
    check(edited, "epoch 0: its synthetic database is not 6 elements");
}

void TestSmallDbSession::epochsFeedTheComparison()
{
    auto s = openSession(filters::FilterKind::Basic, 2.0);
    auto e = s->ask(request(smalldbSessionLine()));
    QVERIFY(e.ok());
    std::vector<std::size_t> origin;
    auto ledger = accounting::ledgerFromSession(*s, &origin);
    QVERIFY2(ledger.ok(), ledger ? "" : ledger.error().message.c_str());
    QCOMPARE(ledger->events.size(), std::size_t{5});
    QCOMPARE(origin, std::vector<std::size_t>(5, 0));
    for (std::size_t i = 0; i < 5; ++i) {
        QCOMPARE(ledger->events[i].mechanism, accounting::MechanismKind::PureDp);
        QCOMPARE(ledger->events[i].epsilon, e->attempts[i].cost);
    }
}

void TestSmallDbSession::badValuesSpendNothing()
{
    const struct
    {
        std::string text;
        const char *field;
    } bad[] = {
        // C(16+12−1, 12) = 17,383,860 candidates > 5·10⁶.
        {smalldbSessionLine(R"("budget":{"kind":"pure","epsilon":1},)",
                            R"("schedule":{"kind":"geometric","gamma":1},)", R"("black_box":{"m":12}})"),
         "SMALLDB_TOO_LARGE: black_box.m"},
        {smalldbSessionLine(R"("budget":{"kind":"pure","epsilon":1},)",
                            R"("schedule":{"kind":"geometric","gamma":1},)",
                            R"("black_box":{"kind":"smalldb"}})"),
         "INVALID_BLACK_BOX: black_box.m"},
        {smalldbSessionLine(R"("budget":{"kind":"pure","epsilon":1},)",
                            R"("schedule":{"kind":"geometric","gamma":1},)",
                            R"("black_box":{"m":8,"queries":28}})"),
         "unknown field 'queries'"},
        {smalldbSessionLine(R"("budget":{"kind":"pure","epsilon":1},)",
                            R"("schedule":{"kind":"geometric","gamma":1},)",
                            R"("black_box":{"kind":"laplace-k","m":8}})"),
         "INVALID_BLACK_BOX: black_box.kind"},
        {smalldbSessionLine(R"("budget":{"kind":"zcdp","rho":0.5},)"), "INVALID_SCHEDULE: schedule.kind"},
        {smalldbSessionLine(R"("budget":{"kind":"pure","epsilon":1},)",
                            R"("schedule":{"kind":"geometric","gamma":"optimal"},)"),
         "INVALID_GAMMA: schedule.gamma"},
        {smalldbSessionLine(R"("budget":{"kind":"pure","epsilon":-1},)"), "INVALID_BUDGET: budget.epsilon"},
    };
    for (const auto &b : bad) {
        auto r = io::readRequestLine(b.text, 1);
        QVERIFY2(!r.ok(), b.field);
        QVERIFY2(QString::fromStdString(r.error().message).contains(QString::fromUtf8(b.field)),
                 r.error().message.c_str());
    }
    // A request built in code with m = 12 (no reader in between): ask refuses it before charging.
    auto s = openSession(filters::FilterKind::Basic, 2.0);
    auto big = request(smalldbSessionLine());
    big.growing()->smallDbSize = 12;
    auto e = s->ask(big);
    QVERIFY(!e.ok());
    QVERIFY2(
        QString::fromStdString(e.error().message).contains(QStringLiteral("SMALLDB_TOO_LARGE: black_box.m")),
        e.error().message.c_str());
    QCOMPARE(e.error().code, ErrorCode::ResourceLimit);
    QVERIFY(s->events().empty());
    QCOMPARE(s->filter().spent(), 0.0);
}

QTEST_GUILESS_MAIN(TestSmallDbSession)
#include "tst_smalldbsession.moc"
