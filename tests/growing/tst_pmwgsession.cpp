// SPDX-License-Identifier: MIT
// PMWG streams in a session (core/session/growing_pmwg.h; Cummings, Krehbiel, Lai & Tantipongpipat
// 2018, §4.2): every sparse-vector round is charged when it opens with NSG's whole-round worst case
// (7/3)f(s) (or ((7/3)f(s))²/2 as ρ), the charges are at least the rounds' realised losses and at
// most the stream's budget, hard answers never exceed the cap, a refusal mid-stream keeps what was
// released, the record survives a transcript round trip, the audit replays the public histogram and
// catches edits, and bad values are refused naming the field (docs/growing-databases.md §9, "PMWG").
#include "core/accounting/basic_composition.h"
#include "core/growing/growing_svt.h"
#include "core/growing/nsg_run.h"
#include "core/io/event_json.h"
#include "core/io/request_json.h"
#include "core/session/growing/growing_pmwg.h"
#include "core/session/growing/growing_release.h"
#include "core/session/ledger/cost_audit.h"
#include "core/session/ledger/session_ledger.h"
#include "core/session/session.h"
#include "tests/growing/growing_session_fixture.h"
#include "tests/testutils.h"

using namespace pbx;
using growing_fixture::cps;
using growing_fixture::openSession;
using growing_fixture::request;
using session::EventStatus;

namespace {

/// A pmwg line over t = 14000 … 28155 (the lab's default): small universe, p = ½, c₀ = 40, T = 0.05,
/// η = 0.3, 40 checkpoints × 25 queries, order seed 7.
std::string pmwgSessionLine(const std::string &budget = R"("budget":{"kind":"pure","epsilon":1})",
                            const std::string &pmwg
                            = R"("universe":"small","p":0.5,"c0":40,"T":0.05,"eta":0.3)",
                            const std::string &extra = "")
{
    return R"({"id":"m","type":"growing","algorithm":"pmwg","stream":{"start_size":14000,"seed":7},)" + budget
           + R"(,"pmwg":{)" + pmwg + R"(,"checkpoints":40,"per_checkpoint":25})" + extra + "}";
}

std::vector<std::uint64_t> pmwgStarts(const session::PmwgRecord &r)
{
    std::vector<std::uint64_t> s;
    for (const auto &round : r.rounds)
        s.push_back(round.start);
    return s;
}

std::vector<std::uint64_t> pmwgHardTimes(const session::PmwgRecord &r)
{
    std::vector<std::uint64_t> h;
    for (const auto &x : r.hard)
        h.push_back(x.time);
    return h;
}

std::size_t answerCount(const session::PmwgRecord &r)
{
    std::size_t n = 0;
    for (const auto &c : r.checkpoints)
        n += c.answers.size();
    return n;
}

} // namespace

class TestPmwgSession : public QObject
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

