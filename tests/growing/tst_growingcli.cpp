// SPDX-License-Identifier: MIT
// `pbx-cli simulate growing`: the pbx-simulation documents of BBScheduler and BBImprover (plan and
// simulation on CPS1988), and bad configurations failing with exit 1 and one line naming the field.
#include "tests/cli/simulate_lab_fixture.h"

#include <cstring>
#include <iterator>

using pbx::io::json::Json;

namespace {

// The ten counting queries of the Monte Carlo in docs/growing-databases.md, as a JSON array.
const char *const kCliQueries
    = "[\"region == \\\"south\\\"\", \"ethnicity == \\\"afam\\\"\", \"parttime == \\\"yes\\\"\", "
      "\"smsa == \\\"yes\\\"\", \"education >= 16\", \"education <= 11\", \"wage < 500\", \"wage >= 1000\", "
      "\"experience < 10\", \"experience >= 30\"]";

std::string schedulerLab(const std::string &schedule, const std::string &budget,
                         const std::string &extra = {})
{
    return std::string(R"({"format": "pbx-growing-lab", "version": 1, "algorithm": "bbscheduler",
        "dataset": "cps1988", "neighbours": "replace",
        "stream": {"start_size": 1000, "order": "random", "end": 28155},
        "budget": )")
           + budget + R"(, "schedule": )" + schedule + R"(,
        "black_box": {"kind": "laplace-k", "queries": )"
           + kCliQueries + R"(},
        "beta": 0.05, "repetitions": 200)"
           + extra + "}";
}

} // namespace

class TestGrowingCli : public QObject
{
    Q_OBJECT

    pbx::test::SimulateLabFixture m_lab{QStringLiteral("growing")};

    pbx::test::CliRun run(const std::string &config, const QString &name, const QStringList &extra = {})
    {
        return m_lab.run(config, name, extra);
    }
    Json runLab(const std::string &config, const QString &name, const QStringList &extra = {})
    {
        return m_lab.runLab(config, name, extra);
    }

private slots:
    void schedulerSimulation()
    {
        const auto doc = runLab(
            schedulerLab(R"({"kind": "geometric", "gamma": 1.0})", R"({"kind": "pure", "epsilon": 1.0})"),
            QStringLiteral("geometric"), {QStringLiteral("--seed"), QStringLiteral("3")});
        QCOMPARE(doc["format"], Json("pbx-simulation"));
        QCOMPARE(doc["simulation"], Json("growing-bbscheduler"));
        QCOMPARE(doc["settings"]["seed"], Json(3));
        const auto &epochs = doc["epochs"];
        QCOMPARE(epochs.size(), std::size_t{5});
        QCOMPARE(epochs[0]["start"], Json(1000));
        QCOMPARE(epochs[0]["end"], Json(1999));
        QCOMPARE(epochs[0]["epsilon"], Json(0.5));
        QCOMPARE(epochs[0]["cumulative"], Json(0.5));
        QVERIFY(std::fabs(epochs[0]["bound"].get<double>() - 0.619579) < 1e-6);
        QVERIFY(std::fabs(epochs[0]["alpha_black_box"].get<double>() - 0.119829) < 1e-6);
        QCOMPARE(epochs[4]["end"], Json(28155));
        QCOMPARE(doc["privacy"]["total_reserved"], Json(1.0));
        QCOMPARE(doc["privacy"]["spent_realised"], Json(0.96875));
        // Monte Carlo (random order): the measured error is far below the adversarial bound.
        const auto &mc = doc["monte_carlo"];
        QCOMPARE(mc["runs_exceeding"], Json(0));
        QVERIFY(std::fabs(mc["max_error"]["median"].get<double>() - 0.089) < 0.01);
        QVERIFY(mc["max_error"]["q95"].get<double>() < 0.2);
        QVERIFY(doc["note"].get<std::string>().starts_with("simulation mode"));
    }

