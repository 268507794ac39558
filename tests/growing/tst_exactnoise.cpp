// SPDX-License-Identifier: MIT
// Growing-database streams draw exact discrete noise (core/session/
// growing_exact_noise.h, docs/growing-databases.md §9 "Exact discrete noise"): the count streams
// (BBScheduler, BBImprover, NSG, PMWG) release (count + Z)/t with Z discrete Laplace of scale ≥ b·t,
// so every released value times t is an integer; the sparse vector's test is exact on a 2^-20 count
// grid and keeps the shift property the proof needs; ERMG releases θ snapped to a power-of-two grid
// plus discrete Gaussian noise, so every coefficient is a grid multiple, at most ρ_t-zCDP; the
// charges are the continuous design's, bit for bit; a failing random source releases nothing.
#include "core/data/predicate.h"
#include "core/growing/bb_scheduler.h"
#include "core/growing/ermg.h"
#include "core/growing/growing_svt.h"
#include "core/session/growing/growing_ermg.h"
#include "core/session/growing/growing_exact_noise.h"
#include "core/session/growing/growing_nsg.h"
#include "core/session/growing/growing_pmwg.h"
#include "core/session/growing/growing_release.h"
#include "tests/failing_bits.h"
#include "tests/growing/growing_session_fixture.h"
#include "tests/test_rows.h"
#include "tests/testutils.h"

#include <cmath>
#include <span>

using namespace pbx;
using growing_fixture::cps;
using growing_fixture::openSession;
using growing_fixture::request;
using mechanisms::Rational;

namespace {

// (Plain strings: moc's lexer does not follow a backslash inside a raw string.)
const std::string kPredicates = "[\"region == \\\"south\\\"\",\"ethnicity == \\\"afam\\\"\"]";

std::string schedulerLine()
{
    return R"({"id":"g","type":"growing","algorithm":"bbscheduler","stream":{"start_size":1000,"end":28155,"seed":7},)"
           R"("budget":{"kind":"pure","epsilon":0.5},"schedule":{"kind":"geometric","gamma":1},)"
           R"("black_box":{"kind":"laplace-k","queries":)"
           + kPredicates + "}}";
}

std::string improverLine()
{
    return R"({"id":"i","type":"growing","algorithm":"bbimprover","stream":{"start_size":1000,"end":28155,"seed":7},)"
           R"("budget":{"kind":"zcdp","rho":0.5},"schedule":{"a":0.1,"every":1000},)"
           R"("black_box":{"kind":"laplace-k","queries":)"
           + kPredicates + "}}";
}

std::string nsgLine()
{
    return R"({"id":"s","type":"growing","algorithm":"nsg","stream":{"start_size":1000,"seed":7},)"
           R"("budget":{"kind":"pure","epsilon":1},"nsg":{"p":0.5,"T":0.3,"cap":{"kind":"time","c0":10},)"
           R"("checkpoints":40,"queries":)"
           + kPredicates + "}}";
}

std::string pmwgLine()
{
    return R"({"id":"m","type":"growing","algorithm":"pmwg","stream":{"start_size":14000,"seed":7},)"
           R"("budget":{"kind":"pure","epsilon":1},"pmwg":{"universe":"small","p":0.5,"c0":40,"T":0.05,)"
           R"("eta":0.3,"checkpoints":40,"per_checkpoint":25}})";
}

std::string ermgLine()
{
    return R"({"id":"e","type":"growing","algorithm":"ermg","stream":{"start_size":1000,"end":28155,"seed":7},)"
           R"("budget":{"kind":"zcdp","rho":0.5},"schedule":{"kind":"improver","a":0.1,"every":1000},)"
           R"("erm":{"lambda":0.01,"tol":1e-10}})";
}

/// Whether `value` is (an integer m)/t as noisyCountFraction computes it: m = round(value·t) and
/// m/t rounds back to value bit for bit.
bool isCountOverT(double value, std::uint64_t t)
{
    const double m = std::round(value * double(t));
    return m / double(t) == value;
}

/// n/d ≥ x exactly for a double x > 0 given as a ratio p/q of small integers: n·q ≥ p·d.
bool atLeast(const Rational &r, std::uint64_t p, std::uint64_t q)
{
    __extension__ typedef unsigned __int128 U128;
    return U128(r.num) * q >= U128(p) * r.den;
}

/// What Session::askGrowing builds before a count stream runs: the arrival order (seed 7) and the
/// predicates' prefix counts along it.
struct StreamInput
{
    test::PublicRows rows{*cps()};
    std::vector<std::uint32_t> order;
    std::vector<std::vector<std::uint8_t>> masks;
};

void prepare(StreamInput &in, const std::vector<std::string> &predicates)
{
    in.order = *growing::arrivalOrder(in.rows, "random", 7);
    for (const auto &text : predicates) {
        auto p = data::Predicate::compile(text, *cps());
        in.masks.emplace_back();
        p->evaluate(in.rows, in.masks.back());
    }
}

std::unique_ptr<filters::PrivacyFilter> filterOf(filters::FilterKind kind, double epsilon)
{
    session::SessionSettings s;
    auto created = filters::PrivacyFilter::create(kind, epsilon, s.delta, s.split);
    return std::move(created.value());
}

} // namespace

