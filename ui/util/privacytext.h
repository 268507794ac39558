// SPDX-License-Identifier: MIT
// Words and units for filters, mechanisms and charges, shared by the query builder, the result
// card, the ledger and the noise-reduction view so each says the same thing the same way.
#pragma once

#include "core/filters/privacy_filter.h"
#include "core/session/cost_preview.h"
#include "core/session/ledger_event.h"

#include <QString>

namespace pbx::ui {

/// "ε", "ρ" or "ex-post ε": the unit a charge of `kind` is counted in.
QString chargeUnit(filters::ChargeKind kind);
/// "ε" or "ρ": the symbol alone (ex-post loss is an ε).
QString chargeSymbol(filters::ChargeKind kind);
/// "Brownian noise reduction", "Doubling · Gaussian", "Gaussian · one release", …
QString mechanismLabel(session::ReleaseMethod kind);
/// "Brownian NR", "Gaussian doubling", "one Gaussian release", … (compact, for closed combos).
QString mechanismShortLabel(session::ReleaseMethod kind);
/// "zCDP side" or "ex-post side" for the unified filter's systems; empty for other filters.
QString unifiedSideOf(filters::ChargeKind kind, filters::FilterKind filter);
/// The cost of an event in its own unit, e.g. "ρ = 0.00123", "ex-post ε = 0.118, δ = 6.1e-8".
QString eventCostText(const session::LedgerEvent &event, int significant = 4);
/// What a request will cost before it is asked (session/cost_preview.h): "costs ε = 0.0599 (6.0 %
/// of what remains)", "costs at most ρ = 0.00094 (10.0 % of what remains)", or "needs ε = 0.6, more
/// than the 0.2 that remains: it will be refused".
QString costPreviewText(const session::CostPreview &preview);

} // namespace pbx::ui
