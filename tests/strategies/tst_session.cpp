// SPDX-License-Identifier: MIT
// Strategy requests in a session: a histogram is charged once (add/remove: the per-cell ε;
// replace-one: twice it), derived answers cost nothing and read only the released cells, a
// quantile and a workload are charged once; the events survive the transcript's JSON, restore into
// a fresh filter with the same spend, and pass the cost audit (which catches an under-reported
// cost).
#include "core/io/event_json.h"
#include "core/io/request_json.h"
#include "core/session/ledger/cost_audit.h"
#include "core/session/session.h"
#include "core/session/strategies/strategy_release.h"
#include "tests/strategies/cps_table.h"
#include "tests/test_rows.h"
#include "tests/testutils.h"

using namespace pbx;
using session::EventStatus;
using session::QueryRequest;

class TestStrategySession : public QObject
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
                                                  filters::FilterKind filter = filters::FilterKind::Basic)
    {
        session::SessionSettings s;
        s.epsilon = 5.0;
        s.filter = filter;
        s.neighbours = n;
        s.seed = 9;
        auto created = session::Session::create(m_cps, s);
        return std::move(created.value());
    }

private slots:
    void initTestCase() { m_cps = std::make_shared<const data::Table>(test::loadCps()); }

    void histogramChargedOnce()
    {
        for (const auto n : {data::Neighbouring::AddRemove, data::Neighbouring::Replace}) {
            auto s = makeSession(n);
            auto e = s->ask(parse(
                R"({"id":"h","aggregate":"histogram","column":"region","target":{"kind":"absolute","error":20,"confidence":0.95}})"));
            QVERIFY(e.ok());
            QCOMPARE(e->status, EventStatus::Released);
            QVERIFY(e->strategyRecord());
            QCOMPARE(e->strategyRecord()->values.size(), std::size_t{4});
            const double perCell = e->attempts[0].releases[0].cost;
            // One charge for all four cells: the per-cell ε (add/remove) or twice it (replace).
            QCOMPARE(e->cost, n == data::Neighbouring::AddRemove ? perCell : 2.0 * perCell);
            QCOMPARE(s->filter().spent(), e->cost);
            QVERIFY(e->targetMet);
            QVERIFY(e->strategyRecord()->halfWidths[0] <= 20.0);
            // Every cell's noise is within a few scales of the truth.
            const auto truth = *strategies::countHistogram(pbx::test::PublicRows(*m_cps), {"region", {}});
            for (std::size_t i = 0; i < 4; ++i)
                QVERIFY(std::fabs(e->strategyRecord()->values[i] - double(truth.counts[i])) < 200.0);
            // A derived answer: zero cost, no new release, the sum of the released cells.
            const double before = s->filter().spent();
            auto d = s->ask(parse(
                R"({"id":"d","aggregate":"derived","of":"h","derived":"range","cells":[1,2],"target":{"kind":"absolute","error":100}})"));
            QVERIFY(d.ok());
            QCOMPARE(d->cost, 0.0);
            QVERIFY(d->attempts.empty());
            QCOMPARE(d->answer, e->strategyRecord()->values[1] + e->strategyRecord()->values[2]);
            QCOMPARE(s->filter().spent(), before);
            QCOMPARE(d->mechanismName(), std::string("post-processing"));
            auto missing = s->ask(parse(
                R"({"aggregate":"derived","of":"nope","cells":[0],"target":{"kind":"absolute","error":1}})"));
            PBX_VERIFY_ERROR(missing, InvalidArgument, "of:");
        }
    }

    void quantileAndWorkload()
    {
        auto s = makeSession(data::Neighbouring::AddRemove);
        auto q = s->ask(parse(
            R"({"id":"m","aggregate":"quantile","column":"education","q":0.5,"target":{"kind":"absolute","error":100}})"));
        QVERIFY(q.ok());
        QCOMPARE(q->answer, 12.0); // P[12] ≈ 1 at this ε
        PBX_FUZZY_COMPARE(q->cost, 2.0 * std::log(21.0 / 0.05) / 100.0, 1e-15);
        auto w = s->ask(parse(
            R"({"id":"w","aggregate":"workload","column":"experience","strategy":{"kind":"tree","branching":2},"workload":"prefixes","target":{"kind":"absolute","error":300}})"));
        QVERIFY(w.ok());
        QCOMPARE(w->strategyRecord()->values.size(), std::size_t{73});
        QCOMPARE(w->strategyRecord()->sensitivity, std::size_t{8});
        QVERIFY(w->targetMet);
        // The whole strategy is one charge: ε = Δ/t with the recorded scale.
        QVERIFY(w->cost >= 8.0 / w->strategyRecord()->noiseScale * (1 - 1e-12));
        // Consistent answers: prefixes from one leaf vector, so the last prefix is the total.
        QVERIFY(std::fabs(w->strategyRecord()->values.back() - 28155.0) < 2000.0);
        auto haar = s->ask(parse(
            R"({"aggregate":"workload","column":"experience","strategy":{"kind":"haar"},"target":{"kind":"absolute","error":300}})"));
        PBX_VERIFY_ERROR(haar, Unsupported, "strategy:");
        auto badQ = s->ask(parse(
            R"({"aggregate":"quantile","column":"wage","q":1.5,"target":{"kind":"absolute","error":100}})"));
        QVERIFY(!badQ.ok());
        QCOMPARE(
            strategies::strategyErrorCode(Error{ErrorCode::InvalidArgument, badQ.error().message.substr(3)}),
            std::string_view("INVALID_QUANTILE"));
    }

    void survivesTranscriptRestoreAndAudit()
    {
        auto s = makeSession(data::Neighbouring::Replace, filters::FilterKind::Zcdp);
        const char *lines[] = {
            R"({"id":"h","aggregate":"histogram","column":"education","target":{"kind":"absolute","error":25}})",
            R"({"id":"sh","aggregate":"derived","of":"h","derived":"share","cells":[12],"within":[10,11,12,13,14],"target":{"kind":"absolute","error":0.05}})",
            R"({"id":"m","aggregate":"quantile","column":"wage","q":0.9,"step":10,"target":{"kind":"absolute","error":400}})",
            R"({"id":"w","aggregate":"workload","column":"education","strategy":{"kind":"identity"},"workload":"explicit","ranges":[[0,11],[12,20]],"target":{"kind":"absolute","error":60}})",
            R"({"id":"c","aggregate":"count","target":{"kind":"absolute","error":50}})",
        };
        for (const char *line : lines)
            QVERIFY(s->ask(parse(line)).ok());
        std::vector<session::LedgerEvent> read;
        for (const auto &e : s->events()) {
            const auto json = io::eventToJson(e, s->filter());
            auto back = io::eventFromJson(json, e.index);
            QVERIFY2(back.ok(), back.ok() ? "" : back.error().message.c_str());
            const auto again = io::eventToJson(*back, s->filter());
            for (const auto &item : json.items())
                if (item.key() != "spent_after") // recomputed by the filter on restore, not read back
                    QVERIFY2(again[item.key()] == item.value(), item.key().c_str());
            read.push_back(*back);
        }
        auto audited = session::auditLedger(m_cps, s->settings(), read);
        QVERIFY2(audited.ok(), audited.ok() ? "" : audited.error().message.c_str());
        QCOMPARE((*audited)->filter().spent(), s->filter().spent());
        // An under-reported histogram cost is caught.
        auto tampered = read;
        tampered[0].cost /= 2.0;
        tampered[0].attempts[0].cost /= 2.0;
        PBX_VERIFY_ERROR(session::auditLedger(m_cps, s->settings(), tampered), Parse, "recorded cost");
        // The request check refuses bad strategy requests before anything is spent.
        QVERIFY(
            !session::checkStrategyRequest(
                 parse(
                     R"({"aggregate":"histogram","column":"wage","bins":[5,1],"target":{"kind":"absolute","error":1}})"),
                 *m_cps, data::Neighbouring::AddRemove)
                 .ok());
        QVERIFY(
            !session::checkStrategyRequest(
                 parse(
                     R"({"aggregate":"workload","column":"experience","strategy":{"kind":"tree","branching":1},"target":{"kind":"absolute","error":1}})"),
                 *m_cps, data::Neighbouring::AddRemove)
                 .ok());
        QVERIFY(
            !io::readRequestLine(
                 R"({"aggregate":"histogram","column":"region","bogus":1,"target":{"kind":"absolute","error":1}})",
                 1)
                 .ok());
    }
};

QTEST_GUILESS_MAIN(TestStrategySession)
#include "tst_session.moc"
