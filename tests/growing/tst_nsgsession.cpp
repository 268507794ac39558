// SPDX-License-Identifier: MIT
// NSG streams in a session (core/session/growing_nsg.h; Cummings, Krehbiel, Lai & Tantipongpipat
// 2018, §4): every sparse-vector round is charged when it opens with its whole worst case
// (7/3)f(s) (or ((7/3)f(s))²/2 as ρ), the charges are at least the rounds' realised losses and at
// most the stream's budget, a refusal mid-stream keeps what was released, the record survives a
// transcript round trip, the audit catches edits, and bad values are refused naming the field
// (docs/growing-databases.md, "In a session").
#include "core/accounting/basic_composition.h"
#include "core/growing/growing_svt.h"
#include "core/io/event_json.h"
#include "core/io/request_json.h"
#include "core/session/growing/growing_nsg.h"
#include "core/session/growing/growing_release.h"
#include "core/session/ledger/cost_audit.h"
#include "core/session/ledger/session_ledger.h"
#include "core/session/session.h"
#include "resources/dataset_catalog.h"
#include "tests/growing/growing_session_fixture.h"
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
const std::string kNsgQueries = "\"queries\":[\"region == \\\"south\\\"\",\"ethnicity == \\\"afam\\\"\"]";

/// An nsg line over t = 1000 … 28155: p = ½, T = 0.3, a time cap c₀ = 10, 40 checkpoints.
std::string nsgSessionLine(const std::string &budget = R"("budget":{"kind":"pure","epsilon":1})",
                           const std::string &cap = R"("cap":{"kind":"time","c0":10})",
                           const std::string &extra = "")
{
    return R"({"id":"s","type":"growing","algorithm":"nsg","stream":{"start_size":1000,"seed":7},)" + budget
           + R"(,"nsg":{"p":0.5,"T":0.3,)" + cap + ",\"checkpoints\":40," + kNsgQueries + "}" + extra + "}";
}

std::vector<std::uint64_t> nsgStarts(const session::NsgRecord &r)
{
    std::vector<std::uint64_t> s;
    for (const auto &round : r.rounds)
        s.push_back(round.start);
    return s;
}

std::vector<std::uint64_t> nsgHardTimes(const session::NsgRecord &r)
{
    std::vector<std::uint64_t> s;
    for (const auto &h : r.hard)
        s.push_back(h.time);
    return s;
}

} // namespace

class TestNsgSession : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void roundsAreChargedWhenTheyOpen();
    void zcdpRoundsChargeRho();
    void refusalMidStreamKeepsWhatWasReleased();
    void transcriptRoundTripAndAudit();
    void roundsFeedTheComparison();
    void badValuesSpendNothing();
};

