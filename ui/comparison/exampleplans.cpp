// SPDX-License-Identifier: MIT
#include "ui/comparison/exampleplans.h"

#include <QCoreApplication>

namespace pbx::ui {

using accounting::MechanismKind;
using accounting::PrivacyEvent;

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("pbx::ui::ExamplePlans", text);
}

PrivacyEvent laplace(double epsilon, std::int64_t count, double sensitivity = 1.0)
{
    PrivacyEvent e;
    e.mechanism = MechanismKind::Laplace;
    e.sensitivity = sensitivity;
    e.scale = sensitivity / epsilon;
    e.count = count;
    return e;
}

PrivacyEvent gaussian(double sigma, std::int64_t count, double sensitivity = 1.0)
{
    PrivacyEvent e;
    e.mechanism = MechanismKind::Gaussian;
    e.sigma = sigma;
    e.sensitivity = sensitivity;
    e.count = count;
    return e;
}

accounting::Ledger ledger(std::vector<PrivacyEvent> events)
{
    accounting::Ledger l;
    l.neighbours = accounting::Neighbouring::AddRemove;
    l.events = std::move(events);
    return l;
}

} // namespace

QList<ExamplePlan> examplePlans()
{
    PrivacyEvent sgd = gaussian(1.1, 1000);
    sgd.sampling = {accounting::SamplingKind::Poisson, 0.01};

    PrivacyEvent rr;
    rr.mechanism = MechanismKind::RandomizedResponse;
    rr.epsilon = 0.5;
    rr.count = 5;
    PrivacyEvent sampledCounts = laplace(0.5, 40);
    sampledCounts.sampling = {accounting::SamplingKind::Poisson, 0.05};

    return {
        {tr("DP-SGD: 1000 steps, q = 0.01, σ = 1.1"),
         tr("Poisson-subsampled Gaussian gradient steps. RDP and the PLD account the subsampled "
            "Gaussian itself; basic, advanced and optimal only see each step as (ε, δ) at the "
            "per-step δ, amplified, and pay for every step's δ."),
         ledger({sgd})},
        {tr("20 Laplace counts, ε = 0.1 each"),
         tr("A short ledger of pure-DP queries: advanced composition does not beat basic yet; "
            "optimal, RDP and the PLD do."),
         ledger({laplace(0.1, 20)})},
        {tr("1000 Laplace counts, ε = 0.01 each"),
         tr("A long ledger of small steps: basic composition grows like k, the others like √k."),
         ledger({laplace(0.01, 1000)})},
        {tr("50 Gaussian queries, σ = 10"),
         tr("Gaussian noise has no pure ε: basic, advanced and optimal apply only to each step "
            "stated as (ε, δ) at the per-step δ, and lose much; zCDP, RDP and the PLD nearly "
            "agree."),
         ledger({gaussian(10.0, 50)})},
        {tr("Mixed: Laplace, subsampled Laplace, Gaussian, randomized response"),
         tr("Heterogeneous steps: each strategy applies only as far as every step has the "
            "guarantee it needs."),
         ledger({laplace(0.1, 10), sampledCounts, gaussian(8.0, 5, 1.0), rr})},
    };
}

} // namespace pbx::ui
