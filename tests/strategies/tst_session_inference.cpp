// SPDX-License-Identifier: MIT
// Strategy requests with a declared transformation (stability s multiplies the charge: s·ε pure,
// s²ρ on a zCDP filter), Poisson subsampling (ln(1 + p(e^ε − 1))), and constrained inference of
// workload answers (PAVA on prefixes, non-negativity) recorded as post-processing and re-checked by
// the audit. Derivations: docs/strategies-inference.md.
#include "core/io/event_json.h"
#include "core/io/request_json.h"
#include "core/io/strategy_record_csv.h"
#include "core/io/transcript_csv.h"
#include "core/session/ledger/cost_audit.h"
#include "core/session/session.h"
#include "core/session/strategies/strategy_release.h"
#include "core/session/strategies/strategy_transform.h"
#include "core/strategies/constrained_inference.h"
#include "tests/strategies/cps_table.h"
#include "tests/test_rows.h"
#include "tests/testutils.h"

#include <random>

using namespace pbx;
using session::EventStatus;
using session::QueryRequest;

class TestStrategySessionInference : public QObject
{
    Q_OBJECT

    std::shared_ptr<const data::Table> m_cps;

    static QueryRequest parse(const char *line)
    {
        auto r = io::readRequestLine(line, 1);
        if (!r)
            qFatal("%s", r.error().message.c_str());
        return *r;
    }

    std::unique_ptr<session::Session> makeSession(data::Neighbouring n,
                                                  filters::FilterKind filter = filters::FilterKind::Basic,
                                                  std::uint64_t seed = 11)
    {
        session::SessionSettings s;
        s.epsilon = 20.0;
        s.filter = filter;
        s.neighbours = n;
        s.seed = seed;
        auto created = session::Session::create(m_cps, s);
        return std::move(created.value());
    }

    static std::string codeOf(const Error &e) { return std::string(strategies::strategyErrorCode(e)); }

private slots:
    void initTestCase() { m_cps = std::make_shared<const data::Table>(test::loadCps()); }

    void subsamplingVectors()
    {
        // docs/strategies-inference.md, "Poisson subsampling": ln(1 + p(e^ε − 1)).
        session::StrategyRequestSpec spec;
        const struct
        {
            double p, epsilon, expected;
        } rows[] = {{0.01, 1.0, 0.0170368632},
                    {0.1, 1.0, 0.1585650787},
                    {0.5, 1.0, 0.6201145070},
                    {0.1, 0.1, 0.0104621719},
                    {0.01, 2.0, 0.0619325294}};
        for (const auto &r : rows) {
            spec.subsample = r.p;
            const double c = *session::transformedCharge(spec, 1, r.epsilon);
            PBX_FUZZY_COMPARE(c, r.expected, 1e-8); // the vectors have 10 decimals
            // The inverse stays within the cap (rounded down).
            const double base = session::baseEpsilonWithin(spec, 1, c);
            QVERIFY(*session::transformedCharge(spec, 1, base) <= c);
            PBX_FUZZY_COMPARE(base, r.epsilon, 1e-9);
        }
        // Stability then sampling: ln(1 + p(e^{sε} − 1)); s = 3, p = 0.1, ε = 0.5.
        spec.subsample = 0.1;
        PBX_FUZZY_COMPARE(*session::transformedCharge(spec, 3, 0.5), std::log1p(0.1 * std::expm1(1.5)),
                          1e-15);
        QVERIFY(*session::transformedCharge(spec, 3, 0.5) >= std::log1p(0.1 * std::expm1(1.5)));
    }

