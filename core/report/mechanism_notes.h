// SPDX-License-Identifier: MIT
// "How these numbers were made": one short explanation per mechanism and per filter, with the
// papers they follow, for the session report. Plain text (the report escapes it); the GUI's
// glossary (ui/help/glossary.cpp) defines the terms, these notes say what pbx did with them.
#pragma once

#include "core/filters/privacy_filter.h"

#include <string>
#include <string_view>

namespace pbx::report {

struct MethodNote
{
    std::string title;   ///< e.g. "Laplace mechanism"
    std::string text;    ///< a few sentences, plain text
    std::string sources; ///< papers (author, year, result) and docs/*.md
};

/// The note for a ledger event's mechanism name (session::LedgerEvent::mechanism: "laplace",
/// "gaussian", "doubling-laplace", "doubling-gaussian", "laplace-nr", "brownian", "svt",
/// "ptr-iqr", "early-stop", "recover", "histogram (…)", "workload (…)", "exponential-mechanism",
/// "post-processing", the growing streams "bbscheduler", "bbimprover", "nsg", "pmwg", "ermg",
/// "smalldb", and "bbscheduler:continuous", "bbimprover:continuous", "ermg:continuous" for streams
/// recorded before they drew exact noise). An unknown name gets a note saying only that it is
/// recorded as is.
MethodNote mechanismNote(std::string_view mechanism);

/// The note for the session's privacy filter (what "within budget" means and why it holds).
MethodNote filterNote(filters::FilterKind kind);

/// The note on the composition comparison (what each strategy's ε at δ means).
MethodNote comparisonNote();

} // namespace pbx::report
