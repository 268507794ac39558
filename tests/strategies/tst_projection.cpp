// SPDX-License-Identifier: MIT
// Constrained inference never increases the squared error of the projected vector: over 10⁴
// random runs each for non-negativity, isotonic regression (PAVA, weighted and unweighted) and
// tree consistency, ‖q̄ − q‖² ≤ ‖q̃ − q‖² − ‖q̃ − q̄‖² (up to rounding); and a derived query can
// still get worse (the guarantee is for the vector).
#include "core/strategies/constrained_inference.h"
#include "core/strategies/tree_strategy.h"
#include "tests/testutils.h"

#include <random>

using namespace pbx;
using namespace pbx::strategies;

class TestProjection : public QObject
{
    Q_OBJECT

    static void checkInequality(const std::vector<double> &truth, const std::vector<double> &noisy,
                                const std::vector<double> &projected, int &strictlyBetter)
    {
        const double before = squaredDistance(noisy, truth);
        const double after = squaredDistance(projected, truth);
        const double moved = squaredDistance(noisy, projected);
        const double slack = 1e-9 * (1.0 + before);
        QVERIFY2(after <= before - moved + slack,
                 qPrintable(QStringLiteral("before %1 after %2 moved %3").arg(before).arg(after).arg(moved)));
        if (after < before - slack)
            ++strictlyBetter;
    }

private slots:
    void nonNegativity()
    {
        std::mt19937_64 rng(1);
        std::exponential_distribution<double> ex(1.0);
        std::uniform_int_distribution<int> count(0, 5);
        int better = 0;
        for (int run = 0; run < 10000; ++run) {
            std::vector<double> truth(12), noisy(12);
            for (std::size_t i = 0; i < 12; ++i) {
                truth[i] = count(rng);
                noisy[i] = truth[i] + 2.0 * (ex(rng) - ex(rng));
            }
            checkInequality(truth, noisy, clipNonNegative(noisy), better);
        }
        QVERIFY(better > 1000);
    }

    void isotonic()
    {
        std::mt19937_64 rng(2);
        std::exponential_distribution<double> ex(1.0);
        std::uniform_real_distribution<double> weight(0.5, 3.0);
        int better = 0;
        for (int run = 0; run < 10000; ++run) {
            const std::size_t n = 3 + run % 20;
            std::vector<double> truth(n), noisy(n), w(n);
            double level = 0.0;
            for (std::size_t i = 0; i < n; ++i) {
                level += std::floor(3.0 * ex(rng));
                truth[i] = level;
                noisy[i] = truth[i] + 3.0 * (ex(rng) - ex(rng));
                w[i] = weight(rng);
            }
            const auto fitted = *isotonicRegression(noisy);
            checkInequality(truth, noisy, fitted, better);
            for (std::size_t i = 1; i < n; ++i)
                QVERIFY(fitted[i] >= fitted[i - 1]);
            // Weighted: the inequality holds in the weighted norm.
            const auto wf = *isotonicRegression(noisy, w);
            double before = 0, after = 0, moved = 0;
            for (std::size_t i = 0; i < n; ++i) {
                before += w[i] * (noisy[i] - truth[i]) * (noisy[i] - truth[i]);
                after += w[i] * (wf[i] - truth[i]) * (wf[i] - truth[i]);
                moved += w[i] * (noisy[i] - wf[i]) * (noisy[i] - wf[i]);
            }
            QVERIFY(after <= before - moved + 1e-9 * (1 + before));
        }
        QVERIFY(better > 5000);
    }

    void treeConsistency()
    {
        std::mt19937_64 rng(3);
        std::exponential_distribution<double> ex(1.0);
        std::uniform_int_distribution<int> count(0, 9);
        int better = 0;
        int derivedWorse = 0;
        for (int run = 0; run < 10000; ++run) {
            const std::size_t b = 2 + run % 3;
            const auto shape = *TreeShape::create(5 + run % 12, b);
            std::vector<double> leaves(shape.k);
            for (auto &v : leaves)
                v = count(rng);
            const auto truth = treeNodeCounts(shape, leaves);
            auto noisy = truth;
            for (auto &v : noisy)
                v += 2.0 * (ex(rng) - ex(rng));
            const auto fitted = hayConsistentTree(shape, noisy);
            checkInequality(truth, noisy, fitted, better);
            // A single coordinate (the first leaf) of the projected vector can be worse.
            const std::size_t leaf = shape.levelOffset(shape.height);
            if (std::fabs(fitted[leaf] - truth[leaf]) > std::fabs(noisy[leaf] - truth[leaf]))
                ++derivedWorse;
        }
        QVERIFY(better > 9000);
        QVERIFY(derivedWorse > 0); // the guarantee is for the vector, not each coordinate
    }
};

QTEST_GUILESS_MAIN(TestProjection)
#include "tst_projection.moc"
