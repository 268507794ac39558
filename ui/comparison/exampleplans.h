// SPDX-License-Identifier: MIT
// Ready-made planned workloads for the comparison view, each chosen to show one effect.
#pragma once

#include "core/accounting/event.h"

#include <QList>
#include <QString>

namespace pbx::ui {

struct ExamplePlan
{
    QString name;        ///< "DP-SGD: 1000 steps, q = 0.01, σ = 1.1"
    QString description; ///< what it shows
    accounting::Ledger ledger;
};

/// DP-SGD; 20 Laplace counts; 1000 small Laplace counts; 50 Gaussian queries; a mixed workload.
QList<ExamplePlan> examplePlans();

} // namespace pbx::ui
