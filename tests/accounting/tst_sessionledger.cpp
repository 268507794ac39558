// SPDX-License-Identifier: MIT
// A session's ledger as an accounting ledger: sessions run on a small hand-built table under every
// filter and both neighbouring relations; the mapping must give back each release's noise scale
// exactly and its sensitivity to a few ulps, never below; a noise reduction is one event per
// quantity at its last level, Laplace noise reduction an ex-post event only basic composition
// accepts. Hand-built events pin the noise-reduction rules down on known numbers.
#include "core/accounting/basic_composition.h"
#include "core/accounting/evaluation.h"
#include "core/accounting/rdp_accountant.h"
#include "core/report/session_report.h"
#include "core/session/ledger/session_ledger.h"
#include "core/session/release/query_shape.h"
#include "core/session/session.h"
#include "tests/testutils.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

using namespace pbx;
using accounting::MechanismKind;
using session::EventStatus;
using session::LedgerEvent;

namespace {

/// 60 rows: score = i mod 11 (declared bounds [0, 10]), shift = −5 + (i mod 7) (bounds [−5, 15]),
/// group alternating "a"/"b".
std::shared_ptr<const data::Table> handBuiltTable()
{
    data::Column score{{"score", data::ColumnType::Numeric, data::Bounds{0, 10}, "", {}}, {}, {}};
    data::Column shift{{"shift", data::ColumnType::Numeric, data::Bounds{-5, 15}, "", {}}, {}, {}};
    data::Column group{{"group", data::ColumnType::Categorical, std::nullopt, "", {"a", "b"}}, {}, {}};
    for (int i = 0; i < 60; ++i) {
        score.numeric.push_back(i % 11);
        shift.numeric.push_back(-5 + i % 7);
        group.codes.push_back(i % 2);
    }
    auto t = data::Table::create("hand-built", {score, shift, group});
    if (!t)
        qFatal("table: %s", t.error().message.c_str());
    return std::make_shared<const data::Table>(std::move(t.value()));
}

session::QueryRequest request(data::Aggregate aggregate, std::string column, session::TargetKind kind,
                              double error)
{
    session::QueryRequest r;
    r.query.aggregate = aggregate;
    r.query.column = std::move(column);
    r.query.where = "group == \"a\"";
    r.target = session::AccuracyTarget{kind, error, 0.9};
    return r;
}

session::NoisyRelease release(std::string quantity, double scale, double cost)
{
    return {std::move(quantity), scale, 0.0, cost};
}

LedgerEvent released(session::EventMechanism mechanism, std::vector<session::Attempt> attempts)
{
    LedgerEvent e;
    e.status = EventStatus::Released;
    e.mechanism = mechanism;
    e.attempts = std::move(attempts);
    return e;
}

/// The sensitivity the session used for a release of `quantity` of request `r` (sensitivity.h).
double expectedSensitivity(const std::string &quantity, const session::QueryRequest &r, data::Neighbouring n,
                           const data::Table &table)
{
    if (quantity == "count")
        return data::countSensitivity(n).l1;
    const data::Bounds b = *table.columnInfo(*table.columnIndex(r.query.column)).declaredBounds;
    // Padded for floating-point summation.
    return session::sumChannelSensitivity(quantity, b, n, static_cast<double>(table.rowCount()));
}

} // namespace

class TestSessionLedger : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void recoversScaleAndSensitivity_data();
    void recoversScaleAndSensitivity();
    void refusedEventsContributeNothing();
    void brownianReductionIsOneGaussian();
    void laplaceReductionIsExPost();
    void unknownMechanismIsUnsupported();
    void outputDpReleasesAreSettledEvents();
    void outputDpDeltaIsAddedByBasic();
};

