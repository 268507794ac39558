// SPDX-License-Identifier: MIT
// Growing-database streams in a session (core/session/growing_release.h): every BBScheduler epoch
// is one charge to the session's filter with exactly the schedule's ε_i (or ρ_i), a refusal
// mid-stream keeps what was released, the record survives a transcript round trip and restore,
// the audit catches edited costs, and hostile values are refused naming the field with nothing
// spent (Cummings et al. 2018, §3.1; docs/growing-databases.md, "In a session").
#include "core/accounting/basic_composition.h"
#include "core/data/predicate.h"
#include "core/growing/privacy_schedule.h"
#include "core/io/event_json.h"
#include "core/io/request_json.h"
#include "core/session/growing/growing_release.h"
#include "core/session/ledger/cost_audit.h"
#include "core/session/ledger/session_ledger.h"
#include "core/session/session.h"
#include "resources/dataset_catalog.h"
#include "tests/growing/growing_session_fixture.h"
#include "tests/test_rows.h"
#include "tests/testutils.h"

using namespace pbx;
using growing_fixture::cps;
using growing_fixture::openSession;
using growing_fixture::request;
using session::EventStatus;
using session::QueryRequest;
using session::Session;
using session::SessionSettings;

namespace {

// (Plain strings: moc's lexer does not follow a backslash inside a raw string.)
const std::string kGrowingBlackBox
    = ",\"black_box\":{\"kind\":\"laplace-k\",\"queries\":[\"region == \\\"south\\\"\","
      "\"ethnicity == \\\"afam\\\"\"]}}";

/// A request line; `extra` replaces the budget/schedule part.
std::string growingSessionLine(const std::string &budgetAndSchedule
                               = R"("budget":{"kind":"pure","epsilon":0.5},)"
                                 R"("schedule":{"kind":"geometric","gamma":1})",
                               const std::string &stream = R"({"start_size":1000,"end":28155,"seed":7})")
{
    return R"({"id":"g","type":"growing","algorithm":"bbscheduler","stream":)" + stream + ","
           + budgetAndSchedule + kGrowingBlackBox;
}

} // namespace

class TestGrowingSession : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void pureEpochsAreChargedExactly();
    void zcdpEpochsChargeRho();
    void answersAreSeededAndNearTheTruth();
    void refusalMidStreamKeepsWhatWasReleased();
    void refusalOfTheFirstEpochSpendsNothing();
    void transcriptRoundTripAndRestore();
    void auditCatchesEdits();
    void hostileValuesSpendNothing();
    void epochsFeedTheComparison();
};

void TestGrowingSession::pureEpochsAreChargedExactly()
{
    auto s = openSession(filters::FilterKind::Basic, 1.0);
    auto e = s->ask(request(growingSessionLine()));
    QVERIFY2(e.ok(), e ? "" : e.error().message.c_str());
    QCOMPARE(e->status, EventStatus::Released);
    QVERIFY(e->growingRecord());
    const auto &r = *e->growingRecord();
    // n = 1000, γ = 1, end = 28,155: epochs at 1000, 2000, 4000, 8000, 16000.
    QCOMPARE(r.plannedEpochs, std::uint64_t{5});
    QCOMPARE(r.epochs.size(), std::size_t{5});
    QCOMPARE(e->attempts.size(), std::size_t{5});
    auto schedule = growing::PrivacySchedule::create(growing::ScheduleKind::Geometric, 1.0,
                                                     growing::Budget{growing::BudgetKind::Pure, 0.5}, 0.05);
    QVERIFY(schedule.ok());
    const std::uint64_t starts[] = {1000, 2000, 4000, 8000, 16000};
    double sum = 0.0;
    for (std::size_t i = 0; i < 5; ++i) {
        const auto p = schedule->next();
        QCOMPARE(r.epochs[i].start, starts[i]);
        QCOMPARE(r.epochs[i].epsilon, p.epsilon); // bit for bit: the schedule's rounded-down ε_i
        QCOMPARE(e->attempts[i].cost, p.epsilon);
        QVERIFY(std::abs(p.epsilon - 0.5 / std::pow(2.0, double(i + 1))) < 1e-12);
        // The Laplace-k scale k/(ε_i t_i) = 2/(ε_i t_i) = 0.008, rounded up.
        QVERIFY(r.epochs[i].scale >= 2.0 / (p.epsilon * double(starts[i])));
        QVERIFY(std::abs(r.epochs[i].scale - 0.008) < 1e-12);
        sum += p.epsilon;
    }
    QCOMPARE(r.epochs.back().last, std::uint64_t{28155});
    QVERIFY(std::abs(e->cost - 0.484375) < 1e-12);
    QVERIFY(e->cost >= sum);
    QCOMPARE(s->filter().spent(), e->cost);
    QVERIFY(std::abs(r.seriesTotal - 0.5) < 1e-12);
    QCOMPARE(session::growingEpochLabel(*e, 3),
             std::string("BBScheduler epoch 3 of 5: t = 8000, ε = 0.03125"));
    QVERIFY(session::auditGrowingEvent(*e, *cps(), s->settings()).ok());
}

