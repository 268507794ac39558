// SPDX-License-Identifier: MIT
// The test vectors of docs/strategies-inference.md: BMI counts and totals, workload sensitivities,
// identity variance, the k = 8 range table, Hay's two-pass vectors, PAVA, exponential-mechanism
// quantiles, smooth sensitivity, subsampling and stability.
#include "core/strategies/bmi_example.h"
#include "core/strategies/constrained_inference.h"
#include "core/strategies/haar_strategy.h"
#include "core/strategies/quantiles.h"
#include "core/strategies/range_strategy.h"
#include "core/strategies/stability.h"
#include "core/strategies/tree_strategy.h"
#include "tests/testutils.h"

#include <cmath>

using namespace pbx;
using namespace pbx::strategies;
using data::Neighbouring;

class TestVectors : public QObject
{
    Q_OBJECT

private slots:
    void bmiCountsAndTotals()
    {
        const double expected[] = {26.96, 33.65, 23.63, 31.88, 28.16};
        const auto rows = bmiSlideRows();
        QCOMPARE(rows.size(), std::size_t{5});
        for (std::size_t i = 0; i < rows.size(); ++i)
            QCOMPARE(std::round(bodyMassIndex(rows[i]) * 100.0) / 100.0, expected[i]);
        const auto answers = bmiAnswers(bmiSlideCells());
        QCOMPARE(answers[0], 0.0);
        QCOMPARE(answers[1], 3.0);
        QCOMPARE(answers[2], 1.0);
        QCOMPARE(answers[3], 2.0);
        auto ar = simulateBmi(bmiSlideCells(), 1.0, Neighbouring::AddRemove, 20000, 7);
        QVERIFY(ar.ok());
        QCOMPARE(ar->methods[0].predicted, 128.0);
        QCOMPARE(ar->methods[1].predicted, 32.0);
        QCOMPARE(ar->methods[2].predicted, 12.0);
        for (std::size_t m = 0; m < 3; ++m)
            QVERIFY2(std::fabs(ar->methods[m].measured - ar->methods[m].predicted)
                         < 4.0 * ar->methods[m].standardError,
                     qPrintable(QString::number(ar->methods[m].measured)));
        // Clipping helps: the true cell #M<25 is 0 (docs/strategies-inference.md, 400,000 runs).
        QVERIFY(std::fabs(ar->methods[3].measured - 7.670) < 0.3);
        QVERIFY(std::fabs(ar->methods[4].measured - 11.521) < 0.5);
        QVERIFY(std::fabs(ar->violationProbability - 0.5 * std::exp(-3.0)) < 0.005);
        auto half = simulateBmi(bmiSlideCells(), 0.5, Neighbouring::AddRemove, 100, 7);
        QCOMPARE(half->methods[0].predicted, 512.0);
        QCOMPARE(half->methods[2].predicted, 48.0);
        auto rep = simulateBmi(bmiSlideCells(), 1.0, Neighbouring::Replace, 100, 7);
        QCOMPARE(rep->methods[0].predicted, 128.0);
        QCOMPARE(rep->methods[1].predicted, 128.0);
        QCOMPARE(rep->methods[2].predicted, 48.0);
        PBX_VERIFY_ERROR(simulateBmi(bmiSlideCells(), 0.0, Neighbouring::AddRemove, 100, 7), InvalidArgument,
                         "epsilon");
    }