    void stabilityOfDeclaredTransforms()
    {
        const struct
        {
            const char *transform;
            unsigned s;
        } rows[] = {{R"({"kind":"filter"})", 1},
                    {R"({"kind":"flat-map","k":3})", 3},
                    {R"({"kind":"group-by"})", 2},
                    {R"({"kind":"truncate","m":5})", 2},
                    {R"({"kind":"self-join-truncated","m":4})", 6},
                    // Stability 0 (no pairs survive) is raised to 1: the table's rows are read.
                    {R"({"kind":"self-join-truncated","m":1})", 1}};
        for (const auto &r : rows) {
            const std::string line = std::string(R"({"aggregate":"histogram","column":"region","transform":)")
                                     + r.transform + R"(,"target":{"kind":"absolute","error":20}})";
            auto request = parse(line.c_str());
            QCOMPARE(*session::requestStability(*request.strategy(), data::Neighbouring::AddRemove), r.s);
        }
        auto join = parse(
            R"({"aggregate":"histogram","column":"region","transform":{"kind":"self-join"},"target":{"kind":"absolute","error":20}})");
        auto unbounded = session::requestStability(*join.strategy(), data::Neighbouring::AddRemove);
        QVERIFY(!unbounded.ok());
        QCOMPARE(codeOf(unbounded.error()), std::string("INVALID_CONFIG"));
        QVERIFY(unbounded.error().message.find("transform") != std::string::npos);
        auto flat = parse(
            R"({"aggregate":"histogram","column":"region","transform":{"kind":"flat-map","k":3},"target":{"kind":"absolute","error":20}})");
        auto replace = session::requestStability(*flat.strategy(), data::Neighbouring::Replace);
        QVERIFY(!replace.ok());
        QCOMPARE(codeOf(replace.error()), std::string("NEIGHBOURS_MISMATCH"));
        auto sampled = parse(
            R"({"aggregate":"histogram","column":"region","subsample":0.2,"target":{"kind":"absolute","error":20}})");
        QCOMPARE(codeOf(session::requestStability(*sampled.strategy(), data::Neighbouring::Replace).error()),
                 std::string("NEIGHBOURS_MISMATCH"));
        auto badRate = parse(
            R"({"aggregate":"histogram","column":"region","subsample":1.5,"target":{"kind":"absolute","error":20}})");
        PBX_VERIFY_ERROR(session::checkStrategyRequest(badRate, *m_cps, data::Neighbouring::AddRemove),
                         InvalidArgument, "subsample");
        auto derived = parse(
            R"({"aggregate":"derived","of":"h","cells":[0],"subsample":0.5,"target":{"kind":"absolute","error":20}})");
        PBX_VERIFY_ERROR(session::checkStrategyRequest(derived, *m_cps, data::Neighbouring::AddRemove),
                         InvalidArgument, "subsample");
    }

    void transformMultipliesTheCharge()
    {
        for (const auto filter : {filters::FilterKind::Basic, filters::FilterKind::Zcdp}) {
            auto s = makeSession(data::Neighbouring::AddRemove, filter);
            auto plain = s->ask(parse(
                R"({"id":"h","aggregate":"histogram","column":"region","target":{"kind":"absolute","error":20}})"));
            QVERIFY(plain.ok());
            const double spent0 = s->filter().spent();
            auto flat = s->ask(parse(
                R"({"id":"f","aggregate":"histogram","column":"region","transform":{"kind":"flat-map","k":3},"target":{"kind":"absolute","error":20}})"));
            QVERIFY(flat.ok());
            QCOMPARE(flat->status, EventStatus::Released);
            // Same noise for the same target, three times the ε.
            QCOMPARE(flat->strategyRecord()->noiseScale, plain->strategyRecord()->noiseScale);
            PBX_FUZZY_COMPARE(flat->cost, 3.0 * plain->cost, 1e-15);
            QVERIFY(flat->cost >= 3.0 * plain->cost);
            if (filter == filters::FilterKind::Zcdp) // pure sε is (sε)²/2-zCDP: s²ρ
                PBX_FUZZY_COMPARE(s->filter().spent() - spent0, 9.0 * spent0, 1e-12);
            QVERIFY(flat->strategyRecord()->note.find("stability 3") != std::string::npos);
            // The declaration survives the transcript, so verify charges it again.
            auto back = io::eventFromJson(io::eventToJson(*flat, s->filter()), flat->index);
            QVERIFY(back.ok());
            QVERIFY(back->request.strategy()->transform == flat->request.strategy()->transform);
            QCOMPARE(back->request.strategy()->transform->parameter, 3u);
        }
        // A quantile under truncation (s = 2) and a workload under group-by (s = 2), each capped.
        auto s = makeSession(data::Neighbouring::AddRemove);
        auto q = s->ask(parse(
            R"({"id":"m","aggregate":"quantile","column":"education","q":0.5,"transform":{"kind":"truncate","m":3},"target":{"kind":"absolute","error":100}})"));
        QVERIFY(q.ok());
        PBX_FUZZY_COMPARE(q->cost, 2.0 * 2.0 * std::log(21.0 / 0.05) / 100.0, 1e-12);
        auto w = s->ask(parse(
            R"({"id":"w","aggregate":"workload","column":"education","strategy":{"kind":"identity"},"workload":"prefixes","transform":{"kind":"group-by"},"max_cost":0.2,"target":{"kind":"absolute","error":1}})"));
        QVERIFY(w.ok());
        QVERIFY(w->cost <= 0.2);
        QVERIFY(w->cost > 0.2 * (1 - 1e-3));
        QVERIFY(!w->targetMet);
        // Identity: Δ = 1, so the scale t buys ε = 1/t, charged twice.
        QVERIFY(w->cost >= 2.0 / w->strategyRecord()->noiseScale * (1 - 1e-12));
    }