    void zcdpPlanReadsNoData()
    {
        // A dataset that does not exist: a plan must not even try to read it.
        auto lab = schedulerLab(R"({"kind": "zcdp-equalised", "gamma": 1.0})",
                                R"({"kind": "approx", "epsilon": 1, "delta": 1e-6, "conversion": "cks"})");
        lab.replace(lab.find("\"cps1988\""), 9, "\"/nonexistent/rows.csv\"");
        const auto doc = runLab(lab, QStringLiteral("zcdp"), {QStringLiteral("--plan-only")});
        QCOMPARE(doc["privacy"]["unit"], Json("rho"));
        QVERIFY(std::fabs(doc["privacy"]["total_reserved"].get<double>() - 0.024356) < 5e-7);
        QVERIFY(std::fabs(doc["epochs"][0]["rho"].get<double>() - 0.018267) < 5e-7);
        QVERIFY(std::fabs(doc["epochs"][0]["epsilon"].get<double>() - 0.191139) < 5e-7);
        QVERIFY(std::fabs(doc["epochs"][0]["bound"].get<double>() - 0.81321) < 6e-6);
        for (const auto &e : doc["epochs"])
            QVERIFY(e["cumulative"].get<double>() <= doc["privacy"]["total_reserved"].get<double>());
        QVERIFY(!doc.contains("monte_carlo"));
        QVERIFY(doc["note"].get<std::string>().starts_with("plan only"));
    }