    void workloadSensitivities()
    {
        QCOMPARE(allRangesSensitivityL1(21, Neighbouring::AddRemove), std::uint64_t{121});
        QCOMPARE(allRangesSensitivityL1(73, Neighbouring::AddRemove), std::uint64_t{1369});
        QCOMPARE(allRangesSensitivityL1(73, Neighbouring::Replace), std::uint64_t{1369});
        QCOMPARE(allRangesSensitivityL1(8, Neighbouring::Replace), std::uint64_t{20});
        QCOMPARE(prefixSensitivityL1(73, Neighbouring::AddRemove), std::uint64_t{73});
        QCOMPARE(prefixSensitivityL1(73, Neighbouring::Replace), std::uint64_t{72});
        // The closed forms agree with the column-norm computation on the explicit workloads.
        for (const std::size_t k : {std::size_t{3}, std::size_t{8}, std::size_t{21}}) {
            const auto all = *allRanges(k);
            for (const auto n : {Neighbouring::AddRemove, Neighbouring::Replace}) {
                QCOMPARE(workloadSensitivity(all, k, n)->l1, double(allRangesSensitivityL1(k, n)));
                QCOMPARE(workloadSensitivity(*prefixRanges(k), k, n)->l1, double(prefixSensitivityL1(k, n)));
            }
        }
        auto tree = TreeShape::create(73, 2);
        QVERIFY(tree.ok());
        QCOMPARE(tree->sensitivityL1(Neighbouring::AddRemove), std::size_t{8});
        QCOMPARE(tree->padded, std::size_t{128});
        QCOMPARE(tree->sensitivityL1(Neighbouring::Replace), std::size_t{14});
        QCOMPARE(TreeShape::create(8, 2)->sensitivityL1(Neighbouring::Replace), std::size_t{6});
        QCOMPARE(TreeShape::create(27, 3)->sensitivityL1(Neighbouring::AddRemove), std::size_t{4});
        QCOMPARE(HaarShape::create(21)->sensitivityL1(Neighbouring::AddRemove), std::size_t{6});
        QCOMPARE(HaarShape::create(21)->sensitivityL1(Neighbouring::Replace), std::size_t{10});
    }

    void identityAverage()
    {
        const RangeStrategy identity{RangeStrategyKind::Identity};
        for (const auto &[k, expected] : {std::pair{21, 15.3333333333}, {73, 50.0}, {256, 172.0}}) {
            auto p = predictRangeErrors(identity, k, *allRanges(k), 1.0, Neighbouring::AddRemove);
            QVERIFY(p.ok());
            PBX_FUZZY_COMPARE(p->average, expected, 1e-9);
        }
        auto all = predictRangeErrors({RangeStrategyKind::AllRanges}, 21, *allRanges(21), 1.0,
                                      Neighbouring::AddRemove);
        QCOMPARE(all->average, 29282.0);
        auto all73 = predictRangeErrors({RangeStrategyKind::AllRanges}, 73, *allRanges(73), 1.0,
                                        Neighbouring::AddRemove);
        QCOMPARE(all73->average, 3748322.0);
    }

    void rangeTableK8()
    {
        const RangeStrategy identity{RangeStrategyKind::Identity};
        const RangeStrategy canonical{RangeStrategyKind::Tree, 2, true, false};
        const RangeStrategy ls{RangeStrategyKind::Tree, 2, true, true};
        const RangeStrategy haar{RangeStrategyKind::Haar};
        const std::vector<Range> ranges = {{2, 5}, {0, 7}, {3, 3}, {1, 6}};
        const double expected[4][4] = {{8, 64, 25.6, 24},
                                       {16, 32, 17.0666666667, 32},
                                       {2, 32, 19.5047619048, 11},
                                       {12, 128, 46.9333333333, 38}};
        const RangeStrategy *strategies[] = {&identity, &canonical, &ls, &haar};
        for (std::size_t s = 0; s < 4; ++s) {
            auto v = rangeVariances(*strategies[s], 8, ranges, 1.0, Neighbouring::AddRemove);
            QVERIFY(v.ok());
            for (std::size_t r = 0; r < 4; ++r)
                PBX_FUZZY_COMPARE((*v)[r], expected[r][s], 1e-9);
        }
        const auto tree = *TreeShape::create(8, 2);
        QCOMPARE(canonicalNodes(tree, {1, 6}).size(), std::size_t{4});
    }

