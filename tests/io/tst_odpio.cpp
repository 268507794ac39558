// SPDX-License-Identifier: MIT
// Output-DP requests in sessions, run files, transcripts and journals: the svt, ptr-iqr,
// early-stop and recover requests' JSON, their partitions, the transcript round trip and its
// audit (the cell recomputed from the released output, the cost from the partition), refusals,
// and a reservation left open by a crash charged its worst case (Hartmann et al. 2023, Lemmas 8,
// 10, 11, Theorems 7 and 17; docs/output-dp.md §2, §4–§6).
#include "core/io/event_json.h"
#include "core/io/request_json.h"
#include "core/io/session_journal.h"
#include "core/io/transcript_json.h"
#include "core/odp/early_stopping.h"
#include "core/odp/ptr_iqr.h"
#include "core/session/ledger/cost_audit.h"
#include "core/session/odp/odp_mechanisms.h"
#include "core/session/odp/odp_release.h"
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
                                             filters::FilterKind kind = filters::FilterKind::Odp,
                                             data::Neighbouring neighbours = data::Neighbouring::AddRemove)
{
    session::SessionSettings s;
    s.epsilon = epsilon;
    s.delta = 1e-6;
    s.filter = kind;
    s.neighbours = neighbours;
    s.seed = 11;
    return session::Session::create(test::syntheticTable(), s).value();
}

std::unique_ptr<session::Session> replaceSession(double epsilon,
                                                 filters::FilterKind kind = filters::FilterKind::Odp)
{
    return odpSession(epsilon, kind, data::Neighbouring::Replace);
}

session::QueryRequest line(const std::string &text)
{
    return io::readRequestLine(text, 1).value();
}

// Income of the synthetic table is 1000 + 10·(i mod 300) on [0, 5000].
constexpr const char *kPtrLine
    = R"({"id":"p","mechanism":"ptr-iqr","column":"income","epsilon":0.5,"median_epsilon":0.2,"spend_savings":false})";
constexpr const char *kEarlyLine
    = R"({"id":"e","mechanism":"early-stop","column":"income","step_epsilon":0.01,"stops":[5,10,20,40],)"
      R"("composition":"basic","tolerance":0.01})";
constexpr const char *kRecoverLine
    = R"({"id":"r","mechanism":"recover","label_column":"income","label_threshold":2500,"features":["age","region"]})";
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
    void otherMechanismsRoundTrip();
    void otherMechanismsBadRequests();
    void ptrIqrPartitionAndSettlement();
    void earlyStopPartitionAndSettlement();
    void recoverPartitionAndSettlement();
    void otherMechanismsTranscriptAudit();
    void otherMechanismsCrashChargesWorstCase();

private:
    QTemporaryDir m_dir;
};

