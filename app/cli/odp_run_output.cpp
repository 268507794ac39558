// SPDX-License-Identifier: MIT
#include "app/cli/odp_run_output.h"

#include "core/math/directed_rounding.h"
#include "core/report/event_description.h"
#include "core/session/growing/growing_release.h"
#include "core/util/number_format.h"
#include "core/util/plural.h"

#include <cstdio>
#include <string>

namespace pbx::cli {

namespace {
/// " v0, v1, …" (each formatNumber), as the stream lines list their values.
std::string values(const std::vector<double> &xs)
{
    std::string text;
    for (std::size_t j = 0; j < xs.size(); ++j)
        text += (j ? ", " : " ") + formatSignificant(xs[j]);
    return text;
}
} // namespace

void printOdpEvent(const session::LedgerEvent &e, std::ostream &out)
{
    out << e.request.id << ": " << session::eventStatusName(e.status);
    if (e.status != session::EventStatus::Released || !e.odpRecord()) {
        out << " — " << e.reason << '\n';
        return;
    }
    const auto &r = *e.odpRecord();
    out << ' ' << e.mechanismName();
    if (r.cell && e.mechanism == session::EventMechanism::Svt)
        out << ", j = " << *r.cell
            << " of c = " << (r.guarantee.cells.empty() ? 0 : r.guarantee.cells.back().id);
    else if (r.cell)
        out << ", cell "
            << (r.guarantee.cell(*r.cell) ? r.guarantee.cell(*r.cell)->label : std::to_string(*r.cell));
    out << " (reserved ε = " << formatSignificant(r.reservedEpsilon)
        << ", settled ε = " << formatSignificant(r.settledEpsilon) << ", "
        << formatSignificant(math::subtractRoundDown(r.reservedEpsilon, r.settledEpsilon)) << " returned";
    if (r.guarantee.delta > 0.0)
        out << ", δ = " << formatSignificant(r.guarantee.delta);
    if (!r.answers.empty()) {
        out << "; answers ";
        for (bool a : r.answers)
            out << (a ? "⊤" : "⊥");
    }
    if (!r.releases.empty()) {
        out << "; released";
        for (std::size_t k = 0; k < r.releases.size(); ++k)
            out << (k ? ", " : " ") << r.releases[k].label << " = " << r.releases[k].value;
    }
    if (r.ptrIqr) {
        out << "; IQR " << (r.ptrIqr->iqr ? formatSignificant(*r.ptrIqr->iqr) : std::string("⊥"));
        if (r.ptrIqr->median)
            out << ", median " << formatSignificant(*r.ptrIqr->median)
                << " (ε = " << formatSignificant(r.ptrIqr->medianEpsilon) << ')';
    }
    if (r.earlyStop)
        out << "; " << r.earlyStop->iterates.size() << " iterates, estimate "
            << formatSignificant(r.earlyStop->estimate);
    if (r.recovery) {
        out << "; noisy test error " << formatSignificant(r.recovery->noisyError);
        if (r.recovery->released) {
            out << ", θ =";
            for (double t : r.recovery->theta)
                out << ' ' << formatSignificant(t);
        }
    }
    out << ')';
    if (!r.cell)
        out << " — " << e.reason;
    out << '\n';
}

namespace {

/// ERMG (θ per release) and SmallDBG (the synthetic database and its answers per epoch).
void printModelStream(const session::LedgerEvent &e, std::ostream &out)
{
    const auto &r = *e.growingRecord();
    const bool ermg = e.request.growing()->algorithm == session::GrowingAlgorithm::Ermg;
    out << ' ' << e.mechanismName() << ", " << r.epochs.size() << " of "
        << (ermg ? countNoun(r.plannedEpochs, "release", "releases")
                 : countNoun(r.plannedEpochs, "epoch", "epochs"))
        << ", " << filters::chargeUnitSymbol(e.costKind) << " = " << formatSignificant(e.cost)
        << " (series ≤ " << formatSignificant(r.seriesTotal) << ')';
    if (!e.reason.empty())
        out << " — " << e.reason;
    out << '\n';
    for (const report::RunLine &x : report::streamRunLines(e).first) {
        out << "  " << x.label;
        if (ermg) {
            out << "; θ =" << values(x.values) << " (each coordinate within " << formatSignificant(x.bound)
                << " of the fit w.p. ≥ 1 − " << formatSignificant(x.beta) << ")\n";
        } else {
            out << "; " << x.database << "; answers" << values(x.values) << " (bound "
                << formatSignificant(x.bound) << ")\n";
        }
    }
}

/// A PMWG stream: its rounds, hard answers and answers, then one line per round.
void printPmwgEvent(const session::LedgerEvent &e, std::ostream &out)
{
    out << e.request.id << ": " << session::eventStatusName(e.status);
    const auto &p = *e.growingRecord()->pmwg;
    if (p.rounds.empty()) {
        out << " — " << e.reason << '\n';
        return;
    }
    std::size_t answers = 0;
    for (const auto &c : p.checkpoints)
        answers += c.answers.size();
    out << " pmwg, " << p.rounds.size() << (p.rounds.size() == 1 ? " round, " : " rounds, ") << p.hard.size()
        << " hard of " << answers << (answers == 1 ? " answer at " : " answers at ") << p.checkpoints.size()
        << " of " << e.growingRecord()->plannedEpochs << " checkpoints, "
        << filters::chargeUnitSymbol(e.costKind) << " = " << formatSignificant(e.cost) << " (worst case "
        << formatSignificant(p.worstCase) << ", σ_n = " << formatSignificant(p.sigmaN)
        << ", N = " << p.universe << ')';
    if (!e.reason.empty())
        out << " — " << e.reason;
    out << '\n';
    for (std::size_t i = 0; i < p.rounds.size(); ++i) {
        out << "  " << session::growingEpochLabel(e, i);
        if (i < p.hard.size())
            out << "; answered " << formatSignificant(p.hard[i].answer) << " (scale "
                << formatSignificant(p.hard[i].scale) << ')';
        out << '\n';
    }
}

} // namespace

void printGrowingEvent(const session::LedgerEvent &e, std::ostream &out)
{
    if (e.growingRecord() && e.growingRecord()->pmwg) {
        printPmwgEvent(e, out);
        return;
    }
    out << e.request.id << ": " << session::eventStatusName(e.status);
    if (!e.growingRecord() || (e.growingRecord()->epochs.empty() && !e.growingRecord()->nsg)
        || (e.growingRecord()->nsg && e.growingRecord()->nsg->rounds.empty())) {
        out << " — " << e.reason << '\n';
        return;
    }
    const auto &r = *e.growingRecord();
    if (r.nsg) {
        out << " nsg, " << countNoun(r.nsg->rounds.size(), "round", "rounds") << ", "
            << countNoun(r.nsg->hard.size(), "⊤ answer", "⊤ answers") << " at " << r.nsg->checkpoints.size()
            << " of " << countNoun(r.plannedEpochs, "checkpoint", "checkpoints") << ", "
            << filters::chargeUnitSymbol(e.costKind) << " = " << formatSignificant(e.cost) << " (worst case "
            << formatSignificant(r.nsg->worstCase) << ", σ_n = " << formatSignificant(r.nsg->sigmaN) << ')';
        if (!e.reason.empty())
            out << " — " << e.reason;
        out << '\n';
        for (const report::RunLine &x : report::streamRunLines(e).first) {
            out << "  " << x.label;
            if (x.query)
                out << "; query " << *x.query << " answered " << formatSignificant(x.values.front())
                    << " (scale " << formatSignificant(x.scale) << ')';
            out << '\n';
        }
        return;
    }
    const auto algorithm
        = e.request.growing() ? e.request.growing()->algorithm : session::GrowingAlgorithm::BBScheduler;
    if (algorithm == session::GrowingAlgorithm::Ermg || algorithm == session::GrowingAlgorithm::SmallDb) {
        printModelStream(e, out);
        return;
    }
    const bool improver = algorithm == session::GrowingAlgorithm::BBImprover;
    out << ' ' << e.mechanismName() << ", " << r.epochs.size() << " of "
        << (improver ? countNoun(r.plannedEpochs, "run", "runs")
                     : countNoun(r.plannedEpochs, "epoch", "epochs"))
        << ", " << filters::chargeUnitSymbol(e.costKind) << " = " << formatSignificant(e.cost)
        << " (series ≤ " << formatSignificant(r.seriesTotal) << ')';
    if (!e.reason.empty())
        out << " — " << e.reason;
    out << '\n';
    for (const report::RunLine &x : report::streamRunLines(e).first)
        out << "  " << x.label << "; answers" << values(x.values) << " (scale " << formatSignificant(x.scale)
            << ", bound " << formatSignificant(x.bound) << ")\n";
}

} // namespace pbx::cli