class TestExactNoise : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void countScaleRoundsUp();
    void noisyFractionsAreCountsOverT();
    void boundsComeFromTheExactTail();
    void sparseVectorTestIsExactAndShiftStable();
    void schedulerAndImproverAnswersAreCountsOverT();
    void nsgAndPmwgHardAnswersAreCountsOverT();
    void ermgCoefficientsAreGridMultiples();
    void failingSourceReleasesNothing();
    void scalesBeyondTheSamplersSpendNothing();
};

void TestExactNoise::countScaleRoundsUp()
{
    // b = 1/128 at t = 1024: b·t = 8 exactly, already on the grid.
    auto eight = session::countLaplaceScale(1.0 / 128.0, 1024);
    QVERIFY(eight.ok());
    QCOMPARE(*eight, (Rational{8, 1}));
    // b = 1/3 at t = 7: the smallest n/2^k ≥ 7/3 with k ≤ 32, strictly above 7/3 and within 2^-32.
    auto third = session::countLaplaceScale(1.0 / 3.0, 7);
    QVERIFY(third.ok());
    QVERIFY(atLeast(*third, 7, 3));
    QVERIFY(third->den <= (std::uint64_t{1} << 32));
    QVERIFY(third->toDouble() - 7.0 / 3.0 < 0x1p-31);
    // Beyond the exact sampler's 2^40 (a budget far too small to be useful): refused by name.
    auto huge = session::countLaplaceScale(1.0, std::uint64_t{1} << 41);
    QVERIFY(!huge.ok());
    QVERIFY2(
        QString::fromStdString(huge.error().message).startsWith(QStringLiteral("INVALID_BUDGET: budget:")),
        huge.error().message.c_str());
}

void TestExactNoise::noisyFractionsAreCountsOverT()
{
    mechanisms::SeededRandomBits bits(11, 3);
    const Rational scale{8, 1};
    std::size_t zeros = 0;
    for (int i = 0; i < 4000; ++i) {
        auto v = session::noisyCountFraction(400, 1237, scale, bits);
        QVERIFY(v.ok());
        QVERIFY(isCountOverT(*v, 1237));
        const double z = std::round(*v * 1237.0) - 400.0;
        QVERIFY(std::abs(z) < 200.0); // P(|Z| ≥ 200) < e^{−25}
        zeros += z == 0.0 ? 1 : 0;
    }
    // P(Z = 0) = tanh(1/16) = 0.06242: 4000 draws give 250 ± 15 (sd); ±5 sd.
    QVERIFY2(zeros > 175 && zeros < 325, qPrintable(QString::number(zeros)));
}