void TestGrowingSession::zcdpEpochsChargeRho()
{
    auto s = openSession(filters::FilterKind::Zcdp, 1.0);
    auto e = s->ask(request(growingSessionLine(R"("budget":{"kind":"zcdp","rho":0.01},)"
                                               R"("schedule":{"kind":"zcdp-equalised","gamma":1})")));
    QVERIFY2(e.ok(), e ? "" : e.error().message.c_str());
    QCOMPARE(e->costKind, filters::ChargeKind::Rho);
    auto schedule
        = growing::PrivacySchedule::create(growing::ScheduleKind::ZcdpEqualised, 1.0,
                                           growing::Budget{growing::BudgetKind::Zcdp, 1.0, 0.01}, 0.05);
    for (std::size_t i = 0; i < 5; ++i) {
        const auto p = schedule->next();
        QCOMPARE(e->attempts[i].cost, p.rho);
        QCOMPARE(e->growingRecord()->epochs[i].epsilon, p.epsilon);
        // ρ_i = ρ(1 − r²) r^{2i} with r = ½: 0.0075, 0.001875, …; the box's ε_i²/2 ≤ ρ_i.
        QVERIFY(std::abs(p.rho - 0.0075 / std::pow(4.0, double(i))) < 1e-12);
        QVERIFY(p.epsilon * p.epsilon / 2.0 <= p.rho);
    }
    QVERIFY(std::abs(s->filter().spent() - e->cost) < 1e-15);
    QVERIFY(e->cost < 0.01);
    // A pure schedule under the zCDP filter is admitted as ρ = ε_i²/2 per epoch.
    auto z = openSession(filters::FilterKind::Zcdp, 3.0); // ρ ≈ 0.15 holds ε_0²/2 = 0.03125
    auto pure = z->ask(request(growingSessionLine()));
    QVERIFY(pure.ok());
    QCOMPARE(pure->costKind, filters::ChargeKind::PureEpsilon);
    QCOMPARE(pure->attempts.size(), std::size_t{5});
    QVERIFY(std::abs(z->filter().spent() - session::rhoChargedForPureEvent(*pure)) < 1e-15);
    // Σ ε_i²/2 over ε_i = 0.25 … 0.015625 (each nudged up by the filter).
    const double expected = (0.0625 + 0.015625 + 0.00390625 + 0.0009765625 + 0.000244140625) / 2.0;
    QVERIFY2(std::abs(z->filter().spent() - expected) < 1e-9,
             qPrintable(QString::number(z->filter().spent(), 'g', 17)));
}

