// SPDX-License-Identifier: MIT
// Private selection (docs/selection.md): the tight Rényi curve of bounded-range mechanisms against
// an independent evaluation (the worked values of the derivation), the exact selection
// probabilities of the exponential mechanism and report-noisy-max on the counts (1000, 980, 500, 20),
// the exact samplers against those probabilities, the bounded-range charge in every filter, and
// mode requests end to end in a session on CPS1988 (charge, transcript, restore, audit, ledger).
#include "core/accounting/pld_accountant.h"
#include "core/accounting/rdp_accountant.h"
#include "core/accounting/zcdp_accountant.h"
#include "core/filters/privacy_filter.h"
#include "core/io/event_json.h"
#include "core/io/request_json.h"
#include "core/mechanisms/random_bits.h"
#include "core/privacy/rdp_curves.h"
#include "core/session/ledger/cost_audit.h"
#include "core/session/ledger/session_ledger.h"
#include "core/session/session.h"
#include "core/strategies/selection.h"
#include "tests/strategies/cps_table.h"
#include "tests/testutils.h"

#include <cmath>

using namespace pbx;
using strategies::SelectionMechanism;

namespace {

std::unique_ptr<filters::PrivacyFilter> makeFilter(filters::FilterKind kind, double epsilon = 1.0)
{
    auto created = filters::PrivacyFilter::create(kind, epsilon, 1e-6);
    if (!created)
        qFatal("%s", created.error().message.c_str());
    return std::move(created.value());
}

const std::vector<std::int64_t> kCounts = {1000, 980, 500, 20};

bool closeRelative(double x, double y, double tol)
{
    return std::fabs(x - y) <= tol * std::fabs(y);
}

} // namespace

class TestSelection : public QObject
{
    Q_OBJECT

    std::shared_ptr<const data::Table> m_cps;

    static session::QueryRequest parse(const char *line)
    {
        auto r = io::readRequestLine(line, 1);
        if (!r)
            qFatal("%s", r.error().message.c_str());
        return *r;
    }

    std::unique_ptr<session::Session> makeSession(filters::FilterKind filter, double epsilon = 1.0,
                                                  data::Neighbouring n = data::Neighbouring::AddRemove)
    {
        session::SessionSettings s;
        s.epsilon = epsilon;
        s.delta = 1e-6;
        s.filter = filter;
        s.neighbours = n;
        s.seed = 17;
        auto created = session::Session::create(m_cps, s);
        if (!created)
            qFatal("%s", created.error().message.c_str());
        return std::move(created.value());
    }

private slots:
    void initTestCase() { m_cps = std::make_shared<const data::Table>(test::loadCps()); }

    /// r_BR(α; η) against the values of the derivation's independent evaluation (a dense grid in
    /// mpmath-free double precision, docs/selection.md): 1e-6 relative, never below them, and never
    /// above the bounds αη²/8 and the pure-ε curve.
    void boundedRangeCurve()
    {
        const struct
        {
            double eta, alpha, value;
        } rows[] = {{0.1, 2, 0.00249896}, {0.1, 8, 0.00992182}, {0.1, 32, 0.03546650},
                    {1.0, 2, 0.24022900}, {1.0, 8, 0.63545939}, {1.0, 32, 0.87124934}};
        for (const auto &r : rows) {
            const double v = privacy::rdpBoundedRange(r.eta, r.alpha);
            QVERIFY2(closeRelative(v, r.value, 1e-6), qPrintable(QString::number(v, 'g', 10)));
            QVERIFY(v >= r.value - 5e-9); // never below the 8-decimal value's rounding
        }
        for (const double eta : {0.01, 0.1, 0.5, 1.0, 3.0})
            for (const double alpha : {1.5, 2.0, 8.0, 32.0, 256.0}) {
                const double v = privacy::rdpBoundedRange(eta, alpha);
                QVERIFY(v <= alpha * eta * eta / 8.0);
                QVERIFY(v <= privacy::rdpPureDp(eta, alpha));
                QVERIFY(v > 0.0);
            }
        // η = 0.5: 0.0619 / 0.2122 / 0.3865 at α = 2 / 8 / 32 (4 digits).
        QCOMPARE(std::round(privacy::rdpBoundedRange(0.5, 2) * 1e4) / 1e4, 0.0619);
        QCOMPARE(std::round(privacy::rdpBoundedRange(0.5, 8) * 1e4) / 1e4, 0.2122);
        QCOMPARE(std::round(privacy::rdpBoundedRange(0.5, 32) * 1e4) / 1e4, 0.3865);
    }

