// SPDX-License-Identifier: MIT
// What `pbx-cli verify` (session::auditLedger) calls recomputed is recomputed:
// a quantile's ε from its target and grid, a derived answer from its source, where an NSG stream's
// rounds open, and every recorded refusal of a growing stream's epoch or round or of an output-DP
// request replayed against the filter. Each edited transcript below verified before.
#include "core/io/event_json.h"
#include "core/io/session_file.h"
#include "core/math/directed_rounding.h"
#include "core/session/growing/growing_nsg.h"
#include "core/session/growing/growing_release.h"
#include "core/session/ledger/cost_audit.h"
#include "core/strategies/quantiles.h"
#include "tests/growing/growing_session_fixture.h"
#include "tests/testutils.h"

#include <cmath>

using namespace pbx;
using growing_fixture::cps;
using growing_fixture::openSession;
using growing_fixture::request;
using session::EventStatus;
using session::LedgerEvent;

namespace {

/// The session's events read back from their transcript JSON (what verify reads).
std::vector<LedgerEvent> readBack(const session::Session &s)
{
    std::vector<LedgerEvent> events;
    for (const auto &event : s.events()) {
        auto back = io::eventFromJson(nlohmann::json::parse(io::eventToJson(event, s.filter()).dump()),
                                      events.size());
        if (!back)
            qFatal("%s", back.error().message.c_str());
        events.push_back(*back);
    }
    return events;
}

/// verify's audit fails on `events`, with a message containing `needle`.
void expectCaught(const session::Session &s, const std::vector<LedgerEvent> &events, const char *needle)
{
    auto audited = session::auditLedger(cps(), s.settings(), events);
    QVERIFY2(!audited.ok(), needle);
    QVERIFY2(QString::fromStdString(audited.error().message).contains(QString::fromUtf8(needle)),
             audited.error().message.c_str());
}

/// The sum of the attempts' costs, as the filter adds them (rounded up).
double attemptsTotal(const LedgerEvent &e)
{
    double total = 0.0;
    for (const auto &a : e.attempts)
        total = math::addRoundUp(total, a.cost);
    return total;
}

const std::string kNsgQueries = "\"queries\":[\"region == \\\"south\\\"\",\"ethnicity == \\\"afam\\\"\"]";

} // namespace

class TestVerifyEdits : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void quantileEpsilonIsRecomputed();
    void derivedAnswerIsRecomputed();
    void nsgRoundOpeningsAreReplayed();
    void growingRefusalIsReplayed();
    void odpRefusalIsReplayed();
    void continuousNoiseRecordsStillOpen();
};

void TestVerifyEdits::quantileEpsilonIsRecomputed()
{
    // wage clipped to [0, 5000] with step 1: 5,001 candidates; ±200 at 95 %:
    // ε = 2·ln(5001/0.05)/200 = 0.115131 (McSherry–Talwar).
    auto s = openSession(filters::FilterKind::Basic, 10.0);
    auto q = s->ask(request(R"({"id":"m","aggregate":"quantile","column":"wage","bounds":[0,5000],"q":0.5,)"
                            R"("target":{"kind":"absolute","error":200,"confidence":0.95}})"));
    QVERIFY2(q.ok(), q.ok() ? "" : q.error().message.c_str());
    QCOMPARE(q->status, EventStatus::Released);
    const double epsilon = 2.0 * std::log(5001.0 / 0.05) / 200.0;
    PBX_FUZZY_COMPARE(q->attempts[0].releases[0].cost, epsilon, 1e-14);
    PBX_FUZZY_COMPARE(epsilon, 0.115131, 1e-5);
    auto events = readBack(*s);
    QVERIFY(session::auditLedger(cps(), s->settings(), events).ok());

    // ε lowered to 0.001 in every field, the error bar with it: caught.
    auto edited = events;
    LedgerEvent &e = edited[0];
    e.attempts[0].releases[0].cost = 0.001;
    e.attempts[0].cost = 0.001;
    e.cost = 0.001;
    e.errorBound = strategies::quantileRankErrorBound(0.001, 5001, 0.05);
    e.attempts[0].halfWidth = e.errorBound;
    e.strategyRecord()->halfWidths = {e.errorBound};
    expectCaught(*s, edited, "its exponential mechanism ran at epsilon 0.001, but its target");
    // The error bar alone widened: caught.
    edited = events;
    edited[0].errorBound *= 2.0;
    expectCaught(*s, edited, "its error bar");
}