    void cpsRangePredictions()
    {
        // Education (k = 21) and experience (k = 73), all ranges, ε = 1.
        struct Row
        {
            std::size_t k;
            RangeStrategy s;
            double average, max;
        };
        const Row rows[] = {
            {21, {RangeStrategyKind::Tree, 2, true, false}, 198.545, 432},
            {21, {RangeStrategyKind::Tree, 2, true, true}, 75.728, 133.899},
            {21, {RangeStrategyKind::Tree, 3, true, true}, 46.854, 76.554},
            {21, {RangeStrategyKind::Tree, 16, true, true}, 67.080, 139.109},
            {21, {RangeStrategyKind::Haar}, 54.801, 102.094},
            {73, {RangeStrategyKind::Tree, 2, true, true}, 168.547, 274.453},
            {73, {RangeStrategyKind::Tree, 3, true, true}, 98.570, 160.962},
            {73, {RangeStrategyKind::Tree, 16, true, false}, 238.078, 576},
            {73, {RangeStrategyKind::Tree, 16, true, true}, 104.882, 187.408},
            {73, {RangeStrategyKind::Haar}, 127.748, 213.719},
        };
        for (const auto &row : rows) {
            auto p = predictRangeErrors(row.s, row.k, *allRanges(row.k), 1.0, Neighbouring::AddRemove);
            QVERIFY(p.ok());
            PBX_FUZZY_COMPARE(p->average, row.average, 1e-5);
            PBX_FUZZY_COMPARE(p->max, row.max, 1e-5);
        }
        // By length, k = 73 (L = 1, 2, 5, 10, 36, 73).
        auto b2 = predictRangeErrors({RangeStrategyKind::Tree, 2, true, true}, 73, *allRanges(73), 1.0,
                                     Neighbouring::AddRemove);
        const double byLength[] = {77.66, 100.69, 131.42, 154.44, 191.22, 160.83};
        const std::size_t lengths[] = {1, 2, 5, 10, 36, 73};
        for (std::size_t i = 0; i < 6; ++i)
            QVERIFY(std::fabs(b2->byLength[lengths[i] - 1] - byLength[i]) < 0.006);
        auto haar
            = predictRangeErrors({RangeStrategyKind::Haar}, 73, *allRanges(73), 1.0, Neighbouring::AddRemove);
        const double haarByLength[] = {42.67, 60.97, 88.10, 110.07, 151.01, 144.42};
        for (std::size_t i = 0; i < 6; ++i)
            QVERIFY(std::fabs(haar->byLength[lengths[i] - 1] - haarByLength[i]) < 0.006);
        // The Haar bound (h+1)²(h+2) holds for every range (k = 73: 576).
        QVERIFY(haar->max <= 576.0);
        // Branching table, k = 256, b = 16 with consistency: 135.4 (< identity 172).
        auto b16 = predictRangeErrors({RangeStrategyKind::Tree, 16, true, true}, 256, *allRanges(256), 1.0,
                                      Neighbouring::AddRemove);
        QVERIFY(std::fabs(b16->average - 135.4) < 0.05);
        // Replace multiplies the identity variance by 4.
        auto rep = predictRangeErrors({RangeStrategyKind::Identity}, 21, *allRanges(21), 1.0,
                                      Neighbouring::Replace);
        PBX_FUZZY_COMPARE(rep->average, 4.0 * 15.3333333333, 1e-9);
    }

    void hayTwoPass()
    {
        const auto t2 = *TreeShape::create(4, 2);
        const auto out2 = hayConsistentTree(t2, {10, 4, 5, 1, 2, 3, 1});
        const double e2[] = {9.2857142857, 4.1428571429, 5.1428571429, 1.5714285714,
                             2.5714285714, 3.5714285714, 1.5714285714};
        for (std::size_t i = 0; i < 7; ++i)
            QVERIFY(std::fabs(out2[i] - e2[i]) < 1e-9);
        const auto t3 = *TreeShape::create(9, 3);
        const auto out3 = hayConsistentTree(t3, {20, 5, 7, 6, 1, 2, 1, 3, 3, 2, 2, 1, 4});
        const double e3[] = {19.4615384615, 5.1538461538, 7.6538461538, 6.6538461538, 1.3846153846,
                             2.3846153846,  1.3846153846, 2.8846153846, 2.8846153846, 1.8846153846,
                             1.8846153846,  0.8846153846, 3.8846153846};
        for (std::size_t i = 0; i < 13; ++i)
            QVERIFY(std::fabs(out3[i] - e3[i]) < 1e-9);
        // The two passes equal the general least squares (Eigen) on random noisy trees.
        std::mt19937_64 rng(3);
        std::normal_distribution<double> g;
        for (const auto &[k, b] : {std::pair{8, 2}, {9, 3}, {16, 4}, {21, 2}, {27, 3}}) {
            const auto shape = *TreeShape::create(k, b);
            std::vector<double> y(shape.nodeCount());
            for (auto &v : y)
                v = g(rng) * 5.0;
            const auto fitted = hayConsistentTree(shape, y);
            const auto cov = *treeLeafCovariance(shape);
            // OLS: x̂ = (AᵀA)^{-1} Aᵀ y
            Eigen::VectorXd aty = Eigen::VectorXd::Zero(static_cast<Eigen::Index>(shape.padded));
            for (std::size_t level = 0; level <= shape.height; ++level) {
                const std::size_t span = shape.leavesPerNode(level);
                for (std::size_t j = 0; j < shape.levelWidth(level); ++j)
                    aty.segment(static_cast<Eigen::Index>(j * span), static_cast<Eigen::Index>(span)).array()
                        += y[shape.levelOffset(level) + j];
            }
            const Eigen::VectorXd ols = cov * aty;
            const std::size_t leaf = shape.levelOffset(shape.height);
            for (std::size_t l = 0; l < shape.padded; ++l)
                QVERIFY(std::fabs(fitted[leaf + l] - ols(static_cast<Eigen::Index>(l))) < 1e-9);
            // Consistency: every parent equals the sum of its children.
            for (std::size_t level = 0; level < shape.height; ++level)
                for (std::size_t j = 0; j < shape.levelWidth(level); ++j) {
                    double sum = 0.0;
                    for (std::size_t c = 0; c < shape.branching; ++c)
                        sum += fitted[shape.levelOffset(level + 1) + j * shape.branching + c];
                    QVERIFY(std::fabs(sum - fitted[shape.levelOffset(level) + j]) < 1e-9);
                }
        }
    }

