// SPDX-License-Identifier: MIT
// Workload-aware per-query caps: without an explicit cap, a doubling or noise-
// reduction request may spend at most remaining / (requests still to come); single releases and
// explicit caps are left alone; a session of 24 relative counts no longer spends everything on
// its first request.
#include "core/session/planned_cap.h"
#include "core/session/session.h"
#include "tests/synthetic_table.h"
#include "tests/testutils.h"

using namespace pbx;

namespace {
session::QueryRequest relativeCount(const std::string &where)
{
    session::QueryRequest r;
    r.query.aggregate = data::Aggregate::Count;
    r.query.where = where;
    r.target = {session::TargetKind::Relative, 0.05, 0.95};
    return r;
}
} // namespace

class TestPlannedCap : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void capIsRemainingOverQueriesToCome();
    void firstOfManyRequestsLeavesBudgetForTheRest();
};

void TestPlannedCap::capIsRemainingOverQueriesToCome()
{
    auto basic = filters::PrivacyFilter::create(filters::FilterKind::Basic, 1.0, 0.0).value();
    auto cap = session::plannedCap(*basic, relativeCount(""), 24);
    QVERIFY(cap);
    QVERIFY(*cap <= 1.0 / 24.0);
    PBX_FUZZY_COMPARE(*cap, 1.0 / 24.0, 1e-15);
    // zCDP: in ρ, the unit Gaussian doubling is charged in.
    auto zcdp = filters::PrivacyFilter::create(filters::FilterKind::Zcdp, 1.0, 1e-6).value();
    PBX_FUZZY_COMPARE(*session::plannedCap(*zcdp, relativeCount(""), 10), zcdp->remaining() / 10.0, 1e-15);
    // Explicit caps, single releases and N = 0 are left alone.
    auto explicitCap = relativeCount("");
    explicitCap.maxCost = 0.5;
    QVERIFY(!session::plannedCap(*basic, explicitCap, 24));
    QCOMPARE(*session::withPlannedCap(explicitCap, *basic, 24).maxCost, 0.5);
    auto absolute = relativeCount("");
    absolute.target = {session::TargetKind::Absolute, 40.0, 0.95};
    QVERIFY(!session::plannedCap(*basic, absolute, 24));
    QVERIFY(!session::plannedCap(*basic, relativeCount(""), 0));
}

// The failure: the basic filter spent all of ε on the first of 24 relative counts. With
// the planned cap the first spends ≤ ε/24 and every later one still has budget to start.
void TestPlannedCap::firstOfManyRequestsLeavesBudgetForTheRest()
{
    session::SessionSettings settings;
    settings.epsilon = 1.0;
    settings.filter = filters::FilterKind::Basic;
    settings.seed = 3;
    auto s = session::Session::create(pbx::test::syntheticTable(), settings).value();
    const std::size_t n = 24;
    for (std::size_t i = 0; i < n; ++i) {
        const double before = s->filter().remaining();
        auto e = s->ask(
            session::withPlannedCap(relativeCount(i % 2 ? "region == \"south\"" : ""), s->filter(), n - i));
        QVERIFY(e.ok());
        QVERIFY(e->cost <= before / static_cast<double>(n - i));
        QVERIFY(e->request.maxCost.has_value());
    }
    QVERIFY(s->filter().spent() <= 1.0);
    // Every request got to run: none was refused for lack of budget.
    for (const auto &e : s->events())
        QCOMPARE(e.status, session::EventStatus::Released);
}

QTEST_APPLESS_MAIN(TestPlannedCap)
#include "tst_plannedcap.moc"