void TestPmwgSession::roundsAreChargedWhenTheyOpen()
{
    auto s = openSession(filters::FilterKind::Basic, 10.0);
    const auto req = request(pmwgSessionLine());
    auto e = s->ask(req);
    QVERIFY2(e.ok(), e ? "" : e.error().message.c_str());
    QCOMPARE(e->status, EventStatus::Released);
    QCOMPARE(e->mechanismName(), std::string("pmwg"));
    QCOMPARE(e->costKind, filters::ChargeKind::PureEpsilon);
    const auto &r = *e->growingRecord()->pmwg;
    QCOMPARE(r.universe, std::uint64_t{160});
    QCOMPARE(r.checkpoints.size(), std::size_t{40});
    QCOMPARE(r.checkpoints.front().time, std::uint64_t{14000});
    QCOMPARE(r.checkpoints.back().time, std::uint64_t{28155});
    QCOMPARE(answerCount(r), std::size_t{1000});
    QVERIFY(!r.hard.empty());
    QCOMPARE(e->attempts.size(), r.rounds.size());
    // σ_n: the lab's (1 + (7/3)·40·3)/14000 = 0.020071… scaled by (W + (4/3)f(n))/W, W = 1.
    const double lab = (1.0 + 7.0 / 3.0 * 40.0 * 3.0) / 14000.0;
    const double fn = 1.0 / (14000.0 * lab);
    QVERIFY(std::abs(lab - 0.0200714) < 1e-7);
    QVERIFY(r.sigmaN >= lab * (1.0 + 4.0 / 3.0 * fn));
    QVERIFY(std::abs(r.sigmaN - lab * (1.0 + 4.0 / 3.0 * fn)) < 1e-12);
    const growing::NoiseUnit unit{14000, r.sigmaN, 0.5};
    // The charges' worst case is the budget (up to rounding up).
    QVERIFY(r.worstCase >= 1.0 - 1e-12 && r.worstCase <= 1.0 + 1e-12);
    // The first round opens at the first query, t = n: (7/3)f(14000) = 0.00826….
    QCOMPARE(r.rounds.front().start, std::uint64_t{14000});
    QVERIFY(std::abs(r.rounds.front().charge - 7.0 / 3.0 / (14000.0 * r.sigmaN)) < 1e-12);
    QVERIFY(std::abs(r.rounds.front().charge - 0.0082646) < 1e-6);
    const growing::HardQueryCap cap{true, 40.0};
    double sum = 0.0;
    for (std::size_t i = 0; i < r.rounds.size(); ++i) {
        const double expected = 7.0 / 3.0 * unit.f(double(r.rounds[i].start));
        QVERIFY(r.rounds[i].charge >= expected);
        QVERIFY(std::abs(r.rounds[i].charge - expected) < 1e-12);
        QCOMPARE(e->attempts[i].cost, r.rounds[i].charge);
        QCOMPARE(r.rounds[i].charge,
                 session::pmwgRoundCharge(*req.growing(), unit, r.rounds[i].start).amount);
        if (i < r.hard.size()) {
            QCOMPARE(*r.rounds[i].halt, r.hard[i].time);
            QVERIFY(i + 1 <= cap.at(14000, r.hard[i].time)); // never more ⊤ by t than H(t)
            QVERIFY(std::abs(r.hard[i].scale - 3.0 * unit.sigma(double(r.hard[i].time))) < 1e-12);
            QCOMPARE(e->attempts[i].releases.front().value, r.hard[i].answer);
        }
        sum += r.rounds[i].charge;
    }
    for (const auto &c : r.checkpoints)
        QVERIFY(c.hard <= c.cap);
    QVERIFY(std::abs(e->cost - sum) < 1e-12);
    QCOMPARE(s->filter().spent(), e->cost);
    QVERIFY(e->cost <= r.worstCase);
    // Never under-reported: at least the rounds' realised losses f(s_i) + (4/3)f(e_i) (NATG).
    double realised = 0.0;
    for (const auto &round : growing::nsgRounds(unit, pmwgStarts(r), pmwgHardTimes(r)))
        realised += round.cost;
    QVERIFY2(e->cost >= realised,
             qPrintable(QString::number(e->cost) + QStringLiteral(" < ") + QString::number(realised)));
    QVERIFY(session::auditGrowingEvent(*e, *cps(), s->settings()).ok());
    QVERIFY(QString::fromStdString(session::growingEpochLabel(*e, 0))
                .startsWith(QStringLiteral("PMWG round 0: opened at t = 14000, ")));
    // The same request runs the same stream (seeded order, seeded queries, the session's seed).
    auto again = openSession(filters::FilterKind::Basic, 10.0)->ask(req);
    QVERIFY(again.ok());
    QCOMPARE(again->growingRecord()->pmwg->hard.size(), r.hard.size());
    QCOMPARE(again->cost, e->cost);
}

void TestPmwgSession::zcdpRoundsChargeRho()
{
    auto s = openSession(filters::FilterKind::Zcdp, 10.0);
    const auto req = request(pmwgSessionLine(R"("budget":{"kind":"zcdp","rho":0.5})"));
    auto e = s->ask(req);
    QVERIFY2(e.ok(), e ? "" : e.error().message.c_str());
    QCOMPARE(e->costKind, filters::ChargeKind::Rho);
    const auto &r = *e->growingRecord()->pmwg;
    // zCDP: the lab's σ_n as is, (7/3)√(B/(2ρ))/n with B = 1 + c₀(3−2p)/(2(1−p)) = 81.
    QVERIFY(std::abs(r.sigmaN - 7.0 / 3.0 * std::sqrt(81.0 / 1.0) / 14000.0) < 1e-9);
    const growing::NoiseUnit unit{14000, r.sigmaN, 0.5};
    for (const auto &round : r.rounds) {
        const double eps = 7.0 / 3.0 * unit.f(double(round.start));
        QVERIFY(round.charge >= eps * eps / 2.0);
        QVERIFY(std::abs(round.charge - eps * eps / 2.0) < 1e-12);
    }
    QVERIFY(std::abs(e->cost - growing::nsgRealisedRho(unit, pmwgStarts(r))) < 1e-12);
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
    QCOMPARE(basic->filter().spent(), 0.0);
}