    /// The worked example (1000, 980, 500, 20): P(A), P(B) of the exponential mechanism (1e-9) and
    /// of report-noisy-max with exponential noise (1e-6), add/remove η = ε and replace-one η = ε/2.
    void exactProbabilities()
    {
        const struct
        {
            SelectionMechanism mechanism;
            double eta, a, b;
        } rows[] = {
            {SelectionMechanism::Exponential, 0.1, 0.880797, 0.119203},
            {SelectionMechanism::Exponential, 0.05, 0.731059, 0.268941},
            {SelectionMechanism::Exponential, 0.5, 0.999955, 4.53979e-5},
            {SelectionMechanism::Exponential, 0.25, 0.993307, 0.00669285},
            {SelectionMechanism::ReportNoisyMax, 0.1, 0.932332, 0.0676676},
            {SelectionMechanism::ReportNoisyMax, 0.05, 0.81606, 0.18394},
            {SelectionMechanism::ReportNoisyMax, 0.5, 0.999977, 2.27e-5},
            {SelectionMechanism::ReportNoisyMax, 0.25, 0.996631, 0.00336897},
        };
        for (const auto &r : rows) {
            auto p = strategies::selectionProbabilities(r.mechanism, kCounts, r.eta);
            QVERIFY(p.ok());
            // The table's values have 6 significant digits.
            QVERIFY2(closeRelative((*p)[0], r.a, 1e-5), qPrintable(QString::number((*p)[0], 'g', 12)));
            QVERIFY2(closeRelative((*p)[1], r.b, 2e-4), qPrintable(QString::number((*p)[1], 'g', 12)));
            double total = 0.0;
            for (const double x : *p)
                total += x;
            QVERIFY(std::fabs(total - 1.0) < 1e-9);
        }
        // The exponential mechanism in closed form: P(B)/P(A) = e^{−20η} exactly.
        auto em = *strategies::selectionProbabilities(SelectionMechanism::Exponential, kCounts, 0.1);
        QVERIFY(closeRelative(em[1] / em[0], std::exp(-2.0), 1e-12));
        // Report-noisy-max: P(B) = e^{−2}/2 to first order (C and D are e^{−48}, e^{−98} away).
        auto rnm = *strategies::selectionProbabilities(SelectionMechanism::ReportNoisyMax, kCounts, 0.1);
        QVERIFY(closeRelative(rnm[1], std::exp(-2.0) / 2.0, 1e-9));
    }

