// SPDX-License-Identifier: MIT
#include "core/odp/budget_recovery.h"

#include "core/math/directed_rounding.h"
#include "core/odp/ptr_iqr.h"
#include "core/odp/rounding.h"
#include "core/util/parameter_checks.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

namespace pbx::odp {

namespace {
bool positiveFinite(double x)
{
    return std::isfinite(x) && x > 0.0;
}

/// A UniformRandomBitGenerator over RandomBits, for the standard library's distributions.
struct BitsEngine
{
    using result_type = std::uint64_t;
    mechanisms::RandomBits *bits;
    static constexpr result_type min() { return 0; }
    static constexpr result_type max() { return std::numeric_limits<result_type>::max(); }
    result_type operator()() { return bits->nextU64(); }
};
} // namespace

Result<RecoveryCalibration> calibrateRecovery(const RecoveryParameters &p, std::size_t trainRows,
                                              std::size_t testRows)
{
    PBX_RETURN_IF_ERROR(checkPositive(p.lambda, "lambda"));
    PBX_RETURN_IF_ERROR(checkPositive(p.epsilonModel, "eps-p"));
    PBX_RETURN_IF_ERROR(checkPositive(p.epsilonTest, "eps-t"));
    PBX_RETURN_IF_ERROR(checkProbability(p.tau, "tau", UnitInterval::Closed));
    PBX_RETURN_IF_ERROR(checkPositive(p.gradientTolerance, "gradient tolerance"));
    if (trainRows == 0)
        return makeError(ErrorCode::InvalidArgument, "train: the training part is empty");
    if (testRows == 0)
        return makeError(ErrorCode::InvalidArgument, "test: the test part is empty");
    RecoveryCalibration c;
    if (p.relation == NeighbourRelation::ReplaceOne) {
        c.modelSensitivity = divideRoundUp(2.0, multiplyRoundUp(static_cast<double>(trainRows), p.lambda));
        c.testSensitivity = divideRoundUp(1.0, static_cast<double>(testRows));
    } else {
        if (!positiveFinite(p.trainNormaliser) || !positiveFinite(p.testNormaliser))
            return makeError(ErrorCode::InvalidArgument,
                             "add/remove needs the public normalisers n0 and m0 (> 0)");
        c.modelSensitivity = divideRoundUp(1.0, multiplyRoundUp(p.trainNormaliser, p.lambda));
        c.testSensitivity = divideRoundUp(1.0, p.testNormaliser);
    }
    // The optimiser stops at ‖∇J‖ ≤ g, so ‖θ̂ − θ*‖ ≤ g/Λ on each side.
    c.modelSensitivity
        = math::addRoundUp(c.modelSensitivity, divideRoundUp(2.0 * p.gradientTolerance, p.lambda));
    c.trainSensitivity = divideRoundUp(c.modelSensitivity, 4.0);
    c.beta = divideRoundDown(p.epsilonModel, c.modelSensitivity);
    c.testNoise = p.testNoise ? *p.testNoise
                              : divideRoundUp(std::max(c.testSensitivity, c.trainSensitivity), p.epsilonTest);
    PBX_RETURN_IF_ERROR(checkPositive(c.testNoise, "s (the test noise)"));
    const double testCost = divideRoundUp(c.testSensitivity, c.testNoise);
    const double trainCost = std::min(p.epsilonModel, divideRoundUp(c.trainSensitivity, c.testNoise));
    c.releaseCost = std::max(p.epsilonModel, testCost);
    c.bottomCost = std::max(trainCost, testCost);
    c.testCanSave = p.epsilonTest < p.epsilonModel;
    return c;
}

OdpGuarantee recoveryGuarantee(const RecoveryCalibration &c)
{
    return OdpGuarantee{
        {OdpCell{0, "⊥ (test failed)", c.bottomCost}, OdpCell{1, "model released", c.releaseCost}}, 0.0};
}

Eigen::VectorXd sampleL2LaplaceNoise(Eigen::Index dimension, double beta, mechanisms::RandomBits &bits)
{
    BitsEngine engine{&bits};
    std::gamma_distribution<double> radius(static_cast<double>(dimension), 1.0 / beta);
    std::normal_distribution<double> normal;
    Eigen::VectorXd direction(dimension);
    do {
        for (Eigen::Index i = 0; i < dimension; ++i)
            direction[i] = normal(engine);
    } while (direction.norm() == 0.0);
    return direction.normalized() * radius(engine);
}

Result<RecoveryRun> runRecovery(const LabelledRows &train, const LabelledRows &test,
                                const RecoveryParameters &p, mechanisms::RandomBits &bits)
{
    if (auto ok = calibrateRecovery(p, static_cast<std::size_t>(train.x.rows()),
                                    static_cast<std::size_t>(test.x.rows()));
        !ok)
        return ok.error();
    const double normaliser = p.relation == NeighbourRelation::AddRemove ? p.trainNormaliser : 0.0;
    auto fit = fitLogistic(train, p.lambda, p.gradientTolerance, normaliser);
    if (!fit)
        return fit.error();
    return perturbAndTest(*fit, static_cast<std::size_t>(train.x.rows()), test, p, bits);
}

Result<RecoveryRun> perturbAndTest(const LogisticFit &fit, std::size_t trainRows, const LabelledRows &test,
                                   const RecoveryParameters &p, mechanisms::RandomBits &bits)
{
    auto calibration = calibrateRecovery(p, trainRows, static_cast<std::size_t>(test.x.rows()));
    if (!calibration)
        return calibration.error();
    PBX_RETURN_IF_ERROR(validateRows(test, "test"));
    if (test.x.cols() != fit.theta.size())
        return makeError(ErrorCode::InvalidArgument, "test: the parts have different feature counts");
    RecoveryRun run;
    run.calibration = *calibration;
    if (!(fit.gradientNorm <= p.gradientTolerance)) {
        // Impossible by the step bound; if it happens it is a bug: release nothing, and the caller
        // charges the worst case.
        return makeError(ErrorCode::Unsupported, "internal error: the optimiser missed its tolerance; "
                                                 "nothing released, charge the worst case");
    }
    run.theta = fit.theta + sampleL2LaplaceNoise(fit.theta.size(), run.calibration.beta, bits);
    double error = 0.0;
    if (p.relation == NeighbourRelation::AddRemove) {
        // (1/m₀) Σ over at most m₀ test rows: sensitivity 1/m₀ under add/remove.
        const auto rows = std::min<Eigen::Index>(test.x.rows(), static_cast<Eigen::Index>(p.testNormaliser));
        const LabelledRows head{test.x.topRows(rows), test.y.head(rows)};
        error = meanAbsoluteError(run.theta, head) * static_cast<double>(rows) / p.testNormaliser;
    } else {
        error = meanAbsoluteError(run.theta, test);
    }
    run.noisyError = error + sampleLaplace(bits, run.calibration.testNoise);
    if (bits.failed())
        return bits.error();
    run.released = run.noisyError <= p.tau;
    run.cost = run.released ? run.calibration.releaseCost : run.calibration.bottomCost;
    if (!run.released)
        run.theta = Eigen::VectorXd();
    return run;
}

double recoveryPassProbability(double error, double tau, double testNoise)
{
    const double x = tau - error;
    return x >= 0.0 ? 1.0 - 0.5 * std::exp(-x / testNoise) : 0.5 * std::exp(x / testNoise);
}

double testNoiseQuantile95(double records, double lambda, double epsilonTest)
{
    const double n = 0.8 * records;
    const double m = 0.2 * records;
    return std::max(1.0 / m, 1.0 / (2.0 * n * lambda)) / epsilonTest * std::log(10.0);
}

Result<RecoverySplit> cps1988Recovery(const data::Rows &table, const std::string &features,
                                      double labelThreshold)
{
    if (features != "full" && features != "weak")
        return makeError(ErrorCode::InvalidArgument, "features must be 'full' or 'weak'");
    if (!std::isfinite(labelThreshold))
        return makeError(ErrorCode::InvalidArgument, "label threshold must be finite");
    const char *needed[] = {"wage", "education", "experience", "ethnicity", "smsa", "region", "parttime"};
    std::size_t col[7];
    for (int i = 0; i < 7; ++i) {
        auto idx = table.columnIndex(needed[i]);
        if (!idx)
            return makeError(ErrorCode::NotFound, std::string("column '") + needed[i] + "' not found");
        col[i] = *idx;
    }
    auto code = [&](std::size_t c, const std::string &label) -> int {
        const auto &cats = table.columnInfo(c).categories;
        const auto it = std::find(cats.begin(), cats.end(), label);
        return it == cats.end() ? -1 : static_cast<int>(it - cats.begin());
    };
    const int afam = code(col[3], "afam");
    const int smsaYes = code(col[4], "yes");
    const int midwest = code(col[5], "midwest");
    const int south = code(col[5], "south");
    const int west = code(col[5], "west");
    const int partYes = code(col[6], "yes");
    if (afam < 0 || smsaYes < 0 || midwest < 0 || south < 0 || west < 0 || partYes < 0)
        return makeError(ErrorCode::InvalidArgument, "a categorical level is missing from the declared list");
    const bool full = features == "full";
    const Eigen::Index d = full ? 9 : 5;
    const double scale = 1.0 / std::sqrt(full ? 7.0 : 3.0);
    const std::size_t n = table.rowCount();
    std::size_t testCount = 0;
    for (std::size_t i = 0; i < n; ++i)
        testCount += i % 5 == 4;
    RecoverySplit split;
    split.train.x.resize(static_cast<Eigen::Index>(n - testCount), d);
    split.train.y.resize(static_cast<Eigen::Index>(n - testCount));
    split.test.x.resize(static_cast<Eigen::Index>(testCount), d);
    split.test.y.resize(static_cast<Eigen::Index>(testCount));
    Eigen::Index tr = 0;
    Eigen::Index te = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const double wage = table.numeric(col[0])[i];
        const double edu = std::clamp(table.numeric(col[1])[i], 0.0, 20.0) / 20.0;
        const double exper = (std::clamp(table.numeric(col[2])[i], -8.0, 64.0) + 8.0) / 72.0;
        const int region = table.codes(col[5])[i];
        Eigen::VectorXd row(d);
        const double a = table.codes(col[3])[i] == afam ? 1.0 : 0.0;
        const double mw = region == midwest ? 1.0 : 0.0;
        const double so = region == south ? 1.0 : 0.0;
        const double we = region == west ? 1.0 : 0.0;
        if (full)
            row << 1.0, edu, exper, a, table.codes(col[4])[i] == smsaYes ? 1.0 : 0.0, mw, so, we,
                table.codes(col[6])[i] == partYes ? 1.0 : 0.0;
        else
            row << 1.0, a, mw, so, we;
        row *= scale;
        const double label = wage > labelThreshold ? 1.0 : -1.0;
        if (i % 5 == 4) {
            split.test.x.row(te) = row;
            split.test.y[te++] = label;
        } else {
            split.train.x.row(tr) = row;
            split.train.y[tr++] = label;
        }
    }
    return split;
}

} // namespace pbx::odp
