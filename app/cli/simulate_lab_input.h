// SPDX-License-Identifier: MIT
// What every `pbx-cli simulate <lab>` command reads first: --config LAB.json, --out FILE.json,
// --seed N and --help, then the lab document parsed as JSON. One reader, so every lab answers
// usage and input errors alike (exit 2 for usage, 1 for bad input, one line naming the cause).
#pragma once

#include "app/cli/options.h"
#include "core/data/table.h"
#include "core/io/json_fields.h"
#include "core/util/result.h"

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace pbx::cli {

struct LabInput
{
    Options options;        ///< for the lab's own flags (e.g. --plan-only)
    io::json::Json config;  ///< the parsed lab document
    std::string outPath;    ///< --out
    std::uint64_t seed = 1; ///< --seed, default 1
};

/// Parses the arguments of `pbx-cli simulate <lab>` (valued: --config, --out, --seed; flags:
/// --help and `extraFlags`) and reads --config (at most 16 MiB) as JSON. Returns the exit code
/// when the command ends here: 0 after printing `usage` for --help; 2 for a usage error (unknown
/// option, --config or --out missing, --out naming --config); 1 for an unreadable file, a bad --seed, or a
/// document that is not JSON (then prefixed by `invalidConfigCode`, e.g. "INVALID_CONFIG").
std::variant<int, LabInput> readLabInput(const std::vector<std::string> &args, const std::string &lab,
                                         const char *usage, const std::set<std::string> &extraFlags,
                                         std::string_view invalidConfigCode, std::ostream &out,
                                         std::ostream &err);

/// InvalidArgument when `outPath` names one of `inputs` or, for an input ending in .csv or .csv.gz,
/// its metadata sidecar ("<path>.json", or the suffix replaced by .json), existing or not: --out is replaced
/// at the end and must never be a file the command reads.
Result<void> outNamesAnInput(const std::string &outPath, const std::vector<std::string> &inputs);

/// What every lab command does once its config is parsed: checks that `outPath` names no input
/// (outNamesAnInput over `dataset`) and creates its temporary file before anything runs (so a
/// folder that is missing or not writable fails at once); loads `dataset` (the embedded catalogue)
/// when `needsTable`, calls `run` with it (nullptr when not loaded), and writes the resulting
/// document to `outPath` atomically (2-space JSON and a newline). Returns the document, or nullopt
/// after printing one line "pbx-cli simulate: …" to `err` when loading, the lab or writing fails
/// (the command then exits 1; nothing is written on failure).
std::optional<io::json::Json>
runLabAndWrite(const std::string &dataset, bool needsTable, const std::string &outPath,
               const std::function<Result<io::json::Json>(const data::Table *)> &run, std::ostream &err);

} // namespace pbx::cli