void TestGrowingSession::answersAreSeededAndNearTheTruth()
{
    auto a = openSession(filters::FilterKind::Basic, 1.0);
    auto b = openSession(filters::FilterKind::Basic, 1.0);
    auto ea = a->ask(request(growingSessionLine()));
    auto eb = b->ask(request(growingSessionLine()));
    QVERIFY(ea.ok() && eb.ok());
    for (std::size_t i = 0; i < 5; ++i)
        QCOMPARE(ea->growingRecord()->epochs[i].answers, eb->growingRecord()->epochs[i].answers);
    // Each answer near the whole table's fraction: Laplace noise of scale 0.008 plus the sampling
    // error of a random prefix of ≥ 1000 rows (sd ≤ 0.016) stay far below 0.08, and within the
    // epoch's bound α_i + s_i (which holds with probability ≥ 0.95 for any arrival order).
    const auto fraction = [](const char *text) {
        auto p = data::Predicate::compile(text, *cps());
        return double(p->countMatches(pbx::test::PublicRows(*cps()))) / double(cps()->rowCount());
    };
    const double south = fraction("region == \"south\"");
    const double afam = fraction("ethnicity == \"afam\"");
    QVERIFY(south > 0.25 && south < 0.4);
    for (const auto &x : ea->growingRecord()->epochs) {
        QVERIFY(std::abs(x.answers[0] - south) < 0.08);
        QVERIFY(std::abs(x.answers[1] - afam) < 0.08);
        QVERIFY(std::abs(x.answers[0] - south) < x.bound);
    }
}

void TestGrowingSession::refusalMidStreamKeepsWhatWasReleased()
{
    // Session ε = 0.4: epochs 0.25 + 0.125 = 0.375 fit; 0.0625 more would not.
    auto s = openSession(filters::FilterKind::Basic, 0.4);
    auto e = s->ask(request(growingSessionLine()));
    QVERIFY(e.ok());
    QCOMPARE(e->status, EventStatus::Released);
    QCOMPARE(e->growingRecord()->epochs.size(), std::size_t{2});
    QCOMPARE(e->growingRecord()->refusedEpoch, std::optional<std::uint64_t>(2));
    QVERIFY(std::abs(e->cost - 0.375) < 1e-12);
    QCOMPARE(s->filter().spent(), e->cost);
    QVERIFY(QString::fromStdString(e->reason).contains(QStringLiteral("epoch 2 (t = 4000) refused")));
    QVERIFY(!e->targetMet);
    QVERIFY(session::auditGrowingEvent(*e, *cps(), s->settings()).ok());
    // The rest of the budget is still there for other requests.
    QVERIFY(std::abs(s->filter().remaining() - 0.025) < 1e-12);
}

void TestGrowingSession::refusalOfTheFirstEpochSpendsNothing()
{
    auto s = openSession(filters::FilterKind::Basic, 0.2);
    auto e = s->ask(request(growingSessionLine()));
    QVERIFY(e.ok());
    QCOMPARE(e->status, EventStatus::Refused);
    QCOMPARE(e->cost, 0.0);
    QVERIFY(e->attempts.empty());
    QCOMPARE(s->filter().spent(), 0.0);
    QVERIFY(session::auditGrowingEvent(*e, *cps(), s->settings()).ok());
}

void TestGrowingSession::transcriptRoundTripAndRestore()
{
    auto s = openSession(filters::FilterKind::Basic, 0.4);
    auto e = s->ask(request(growingSessionLine()));
    auto q = s->ask(request(
        R"({"id":"c","aggregate":"count","target":{"kind":"absolute","error":2000},"mechanism":"laplace"})"));
    QVERIFY2(q.ok(), q ? "" : q.error().message.c_str());
    std::vector<session::LedgerEvent> events;
    for (const auto &event : s->events()) {
        const auto json = io::eventToJson(event, s->filter());
        auto back = io::eventFromJson(nlohmann::json::parse(json.dump()), events.size());
        QVERIFY2(back.ok(), back ? "" : back.error().message.c_str());
        events.push_back(*back);
    }
    const auto &g = events[0];
    QVERIFY(g.request.growing());
    QCOMPARE(g.request.growing()->queries, e->request.growing()->queries);
    QCOMPARE(g.request.growing()->orderSeed, std::optional<std::uint64_t>(7));
    QCOMPARE(g.growingRecord()->epochs.size(), std::size_t{2});
    QCOMPARE(g.growingRecord()->refusedEpoch, std::optional<std::uint64_t>(2));
    QCOMPARE(g.growingRecord()->epochs[1].answers, e->growingRecord()->epochs[1].answers);
    QCOMPARE(g.attempts[1].cost, e->attempts[1].cost);
    auto audited = session::auditLedger(cps(), s->settings(), events);
    QVERIFY2(audited.ok(), audited ? "" : audited.error().message.c_str());
    QCOMPARE((*audited)->filter().spent(), s->filter().spent());
}