void TestSessionLedger::recoversScaleAndSensitivity_data()
{
    QTest::addColumn<filters::FilterKind>("filter");
    QTest::addColumn<data::Neighbouring>("neighbours");
    using filters::FilterKind;
    // Basic: Laplace + Laplace noise reduction; zCDP: Gaussian + doubling; brownian-zcdp and
    // unified: Brownian noise reduction in ρ or ex-post; ex-post: Laplace noise reduction.
    for (auto [filter, name] : {std::pair{FilterKind::Basic, "basic"},
                                {FilterKind::Zcdp, "zcdp"},
                                {FilterKind::BrownianZcdp, "brownian-zcdp"},
                                {FilterKind::Unified, "unified"},
                                {FilterKind::ExPost, "expost"}}) {
        QTest::addRow("%s, add/remove", name) << filter << data::Neighbouring::AddRemove;
        QTest::addRow("%s, replace", name) << filter << data::Neighbouring::Replace;
    }
}

void TestSessionLedger::recoversScaleAndSensitivity()
{
    QFETCH(filters::FilterKind, filter);
    QFETCH(data::Neighbouring, neighbours);
    session::SessionSettings settings;
    settings.epsilon = 20.0;
    settings.delta = 1e-6;
    settings.filter = filter;
    settings.neighbours = neighbours;
    settings.seed = 7;
    auto created = session::Session::create(handBuiltTable(), settings);
    QVERIFY2(created.ok(), created.ok() ? "" : created.error().message.c_str());
    session::Session &s = *created.value();
    using data::Aggregate;
    using session::TargetKind;
    const std::vector<session::QueryRequest> requests = {
        request(Aggregate::Count, "", TargetKind::Absolute, 5.0),     // one release
        request(Aggregate::Sum, "shift", TargetKind::Absolute, 60.0), // one release
        request(Aggregate::Mean, "score", TargetKind::Absolute, 3.0), // 2 quantities per level
        request(Aggregate::Count, "", TargetKind::Relative, 0.5),     // several levels
    };
    for (const auto &r : requests) {
        auto asked = s.ask(r);
        QVERIFY2(asked.ok(), asked.ok() ? "" : asked.error().message.c_str());
        // A refusal (the unified filter's small ex-post side may run out) released nothing.
        if (asked->status == EventStatus::Refused)
            QVERIFY(asked->attempts.empty());
    }

    std::vector<std::size_t> origin;
    auto ledger = accounting::ledgerFromSession(s, &origin);
    QVERIFY2(ledger.ok(), ledger.ok() ? "" : ledger.error().message.c_str());
    QCOMPARE(ledger->neighbours, neighbours);
    QCOMPARE(origin.size(), ledger->events.size());

    std::size_t k = 0;
    std::size_t releases = 0;
    for (std::size_t i = 0; i < s.events().size(); ++i) {
        const LedgerEvent &event = s.events()[i];
        const bool reduction = event.mechanismName() == "laplace-nr" || event.mechanismName() == "brownian";
        const bool laplaceNoise = event.mechanismName().find("laplace") != std::string::npos;
        // Noise reductions: one privacy event per quantity, at its last release.
        std::vector<const session::NoisyRelease *> mapped;
        for (const auto &attempt : event.attempts) {
            for (const auto &r : attempt.releases) {
                ++releases;
                if (!reduction) {
                    mapped.push_back(&r);
                    continue;
                }
                auto same = std::find_if(mapped.begin(), mapped.end(),
                                         [&](auto *m) { return m->quantity == r.quantity; });
                if (same == mapped.end())
                    mapped.push_back(&r);
                else
                    *same = &r;
            }
        }
        for (const session::NoisyRelease *r : mapped) {
            QVERIFY(k < ledger->events.size());
            const accounting::PrivacyEvent &e = ledger->events[k];
            QCOMPARE(origin[k], i);
            QCOMPARE(e.count, std::int64_t{1});
            QCOMPARE(e.sampling.kind, accounting::SamplingKind::None);
            const double delta = expectedSensitivity(r->quantity, requests[i], neighbours, s.table());
            if (event.mechanismName() == "laplace-nr") {
                // The ex-post loss of the level it stopped at: that release's ε.
                QCOMPARE(e.mechanism, MechanismKind::PureDp);
                QVERIFY(e.expost);
                PBX_FUZZY_COMPARE(e.epsilon, r->cost, 1e-14);
                QVERIFY(e.epsilon >= r->cost);
                ++k;
                continue;
            }
            QVERIFY(!e.expost);
            if (laplaceNoise) {
                QCOMPARE(e.mechanism, MechanismKind::Laplace);
                QCOMPARE(e.scale, r->scale); // b exactly
            } else {
                QCOMPARE(e.mechanism, MechanismKind::Gaussian);
                QCOMPARE(e.sigma, r->scale); // σ exactly (Brownian: the last one)
            }
            // Δ from the charged cost (Brownian: from the query): to a few ulps, never below; the
            // grid mechanism of a discrete sum release charges whole grid steps ⌈Δ/g⌉·g, g ≤ Δ/1024.
            const bool gridded = r->quantity != "count" && event.mechanismName() != "brownian";
            PBX_FUZZY_COMPARE(e.sensitivity, delta, gridded ? 1.0 / 1024.0 : 1e-14);
            QVERIFY2(e.sensitivity >= delta, qPrintable(test::describe(e.sensitivity, delta, 0)));
            if (event.mechanismName() == "brownian" && event.costKind == filters::ChargeKind::Rho) // §4.4
                PBX_FUZZY_COMPARE(delta * delta / (2.0 * e.sigma * e.sigma), r->cost, 1e-13);
            ++k;
        }
    }
    QCOMPARE(k, ledger->events.size());
    QVERIFY(releases > requests.size()); // some requests released more than once

    // The mapped ledger costs what the session charged: basic Σε (pure filter) or Σρ (zCDP).
    const double spent = s.filter().spent();
    if (filter == filters::FilterKind::Basic) {
        auto basic = accounting::evaluateStrategy("basic", ledger.value(), {true, 1e-6});
        QVERIFY(basic.ok());
        PBX_FUZZY_COMPARE(basic->epsilon, spent, 1e-9);
    } else if (filter == filters::FilterKind::Zcdp || filter == filters::FilterKind::BrownianZcdp) {
        auto zcdp = accounting::evaluateStrategy("zcdp", ledger.value(), {true, 1e-6});
        QVERIFY(zcdp.ok());
        QVERIFY(zcdp->rho.has_value());
        PBX_FUZZY_COMPARE(*zcdp->rho, spent, 1e-9);
    }
}

