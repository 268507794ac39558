// SPDX-License-Identifier: MIT
// Output-DP requests in sessions, run files, transcripts and journals: the svt request's JSON,
// the transcript round trip and its audit (the cell recomputed from the released answers, the
// cost from the partition), refusals, and a reservation left open by a crash charged its worst
// case (Hartmann et al. 2023, Lemma 8 and Theorem 7; docs/output-dp.md §2).
#include "core/io/event_json.h"
#include "core/io/request_json.h"
#include "core/io/session_journal.h"
#include "core/io/transcript_json.h"
#include "core/session/cost_audit.h"
#include "core/session/odp_release.h"
#include "tests/synthetic_table.h"
#include "tests/testutils.h"

#include <QTemporaryDir>

using namespace pbx;

namespace {
session::QueryRequest svtRequest(const std::string &id, double epsilon, std::int64_t threshold = 10000)
{
    auto r = io::readRequestLine(R"({"id":")" + id + R"(","mechanism":"svt","column":"region","threshold":)"
                                     + std::to_string(threshold) + R"(,"c":1,"epsilon":)"
                                     + std::to_string(epsilon) + "}",
                                 1);
    return r.value();
}

std::unique_ptr<session::Session> odpSession(double epsilon,
                                             filters::FilterKind kind = filters::FilterKind::Odp)
{
    session::SessionSettings s;
    s.epsilon = epsilon;
    s.delta = 1e-6;
    s.filter = kind;
    s.seed = 11;
    return session::Session::create(test::syntheticTable(), s).value();
}
} // namespace

class TestOdpIo : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void requestRoundTrip();
    void badRequests();
    void svtPartitionAndSettlement();
    void transcriptRoundTripAndAudit();
    void refusals();
    void crashBetweenReserveAndSettleChargesWorstCase();

private:
    QTemporaryDir m_dir;
};

void TestOdpIo::requestRoundTrip()
{
    auto r = io::readRequestLine(R"({"id":"s1","mechanism":"svt","column":"education","threshold":1000,)"
                                 R"("c":3,"epsilon":0.5,"svt_share":0.4,"sensitivity":2})",
                                 4);
    QVERIFY(r.ok());
    QVERIFY(r->odp.has_value());
    QCOMPARE(r->odp->svt.column, std::string("education"));
    QCOMPARE(r->odp->svt.threshold, std::int64_t{1000});
    QCOMPARE(r->odp->svt.cutoff, 3);
    QCOMPARE(r->odp->svt.epsilon, 0.5);
    QCOMPARE(r->odp->svt.svtShare, 0.4);
    QCOMPARE(r->odp->svt.sensitivity, 2.0);
    io::json::Json written = io::json::Json::object();
    io::writeRequest(*r, written);
    auto again = io::readRequest(written, "again");
    QVERIFY(again.ok());
    QCOMPARE(again->odp->svt.threshold, std::int64_t{1000});
    QCOMPARE(again->odp->svt.svtShare, 0.4);
    QVERIFY(!again->odp->svt.epsilon1.has_value());
}

void TestOdpIo::badRequests()
{
    PBX_VERIFY_ERROR(
        io::readRequestLine(R"({"mechanism":"svt","threshold":10,"c":1,"epsilon":1,"target":{}})", 2), Parse,
        "line 2: unknown field 'target'");
    PBX_VERIFY_ERROR(io::readRequestLine(R"({"mechanism":"svt","threshold":10.5,"c":1,"epsilon":1})", 3),
                     InvalidArgument, "line 3.threshold");
    PBX_VERIFY_ERROR(io::readRequestLine(R"({"mechanism":"svt","threshold":10,"c":0,"epsilon":1})", 3),
                     InvalidArgument, "line 3.c");
    PBX_VERIFY_ERROR(io::readRequestLine(R"({"mechanism":"svt","threshold":10,"c":1})", 5), Parse, "epsilon");
    auto table = test::syntheticTable();
    auto r = svtRequest("s", 0.5);
    r.odp->svt.sensitivity = 0.5;
    PBX_VERIFY_ERROR(session::checkOdpRequest(r, *table, filters::FilterKind::Odp), InvalidArgument,
                     "sensitivity: must be a whole number");
    r = svtRequest("s", 0.5);
    r.odp->svt.column = "salary";
    PBX_VERIFY_ERROR(session::checkOdpRequest(r, *table, filters::FilterKind::Odp), NotFound, "salary");
    r = svtRequest("s", 0.5);
    r.odp->svt.epsilon1 = 0.3;
    r.odp->svt.epsilon2 = 0.2;
    PBX_VERIFY_ERROR(session::checkOdpRequest(r, *table, filters::FilterKind::Odp), InvalidArgument,
                     "must exceed epsilon1 + epsilon2");
    r.odp->svt.epsilon2.reset();
    PBX_VERIFY_ERROR(session::checkOdpRequest(r, *table, filters::FilterKind::Odp), InvalidArgument,
                     "give both or neither");
}