void TestExactNoise::boundsComeFromTheExactTail()
{
    // s = 8, β = 0.0125: P(|Z| > w) = 2e^{−w/8}/(e^{1/8} + 1) is 0.013374 at w = 34 and 0.011802 at
    // w = 35, so w = 35 and the bound is 35/1000; the continuous Laplace(0.008) bound is
    // 0.008·ln(80) = 0.0350563.
    auto bound = session::countLaplaceBound(Rational{8, 1}, 1000, 0.0125);
    QVERIFY(bound.ok());
    QVERIFY2(*bound >= 0.035 && *bound <= 0.035 + 1e-17, qPrintable(QString::number(*bound, 'g', 17)));
    QVERIFY(*bound <= 0.008 * std::log(80.0) + 1.0 / 1000.0);
    // β below the tail's floor: s·ln(1/β) + 1 counts (P(|Z| > a) ≤ e^{−⌊a⌋/s}).
    auto tiny = session::countLaplaceBound(Rational{8, 1}, 1000, std::ldexp(1.0, -1030));
    QVERIFY(tiny.ok());
    QVERIFY2(std::abs(*tiny - (8.0 * 1030.0 * std::log(2.0) + 1.0) / 1000.0) < 1e-12,
             qPrintable(QString::number(*tiny, 'g', 17)));
}

void TestExactNoise::sparseVectorTestIsExactAndShiftStable()
{
    const auto above = [](std::uint64_t count, std::optional<double> centre, std::int64_t nu,
                          std::int64_t rho, double tau) {
        auto r = session::svtAbove(count, centre, nu, rho, tau);
        if (!r)
            qFatal("%s", r.error().message.c_str());
        return *r;
    };
    // NSG: count + ν ≥ τ + ρ.
    QVERIFY(above(10, std::nullopt, 0, 0, 10.0));
    QVERIFY(!above(10, std::nullopt, 0, 0, 10.5));
    QVERIFY(above(10, std::nullopt, 1, 0, 10.5));
    QVERIFY(!above(10, std::nullopt, 1, 1, 10.5));
    // PMWG: |count − centre| + ν ≥ τ + ρ.
    QVERIFY(above(5, 7.25, 0, 0, 2.25));
    QVERIFY(!above(5, 7.25, 0, 0, 2.5));
    QVERIFY(above(5, 7.25, 0, -1, 2.5));
    QVERIFY(above(10, 7.25, 0, 0, 2.75));
    // A public real within 2^-21 of a grid point is that grid point.
    QVERIFY(above(10, std::nullopt, 0, 0, 10.0 + 0x1p-23));
    QVERIFY(!session::svtAbove(1, std::nullopt, 0, 0, -1.0).ok());
    // The two steps of the proof (Dwork & Roth 2014, Thm 3.23) for neighbouring counts c' = c ± 1:
    // ⊥ at (c, ν, ρ) ⇒ ⊥ at (c', ν, ρ + 1); ⊤ at (c, ν, ρ) ⇒ ⊤ at (c', ν + 2, ρ + 1).
    const std::optional<double> centres[] = {std::nullopt, 7.25, 10.5, 3.0 + 0x1p-22, 0.3333333333333333};
    const double taus[] = {0.0, 2.25, 5.5, 10.0000001, 6.0 - 0x1p-30};
    std::size_t checked = 0;
    for (const auto &centre : centres)
        for (const double tau : taus)
            for (std::uint64_t c = 0; c <= 20; ++c)
                for (std::int64_t nu = -6; nu <= 6; ++nu)
                    for (std::int64_t rho = -6; rho <= 6; ++rho) {
                        const bool top = above(c, centre, nu, rho, tau);
                        for (const std::uint64_t d : {c - 1, c, c + 1}) {
                            if (c == 0 && d != c && d != c + 1)
                                continue;
                            if (!top)
                                QVERIFY(!above(d, centre, nu, rho + 1, tau));
                            else
                                QVERIFY(above(d, centre, nu + 2, rho + 1, tau));
                            ++checked;
                        }
                    }
    QCOMPARE(checked, std::size_t{5 * 5 * (21 * 3 - 1) * 13 * 13});
}

