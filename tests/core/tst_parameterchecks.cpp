// SPDX-License-Identifier: MIT
// The shared range checks of core/util/parameter_checks.h: the exact interval each option accepts
// (boundaries, NaN, ±∞) and the wording of the message, which must name the field; and the one
// number formatter of core/util/number_format.h.
#include "core/util/number_format.h"
#include "core/util/parameter_checks.h"
#include "tests/testutils.h"

#include <QtTest/QtTest>

#include <cmath>
#include <cstdlib>
#include <limits>

using namespace pbx;

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();
const double kNan = std::nan("");

Result<int> twice(int x)
{
    if (x < 0)
        return makeError(ErrorCode::InvalidArgument, "x must be ≥ 0");
    return 2 * x;
}

// Uses both macros the way core does.
Result<int> quadruple(int x)
{
    PBX_RETURN_IF_ERROR(checkNonNegative(double(x), "x"));
    PBX_TRY(doubled, twice(x));
    return 2 * doubled;
}
} // namespace

class TestParameterChecks : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void epsilon()
    {
        QVERIFY(checkEpsilon(0.0).ok());
        QVERIFY(checkEpsilon(3.5).ok());
        PBX_VERIFY_ERROR(checkEpsilon(-1e-300), InvalidArgument, "ε must be a finite number ≥ 0");
        PBX_VERIFY_ERROR(checkEpsilon(kNan), InvalidArgument, "ε must be a finite number ≥ 0");
        PBX_VERIFY_ERROR(checkEpsilon(kInf), InvalidArgument, "ε must be a finite number ≥ 0");
        PBX_VERIFY_ERROR(checkEpsilon(0.0, "epsilon", Zero::Excluded), InvalidArgument,
                         "epsilon must be a finite number > 0");
        QVERIFY(checkEpsilon(kInf, "ε", Zero::Allowed, Infinity::Allowed).ok());
        PBX_VERIFY_ERROR(checkEpsilon(kNan, "ε", Zero::Allowed, Infinity::Allowed), InvalidArgument,
                         "ε must be a number ≥ 0");
        QCOMPARE(
            QString::fromStdString(
                checkEpsilon(-1.0, "ε", Zero::Allowed, Infinity::Excluded, " (per query)").error().message),
            QStringLiteral("ε must be a finite number ≥ 0 (per query)"));
    }

    void rhoAndSensitivity()
    {
        QVERIFY(checkRho(0.0).ok());
        PBX_VERIFY_ERROR(checkRho(0.0, "ρ", Zero::Excluded), InvalidArgument,
                         "ρ must be a finite number > 0");
        PBX_VERIFY_ERROR(checkRho(kInf), InvalidArgument, "ρ must be a finite number ≥ 0");
        QVERIFY(checkSensitivity(1e-300).ok());
        PBX_VERIFY_ERROR(checkSensitivity(0.0), InvalidArgument,
                         "the sensitivity must be a finite number > 0");
        QVERIFY(checkSensitivity(0.0, "the sensitivity", Zero::Allowed).ok());
        PBX_VERIFY_ERROR(checkPositive(kNan, "events[2].sigma:"), InvalidArgument,
                         "events[2].sigma: must be a finite number > 0");
    }

    void deltaIntervals()
    {
        // Each interval at its two ends and just inside.
        const struct
        {
            UnitInterval range;
            bool zero, one, above;
            const char *message;
        } cases[] = {{UnitInterval::Open, false, false, false, "δ must lie strictly between 0 and 1"},
                     {UnitInterval::ClosedOpen, true, false, false, "δ must lie in [0, 1)"},
                     {UnitInterval::OpenClosed, false, true, false, "δ must lie in (0, 1]"},
                     {UnitInterval::Closed, true, true, false, "δ must lie in [0, 1]"},
                     {UnitInterval::AboveZero, false, true, true, "δ must be > 0"}};
        for (const auto &c : cases) {
            QVERIFY(checkDelta(1e-12, "δ", c.range).ok());
            QVERIFY(checkDelta(std::nextafter(1.0, 0.0), "δ", c.range).ok());
            QCOMPARE(checkDelta(0.0, "δ", c.range).ok(), c.zero);
            QCOMPARE(checkDelta(1.0, "δ", c.range).ok(), c.one);
            QCOMPARE(checkDelta(kInf, "δ", c.range).ok(), c.above);
            PBX_VERIFY_ERROR(checkDelta(-1e-300, "δ", c.range), InvalidArgument, c.message);
            PBX_VERIFY_ERROR(checkDelta(kNan, "δ", c.range), InvalidArgument, c.message);
        }
        PBX_VERIFY_ERROR(checkDelta(0.0), InvalidArgument, "δ must lie strictly between 0 and 1");
        PBX_VERIFY_ERROR(checkProbability(1.5, "the sampling rate", UnitInterval::OpenClosed),
                         InvalidArgument, "the sampling rate must lie in (0, 1]");
    }

    void macros()
    {
        auto good = quadruple(3);
        QVERIFY(good.ok());
        QCOMPARE(*good, 12);
        PBX_VERIFY_ERROR(quadruple(-1), InvalidArgument, "x must be a finite number ≥ 0");
    }

    void numberFormat()
    {
        QCOMPARE(formatSignificant(1.0 / 3.0), std::string("0.333333"));
        QCOMPARE(formatSignificant(1.0 / 3.0, 4), std::string("0.3333"));
        QCOMPARE(formatSignificant(1e-5, 6), std::string("1e-05"));
        QCOMPARE(formatSignificant(kInf), std::string("inf"));
        QCOMPARE(formatShortest(0.1), std::string("0.1"));
        QCOMPARE(std::strtod(formatShortest(1.0 / 3.0).c_str(), nullptr), 1.0 / 3.0);
        // A privacy loss is never printed below its value, a remainder never above it.
        QCOMPARE(formatDirected(1.0 / 3.0, 4, Rounding::Up), std::string("0.3334"));
        QCOMPARE(formatDirected(1.0 / 3.0, 4, Rounding::Down), std::string("0.3333"));
        QCOMPARE(formatDirected(0.25, 2, Rounding::Up), std::string("0.25"));
        QCOMPARE(formatDirected(-1.0 / 3.0, 4, Rounding::Up), std::string("-0.3333"));
        for (const double x : {0.1, 0.3, 2.0 / 3.0, 1e-7 / 3.0, 123456.789, 6.18774}) {
            QVERIFY(std::strtod(formatDirected(x, 4, Rounding::Up).c_str(), nullptr) >= x);
            QVERIFY(std::strtod(formatDirected(x, 4, Rounding::Down).c_str(), nullptr) <= x);
        }
        // The display rule: four digits, privacy losses up (but not for a pad of a few ulps),
        // remainders down, whole numbers whole, thousands grouped, trailing zeros dropped.
        QCOMPARE(formatDisplay(0.029807176, Rounding::Up), std::string("0.02981"));
        QCOMPARE(formatDisplay(0.029807176, Rounding::Down), std::string("0.0298"));
        QCOMPARE(formatDisplay(0.029807176, Rounding::Nearest), std::string("0.02981"));
        QCOMPARE(formatDisplay(4.617496, Rounding::Up), std::string("4.618"));
        QCOMPARE(formatDisplay(4.617496, Rounding::Nearest), std::string("4.617"));
        QCOMPARE(formatDisplay(2.5000000000000004, Rounding::Up), std::string("2.5"));
        QCOMPARE(formatDisplay(2.5000000000002505, Rounding::Up), std::string("2.5"));
        QCOMPARE(formatDisplay(2.50001, Rounding::Up), std::string("2.501"));
        QCOMPARE(formatDisplay(0.09999, Rounding::Up), std::string("0.09999"));
        QCOMPARE(formatDisplay(0.099996, Rounding::Up), std::string("0.1"));
        QCOMPARE(formatDisplay(0.1, Rounding::Up), std::string("0.1"));
        QCOMPARE(formatDisplay(28152.3, Rounding::Nearest), std::string("28,152"));
        QCOMPARE(formatDisplay(28152.3, Rounding::Up), std::string("28,153"));
        QCOMPARE(formatDisplay(28152.3, Rounding::Nearest, 4, false), std::string("28152"));
        QCOMPARE(formatDisplay(1234567.25, Rounding::Nearest, 9), std::string("1,234,567.25"));
        QCOMPARE(formatDisplay(-1234.5, Rounding::Nearest, 6), std::string("-1,234.5"));
        QCOMPARE(formatDisplay(1.5e-7, Rounding::Nearest), std::string("1.5e-7"));
        QCOMPARE(formatDisplay(1.00001e-6, Rounding::Up), std::string("1.001e-6"));
        QCOMPARE(formatDisplay(2.5e10, Rounding::Nearest), std::string("2.5e10"));
        QCOMPARE(formatDisplay(0.0, Rounding::Up), std::string("0"));
        QCOMPARE(formatDisplay(kNan, Rounding::Up), std::string("NaN"));
        QCOMPARE(formatDisplay(-kInf, Rounding::Up), std::string("−∞"));
        for (const double x : {0.1, 0.3, 2.0 / 3.0, 1e-7 / 3.0, 123456.789, 6.18774, 0.05682934}) {
            QVERIFY(std::strtod(formatDisplay(x, Rounding::Up, 4, false).c_str(), nullptr)
                    >= x * (1 - 1e-12));
            QVERIFY(std::strtod(formatDisplay(x, Rounding::Down, 4, false).c_str(), nullptr)
                    <= x * (1 + 1e-12));
        }
    }
};

QTEST_MAIN(TestParameterChecks)
#include "tst_parameterchecks.moc"
