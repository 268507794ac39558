// SPDX-License-Identifier: MIT
// The session filter "odp" (core/filters/odp_privacy_filter.h): ordinary charges enter as
// Lemma 3 guarantees, ODP mechanisms reserve and settle; 10⁵ random sequences never overspend and
// always debit δ in full; refusals name their cause (Hartmann et al. 2023, Theorem 7;
// docs/output-dp.md §2).
#include "core/filters/odp_privacy_filter.h"
#include "core/io/request_json.h"
#include "core/session/session.h"
#include "tests/synthetic_table.h"
#include "tests/testutils.h"

#include <random>

using namespace pbx;
using filters::Charge;
using filters::ChargeKind;
using filters::FilterKind;
using filters::OdpPrivacyFilter;
using filters::PrivacyFilter;

namespace {
std::unique_ptr<OdpPrivacyFilter> makeFilter(double epsilon, double delta)
{
    auto f = OdpPrivacyFilter::create(epsilon, delta);
    return f ? std::move(*f) : nullptr;
}

odp::OdpGuarantee svtLike(double epsilon1, double epsilon2, int c, double delta = 0.0)
{
    odp::OdpGuarantee g;
    for (int j = 0; j <= c; ++j)
        g.cells.push_back({j, "j=" + std::to_string(j), epsilon1 + j * epsilon2 / c});
    g.delta = delta;
    return g;
}
} // namespace

class TestOdpSessionFilter : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void nameAndCreation();
    void ordinaryChargesAreLemma3Mechanisms();
    void reserveThenSettle();
    void openMechanismBlocksOthers();
    void refusalsNameTheCause();
    void randomSequencesNeverOverspend();
    void sessionAcceptsAndRefusesMethods();
    void odpRequestsShareTheBudget();
};

void TestOdpSessionFilter::nameAndCreation()
{
    QCOMPARE(filters::filterKindName(FilterKind::Odp), std::string_view("odp"));
    auto parsed = filters::parseFilterKind("odp");
    QVERIFY(parsed.ok());
    QCOMPARE(*parsed, FilterKind::Odp);
    auto f = PrivacyFilter::create(FilterKind::Odp, 2.0, 1e-5);
    QVERIFY(f.ok());
    QCOMPARE((*f)->kind(), FilterKind::Odp);
    QCOMPARE((*f)->epsilonBudget(), 2.0);
    QCOMPARE((*f)->deltaBudget(), 1e-5);
    QCOMPARE((*f)->unitSymbol(), std::string_view("ε"));
    // δ = 0 is a valid ODP budget (Theorem 7 with δ_g = 0), unlike the zCDP-based filters.
    QVERIFY(PrivacyFilter::create(FilterKind::Odp, 1.0, 0.0).ok());
    PBX_VERIFY_ERROR(PrivacyFilter::create(FilterKind::Odp, 0.0, 1e-5), InvalidArgument, "ε");
    PBX_VERIFY_ERROR(PrivacyFilter::create(FilterKind::Odp, 1.0, 1.0), InvalidArgument, "δ");
}

void TestOdpSessionFilter::ordinaryChargesAreLemma3Mechanisms()
{
    auto f = makeFilter(2.0, 1e-5);
    QVERIFY(f->charge({ChargeKind::PureEpsilon, 0.25, 0.0}).ok());
    QCOMPARE(f->epsilonSpent(), 0.25);
    QCOMPARE(f->deltaSpent(), 0.0);
    // A noise-reduction run: the first increment carries the run's δ, paid in full.
    QVERIFY(f->charge({ChargeKind::ExPost, 0.5, 2e-6}).ok());
    QVERIFY(f->charge({ChargeKind::ExPost, 0.25, 0.0}).ok());
    QCOMPARE(f->epsilonSpent(), 1.0);
    QCOMPARE(f->deltaSpent(), 2e-6);
    QCOMPARE(f->remainingFor(ChargeKind::ExPost), 1.0);
    QCOMPARE(f->remainingFor(ChargeKind::PureEpsilon), 1.0);
    QCOMPARE(f->remainingFor(ChargeKind::Rho), 0.0);
    QCOMPARE(f->remainingExPostDelta(), 8e-6);
    QCOMPARE(f->odp().history().size(), std::size_t{3});
    QVERIFY(!f->odp().history().back().open);
}