    /// The calibration of docs/selection.md §2 holds exactly on every neighbour of the worked
    /// example: max_j |ln P(j | D)/P(j | D')| ≤ ε for both mechanisms under add/remove (η = ε, one
    /// count ±1) and replace-one (η = ε/2, one count +1 and another −1), tight for the exponential
    /// mechanism under add/remove; with η = ε under replace-one it is not (0.188592 at ε = 0.1).
    void calibrationHoldsOnEveryNeighbour()
    {
        auto realised = [](SelectionMechanism m, double eta, bool replace) {
            const auto p = *strategies::selectionProbabilities(m, kCounts, eta);
            double worst = 0.0;
            auto compare = [&](const std::vector<std::int64_t> &n) {
                const auto q = *strategies::selectionProbabilities(m, n, eta);
                for (std::size_t j = 0; j < p.size(); ++j)
                    worst = std::max(worst, std::fabs(std::log(p[j] / q[j])));
            };
            for (std::size_t i = 0; i < kCounts.size(); ++i) {
                if (!replace) {
                    for (const int d : {-1, 1}) {
                        auto n = kCounts;
                        n[i] += d;
                        compare(n);
                    }
                    continue;
                }
                for (std::size_t k = 0; k < kCounts.size(); ++k)
                    if (k != i) {
                        auto n = kCounts;
                        n[i] += 1;
                        n[k] -= 1;
                        compare(n);
                    }
            }
            return worst;
        };
        for (const double eps : {0.1, 0.5})
            for (const auto m : {SelectionMechanism::Exponential, SelectionMechanism::ReportNoisyMax}) {
                const double addRemove
                    = realised(m, strategies::selectionEta(eps, data::Neighbouring::AddRemove), false);
                const double replace
                    = realised(m, strategies::selectionEta(eps, data::Neighbouring::Replace), true);
                QVERIFY2(addRemove <= eps * (1.0 + 1e-6), qPrintable(QString::number(addRemove, 'g', 10)));
                QVERIFY2(replace <= eps * (1.0 + 1e-6), qPrintable(QString::number(replace, 'g', 10)));
                if (m == SelectionMechanism::Exponential)
                    QVERIFY(addRemove > eps * (1.0 - 1e-6)); // tight
            }
        const double wrong = realised(SelectionMechanism::Exponential, 0.1, true);
        QVERIFY2(std::fabs(wrong - 0.188592) < 1e-6, qPrintable(QString::number(wrong, 'g', 10)));
    }

    /// The exact samplers draw with the exact probabilities: 40,000 draws at η = 0.1 (both
    /// mechanisms), P(B) within 4.5 standard errors; a top-2 is always {A, B} here.
    void samplersMatchProbabilities()
    {
        for (const auto mechanism : {SelectionMechanism::Exponential, SelectionMechanism::ReportNoisyMax}) {
            const auto num = *strategies::selectionEtaNumerator(0.1);
            const double eta = strategies::selectionEtaOf(num);
            QVERIFY(eta <= 0.1 && eta > 0.1 - 1e-9);
            const double pb = (*strategies::selectionProbabilities(mechanism, kCounts, eta))[1];
            mechanisms::SeededRandomBits bits(7, mechanism == SelectionMechanism::Exponential ? 0 : 1);
            constexpr int kDraws = 40'000;
            int b = 0;
            for (int i = 0; i < kDraws; ++i) {
                auto pick = strategies::sampleSelection(mechanism, kCounts, num, 1, bits);
                QVERIFY(pick.ok());
                QVERIFY((*pick)[0] < 2); // C and D have probability < 1e-20
                b += (*pick)[0] == 1;
            }
            const double se = std::sqrt(pb * (1.0 - pb) / kDraws);
            QVERIFY2(std::fabs(b / double(kDraws) - pb) < 4.5 * se,
                     qPrintable(QStringLiteral("%1 vs %2").arg(b / double(kDraws)).arg(pb)));
            for (int i = 0; i < 200; ++i) {
                auto top = *strategies::sampleSelection(mechanism, kCounts, num, 2, bits);
                QCOMPARE(top.size(), std::size_t{2});
                QCOMPARE(std::min(top[0], top[1]), std::size_t{0});
                QCOMPARE(std::max(top[0], top[1]), std::size_t{1});
            }
        }
        mechanisms::SeededRandomBits bits(1, 0);
        PBX_VERIFY_ERROR(strategies::sampleSelection(SelectionMechanism::Exponential, kCounts, 1, 5, bits),
                         InvalidArgument, "k:");
        // Huge gaps (a count of 2^40 against 0) do not overflow the exact sampler.
        auto far = strategies::sampleSelection(SelectionMechanism::Exponential, {0, std::int64_t{1} << 40},
                                               *strategies::selectionEtaNumerator(3.0), 1, bits);
        QVERIFY(far.ok());
        QCOMPARE((*far)[0], std::size_t{1});
    }