void TestExactNoise::schedulerAndImproverAnswersAreCountsOverT()
{
    auto s = openSession(filters::FilterKind::Basic, 1.0);
    auto e = s->ask(request(schedulerLine()));
    QVERIFY2(e.ok(), e ? "" : e.error().message.c_str());
    const auto &r = *e->growingRecord();
    QCOMPARE(r.epochs.size(), std::size_t{5});
    auto plan = session::growingRunPlan(*e->request.growing(), *cps());
    QVERIFY(plan.ok());
    growing::SchedulerConfig c;
    c.startSize = 1000;
    c.gamma = 1.0;
    c.budget = growing::Budget{growing::BudgetKind::Pure, 0.5};
    c.box.queries = 2;
    auto continuous = growing::planEpochs(c, 28155); // the continuous design's plan (the lab's)
    QVERIFY(continuous.ok());
    const double charges[] = {0.25, 0.125, 0.0625, 0.03125, 0.015625};
    for (std::size_t i = 0; i < 5; ++i) {
        const auto &x = r.epochs[i];
        for (const double answer : x.answers)
            QVERIFY2(isCountOverT(answer, x.start), qPrintable(QString::number(answer, 'g', 17)));
        // b = 2/(ε_i t_i) = 0.008 (rounded up) at t_i = 1000·2^i: the count scale s = b·t_i = 2/ε_i =
        // 8·2^i, rounded up to n/2^32 (+2^-32: b and b·t were rounded up).
        const Rational noise = (*plan)[i].noise;
        const std::uint64_t counts = std::uint64_t{8} << i;
        QVERIFY(atLeast(noise, counts, 1));
        QVERIFY(noise.toDouble() <= double(counts) + 0x1p-31);
        QCOMPARE(noise, *session::countLaplaceScale(x.scale, x.start));
        // The charge is the continuous design's ε_i, bit for bit (never smaller).
        QCOMPARE(e->attempts[i].cost, (*continuous)[i].privacy.epsilon);
        QVERIFY(std::abs(e->attempts[i].cost - charges[i]) < 1e-15);
        // The bound: the exact discrete tail at β_i/2 plus the staleness; within 1/t of the
        // continuous α_i + s_i.
        const double alpha = *session::countLaplaceBound(noise, x.start, x.beta / 2.0);
        QCOMPARE(x.bound, alpha + (*continuous)[i].staleness);
        QVERIFY(std::abs(x.bound - (*continuous)[i].bound) <= 1.0 / double(x.start));
    }
    // Epoch 0: s = 8 counts, β_0/k = 0.025/2, so w = 35 (boundsComeFromTheExactTail) and α_0 = 0.035
    // (continuous: 0.008·ln(80) = 0.0350563), plus the staleness 999/1999.
    QCOMPARE(r.epochs[0].beta, 0.025);
    QVERIFY2(std::abs(r.epochs[0].bound - (0.035 + 999.0 / 1999.0)) < 1e-15,
             qPrintable(QString::number(r.epochs[0].bound, 'g', 17)));
    QVERIFY(session::auditGrowingEvent(*e, *cps(), s->settings()).ok());
    // verify: an answer that is not a count over t (record and release edited alike).
    auto edited = *e;
    edited.growingRecord()->epochs[1].answers[0] += 1e-7;
    edited.attempts[1].releases[0].value = edited.growingRecord()->epochs[1].answers[0];
    auto audited = session::auditGrowingEvent(edited, *cps(), s->settings());
    QVERIFY(!audited.ok());
    QVERIFY2(QString::fromStdString(audited.error().message).contains(QStringLiteral("epoch 1: answer 0 (")),
             audited.error().message.c_str());
    QVERIFY(QString::fromStdString(audited.error().message)
                .contains(QStringLiteral(") is not a count over t = 2000")));

    auto z = openSession(filters::FilterKind::Zcdp, 10.0);
    auto i = z->ask(request(improverLine()));
    QVERIFY2(i.ok(), i ? "" : i.error().message.c_str());
    QCOMPARE(i->growingRecord()->epochs.size(), std::size_t{28});
    for (const auto &x : i->growingRecord()->epochs)
        for (const double answer : x.answers)
            QVERIFY(isCountOverT(answer, x.start));
    QVERIFY(session::auditGrowingEvent(*i, *cps(), z->settings()).ok());
}