void TestOdpSessionFilter::reserveThenSettle()
{
    // docs/output-dp.md §2 test vector, steps 1–3: (2, 1e-5); Laplace 0.25; SVT ε₁ = 0.1,
    // ε₂ = 0.4, c = 4 settled at j = 1 (0.2, not the worst case 0.5); Laplace 0.3.
    auto f = makeFilter(2.0, 1e-5);
    QVERIFY(f->charge({ChargeKind::PureEpsilon, 0.25, 0.0}).ok());
    auto id = f->reserve(svtLike(0.1, 0.4, 4), "sparse vector");
    QVERIFY(id.ok());
    QCOMPARE(*id, 2);
    QCOMPARE(f->openRequest().value_or(0), 2);
    PBX_FUZZY_COMPARE(f->odp().epsilonRemaining(), 1.25, 1e-12); // 2 − 0.25 − 0.5 held
    auto settled = f->settle(*id, 1);
    QVERIFY(settled.ok());
    PBX_FUZZY_COMPARE(*settled, 0.2, 1e-15);
    QVERIFY(*settled >= 0.2); // rounded up, never down
    QVERIFY(!f->openRequest());
    QVERIFY(f->charge({ChargeKind::PureEpsilon, 0.3, 0.0}).ok());
    PBX_FUZZY_COMPARE(f->epsilonSpent(), 0.75, 1e-12);
    QVERIFY(f->epsilonSpent() >= 0.75);
    // Settling again is a programming error; nothing more is charged.
    PBX_VERIFY_ERROR(f->settle(*id, 0), InvalidArgument, "not open");
    PBX_FUZZY_COMPARE(f->epsilonSpent(), 0.75, 1e-12);
    // A cell outside the partition is charged the worst case (never a refund).
    auto id2 = f->reserve(svtLike(0.1, 0.4, 4), "sparse vector");
    QVERIFY(id2.ok());
    PBX_VERIFY_ERROR(f->settle(*id2, 7), InvalidArgument, "worst case");
    PBX_FUZZY_COMPARE(f->epsilonSpent(), 1.25, 1e-12);
}

void TestOdpSessionFilter::openMechanismBlocksOthers()
{
    auto f = makeFilter(2.0, 1e-5);
    auto id = f->reserve(svtLike(0.1, 0.4, 4), "sparse vector");
    QVERIFY(id.ok());
    // Every other request is refused while the reservation is open (R4: Theorem 7 is sequential).
    PBX_VERIFY_ERROR(f->charge({ChargeKind::PureEpsilon, 0.01, 0.0}), Unsupported,
                     "sparse vector #1 is still open");
    PBX_VERIFY_ERROR(f->canCharge({ChargeKind::ExPost, 0.01, 0.0}), Unsupported, "still open");
    PBX_VERIFY_ERROR(f->reserve(svtLike(0.1, 0.1, 1), "other"), Unsupported, "send STOP first");
    QCOMPARE(f->remainingFor(ChargeKind::PureEpsilon), 0.0); // callers calibrate to nothing while open
    QCOMPARE(f->epsilonSpent(), 0.0);
    QVERIFY(f->settleWorstCase(*id).ok());
    PBX_FUZZY_COMPARE(f->epsilonSpent(), 0.5, 1e-15);
    QVERIFY(f->charge({ChargeKind::PureEpsilon, 0.01, 0.0}).ok());
}

void TestOdpSessionFilter::refusalsNameTheCause()
{
    auto f = makeFilter(1.0, 1e-6);
    // ρ has no ODP cost.
    PBX_VERIFY_ERROR(f->charge({ChargeKind::Rho, 0.01, 0.0}), Unsupported, "ρ (zCDP) charge has no ODP cost");
    // The worst case decides admission, not the likely cell.
    QVERIFY(f->charge({ChargeKind::PureEpsilon, 0.45, 0.0}).ok());
    PBX_VERIFY_ERROR(f->reserve(svtLike(0.1, 0.5, 4), "sparse vector"), BudgetExceeded,
                     "needs ε = 0.6 (worst case) but 0.55 remains");
    PBX_VERIFY_ERROR(f->reserve(svtLike(0.1, 0.1, 4, 2e-6), "sparse vector"), BudgetExceeded, "δ = 2e-06");
    PBX_VERIFY_ERROR(f->charge({ChargeKind::PureEpsilon, 0.56, 0.0}), BudgetExceeded, "0.55 remains");
    PBX_VERIFY_ERROR(f->charge({ChargeKind::PureEpsilon, -1.0, 0.0}), InvalidArgument, "finite number");
    odp::OdpGuarantee empty;
    PBX_VERIFY_ERROR(f->reserve(empty, "empty"), InvalidArgument, "cell");
    PBX_FUZZY_COMPARE(f->epsilonSpent(), 0.45, 1e-15); // nothing debited by any refusal
    QCOMPARE(f->deltaSpent(), 0.0);
}

