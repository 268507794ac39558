// SPDX-License-Identifier: MIT
// The Output-DP lab's long computation, off the GUI thread: the sparse-vector release-noise
// figure (one exact quadrature per number of large entries, core/odp/sparse_vector.h). Progress
// is reported per row and a cancel stops between rows; it never touches a widget.
#pragma once

#include "core/data/table.h"
#include "core/odp/sparse_vector.h"

#include <QFuture>
#include <QPromise>
#include <QString>

#include <memory>
#include <vector>

namespace pbx::ui {

struct SvtFigureInput
{
    int entries = 100;
    double big = 1000.0;
    double threshold = 500.0;
    int cutoff = 10;
    double epsilon = 1.0;
    double svtShare = 0.5;
    int largestCount = 20; ///< rows L = 0 … largestCount
};

struct SvtFigureOutcome
{
    QString error;
    double epsilon1 = 0.0;
    double epsilon2 = 0.0;
    std::vector<odp::SvtFigureRow> rows;
};

/// Computes the rows; adds one outcome unless cancelled.
void runSvtFigure(QPromise<SvtFigureOutcome> &promise, const SvtFigureInput &input);
/// QtConcurrent::run(runSvtFigure, input).
QFuture<SvtFigureOutcome> startSvtFigure(const SvtFigureInput &input);

/// Budget recovery in simulation mode on public data (CPS1988): the non-private fits of the full
/// and weak models read the data, so this runs only in the lab's labelled simulation, never in a
/// session. Label wage > 500, Λ = 0.01, ε_p = 2, τ = 0.49 (docs/output-dp.md §6.6).
struct RecoverySimulationInput
{
    std::shared_ptr<const data::Table> table;
    double lambda = 0.01;
    double epsilonModel = 2.0;
    double tau = 0.49;
    double labelThreshold = 500.0;
    std::vector<double> epsilonTests; ///< the ε_t sweep, each in (0, ε_p)
};

struct RecoverySimulationModel
{
    QString name;                  ///< "full" or "weak"
    double trueError = 0.0;        ///< non-private test MAE of θ* (reads the data)
    std::vector<double> passes;    ///< P[pass] per ε_t, ignoring the model noise (analytic)
    std::vector<double> costs;     ///< expected cost P·E(released) + (1 − P)·E(⊥) per ε_t
    std::vector<double> testNoise; ///< s per ε_t
};

struct RecoverySimulationOutcome
{
    QString error;
    std::vector<RecoverySimulationModel> models; ///< full, weak
    double releaseCost = 0.0;                    ///< E(released) = ε_p
    std::vector<double> bottomCosts;             ///< E(⊥) per ε_t
};

/// Fits both models (one progress step each), then the sweep; cancel stops between fits.
void runRecoverySimulation(QPromise<RecoverySimulationOutcome> &promise,
                           const RecoverySimulationInput &input);
QFuture<RecoverySimulationOutcome> startRecoverySimulation(const RecoverySimulationInput &input);

} // namespace pbx::ui
