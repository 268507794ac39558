// SPDX-License-Identifier: MIT
// What each fuzz target does with one input, shared by the libFuzzer executables (fuzz_*.cpp) and
// the regression test (tests/fuzzregression), so a crashing input is replayed through exactly the
// same calls in the normal build. Each check feeds the bytes to one parser, then checks the
// invariants that are cheap to check: a refusal carries a message, an accepted value is
// well-formed and survives what the program does next with it (evaluate, restore, write and read
// back). A broken invariant is reported in Outcome::violation rather than by aborting, so the
// test can name it; the fuzz targets abort on it (see run()).
#pragma once

#include "core/data/table.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>

namespace pbx::fuzz {

struct Outcome
{
    bool accepted = false; ///< the parser (the first one called) returned a value
    std::string error;     ///< otherwise its message, for the test to show
    std::string violation; ///< non-empty: a checked invariant was broken, i.e. a bug

    /// Records a failure of `what`; an empty message is itself a violation.
    void refuse(std::string_view what, const std::string &message);
    /// Records a broken invariant (the first one is kept).
    void violate(const std::string &what);
};

/// The fixture table: the cps1988 schema (wage, education, experience, ethnicity, smsa, region,
/// parttime; same declared bounds and categories) over 64 synthetic rows, so requests, predicates
/// and transcripts written against the embedded dataset apply to it.
std::shared_ptr<const data::Table> fixtureTable();

Outcome checkPredicate(std::string_view bytes);  ///< Predicate::compile + evaluate
Outcome checkCsv(std::string_view bytes);        ///< readCsv, plain and with fixed metadata
Outcome checkGzip(std::string_view bytes);       ///< gunzip, with a large and a small limit
Outcome checkMetadata(std::string_view bytes);   ///< parseDatasetMetadata, round trip, apply
Outcome checkRequest(std::string_view bytes);    ///< readRequestLine, round trip, Session::ask
Outcome checkTranscript(std::string_view bytes); ///< readTranscriptJson, auditLedger, restore
Outcome checkJournal(std::string_view bytes);    ///< readJournalText / readSessionJournalText
Outcome checkLedger(std::string_view bytes);     ///< parseLedgerJson + evaluateLedger (small)

/// Target name ("predicate", "csv", …, the suffix of fuzz_<name>) → check; nullptr if unknown.
using Check = Outcome (*)(std::string_view);
Check checkByName(std::string_view name);

/// The body of every LLVMFuzzerTestOneInput: a broken invariant aborts, which libFuzzer reports
/// as a crash and saves the input.
inline int run(Check check, const std::uint8_t *data, std::size_t size)
{
    const Outcome outcome = check(std::string_view(reinterpret_cast<const char *>(data), size));
    if (!outcome.violation.empty()) {
        std::fprintf(stderr, "pbx fuzz: invariant broken: %s\n", outcome.violation.c_str());
        std::abort();
    }
    return 0;
}

} // namespace pbx::fuzz
