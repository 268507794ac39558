// SPDX-License-Identifier: MIT
// Privacy risk for a person: the (ε, δ) trade-off region, the Gaussian trade-off curve recovered
// from the exact Gaussian privacy profile, and the posterior bound, against closed forms.
#include "core/math/normal.h"
#include "core/privacy/analytic_gaussian.h"
#include "core/privacy/privacy_risk.h"
#include "tests/testutils.h"

#include <QtTest/QtTest>

#include <cmath>
#include <vector>

using namespace pbx;
using namespace pbx::privacy;

// The call fails with InvalidArgument and a message naming `fragment`.
#define EXPECT_INVALID(expr, fragment)                                                                       \
    do {                                                                                                     \
        const auto result = (expr);                                                                          \
        QVERIFY(!result.ok());                                                                               \
        QCOMPARE(static_cast<int>(result.error().code), static_cast<int>(ErrorCode::InvalidArgument));       \
        QVERIFY2(QString::fromStdString(result.error().message).contains(QString::fromUtf8(fragment)),       \
                 result.error().message.c_str());                                                            \
    } while (false)

class TestPrivacyRisk : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // (ε, δ)-DP: every test has TPR ≤ e^ε·FPR + δ and, symmetrically, 1 − FPR ≥ e^{−ε}(1 − TPR − δ);
    // the trade-off curve is the boundary, FNR = max(0, 1 − δ − e^ε·α, e^{−ε}(1 − δ − α)).
    void epsilonDeltaRegion()
    {
        const double epsilon = 1.0, delta = 1e-3;
        for (double alpha : {0.0, 0.01, 0.1, 0.2689414, 0.5, 0.9, 1.0}) {
            const double f = *epsilonDeltaTradeoff(epsilon, delta, alpha);
            const double tpr = 1.0 - f;
            QVERIFY(tpr <= std::min(1.0, std::exp(epsilon) * alpha + delta) + 1e-12);
            QVERIFY(1.0 - alpha >= std::exp(-epsilon) * (1.0 - tpr - delta) - 1e-12); // symmetric line
            const double exact = std::max(
                {0.0, 1.0 - delta - std::exp(epsilon) * alpha, std::exp(-epsilon) * (1.0 - delta - alpha)});
            QVERIFY(f <= exact);
            PBX_FUZZY_COMPARE(f, exact, 1e-15);
        }
        // The two lines cross at α = (1 − δ)/(1 + e^ε); there the curve is (1 − δ)/(1 + e^ε).
        const double cross = (1.0 - delta) / (1.0 + std::exp(epsilon));
        PBX_FUZZY_COMPARE(*epsilonDeltaTradeoff(epsilon, delta, cross), cross, 1e-14);
        QCOMPARE(*epsilonDeltaTradeoff(0.0, 0.0, 0.3),
                 std::nextafter(0.7, 0.0)); // ε = 0: no test beats guessing
        QCOMPARE(*epsilonDeltaTradeoff(std::numeric_limits<double>::infinity(), 0.0, 0.3), 0.0);
        QCOMPARE(*epsilonDeltaTradeoff(5.0, 1.0, 0.0), 0.0); // δ = 1 promises nothing
    }

    // The Gaussian mechanism's exact profile δ(ε) (Balle & Wang 2018) on a fine ε grid gives, by the
    // primal–dual relation, the exact Gaussian trade-off Φ(Φ⁻¹(1 − α) − μ), from below.
    void gaussianFromItsProfile()
    {
        for (double mu : {0.5, 1.0, 3.0}) {
            std::vector<ProfilePoint> profile;
            for (int i = 0; i <= 4000; ++i) {
                const double epsilon = i * 0.0025 * (1.0 + mu * mu);
                profile.push_back({epsilon, gaussianDelta(mu, epsilon)});
            }
            for (double alpha : {1e-4, 0.01, 0.05, 0.2, 0.5, 0.8}) {
                const double exact = math::normalCdf(math::normalQuantile(1.0 - alpha) - mu);
                const double closed = *gaussianTradeoff(mu, alpha);
                PBX_FUZZY_COMPARE(closed, exact, 1e-12);
                const double dual = *profileTradeoff(profile, alpha);
                QVERIFY2(
                    dual <= exact + 1e-12,
                    qPrintable(QStringLiteral("μ %1 α %2: %3 > %4").arg(mu).arg(alpha).arg(dual).arg(exact)));
                QVERIFY2(dual >= exact - 2e-4,
                         qPrintable(
                             QStringLiteral("μ %1 α %2: %3 vs %4").arg(mu).arg(alpha).arg(dual).arg(exact)));
            }
        }
        QCOMPARE(*gaussianTradeoff(0.0, 0.25), std::nextafter(0.75, 0.0));
    }

    void posterior()
    {
        // ε = ln 3, prior 10 %: odds 1/9 → 3/9, posterior 25 %.
        PBX_FUZZY_COMPARE(*posteriorBound(std::log(3.0), 0.1), 0.25, 1e-15);
        QVERIFY(*posteriorBound(std::log(3.0), 0.1) >= 0.25);
        PBX_FUZZY_COMPARE(*posteriorBound(1.0, 0.5), std::exp(1.0) / (1.0 + std::exp(1.0)), 1e-15);
        QCOMPARE(*posteriorBound(0.0, 0.3), std::nextafter(0.3, 2.0)); // ε = 0: nothing learnt
        QCOMPARE(*posteriorBound(2.0, 0.0), 0.0);
        QCOMPARE(*posteriorBound(2.0, 1.0), 1.0);
        QCOMPARE(*posteriorBound(800.0, 1e-6), 1.0);
        // Monotone in the prior and in ε.
        double previous = 0.0;
        for (double p = 0.0; p <= 1.0; p += 0.05) {
            const double q = *posteriorBound(0.7, p);
            QVERIFY(q >= previous && q >= p);
            previous = q;
        }
    }

    void badInput()
    {
        EXPECT_INVALID(epsilonDeltaTradeoff(-1.0, 0.0, 0.5), "ε");
        EXPECT_INVALID(epsilonDeltaTradeoff(1.0, 1.5, 0.5), "δ");
        EXPECT_INVALID(epsilonDeltaTradeoff(1.0, 0.0, std::nan("")), "α");
        EXPECT_INVALID(gaussianTradeoff(-0.1, 0.5), "μ");
        EXPECT_INVALID(posteriorBound(1.0, 1.2), "prior");
        const std::vector<ProfilePoint> none;
        EXPECT_INVALID(profileTradeoff(none, 0.5), "no points");
        const std::vector<ProfilePoint> bad{{1.0, 0.0}, {1.0, -0.5}};
        EXPECT_INVALID(profileTradeoff(bad, 0.5), "profile[1]: δ");
    }
};

QTEST_GUILESS_MAIN(TestPrivacyRisk)
#include "tst_privacyrisk.moc"
