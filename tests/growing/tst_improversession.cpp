// SPDX-License-Identifier: MIT
// BBImprover streams in a session (core/session/growing_release.h; Cummings, Krehbiel, Lai &
// Tantipongpipat 2018, §3.2): every run is one ρ_t charge to the session's filter, bit for bit
// growing::BBImprover::step(t).rho, the charges sum to at most the stream's ρ, a refusal mid-stream
// keeps what was released, the record survives a transcript round trip, the audit catches edits,
// the comparison ledger gets one pure ε_t event per run, and bad values are refused naming the
// field with nothing spent (docs/growing-databases.md, "In a session").
#include "core/accounting/basic_composition.h"
#include "core/data/predicate.h"
#include "core/growing/bb_improver.h"
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
const std::string kImproverBlackBox
    = ",\"black_box\":{\"kind\":\"laplace-k\",\"queries\":[\"region == \\\"south\\\"\","
      "\"ethnicity == \\\"afam\\\"\"]}}";

/// A bbimprover line: ρ = 0.5 over t = 1000 … 28155, a = 0.1, a run every 100 rows.
std::string improverSessionLine(const std::string &budget = R"("budget":{"kind":"zcdp","rho":0.5},)",
                                const std::string &schedule = R"("schedule":{"a":0.1,"every":100})",
                                const std::string &stream = R"({"start_size":1000,"end":28155,"seed":7})")
{
    return R"({"id":"i","type":"growing","algorithm":"bbimprover","stream":)" + stream + "," + budget
           + schedule + kImproverBlackBox;
}

growing::BBImprover sessionImprover(double rho = 0.5)
{
    growing::ImproverConfig c;
    c.startSize = 1000;
    c.decay = 0.1;
    c.every = 100;
    c.budget = growing::Budget{growing::BudgetKind::Zcdp, 1.0, rho};
    c.box.kind = growing::BlackBoxKind::LaplaceK;
    c.box.queries = 2;
    return std::move(*growing::BBImprover::create(c));
}

} // namespace

class TestImproverSession : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void runsChargeTheImproversRho();
    void answersAreNearTheTruth();
    void refusalMidStreamKeepsWhatWasReleased();
    void transcriptRoundTripAndRestore();
    void auditCatchesEdits();
    void runsFeedTheComparison();
    void badValuesSpendNothing();
};

