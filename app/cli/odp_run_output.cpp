// SPDX-License-Identifier: MIT
#include "app/cli/odp_run_output.h"

#include "core/math/directed_rounding.h"

#include <cstdio>
#include <string>

namespace pbx::cli {

namespace {
std::string formatNumber(double x)
{
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.6g", x);
    return buffer;
}
} // namespace

void printOdpEvent(const session::LedgerEvent &e, std::ostream &out)
{
    out << e.request.id << ": " << session::eventStatusName(e.status);
    if (e.status != session::EventStatus::Released || !e.odpRecord) {
        out << " — " << e.reason << '\n';
        return;
    }
    const auto &r = *e.odpRecord;
    out << ' ' << e.mechanism;
    if (r.cell)
        out << ", j = " << *r.cell
            << " of c = " << (r.guarantee.cells.empty() ? 0 : r.guarantee.cells.back().id);
    out << " (reserved ε = " << formatNumber(r.reservedEpsilon)
        << ", settled ε = " << formatNumber(r.settledEpsilon) << ", "
        << formatNumber(math::subtractRoundDown(r.reservedEpsilon, r.settledEpsilon)) << " returned";
    if (r.guarantee.delta > 0.0)
        out << ", δ = " << formatNumber(r.guarantee.delta);
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
    out << ')';
    if (!r.cell)
        out << " — " << e.reason;
    out << '\n';
}

} // namespace pbx::cli