void TestExactNoise::nsgAndPmwgHardAnswersAreCountsOverT()
{
    auto s = openSession(filters::FilterKind::Basic, 10.0);
    auto e = s->ask(request(nsgLine()));
    QVERIFY2(e.ok(), e ? "" : e.error().message.c_str());
    const auto &nsg = *e->growingRecord()->nsg;
    QVERIFY(!nsg.hard.empty());
    auto unit = session::growingNsgUnit(*e->request.growing());
    for (const auto &h : nsg.hard) {
        QVERIFY2(isCountOverT(h.answer, h.time), qPrintable(QString::number(h.answer, 'g', 17)));
        const auto noise = session::svtNoiseAt(*unit, h.time);
        QVERIFY(noise.ok());
        QCOMPARE(h.scale, noise->numeric);
        // The count-scale scales are at least the continuous design's: t·σ(t), 2t·σ(t), 3t·σ(t).
        const double ts = double(h.time) * unit->sigma(double(h.time));
        QVERIFY(noise->threshold.toDouble() >= ts && noise->query.toDouble() >= 2.0 * ts);
        QVERIFY(noise->numericCount.toDouble() >= 3.0 * ts);
        QVERIFY(noise->query.toDouble() <= 2.0 * ts * (1.0 + 1e-9));
    }
    // The charges are the continuous design's: the first round (7/3)f(1000) = 0.0322581.
    QVERIFY(std::abs(nsg.rounds.front().charge - 0.0322581) < 1e-7);
    QCOMPARE(nsg.rounds.front().charge, session::nsgRoundCharge(*e->request.growing(), *unit, 1000).amount);
    QVERIFY(session::auditGrowingEvent(*e, *cps(), s->settings()).ok());

    auto m = s->ask(request(pmwgLine()));
    QVERIFY2(m.ok(), m ? "" : m.error().message.c_str());
    const auto &pmwg = *m->growingRecord()->pmwg;
    QVERIFY(!pmwg.hard.empty());
    for (const auto &h : pmwg.hard)
        QVERIFY2(isCountOverT(h.answer, h.time), qPrintable(QString::number(h.answer, 'g', 17)));
    QVERIFY(std::abs(pmwg.rounds.front().charge - 0.0082646) < 1e-6);
    QVERIFY(session::auditGrowingEvent(*m, *cps(), s->settings()).ok());
}

