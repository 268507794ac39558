// SPDX-License-Identifier: MIT
#include "core/growing/ermg.h"

#include "core/growing/growing_error.h"
#include "core/growing/privacy_schedule.h"
#include "core/math/directed_rounding.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

namespace pbx::growing {

namespace {
/// ln(1 + e^{−z}) without overflow.
double softplusNeg(double z)
{
    return z > 0.0 ? std::log1p(std::exp(-z)) : -z + std::log1p(std::exp(z));
}
} // namespace

double logisticRisk(const Eigen::VectorXd &theta, const Eigen::Ref<const Eigen::MatrixXd> &x,
                    const Eigen::Ref<const Eigen::VectorXd> &y, double lambda)
{
    const Eigen::VectorXd z = y.cwiseProduct(x * theta);
    double sum = 0.0;
    for (Eigen::Index i = 0; i < z.size(); ++i)
        sum += softplusNeg(z(i));
    return sum / double(z.size()) + 0.5 * lambda * theta.squaredNorm();
}

Result<LogisticFit> fitLogistic(const Eigen::Ref<const Eigen::MatrixXd> &x,
                                const Eigen::Ref<const Eigen::VectorXd> &y, double lambda, double tol,
                                const Eigen::VectorXd *start)
{
    if (!(lambda > 0.0) || !std::isfinite(lambda))
        return growingError(kInvalidConfig, "erm.lambda", "must be a finite number > 0");
    if (!(tol >= 1e-10 && tol <= 1e-2))
        return growingError(kInvalidConfig, "erm.tol", "must be a number with 1e-10 <= tol <= 1e-2");
    if (x.rows() < 1 || x.rows() != y.size())
        return growingError(kInvalidConfig, "erm", "needs at least one row and one label per row");
    const double t = double(x.rows());
    const Eigen::Index d = x.cols();
    LogisticFit fit;
    fit.theta = start && start->size() == d ? *start : Eigen::VectorXd::Zero(d);
    for (fit.iterations = 0; fit.iterations < 100; ++fit.iterations) {
        const Eigen::VectorXd z = y.cwiseProduct(x * fit.theta);
        // s_i = 1/(1 + e^{z_i}) = σ(−z_i): the weight of row i in the gradient.
        const Eigen::VectorXd s = z.unaryExpr([](double v) { return 1.0 / (1.0 + std::exp(v)); });
        const Eigen::VectorXd gradient = -(x.transpose() * y.cwiseProduct(s)) / t + lambda * fit.theta;
        fit.gradientNorm = gradient.norm();
        if (fit.gradientNorm <= 0.5 * tol)
            return fit;
        const Eigen::VectorXd w = s.cwiseProduct(Eigen::VectorXd::Ones(s.size()) - s);
        Eigen::MatrixXd hessian = (x.transpose() * w.asDiagonal() * x) / t;
        hessian.diagonal().array() += lambda;
        const Eigen::VectorXd step = hessian.ldlt().solve(gradient);
        // Backtracking keeps the objective decreasing far from the optimum; near it the change in the
        // objective (≈ ‖∇‖²) is below the rounding of the objective itself, so full steps are taken.
        const double before = logisticRisk(fit.theta, x, y, lambda);
        double length = 1.0;
        Eigen::VectorXd next = fit.theta - step;
        while (length > 1e-6 && logisticRisk(next, x, y, lambda) > before + 1e-12 * std::fabs(before)) {
            length *= 0.5;
            next = fit.theta - length * step;
        }
        fit.theta = next;
    }
    return makeError(ErrorCode::ResourceLimit,
                     "Newton's method did not reach the gradient tolerance in 100 steps");
}

double ermSensitivity(std::uint64_t t, double lambda, double tol)
{
    const double exact = math::divideRoundUp(2.0, math::multiplyRoundDown(double(t), lambda));
    return math::addRoundUp(exact, math::divideRoundUp(math::multiplyRoundUp(2.0, tol), lambda));
}

double ermNoiseScale(std::uint64_t t, double lambda, double tol, double rho)
{
    const double root = math::nudgeDown(std::sqrt(2.0 * rho), 1);
    return math::divideRoundUp(ermSensitivity(t, lambda, tol), root);
}

ExcessRisk excessRisk(const Eigen::VectorXd &theta, double sigma, const Eigen::Ref<const Eigen::MatrixXd> &x,
                      const Eigen::Ref<const Eigen::VectorXd> &y, double lambda, int draws,
                      std::mt19937_64 &rng)
{
    std::normal_distribution<double> normal(0.0, sigma);
    const double base = logisticRisk(theta, x, y, lambda);
    std::vector<double> excess;
    for (int k = 0; k < draws; ++k) {
        Eigen::VectorXd noisy = theta;
        for (Eigen::Index j = 0; j < noisy.size(); ++j)
            noisy(j) += normal(rng);
        excess.push_back(logisticRisk(noisy, x, y, lambda) - base);
    }
    ExcessRisk r;
    if (excess.empty())
        return r;
    double sum = 0.0;
    for (const double e : excess)
        sum += e;
    r.mean = sum / double(excess.size());
    std::sort(excess.begin(), excess.end());
    const std::size_t mid = excess.size() / 2;
    r.median = excess.size() % 2 ? excess[mid] : 0.5 * (excess[mid - 1] + excess[mid]);
    return r;
}

} // namespace pbx::growing