    /// The accuracy statement and its inverse: ε for a gap of a rows over m categories.
    void gapBound()
    {
        const double beta = 0.05;
        // EM, add/remove: a = ln(m k/β)/ε.
        const double eps = strategies::selectionEpsilonFor(SelectionMechanism::Exponential, 50.0, beta, 4, 1,
                                                           data::Neighbouring::AddRemove);
        QVERIFY(closeRelative(eps, std::log(4.0 / beta) / 50.0, 2e-9));
        QVERIFY(eps >= std::log(4.0 / beta) / 50.0);
        // Replace-one pays twice the ε for the same η.
        QVERIFY(closeRelative(strategies::selectionEpsilonFor(SelectionMechanism::Exponential, 50.0, beta, 4,
                                                              1, data::Neighbouring::Replace),
                              2.0 * eps, 1e-12));
        // Report-noisy-max: ln((m − 1)k/β)/η.
        QVERIFY(
            closeRelative(strategies::selectionGapBound(SelectionMechanism::ReportNoisyMax, 0.1, beta, 4, 2),
                          std::log(3.0 * 2.0 / beta) / 0.1, 1e-12));
    }

    /// What each filter pays for bounded-range picks: ρ = ε²/8 on zCDP-based filters (4× less than
    /// a pure ε's ε²/2), ε on pure filters, r_BR on the Rényi filter. At (1, 1e-6), 0.1 per pick:
    /// 9 picks fit the basic filter (the double 0.1 is above 1/10, so ten of them exceed 1), 13 the
    /// zCDP filter as bounded range and 3 as pure ε, 16 the Rényi filter as bounded range and 9 as
    /// pure ε.
    void filterCharges()
    {
        auto admitted = [](filters::FilterKind kind, filters::ChargeKind charge) {
            auto f = makeFilter(kind);
            int n = 0;
            while (n < 1000 && f->charge({charge, 0.1, 0.0}).ok())
                ++n;
            return n;
        };
        QCOMPARE(admitted(filters::FilterKind::Basic, filters::ChargeKind::BoundedRange), 9);
        QCOMPARE(admitted(filters::FilterKind::Basic, filters::ChargeKind::PureEpsilon), 9);
        QCOMPARE(admitted(filters::FilterKind::Zcdp, filters::ChargeKind::BoundedRange), 13);
        QCOMPARE(admitted(filters::FilterKind::Zcdp, filters::ChargeKind::PureEpsilon), 3);
        const int rdpBr = admitted(filters::FilterKind::Rdp, filters::ChargeKind::BoundedRange);
        const int rdpPure = admitted(filters::FilterKind::Rdp, filters::ChargeKind::PureEpsilon);
        QVERIFY2(rdpBr >= 13 && rdpBr > rdpPure,
                 qPrintable(QStringLiteral("%1 vs %2").arg(rdpBr).arg(rdpPure)));
        QCOMPARE(rdpBr, 16); // the tight curve r_BR: more than the zCDP filter's 13
        QCOMPARE(rdpPure, 9);
        // The advanced-composition filter's theorem is for ε-DP inputs: a pick is a pure 0.1.
        QCOMPARE(admitted(filters::FilterKind::Advanced, filters::ChargeKind::BoundedRange), 3);
        // A count of k picks is k single picks at once.
        auto one = makeFilter(filters::FilterKind::Zcdp);
        auto three = makeFilter(filters::FilterKind::Zcdp);
        for (int i = 0; i < 3; ++i)
            QVERIFY(one->charge({filters::ChargeKind::BoundedRange, 0.1, 0.0}).ok());
        QVERIFY(three->charge({filters::ChargeKind::BoundedRange, 0.1, 0.0, 3}).ok());
        QVERIFY(std::fabs(one->spent() - three->spent()) <= 1e-15);
        QVERIFY(three->spent() >= 3 * 0.01 / 8.0);
        // The odometer adds ε²/8 to ρ and ε to the basic Σε.
        auto odo = makeFilter(filters::FilterKind::Odometer, 0.0);
        QVERIFY(odo->charge({filters::ChargeKind::BoundedRange, 0.1, 0.0, 2}).ok());
        QVERIFY(odo->spent() >= 0.0025 && odo->spent() < 0.0025 * (1 + 1e-12));
        QVERIFY(odo->epsilonSpent() >= 0.2 && odo->epsilonSpent() < 0.2 * (1 + 1e-12));
        // count > 1 only for bounded range.
        PBX_VERIFY_ERROR(one->charge({filters::ChargeKind::PureEpsilon, 0.1, 0.0, 2}), InvalidArgument,
                         "bounded-range");
    }