void TestImproverSession::runsChargeTheImproversRho()
{
    auto s = openSession(filters::FilterKind::Zcdp, 10.0);
    auto e = s->ask(request(improverSessionLine()));
    QVERIFY2(e.ok(), e ? "" : e.error().message.c_str());
    QCOMPARE(e->status, EventStatus::Released);
    QCOMPARE(e->mechanismName(), std::string("bbimprover"));
    QCOMPARE(e->costKind, filters::ChargeKind::Rho);
    const auto &r = *e->growingRecord();
    // Runs at t = 1000, 1100, …, 28100: (28155 − 1000)/100 + 1 = 272.
    QCOMPARE(r.plannedEpochs, std::uint64_t{272});
    QCOMPARE(r.epochs.size(), std::size_t{272});
    QCOMPARE(e->attempts.size(), std::size_t{272});
    const auto b = sessionImprover();
    QCOMPARE(r.seriesTotal, 0.5);
    double sum = 0.0;
    for (std::size_t j = 0; j < r.epochs.size(); ++j) {
        const std::uint64_t t = 1000 + 100 * j;
        const auto step = b.step(t);
        QCOMPARE(r.epochs[j].start, t);
        QCOMPARE(r.epochs[j].rho, step.rho); // bit for bit: the improver's rounded-down ρ_t
        QCOMPARE(e->attempts[j].cost, step.rho);
        QCOMPARE(r.epochs[j].epsilon, step.epsilon);
        QVERIFY(step.epsilon * step.epsilon / 2.0 <= step.rho);
        // Laplace-k at k/(ε_t t), rounded up.
        QVERIFY(r.epochs[j].scale >= 2.0 / (step.epsilon * double(t)));
        sum += step.rho;
    }
    // ρ_1000 = 100 · 0.5/(Z · 1099^1.1) with Z = 5.012374.
    QVERIFY(std::abs(r.epochs[0].rho - 50.0 / (5.012374 * std::pow(1099.0, 1.1))) < 1e-8);
    QCOMPARE(r.epochs.back().start, std::uint64_t{28100});
    QCOMPARE(r.epochs.back().last, std::uint64_t{28155}); // the last block is cut at the end
    QVERIFY(e->cost >= sum);
    QVERIFY(std::abs(e->cost - sum) < 1e-12);
    // The runs charge at most the series ρ, and at most the improver's cumulative bound up to T.
    QVERIFY(e->cost <= 0.5);
    QVERIFY(e->cost <= b.cumulative(28199));
    QVERIFY2(std::abs(e->cost - 0.13959) < 1e-5, qPrintable(QString::number(e->cost, 'g', 17)));
    QVERIFY(std::abs(s->filter().spent() - e->cost) < 1e-12);
    QVERIFY2(QString::fromStdString(session::growingEpochLabel(*e, 3))
                 .startsWith(QStringLiteral("BBImprover run 3 of 272: t = 1300, ρ = 0.00")),
             session::growingEpochLabel(*e, 3).c_str());
    QVERIFY(session::auditGrowingEvent(*e, *cps(), s->settings()).ok());
    // An approx budget runs at the ρ its (ε, δ) converts to (growing::zcdpBudget), charged the same way.
    auto a = openSession(filters::FilterKind::Zcdp, 10.0);
    auto approx = a->ask(request(improverSessionLine(
        R"("budget":{"kind":"approx","epsilon":1,"delta":1e-6,"conversion":"simple"},)")));
    QVERIFY2(approx.ok(), approx ? "" : approx.error().message.c_str());
    QCOMPARE(approx->costKind, filters::ChargeKind::Rho);
    QVERIFY(approx->growingRecord()->seriesTotal > 0.0 && approx->growingRecord()->seriesTotal < 0.5);
    QVERIFY(approx->cost <= approx->growingRecord()->seriesTotal);
}

void TestImproverSession::answersAreNearTheTruth()
{
    auto s = openSession(filters::FilterKind::Zcdp, 10.0);
    auto e = s->ask(request(improverSessionLine()));
    QVERIFY(e.ok());
    const auto fraction = [](const char *text) {
        auto p = data::Predicate::compile(text, *cps());
        return double(p->countMatches(pbx::test::PublicRows(*cps()))) / double(cps()->rowCount());
    };
    const double south = fraction("region == \"south\"");
    // The last runs see ~28,000 rows: the noise (scale ≲ 0.002) and the prefix's sampling error
    // stay well below 0.03, and below the run's bound.
    const auto &last = e->growingRecord()->epochs.back();
    QVERIFY2(std::abs(last.answers[0] - south) < 0.03, qPrintable(QString::number(last.answers[0])));
    QVERIFY(std::abs(last.answers[0] - south) < last.bound);
    // The bound improves as rows accumulate (the point of BBImprover).
    QVERIFY(last.bound < e->growingRecord()->epochs.front().bound);
}

void TestImproverSession::refusalMidStreamKeepsWhatWasReleased()
{
    // A zCDP filter from ε = 1, δ = 1e-6 holds less ρ than the stream's runs would charge.
    SessionSettings settings;
    settings.epsilon = 1.0;
    settings.delta = 1e-6;
    settings.filter = filters::FilterKind::Zcdp;
    settings.neighbours = data::Neighbouring::Replace;
    settings.seed = 11;
    auto created = Session::create(cps(), settings);
    auto s = std::move(created.value());
    const double budget = s->filter().remaining();
    QVERIFY(budget < 0.13959);
    auto e = s->ask(request(improverSessionLine()));
    QVERIFY(e.ok());
    QCOMPARE(e->status, EventStatus::Released);
    const auto &r = *e->growingRecord();
    QVERIFY(!r.epochs.empty() && r.epochs.size() < 272);
    QCOMPARE(r.refusedEpoch, std::optional<std::uint64_t>(r.epochs.size()));
    QVERIFY(std::abs(s->filter().spent() - e->cost) < 1e-12);
    QVERIFY(s->filter().spent() <= budget);
    // The refused run would not have fit.
    QVERIFY(e->cost + sessionImprover().step(1000 + 100 * r.epochs.size()).rho > budget);
    QVERIFY(QString::fromStdString(e->reason).contains(QStringLiteral(") refused: ")));
    QVERIFY(QString::fromStdString(e->reason).startsWith(QStringLiteral("run ")));
    QVERIFY(!e->targetMet);
    QVERIFY(session::auditGrowingEvent(*e, *cps(), s->settings()).ok());
    // A pure filter cannot take ρ: refused before anything is spent.
    auto basic = openSession(filters::FilterKind::Basic, 1.0);
    auto refused = basic->ask(request(improverSessionLine()));
    QVERIFY(!refused.ok());
    QVERIFY2(QString::fromStdString(refused.error().message)
                 .contains(QStringLiteral("algorithm: 'bbimprover' charges ρ")),
             refused.error().message.c_str());
    QCOMPARE(basic->filter().spent(), 0.0);
}