void TestOdpIo::requestRoundTrip()
{
    auto r = io::readRequestLine(R"({"id":"s1","mechanism":"svt","column":"education","threshold":1000,)"
                                 R"("c":3,"epsilon":0.5,"svt_share":0.4,"sensitivity":2})",
                                 4);
    QVERIFY(r.ok());
    QVERIFY(r->odp());
    QCOMPARE(r->odp()->svt.column, std::string("education"));
    QCOMPARE(r->odp()->svt.threshold, std::int64_t{1000});
    QCOMPARE(r->odp()->svt.cutoff, 3);
    QCOMPARE(r->odp()->svt.epsilon, 0.5);
    QCOMPARE(r->odp()->svt.svtShare, 0.4);
    QCOMPARE(r->odp()->svt.sensitivity, 2.0);
    io::json::Json written = io::json::Json::object();
    io::writeRequest(*r, written);
    auto again = io::readRequest(written, "again");
    QVERIFY(again.ok());
    QCOMPARE(again->odp()->svt.threshold, std::int64_t{1000});
    QCOMPARE(again->odp()->svt.svtShare, 0.4);
    QVERIFY(!again->odp()->svt.epsilon1.has_value());
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
    r.odp()->svt.sensitivity = 0.5;
    PBX_VERIFY_ERROR(session::checkOdpRequest(r, *table, filters::FilterKind::Odp), InvalidArgument,
                     "sensitivity: must be a whole number");
    r = svtRequest("s", 0.5);
    r.odp()->svt.column = "salary";
    PBX_VERIFY_ERROR(session::checkOdpRequest(r, *table, filters::FilterKind::Odp), NotFound, "salary");
    r = svtRequest("s", 0.5);
    r.odp()->svt.epsilon1 = 0.3;
    r.odp()->svt.epsilon2 = 0.2;
    PBX_VERIFY_ERROR(session::checkOdpRequest(r, *table, filters::FilterKind::Odp), InvalidArgument,
                     "must exceed epsilon1 + epsilon2");
    r.odp()->svt.epsilon2.reset();
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
    QVERIFY(e->odpRecord());
    const auto &r = *e->odpRecord();
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
    QCOMPARE(none->odpRecord()->cell.value_or(-1), 0);
    QCOMPARE(none->odpRecord()->answers, (std::vector<bool>{false, false}));
    QCOMPARE(none->cost, none->odpRecord()->epsilon1);
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
    QCOMPARE(doc->events[1].odpRecord()->cell.value_or(-1), 1);
    QCOMPARE(doc->events[1].odpRecord()->guarantee.cells.size(), std::size_t{2});
    auto restored = session::auditLedger(test::syntheticTable(), doc->settings, doc->events);
    QVERIFY2(restored.ok(), restored ? "" : restored.error().message.c_str());
    QCOMPARE((*restored)->filter().epsilonSpent(), s->filter().epsilonSpent());

    // The audit recomputes the cell from the answers and the cost from the partition.
    auto events = doc->events;
    events[1].odpRecord()->answers = {true, false}; // it halts at the c-th ⊤
    PBX_VERIFY_ERROR(session::auditLedger(test::syntheticTable(), doc->settings, events), Parse,
                     "do not scan the column");
    events = doc->events;
    events[2].odpRecord()->cell = 1;
    PBX_VERIFY_ERROR(session::auditLedger(test::syntheticTable(), doc->settings, events), Parse,
                     "settled in cell 1 but its answers hold 0");
    events = doc->events;
    events[1].odpRecord()->guarantee.cells[1].epsilon = 0.2;
    PBX_VERIFY_ERROR(session::auditLedger(test::syntheticTable(), doc->settings, events), Parse,
                     "cell 1 costs");
    events = doc->events;
    events[2].cost = 0.0;
    events[2].odpRecord()->settledEpsilon = 0.0;
    PBX_VERIFY_ERROR(session::auditLedger(test::syntheticTable(), doc->settings, events), Parse, "costs");
    // An event holds one family record (LedgerEvent::record): a document with two is refused.
    auto written = io::json::parse(text, "transcript");
    QVERIFY(written.ok());
    const io::json::Json &svtEvent = (*written)["events"][1];
    auto oneRecord = io::eventFromJson(svtEvent, 1);
    QVERIFY2(oneRecord.ok(), oneRecord ? "" : oneRecord.error().message.c_str());
    QCOMPARE(oneRecord->request.family(), session::RequestFamily::Odp);
    QVERIFY(oneRecord->odpRecord() && !oneRecord->strategyRecord() && !oneRecord->growingRecord());
    QCOMPARE(oneRecord->odpRecord()->cell.value_or(-1), 1);
    io::json::Json twoRecords = svtEvent;
    twoRecords["strategy_record"] = twoRecords["odp_record"];
    PBX_VERIFY_ERROR(io::eventFromJson(twoRecords, 1), Parse,
                     "events[1]: more than one of strategy_record, odp_record and growing_record");
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
    QVERIFY(open.odpRecord());
    QVERIFY(!open.odpRecord()->cell.has_value());
    PBX_FUZZY_COMPARE(open.cost, 0.5, 1e-14); // the worst case, not the ε₁ the lost output had
    QCOMPARE(open.cost, open.odpRecord()->reservedEpsilon);
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

void TestOdpIo::otherMechanismsRoundTrip()
{
    auto p = io::readRequestLine(
        R"({"id":"p","mechanism":"ptr-iqr","column":"income","epsilon":0.5,)"
        R"("delta_f":1e-8,"width":0.2,"mode":"bin","order":"fixed","median_epsilon":0.3,)"
        R"("spend_savings":false})",
        1);
    QVERIFY2(p.ok(), p ? "" : p.error().message.c_str());
    QCOMPARE(p->odp()->mechanism, session::OdpMechanism::PtrIqr);
    QCOMPARE(p->odp()->ptrIqr.column, std::string("income"));
    QCOMPARE(p->odp()->ptrIqr.failureProbability, 1e-8);
    QCOMPARE(p->odp()->ptrIqr.width, 0.2);
    QVERIFY(p->odp()->ptrIqr.binMode);
    QVERIFY(!p->odp()->ptrIqr.randomOrder);
    QVERIFY(!p->odp()->ptrIqr.spendSavings);
    auto e = io::readRequestLine(
        R"({"mechanism":"early-stop","step_epsilon":0.02,"stops":[3,6,9],)"
        R"("composition":"kov","delta":1e-7,"delta_split":"proportional","tolerance":0.1})",
        2);
    QVERIFY2(e.ok(), e ? "" : e.error().message.c_str());
    QCOMPARE(e->odp()->earlyStop.column, std::string("wage"));
    QCOMPARE(e->odp()->earlyStop.stops, (std::vector<std::int64_t>{3, 6, 9}));
    QVERIFY(e->odp()->earlyStop.proportionalSplit);
    auto r = io::readRequestLine(kRecoverLine, 3);
    QVERIFY(r.ok());
    QCOMPARE(r->odp()->recover.features, (std::vector<std::string>{"age", "region"}));
    QCOMPARE(r->odp()->recover.labelThreshold, 2500.0);
    QCOMPARE(r->odp()->recover.tau, 0.49); // the defaults of `pbx-cli odp recover`
    QCOMPARE(r->odp()->recover.epsilonModel, 2.0);
    for (const auto &request : {*p, *e, *r}) {
        io::json::Json written = io::json::Json::object();
        io::writeRequest(request, written);
        auto again = io::readRequest(written, "again");
        QVERIFY2(again.ok(), again ? "" : again.error().message.c_str());
        QCOMPARE(again->odp()->mechanism, request.odp()->mechanism);
        io::json::Json twice = io::json::Json::object();
        io::writeRequest(*again, twice);
        QCOMPARE(twice, written);
    }
}

void TestOdpIo::otherMechanismsBadRequests()
{
    // Each hostile parameter is refused naming its field, before anything runs.
    PBX_VERIFY_ERROR(io::readRequestLine(R"({"mechanism":"ptr-iqr","epsilon":0})", 2), InvalidArgument,
                     "line 2.epsilon: must be a finite number > 0");
    PBX_VERIFY_ERROR(io::readRequestLine(R"({"mechanism":"ptr-iqr","epsilon":-1})", 2), InvalidArgument,
                     "line 2.epsilon");
    PBX_VERIFY_ERROR(io::readRequestLine(R"({"mechanism":"ptr-iqr","epsilon":0.5,"delta_f":0.5})", 2),
                     InvalidArgument, "line 2.delta_f");
    PBX_VERIFY_ERROR(io::readRequestLine(R"({"mechanism":"ptr-iqr","epsilon":0.5,"width":0})", 2),
                     InvalidArgument, "line 2.width");
    PBX_VERIFY_ERROR(io::readRequestLine(R"({"mechanism":"ptr-iqr","epsilon":0.5,"mode":"exact"})", 2),
                     InvalidArgument, "line 2.mode: unknown value 'exact'");
    PBX_VERIFY_ERROR(io::readRequestLine(R"({"mechanism":"ptr-iqr","epsilon":0.5,"median_epsilon":-0.1})", 2),
                     InvalidArgument, "line 2.median_epsilon");
    PBX_VERIFY_ERROR(io::readRequestLine(R"({"mechanism":"ptr-iqr","epsilon":0.5,"c":3})", 2), Parse,
                     "unknown field 'c' for an output-DP ptr-iqr request");
    PBX_VERIFY_ERROR(io::readRequestLine(R"({"mechanism":"ptr-iqr","epsilon":NaN})", 2), Parse, "line 2");
    PBX_VERIFY_ERROR(
        io::readRequestLine(R"({"mechanism":"early-stop","step_epsilon":0.1,"stops":[5,5],"delta":1e-7})", 3),
        InvalidArgument, "line 3.stops: must be strictly increasing");
    PBX_VERIFY_ERROR(
        io::readRequestLine(R"({"mechanism":"early-stop","step_epsilon":0.1,"stops":[0,5],"delta":1e-7})", 3),
        InvalidArgument, "line 3.stops");
    PBX_VERIFY_ERROR(
        io::readRequestLine(R"({"mechanism":"early-stop","step_epsilon":0.1,"stops":[5.5],"delta":1e-7})", 3),
        InvalidArgument, "line 3.stops");
    PBX_VERIFY_ERROR(
        io::readRequestLine(R"({"mechanism":"early-stop","step_epsilon":0.1,"stops":[],"delta":1e-7})", 3),
        Parse, "line 3.stops");
    PBX_VERIFY_ERROR(
        io::readRequestLine(R"({"mechanism":"early-stop","step_epsilon":0,"stops":[5],"delta":1e-7})", 3),
        InvalidArgument, "line 3.step_epsilon");
    PBX_VERIFY_ERROR(io::readRequestLine(R"({"mechanism":"early-stop","step_epsilon":0.1,"stops":[5]})", 3),
                     Parse, "line 3.delta: missing (composition kov needs δ in (0, 1))");
    PBX_VERIFY_ERROR(
        io::readRequestLine(R"({"mechanism":"early-stop","step_epsilon":0.1,"stops":[5],"delta":1})", 3),
        InvalidArgument, "line 3.delta");
    PBX_VERIFY_ERROR(
        io::readRequestLine(
            R"({"mechanism":"early-stop","step_epsilon":0.1,"stops":[5],"delta":1e-7,"composition":"pld"})",
            3),
        InvalidArgument, "line 3.composition: unknown value 'pld'");
    PBX_VERIFY_ERROR(
        io::readRequestLine(
            R"({"mechanism":"early-stop","step_epsilon":0.1,"stops":[5],"delta":1e-7,"tolerance":0})", 3),
        InvalidArgument, "line 3.tolerance");
    PBX_VERIFY_ERROR(io::readRequestLine(R"({"mechanism":"recover","features":["age"]})", 4), Parse,
                     "line 4.label_threshold");
    PBX_VERIFY_ERROR(io::readRequestLine(R"({"mechanism":"recover","label_threshold":1,"features":[]})", 4),
                     Parse, "line 4.features");
    PBX_VERIFY_ERROR(
        io::readRequestLine(R"({"mechanism":"recover","label_threshold":1,"features":["age"],"c":1})", 4),
        Parse, "unknown field 'c' for an output-DP recover request");

    // Ranges that need the dataset are checked by the session, nothing spent.
    auto table = test::syntheticTable();
    session::SessionSettings replace;
    replace.neighbours = data::Neighbouring::Replace;
    replace.filter = filters::FilterKind::Odp;
    auto r = line(kRecoverLine);
    r.odp()->recover.lambda = 0.0;
    PBX_VERIFY_ERROR(session::checkOdpRequest(r, *table, replace), InvalidArgument, "lambda");
    r = line(kRecoverLine);
    r.odp()->recover.tau = 1.5;
    PBX_VERIFY_ERROR(session::checkOdpRequest(r, *table, replace), InvalidArgument,
                     "tau: must lie in [0, 1]");
    r.odp()->recover.tau = -0.1;
    PBX_VERIFY_ERROR(session::checkOdpRequest(r, *table, replace), InvalidArgument, "tau");
    r = line(kRecoverLine);
    r.odp()->recover.epsilonTest = 0.0;
    PBX_VERIFY_ERROR(session::checkOdpRequest(r, *table, replace), InvalidArgument, "epsilon_test");
    r = line(kRecoverLine);
    r.odp()->recover.features = {"salary"};
    PBX_VERIFY_ERROR(session::checkOdpRequest(r, *table, replace), NotFound,
                     "features: unknown column 'salary'");
    r.odp()->recover.features = {"income"};
    PBX_VERIFY_ERROR(session::checkOdpRequest(r, *table, replace), InvalidArgument, "is the label column");
    r.odp()->recover.features = {"age", "age"};
    PBX_VERIFY_ERROR(session::checkOdpRequest(r, *table, replace), InvalidArgument, "named twice");
    r = line(kRecoverLine);
    r.odp()->recover.labelColumn = "region";
    PBX_VERIFY_ERROR(session::checkOdpRequest(r, *table, replace), InvalidArgument, "label_column");
    auto p = line(kPtrLine);
    p.odp()->ptrIqr.column = "region";
    PBX_VERIFY_ERROR(session::checkOdpRequest(p, *table, replace), InvalidArgument,
                     "column: 'region' must be a numeric column with declared bounds");
    p.odp()->ptrIqr.column = "salary";
    PBX_VERIFY_ERROR(session::checkOdpRequest(p, *table, replace), NotFound,
                     "column: unknown column 'salary'");
    // Four rows: the test part (i mod 5 = 4) of the split is empty.
    data::Column income{
        {"income", data::ColumnType::Numeric, data::Bounds{0, 5000}, "", {}}, {1, 2, 3, 4}, {}};
    data::Column age{{"age", data::ColumnType::Numeric, data::Bounds{0, 100}, "", {}}, {20, 30, 40, 50}, {}};
    data::Column region{
        {"region", data::ColumnType::Categorical, std::nullopt, "", {"north", "south"}}, {}, {0, 1, 0, 1}};
    auto tiny = data::Table::create("tiny", {region, age, income});
    QVERIFY(tiny.ok());
    PBX_VERIFY_ERROR(session::checkOdpRequest(line(kRecoverLine), *tiny, replace), InvalidArgument,
                     "empty split");

    // Under add/remove, n is not public: refused, nothing recorded or spent.
    for (const char *text : {kPtrLine, kEarlyLine, kRecoverLine}) {
        auto s = odpSession(5.0);
        PBX_VERIFY_ERROR(s->ask(line(text)), Unsupported, "needs the replace-one relation");
        QCOMPARE(s->events().size(), std::size_t{0});
        QCOMPARE(s->filter().epsilonSpent(), 0.0);
    }
    // Other filters cannot settle a realised cell: refused exactly as svt is.
    for (auto kind : {filters::FilterKind::Basic, filters::FilterKind::ExPost, filters::FilterKind::Zcdp,
                      filters::FilterKind::Unified})
        for (const char *text : {kPtrLine, kEarlyLine, kRecoverLine}) {
            auto s = replaceSession(5.0, kind);
            PBX_VERIFY_ERROR(s->ask(line(text)), Unsupported, "only the odp filter");
            QCOMPARE(s->events().size(), std::size_t{0});
            QCOMPARE(s->filter().epsilonSpent(), 0.0);
        }
}

void TestOdpIo::ptrIqrPartitionAndSettlement()
{
    // ε = 0.5 per PTR function, noisy mode (ε_R = ε): S costs 1.0 / 1.5 / 1.0 in cases 1 / 2 / 3
    // (Lemma 6 over the three outcomes), plus ε_med = 0.2; δ = 2δ_f with δ_f = 1e-7 recomputed.
    auto request = line(kPtrLine);
    auto g = session::odpRequestGuarantee(*request.odp(), *test::syntheticTable());
    QVERIFY(g.ok());
    QCOMPARE(g->cells.size(), std::size_t{3});
    PBX_FUZZY_COMPARE(g->cells[0].epsilon, 1.2, 1e-14);
    PBX_FUZZY_COMPARE(g->cells[1].epsilon, 1.7, 1e-14);
    PBX_FUZZY_COMPARE(g->cells[2].epsilon, 1.2, 1e-14);
    QVERIFY(g->cells[1].epsilon >= 1.7);
    PBX_FUZZY_COMPARE(g->delta, 2e-7, 1e-12);
    QVERIFY(g->delta >= 2e-7);
    // Spending the savings on the median: every case costs the worst case; the median gets
    // ε_med + ε in cases 1 and 3 (Hartmann et al. §4.4's "ε_med + ε_IQR/3").
    request.odp()->ptrIqr.spendSavings = true;
    auto spent = session::odpRequestGuarantee(*request.odp(), *test::syntheticTable());
    QVERIFY(spent.ok());
    for (const auto &c : spent->cells)
        PBX_FUZZY_COMPARE(c.epsilon, 1.7, 1e-14);
    PBX_FUZZY_COMPARE(session::ptrIqrMedianEpsilon(request.odp()->ptrIqr, 1), 0.7, 1e-14);
    PBX_FUZZY_COMPARE(session::ptrIqrMedianEpsilon(request.odp()->ptrIqr, 2), 0.2, 1e-14);
    PBX_FUZZY_COMPARE(session::ptrIqrMedianEpsilon(request.odp()->ptrIqr, 3), 0.7, 1e-14);
    // Bin mode (ε_R = 0): 0.5 / 1.0 / 1.0.
    request.odp()->ptrIqr.spendSavings = false;
    request.odp()->ptrIqr.binMode = true;
    request.odp()->ptrIqr.medianEpsilon = 0.0;
    auto bin = session::odpRequestGuarantee(*request.odp(), *test::syntheticTable());
    QVERIFY(bin.ok());
    QCOMPARE(bin->cells[0].epsilon, 0.5);
    QCOMPARE(bin->cells[1].epsilon, 1.0);
    QCOMPARE(bin->cells[2].epsilon, 1.0);

    // Seed 11 passes the first test (case 1).
    auto s = replaceSession(3.0);
    auto e = s->ask(line(kPtrLine));
    QVERIFY2(e.ok(), e ? "" : e.error().message.c_str());
    QCOMPARE(e->status, session::EventStatus::Released);
    const auto &r = *e->odpRecord();
    QCOMPARE(r.cell.value_or(-1), 1);
    QVERIFY(r.ptrIqr.has_value());
    QCOMPARE(r.ptrIqr->outcome, 1);
    PBX_FUZZY_COMPARE(r.reservedEpsilon, 1.7, 1e-14);
    PBX_FUZZY_COMPARE(e->cost, 1.2, 1e-14);
    QCOMPARE(s->filter().epsilonSpent(), e->cost);
    QCOMPARE(s->filter().deltaSpent(), g->delta);
    // The true IQR: Q3 − Q1 of 1000 + 10·(i mod 300) over 20,000 rows.
    std::vector<double> incomes;
    for (std::size_t i = 0; i < 20000; ++i)
        incomes.push_back(1000.0 + 10.0 * static_cast<double>(i % 300));
    const double trueIqr = odp::IqrData::create(incomes, 0, 5000)->iqr();
    QCOMPARE(trueIqr, 1500.0);
    // Noisy mode releases IQR·exp(Lap(w/ε)): |ln(released/IQR)| > 10·w/ε has probability e^{−10}.
    QVERIFY(r.ptrIqr->iqr.has_value());
    QVERIFY(std::abs(std::log(*r.ptrIqr->iqr / trueIqr)) < 10.0 * r.ptrIqr->width / 0.5);
    PBX_FUZZY_COMPARE(r.ptrIqr->width, std::log1p(1.0 / std::log(20000.0)), 1e-14);
    PBX_FUZZY_COMPARE(r.ptrIqr->threshold, 1.0 + std::log(1.0 / 2e-7) / 0.5, 1e-12);
    QCOMPARE(r.ptrIqr->medianEpsilon, 0.2);
    QVERIFY(r.ptrIqr->median.has_value());
    QVERIFY2(std::abs(*r.ptrIqr->median - 2490.0) < 200.0, "median far from the truth");
    // A seeded session is reproducible.
    auto again = replaceSession(3.0)->ask(line(kPtrLine));
    QCOMPARE(again->odpRecord()->ptrIqr->iqr, r.ptrIqr->iqr);
    QCOMPARE(again->odpRecord()->ptrIqr->median, r.ptrIqr->median);
    // Admission by the worst case: 1.8 left, 1.7 fits; then 0.6 left, refused, nothing spent.
    auto refused = s->ask(line(kPtrLine));
    QVERIFY(refused.ok());
    QCOMPARE(refused->status, session::EventStatus::Released);
    auto third = s->ask(line(kPtrLine));
    QVERIFY(third.ok());
    QCOMPARE(third->status, session::EventStatus::Refused);
    QVERIFY2(third->reason.find("(worst case)") != std::string::npos, third->reason.c_str());
    QCOMPARE(third->cost, 0.0);
}

void TestOdpIo::earlyStopPartitionAndSettlement()
{
    // Basic composition of ε₀ = 0.01 Laplace steps: E_j = k_j·ε₀ = 0.05, 0.1, 0.2, 0.4; δ = 0.
    auto request = line(kEarlyLine);
    auto g = session::odpRequestGuarantee(*request.odp(), *test::syntheticTable());
    QVERIFY(g.ok());
    QCOMPARE(g->cells.size(), std::size_t{4});
    const double expected[] = {0.05, 0.1, 0.2, 0.4};
    for (int j = 0; j < 4; ++j) {
        PBX_FUZZY_COMPARE(g->cells[j].epsilon, expected[j], 1e-13);
        QVERIFY(g->cells[j].epsilon >= expected[j]);
    }
    QCOMPARE(g->delta, 0.0);
    // KOV with δ = 1e-6 split equally: the cells are Lemma 11's E_j = C(k_j, δ/4).
    request.odp()->earlyStop.composition = "kov";
    request.odp()->earlyStop.delta = 1e-6;
    auto kov = session::odpRequestGuarantee(*request.odp(), *test::syntheticTable());
    QVERIFY(kov.ok());
    odp::IterativeSteps steps;
    steps.stepEpsilon = 0.01;
    auto plan
        = odp::lemma11Plan({5, 10, 20, 40}, steps, odp::StepComposition::Kov, 1e-6, odp::DeltaSplit::Equal);
    QVERIFY(plan.ok());
    for (int j = 0; j < 4; ++j)
        QCOMPARE(kov->cells[j].epsilon, plan->costs[j]);
    QVERIFY(kov->cells[3].epsilon <= 0.4); // no worse than basic composition
    QCOMPARE(kov->delta, plan->delta);

    // The mean of income is 2495.5·…: Δ = 5000/20000 = 0.25, b = Δ/ε₀ = 25; the half-width
    // 2√2·25/√k ≤ 0.01·2495 needs k ≥ 9, so the run stops at k = 10 unless the noise is large.
    auto s = replaceSession(1.0);
    auto e = s->ask(line(kEarlyLine));
    QVERIFY2(e.ok(), e ? "" : e.error().message.c_str());
    const auto &r = *e->odpRecord();
    QVERIFY(r.earlyStop.has_value());
    PBX_FUZZY_COMPARE(r.earlyStop->noiseScale, 25.0, 1e-14);
    QCOMPARE(r.cell.value_or(-1), 1);
    QCOMPARE(r.earlyStop->iterates.size(), std::size_t{10});
    QVERIFY(session::earlyStopHalts(r.earlyStop->iterates, 10, r.earlyStop->noiseScale, 0.01));
    QVERIFY(!session::earlyStopHalts(r.earlyStop->iterates, 5, r.earlyStop->noiseScale, 0.01));
    double trueMean = 0.0;
    for (std::size_t i = 0; i < 20000; ++i)
        trueMean += 1000.0 + 10.0 * static_cast<double>(i % 300);
    trueMean /= 20000.0;
    QVERIFY2(std::abs(r.earlyStop->estimate - trueMean) < 40.0, "estimate far from the mean");
    PBX_FUZZY_COMPARE(r.reservedEpsilon, 0.4, 1e-13);
    QCOMPARE(e->cost, g->cells[1].epsilon); // 0.1 paid, 0.3 returned
    QCOMPARE(e->answer, r.earlyStop->estimate);
    QCOMPARE(s->filter().epsilonSpent(), e->cost);
}

void TestOdpIo::recoverPartitionAndSettlement()
{
    // 20,000 rows: 16,000 train, 4,000 test. Δ_test = 1/4000, Δ₂ = 2/(16000·0.01) = 0.0125 (plus the
    // optimiser's 2g/Λ), Δ_train = Δ₂/4 = 0.003125, s = Δ_train/ε_t = 0.00625 (Theorem 17):
    // released costs max(ε_p, Δ_test/s) = 2, ⊥ costs max(min(ε_p, Δ_train/s), Δ_test/s) = 0.5.
    auto g = session::odpRequestGuarantee(*line(kRecoverLine).odp(), *test::syntheticTable());
    QVERIFY2(g.ok(), g ? "" : g.error().message.c_str());
    QCOMPARE(g->cells.size(), std::size_t{2});
    PBX_FUZZY_COMPARE(g->cells[0].epsilon, 0.5, 1e-9);
    PBX_FUZZY_COMPARE(g->cells[1].epsilon, 2.0, 1e-9);
    QCOMPARE(g->delta, 0.0);
    auto s = replaceSession(3.0);
    auto e = s->ask(line(kRecoverLine));
    QVERIFY2(e.ok(), e ? "" : e.error().message.c_str());
    const auto &r = *e->odpRecord();
    QVERIFY(r.recovery.has_value());
    QCOMPARE(r.recovery->trainRows, std::size_t{16000});
    QCOMPARE(r.recovery->testRows, std::size_t{4000});
    PBX_FUZZY_COMPARE(r.recovery->testNoise, 0.00625, 1e-7);
    // age and region carry almost no linear information about this income (each age value takes
    // 3 incomes above 2500 and 3 below), so the mean absolute error stays near 0.5; the cell is
    // ẽ ≤ τ = 0.49 (released, ε = 2) or not (⊥, ε = 0.5).
    QCOMPARE(r.cell.value_or(-1), r.recovery->released ? 1 : 0);
    QCOMPARE(r.recovery->released, r.recovery->noisyError <= 0.49);
    QCOMPARE(r.recovery->theta.size(), r.recovery->released ? std::size_t{3} : std::size_t{0});
    QCOMPARE(e->cost, g->cells[static_cast<std::size_t>(*r.cell)].epsilon);
    QVERIFY(std::abs(r.recovery->noisyError - 0.5) < 0.1);
    // A lower bar (τ = 1) always releases the model: 1 (intercept) + age + one-hot region = 3.
    auto always = line(kRecoverLine);
    always.odp()->recover.tau = 1.0;
    auto released = replaceSession(3.0)->ask(always);
    QVERIFY(released.ok());
    QCOMPARE(released->odpRecord()->cell.value_or(-1), 1);
    QCOMPARE(released->odpRecord()->recovery->theta.size(), std::size_t{3});
    PBX_FUZZY_COMPARE(released->cost, 2.0, 1e-9);
}

void TestOdpIo::otherMechanismsTranscriptAudit()
{
    auto s = replaceSession(5.0);
    QVERIFY(s->ask(line(kPtrLine)).ok());
    QVERIFY(s->ask(line(kEarlyLine)).ok());
    auto always = line(kRecoverLine);
    always.odp()->recover.tau = 1.0;
    QVERIFY(s->ask(always).ok());
    const std::string text = io::writeTranscriptJson(*s);
    auto doc = io::readTranscriptJson(text);
    QVERIFY2(doc.ok(), doc ? "" : doc.error().message.c_str());
    QCOMPARE(doc->events.size(), std::size_t{3});
    QVERIFY(doc->events[0].odpRecord()->ptrIqr.has_value());
    QCOMPARE(doc->events[1].odpRecord()->earlyStop->iterates,
             s->events()[1].odpRecord()->earlyStop->iterates);
    QCOMPARE(doc->events[2].odpRecord()->recovery->theta, s->events()[2].odpRecord()->recovery->theta);
    auto restored = session::auditLedger(test::syntheticTable(), doc->settings, doc->events);
    QVERIFY2(restored.ok(), restored ? "" : restored.error().message.c_str());
    QCOMPARE((*restored)->filter().epsilonSpent(), s->filter().epsilonSpent());
    QCOMPARE((*restored)->filter().deltaSpent(), s->filter().deltaSpent());

    auto audit = [&](const std::vector<session::LedgerEvent> &events) {
        return session::auditLedger(test::syntheticTable(), doc->settings, events);
    };
    // ptr-iqr: an edited cell, case, cost or partition is caught.
    auto events = doc->events;
    events[0].odpRecord()->cell = 3;
    PBX_VERIFY_ERROR(audit(events), Parse, "settled in cell 3 but its output is case 1");
    events = doc->events;
    events[0].odpRecord()->cell = 3;
    events[0].odpRecord()->ptrIqr->outcome = 3;
    PBX_VERIFY_ERROR(audit(events), Parse, "releases no IQR");
    events = doc->events;
    events[0].odpRecord()->guarantee.cells[0].epsilon = 0.5;
    PBX_VERIFY_ERROR(audit(events), Parse, "cell 1 costs");
    events = doc->events;
    events[0].cost = 1.0;
    events[0].odpRecord()->settledEpsilon = 1.0;
    PBX_VERIFY_ERROR(audit(events), Parse, "costs");
    events = doc->events;
    events[0].odpRecord()->ptrIqr->medianEpsilon = 0.7;
    PBX_VERIFY_ERROR(audit(events), Parse, "its median used");
    // early-stop: the cell is the number of iterates, and the stopping rule is replayed.
    events = doc->events;
    events[1].odpRecord()->cell = 3;
    PBX_VERIFY_ERROR(audit(events), Parse, "settled in cell 3 but it released 10 iterates");
    events = doc->events;
    events[1].odpRecord()->cell = 0;
    events[1].odpRecord()->earlyStop->iterates.resize(5);
    PBX_VERIFY_ERROR(audit(events), Parse, "its stopping rule does not halt at k = 5");
    events = doc->events;
    events[1].odpRecord()->earlyStop->estimate += 1.0;
    PBX_VERIFY_ERROR(audit(events), Parse, "its estimate is not the mean");
    // recover: the cell follows from ẽ ≤ τ and the model's presence.
    events = doc->events;
    events[2].odpRecord()->cell = 0;
    PBX_VERIFY_ERROR(audit(events), Parse, "settled in cell 0 but its model was released");
    events = doc->events;
    events[2].odpRecord()->recovery->testNoise *= 2.0;
    PBX_VERIFY_ERROR(audit(events), Parse, "test noise");
    // The same events under add/remove or another filter are refused.
    auto addRemove = doc->settings;
    addRemove.neighbours = data::Neighbouring::AddRemove;
    PBX_VERIFY_ERROR(session::auditLedger(test::syntheticTable(), addRemove, doc->events), Parse,
                     "replace-one");
    auto zcdp = doc->settings;
    zcdp.filter = filters::FilterKind::Zcdp;
    PBX_VERIFY_ERROR(session::auditLedger(test::syntheticTable(), zcdp, doc->events), Parse,
                     "under the zcdp filter");
}

void TestOdpIo::otherMechanismsCrashChargesWorstCase()
{
    // For each mechanism: the journal holds its reservation but not its event.
    int k = 0;
    const std::string neverReleased
        = R"({"mechanism":"recover","label_column":"income","label_threshold":2500,)"
          R"("features":["age","region"],"tau":0})";
    for (const char *text : {kPtrLine, kEarlyLine, neverReleased.c_str()}) {
        const std::string path = m_dir.filePath(QStringLiteral("crash%1.journal").arg(++k)).toStdString();
        double worst = 0.0;
        {
            auto s = replaceSession(5.0);
            auto journal = io::createSessionJournal(path, *s);
            QVERIFY(journal.ok());
            s->setReservationHook([&](const session::LedgerEvent &pending) {
                return io::appendSessionReservation(*journal, pending, s->filter());
            });
            auto settledInMemory = s->ask(line(text));
            QVERIFY(settledInMemory.ok());
            worst = settledInMemory->odpRecord()->reservedEpsilon;
            QVERIFY2(settledInMemory->cost < worst, text); // every one of these settles below its worst case
        }
        auto recovered = io::readSessionJournal(path);
        QVERIFY2(recovered.ok(), recovered ? "" : recovered.error().message.c_str());
        QCOMPARE(recovered->events.size(), std::size_t{1});
        const auto &open = recovered->events[0];
        QVERIFY(!open.odpRecord()->cell.has_value());
        QVERIFY(!open.odpRecord()->ptrIqr && !open.odpRecord()->earlyStop && !open.odpRecord()->recovery);
        QCOMPARE(open.cost, worst);
        auto restored
            = session::auditLedger(test::syntheticTable(), recovered->header.settings, recovered->events);
        QVERIFY2(restored.ok(), restored ? "" : restored.error().message.c_str());
        QCOMPARE((*restored)->filter().epsilonSpent(), worst);
    }
}

QTEST_GUILESS_MAIN(TestOdpIo)
#include "tst_odpio.moc"