    void improver()
    {
        // Appended in place: GCC 12's -Warray-bounds misreads chained `std::string + "…"` once
        // inlined (GCC bug 105651).
        std::string lab(R"({"format": "pbx-growing-lab", "version": 1, "algorithm": "bbimprover",
            "stream": {"start_size": 1000, "end": 28155},
            "budget": {"kind": "approx", "epsilon": 1, "delta": 1e-6},
            "schedule": {"a": 0.1, "every": 1},
            "black_box": {"kind": "laplace-k", "queries": )");
        lab += kCliQueries;
        lab += R"(}, "repetitions": 20})";
        const auto doc = runLab(lab, QStringLiteral("improver"));
        QCOMPARE(doc["simulation"], Json("growing-bbimprover"));
        const auto &first = doc["steps"][0];
        QCOMPARE(first["t"], Json(1000));
        QVERIFY(std::fabs(first["epsilon"].get<double>() - 2.2070e-3) < 5e-8);
        QVERIFY(std::fabs(first["bound"].get<double>() - 55.31151) < 6e-5);
        QCOMPARE(doc["steps"].back()["t"], Json(28155));
        QVERIFY(std::fabs(doc["steps"].back()["bound"].get<double>() - 19.05206) < 6e-5);
        // The crossover with BBScheduler lies far beyond CPS1988 (≈ 3.2·10⁷ rows for k = 10).
        QVERIFY(std::fabs(doc["crossover"]["first_t"].get<double>() / 3.2146947e7 - 1.0) < 0.02);
        QCOMPARE(doc["crossover"]["within_horizon"], Json(false));
        QVERIFY(doc["privacy"]["spent_realised"].get<double>()
                <= doc["privacy"]["total_reserved"].get<double>());
        QCOMPARE(doc["monte_carlo"]["repetitions"], Json(20));
    }

    void pmwg()
    {
        const std::string lab = R"({"format": "pbx-growing-lab", "version": 1, "algorithm": "pmwg",
            "stream": {"start_size": 14000, "order": "random", "end": 28155},
            "budget": {"kind": "pure", "epsilon": 1.0},
            "pmwg": {"universe": "small", "mode": "practical", "p": 0.5, "c0": 40, "T": 0.05, "eta": 0.3,
                     "checkpoints": 40, "per_checkpoint": 25}})";
        const auto doc = runLab(lab, QStringLiteral("pmwg"));
        QCOMPARE(doc["simulation"], Json("growing-pmwg"));
        QVERIFY(std::fabs(doc["sigma_n"].get<double>() - 281.0 / 14000.0) < 1e-9);
        QCOMPARE(doc["hard_queries"].size(), std::size_t{67});
        QCOMPARE(doc["cap"].back()["cap"], Json(67));
        QCOMPARE(doc["cap"].size(), std::size_t{40});
        for (const auto &c : doc["cap"])
            QVERIFY(c["hard"].get<std::uint64_t>() <= c["cap"].get<std::uint64_t>());
        const auto &privacy = doc["privacy"];
        QVERIFY(privacy["worst_case"].get<double>() <= 1.0);
        QVERIFY(privacy["realised"].get<double>() < privacy["worst_case"].get<double>());
        QVERIFY(std::fabs(privacy["realised"].get<double>() - 0.52) < 0.05);
        QVERIFY(doc["errors"]["mean_abs"].get<double>()
                < doc["errors"]["laplace_baseline_mean_abs"].get<double>());
        // Under an (ε, δ) target PMWG is accounted in zCDP: realised and worst case both in ρ (the
        // rounds opened, (49/18)Σ f(s_i)²), and both converted back to ε at δ.
        std::string approx = lab;
        approx.replace(approx.find(R"("kind": "pure", "epsilon": 1.0)"), 30,
                       R"("kind": "approx", "epsilon": 1.0, "delta": 1e-6)");
        const auto z = runLab(approx, QStringLiteral("pmwg-approx"));
        const auto &zp = z["privacy"];
        QCOMPARE(zp["unit"], Json("rho"));
        QVERIFY(std::fabs(zp["total_reserved"].get<double>() - 0.024356) < 5e-7);
        QVERIFY(zp["worst_case"].get<double>() <= zp["total_reserved"].get<double>());
        QVERIFY(zp["realised"].is_number());
        QVERIFY(zp["realised"].get<double>() > 0.0);
        QVERIFY(zp["realised"].get<double>() < zp["worst_case"].get<double>());
        // At least the first round (opened at n) is charged: (49/18) f(n)², f(n) = 1/(nσ_n).
        const double zfn = 1.0 / (14000.0 * z["sigma_n"].get<double>());
        QVERIFY(zp["realised"].get<double>() >= 49.0 / 18.0 * zfn * zfn);
        QVERIFY(zp["realised_target_epsilon"].get<double>() < zp["worst_case_target_epsilon"].get<double>());
        QVERIFY(zp["worst_case_target_epsilon"].get<double>() <= 1.0);
        QVERIFY(zp["realised_epsilon"].get<double>() > 0.0); // the pure ex-post loss, for comparison
        // A zcdp budget: the same, without the (ε, δ) conversion.
        std::string zcdp = lab;
        zcdp.replace(zcdp.find(R"("kind": "pure", "epsilon": 1.0)"), 30, R"("kind": "zcdp", "rho": 0.05)");
        const auto zz = runLab(zcdp, QStringLiteral("pmwg-zcdp"));
        QCOMPARE(zz["privacy"]["unit"], Json("rho"));
        QVERIFY(zz["privacy"]["realised"].get<double>() < zz["privacy"]["worst_case"].get<double>());
        QVERIFY(zz["privacy"]["worst_case"].get<double>() <= 0.05);
        QVERIFY(!zz["privacy"].contains("realised_target_epsilon"));
        // The plan reads no data: the public cap only.
        const auto plan = runLab(lab, QStringLiteral("pmwg-plan"), {QStringLiteral("--plan-only")});
        QCOMPARE(plan["cap"][0]["cap"], Json(40));
        QVERIFY(!plan.contains("hard_queries"));
        // Theory mode at this size: c_0 = 16 ln 160/α² and a σ_n far above the data's scale.
        std::string theory = lab;
        theory.replace(theory.find("\"mode\": \"practical\""), 19, "\"mode\": \"theory\", \"alpha\": 0.1");
        const auto t = runLab(theory, QStringLiteral("pmwg-theory"), {QStringLiteral("--plan-only")});
        QVERIFY(std::fabs(t["settings"]["pmwg"]["c0"].get<double>() - 8120.28) < 0.01);
        // Refusals name the field.
        std::string bad = lab;
        bad.replace(bad.find("\"small\""), 7, "\"tiny\"");
        auto r = run(bad, QStringLiteral("pmwg-bad"), {QStringLiteral("--plan-only")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.err.startsWith(QStringLiteral("pbx-cli simulate: INVALID_UNIVERSE: pmwg.universe:")));
        bad = lab;
        bad.replace(bad.find("\"eta\": 0.3"), 10, "\"eta\": 3.0");
        r = run(bad, QStringLiteral("pmwg-bad2"), {QStringLiteral("--plan-only")});
        QVERIFY(r.err.startsWith(QStringLiteral("pbx-cli simulate: INVALID_LEARNING_RATE: pmwg.eta:")));
    }