void TestNsgSession::roundsAreChargedWhenTheyOpen()
{
    auto s = openSession(filters::FilterKind::Basic, 10.0);
    const auto req = request(nsgSessionLine());
    auto e = s->ask(req);
    QVERIFY2(e.ok(), e ? "" : e.error().message.c_str());
    QCOMPARE(e->status, EventStatus::Released);
    QCOMPARE(e->mechanismName(), std::string("nsg"));
    QCOMPARE(e->costKind, filters::ChargeKind::PureEpsilon);
    const auto &r = *e->growingRecord()->nsg;
    QCOMPARE(r.checkpoints.size(), std::size_t{40});
    QCOMPARE(r.checkpoints.front().time, std::uint64_t{1000});
    QCOMPARE(r.checkpoints.back().time, std::uint64_t{28155});
    QVERIFY(!r.hard.empty());
    QCOMPARE(e->attempts.size(), r.rounds.size());
    // σ_n: the lab's 0.071 (ε = 1, c₀ = 10, p = ½, n = 1000) scaled by (W + (4/3)f(n))/W = 72⅓/71.
    auto lab = growing::nsgNoiseUnit(*session::growingNsgConfig(*req.growing()));
    QVERIFY(lab.ok());
    QVERIFY(std::abs(lab->sigmaN - 0.071) < 1e-9);
    QVERIFY(r.sigmaN >= lab->sigmaN * (72.0 + 1.0 / 3.0) / 71.0);
    QVERIFY(std::abs(r.sigmaN - 0.071 * (217.0 / 213.0)) < 1e-9);
    const growing::NoiseUnit unit{1000, r.sigmaN, 0.5};
    // The charges' worst case is the budget (up to rounding up).
    QVERIFY(r.worstCase >= 1.0 - 1e-12 && r.worstCase <= 1.0 + 1e-12);
    double sum = 0.0;
    for (std::size_t i = 0; i < r.rounds.size(); ++i) {
        // (7/3)f(s_i), f(s) = 1/(sσ(s)) = (s/n)^{-½}/(nσ_n), bit for bit the session's charge.
        const double expected = 7.0 / 3.0 * unit.f(double(r.rounds[i].start));
        QVERIFY(std::abs(r.rounds[i].charge - expected) < 1e-12);
        QVERIFY(r.rounds[i].charge >= expected);
        QCOMPARE(e->attempts[i].cost, r.rounds[i].charge);
        QCOMPARE(r.rounds[i].charge, session::nsgRoundCharge(*req.growing(), unit, r.rounds[i].start).amount);
        if (i < r.hard.size()) {
            QCOMPARE(*r.rounds[i].halt, r.hard[i].time);
            // Never more ⊤ answers by t than the cap H(t).
            const growing::HardQueryCap cap{true, 10.0};
            QVERIFY(i + 1 <= cap.at(1000, r.hard[i].time));
            QVERIFY(std::abs(r.hard[i].scale - 3.0 * unit.sigma(double(r.hard[i].time))) < 1e-12);
        }
        sum += r.rounds[i].charge;
    }
    QVERIFY(std::abs(e->cost - sum) < 1e-12);
    QCOMPARE(s->filter().spent(), e->cost);
    QVERIFY(e->cost <= r.worstCase);
    // Never under-reported: at least the rounds' realised losses f(s_i) + (4/3)f(e_i) (NATG) …
    double realised = 0.0;
    for (const auto &round : growing::nsgRounds(unit, nsgStarts(r), nsgHardTimes(r)))
        realised += round.cost;
    QVERIFY2(e->cost >= realised,
             qPrintable(QString::number(e->cost) + QStringLiteral(" < ") + QString::number(realised)));
    // … and first round (7/3)f(n): σ_n's scaling pays exactly for that.
    QCOMPARE(r.rounds.front().start, std::uint64_t{1000});
    QVERIFY(session::auditGrowingEvent(*e, *cps(), s->settings()).ok());
    QVERIFY(QString::fromStdString(session::growingEpochLabel(*e, 0))
                .startsWith(QStringLiteral("NSG round 0: opened at t = 1000, ")));
}

void TestNsgSession::zcdpRoundsChargeRho()
{
    auto s = openSession(filters::FilterKind::Zcdp, 10.0);
    const auto req = request(nsgSessionLine(R"("budget":{"kind":"zcdp","rho":0.5})"));
    auto e = s->ask(req);
    QVERIFY2(e.ok(), e ? "" : e.error().message.c_str());
    QCOMPARE(e->costKind, filters::ChargeKind::Rho);
    const auto &r = *e->growingRecord()->nsg;
    // zCDP: the lab's σ_n as is; each round ((7/3)f(s_i))²/2, which sums to the lab's realised ρ.
    auto lab = growing::nsgNoiseUnit(*session::growingNsgConfig(*req.growing()));
    QCOMPARE(r.sigmaN, lab->sigmaN);
    const growing::NoiseUnit unit{1000, r.sigmaN, 0.5};
    for (const auto &round : r.rounds) {
        const double eps = 7.0 / 3.0 * unit.f(double(round.start));
        QVERIFY(round.charge >= eps * eps / 2.0);
        QVERIFY(std::abs(round.charge - eps * eps / 2.0) < 1e-12);
    }
    QVERIFY(std::abs(e->cost - growing::nsgRealisedRho(unit, nsgStarts(r))) < 1e-12);
    QVERIFY(e->cost <= r.worstCase);
    QVERIFY(std::abs(r.worstCase - 0.5) < 1e-9);
    QVERIFY(std::abs(s->filter().spent() - e->cost) < 1e-12);
    QVERIFY(session::auditGrowingEvent(*e, *cps(), s->settings()).ok());
    // A pure filter cannot take ρ: refused before anything is spent, naming the budget.
    auto basic = openSession(filters::FilterKind::Basic, 10.0);
    auto refused = basic->ask(req);
    QVERIFY(!refused.ok());
    QVERIFY2(QString::fromStdString(refused.error().message)
                 .contains(QStringLiteral("budget.kind: 'zcdp' charges ρ")),
             refused.error().message.c_str());
}