void TestOdpIo::svtPartitionAndSettlement()
{
    // ε = 1, ε₁ = 0.1, ε₂ = 0.4, c = 4: E(j) = 0.1 + 0.1j (Lemma 8); with the releases at
    // b_ODP(j) = j/(1 − E(j)) every cell j ≥ 1 costs ε = 1 and j = 0 costs ε₁ = 0.1.
    session::SvtRequestSpec spec;
    spec.column = "region";
    spec.cutoff = 4;
    spec.epsilon = 1.0;
    spec.epsilon1 = 0.1;
    spec.epsilon2 = 0.4;
    auto g = session::svtRequestGuarantee(spec);
    QVERIFY(g.ok());
    QCOMPARE(g->cells.size(), std::size_t{5});
    QCOMPARE(g->cells[0].epsilon, 0.1);
    for (int j = 1; j <= 4; ++j) {
        PBX_FUZZY_COMPARE(g->cells[j].epsilon, 1.0, 1e-14);
        QVERIFY(g->cells[j].epsilon >= 1.0 - 1e-15);
    }
    QCOMPARE(g->delta, 0.0);

    // A session of ε = 2: the threshold 10000 flags north (15000) and halts (c = 1).
    auto s = odpSession(2.0);
    auto e = s->ask(svtRequest("s1", 0.5));
    QVERIFY(e.ok());
    QCOMPARE(e->status, session::EventStatus::Released);
    QVERIFY(e->odpRecord.has_value());
    const auto &r = *e->odpRecord;
    QCOMPARE(r.cell.value_or(-1), 1);
    QCOMPARE(r.answers, std::vector<bool>{true});
    QCOMPARE(r.releases.size(), std::size_t{1});
    QCOMPARE(r.releases[0].label, std::string("north"));
    QVERIFY(std::abs(r.releases[0].value - 15000) < 200);
    PBX_FUZZY_COMPARE(r.reservedEpsilon, 0.5, 1e-14);
    QCOMPARE(e->cost, r.guarantee.cells[1].epsilon);
    QCOMPARE(s->filter().epsilonSpent(), e->cost);
    // Threshold 100000: nothing is flagged, j = 0, and only ε₁ is paid; the rest is returned.
    auto none = s->ask(svtRequest("s2", 0.5, 100000));
    QVERIFY(none.ok());
    QCOMPARE(none->odpRecord->cell.value_or(-1), 0);
    QCOMPARE(none->odpRecord->answers, (std::vector<bool>{false, false}));
    QCOMPARE(none->cost, none->odpRecord->epsilon1);
    QVERIFY(none->cost < 0.1); // Lyu et al.'s split of 0.25 for c = 1: ε₁ = 0.25/(1 + 2^{2/3}) ≈ 0.0967
    PBX_FUZZY_COMPARE(none->cost, 0.25 / (1.0 + std::cbrt(4.0)), 1e-12);
}

void TestOdpIo::transcriptRoundTripAndAudit()
{
    auto s = odpSession(2.0);
    session::QueryRequest count;
    count.query.aggregate = data::Aggregate::Count;
    count.target = session::AccuracyTarget{session::TargetKind::Absolute, 50, 0.95};
    QVERIFY(s->ask(count).ok());
    QVERIFY(s->ask(svtRequest("s1", 0.5)).ok());
    QVERIFY(s->ask(svtRequest("s2", 0.5, 100000)).ok());
    const std::string text = io::writeTranscriptJson(*s);
    auto doc = io::readTranscriptJson(text);
    QVERIFY2(doc.ok(), doc ? "" : doc.error().message.c_str());
    QCOMPARE(doc->settings.filter, filters::FilterKind::Odp);
    QCOMPARE(doc->events.size(), std::size_t{3});
    QCOMPARE(doc->events[1].odpRecord->cell.value_or(-1), 1);
    QCOMPARE(doc->events[1].odpRecord->guarantee.cells.size(), std::size_t{2});
    auto restored = session::auditLedger(test::syntheticTable(), doc->settings, doc->events);
    QVERIFY2(restored.ok(), restored ? "" : restored.error().message.c_str());
    QCOMPARE((*restored)->filter().epsilonSpent(), s->filter().epsilonSpent());

    // The audit recomputes the cell from the answers and the cost from the partition.
    auto events = doc->events;
    events[1].odpRecord->answers = {true, false}; // it halts at the c-th ⊤
    PBX_VERIFY_ERROR(session::auditLedger(test::syntheticTable(), doc->settings, events), Parse,
                     "do not scan the column");
    events = doc->events;
    events[2].odpRecord->cell = 1;
    PBX_VERIFY_ERROR(session::auditLedger(test::syntheticTable(), doc->settings, events), Parse,
                     "settled in cell 1 but its answers hold 0");
    events = doc->events;
    events[1].odpRecord->guarantee.cells[1].epsilon = 0.2;
    PBX_VERIFY_ERROR(session::auditLedger(test::syntheticTable(), doc->settings, events), Parse,
                     "cell 1 costs");
    events = doc->events;
    events[2].cost = 0.0;
    events[2].odpRecord->settledEpsilon = 0.0;
    PBX_VERIFY_ERROR(session::auditLedger(test::syntheticTable(), doc->settings, events), Parse, "costs");
    // The same events under another filter are refused.
    auto basic = doc->settings;
    basic.filter = filters::FilterKind::ExPost;
    PBX_VERIFY_ERROR(session::auditLedger(test::syntheticTable(), basic, doc->events), Parse,
                     "under the expost filter");
}