void TestPmwgSession::refusalMidStreamKeepsWhatWasReleased()
{
    // ε = 0.02: two rounds of ≈ 0.0083 fit, the third does not.
    auto s = openSession(filters::FilterKind::Basic, 0.02);
    auto e = s->ask(request(pmwgSessionLine()));
    QVERIFY(e.ok());
    QCOMPARE(e->status, EventStatus::Released);
    const auto &r = *e->growingRecord();
    QCOMPARE(r.pmwg->rounds.size(), std::size_t{2});
    QCOMPARE(r.refusedEpoch, std::optional<std::uint64_t>(2));
    QCOMPARE(r.pmwg->hard.size(), std::size_t{2});
    QCOMPARE(s->filter().spent(), e->cost);
    QVERIFY(e->cost <= 0.02);
    QVERIFY(r.pmwg->checkpoints.size() < 40);
    QVERIFY(answerCount(*r.pmwg) < 1000);
    QVERIFY(QString::fromStdString(e->reason).startsWith(QStringLiteral("round 2 (t = ")));
    QVERIFY2(
        QString::fromStdString(e->reason).contains(QStringLiteral("the 2 rounds before it stay released")),
        e->reason.c_str());
    QVERIFY(!e->targetMet);
    QVERIFY(session::auditGrowingEvent(*e, *cps(), s->settings()).ok());
    // Refused at the first round: nothing released, nothing spent.
    auto none = openSession(filters::FilterKind::Basic, 0.005);
    auto n = none->ask(request(pmwgSessionLine()));
    QVERIFY(n.ok());
    QCOMPARE(n->status, EventStatus::Refused);
    QCOMPARE(none->filter().spent(), 0.0);
    QCOMPARE(answerCount(*n->growingRecord()->pmwg), std::size_t{0});
    QVERIFY(QString::fromStdString(n->reason).contains(QStringLiteral("nothing was released")));
    QVERIFY(session::auditGrowingEvent(*n, *cps(), none->settings()).ok());
}

void TestPmwgSession::transcriptRoundTripAndAudit()
{
    auto s = openSession(filters::FilterKind::Basic, 10.0);
    auto e = s->ask(request(pmwgSessionLine()));
    QVERIFY(e.ok());
    std::vector<session::LedgerEvent> events;
    for (const auto &event : s->events()) {
        auto back = io::eventFromJson(nlohmann::json::parse(io::eventToJson(event, s->filter()).dump()), 0);
        QVERIFY2(back.ok(), back ? "" : back.error().message.c_str());
        events.push_back(*back);
    }
    const auto &g = events[0];
    QCOMPARE(g.request.growing()->algorithm, session::GrowingAlgorithm::Pmwg);
    QCOMPARE(g.request.growing()->pmwg.threshold, 0.05);
    QCOMPARE(g.request.growing()->pmwg.perCheckpoint, std::uint64_t{25});
    QCOMPARE(g.growingRecord()->pmwg->rounds.size(), e->growingRecord()->pmwg->rounds.size());
    QCOMPARE(g.growingRecord()->pmwg->hard.back().answer, e->growingRecord()->pmwg->hard.back().answer);
    QCOMPARE(g.growingRecord()->pmwg->checkpoints.back().answers,
             e->growingRecord()->pmwg->checkpoints.back().answers);
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
    edited.growingRecord()->pmwg->rounds[1].charge = 0.001;
    check(edited, "round 1: it charged");
    edited = *e;
    edited.growingRecord()->pmwg->rounds[1].start += 1;
    check(edited, "round 1: it does not open at t = ");
    edited = *e;
    edited.growingRecord()->pmwg->sigmaN = 0.5; // more noise claimed than drawn
    check(edited, "noise unit σ_n = 0.5");
    edited = *e;
    edited.cost = 0.01;
    check(edited, "not the recorded cost 0.01");
    edited = *e;
    edited.growingRecord()->pmwg->checkpoints.pop_back();
    check(edited, "stops after 39 of 40 checkpoints");
    edited = *e;
    // An easy answer not from x̂: the first answer of checkpoint 5 that is not a ⊤ answer.
    std::size_t easy = 0;
    const auto isHard = [&](std::size_t k) {
        for (const auto &h : e->growingRecord()->pmwg->hard)
            if (h.query == 5 * 25 + k)
                return true;
        return false;
    };
    while (isHard(easy))
        ++easy;
    edited.growingRecord()->pmwg->checkpoints[5].answers[easy] += 0.01;
    check(edited, "of the replayed public histogram");
    edited = *e;
    edited.growingRecord()->pmwg->hard[0].answer += 0.01; // x̂ then moves differently
    check(edited, "released answer differs");
}

