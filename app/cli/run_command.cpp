// SPDX-License-Identifier: MIT
#include "app/cli/run_command.h"

#include "app/cli/options.h"
#include "core/io/request_json.h"
#include "core/io/text_file.h"
#include "core/io/transcript_json.h"
#include "core/session/session.h"
#include "resources/dataset_catalog.h"

#include <cstdio>
#include <sstream>

namespace pbx::cli {

namespace {

constexpr const char *kUsage =
    "Usage: pbx-cli run --queries FILE --out TRANSCRIPT [--dataset NAME-or-CSV-PATH]\n"
    "                   [--epsilon E] [--delta D]\n"
    "                   [--filter basic|zcdp|expost|unified|brownian-zcdp]\n"
    "                   [--expost-share F] [--neighbours add-remove|replace] [--seed N]\n"
    "\n"
    "Answers each request of FILE (JSON Lines, one request per line) in one session and writes\n"
    "the session transcript (JSON) to TRANSCRIPT.\n"
    "  --dataset     embedded dataset name or a CSV file (default: cps1988)\n"
    "  --epsilon     session ε (default 1)\n"
    "  --delta       session δ (default 1e-6)\n"
    "  --filter      basic: pure ε (Laplace; Laplace noise reduction)\n"
    "                zcdp: zCDP (Gaussian; Gaussian doubling) — the default\n"
    "                expost: ex-post filter (Laplace noise reduction; Brownian with a boundary)\n"
    "                unified: zCDP + ex-post sub-filters (Gaussian; Brownian/Laplace NR ex-post)\n"
    "                brownian-zcdp: zCDP filter with Brownian noise reduction at ρ = Δ²/(2T)\n"
    "  --expost-share  unified filter: the ex-post side's share of ε (default 0.25; δ is halved)\n"
    "Each request may name its \"mechanism\": brownian, laplace-nr, doubling-laplace,\n"
    "doubling-gaussian, laplace or gaussian (default: the filter's noise reduction, or a single\n"
    "calibrated release for absolute count and sum targets).\n"
    "  --neighbours  add-remove (default) or replace\n"
    "  --seed        reproducible noise, for teaching and tests only (not for real releases)\n"
    "Every line is checked before anything is spent: a bad line stops the run with nothing\n"
    "spent and no transcript written (exit status 1).\n";

std::string formatNumber(double x)
{
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.6g", x);
    return buffer;
}

struct Prepared
{
    std::shared_ptr<const data::Table> table;
    session::SessionSettings settings;
    std::vector<session::QueryRequest> requests;
    std::string outPath;
};

Result<Prepared> prepare(const Options &o)
{
    Prepared p;
    auto queries = o.value("--queries");
    auto outPath = o.value("--out");
    if (!queries || !outPath)
        return makeError(ErrorCode::InvalidArgument, "--queries and --out are required (see --help)");
    p.outPath = *outPath;
    auto epsilon = o.number("--epsilon");
    auto delta = o.number("--delta");
    auto seed = o.unsignedInteger("--seed");
    if (!epsilon)
        return epsilon.error();
    if (!delta)
        return delta.error();
    if (!seed)
        return seed.error();
    p.settings.epsilon = epsilon->value_or(1.0);
    p.settings.delta = delta->value_or(1e-6);
    p.settings.seed = *seed;
    if (auto text = o.value("--filter")) {
        auto kind = filters::parseFilterKind(*text);
        if (!kind)
            return makeError(kind.error().code, "--filter: " + kind.error().message);
        p.settings.filter = *kind;
    }
    auto share = o.number("--expost-share");
    if (!share)
        return share.error();
    if (*share)
        p.settings.split.expostEpsilonShare = **share;
    if (auto text = o.value("--neighbours")) {
        auto n = data::parseNeighbours(*text);
        if (!n)
            return makeError(n.error().code, "--neighbours: " + n.error().message);
        p.settings.neighbours = *n;
    }
    if (auto valid = p.settings.validate(); !valid)
        return valid.error();

    auto table = resources::loadDataset(o.value("--dataset").value_or("cps1988"));
    if (!table)
        return makeError(table.error().code, "--dataset: " + table.error().message);
    p.table = std::make_shared<const data::Table>(std::move(table.value()));

    auto text = io::readTextFile(*queries);
    if (!text)
        return makeError(text.error().code, "--queries: " + text.error().message);
    std::istringstream lines(*text);
    std::string line;
    for (std::size_t number = 1; std::getline(lines, line); ++number) {
        if (line.find_first_not_of(" \t\r") == std::string::npos)
            continue; // blank lines separate nothing and mean nothing
        auto request = io::readRequestLine(line, number);
        if (!request)
            return makeError(request.error().code, *queries + ": " + request.error().message);
        if (auto compiled = data::CompiledQuery::compile(request->query, *p.table); !compiled)
            return makeError(compiled.error().code,
                             *queries + ": line " + std::to_string(number) + ": " + compiled.error().message);
        p.requests.push_back(std::move(request.value()));
    }
    return p;
}

std::string costUnit(filters::ChargeKind kind)
{
    switch (kind) {
    case filters::ChargeKind::PureEpsilon: return "ε";
    case filters::ChargeKind::Rho: return "ρ";
    case filters::ChargeKind::ExPost: return "ex-post ε";
    }
    return "ε";
}

void printEvent(const session::LedgerEvent &e, std::ostream &out)
{
    out << e.request.id << ": " << session::eventStatusName(e.status);
    if (e.status == session::EventStatus::Released) {
        out << ' ' << formatNumber(e.answer) << " ± " << formatNumber(e.errorBound) << " ("
            << e.mechanism << ", " << e.attempts.size() << (e.attempts.size() == 1 ? " attempt" : " attempts")
            << ", " << costUnit(e.costKind) << " = " << formatNumber(e.cost);
        if (e.costDelta > 0.0)
            out << ", δ = " << formatNumber(e.costDelta);
        out << ')';
        if (!e.targetMet)
            out << " — " << e.reason;
    } else {
        out << " — " << e.reason;
    }
    out << '\n';
}

} // namespace

int runRunCommand(const std::vector<std::string> &args, std::ostream &out, std::ostream &err)
{
    auto options = Options::parse(args, {"--queries", "--out", "--dataset", "--epsilon", "--delta",
                                         "--filter", "--neighbours", "--seed", "--expost-share"});
    if (!options) {
        err << "pbx-cli run: " << options.error().message << '\n';
        return 2;
    }
    if (options->has("--help")) {
        out << kUsage;
        return 0;
    }
    auto prepared = prepare(*options);
    if (!prepared) {
        err << "pbx-cli run: " << prepared.error().message << '\n';
        return 1;
    }
    auto created = session::Session::create(prepared->table, prepared->settings);
    if (!created) {
        err << "pbx-cli run: " << created.error().message << '\n';
        return 1;
    }
    session::Session &s = **created;
    for (auto &request : prepared->requests) {
        auto event = s.ask(std::move(request));
        if (!event) { // cannot happen after prepare(); kept so a future check cannot lose events
            err << "pbx-cli run: " << event.error().message << '\n';
            break;
        }
        printEvent(*event, out);
    }
    const auto &f = s.filter();
    for (const auto &system : f.systems())
        out << "spent " << system.name << ": " << system.unitSymbol << " = " << formatNumber(system.spent) << " of "
            << formatNumber(system.budget) << '\n';
    out << "in all (ε, δ) = (" << formatNumber(f.epsilonSpent()) << ", " << formatNumber(f.deltaSpent()) << ") of ("
        << formatNumber(f.epsilonBudget()) << ", " << formatNumber(f.deltaBudget()) << ")\n";
    if (auto written = io::writeTextFileAtomically(prepared->outPath, io::writeTranscriptJson(s)); !written) {
        err << "pbx-cli run: " << written.error().message << '\n';
        return 1;
    }
    return 0;
}

} // namespace pbx::cli