    void nsg()
    {
        const std::string lab = std::string(R"({"format": "pbx-growing-lab", "version": 1, "algorithm": "nsg",
            "stream": {"start_size": 1000, "order": "random", "end": 28155},
            "budget": {"kind": "pure", "epsilon": 1.0},
            "nsg": {"p": 0.5, "cap": {"kind": "time", "c0": 10}, "T": 0.5, "checkpoints": 40, "queries": )")
                                + kCliQueries + "}}";
        // Plan: the worst case meets the budget with σ_n = (1 + (7/3)·30)/(1000·1) = 0.071; no data read.
        const auto plan = runLab(lab, QStringLiteral("nsg-plan"), {QStringLiteral("--plan-only")});
        QCOMPARE(plan["simulation"], Json("growing-nsg"));
        QVERIFY(std::fabs(plan["sigma_n"].get<double>() - 0.071) < 1e-9);
        QVERIFY(plan["privacy"]["worst_case"].get<double>() <= 1.0);
        QVERIFY(std::fabs(plan["privacy"]["worst_case"].get<double>() - 1.0) < 1e-9);
        QCOMPARE(plan["cap"][0]["cap"], Json(10));
        QVERIFY(!plan.contains("hard_queries"));

        const auto doc = runLab(lab, QStringLiteral("nsg"), {QStringLiteral("--seed"), QStringLiteral("1")});
        const double fn = doc["f_n"].get<double>();
        QVERIFY(std::fabs(fn - 1.0 / 71.0) < 1e-9);
        const auto f = [&](double t) { return fn * std::pow(t / 1000.0, -0.5); };
        const auto &hard = doc["hard_queries"];
        QVERIFY(!hard.empty());
        for (const auto &c : doc["cap"])
            QVERIFY(c["hard"].get<std::uint64_t>() <= c["cap"].get<std::uint64_t>());
        QVERIFY(doc["cap"].back()["capped"].get<std::uint64_t>() > 0); // the cap binds on CPS1988
        // Per-round cost f(s) + f(t_h) and the realised loss f(n) + (7/3)Σf(e_i), recomputed.
        double sum = 0.0;
        for (const auto &h : hard)
            sum += f(h["time"].get<double>());
        const auto &rounds = doc["rounds"];
        QVERIFY(rounds.size() >= hard.size());
        for (std::size_t i = 0; i < hard.size(); ++i) {
            QCOMPARE(rounds[i]["halt"], hard[i]["time"]);
            const double expected = f(rounds[i]["start"].get<double>()) + f(hard[i]["time"].get<double>());
            QVERIFY(std::fabs(rounds[i]["cost_atg"].get<double>() - expected) < 1e-12);
            QVERIFY(rounds[i]["cost_atg"].get<double>() >= expected * (1.0 - 1e-15));
        }
        const auto &privacy = doc["privacy"];
        QCOMPARE(privacy["unit"], Json("epsilon"));
        QVERIFY(std::fabs(privacy["realised"].get<double>() - (fn + 7.0 / 3.0 * sum)) < 1e-12);
        QVERIFY(privacy["realised"].get<double>() < privacy["worst_case"].get<double>());

        // zCDP budget from an (ε, δ) target: everything in ρ, realised = (49/18)Σ f(s_i)² over the rounds.
        std::string approx = lab;
        approx.replace(approx.find(R"("kind": "pure", "epsilon": 1.0)"), 30,
                       R"("kind": "approx", "epsilon": 1.0, "delta": 1e-6)");
        const auto z
            = runLab(approx, QStringLiteral("nsg-approx"), {QStringLiteral("--seed"), QStringLiteral("1")});
        const auto &zp = z["privacy"];
        QCOMPARE(zp["unit"], Json("rho"));
        QVERIFY(std::fabs(zp["total_reserved"].get<double>() - 0.024356) < 5e-7);
        QVERIFY(zp["worst_case"].get<double>() <= zp["total_reserved"].get<double>());
        const double zfn = z["f_n"].get<double>();
        double squares = 0.0;
        for (const auto &r : z["rounds"]) {
            const double fs = zfn * std::pow(r["start"].get<double>() / 1000.0, -0.5);
            squares += fs * fs;
        }
        QVERIFY(std::fabs(zp["realised"].get<double>() - 49.0 / 18.0 * squares) < 1e-12);
        QVERIFY(zp["realised"].get<double>() < zp["worst_case"].get<double>());
        QVERIFY(zp["realised_target_epsilon"].get<double>() < 1.0);
        QVERIFY(zp["worst_case_target_epsilon"].get<double>() <= 1.0);

        // Refusals name the field.
        const std::pair<const char *, const char *> bad[] = {
            {R"("cap": {"kind": "time", "c0": 10}, )", ""},
            {R"("c0": 10)", R"("c0": 0)"},
            {R"("p": 0.5)", R"("p": 1.5)"},
            {R"("p": 0.5)", R"("p": 1.0)"},
            {R"("T": 0.5)", R"("T": 2)"},
        };
        const char *const messages[]
            = {"CAP_REQUIRED: nsg.cap:", "INVALID_CAP: nsg.cap:", "INVALID_NOISE_EXPONENT: nsg.p:",
               "INVALID_NOISE_EXPONENT: nsg.p:", "INVALID_THRESHOLD: nsg.T:"};
        for (std::size_t i = 0; i < std::size(bad); ++i) {
            std::string b = lab;
            b.replace(b.find(bad[i].first), std::strlen(bad[i].first), bad[i].second);
            const auto r = run(b, QStringLiteral("nsg-bad%1").arg(i), {QStringLiteral("--plan-only")});
            QCOMPARE(r.exitCode, 1);
            QVERIFY2(r.err.startsWith(QStringLiteral("pbx-cli simulate: ") + QLatin1String(messages[i])),
                     qPrintable(r.err));
        }

        // "repetitions": a Monte Carlo over seeded arrival orders. Repetition 0 is the single run
        // above (the same transcript); the summary covers all 30 orders.
        std::string many = lab;
        many.replace(many.find(R"("nsg": {)"), 8, R"("repetitions": 30, "nsg": {)");
        const auto mc
            = runLab(many, QStringLiteral("nsg-mc"), {QStringLiteral("--seed"), QStringLiteral("1")});
        for (const char *key : {"hard_queries", "cap", "rounds", "privacy", "errors"})
            QVERIFY2(mc[key] == doc[key], key);
        QVERIFY(!doc["monte_carlo"].is_null());
        QCOMPARE(doc["monte_carlo"]["repetitions"], Json(1));
        const auto &m = mc["monte_carlo"];
        QCOMPARE(m["repetitions"], Json(30));
        QCOMPARE(mc["settings"]["repetitions"], Json(30));
        QCOMPARE(m["checkpoints"].size(), std::size_t{40});
        // K(t) at the first checkpoint (t = n = 1000, cap 10) and at the end, where the cap H = 43 binds
        // in every order.
        QCOMPARE(m["checkpoints"][0]["time"], Json(1000));
        QVERIFY(m["checkpoints"][0]["hard"]["q95"].get<double>() <= 10.0);
        QCOMPARE(m["checkpoints"].back()["hard"]["median"], Json(43.0));
        QCOMPARE(m["hard"]["q05"], Json(43.0));
        QCOMPARE(m["checkpoints"].back()["runs_with_hard"], Json(30));
        // The realised ε depends on the order through the hard answers' times; never above the worst case 1.
        const auto &realised = m["realised"];
        QVERIFY(realised["q05"].get<double>() <= realised["median"].get<double>());
        QVERIFY(realised["median"].get<double>() <= realised["q95"].get<double>());
        QVERIFY(realised["q95"].get<double>() <= doc["privacy"]["worst_case"].get<double>());
        QVERIFY2(realised["median"].get<double>() > 0.45 && realised["median"].get<double>() < 0.65,
                 m.dump().c_str());
        const double error = m["hard_mean_abs"]["median"].get<double>();
        QVERIFY2(error > 0.04 && error < 0.12, qPrintable(QString::number(error)));
    }

    void smallDbg()
    {
        // SmallDBG: BBScheduler with the exact SmallDB box on region × smsa × parttime (N = 16, 28
        // marginal cells, m = 8 → 490,314 candidates).
        const std::string lab = R"({"format": "pbx-growing-lab", "version": 1, "algorithm": "bbscheduler",
            "stream": {"start_size": 1000, "order": "random", "end": 28155},
            "budget": {"kind": "pure", "epsilon": 1.0},
            "schedule": {"kind": "geometric", "gamma": 1.0},
            "black_box": {"kind": "smalldb", "m": 8}, "beta": 0.05, "repetitions": 2})";
        const auto doc
            = runLab(lab, QStringLiteral("smalldbg"), {QStringLiteral("--seed"), QStringLiteral("2")});
        QCOMPARE(doc["smalldb"]["range_size"], Json(490314));
        QCOMPARE(doc["smalldb"]["queries"], Json(28));
        QVERIFY(std::fabs(doc["smalldb"]["best_max_error_at_end"].get<double>() - 0.0896) < 5e-5);
        QCOMPARE(doc["epochs"].size(), std::size_t{5});
        QCOMPARE(doc["epochs"][0]["epsilon"], Json(0.5));
        // DR14's bound ((16 ln N ln|Q| + 4 ln(1/β_i))/(ε_i t_i))^{1/3} is loose; the measured error is near
        // the best.
        QVERIFY(std::fabs(doc["epochs"][0]["alpha_black_box"].get<double>() - 0.687643) < 1e-6);
        const auto &mc = doc["monte_carlo"];
        QCOMPARE(mc["runs_exceeding"], Json(0));
        QVERIFY(mc["max_error"]["median"].get<double>() < 0.15);
        QVERIFY(mc["max_error"]["median"].get<double>() > 0.0896);
        // The plan needs no data; m = 11 has C(26, 11) = 7,726,160 candidates: refused.
        const auto plan = runLab(lab, QStringLiteral("smalldbg-plan"), {QStringLiteral("--plan-only")});
        QCOMPARE(plan["smalldb"]["range_size"], Json(490314));
        QVERIFY(!plan.contains("monte_carlo"));
        std::string big = lab;
        big.replace(big.find(R"("m": 8)"), 6, R"("m": 11)");
        auto r = run(big, QStringLiteral("smalldbg-big"), {QStringLiteral("--plan-only")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.startsWith(QStringLiteral("pbx-cli simulate: SMALLDB_TOO_LARGE: black_box.m:")),
                 qPrintable(r.err));
        std::string other = lab;
        other.replace(other.find(R"("m": 8)"), 6, R"("m": 8, "universe": 160)");
        r = run(other, QStringLiteral("smalldbg-universe"), {QStringLiteral("--plan-only")});
        QVERIFY2(r.err.startsWith(QStringLiteral("pbx-cli simulate: INVALID_BLACK_BOX: black_box.universe:")),
                 qPrintable(r.err));
    }

