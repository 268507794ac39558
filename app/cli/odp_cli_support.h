// SPDX-License-Identifier: MIT
// Shared plumbing of the `pbx-cli odp` subcommands: option parsing with the usual exit codes,
// number lists, the random source, and writing JSON or CSV to stdout or --out.
#pragma once

#include "app/cli/options.h"
#include "core/io/json_fields.h"
#include "core/mechanisms/random_bits.h"

#include <memory>
#include <optional>
#include <ostream>
#include <set>
#include <string>
#include <vector>

namespace pbx::cli::odpcli {

/// Thrown inside a subcommand to leave with an exit code and a one-line message.
struct Exit
{
    int code;
    std::string message;
};

/// Parses the subcommand's options (plus --out, --format, --help); usage errors exit 2.
Options parseOrExit(const std::vector<std::string> &args, std::set<std::string> valued,
                    std::set<std::string> flags = {});
/// A number option; `fallback` when absent; a malformed value exits 1.
double number(const Options &o, const std::string &name, double fallback);
/// A required number option; absent: exit 2.
double requiredNumber(const Options &o, const std::string &name);
std::int64_t integer(const Options &o, const std::string &name, std::int64_t fallback);
/// "1,2,3" → numbers; malformed: exit 1.
std::vector<double> numberList(const Options &o, const std::string &name, std::vector<double> fallback);
/// One of `choices`; otherwise exit 2.
std::string choice(const Options &o, const std::string &name, const std::string &fallback,
                   const std::vector<std::string> &choices);
/// --seed N: a reproducible stream (teaching); otherwise the OS CSPRNG.
std::unique_ptr<mechanisms::RandomBits> randomSource(const Options &o);
/// Writes `doc` (JSON) or `csv` (when --format csv and csv is non-empty) to --out or `out`.
void emit(const Options &o, const io::json::Json &doc, const std::string &csv, std::ostream &out);
/// Prints `usage` and returns true when --help was given.
bool printHelp(const Options &o, std::ostream &out, const char *usage);
/// x with 10 significant digits, for CSV cells.
std::string csvNumber(double x);
/// Leaves with exit 1 and the error's message when `r` failed.
template<typename R>
auto &&valueOrExit(R &&r, const std::string &context = {})
{
    if (!r)
        throw Exit{1, context.empty() ? r.error().message : context + ": " + r.error().message};
    return *std::forward<R>(r);
}
/// Leaves with exit 1 when a Result<void> failed.
inline void okOrExit(const Result<void> &r, const std::string &context = {})
{
    if (!r)
        throw Exit{1, context.empty() ? r.error().message : context + ": " + r.error().message};
}

} // namespace pbx::cli::odpcli

namespace pbx::cli::odpcli {
// The subcommands (args: the words after the subcommand's name). Each returns 0 or throws Exit.
int svt(const std::vector<std::string> &args, std::ostream &out);
int svtFigure(const std::vector<std::string> &args, std::ostream &out);
int iqr(const std::vector<std::string> &args, std::ostream &out);
int table1(const std::vector<std::string> &args, std::ostream &out);
int earlyStop(const std::vector<std::string> &args, std::ostream &out);
int thm15(const std::vector<std::string> &args, std::ostream &out);
int recover(const std::vector<std::string> &args, std::ostream &out);
} // namespace pbx::cli::odpcli