void TestPmwgSession::roundsFeedTheComparison()
{
    auto s = openSession(filters::FilterKind::Basic, 10.0);
    auto e = s->ask(request(pmwgSessionLine()));
    QVERIFY(e.ok());
    auto ledger = accounting::ledgerFromSession(*s);
    QVERIFY2(ledger.ok(), ledger ? "" : ledger.error().message.c_str());
    const auto &rounds = e->growingRecord()->pmwg->rounds;
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

void TestPmwgSession::badValuesSpendNothing()
{
    const std::string pure = R"("budget":{"kind":"pure","epsilon":1})";
    const struct
    {
        std::string text;
        const char *field;
    } bad[] = {
        {pmwgSessionLine(pure, R"("universe":"huge")"), "pmwg.universe"},
        {pmwgSessionLine(pure, R"("T":1.5)"), "INVALID_THRESHOLD: pmwg.T"},
        {pmwgSessionLine(pure, R"("eta":0)"), "pmwg.eta"},
        {pmwgSessionLine(pure, R"("c0":0.5)"), "INVALID_CAP: pmwg.c0"},
        {pmwgSessionLine(pure, R"("p":1)"), "INVALID_NOISE_EXPONENT: pmwg.p"},
        {pmwgSessionLine(pure, R"("mode":"theory","alpha":2)"), "pmwg.alpha"},
        {pmwgSessionLine(pure, R"("uniform_update":false)"), "pmwg.uniform_update"},
        {pmwgSessionLine(pure, R"("x":1)"), "unknown field 'x'"},
        {pmwgSessionLine(R"("budget":{"kind":"pure","epsilon":0})"), "INVALID_BUDGET: budget.epsilon"},
        {pmwgSessionLine(pure, R"("p":0.5)",
                         R"(,"black_box":{"kind":"laplace-k","queries":["education >= 16"]})"),
         "unknown field 'black_box'"},
        {pmwgSessionLine(pure, R"("p":0.5)", R"(,"schedule":{"kind":"geometric","gamma":1})"),
         "INVALID_CONFIG: schedule"},
    };
    for (const auto &b : bad) {
        auto r = io::readRequestLine(b.text, 1);
        QVERIFY2(!r.ok(), b.field);
        QVERIFY2(QString::fromStdString(r.error().message).contains(QString::fromUtf8(b.field)),
                 r.error().message.c_str());
    }
    // Parses, but refused by ask with nothing spent: too many questions, add/remove neighbours.
    auto many = request(pmwgSessionLine());
    many.growing()->pmwg.perCheckpoint = 10000;
    auto s = openSession(filters::FilterKind::Basic, 10.0);
    auto e = s->ask(many);
    QVERIFY(!e.ok());
    QVERIFY2(QString::fromStdString(e.error().message)
                 .contains(QStringLiteral("INVALID_CONFIG: pmwg.per_checkpoint")),
             e.error().message.c_str());
    QCOMPARE(s->filter().spent(), 0.0);
    QVERIFY(s->events().empty());
    auto addRemove = openSession(filters::FilterKind::Basic, 10.0, data::Neighbouring::AddRemove);
    auto n = addRemove->ask(request(pmwgSessionLine()));
    QVERIFY(!n.ok());
    QVERIFY(
        QString::fromStdString(n.error().message).contains(QStringLiteral("GROWING_NEIGHBOURS_UNSUPPORTED")));
    QVERIFY(addRemove->events().empty());
}

QTEST_GUILESS_MAIN(TestPmwgSession)
#include "tst_pmwgsession.moc"