void TestGrowingSession::auditCatchesEdits()
{
    auto s = openSession(filters::FilterKind::Basic, 1.0);
    auto e = s->ask(request(growingSessionLine()));
    QVERIFY(e.ok());
    const auto check = [&](session::LedgerEvent edited, const char *needle) {
        auto audited = session::auditGrowingEvent(edited, *cps(), s->settings());
        QVERIFY2(!audited.ok(), needle);
        QVERIFY2(QString::fromStdString(audited.error().message).contains(QString::fromUtf8(needle)),
                 audited.error().message.c_str());
    };
    auto edited = *e;
    edited.attempts[2].cost = 0.01; // an epoch charged less than its schedule
    check(edited, "epoch 2: it charged ε = 0.01, but its schedule gives 0.0625");
    edited = *e;
    edited.growingRecord()->epochs[1].epsilon = 0.5;
    check(edited, "epoch 1: it records ε = 0.5");
    edited = *e;
    edited.cost = 0.1;
    check(edited, "not the recorded cost 0.1");
    edited = *e;
    edited.growingRecord()->epochs.pop_back();
    edited.attempts.pop_back();
    check(edited, "stops after 4 of 5 epochs without a refusal");
    edited = *e;
    edited.growingRecord()->epochs[0].scale = 0.001; // less noise than ε_0 allows
    check(edited, "epoch 0: its noise scale or bound");
    edited = *e;
    edited.request.growing()->gamma = 0.5; // the parameters no longer give the recorded plan
    check(edited, "its plan");
    auto addRemove = s->settings();
    addRemove.neighbours = data::Neighbouring::AddRemove;
    QVERIFY(!session::auditGrowingEvent(*e, *cps(), addRemove).ok());
}