void TestOdpSessionFilter::randomSequencesNeverOverspend()
{
    std::mt19937_64 rng(20261125);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    const double epsilonBudget = 3.0;
    const double deltaBudget = 1e-4;
    auto f = makeFilter(epsilonBudget, deltaBudget);
    filters::BudgetAccount expectedDelta(deltaBudget); // δ of every admitted request, in full
    int admitted = 0;
    int refusedWorst = 0;
    int refusedOpen = 0;
    std::optional<int> open;
    int openCutoff = 0;
    for (int step = 0; step < 100000; ++step) {
        if (!open && (f->odp().epsilonRemaining() < 0.3 || f->odp().deltaRemaining() < 2e-6)) {
            // nearly exhausted: start a fresh session
            f = makeFilter(epsilonBudget, deltaBudget);
            expectedDelta = filters::BudgetAccount(deltaBudget);
            open.reset();
        }
        const double r = unit(rng);
        if (open && r < 0.4) {
            const int cell = static_cast<int>(rng() % 6);
            const auto &entry = f->odp().history().back();
            const double before = f->epsilonSpent();
            QVERIFY(entry.open);
            auto s = f->settle(*open, cell);
            if (cell <= openCutoff)
                QVERIFY(s.ok());
            else // outside the partition: charged the worst case
                PBX_VERIFY_ERROR(s, InvalidArgument, "worst case");
            QVERIFY(f->epsilonSpent() >= before);
            open.reset();
        } else if (r < 0.5) {
            const int c = 1 + static_cast<int>(rng() % 4);
            const double delta = unit(rng) < 0.3 ? 2e-6 * unit(rng) : 0.0;
            const auto g = svtLike(0.3 * unit(rng), 0.8 * unit(rng), c, delta);
            const double before = f->epsilonSpent();
            const bool fitsWorst
                = g.worstEpsilon() <= f->odp().epsilonRemaining() && delta <= f->odp().deltaRemaining();
            auto id = f->reserve(g, "mechanism");
            if (open) {
                PBX_VERIFY_ERROR(id, Unsupported, "still open");
                ++refusedOpen;
            } else if (!fitsWorst) {
                PBX_VERIFY_ERROR(id, BudgetExceeded, "needs");
                ++refusedWorst;
            } else {
                QVERIFY(id.ok());
                expectedDelta.add(delta);
                open = *id;
                openCutoff = c;
                ++admitted;
            }
            QCOMPARE(f->epsilonSpent(), before);
        } else {
            const bool expost = unit(rng) < 0.5;
            const Charge c{expost ? ChargeKind::ExPost : ChargeKind::PureEpsilon, 0.5 * unit(rng),
                           expost && unit(rng) < 0.3 ? 1e-6 : 0.0};
            auto paid = f->charge(c);
            if (paid)
                expectedDelta.add(c.delta);
            else
                QVERIFY(open || paid.error().code == ErrorCode::BudgetExceeded);
        }
        // Never over budget, even counting the open reservation at its worst case.
        QVERIFY(f->epsilonSpent() <= epsilonBudget);
        QVERIFY(f->odp().epsilonRemaining() >= 0.0);
        if (open)
            QVERIFY(f->epsilonSpent() + f->odp().history().back().reservedEpsilon
                    <= epsilonBudget * (1 + 1e-15));
        QVERIFY(f->deltaSpent() <= deltaBudget);
        // δ is debited in full at admission, whatever the cell.
        QCOMPARE(f->deltaSpent(), expectedDelta.spent());
    }
    qInfo("admitted %d, refused (worst case) %d, refused (open) %d", admitted, refusedWorst, refusedOpen);
    QVERIFY(admitted > 5000);
    QVERIFY(refusedWorst > 100);
    QVERIFY(refusedOpen > 100);
}

