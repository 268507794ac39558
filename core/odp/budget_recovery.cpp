// SPDX-License-Identifier: MIT
#include "core/odp/budget_recovery.h"

#include "core/math/directed_rounding.h"
#include "core/odp/ptr_iqr.h"
#include "core/util/parameter_checks.h"
#include "core/util/try.h"

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
    if (p.relation == data::Neighbouring::Replace) {
        c.modelSensitivity
            = math::divideRoundUp(2.0, math::multiplyRoundUp(static_cast<double>(trainRows), p.lambda));
        c.testSensitivity = math::divideRoundUp(1.0, static_cast<double>(testRows));
    } else {
        if (!positiveFinite(p.trainNormaliser) || !positiveFinite(p.testNormaliser))
            return makeError(ErrorCode::InvalidArgument,
                             "add/remove needs the public normalisers n0 and m0 (> 0)");
        c.modelSensitivity = math::divideRoundUp(1.0, math::multiplyRoundUp(p.trainNormaliser, p.lambda));
        c.testSensitivity = math::divideRoundUp(1.0, p.testNormaliser);
    }
    // The optimiser stops at ‖∇J‖ ≤ g, so ‖θ̂ − θ*‖ ≤ g/Λ on each side.
    c.modelSensitivity
        = math::addRoundUp(c.modelSensitivity, math::divideRoundUp(2.0 * p.gradientTolerance, p.lambda));
    c.trainSensitivity = math::divideRoundUp(c.modelSensitivity, 4.0);
    c.beta = math::divideRoundDown(p.epsilonModel, c.modelSensitivity);
    c.testNoise = p.testNoise
                      ? *p.testNoise
                      : math::divideRoundUp(std::max(c.testSensitivity, c.trainSensitivity), p.epsilonTest);
    PBX_RETURN_IF_ERROR(checkPositive(c.testNoise, "s (the test noise)"));
    const double testCost = math::divideRoundUp(c.testSensitivity, c.testNoise);
    const double trainCost = std::min(p.epsilonModel, math::divideRoundUp(c.trainSensitivity, c.testNoise));
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
    PBX_RETURN_IF_ERROR(calibrateRecovery(p, static_cast<std::size_t>(train.x.rows()),
                                          static_cast<std::size_t>(test.x.rows())));
    const double normaliser = p.relation == data::Neighbouring::AddRemove ? p.trainNormaliser : 0.0;
    PBX_TRY(fit, fitLogistic(train, p.lambda, p.gradientTolerance, normaliser));
    return perturbAndTest(fit, static_cast<std::size_t>(train.x.rows()), test, p, bits);
}

Result<RecoveryRun> perturbAndTest(const LogisticFit &fit, std::size_t trainRows, const LabelledRows &test,
                                   const RecoveryParameters &p, mechanisms::RandomBits &bits)
{
    PBX_TRY(calibration, calibrateRecovery(p, trainRows, static_cast<std::size_t>(test.x.rows())));
    PBX_RETURN_IF_ERROR(validateRows(test, "test"));
    if (test.x.cols() != fit.theta.size())
        return makeError(ErrorCode::InvalidArgument, "test: the parts have different feature counts");
    RecoveryRun run;
    run.calibration = calibration;
    if (!(fit.gradientNorm <= p.gradientTolerance)) {
        // Impossible by the step bound; if it happens it is a bug: release nothing, and the caller
        // charges the worst case.
        return makeError(ErrorCode::Unsupported, "internal error: the optimiser missed its tolerance; "
                                                 "nothing released, charge the worst case");
    }
    run.theta = fit.theta + sampleL2LaplaceNoise(fit.theta.size(), run.calibration.beta, bits);
    double error = 0.0;
    if (p.relation == data::Neighbouring::AddRemove) {
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

} // namespace pbx::odp
