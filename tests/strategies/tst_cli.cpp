// SPDX-License-Identifier: MIT
// `pbx-cli simulate strategies`: each experiment writes its pbx-simulation document with the
// numbers of docs/strategies-inference.md, and bad configurations fail with exit 1 and
// "pbx-cli simulate: <CODE>: …".
#include "core/io/digest.h"
#include "tests/cli/simulate_lab_fixture.h"

#include <QFile>

#include <cmath>

using pbx::io::json::Json;

class TestStrategiesCli : public QObject
{
    Q_OBJECT

    pbx::test::SimulateLabFixture m_lab{QStringLiteral("strategies")};

    Json runLab(const std::string &config, const QString &name, const QStringList &extra = {})
    {
        return m_lab.runLab(config, name, extra);
    }
    pbx::test::CliRun runFailing(const std::string &config, const QString &name)
    {
        return m_lab.run(config, name);
    }

private slots:
    void runAndVerifyTransformsAndInference()
    {
        // pbx-cli run with a declared transformation, Poisson subsampling and workload inference;
        // verify recomputes every cost and the projection, and catches a tampered answer.
        const QString queries = m_lab.write(
            QStringLiteral("inference.jsonl"),
            R"({"id":"h","aggregate":"histogram","column":"region","transform":{"kind":"flat-map","k":3},"subsample":0.5,"target":{"kind":"absolute","error":20}}
{"id":"w","aggregate":"workload","column":"education","strategy":{"kind":"tree","branching":3},"workload":"prefixes","post":{"isotonic_prefix":true,"nonnegative":true},"target":{"kind":"absolute","error":80}}
)");
        const QString out = m_lab.outPath(QStringLiteral("inference-transcript"));
        const auto run = pbx::test::runCli(
            {QStringLiteral("run"), QStringLiteral("--queries"), queries, QStringLiteral("--out"), out,
             QStringLiteral("--epsilon"), QStringLiteral("5"), QStringLiteral("--filter"),
             QStringLiteral("basic"), QStringLiteral("--seed"), QStringLiteral("3")});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        const auto verified = pbx::test::runCli({QStringLiteral("verify"), out});
        QVERIFY2(verified.exitCode == 0, qPrintable(verified.err + verified.out));
        QFile file(out);
        QVERIFY(file.open(QIODevice::ReadOnly));
        Json transcript = Json::parse(file.readAll().toStdString());
        file.close();
        const auto &h = transcript["events"][0];
        const double cell = h["attempts"][0]["releases"][0]["cost"].get<double>();
        PBX_FUZZY_COMPARE(h["cost"]["epsilon"].get<double>(), std::log1p(0.5 * std::expm1(3.0 * cell)),
                          1e-12);
        QVERIFY(transcript["events"][1]["strategy_record"].contains("before_projection"));
        // A released answer that is not the projection of what was measured fails verify.
        transcript["events"][1]["strategy_record"]["values"][5] = 1e6;
        const QString tampered = m_lab.write(QStringLiteral("inference-tampered.json"), transcript.dump());
        const auto bad = pbx::test::runCli({QStringLiteral("verify"), tampered});
        QCOMPARE(bad.exitCode, 1);
        QVERIFY2((bad.err + bad.out).contains(QStringLiteral("projection")), qPrintable(bad.err + bad.out));
        // Under replace-one the transformation is refused before the first answer.
        const auto replace
            = pbx::test::runCli({QStringLiteral("run"), QStringLiteral("--queries"), queries,
                                 QStringLiteral("--out"), m_lab.outPath(QStringLiteral("inference-replace")),
                                 QStringLiteral("--neighbours"), QStringLiteral("replace")});
        QCOMPARE(replace.exitCode, 1);
        QVERIFY2(replace.err.contains(QStringLiteral("NEIGHBOURS_MISMATCH")), qPrintable(replace.err));
    }