void TestNsgSession::refusalMidStreamKeepsWhatWasReleased()
{
    // ε = 0.05: the first round's (7/3)f(1000) ≈ 0.0322 fits, the second does not.
    auto s = openSession(filters::FilterKind::Basic, 0.05);
    auto e = s->ask(request(nsgSessionLine()));
    QVERIFY(e.ok());
    QCOMPARE(e->status, EventStatus::Released);
    const auto &r = *e->growingRecord();
    QCOMPARE(r.nsg->rounds.size(), std::size_t{1});
    QCOMPARE(r.refusedEpoch, std::optional<std::uint64_t>(1));
    QVERIFY(std::abs(e->cost - 7.0 / 3.0 / (1000.0 * r.nsg->sigmaN)) < 1e-9);
    QCOMPARE(s->filter().spent(), e->cost);
    QVERIFY(r.nsg->checkpoints.size() < 40);
    QVERIFY(QString::fromStdString(e->reason).startsWith(QStringLiteral("round 1 (t = ")));
    QVERIFY(QString::fromStdString(e->reason).contains(QStringLiteral("the round before it stays released")));
    QVERIFY(!e->targetMet);
    QVERIFY(session::auditGrowingEvent(*e, *cps(), s->settings()).ok());
    // Refused at the first round: nothing spent.
    auto none = openSession(filters::FilterKind::Basic, 0.02);
    auto n = none->ask(request(nsgSessionLine()));
    QVERIFY(n.ok());
    QCOMPARE(n->status, EventStatus::Refused);
    QCOMPARE(none->filter().spent(), 0.0);
    QVERIFY(session::auditGrowingEvent(*n, *cps(), none->settings()).ok());
}

void TestNsgSession::transcriptRoundTripAndAudit()
{
    auto s = openSession(filters::FilterKind::Basic, 10.0);
    auto e = s->ask(request(nsgSessionLine()));
    QVERIFY(e.ok());
    std::vector<session::LedgerEvent> events;
    for (const auto &event : s->events()) {
        auto back = io::eventFromJson(nlohmann::json::parse(io::eventToJson(event, s->filter()).dump()), 0);
        QVERIFY2(back.ok(), back ? "" : back.error().message.c_str());
        events.push_back(*back);
    }
    const auto &g = events[0];
    QCOMPARE(g.request.growing()->algorithm, session::GrowingAlgorithm::Nsg);
    QCOMPARE(g.request.growing()->nsgThreshold, 0.3);
    QCOMPARE(g.request.growing()->nsgCheckpoints, std::uint64_t{40});
    QCOMPARE(g.growingRecord()->nsg->rounds.size(), e->growingRecord()->nsg->rounds.size());
    QCOMPARE(g.growingRecord()->nsg->hard.back().answer, e->growingRecord()->nsg->hard.back().answer);
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
    edited.attempts[1].cost = 0.001;
    check(edited, "round 1: it charged ε = 0.001, but opening at t = ");
    edited = *e;
    edited.growingRecord()->nsg->rounds[1].charge = 0.001;
    check(edited, "round 1: it charged");
    edited = *e;
    edited.growingRecord()->nsg->sigmaN = 0.5; // more noise claimed than drawn
    check(edited, "its noise unit σ_n = 0.5");
    edited = *e;
    edited.cost = 0.01;
    check(edited, "not the recorded cost 0.01");
    edited = *e;
    edited.growingRecord()->nsg->checkpoints.pop_back();
    check(edited, "stops after 39 of 40 checkpoints");
    edited = *e;
    edited.growingRecord()->nsg->hard[0].scale = 1e-6;
    check(edited, "round 0: its numeric answer's noise scale");
}