    void subsampledHistogram()
    {
        auto s = makeSession(data::Neighbouring::AddRemove);
        auto h = s->ask(parse(
            R"({"id":"h","aggregate":"histogram","column":"region","subsample":0.1,"target":{"kind":"absolute","error":20}})"));
        QVERIFY(h.ok());
        // The per-cell ε at the recorded scale t is 1/t; the event pays ln(1 + 0.1(e^{1/t} − 1)).
        PBX_FUZZY_COMPARE(h->cost, std::log1p(0.1 * std::expm1(h->attempts[0].releases[0].cost)), 1e-12);
        QVERIFY(h->cost < 0.11 * h->attempts[0].releases[0].cost);
        // The cells count a 10 % sample of 28,155 rows: within 6 standard deviations
        // (binomial sd ≈ 50, plus the cells' noise, sd ≈ 10 each).
        double total = 0.0;
        for (const double v : h->strategyRecord()->values)
            total += v;
        QVERIFY2(std::fabs(total - 2815.5) < 6.0 * std::sqrt(28155 * 0.1 * 0.9 + 4 * 100.0),
                 qPrintable(QString::number(total)));
        QVERIFY(h->strategyRecord()->note.find("Poisson sample at p = 0.1") != std::string::npos);
        auto back = io::eventFromJson(io::eventToJson(*h, s->filter()), h->index);
        QVERIFY(back.ok());
        QCOMPARE(back->request.strategy()->subsample, 0.1);
        QVERIFY(session::auditLedger(m_cps, s->settings(), {*back}).ok());
        // A halved cost is caught: the audit recomputes ln(1 + p(e^{1/t} − 1)).
        back->cost /= 2.0;
        back->attempts[0].cost /= 2.0;
        PBX_VERIFY_ERROR(session::auditLedger(m_cps, s->settings(), {*back}), Parse, "recorded cost");
    }

    void workloadInference()
    {
        auto s = makeSession(data::Neighbouring::AddRemove);
        auto w = s->ask(parse(
            "{\"id\":\"w\",\"aggregate\":\"workload\",\"column\":\"experience\",\"strategy\":{\"kind\":\"tree\",\"branching\":2},\"workload\":\"prefixes\",\"post\":{\"isotonic_prefix\":true,\"nonnegative\":true},\"where\":\"region == \\\"west\\\"\",\"target\":{\"kind\":\"absolute\",\"error\":400}}"));
        QVERIFY(w.ok());
        const auto &rec = *w->strategyRecord();
        QCOMPARE(rec.values.size(), std::size_t{73});
        QCOMPARE(rec.unprojected.size(), std::size_t{73});
        QVERIFY(rec.values[0] >= 0.0);
        for (std::size_t i = 1; i < rec.values.size(); ++i)
            QVERIFY(rec.values[i] >= rec.values[i - 1]);
        // The projection reduces the weighted squared error of the vector (weights 1/variance).
        const auto west = *data::Predicate::compile("region == \"west\"", *m_cps);
        const auto truth = *strategies::countHistogram(pbx::test::PublicRows(*m_cps),
                                                       {"experience", *strategies::unitEdges(-8, 64)}, west);
        double cumulative = 0.0, before = 0.0, after = 0.0;
        for (std::size_t i = 0; i < 73; ++i) {
            cumulative += static_cast<double>(truth.counts[i]);
            before
                += (rec.unprojected[i] - cumulative) * (rec.unprojected[i] - cumulative) / rec.variances[i];
            after += (rec.values[i] - cumulative) * (rec.values[i] - cumulative) / rec.variances[i];
        }
        QVERIFY2(after <= before * (1 + 1e-12), qPrintable(QStringLiteral("%1 > %2").arg(after).arg(before)));
        QCOMPARE(w->cost, s->events()[0].attempts[0].cost); // one charge, inference free
        // The transcript keeps both vectors; the audit recomputes the projection.
        const auto json = io::eventToJson(*w, s->filter());
        QVERIFY(json["strategy_record"].contains("before_projection"));
        auto back = io::eventFromJson(json, 0);
        QVERIFY(back.ok());
        QCOMPARE(back->strategyRecord()->unprojected, rec.unprojected);
        QVERIFY(session::auditLedger(m_cps, s->settings(), {*back}).ok());
        auto tampered = *back;
        tampered.strategyRecord()->values[10] += 5.0;
        PBX_VERIFY_ERROR(session::auditLedger(m_cps, s->settings(), {tampered}), Parse, "projection");
        auto dropped = *back;
        dropped.strategyRecord()->unprojected.clear();
        PBX_VERIFY_ERROR(session::auditLedger(m_cps, s->settings(), {dropped}), Parse, "post-processing");

        // Non-negativity on all ranges of the identity strategy: every answer ≥ 0 and no single
        // answer moved away from its (non-negative) truth.
        auto id = s->ask(parse(
            "{\"id\":\"i\",\"aggregate\":\"workload\",\"column\":\"education\",\"strategy\":{\"kind\":\"identity\"},\"workload\":\"all-ranges\",\"post\":{\"nonnegative\":true},\"where\":\"region == \\\"west\\\" and ethnicity == \\\"afam\\\"\",\"target\":{\"kind\":\"absolute\",\"error\":100}}"));
        QVERIFY(id.ok());
        for (std::size_t r = 0; r < id->strategyRecord()->values.size(); ++r) {
            QVERIFY(id->strategyRecord()->values[r] >= 0.0);
            QCOMPARE(id->strategyRecord()->values[r], std::max(0.0, id->strategyRecord()->unprojected[r]));
        }

        // Bad post-processing requests: PAVA needs ordered (cumulative) answers; rounding is refused.
        auto wrong = parse(
            R"({"aggregate":"workload","column":"education","strategy":{"kind":"identity"},"workload":"all-ranges","post":{"isotonic_prefix":true},"target":{"kind":"absolute","error":100}})");
        PBX_VERIFY_ERROR(session::checkStrategyRequest(wrong, *m_cps, data::Neighbouring::AddRemove),
                         InvalidArgument, "post.isotonic_prefix");
        auto notWorkload = parse(
            R"({"aggregate":"histogram","column":"region","post":{"nonnegative":true},"target":{"kind":"absolute","error":100}})");
        PBX_VERIFY_ERROR(session::checkStrategyRequest(notWorkload, *m_cps, data::Neighbouring::AddRemove),
                         InvalidArgument, "post");
        auto round = io::readRequestLine(
            R"({"aggregate":"workload","column":"education","strategy":{"kind":"identity"},"post":{"round":true},"target":{"kind":"absolute","error":100}})",
            1);
        QVERIFY(!round.ok());
        QVERIFY2(round.error().message.find("NOT_CONVEX") != std::string::npos,
                 round.error().message.c_str());
    }