void TestOdpIo::refusals()
{
    // Other filters cannot settle a realised cell: refused before anything is spent.
    for (auto kind : {filters::FilterKind::Basic, filters::FilterKind::ExPost, filters::FilterKind::Zcdp,
                      filters::FilterKind::Unified}) {
        auto s = odpSession(1.0, kind);
        PBX_VERIFY_ERROR(s->ask(svtRequest("s", 0.5)), Unsupported, "only the odp filter");
        QCOMPARE(s->events().size(), std::size_t{0});
        QCOMPARE(s->filter().epsilonSpent(), 0.0);
    }
    // Admission by the worst case: 0.45 left, the request may cost 0.5 → refused, nothing spent.
    auto s = odpSession(0.95);
    auto first = s->ask(svtRequest("s1", 0.5, 100000)); // j = 0: pays ε₁ only
    QVERIFY(first.ok());
    auto big = s->ask(svtRequest("s2", 0.9));
    QVERIFY(big.ok());
    QCOMPARE(big->status, session::EventStatus::Refused);
    QVERIFY2(big->reason.find("needs ε = 0.9 (worst case) but") != std::string::npos, big->reason.c_str());
    QCOMPARE(big->cost, 0.0);
    QCOMPARE(s->filter().epsilonSpent(), first->cost);
}

void TestOdpIo::crashBetweenReserveAndSettleChargesWorstCase()
{
    // A journal that holds the reservation of s1 but not its event: the process died after
    // drawing noise, before the settlement was written.
    const std::string path = m_dir.filePath(QStringLiteral("crash.journal")).toStdString();
    {
        auto s = odpSession(2.0);
        auto journal = io::createSessionJournal(path, *s);
        QVERIFY(journal.ok());
        session::QueryRequest count;
        count.id = "n";
        count.query.aggregate = data::Aggregate::Count;
        count.target = session::AccuracyTarget{session::TargetKind::Absolute, 50, 0.95};
        auto e = s->ask(count);
        QVERIFY(io::appendSessionEvent(*journal, *e, s->filter()).ok());
        s->setReservationHook([&](const session::LedgerEvent &pending) {
            return io::appendSessionReservation(*journal, pending, s->filter());
        });
        auto settledInMemory = s->ask(svtRequest("s1", 0.5, 100000)); // j = 0 in memory: ε₁ only
        QVERIFY(settledInMemory.ok());
        QVERIFY(settledInMemory->cost < 0.1);
        // … and the process is killed here: the event line is never written.
    }
    auto recovered = io::readSessionJournal(path);
    QVERIFY2(recovered.ok(), recovered ? "" : recovered.error().message.c_str());
    QCOMPARE(recovered->events.size(), std::size_t{2});
    const auto &open = recovered->events[1];
    QCOMPARE(open.request.id, std::string("s1"));
    QVERIFY(open.odpRecord.has_value());
    QVERIFY(!open.odpRecord->cell.has_value());
    PBX_FUZZY_COMPARE(open.cost, 0.5, 1e-14); // the worst case, not the ε₁ the lost output had
    QCOMPARE(open.cost, open.odpRecord->reservedEpsilon);
    QVERIFY2(open.reason.find("charged its worst case") != std::string::npos, open.reason.c_str());
    auto restored
        = session::auditLedger(test::syntheticTable(), recovered->header.settings, recovered->events);
    QVERIFY2(restored.ok(), restored ? "" : restored.error().message.c_str());
    PBX_FUZZY_COMPARE((*restored)->filter().epsilonSpent(), recovered->events[0].cost + 0.5, 1e-14);
    QVERIFY(!static_cast<const filters::PrivacyFilter &>((*restored)->filter())
                 .canCharge({filters::ChargeKind::PureEpsilon, 1.5, 0.0})
                 .ok());
    // Continuing the journal after the crash: the next event follows the unsettled reservation.
    auto opened = io::openSessionJournal(path);
    QVERIFY(opened.ok());
    session::QueryRequest count;
    count.id = "after";
    count.query.aggregate = data::Aggregate::Count;
    count.target = session::AccuracyTarget{session::TargetKind::Absolute, 50, 0.95};
    auto next = (*restored)->ask(count);
    QVERIFY(next.ok());
    QCOMPARE(next->index, std::size_t{2});
    QVERIFY(io::appendSessionEvent(opened->writer, *next, (*restored)->filter()).ok());
    auto again = io::readSessionJournal(path);
    QVERIFY2(again.ok(), again ? "" : again.error().message.c_str());
    QCOMPARE(again->events.size(), std::size_t{3});
    QCOMPARE(again->events[1].cost, open.cost);
    QVERIFY(session::auditLedger(test::syntheticTable(), again->header.settings, again->events).ok());
}

QTEST_GUILESS_MAIN(TestOdpIo)
#include "tst_odpio.moc"
