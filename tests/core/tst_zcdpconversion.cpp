// SPDX-License-Identifier: MIT
// ρ(ε, δ) and ε(ρ, δ) of the zCDP filter (docs/accuracy-first.md §4.1 reference table) and the
// classical conversion values in the oracle's zcdp.json (autodp cross-checks).
#include "core/privacy/zcdp_conversion.h"
#include "tests/testutils.h"

#include <limits>

#include <nlohmann/json.hpp>

using pbx::privacy::epsilonFromRho;
using pbx::privacy::rhoFromEpsilon;

class TestZcdpConversion : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void rhoBudget_data();
    void rhoBudget();
    void roundTrip();
    void oracleClassicalConversion();
    void invalid();
    void hugeEpsilon_data();
    void hugeEpsilon();
};

void TestZcdpConversion::rhoBudget_data()
{
    QTest::addColumn<double>("epsilon");
    QTest::addColumn<double>("delta");
    QTest::addColumn<double>("rho");
    // docs/accuracy-first.md §4.1, [DERIVED] table.
    QTest::newRow("ε=1 δ=1e-6") << 1.0 << 1e-6 << 0.01746890477;
    QTest::newRow("ε=1 δ=1e-5") << 1.0 << 1e-5 << 0.02081993834;
    QTest::newRow("ε=0.5 δ=1e-6") << 0.5 << 1e-6 << 0.004443844159;
    QTest::newRow("ε=2 δ=1e-6") << 2.0 << 1e-6 << 0.06757388167;
    QTest::newRow("ε=10 δ=1e-6") << 10.0 << 1e-6 << 1.35301469;
    QTest::newRow("ε=1 δ=1e-9") << 1.0 << 1e-9 << 0.0117811604;
}

void TestZcdpConversion::rhoBudget()
{
    QFETCH(double, epsilon);
    QFETCH(double, delta);
    QFETCH(double, rho);
    const double got = rhoFromEpsilon(epsilon, delta).value();
    PBX_FUZZY_COMPARE(got, rho, 1e-9);
    // Spending the whole budget never reports more than ε.
    QVERIFY(epsilonFromRho(got, delta).value() <= epsilon * (1 + 1e-14));
}

void TestZcdpConversion::roundTrip()
{
    for (double delta : {1e-3, 1e-6, 1e-10})
        for (double eps : {1e-6, 1e-3, 0.1, 1.0, 3.0, 50.0}) {
            const double rho = rhoFromEpsilon(eps, delta).value();
            PBX_FUZZY_COMPARE(epsilonFromRho(rho, delta).value(), eps, 1e-12);
        }
}

// zcdp.json carries autodp's classical conversion ρ + 2√(ρ·ln(1/δ)) as a cross-check of each
// record. autodp minimises over α numerically, so agreement is to its optimiser's precision.
void TestZcdpConversion::oracleClassicalConversion()
{
    const auto doc = nlohmann::json::parse(pbx::test::readTextFile(PBX_ORACLE_DIR "/zcdp.json"));
    int checked = 0;
    for (const auto &record : doc.at("records")) {
        if (record.at("quantity") != "epsilon_given_delta")
            continue;
        const double rho = record.at("case").at("rho").get<double>();
        const double delta = record.at("case").at("delta").get<double>();
        for (const auto &check : record.at("cross_checks")) {
            const std::string name = check.at("comparison").get<std::string>();
            if (name.find("classical") == std::string::npos)
                continue;
            const double expected = check.at("value").get<double>();
            const double got = epsilonFromRho(rho, delta).value();
            PBX_FUZZY_COMPARE(got, expected, 1e-7);
            ++checked;
        }
    }
    QVERIFY2(checked >= 10, qPrintable(QStringLiteral("only %1 oracle records checked").arg(checked)));
}

void TestZcdpConversion::invalid()
{
    PBX_VERIFY_ERROR(rhoFromEpsilon(1.0, 0.0), InvalidArgument, "δ");
    PBX_VERIFY_ERROR(rhoFromEpsilon(1.0, 1.0), InvalidArgument, "δ");
    PBX_VERIFY_ERROR(rhoFromEpsilon(-1.0, 1e-6), InvalidArgument, "ε");
    PBX_VERIFY_ERROR(rhoFromEpsilon(NAN, 1e-6), InvalidArgument, "ε");
    PBX_VERIFY_ERROR(epsilonFromRho(-0.1, 1e-6), InvalidArgument, "ρ");
    PBX_VERIFY_ERROR(epsilonFromRho(INFINITY, 1e-6), InvalidArgument, "ρ");
    QCOMPARE(epsilonFromRho(0.0, 1e-6).value(), 0.0);
}

void TestZcdpConversion::hugeEpsilon_data()
{
    QTest::addColumn<double>("epsilon");
    QTest::newRow("1.4e154 (ε² overflows)") << 1.4e154;
    QTest::newRow("1e200") << 1e200;
    QTest::newRow("1e300") << 1e300;
    QTest::newRow("largest double") << std::numeric_limits<double>::max();
}

// ε² overflowed to ∞ and the round-trip loop then walked down 16 ulps at a
// time from a huge ρ, for ever in practice. Now ρ is finite, at most ε, and converts back to ≤ ε.
void TestZcdpConversion::hugeEpsilon()
{
    QFETCH(double, epsilon);
    for (double delta : {1e-6, 1e-300, 0.5}) {
        const auto rho = rhoFromEpsilon(epsilon, delta);
        QVERIFY(rho.ok());
        QVERIFY(std::isfinite(*rho) && *rho > 0.0);
        QVERIFY(*epsilonFromRho(*rho, delta) <= epsilon);
        QVERIFY(*rho >= 0.999 * epsilon); // ρ = ε − 2√(ρL) + … ≈ ε when ε ≫ ln(1/δ)
    }
}

QTEST_APPLESS_MAIN(TestZcdpConversion)
#include "tst_zcdpconversion.moc"