void TestSessionLedger::refusedEventsContributeNothing()
{
    session::SessionSettings settings;
    settings.epsilon = 0.5;
    settings.filter = filters::FilterKind::Basic;
    settings.seed = 11;
    auto s = std::move(session::Session::create(handBuiltTable(), settings).value());
    QVERIFY(s->ask(request(data::Aggregate::Count, "", session::TargetKind::Absolute, 20.0)).ok());
    // ±0.01 on a count costs far more than ε = 0.5: refused, nothing charged.
    auto refused = s->ask(request(data::Aggregate::Count, "", session::TargetKind::Absolute, 0.01));
    QVERIFY(refused.ok());
    QCOMPARE(refused->status, EventStatus::Refused);
    std::vector<std::size_t> origin;
    auto ledger = accounting::ledgerFromSession(*s, &origin);
    QVERIFY(ledger.ok());
    QCOMPARE(ledger->events.size(), std::size_t{1});
    QCOMPARE(origin, std::vector<std::size_t>{0});

    // An empty session maps to an empty ledger, which every strategy accounts as free.
    auto empty = session::Session::create(handBuiltTable(), settings);
    auto none = accounting::ledgerFromSession(*empty.value());
    QVERIFY(none.ok());
    QVERIFY(none->events.empty());
}

