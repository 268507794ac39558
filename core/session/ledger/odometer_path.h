// SPDX-License-Identifier: MIT
// The price of not committing to a budget, request by request, for an odometer session.
#pragma once

#include "core/session/ledger_event.h"

#include <vector>

namespace pbx::session {

/// For the events of an odometer session at δ (0 < δ < 1), in order: after each event, the ε a
/// ledger planned in advance would have cost for the same releases (OdometerFilter::
/// preplannedEpsilon: min(Σε_i, ρ + 2√(ρ ln(1/δ))), Bun & Steinke 2016, Prop. 1.3), every recorded
/// charge replayed attempt by attempt as Session::restore does. One value per event, rounded up;
/// empty for an invalid δ or a charge an odometer cannot account (an ex-post cost).
std::vector<double> preplannedEpsilonPath(const std::vector<LedgerEvent> &events, double delta);

} // namespace pbx::session
