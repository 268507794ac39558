// SPDX-License-Identifier: MIT
// Output-DP requests in a session: their parameters, their partition (fixed before any noise is
// drawn), and the checks run before anything is spent (Hartmann, Bindschaedler, Bentkamp & West,
// PoPETs 2023, Algorithm 1 and Lemma 8; docs/output-dp.md §2, §3).
#pragma once

#include "core/data/table.h"
#include "core/filters/privacy_filter.h"
#include "core/odp/sparse_vector.h"
#include "core/session/session.h"

namespace pbx::session {

/// The sparse-vector parameters of a request: ε₁, ε₂ as given, or Lyu et al.'s split of
/// ε·svtShare; c; Δ. Errors (InvalidArgument, naming the field): ε not finite > 0; svt_share
/// outside (0, 1); c outside [1, 10⁶]; Δ not a whole number in [1, 2⁴⁰] (Δ < 1 would under-report
/// the loss of a count); only one of ε₁, ε₂; ε ≤ ε₁ + ε₂ (nothing left for the releases).
Result<odp::SvtParameters> svtParametersFor(const SvtRequestSpec &spec);

/// The (E, 0)-ODP guarantee of the whole request, cell id j = number of ⊤ in the released answers
/// (rule R3): E(0) = ε₁ (nothing is released), and for 1 ≤ j ≤ c, E(j) = ε₁ + jε₂/c (Lemma 8)
/// plus the ε of the j releases at scale b_ODP(j) = jΔ/(ε − E(j)), all rounded up. The worst case
/// is ε up to rounding. By ODP composition inside one mechanism (Theorem 7 applied to the SVT
/// followed by the release chosen from its output). Errors: as svtParametersFor().
Result<odp::OdpGuarantee> svtRequestGuarantee(const SvtRequestSpec &spec);

/// The partition of any output-DP request, fixed from its parameters (and, for recover, the
/// public split sizes of `table`) before any noise is drawn: svtRequestGuarantee, or those of
/// session/odp_mechanisms.h. Errors: InvalidArgument or NotFound naming the field.
Result<odp::OdpGuarantee> odpRequestGuarantee(const OdpRequestSpec &spec, const data::Table &table);

/// Checks an ODP request before anything is spent: the filter is odp (Unsupported otherwise,
/// naming why: the other filters cannot settle a realised cell), the parameters are valid and
/// the column fits the mechanism (counts for svt; a numeric column with declared bounds for
/// ptr-iqr and early-stop; label and features for recover). The neighbouring relation is not
/// checked here (see the overload below). Errors: Unsupported; InvalidArgument or NotFound
/// naming the field.
Result<void> checkOdpRequest(const QueryRequest &request, const data::Table &table,
                             filters::FilterKind filter);
/// As above, and ptr-iqr, early-stop and recover also need the replace-one relation (Unsupported
/// otherwise: their sensitivities need n public).
Result<void> checkOdpRequest(const QueryRequest &request, const data::Table &table,
                             const SessionSettings &settings);

/// Recomputes an ODP event's cost from its record (pbx-cli verify): the partition from the
/// request's parameters, the cell from the released output (svt: the number of ⊤ and the release
/// scale b_ODP(j); ptr-iqr: the case; early-stop: the number of iterates and the stopping rule
/// replayed on them; recover: ⊥ or the model, against ẽ ≤ τ), and E(cell) (or E* when settled at
/// the worst case). Errors: Parse naming the event and what differs.
Result<void> auditOdpEvent(const LedgerEvent &event, const data::Table &table,
                           const SessionSettings &settings);

/// Pays an ODP event again into `filter` (Session::restore): reserve its recorded partition, then
/// settle in its recorded cell, or at the worst case when it has none. Errors (Parse): the filter
/// is not odp, the reservation does not fit, or the settled cost differs from the recorded one.
Result<void> replayOdpEvent(filters::PrivacyFilter &filter, const LedgerEvent &event);

} // namespace pbx::session