void TestOdpSessionFilter::sessionAcceptsAndRefusesMethods()
{
    session::SessionSettings settings;
    settings.epsilon = 1.0;
    settings.delta = 1e-6;
    settings.filter = FilterKind::Odp;
    settings.seed = 7;
    auto s = session::Session::create(test::syntheticTable(), settings);
    QVERIFY(s.ok());
    session::QueryRequest r;
    r.query.aggregate = data::Aggregate::Count;
    r.target = session::AccuracyTarget{session::TargetKind::Absolute, 50, 0.95};
    auto e = (*s)->ask(r);
    QVERIFY(e.ok());
    QCOMPARE(e->status, session::EventStatus::Released);
    QCOMPARE(e->mechanismName(), std::string("laplace")); // the default for an absolute count
    QVERIFY(e->cost > 0.0);
    PBX_FUZZY_COMPARE((*s)->filter().epsilonSpent(), e->cost, 1e-15);
    // Laplace noise reduction for a relative target (ex-post ⇒ ODP).
    r.target = session::AccuracyTarget{session::TargetKind::Relative, 0.05, 0.95};
    auto nr = (*s)->ask(r);
    QVERIFY(nr.ok());
    QCOMPARE(nr->mechanismName(), std::string("laplace-nr"));
    // Gaussian releases are refused before anything is spent, with the reason.
    r.target = session::AccuracyTarget{session::TargetKind::Absolute, 50, 0.95};
    r.mechanism = session::ReleaseMethod::Gaussian;
    const double before = (*s)->filter().epsilonSpent();
    PBX_VERIFY_ERROR((*s)->ask(r), InvalidArgument, "ρ (zCDP) charge has no ODP cost");
    r.mechanism = session::ReleaseMethod::DoublingGaussian;
    PBX_VERIFY_ERROR((*s)->ask(r), InvalidArgument, "the odp filter cannot account 'doubling-gaussian'");
    QCOMPARE((*s)->filter().epsilonSpent(), before);
    // δ = 0 is a valid session budget under odp.
    settings.delta = 0.0;
    QVERIFY(session::Session::create(test::syntheticTable(), settings).ok());
}

void TestOdpSessionFilter::odpRequestsShareTheBudget()
{
    // PTR-IQR, an early-stopped mean and ordinary releases in one (ε, δ) = (3, 1e-6) budget, replace-one.
    session::SessionSettings settings;
    settings.epsilon = 3.0;
    settings.delta = 1e-6;
    settings.filter = FilterKind::Odp;
    settings.neighbours = data::Neighbouring::Replace;
    settings.seed = 7;
    auto s = session::Session::create(test::syntheticTable(), settings).value();
    session::QueryRequest count;
    count.query.aggregate = data::Aggregate::Count;
    count.target = session::AccuracyTarget{session::TargetKind::Absolute, 50, 0.95};
    auto first = s->ask(count);
    QVERIFY(first.ok());
    auto request = [](const char *text) { return io::readRequestLine(text, 1).value(); };
    // bin mode, ε = 0.4, δ_f = 1e-7: cells 0.4 / 0.8 / 0.8, δ = 2e-7 debited in full.
    auto ptr = s->ask(request(R"({"mechanism":"ptr-iqr","column":"income","epsilon":0.4,"mode":"bin"})"));
    QVERIFY2(ptr.ok(), ptr ? "" : ptr.error().message.c_str());
    QCOMPARE(ptr->status, session::EventStatus::Released);
    PBX_FUZZY_COMPARE(ptr->odpRecord()->reservedEpsilon, 0.8, 1e-14);
    PBX_FUZZY_COMPARE(s->filter().deltaSpent(), 2e-7, 1e-12);
    auto early
        = s->ask(request(R"({"mechanism":"early-stop","column":"age","step_epsilon":0.05,"stops":[2,4,8],)"
                         R"("composition":"basic","tolerance":0.05})"));
    QVERIFY2(early.ok(), early ? "" : early.error().message.c_str());
    QCOMPARE(early->status, session::EventStatus::Released);
    PBX_FUZZY_COMPARE(early->odpRecord()->reservedEpsilon, 0.4, 1e-13);
    // The filter's history: the count, PTR-IQR, the early-stopped mean, each settled once.
    const auto &history = dynamic_cast<const OdpPrivacyFilter &>(s->filter()).odp().history();
    QCOMPARE(history.size(), std::size_t{3});
    QCOMPARE(history[1].label, std::string("PTR-IQR"));
    QCOMPARE(history[2].label, std::string("early-stopped mean"));
    QCOMPARE(history[1].settledEpsilon, ptr->cost);
    QVERIFY(!history[2].open);
    PBX_FUZZY_COMPARE(s->filter().epsilonSpent(), first->cost + ptr->cost + early->cost, 1e-14);
    // δ_f = 1e-6 needs 2e-6 of δ but 8e-7 remains: refused by admission, nothing spent.
    const double before = s->filter().epsilonSpent();
    auto tooMuchDelta
        = s->ask(request(R"({"mechanism":"ptr-iqr","column":"income","epsilon":0.1,"delta_f":1e-6})"));
    QVERIFY(tooMuchDelta.ok());
    QCOMPARE(tooMuchDelta->status, session::EventStatus::Refused);
    QVERIFY2(tooMuchDelta->reason.find("δ") != std::string::npos, tooMuchDelta->reason.c_str());
    QCOMPARE(s->filter().epsilonSpent(), before);
    PBX_FUZZY_COMPARE(s->filter().deltaSpent(), 2e-7, 1e-12);
}

QTEST_GUILESS_MAIN(TestOdpSessionFilter)
#include "tst_odpsessionfilter.moc"