void TestExactNoise::ermgCoefficientsAreGridMultiples()
{
    auto s = openSession(filters::FilterKind::Zcdp, 10.0);
    auto e = s->ask(request(ermgLine()));
    QVERIFY2(e.ok(), e ? "" : e.error().message.c_str());
    auto plan = session::growingRunPlan(*e->request.growing(), *cps());
    QVERIFY(plan.ok());
    const auto &r = *e->growingRecord();
    QCOMPARE(r.epochs.size(), std::size_t{28});
    for (std::size_t j = 0; j < r.epochs.size(); ++j) {
        const auto &p = (*plan)[j];
        const auto &x = r.epochs[j];
        const double sigma = growing::ermNoiseScale(p.start, 0.01, 1e-10, p.rho);
        const double delta = growing::ermSensitivity(p.start, 0.01, 1e-10);
        // The grid: a power of two ≤ min(Δ_t, σ_t)/2^20 (here Δ_t < σ_t: ρ_t < ½).
        int exponent = 0;
        QCOMPARE(std::frexp(p.grid, &exponent), 0.5);
        QVERIFY(p.grid <= std::min(delta, sigma) / 1048576.0 && p.grid > std::min(delta, sigma) / 2097152.0);
        for (const double theta : x.answers) {
            const double k = std::round(theta / p.grid);
            QCOMPARE(k * p.grid, theta);
        }
        // The discrete Gaussian's ρ with ‖k − k'‖ < Δ_t/g + 3 is at most the charge ρ_t, which is
        // the continuous design's (the improver's ρ_t, bit for bit).
        const long double units = static_cast<long double>(delta) / p.grid + 3.0L;
        const long double rho = units * units * p.noise.den / (2.0L * p.noise.num);
        QVERIFY2(rho <= static_cast<long double>(p.rho), qPrintable(QString::number(double(rho), 'g', 17)));
        QVERIFY(rho >= static_cast<long double>(p.rho) * (1.0L - 1e-9L));
        QCOMPARE(e->attempts[j].cost, p.rho);
        // σ on θ's scale: σ_t(1 + 3g/Δ_t) ≥ σ_t, recorded rounded up.
        QVERIFY(x.scale >= sigma && x.scale <= sigma * (1.0 + 3.0 / 1048576.0));
        QCOMPARE(x.scale, p.scale);
        QCOMPARE(x.bound, p.bound);
    }
    QVERIFY(std::abs(e->attempts.front().cost - 0.0233363) < 1e-7);
    QVERIFY(session::auditGrowingEvent(*e, *cps(), s->settings()).ok());
    // verify: a coefficient off the grid (record and release edited alike).
    auto edited = *e;
    edited.growingRecord()->epochs[2].answers[3] += (*plan)[2].grid / 2.0;
    edited.attempts[2].releases[3].value = edited.growingRecord()->epochs[2].answers[3];
    auto audited = session::auditGrowingEvent(edited, *cps(), s->settings());
    QVERIFY(!audited.ok());
    QVERIFY2(QString::fromStdString(audited.error().message)
                 .contains(QStringLiteral("release 2: its coefficient ")),
             audited.error().message.c_str());
    QVERIFY(QString::fromStdString(audited.error().message)
                .contains(QStringLiteral("is not a multiple of its grid")));
}

void TestExactNoise::failingSourceReleasesNothing()
{
    for (const std::uint64_t words : {0, 3, 12}) {
        // BBScheduler: charged, then the draw fails: an error, and nothing recorded for the stream.
        {
            const auto req = request(schedulerLine());
            auto plan = session::growingRunPlan(*req.growing(), *cps());
            StreamInput in;
            prepare(in, req.growing()->queries);
            const growing::PrefixCounts counts(in.masks,
                                               std::span<const std::uint32_t>(in.order).first(28155));
            auto filter = filterOf(filters::FilterKind::Basic, 1.0);
            auto noise = mechanisms::NoiseSource::withBits(std::make_unique<test::FailingBits>(words));
            session::LedgerEvent event;
            session::GrowingRecord record;
            auto out
                = session::runLaplaceKStream(*req.growing(), *plan, counts, *filter, noise, event, record);
            QVERIFY(!out.ok());
            QCOMPARE(out.error().code, ErrorCode::Io);
            QVERIFY2(
                QString::fromStdString(out.error().message).contains(QStringLiteral("nothing was released")),
                out.error().message.c_str());
            QVERIFY(filter->spent() > 0.0); // the charge stands
        }
        // NSG and PMWG: the threshold or query draw fails after a round's charge.
        {
            const auto req = request(nsgLine());
            StreamInput in;
            prepare(in, req.growing()->queries);
            const growing::PrefixCounts counts(in.masks,
                                               std::span<const std::uint32_t>(in.order).first(28155));
            auto filter = filterOf(filters::FilterKind::Basic, 10.0);
            auto noise = mechanisms::NoiseSource::withBits(std::make_unique<test::FailingBits>(words));
            session::LedgerEvent event;
            session::GrowingRecord record;
            auto out = session::runNsgStream(*req.growing(), counts, 28155, *filter, noise, event, record);
            QVERIFY(!out.ok());
            QCOMPARE(out.error().code, ErrorCode::Io);
            QVERIFY(!record.nsg); // the caller gets no record to append
            QVERIFY(filter->spent() > 0.0);
        }
        {
            const auto req = request(pmwgLine());
            StreamInput in;
            prepare(in, {});
            auto filter = filterOf(filters::FilterKind::Basic, 10.0);
            auto noise = mechanisms::NoiseSource::withBits(std::make_unique<test::FailingBits>(words));
            session::LedgerEvent event;
            session::GrowingRecord record;
            record.orderSeed = 7;
            auto out = session::runPmwgStream(*req.growing(), in.rows, in.order, 28155, *filter, noise, event,
                                              record);
            QVERIFY(!out.ok());
            QCOMPARE(out.error().code, ErrorCode::Io);
            QVERIFY(!record.pmwg);
            QVERIFY(filter->spent() > 0.0);
        }
        // ERMG: the discrete Gaussian draw fails after the first release's charge.
        {
            const auto req = request(ermgLine());
            auto plan = session::growingRunPlan(*req.growing(), *cps());
            StreamInput in;
            prepare(in, {});
            auto filter = filterOf(filters::FilterKind::Zcdp, 10.0);
            auto noise = mechanisms::NoiseSource::withBits(std::make_unique<test::FailingBits>(words));
            session::LedgerEvent event;
            session::GrowingRecord record;
            record.end = 28155;
            auto out = session::runErmgStream(*req.growing(), *plan, in.rows,
                                              std::span<const std::uint32_t>(in.order).first(28155), *filter,
                                              noise, event, record);
            QVERIFY(!out.ok());
            QCOMPARE(out.error().code, ErrorCode::Io);
            QVERIFY(filter->spent() > 0.0);
        }
    }
}