void TestVerifyEdits::derivedAnswerIsRecomputed()
{
    auto s = openSession(filters::FilterKind::Basic, 10.0);
    QVERIFY(
        s
            ->ask(request(
                R"({"id":"h","aggregate":"histogram","column":"region","target":{"kind":"absolute","error":100}})"))
            .ok());
    auto d = s->ask(request(R"({"id":"d","aggregate":"derived","of":"h","derived":"sum","cells":[0,1],)"
                            R"("target":{"kind":"absolute","error":200}})"));
    QVERIFY2(d.ok(), d.ok() ? "" : d.error().message.c_str());
    QCOMPARE(d->status, EventStatus::Released);
    // The sum of the two released cells.
    const auto &h = s->events()[0].strategyRecord()->values;
    QCOMPARE(d->answer, h[0] + h[1]);
    auto events = readBack(*s);
    QVERIFY(session::auditLedger(cps(), s->settings(), events).ok());

    auto edited = events;
    edited[1].answer += 1000.0;
    edited[1].strategyRecord()->values = {edited[1].answer};
    expectCaught(*s, edited, "is not the one derived again from 'h'");
    edited = events;
    edited[1].request.strategy()->of = "missing";
    expectCaught(*s, edited,
                 "its answer cannot be derived again: of: no released histogram with id 'missing'");
}

void TestVerifyEdits::nsgRoundOpeningsAreReplayed()
{
    auto s = openSession(filters::FilterKind::Basic, 10.0);
    auto e = s->ask(
        request(R"({"id":"s","type":"growing","algorithm":"nsg","stream":{"start_size":1000,"seed":7},)"
                R"("budget":{"kind":"pure","epsilon":1},"nsg":{"p":0.5,"T":0.3,)"
                R"("cap":{"kind":"time","c0":10},"checkpoints":40,)"
                + kNsgQueries + "}}"));
    QVERIFY2(e.ok(), e.ok() ? "" : e.error().message.c_str());
    auto events = readBack(*s);
    QVERIFY(session::auditLedger(cps(), s->settings(), events).ok());

    // A round moved to open one checkpoint later (still before its ⊤), its charge recomputed for
    // the later time and the cost with it: every per-round check passes, the replay does not.
    const auto &spec = *events[0].request.growing();
    const auto times
        = session::nsgCheckpointTimes(spec.startSize, events[0].growingRecord()->end, spec.nsgCheckpoints);
    auto unit = session::growingNsgUnit(spec);
    QVERIFY(unit.ok());
    bool moved = false;
    auto edited = events;
    auto &rounds = edited[0].growingRecord()->nsg->rounds;
    for (std::size_t i = 0; i < rounds.size() && !moved; ++i) {
        const auto at = std::find(times.begin(), times.end(), rounds[i].start);
        if (at == times.end() || at + 1 == times.end())
            continue;
        const std::uint64_t later = *(at + 1);
        if (rounds[i].halt && *rounds[i].halt < later)
            continue;
        const double charge = session::nsgRoundCharge(spec, *unit, later).amount;
        QVERIFY(charge < rounds[i].charge); // f(t) falls with t: a later opening is cheaper
        rounds[i].start = later;
        rounds[i].charge = charge;
        edited[0].attempts[i].cost = charge;
        moved = true;
    }
    QVERIFY2(moved, "no round could open later");
    edited[0].cost = attemptsTotal(edited[0]);
    QVERIFY(session::auditGrowingEvent(edited[0], *cps(), s->settings()).ok()); // the old audit passed
    expectCaught(*s, edited, "but the replay opens it at");
}

void TestVerifyEdits::growingRefusalIsReplayed()
{
    // BBScheduler with ε = 0.5 and γ = 1 in a session with ε = 1: five epochs, all fit.
    auto s = openSession(filters::FilterKind::Basic, 1.0);
    auto e = s->ask(
        request(R"({"id":"g","type":"growing","algorithm":"bbscheduler","stream":{"start_size":1000,)"
                R"("end":28155,"seed":7},"budget":{"kind":"pure","epsilon":0.5},)"
                R"("schedule":{"kind":"geometric","gamma":1},"black_box":{"kind":"laplace-k",)"
                + kNsgQueries + "}}"));
    QVERIFY2(e.ok(), e.ok() ? "" : e.error().message.c_str());
    QCOMPARE(e->growingRecord()->epochs.size(), std::size_t{5});
    auto events = readBack(*s);
    QVERIFY(session::auditLedger(cps(), s->settings(), events).ok());

    // Epochs 3 and 4 dropped and a refusal of epoch 3 invented, although 0.5625 of ε = 1 remained.
    auto edited = events;
    LedgerEvent &g = edited[0];
    g.growingRecord()->epochs.resize(3);
    g.attempts.resize(3);
    g.growingRecord()->refusedEpoch = 3;
    g.cost = attemptsTotal(g);
    g.targetMet = false;
    QVERIFY(session::auditGrowingEvent(g, *cps(), s->settings()).ok()); // the old audit passed
    expectCaught(*s, edited, "it records its epoch 3 as refused, but the filter has");

    // The same stream in a session that cannot afford epoch 3 verifies: the refusal is real.
    auto tight = openSession(filters::FilterKind::Basic, 0.44);
    auto r = tight->ask(events[0].request);
    QVERIFY(r.ok());
    QCOMPARE(r->growingRecord()->refusedEpoch, std::optional<std::uint64_t>(3));
    QVERIFY(session::auditLedger(cps(), tight->settings(), readBack(*tight)).ok());
}

