// SPDX-License-Identifier: MIT
#include "ui/odp/odplabjob.h"

#include "core/datasets/cps1988_recovery.h"
#include "core/odp/budget_recovery.h"
#include "core/odp/logistic_regression.h"

#include <QCoreApplication>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>

namespace pbx::ui {

void runSvtFigure(QPromise<SvtFigureOutcome> &promise, const SvtFigureInput &input)
{
    SvtFigureOutcome outcome;
    const int last = std::clamp(input.largestCount, 0, input.entries);
    promise.setProgressRange(0, last + 1);
    auto split = odp::lyuSplit(input.epsilon * input.svtShare, input.cutoff);
    if (!split || !(input.svtShare > 0.0 && input.svtShare < 1.0)) {
        outcome.error
            = split ? QCoreApplication::translate("OdpLab", "the sparse-vector share must lie in (0, 1)")
                    : QString::fromStdString(split.error().message);
        promise.addResult(outcome);
        return;
    }
    outcome.epsilon1 = split->epsilon1;
    outcome.epsilon2 = split->epsilon2;
    const odp::SvtParameters p{split->epsilon1, split->epsilon2, input.cutoff, 1.0};
    for (int l = 0; l <= last; ++l) {
        if (promise.isCanceled())
            return;
        auto row = odp::svtFigureRow(input.entries, l, input.big, input.threshold, p,
                                     input.epsilon * (1.0 - input.svtShare));
        if (!row) {
            outcome.error = QString::fromStdString(row.error().message);
            promise.addResult(outcome);
            return;
        }
        outcome.rows.push_back(*row);
        promise.setProgressValueAndText(
            l + 1, QCoreApplication::translate("OdpLab", "L = %1 of %2").arg(l).arg(last));
    }
    promise.addResult(outcome);
}

QFuture<SvtFigureOutcome> startSvtFigure(const SvtFigureInput &input)
{
    return QtConcurrent::run(runSvtFigure, input);
}

void runRecoverySimulation(QPromise<RecoverySimulationOutcome> &promise, const RecoverySimulationInput &input)
{
    RecoverySimulationOutcome outcome;
    promise.setProgressRange(0, 2);
    auto fail = [&](const std::string &message) {
        outcome.error = QString::fromStdString(message);
        promise.addResult(outcome);
    };
    if (!input.table)
        return fail("no dataset");
    // It reads the true test error: door (b) of core/data/rows.h, public data only.
    const auto rows = data::publicRows(*input.table, "the recovery simulation");
    if (!rows)
        return fail(rows.error().message);
    const char *models[] = {"full", "weak"};
    for (int m = 0; m < 2; ++m) {
        if (promise.isCanceled())
            return;
        auto split = odp::cps1988Recovery(*rows, models[m], input.labelThreshold);
        if (!split)
            return fail(split.error().message);
        odp::RecoveryParameters p;
        p.lambda = input.lambda;
        p.epsilonModel = input.epsilonModel;
        p.tau = input.tau;
        auto fit = odp::fitLogistic(split->train, p.lambda, p.gradientTolerance);
        if (!fit)
            return fail(fit.error().message);
        RecoverySimulationModel model;
        model.name = QString::fromLatin1(models[m]);
        model.trueError = odp::meanAbsoluteError(fit->theta, split->test);
        for (double et : input.epsilonTests) {
            p.epsilonTest = et;
            auto c = odp::calibrateRecovery(p, static_cast<std::size_t>(split->train.y.size()),
                                            static_cast<std::size_t>(split->test.y.size()));
            if (!c)
                return fail(c.error().message);
            const double pass = odp::recoveryPassProbability(model.trueError, p.tau, c->testNoise);
            model.passes.push_back(pass);
            model.costs.push_back(pass * c->releaseCost + (1.0 - pass) * c->bottomCost);
            model.testNoise.push_back(c->testNoise);
            if (m == 0) {
                outcome.releaseCost = c->releaseCost;
                outcome.bottomCosts.push_back(c->bottomCost);
            }
        }
        outcome.models.push_back(model);
        promise.setProgressValueAndText(
            m + 1, QCoreApplication::translate("OdpLab", "%1 model fitted").arg(model.name));
    }
    promise.addResult(outcome);
}

QFuture<RecoverySimulationOutcome> startRecoverySimulation(const RecoverySimulationInput &input)
{
    return QtConcurrent::run(runRecoverySimulation, input);
}

} // namespace pbx::ui