    void pava()
    {
        const auto a = *isotonicRegression({1, 3, 2, 4, 3, 5});
        const std::vector<double> ea = {1, 2.5, 2.5, 3.5, 3.5, 5};
        QCOMPARE(a, ea);
        const auto b = *isotonicRegression({5, 4, 3, 2, 1});
        QCOMPARE(b, std::vector<double>(5, 3.0));
        const auto c = *isotonicRegression({3, 1, 2}, {1, 2, 1});
        PBX_FUZZY_COMPARE(c[0], 5.0 / 3.0, 1e-15);
        PBX_FUZZY_COMPARE(c[1], 5.0 / 3.0, 1e-15);
        QCOMPARE(c[2], 2.0);
        PBX_VERIFY_ERROR(isotonicRegression({1, 2}, {1, 0}), InvalidArgument, "weights");
    }

    void exponentialMechanismQuantiles()
    {
        auto d = continuousQuantileDistribution({1, 2, 2, 3, 5}, 0.5, 1.0, 0, 6);
        QVERIFY(d.ok());
        const double p[] = {0.1034720497, 0.1705965693, 0, 0.2812661926, 0.3411931386, 0.1034720497};
        QCOMPARE(d->probabilities.size(), std::size_t{6});
        for (std::size_t i = 0; i < 6; ++i)
            QVERIFY(std::fabs(d->probabilities[i] - p[i]) < 1e-10);
        auto g = gridQuantileDistribution({1, 2, 2, 3, 5}, 0.5, 1.0, {0, 1, 2, 3, 4, 5, 6});
        QVERIFY(g.ok());
        const double u[] = {-2.5, -1.5, 0, -0.5, -1.5, -1.5, -2.5};
        const double pg[] = {0.0760179453, 0.1253324034, 0.2653287000, 0.2066381993,
                             0.1253324034, 0.1253324034, 0.0760179453};
        for (std::size_t i = 0; i < 7; ++i) {
            QCOMPARE(g->utilities[i] + 0.0, u[i]);
            QVERIFY(std::fabs(g->probabilities[i] - pg[i]) < 1e-10);
        }
        // The exact sampler follows those probabilities (20,000 draws, 4.5 standard errors).
        mechanisms::SeededRandomBits bits(11, 0);
        std::vector<int> hits(7, 0);
        const int draws = 20000;
        for (int i = 0; i < draws; ++i)
            ++hits[*sampleGridQuantile({1, 2, 2, 3, 5}, 0.5, 1.0, {0, 1, 2, 3, 4, 5, 6}, bits)];
        for (std::size_t i = 0; i < 7; ++i) {
            const double se = std::sqrt(pg[i] * (1 - pg[i]) / draws);
            QVERIFY(std::fabs(hits[i] / double(draws) - pg[i]) < 4.5 * se);
        }
        QCOMPARE(strategyErrorCode(checkQuantile(1.0).error()), kInvalidQuantile);
        QCOMPARE(strategyErrorCode(checkQuantile(0.0).error()), kInvalidQuantile);
        QCOMPARE(strategyErrorCode(gridQuantileDistribution({1}, 0.5, -1, {0, 1}).error()), kInvalidEpsilon);
        PBX_FUZZY_COMPARE(quantileRankErrorBound(1.0, 21, 0.05), 2.0 * std::log(420.0), 1e-15);
    }