    void ranges()
    {
        const auto doc = runLab(R"({"format": "pbx-strategies-lab", "version": 1, "experiment": "ranges",
            "dataset": "cps1988", "column": "experience", "bounds": [-8, 64], "neighbours": "add-remove", "epsilon": 1.0,
            "strategies": [{"kind": "identity"}, {"kind": "tree", "branching": 2, "root": true, "consistency": true},
                           {"kind": "haar"}, {"kind": "all-ranges"}],
            "post": {"clip_nonnegative": false, "round": false, "isotonic_prefix": false},
            "workload": "all-ranges", "repetitions": 1000})",
                                QStringLiteral("ranges"), {QStringLiteral("--seed"), QStringLiteral("4")});
        QCOMPARE(doc["format"], Json("pbx-simulation"));
        QCOMPARE(doc["simulation"], Json("strategies-ranges"));
        QCOMPARE(doc["settings"]["seed"], Json(4));
        const auto &r = doc["results"];
        QCOMPARE(r.size(), std::size_t{4});
        QCOMPARE(r[1]["strategy"], Json("tree"));
        QCOMPARE(r[1]["sensitivity_l1"], Json(8));
        QCOMPARE(r[1]["padded_size"], Json(128));
        PBX_FUZZY_COMPARE(r[1]["predicted"]["average"].get<double>(), 168.547, 1e-5);
        PBX_FUZZY_COMPARE(r[1]["predicted"]["max"].get<double>(), 274.453, 1e-5);
        QVERIFY(std::fabs(r[1]["predicted"]["by_length"][0].get<double>() - 77.66) < 0.005);
        for (std::size_t i = 0; i < 3; ++i) {
            const double z
                = (r[i]["measured"]["average"].get<double>() - r[i]["predicted"]["average"].get<double>())
                  / r[i]["measured"]["standard_error"].get<double>();
            QVERIFY(std::fabs(z) < 3.0);
        }
        QCOMPARE(r[0]["predicted"]["average"], Json(50.0));
        QCOMPARE(r[3]["sensitivity_l1"], Json(1369));
        QCOMPARE(doc["recommended"]["label"], Json("identity"));
        QVERIFY(doc["note"].get<std::string>().starts_with("simulation mode"));
    }

    void bmiAndInference()
    {
        const auto bmi = runLab(
            R"({"format": "pbx-strategies-lab", "version": 1, "experiment": "bmi", "repetitions": 20000})",
            QStringLiteral("bmi"));
        QCOMPARE(bmi["answers"], Json({0.0, 3.0, 1.0, 2.0}));
        QCOMPARE(bmi["results"][0]["predicted"], Json(128.0));
        QCOMPARE(bmi["results"][1]["predicted"], Json(32.0));
        QCOMPARE(bmi["results"][2]["predicted"], Json(12.0));
        const auto replace = runLab(R"({"format": "pbx-strategies-lab", "version": 1, "experiment": "bmi",
            "neighbours": "replace", "parallel_rule": "doubled", "repetitions": 1000})",
                                    QStringLiteral("bmir"));
        QCOMPARE(replace["results"][0]["predicted"], Json(128.0));
        QCOMPARE(replace["results"][2]["predicted"], Json(48.0));
        const auto inference
            = runLab(R"({"format": "pbx-strategies-lab", "version": 1, "experiment": "inference",
            "column": "experience", "projection": "tree-consistency", "repetitions": 500})",
                     QStringLiteral("inference"));
        QCOMPARE(inference["runs_worse"], Json(0));
        QCOMPARE(inference["predicted"]["sse_before"], Json(32640.0));
        QCOMPARE(inference["predicted"]["sse_after"], Json(16384.0));
        QVERIFY(inference["sse_after"].get<double>() < inference["sse_before"].get<double>());
        const auto stability
            = runLab(R"({"format": "pbx-strategies-lab", "version": 1, "experiment": "stability"})",
                     QStringLiteral("stab"));
        QVERIFY(std::fabs(stability["poisson_subsampling"][1]["epsilon"].get<double>() - 0.1585650787)
                < 1e-9);
        const auto quantile
            = runLab(R"({"format": "pbx-strategies-lab", "version": 1, "experiment": "quantile",
            "column": "wage", "q": 0.5})",
                     QStringLiteral("quantile"));
        QCOMPARE(quantile["true_quantile"], Json(522.32));
        QVERIFY(std::fabs(quantile["continuous"]["expected_absolute_error"].get<double>() - 0.359) < 0.0006);
        // Selection on region at ε = 0.002 per pick: the true counts, and the exponential
        // mechanism's P(south) = 1/(1 + Σ e^{−0.002·gap}) in closed form.
        const auto selection
            = runLab(R"({"format": "pbx-strategies-lab", "version": 1, "experiment": "selection",
            "column": "region", "epsilon": 0.002})",
                     QStringLiteral("selection"));
        QCOMPARE(selection["true_counts"], Json({6441, 6863, 8760, 6091}));
        const double south
            = 1.0 / (1.0 + std::exp(-0.002 * 2319) + std::exp(-0.002 * 1897) + std::exp(-0.002 * 2669));
        const auto &em = selection["mechanisms"][0];
        QCOMPARE(em["mechanism"], Json("exponential"));
        QVERIFY(std::fabs(em["probabilities"][2].get<double>() - south) < 1e-12);
        QCOMPARE(em["zcdp_rho_per_pick"], Json(5e-7));
        QCOMPARE(selection["mechanisms"][1]["zcdp_rho_per_pick"], Json(2e-6));
        QVERIFY(!selection["settings"].contains("bounds"));
    }

    void errorCodes()
    {
        const std::string head = R"({"format": "pbx-strategies-lab", "version": 1, )";
        const std::pair<std::string, const char *> cases[] = {
            {head + R"("experiment": "ranges", "epsilon": 0})", "INVALID_EPSILON"},
            {head + R"("experiment": "ranges", "epsilon": -1})", "INVALID_EPSILON"},
            {head + R"("experiment": "ranges", "bounds": [5, 5]})", "INVALID_BOUNDS"},
            {head + R"("experiment": "ranges", "bounds": [0.5, 5]})", "INVALID_BOUNDS"},
            {head + R"("experiment": "ranges", "bounds": [0, 100000]})", "INVALID_BOUNDS"},
            {head + R"("experiment": "ranges", "strategies": [{"kind": "tree", "branching": 1}]})",
             "INVALID_BRANCHING"},
            {head + R"("experiment": "ranges", "strategies": [{"kind": "tree", "branching": 100}]})",
             "INVALID_BRANCHING"},
            {head + R"("experiment": "ranges", "column": "wage", "bounds": [0, 5000], "workload": "prefixes",
                       "strategies": [{"kind": "tree", "branching": 2}]})",
             "DOMAIN_TOO_LARGE"},
            {head + R"("experiment": "quantile", "q": 1.5})", "INVALID_QUANTILE"},
            {head + R"("experiment": "bmi", "neighbours": "replace", "parallel_rule": "max"})",
             "NEIGHBOURS_MISMATCH"},
            {head + R"("experiment": "inference", "projection": "integers"})", "NOT_CONVEX"},
            {head + R"("experiment": "histograms"})", "INVALID_CONFIG"},
        };
        int i = 0;
        for (const auto &[config, code] : cases) {
            const auto run = runFailing(config, QStringLiteral("bad%1").arg(i++));
            QCOMPARE(run.exitCode, 1);
            QVERIFY2(run.err.startsWith(QStringLiteral("pbx-cli simulate: ") + QLatin1StringView(code)
                                        + QStringLiteral(": ")),
                     qPrintable(run.err));
        }
        const auto usage = pbx::test::runCli({QStringLiteral("simulate"), QStringLiteral("strategies"),
                                              QStringLiteral("--config"), QStringLiteral("x.json")});
        QCOMPARE(usage.exitCode, 2);
    }

    /// The documents `pbx-cli simulate strategies --seed 11` wrote before the lab returned typed
    /// results (their SHA-256), byte for byte, for every experiment. A change in a number or in
    /// the document's shape fails here; regenerate a digest with `pbx-cli simulate strategies
    /// --config C --seed 11 --out D && sha256sum D` only when the change is meant.
    void documentsUnchanged()
    {
        struct Case
        {
            const char *name;
            const char *config;
            const char *sha256;
        };
        const Case cases[] = {
            {"s_stab", R"({"format":"pbx-strategies-lab","version":1,"experiment":"stability","epsilon":1})",
             "74ff845d65fc75282bfcfbe73ae8936d108efb0a6b556f940072acd79cd9b0e9"},
            {"s_bmi",
             R"({"format":"pbx-strategies-lab","version":1,"experiment":"bmi","epsilon":1,"repetitions":500})",
             "4ff3a8288f02da461c5e06314d0d0d98a1dcb2dd54df8d51c8ba617f391be515"},
            {"s_bmi_c",
             R"({"format":"pbx-strategies-lab","version":1,"experiment":"bmi","dataset":"cps1988","neighbours":"replace","epsilon":0.5,"repetitions":300})",
             "b90832d4fba66bc1bb0557a932819e419dc654aa49049d8d1acdf6f71eb2a343"},
            {"s_ranges",
             R"({"format":"pbx-strategies-lab","version":1,"experiment":"ranges","column":"experience","bounds":[0,63],"epsilon":1,"repetitions":50})",
             "8821a401b73e6391ffe18a471159774a091174a39f7600b0e9218ef09346ec32"},
            {"s_ranges2",
             R"({"format":"pbx-strategies-lab","version":1,"experiment":"ranges","column":"experience","bounds":[0,1000],"neighbours":"replace","epsilon":1,"repetitions":20,"strategies":[{"kind":"identity"},{"kind":"tree","branching":4,"root":false},{"kind":"all-ranges"}],"post":{"round":true,"clip_nonnegative":true},"workload":"explicit","ranges":[[0,5],[3,900]]})",
             "20bac1debf08955825b592c371002b150ef3396d1a0bd712061e171a48071523"},
            {"s_inf",
             R"({"format":"pbx-strategies-lab","version":1,"experiment":"inference","column":"experience","bounds":[0,63],"epsilon":1,"repetitions":50})",
             "6367ff32f104331b42f3024f4ff27e512031d7939d8d5747622d01f597bcf557"},
            {"s_inf2",
             R"({"format":"pbx-strategies-lab","version":1,"experiment":"inference","column":"education","epsilon":0.5,"repetitions":30,"projection":"isotonic-prefix","branching":3})",
             "59936785974e70172288e5565a921779ed1360695b4b9a04bb657f070ef8d69a"},
            {"s_q",
             R"({"format":"pbx-strategies-lab","version":1,"experiment":"quantile","column":"wage","bounds":[0,500],"q":0.9,"epsilon":1})",
             "fb78cd7d7a69104f84e2cafc2dbbfb5e5f70f34a099c85b79f75b8485fc7de0f"},
            {"s_ss",
             R"({"format":"pbx-strategies-lab","version":1,"experiment":"smooth-sensitivity","column":"wage","bounds":[0,3000],"epsilon":1,"delta":1e-5})",
             "d4bc42ff13af375def6fea6d61419b32f4d9be2761072d2d1c34e7f078b79234"},
        };
        for (const Case &c : cases) {
            const auto run = m_lab.run(c.config, QString::fromLatin1(c.name),
                                       {QStringLiteral("--seed"), QStringLiteral("11")});
            QVERIFY2(run.exitCode == 0, qPrintable(run.err));
            const std::string document
                = pbx::test::readTextFile(m_lab.outPath(QString::fromLatin1(c.name)).toStdString());
            QVERIFY2(pbx::io::sha256Hex(document) == c.sha256, c.name);
        }
    }
};

QTEST_GUILESS_MAIN(TestStrategiesCli)
#include "tst_cli.moc"