void TestSessionLedger::brownianReductionIsOneGaussian()
{
    // Δ = 2, T = σ² = 100, 50, 25, 10: each release records its level's ρ = Δ²/(2T) (the filter was
    // charged 0.02, 0.02, 0.04, 0.12, docs/accuracy-first.md §4.4); total Δ²/(2·10) = 0.2.
    const double sens = 2.0;
    std::vector<session::Attempt> attempts;
    for (double t : {100.0, 50.0, 25.0, 10.0}) {
        session::Attempt a;
        a.releases.push_back(release("count", std::sqrt(t), sens * sens / (2.0 * t)));
        attempts.push_back(a);
    }
    std::vector<LedgerEvent> events = {released(session::EventMechanism::Brownian, attempts)};
    events.front().costKind = filters::ChargeKind::Rho;
    auto ledger = accounting::ledgerFromEvents(events, data::Neighbouring::AddRemove);
    QVERIFY(ledger.ok());
    QCOMPARE(ledger->events.size(), std::size_t{1});
    const auto &e = ledger->events.front();
    QCOMPARE(e.mechanism, MechanismKind::Gaussian);
    QCOMPARE(e.sigma, std::sqrt(10.0));
    PBX_FUZZY_COMPARE(e.sensitivity, sens, 1e-14);
    auto zcdp = accounting::evaluateStrategy("zcdp", ledger.value(), {true, 1e-6});
    QVERIFY(zcdp.ok());
    PBX_FUZZY_COMPARE(*zcdp->rho, 0.2, 1e-13);

    // Charged ex-post (a boundary's E(T)), the charges say nothing about Δ: refused here;
    // ledgerFromSession takes Δ from the query instead.
    events.front().costKind = filters::ChargeKind::ExPost;
    QCOMPARE(accounting::ledgerFromEvents(events, data::Neighbouring::AddRemove).error().code,
             ErrorCode::Unsupported);
}

void TestSessionLedger::laplaceReductionIsExPost()
{
    // A mean by Laplace noise reduction: two quantities, each reduced ε = 0.1 → 0.2 → 0.4
    // (Δ_sum = 5, Δ_count = 1); each release records its level's ε.
    const auto nr = [](const std::string &quantity, double sens) {
        std::vector<session::NoisyRelease> out;
        for (double eps : {0.1, 0.2, 0.4})
            out.push_back(release(quantity, sens / eps, eps));
        return out;
    };
    const auto sum = nr("centred-sum", 5.0);
    const auto count = nr("count", 1.0);
    std::vector<session::Attempt> attempts(3);
    for (std::size_t i = 0; i < 3; ++i)
        attempts[i].releases = {sum[i], count[i]};
    LedgerEvent laplace
        = released(session::EventMechanism::Laplace, {session::Attempt{{release("count", 10.0, 0.1)}}});
    std::vector<LedgerEvent> events = {laplace, released(session::EventMechanism::LaplaceNr, attempts)};
    std::vector<std::size_t> origin;
    auto ledger = accounting::ledgerFromEvents(events, data::Neighbouring::AddRemove, &origin);
    QVERIFY(ledger.ok());
    QCOMPARE(ledger->events.size(), std::size_t{3});
    QCOMPARE(origin, (std::vector<std::size_t>{0, 1, 1}));
    for (std::size_t i = 1; i < 3; ++i) {
        const auto &e = ledger->events[i];
        QCOMPARE(e.mechanism, MechanismKind::PureDp);
        QVERIFY(e.expost);
        PBX_FUZZY_COMPARE(e.epsilon, 0.4, 1e-14);
        QVERIFY(e.epsilon >= 0.4);
    }

    // Basic composition: 0.1 + 0.4 + 0.4. Every other strategy: not applicable, with the reason.
    const auto report
        = accounting::evaluateLedger(ledger.value(), {true, 1e-6}, accounting::allStrategyNames());
    QVERIFY(report.ok());
    const auto &json = report.value();
    QVERIFY(json["basic"]["applicable"].get<bool>());
    PBX_FUZZY_COMPARE(json["basic"]["epsilon"].get<double>(), 0.9, 1e-12);
    for (const char *name : {"advanced", "optimal", "zcdp", "rdp", "pld"}) {
        QVERIFY2(!json[name]["applicable"].get<bool>(), name);
        const std::string reason = json[name]["reason"].get<std::string>();
        QVERIFY2(reason.find("ex-post") != std::string::npos, reason.c_str());
        QVERIFY2(reason.find("basic composition") != std::string::npos, reason.c_str());
    }
    // The live RDP ledger refuses it too.
    accounting::RdpAccountant live;
    QCOMPARE(live.compose(ledger->events[1], ledger->neighbours).error().code, ErrorCode::Unsupported);
    // The flag only makes sense on an unsampled pure event.
    accounting::PrivacyEvent bad = ledger->events[1];
    bad.mechanism = MechanismKind::Laplace;
    bad.scale = 1.0;
    QCOMPARE(accounting::validateEvent(bad, 0).error().code, ErrorCode::InvalidArgument);
}