    void smoothSensitivity()
    {
        auto a = medianSmoothSensitivity({1, 2, 2, 3, 5}, 0.1, 0, 6);
        QVERIFY(a.ok());
        QVERIFY(std::fabs(a->value - 3.6391839583) < 1e-9);
        QCOMPARE(a->argmax, std::size_t{5});
        auto b = medianSmoothSensitivity({1, 2, 2, 3, 5}, 1.0, 0, 6);
        QVERIFY(std::fabs(b->value - 1.1036383235) < 1e-9);
        QCOMPARE(b->argmax, std::size_t{1});
        // β = ε/(2(γ+1)), not ε/2·(γ+1).
        QCOMPARE(smoothSensitivityBeta(1.0, 2.0), 1.0 / 6.0);
    }

    void subsamplingAndStability()
    {
        const double cases[][3] = {{0.01, 1, 0.0170368632},
                                   {0.1, 1, 0.1585650787},
                                   {0.5, 1, 0.6201145070},
                                   {0.1, 0.1, 0.0104621719},
                                   {0.01, 2, 0.0619325294}};
        for (const auto &c : cases) {
            auto e = subsampledEpsilon(c[0], c[1]);
            QVERIFY(e.ok());
            QVERIFY(std::fabs(*e - c[2]) < 1e-10);
            QVERIFY(*e >= c[2] - 1e-10);
        }
        QCOMPARE(*subsamplingShortcut(0.1, 1.0), 0.2);
        QVERIFY(!subsamplingShortcut(0.01, 2.0).has_value()); // 0.04 < 0.0619: not a bound for ε > 1
        QCOMPARE(**transformationStability(Transformation::Filter), 1u);
        QCOMPARE(**transformationStability(Transformation::FlatMap, 3), 3u);
        QCOMPARE(**transformationStability(Transformation::GroupBy), 2u);
        QCOMPARE(**transformationStability(Transformation::Truncate, 2), 2u);
        QVERIFY(!transformationStability(Transformation::SelfJoin)->has_value());
        QCOMPARE(**transformationStability(Transformation::SelfJoinTruncated, 2), 2u);
        QCOMPARE(**transformationStability(Transformation::SelfJoinTruncated, 3), 4u);
        QCOMPARE(**transformationStability(Transformation::SelfJoinTruncated, 4), 6u);
        QVERIFY(stableEpsilon(3, 0.5) >= 1.5);
        PBX_FUZZY_COMPARE(stableEpsilon(3, 0.5), 1.5, 1e-15);
        PBX_FUZZY_COMPARE(stableRho(3, 0.1), 0.9, 1e-15);
        const auto approx = stableApproxDp(2, 1.0, 1e-6);
        PBX_FUZZY_COMPARE(approx.delta, 2.0 * std::exp(1.0) * 1e-6, 1e-15);
        QCOMPARE(strategyErrorCode(transformationStability(Transformation::FlatMap, 0).error()),
                 kInvalidConfig);
    }

    void badConfigurations()
    {
        QCOMPARE(strategyErrorCode(TreeShape::create(21, 1).error()), kInvalidBranching);
        QCOMPARE(strategyErrorCode(TreeShape::create(21, 22).error()), kInvalidBranching);
        QCOMPARE(strategyErrorCode(TreeShape::create(0, 2).error()), kInvalidBounds);
        QCOMPARE(strategyErrorCode(
                     rangeVariances({RangeStrategyKind::Identity}, 8, {{0, 1}}, 0.0, Neighbouring::AddRemove)
                         .error()),
                 kInvalidEpsilon);
        QCOMPARE(strategyErrorCode(
                     rangeVariances({RangeStrategyKind::Identity}, 8, {{0, 1}}, NAN, Neighbouring::AddRemove)
                         .error()),
                 kInvalidEpsilon);
        // K = 8192 > 4096: the dense inverse is refused.
        auto big = rangeVariances({RangeStrategyKind::Tree, 2, true, true}, 5000, {{0, 1}}, 1.0,
                                  Neighbouring::AddRemove);
        QCOMPARE(strategyErrorCode(big.error()), kDomainTooLarge);
        QCOMPARE(big.error().code, ErrorCode::ResourceLimit);
    }
};

QTEST_GUILESS_MAIN(TestVectors)
#include "tst_vectors.moc"