void TestNsgSession::roundsFeedTheComparison()
{
    auto s = openSession(filters::FilterKind::Basic, 10.0);
    auto e = s->ask(request(nsgSessionLine()));
    QVERIFY(e.ok());
    auto ledger = accounting::ledgerFromSession(*s);
    QVERIFY2(ledger.ok(), ledger ? "" : ledger.error().message.c_str());
    const auto &rounds = e->growingRecord()->nsg->rounds;
    QCOMPARE(ledger->events.size(), rounds.size());
    for (std::size_t i = 0; i < rounds.size(); ++i) {
        QCOMPARE(ledger->events[i].mechanism, accounting::MechanismKind::PureDp);
        QCOMPARE(ledger->events[i].epsilon, rounds[i].charge);
    }
    auto basic = accounting::BasicComposition::fromLedger(*ledger);
    auto total = basic.value()->epsilonForDelta(1e-6);
    QVERIFY(total.ok());
    QVERIFY(std::abs(total->epsilon - e->cost) < 1e-12);
}

void TestNsgSession::badValuesSpendNothing()
{
    const struct
    {
        std::string text;
        const char *field;
    } bad[] = {
        {nsgSessionLine(R"("budget":{"kind":"pure","epsilon":1})", R"("cap":null)"), "CAP_REQUIRED: nsg.cap"},
        {nsgSessionLine(R"("budget":{"kind":"pure","epsilon":1})", R"("cap":{"kind":"time","c0":-1})"),
         "INVALID_CAP"},
        {nsgSessionLine(R"("budget":{"kind":"pure","epsilon":1})", R"("cap":{"kind":"time","c0":10,"x":1})"),
         "unknown field 'x'"},
        {nsgSessionLine(R"("budget":{"kind":"pure","epsilon":0})"), "INVALID_BUDGET: budget.epsilon"},
        {nsgSessionLine(R"("budget":{"kind":"pure","epsilon":1})", R"("cap":{"kind":"time","c0":10})",
                        R"(,"black_box":{"kind":"laplace-k","queries":["education >= 16"]})"),
         "unknown field 'black_box'"},
        {nsgSessionLine(R"("budget":{"kind":"pure","epsilon":1})", R"("cap":{"kind":"time","c0":10})",
                        R"(,"schedule":{"kind":"geometric","gamma":1})"),
         "INVALID_CONFIG: schedule"},
    };
    for (const auto &b : bad) {
        auto r = io::readRequestLine(b.text, 1);
        QVERIFY2(!r.ok(), b.field);
        QVERIFY2(QString::fromStdString(r.error().message).contains(QString::fromUtf8(b.field)),
                 r.error().message.c_str());
    }
    // Parses, but refused by ask with nothing spent: too many checkpoints, add/remove neighbours.
    auto many = request(nsgSessionLine());
    many.growing()->nsgCheckpoints = 20000;
    auto s = openSession(filters::FilterKind::Basic, 10.0);
    auto e = s->ask(many);
    QVERIFY(!e.ok());
    QVERIFY2(
        QString::fromStdString(e.error().message).contains(QStringLiteral("INVALID_CONFIG: nsg.checkpoints")),
        e.error().message.c_str());
    QCOMPARE(s->filter().spent(), 0.0);
    auto addRemove = openSession(filters::FilterKind::Basic, 10.0, data::Neighbouring::AddRemove);
    auto n = addRemove->ask(request(nsgSessionLine()));
    QVERIFY(!n.ok());
    QVERIFY(
        QString::fromStdString(n.error().message).contains(QStringLiteral("GROWING_NEIGHBOURS_UNSUPPORTED")));
    QVERIFY(addRemove->events().empty());
}

QTEST_GUILESS_MAIN(TestNsgSession)
#include "tst_nsgsession.moc"