    /// The composition strategies account a bounded-range event: zCDP ε²/8, RDP r_BR, PLD and
    /// basic as ε-DP.
    void accountants()
    {
        accounting::Ledger ledger;
        accounting::PrivacyEvent e;
        e.mechanism = accounting::MechanismKind::BoundedRange;
        e.epsilon = 0.1;
        e.count = 13;
        ledger.events = {e};
        QVERIFY(closeRelative(*accounting::zcdpRhoPerStep(e, ledger.neighbours), 0.00125, 1e-12));
        auto zcdp = accounting::ZcdpAccountant::fromLedger(ledger);
        QVERIFY(zcdp.ok());
        auto rdp = accounting::RdpAccountant::fromLedger(ledger);
        QVERIFY(rdp.ok());
        // RDP with the bounded-range curve certifies no more ε than zCDP with ε²/8 at the same δ.
        const double rdpEps = (*rdp)->epsilonForDelta(1e-6).value().epsilon;
        const double zcdpEps = (*zcdp)->epsilonForDelta(1e-6).value().epsilon;
        QVERIFY2(rdpEps <= zcdpEps + 1e-9, qPrintable(QStringLiteral("%1 vs %2").arg(rdpEps).arg(zcdpEps)));
        QVERIFY(rdpEps < 1.3);
    }