    void ermg()
    {
        // ERMG, BBScheduler zcdp-equalised (γ = 1) under (1, 10⁻⁶): σ = Δ_i/√(2ρ_i) = 1.046 in every
        // epoch; the measured excess empirical risk at the epoch starts is ≈ 0.1.
        const std::string lab = R"({"format": "pbx-growing-lab", "version": 1, "algorithm": "ermg",
            "stream": {"start_size": 1000, "order": "random", "end": 28155},
            "budget": {"kind": "approx", "epsilon": 1.0, "delta": 1e-6},
            "schedule": {"kind": "zcdp-equalised", "gamma": 1.0},
            "erm": {"lambda": 0.01, "tol": 1e-10, "draws": 100}})";
        const auto doc = runLab(lab, QStringLiteral("ermg"), {QStringLiteral("--seed"), QStringLiteral("1")});
        QCOMPARE(doc["simulation"], Json("growing-ermg"));
        const auto &releases = doc["releases"];
        QCOMPARE(releases.size(), std::size_t{5});
        for (const auto &r : releases) {
            QVERIFY(std::fabs(r["sigma"].get<double>() - 1.0464) < 1e-4);
            const double excess = r["excess_risk"]["mean"].get<double>();
            QVERIFY2(excess > 0.05 && excess < 0.15, qPrintable(QString::number(excess)));
            QVERIFY(r["cumulative"].get<double>() <= doc["privacy"]["total_reserved"].get<double>());
        }
        QVERIFY(std::fabs(doc["privacy"]["total_reserved"].get<double>() - 0.024356) < 5e-7);
        // Four seeded orders: repetition 0's releases are the single run's; the excess risk of every
        // release stays near 0.1 in every order (σ is the same in every epoch).
        std::string many = lab;
        many.replace(many.find(R"("erm": {)"), 8, R"("repetitions": 4, "erm": {)");
        const auto mc
            = runLab(many, QStringLiteral("ermg-mc"), {QStringLiteral("--seed"), QStringLiteral("1")});
        QCOMPARE(mc["releases"], releases);
        QCOMPARE(mc["monte_carlo"]["repetitions"], Json(4));
        QCOMPARE(mc["monte_carlo"]["releases"].size(), std::size_t{5});
        for (std::size_t i = 0; i < 5; ++i) {
            const auto &b = mc["monte_carlo"]["releases"][i]["excess_risk_mean"];
            QCOMPARE(mc["monte_carlo"]["releases"][i]["t"], releases[i]["t"]);
            QVERIFY2(b["q05"].get<double>() > 0.05 && b["q95"].get<double>() < 0.15, b.dump().c_str());
            QVERIFY(b["q05"].get<double>() <= b["median"].get<double>());
            QVERIFY(b["median"].get<double>() <= b["q95"].get<double>());
        }
        // BBImprover, every arrival (plan only: 27,156 releases): σ_t = 90.6 at t = 1000, 20.2 at 28,155.
        std::string improver = lab;
        improver.replace(improver.find(R"({"kind": "zcdp-equalised", "gamma": 1.0})"), 40,
                         R"({"kind": "improver", "a": 0.1, "every": 1})");
        const auto plan = runLab(improver, QStringLiteral("ermg-improver"), {QStringLiteral("--plan-only")});
        QCOMPARE(plan["releases"].size(), std::size_t{27156});
        QVERIFY(std::fabs(plan["releases"][0]["sigma"].get<double>() - 90.62) < 0.01);
        QVERIFY(std::fabs(plan["releases"].back()["sigma"].get<double>() - 20.18) < 0.01);
        QVERIFY(plan["privacy"]["spent_realised"].get<double>()
                <= plan["privacy"]["total_reserved"].get<double>());
        QVERIFY(!plan["releases"][0].contains("excess_risk"));
        // Refusals name the field.
        auto r = run(improver, QStringLiteral("ermg-many")); // 27,156 Newton solves: refused
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.startsWith(QStringLiteral("pbx-cli simulate: INVALID_CONFIG: schedule.every:")),
                 qPrintable(r.err));
        std::string pure = lab;
        pure.replace(pure.find(R"("kind": "approx", "epsilon": 1.0, "delta": 1e-6)"), 46,
                     R"("kind": "pure", "epsilon": 1.0)");
        r = run(pure, QStringLiteral("ermg-pure"), {QStringLiteral("--plan-only")});
        QVERIFY2(r.err.startsWith(QStringLiteral("pbx-cli simulate: INVALID_SCHEDULE: budget.kind:")),
                 qPrintable(r.err));
        std::string lambda = lab;
        lambda.replace(lambda.find(R"("lambda": 0.01)"), 14, R"("lambda": 0)");
        r = run(lambda, QStringLiteral("ermg-lambda"), {QStringLiteral("--plan-only")});
        QVERIFY2(r.err.startsWith(QStringLiteral("pbx-cli simulate: INVALID_CONFIG: erm.lambda:")),
                 qPrintable(r.err));
    }

    void badConfigurations_data()
    {
        QTest::addColumn<QString>("from");
        QTest::addColumn<QString>("to");
        QTest::addColumn<QString>("message");
        QTest::newRow("gamma 0") << "\"gamma\": 1.0"
                                 << "\"gamma\": 0"
                                 << "INVALID_GAMMA: schedule.gamma:";
        QTest::newRow("gamma negative") << "\"gamma\": 1.0"
                                        << "\"gamma\": -2"
                                        << "INVALID_GAMMA: schedule.gamma:";
        QTest::newRow("start size 0") << "\"start_size\": 1000"
                                      << "\"start_size\": 0"
                                      << "INVALID_START_SIZE: stream.start_size:";
        QTest::newRow("wrong budget kind") << "\"kind\": \"geometric\""
                                           << "\"kind\": \"zcdp-geometric\""
                                           << "INVALID_SCHEDULE: schedule.kind:";
        QTest::newRow("unknown schedule") << "\"kind\": \"geometric\""
                                          << "\"kind\": \"harmonic\""
                                          << "INVALID_SCHEDULE: schedule.kind:";
        QTest::newRow("epsilon") << "\"epsilon\": 1.0"
                                 << "\"epsilon\": 0"
                                 << "INVALID_BUDGET: budget.epsilon:";
        QTest::newRow("beta") << "\"beta\": 0.05"
                              << "\"beta\": 1.5"
                              << "INVALID_BETA: beta:";
        QTest::newRow("neighbours") << "\"neighbours\": \"replace\""
                                    << "\"neighbours\": \"add-remove\""
                                    << "GROWING_NEIGHBOURS_UNSUPPORTED: neighbours:";
        QTest::newRow("algorithm") << "\"algorithm\": \"bbscheduler\""
                                   << "\"algorithm\": \"magic\""
                                   << "INVALID_CONFIG: algorithm:";
        QTest::newRow("order") << "\"order\": \"random\""
                               << "\"order\": \"shuffled\""
                               << "INVALID_CONFIG: stream.order:";
        QTest::newRow("end") << "\"end\": 28155"
                             << "\"end\": 99"
                             << "INVALID_CONFIG: stream.end:";
        QTest::newRow("box") << "\"kind\": \"laplace-k\""
                             << "\"kind\": \"oracle\""
                             << "INVALID_BLACK_BOX: black_box.kind:";
    }

    void badConfigurations()
    {
        QFETCH(QString, from);
        QFETCH(QString, to);
        QFETCH(QString, message);
        auto lab
            = schedulerLab(R"({"kind": "geometric", "gamma": 1.0})", R"({"kind": "pure", "epsilon": 1.0})");
        const auto at = lab.find(from.toStdString());
        QVERIFY(at != std::string::npos);
        lab.replace(at, from.size(), to.toStdString());
        const auto r = run(lab, QStringLiteral("bad"), {QStringLiteral("--plan-only")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.startsWith(QStringLiteral("pbx-cli simulate: ") + message), qPrintable(r.err));
        QCOMPARE(r.err.count(QLatin1Char('\n')), 1); // one line
    }
};

QTEST_GUILESS_MAIN(TestGrowingCli)
#include "tst_growingcli.moc"