void TestGrowingSession::hostileValuesSpendNothing()
{
    const struct
    {
        std::string text;
        const char *field;
    } bad[] = {
        {growingSessionLine(
             R"("budget":{"kind":"pure","epsilon":0.5},"schedule":{"kind":"geometric","gamma":-1})"),
         "INVALID_GAMMA: schedule.gamma"},
        {growingSessionLine(
             R"("budget":{"kind":"pure","epsilon":0},"schedule":{"kind":"geometric","gamma":1})"),
         "INVALID_BUDGET: budget.epsilon"},
        {growingSessionLine(
             R"("budget":{"kind":"pure","epsilon":1e400},"schedule":{"kind":"geometric","gamma":1})"),
         "line 1"},
        {growingSessionLine(
             R"("budget":{"kind":"pure","epsilon":0.5},"schedule":{"kind":"zcdp-equalised","gamma":1})"),
         "INVALID_SCHEDULE: schedule.kind"},
        {growingSessionLine(
             R"("budget":{"kind":"pure","epsilon":0.5},"schedule":{"kind":"geometric","gamma":"optimal"})"),
         "INVALID_GAMMA: schedule.gamma"},
        {growingSessionLine(
             R"("budget":{"kind":"pure","epsilon":0.5},"schedule":{"kind":"geometric","gamma":1,"x":1})"),
         "unknown field 'x'"},
        {growingSessionLine(
             R"("budget":{"kind":"pure","epsilon":0.5},"schedule":{"kind":"geometric","gamma":1})",
             R"({"start_size":0})"),
         "INVALID_START_SIZE: stream.start_size"},
        {growingSessionLine(
             R"("budget":{"kind":"pure","epsilon":0.5},"schedule":{"kind":"geometric","gamma":1},"beta":2)"),
         "INVALID_BETA"},
        {growingSessionLine(
             R"("budget":{"kind":"pure","epsilon":0.5},"schedule":{"kind":"geometric","gamma":1},"repetitions":5)"),
         "unknown field 'repetitions'"},
    };
    for (const auto &b : bad) {
        auto r = io::readRequestLine(b.text, 1);
        QVERIFY2(!r.ok(), b.field);
        QVERIFY2(QString::fromStdString(r.error().message).contains(QString::fromUtf8(b.field)),
                 r.error().message.c_str());
    }
    // Requests that parse but do not fit the session or the table: refused by ask, nothing spent.
    const struct
    {
        std::string text;
        filters::FilterKind filter;
        data::Neighbouring neighbours;
        const char *field;
    } refused[] = {
        {growingSessionLine(), filters::FilterKind::Basic, data::Neighbouring::AddRemove,
         "GROWING_NEIGHBOURS_UNSUPPORTED"},
        {growingSessionLine(
             R"("budget":{"kind":"zcdp","rho":0.01},"schedule":{"kind":"zcdp-geometric","gamma":1})"),
         filters::FilterKind::Basic, data::Neighbouring::Replace,
         "schedule.kind: 'zcdp-geometric' charges ρ"},
        {growingSessionLine(
             R"("budget":{"kind":"pure","epsilon":0.5},"schedule":{"kind":"geometric","gamma":1})",
             R"({"start_size":1000,"end":99999})"),
         filters::FilterKind::Basic, data::Neighbouring::Replace, "INVALID_CONFIG: stream.end"},
        {growingSessionLine(
             R"("budget":{"kind":"pure","epsilon":0.5},"schedule":{"kind":"geometric","gamma":0.00001})",
             R"({"start_size":1,"end":28155})"),
         filters::FilterKind::Basic, data::Neighbouring::Replace, "INVALID_CONFIG: schedule.gamma"},
        {R"({"type":"growing","algorithm":"bbscheduler","stream":{"start_size":1000},"budget":{"kind":"pure","epsilon":0.5},)"
         R"("schedule":{"kind":"geometric","gamma":1},"black_box":{"kind":"laplace-k","queries":["education >= 16","nope == 1"]}})",
         filters::FilterKind::Basic, data::Neighbouring::Replace, "INVALID_BLACK_BOX: black_box.queries[1]"},
        {growingSessionLine(
             R"("budget":{"kind":"pure","epsilon":0.5},"schedule":{"kind":"geometric","gamma":1})",
             R"({"start_size":1000,"order":"sorted:nope == 1"})"),
         filters::FilterKind::Basic, data::Neighbouring::Replace, "stream.order"},
    };
    for (const auto &b : refused) {
        auto s = openSession(b.filter, 1.0, b.neighbours);
        auto e = s->ask(request(b.text));
        QVERIFY2(!e.ok(), b.field);
        QVERIFY2(QString::fromStdString(e.error().message).contains(QString::fromUtf8(b.field)),
                 e.error().message.c_str());
        QVERIFY(s->events().empty());
        QCOMPARE(s->filter().spent(), 0.0);
    }
}

QTEST_GUILESS_MAIN(TestGrowingSession)
void TestGrowingSession::epochsFeedTheComparison()
{
    // The session's ledger for the composition comparison: one pure ε_i event per released epoch
    // (with the count beside it), so basic composition gives back exactly what the filter spent.
    auto s = openSession(filters::FilterKind::Basic, 1.0);
    auto e = s->ask(request(growingSessionLine()));
    QVERIFY(e.ok());
    std::vector<std::size_t> origin;
    auto ledger = accounting::ledgerFromSession(*s, &origin);
    QVERIFY2(ledger.ok(), ledger ? "" : ledger.error().message.c_str());
    QCOMPARE(ledger->events.size(), std::size_t{5});
    QCOMPARE(origin, std::vector<std::size_t>(5, 0));
    for (std::size_t i = 0; i < 5; ++i) {
        QCOMPARE(ledger->events[i].mechanism, accounting::MechanismKind::PureDp);
        QCOMPARE(ledger->events[i].epsilon, e->growingRecord()->epochs[i].epsilon);
    }
    auto basic = accounting::BasicComposition::fromLedger(*ledger);
    QVERIFY(basic.ok());
    auto total = basic.value()->epsilonForDelta(1e-6);
    QVERIFY(total.ok());
    QVERIFY(total->epsilon >= 0.484375);
    QVERIFY(std::abs(total->epsilon - 0.484375) < 1e-12);
}

#include "tst_growingsession.moc"