    /// A mode request on CPS1988's region under every filter that can account it: released, the
    /// cost is k·ε per pick with ε from the target, the zCDP filter pays k·ε²/8, the transcript
    /// round-trips, the audit replays it, and a tampered pick or cost is caught.
    void modeInSessions()
    {
        using filters::FilterKind;
        const char *em
            = R"({"id":"m","aggregate":"mode","column":"region","target":{"kind":"absolute","error":300}})";
        const char *top2
            = R"({"id":"t","aggregate":"mode","column":"region","k":2,"mechanism":"report-noisy-max","target":{"kind":"absolute","error":300}})";
        const double epsilon = std::log(4.0 / 0.05) / 300.0 * (1.0 + 1e-9);
        for (const auto kind : {FilterKind::Basic, FilterKind::Zcdp, FilterKind::Unified, FilterKind::Rdp,
                                FilterKind::Advanced, FilterKind::ExPost, FilterKind::Odometer}) {
            auto s = makeSession(kind);
            auto e = s->ask(parse(em));
            QVERIFY2(e.ok(), e.ok() ? "" : e.error().message.c_str());
            QCOMPARE(e->status, session::EventStatus::Released);
            QCOMPARE(e->costKind, filters::ChargeKind::BoundedRange);
            // ε from the target, rounded up to the sampler's grid of η (2^−32).
            QVERIFY(e->cost >= epsilon && closeRelative(e->cost, epsilon, 2e-8));
            QVERIFY(e->targetMet && e->errorBound <= 300.0);
            QCOMPARE(e->mechanismName(), std::string("exponential-mechanism"));
            QCOMPARE(e->strategyRecord()->labels.size(), std::size_t{1});
            // South has the most rows in CPS1988 by far (a gap of thousands at η ≈ 0.015).
            QCOMPARE(e->strategyRecord()->labels[0], std::string("south"));
            if (kind == FilterKind::Zcdp)
                QVERIFY(closeRelative(s->filter().spent(), e->cost * e->cost / 8.0, 1e-9));
            auto t = s->ask(parse(top2));
            QVERIFY(t.ok());
            QCOMPARE(t->status, session::EventStatus::Released);
            QCOMPARE(t->costKind, filters::ChargeKind::PureEpsilon);
            QCOMPARE(t->strategyRecord()->labels.size(), std::size_t{2});
            QVERIFY(t->strategyRecord()->labels[0] != t->strategyRecord()->labels[1]);
            QCOMPARE(t->mechanismName(), std::string("report-noisy-max"));
            // Transcript round trip, then the audit replays both events into a fresh filter.
            std::vector<session::LedgerEvent> read;
            for (const auto &event : s->events()) {
                auto back = io::eventFromJson(io::eventToJson(event, s->filter()), event.index);
                QVERIFY2(back.ok(), back.ok() ? "" : back.error().message.c_str());
                read.push_back(*back);
            }
            auto audited = session::auditLedger(m_cps, s->settings(), read);
            QVERIFY2(audited.ok(), audited.ok() ? "" : audited.error().message.c_str());
            QCOMPARE((*audited)->filter().spent(), s->filter().spent());
            auto cheaper = read;
            cheaper[0].attempts[0].releases[0].cost /= 2.0;
            PBX_VERIFY_ERROR(session::auditLedger(m_cps, s->settings(), cheaper), Parse, "pick 1");
            auto relabelled = read;
            relabelled[1].strategyRecord()->labels[1] = relabelled[1].strategyRecord()->labels[0];
            QVERIFY(!session::auditLedger(m_cps, s->settings(), relabelled).ok());
            // The comparison's ledger: one bounded-range event and one pure event of 2 picks.
            auto ledger = accounting::ledgerFromSession(*s);
            QVERIFY(ledger.ok());
            QCOMPARE(ledger->events.size(), std::size_t{2});
            QCOMPARE(ledger->events[0].mechanism, accounting::MechanismKind::BoundedRange);
            QCOMPARE(ledger->events[1].mechanism, accounting::MechanismKind::PureDp);
            QCOMPARE(ledger->events[1].count, std::int64_t{2});
        }
    }

    void modeRefusals()
    {
        auto s = makeSession(filters::FilterKind::Zcdp);
        PBX_VERIFY_ERROR(
            s->ask(parse(R"({"aggregate":"mode","column":"wage","target":{"kind":"absolute","error":10}})")),
            InvalidArgument, "numeric");
        PBX_VERIFY_ERROR(
            s->ask(parse(
                R"({"aggregate":"mode","column":"region","k":5,"target":{"kind":"absolute","error":10}})")),
            InvalidArgument, "k:");
        PBX_VERIFY_ERROR(
            s->ask(parse(
                R"({"aggregate":"histogram","column":"region","k":2,"target":{"kind":"absolute","error":10}})")),
            InvalidArgument, "only a mode");
        auto bad = io::readRequestLine(
            R"({"aggregate":"mode","column":"region","mechanism":"gumbel","target":{"kind":"absolute","error":10}})",
            1);
        QVERIFY(!bad.ok());
        QVERIFY(bad.error().message.find("mechanism") != std::string::npos);
        QCOMPARE(s->filter().spent(), 0.0);
        // max_cost caps ε per pick at max_cost/k; the event says the target was not met.
        auto capped = s->ask(parse(
            R"({"aggregate":"mode","column":"region","k":2,"max_cost":0.001,"target":{"kind":"absolute","error":10}})"));
        QVERIFY(capped.ok());
        QVERIFY(capped->cost <= 0.001);
        QVERIFY(!capped->targetMet);
    }
};

QTEST_APPLESS_MAIN(TestSelection)
#include "tst_selection.moc"