void TestSessionLedger::unknownMechanismIsUnsupported()
{
    std::vector<LedgerEvent> events = {released(session::EventMechanism::ExponentialMechanism,
                                                {session::Attempt{{release("count", 1.0, 0.1)}}})};
    auto ledger = accounting::ledgerFromEvents(events, data::Neighbouring::AddRemove);
    PBX_VERIFY_ERROR(ledger, Unsupported, "ledger event 1");
    QCOMPARE(ledger.error().code, ErrorCode::Unsupported);
    QVERIFY(ledger.error().message.find("exponential") != std::string::npos);

    events = {released(session::EventMechanism::Laplace, {session::Attempt{{release("count", 0.0, 0.1)}}})};
    QCOMPARE(accounting::ledgerFromEvents(events, data::Neighbouring::AddRemove).error().code,
             ErrorCode::InvalidArgument);
}

namespace {

/// A sparse vector on `group` (counts 30, 30) with ε = 1 = ε₁ + ε₂ + releases, ε₁ = 0.1, ε₂ = 0.4,
/// c = 1 and a threshold far below the counts: it settles in cell 1, E(1) = 1 (Lemma 8).
session::QueryRequest sparseVector(const std::string &id)
{
    session::QueryRequest r;
    r.id = id;
    r.spec = session::OdpRequestSpec{};
    r.odp()->mechanism = session::OdpMechanism::Svt;
    r.odp()->svt.column = "group";
    r.odp()->svt.threshold = -1000;
    r.odp()->svt.cutoff = 1;
    r.odp()->svt.epsilon = 1.0;
    r.odp()->svt.epsilon1 = 0.1;
    r.odp()->svt.epsilon2 = 0.4;
    return r;
}

} // namespace

void TestSessionLedger::outputDpReleasesAreSettledEvents()
{
    // One Laplace count and two sparse vectors under the odp filter (ε = 5). The report's
    // comparison said "1 privacy events … basic 0.0593" (the sparse vectors record no attempts and
    // were skipped); an all-ODP session said "Nothing was released".
    session::SessionSettings settings;
    settings.epsilon = 5.0;
    settings.delta = 1e-6;
    settings.filter = filters::FilterKind::Odp;
    settings.seed = 11;
    auto s = std::move(session::Session::create(handBuiltTable(), settings).value());
    auto count = s->ask(request(data::Aggregate::Count, "", session::TargetKind::Absolute, 40.0));
    QVERIFY2(count.ok(), count.ok() ? "" : count.error().message.c_str());
    QCOMPARE(count->status, EventStatus::Released);
    for (const char *id : {"s1", "s2"}) {
        auto svt = s->ask(sparseVector(id));
        QVERIFY2(svt.ok(), svt.ok() ? "" : svt.error().message.c_str());
        QCOMPARE(svt->status, EventStatus::Released);
        QCOMPARE(*svt->odpRecord()->cell, 1);
        PBX_FUZZY_COMPARE(svt->cost, 1.0, 1e-14);
    }
    // ±40 at 90 % by exact discrete Laplace noise (Δ = 1): ε = 0.0568440, rounded up.
    const double laplace = s->events()[0].cost;
    PBX_FUZZY_COMPARE(laplace, 0.056843981301046953, 1e-12);

    std::vector<std::size_t> origin;
    auto ledger = accounting::ledgerFromSession(*s, &origin);
    QVERIFY(ledger.ok());
    QCOMPARE(ledger->events.size(), std::size_t{3});
    QCOMPARE(origin, (std::vector<std::size_t>{0, 1, 2}));
    QCOMPARE(ledger->events[0].mechanism, MechanismKind::Laplace);
    for (std::size_t i = 1; i < 3; ++i) {
        const auto &e = ledger->events[i];
        QCOMPARE(e.mechanism, MechanismKind::PureDp);
        QVERIFY(e.expost && e.outputDp);
        QCOMPARE(e.epsilon, s->events()[i].cost);
    }

    // The report's comparison counts all three: basic = 0.0568440 + 1 + 1; every other strategy
    // says why it does not apply.
    const double total = laplace + s->events()[1].cost + s->events()[2].cost;
    auto report = report::collectReport(*s, {});
    QCOMPARE(report.comparison.privacyEvents, std::size_t{3});
    QVERIFY2(report.comparison.comparison.has_value(), report.comparison.unavailable.c_str());
    for (const auto &row : report.comparison.comparison->strategies) {
        if (row.name == "basic") {
            QVERIFY(row.applicable());
            PBX_FUZZY_COMPARE(row.epsilonAtDelta, 2.056843981301047, 1e-9);
            QVERIFY(row.epsilonAtDelta >= total);
            QCOMPARE(row.answer->delta, 1e-6);
            continue;
        }
        QVERIFY2(!row.applicable(), row.name.c_str());
        QVERIFY2(row.error->message.find("output-DP") != std::string::npos, row.error->message.c_str());
        QVERIFY2(row.error->message.find("Theorem 7") != std::string::npos, row.error->message.c_str());
    }

    // An all-ODP session is compared too (it said "Nothing was released").
    auto only = std::move(session::Session::create(handBuiltTable(), settings).value());
    QVERIFY(only->ask(sparseVector("s1")).ok());
    auto alone = report::collectReport(*only, {});
    QCOMPARE(alone.comparison.privacyEvents, std::size_t{1});
    QVERIFY2(alone.comparison.comparison.has_value(), alone.comparison.unavailable.c_str());
    PBX_FUZZY_COMPARE(alone.comparison.comparison->strategies.front().epsilonAtDelta, 1.0, 1e-12);
}