void TestExactNoise::scalesBeyondTheSamplersSpendNothing()
{
    // Budgets so small that the exact samplers cannot draw the noise: refused when the request is
    // checked, before anything is charged (the scales are functions of the parameters alone).
    const struct
    {
        std::string text;
        filters::FilterKind filter;
        const char *message;
    } cases[] = {
        {R"({"id":"g","type":"growing","algorithm":"bbscheduler","stream":{"start_size":1000,"end":28155,"seed":7},)"
         R"("budget":{"kind":"pure","epsilon":1e-12},"schedule":{"kind":"geometric","gamma":1},)"
         R"("black_box":{"kind":"laplace-k","queries":["education >= 16"]}})",
         filters::FilterKind::Basic,
         "INVALID_BUDGET: budget: the stream needs count-scale Laplace noise of scale 2e+12 at t = 1000, beyond "
         "the exact sampler's 2^40"},
        {R"({"id":"s","type":"growing","algorithm":"nsg","stream":{"start_size":1000,"seed":7},)"
         R"("budget":{"kind":"pure","epsilon":1e-12},"nsg":{"p":0.5,"T":0.3,"cap":{"kind":"time","c0":10},)"
         R"("queries":["education >= 16"],"checkpoints":40}})",
         filters::FilterKind::Basic, "INVALID_BUDGET: budget: the stream needs count-scale Laplace noise"},
        {R"({"id":"e","type":"growing","algorithm":"ermg","stream":{"start_size":1000,"end":28155,"seed":7},)"
         R"("budget":{"kind":"zcdp","rho":1e-20},"schedule":{"kind":"improver","a":0.1,"every":1000},)"
         R"("erm":{"lambda":0.01,"tol":1e-10}})",
         filters::FilterKind::Zcdp,
         "INVALID_BUDGET: budget.rho: the release at t = 1000 (ρ = 4.66727e-22) needs discrete Gaussian noise "
         "beyond the exact sampler's σ² ≤ 2^60"},
    };
    for (const auto &c : cases) {
        auto s = openSession(c.filter, 10.0);
        auto e = s->ask(request(c.text));
        QVERIFY2(!e.ok(), c.message);
        QVERIFY2(QString::fromStdString(e.error().message).contains(QString::fromUtf8(c.message)),
                 e.error().message.c_str());
        QVERIFY(s->events().empty());
        QCOMPARE(s->filter().spent(), 0.0);
    }
}

QTEST_GUILESS_MAIN(TestExactNoise)
#include "tst_exactnoise.moc"