void TestImproverSession::transcriptRoundTripAndRestore()
{
    auto s = openSession(filters::FilterKind::Zcdp, 10.0);
    auto e = s->ask(request(improverSessionLine()));
    QVERIFY(e.ok());
    std::vector<session::LedgerEvent> events;
    for (const auto &event : s->events()) {
        const auto json = io::eventToJson(event, s->filter());
        auto back = io::eventFromJson(nlohmann::json::parse(json.dump()), events.size());
        QVERIFY2(back.ok(), back ? "" : back.error().message.c_str());
        events.push_back(*back);
    }
    const auto &g = events[0];
    QCOMPARE(g.request.growing()->algorithm, session::GrowingAlgorithm::BBImprover);
    QCOMPARE(g.request.growing()->decay, 0.1);
    QCOMPARE(g.request.growing()->every, std::uint64_t{100});
    QCOMPARE(g.growingRecord()->epochs.size(), std::size_t{272});
    QCOMPARE(g.growingRecord()->epochs[100].answers, e->growingRecord()->epochs[100].answers);
    QCOMPARE(g.attempts[100].cost, e->attempts[100].cost);
    auto audited = session::auditLedger(cps(), s->settings(), events);
    QVERIFY2(audited.ok(), audited ? "" : audited.error().message.c_str());
    QCOMPARE((*audited)->filter().spent(), s->filter().spent());
}

void TestImproverSession::auditCatchesEdits()
{
    auto s = openSession(filters::FilterKind::Zcdp, 10.0);
    auto e = s->ask(request(improverSessionLine()));
    QVERIFY(e.ok());
    const auto check = [&](session::LedgerEvent edited, const char *needle) {
        auto audited = session::auditGrowingEvent(edited, *cps(), s->settings());
        QVERIFY2(!audited.ok(), needle);
        QVERIFY2(QString::fromStdString(audited.error().message).contains(QString::fromUtf8(needle)),
                 audited.error().message.c_str());
    };
    auto edited = *e;
    edited.attempts[2].cost = 1e-6; // a run charged less than its ρ_t
    check(edited, "run 2: it charged ρ = 1e-06, but its schedule gives");
    edited = *e;
    edited.growingRecord()->epochs[1].rho = 0.5;
    check(edited, "run 1: it records ε =");
    edited = *e;
    edited.cost = 0.1;
    check(edited, "not the recorded cost 0.1");
    edited = *e;
    edited.growingRecord()->epochs.pop_back();
    edited.attempts.pop_back();
    check(edited, "stops after 271 of 272 runs without a refusal");
    edited = *e;
    edited.growingRecord()->epochs[0].scale = 1e-5; // less noise than ε_t allows
    check(edited, "run 0: its noise scale or bound");
    edited = *e;
    edited.request.growing()->every = 50; // the parameters no longer give the recorded plan
    check(edited, "its plan");
    edited = *e;
    edited.growingRecord()->seriesTotal = 1.0;
    check(edited, "its series total 1");
}

