// SPDX-License-Identifier: MIT
#include "core/odp/logistic_regression.h"

#include "core/util/parameter_checks.h"

#include <cmath>

namespace pbx::odp {

namespace {
double sigmoid(double u)
{
    return u >= 0.0 ? 1.0 / (1.0 + std::exp(-u)) : std::exp(u) / (1.0 + std::exp(u));
}
} // namespace

Result<void> validateRows(const LabelledRows &rows, const char *what)
{
    const std::string name(what);
    if (rows.x.rows() == 0 || rows.x.cols() == 0)
        return makeError(ErrorCode::InvalidArgument, name + ": the " + name + " part is empty");
    if (rows.y.size() != rows.x.rows())
        return makeError(ErrorCode::InvalidArgument, name + ": one label per row is needed");
    for (Eigen::Index i = 0; i < rows.x.rows(); ++i) {
        if (rows.y[i] != 1.0 && rows.y[i] != -1.0)
            return makeError(ErrorCode::InvalidArgument, name + ": labels must be -1 or +1");
        if (!rows.x.row(i).allFinite() || rows.x.row(i).norm() > 1.0 + 1e-12)
            return makeError(ErrorCode::InvalidArgument, name + ": every row needs a finite norm <= 1");
    }
    return {};
}

std::int64_t gradientDescentSteps(double lambda, double gradientTolerance, double rowsOverNormaliser)
{
    const double L = lambda + 0.25 * rowsOverNormaliser;
    const double contraction = -std::log1p(-lambda / L);
    return static_cast<std::int64_t>(
        std::ceil(2.0 * std::log(L / (lambda * gradientTolerance)) / contraction));
}

Result<LogisticFit> fitLogistic(const LabelledRows &train, double lambda, double gradientTolerance,
                                double normaliser)
{
    PBX_RETURN_IF_ERROR(checkPositive(lambda, "lambda"));
    PBX_RETURN_IF_ERROR(checkPositive(gradientTolerance, "gradient tolerance"));
    PBX_RETURN_IF_ERROR(validateRows(train, "train"));
    const double n = static_cast<double>(train.x.rows());
    const double n0 = normaliser > 0.0 ? normaliser : n;
    if (!std::isfinite(n0))
        return makeError(ErrorCode::InvalidArgument, "normaliser must be finite");
    const double ratio = n / n0;
    const double L = lambda + 0.25 * ratio;
    LogisticFit fit;
    fit.steps = gradientDescentSteps(lambda, gradientTolerance, ratio);
    fit.theta = Eigen::VectorXd::Zero(train.x.cols());
    auto gradient = [&](const Eigen::VectorXd &theta) {
        const Eigen::VectorXd margin = train.y.cwiseProduct(train.x * theta);
        Eigen::VectorXd weight(margin.size());
        for (Eigen::Index i = 0; i < margin.size(); ++i)
            weight[i] = -sigmoid(-margin[i]) * train.y[i];
        return Eigen::VectorXd((train.x.transpose() * weight) / n0 + lambda * theta);
    };
    for (std::int64_t t = 0; t < fit.steps; ++t)
        fit.theta -= gradient(fit.theta) / L;
    fit.gradientNorm = gradient(fit.theta).norm();
    return fit;
}

double meanAbsoluteError(const Eigen::VectorXd &theta, const LabelledRows &test)
{
    const Eigen::VectorXd score = test.x * theta;
    double sum = 0.0;
    for (Eigen::Index i = 0; i < score.size(); ++i)
        sum += std::abs(sigmoid(score[i]) - 0.5 * (test.y[i] + 1.0));
    return sum / static_cast<double>(score.size());
}

} // namespace pbx::odp