void TestSessionLedger::outputDpDeltaIsAddedByBasic()
{
    // Two settled output-DP events with δ = 1e-7 each (a PTR-IQR's 2δ_f): ApproxDp ex-post events;
    // basic composition adds their δ (Theorem 7 debits each in full), ε 0.7 + 1.2.
    std::vector<LedgerEvent> events(2);
    for (std::size_t i = 0; i < 2; ++i) {
        auto &e = events[i];
        e.status = EventStatus::Released;
        e.mechanism = session::EventMechanism::PtrIqr;
        e.cost = i == 0 ? 0.7 : 1.2;
        e.record = session::OdpRecord{};
        e.odpRecord()->settledEpsilon = e.cost;
        e.odpRecord()->guarantee.delta = 1e-7;
    }
    auto ledger = accounting::ledgerFromEvents(events, data::Neighbouring::Replace);
    QVERIFY(ledger.ok());
    QCOMPARE(ledger->events.size(), std::size_t{2});
    QCOMPARE(ledger->events[1].mechanism, MechanismKind::ApproxDp);
    QCOMPARE(ledger->events[1].delta, 1e-7);
    auto basic = accounting::evaluateLedger(ledger.value(), {true, 1e-6}, {"basic"});
    QVERIFY(basic.ok());
    PBX_FUZZY_COMPARE((*basic)["basic"]["epsilon"].get<double>(), 1.9, 1e-14);
    // Σδ = 2e-7, not 1 − (1 − 1e-7)² = 2e-7 − 1e-14.
    auto composed = accounting::BasicComposition::fromLedger(ledger.value());
    QVERIFY(composed.ok());
    auto delta = (*composed)->deltaForEpsilon(2.0);
    QVERIFY(delta.ok());
    QVERIFY(delta->delta >= 2e-7);
    PBX_FUZZY_COMPARE(delta->delta, 2e-7, 1e-14);
    QVERIFY2(delta->method.find("plus Σδ_j of the ex-post and output-DP events") != std::string::npos,
             delta->method.c_str());
}

QTEST_APPLESS_MAIN(TestSessionLedger)
#include "tst_sessionledger.moc"