void TestImproverSession::runsFeedTheComparison()
{
    auto s = openSession(filters::FilterKind::Zcdp, 10.0);
    auto e = s->ask(request(improverSessionLine()));
    QVERIFY(e.ok());
    std::vector<std::size_t> origin;
    auto ledger = accounting::ledgerFromSession(*s, &origin);
    QVERIFY2(ledger.ok(), ledger ? "" : ledger.error().message.c_str());
    QCOMPARE(ledger->events.size(), std::size_t{272});
    QCOMPARE(origin, std::vector<std::size_t>(272, 0));
    double epsilonSum = 0.0;
    for (std::size_t j = 0; j < 272; ++j) {
        // The box is ε_t-DP (pure), which implies the filter's ρ_t: the sounder, tighter record.
        QCOMPARE(ledger->events[j].mechanism, accounting::MechanismKind::PureDp);
        QCOMPARE(ledger->events[j].epsilon, e->growingRecord()->epochs[j].epsilon);
        QVERIFY(ledger->events[j].epsilon * ledger->events[j].epsilon / 2.0 <= e->attempts[j].cost);
        epsilonSum += ledger->events[j].epsilon;
    }
    auto basic = accounting::BasicComposition::fromLedger(*ledger);
    QVERIFY(basic.ok());
    auto total = basic.value()->epsilonForDelta(1e-6);
    QVERIFY(total.ok());
    QVERIFY(total->epsilon >= epsilonSum - 1e-9);
    QVERIFY(std::abs(total->epsilon - epsilonSum) < 1e-9);
}

void TestImproverSession::badValuesSpendNothing()
{
    const struct
    {
        std::string text;
        const char *field;
    } bad[] = {
        {improverSessionLine(R"("budget":{"kind":"pure","epsilon":0.5},)"), "INVALID_SCHEDULE: budget.kind"},
        {improverSessionLine(R"("budget":{"kind":"zcdp","rho":0.5},)", R"("schedule":{"a":1.5,"every":100})"),
         "INVALID_DECAY: schedule.a"},
        {improverSessionLine(R"("budget":{"kind":"zcdp","rho":0.5},)", R"("schedule":{"a":0.1,"every":0})"),
         "INVALID_CONFIG: schedule.every"},
        {improverSessionLine(R"("budget":{"kind":"zcdp","rho":0.5},)",
                             R"("schedule":{"kind":"geometric","gamma":1})"),
         "unknown field 'kind'"},
        {improverSessionLine(R"("budget":{"kind":"zcdp","rho":-1},)"), "INVALID_BUDGET: budget.rho"},
        {R"({"type":"growing","algorithm":"pmw","stream":{"start_size":14000},"budget":{"kind":"pure","epsilon":1}})",
         "INVALID_CONFIG: algorithm"},
    };
    for (const auto &b : bad) {
        auto r = io::readRequestLine(b.text, 1);
        QVERIFY2(!r.ok(), b.field);
        QVERIFY2(QString::fromStdString(r.error().message).contains(QString::fromUtf8(b.field)),
                 r.error().message.c_str());
    }
    // Parses, but a run every row would record 27,156 runs: refused by ask, nothing spent.
    auto s = openSession(filters::FilterKind::Zcdp, 10.0);
    auto e = s->ask(request(
        improverSessionLine(R"("budget":{"kind":"zcdp","rho":0.5},)", R"("schedule":{"a":0.1,"every":1})")));
    QVERIFY(!e.ok());
    QVERIFY2(
        QString::fromStdString(e.error().message).contains(QStringLiteral("INVALID_CONFIG: schedule.every")),
        e.error().message.c_str());
    QVERIFY(QString::fromStdString(e.error().message).contains(QStringLiteral("27156 runs")));
    QVERIFY(s->events().empty());
    QCOMPARE(s->filter().spent(), 0.0);
    auto addRemove = openSession(filters::FilterKind::Zcdp, 10.0, data::Neighbouring::AddRemove);
    auto n = addRemove->ask(request(improverSessionLine()));
    QVERIFY(!n.ok());
    QVERIFY(
        QString::fromStdString(n.error().message).contains(QStringLiteral("GROWING_NEIGHBOURS_UNSUPPORTED")));
}

QTEST_GUILESS_MAIN(TestImproverSession)
#include "tst_improversession.moc"