void TestVerifyEdits::odpRefusalIsReplayed()
{
    auto s = openSession(filters::FilterKind::Odp, 5.0);
    auto svt = s->ask(
        request(R"({"id":"v","mechanism":"svt","column":"region","threshold":100000,"c":1,"epsilon":1})"));
    QVERIFY2(svt.ok(), svt.ok() ? "" : svt.error().message.c_str());
    QCOMPARE(svt->status, EventStatus::Released);
    auto events = readBack(*s);
    QVERIFY(session::auditLedger(cps(), s->settings(), events).ok());
    // Recorded as refused (nothing charged) although ε = 5 was all there.
    auto edited = events;
    edited[0].status = EventStatus::Refused;
    edited[0].record = std::monostate{};
    edited[0].cost = 0.0;
    edited[0].reason = "invented";
    expectCaught(*s, edited, "it records a refusal, but the filter has 5 left");
}

/// A transcript and a journal recorded before the growing streams drew exact discrete noise
/// (tests/data/transcripts, main at b52b432: continuous answers, bounds and ERMG σ) open as File ▸
/// Open session opens them (readSessionFile + auditSessionFile) with their three streams and the
/// spend ρ = 0.213623; the same events with an exact-design bound edited in, or a continuous bound
/// moved, are refused.
void TestVerifyEdits::continuousNoiseRecordsStillOpen()
{
    for (const char *name : {"growing_continuous.json", "growing_continuous.journal"}) {
        auto file = io::readSessionFile(std::string(PBX_SOURCE_DIR "/tests/data/transcripts/") + name);
        QVERIFY2(file.ok(), file ? "" : file.error().message.c_str());
        auto replayed = io::auditSessionFile(*file, cps());
        QVERIFY2(replayed.ok(), replayed ? name : replayed.error().message.c_str());
        const auto &events = (*replayed)->events();
        QCOMPARE(events.size(), std::size_t{3});
        QCOMPARE(events[0].growingRecord()->epochs.size(), std::size_t{5});
        QCOMPARE(events[2].growingRecord()->epochs.size(), std::size_t{6});
        QVERIFY(std::abs((*replayed)->filter().spent() - 0.213623) < 1e-6);
        // Each stream audits alone too; a moved bound is neither design's.
        for (std::size_t i = 0; i < 3; ++i) {
            QVERIFY(session::auditGrowingEvent(events[i], *cps(), (*replayed)->settings()).ok());
            auto edited = events[i];
            edited.growingRecord()->epochs[1].bound = math::nudgeUp(edited.growingRecord()->epochs[1].bound);
            QVERIFY(!session::auditGrowingEvent(edited, *cps(), (*replayed)->settings()).ok());
        }
        // BBScheduler epoch 0 with the exact design's bound but its continuous answers: refused
        // (the exact design's finding: an answer that is not a count over t).
        auto mixed = events[0];
        auto exact = session::growingRunPlan(*mixed.request.growing(), *cps());
        QVERIFY(exact.ok());
        for (std::size_t i = 0; i < mixed.growingRecord()->epochs.size(); ++i)
            mixed.growingRecord()->epochs[i].bound = (*exact)[i].bound;
        auto audited = session::auditGrowingEvent(mixed, *cps(), (*replayed)->settings());
        QVERIFY(!audited.ok());
        QVERIFY2(
            QString::fromStdString(audited.error().message).contains(QStringLiteral("is not a count over t")),
            audited.error().message.c_str());
    }
}

QTEST_APPLESS_MAIN(TestVerifyEdits)
#include "tst_verifyedits.moc"