    void recordAsCsv()
    {
        auto s = makeSession(data::Neighbouring::AddRemove);
        auto h = s->ask(parse(
            R"({"id":"h,1","aggregate":"histogram","column":"wage","bins":[0,500,5000],"target":{"kind":"absolute","error":20}})"));
        QVERIFY(h.ok());
        const auto csv = io::writeStrategyRecordCsv(*h);
        QVERIFY(csv.ok());
        const std::string expected = "id,label,value,half_width,confidence,variance,before_projection\r\n"
                                     "\"h,1\",\"[0, 500)\","
                                     + io::csvNumber(h->strategyRecord()->values[0]) + ",20,0.95,"
                                     + io::csvNumber(h->strategyRecord()->variances[0]) + ",\r\n";
        QCOMPARE(csv->substr(0, expected.size()), expected);
        QCOMPARE(std::count(csv->begin(), csv->end(), '\n'), 3);
        session::LedgerEvent scalar;
        scalar.status = EventStatus::Released;
        PBX_VERIFY_ERROR(io::writeStrategyRecordCsv(scalar), InvalidArgument, "event");
    }

    void projectionNeverIncreasesTheWeightedError()
    {
        // 10⁴ random prefix vectors with unequal variances: PAVA (weights 1/variance) then clipping
        // never increases the weighted squared error of the projected vector.
        std::mt19937_64 rng(5);
        std::uniform_real_distribution<double> u(0.0, 1.0);
        int improved = 0;
        for (int run = 0; run < 10000; ++run) {
            const std::size_t k = 2 + static_cast<std::size_t>(u(rng) * 30);
            std::vector<double> truth(k), noisy(k), var(k);
            double c = 0.0;
            for (std::size_t i = 0; i < k; ++i) {
                c += std::floor(u(rng) * 4.0); // small counts, many empty cells: near the boundary
                truth[i] = c;
                var[i] = 0.5 + 10.0 * u(rng);
                noisy[i] = c + std::sqrt(var[i]) * (u(rng) - 0.5) * 3.4;
            }
            const auto fitted = *strategies::projectAnswers(noisy, var, true, true);
            double before = 0.0, after = 0.0;
            for (std::size_t i = 0; i < k; ++i) {
                before += (noisy[i] - truth[i]) * (noisy[i] - truth[i]) / var[i];
                after += (fitted[i] - truth[i]) * (fitted[i] - truth[i]) / var[i];
            }
            QVERIFY(after <= before * (1 + 1e-12) + 1e-12);
            improved += after < before ? 1 : 0;
        }
        QVERIFY(improved > 5000);
    }
};

QTEST_GUILESS_MAIN(TestStrategySessionInference)
#include "tst_session_inference.moc"
