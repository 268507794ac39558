// SPDX-License-Identifier: MIT
#include "app/cli/run_command.h"

#include "app/cli/options.h"
#include "core/session/planned_cap.h"
#include "core/io/request_json.h"
#include "core/io/session_journal.h"
#include "core/session/cost_audit.h"
#include "core/io/text_file.h"
#include "core/io/transcript_json.h"
#include "core/session/session.h"
#include "resources/dataset_catalog.h"

#include <cstdio>
#include <filesystem>
#include <optional>
#include <sstream>

namespace pbx::cli {

namespace {

constexpr const char *kUsage =
    "Usage: pbx-cli run --queries FILE --out TRANSCRIPT [--dataset NAME-or-CSV-PATH]\n"
    "                   [--epsilon E] [--delta D]\n"
    "                   [--filter basic|zcdp|expost|unified|brownian-zcdp]\n"
    "                   [--expost-share F] [--neighbours add-remove|replace] [--seed N]\n"
    "                   [--journal FILE] [--plan-queries N]\n"
    "\n"
    "Answers each request of FILE (JSON Lines, one request per line) in one session and writes\n"
    "the session transcript (JSON) to TRANSCRIPT.\n"
    "  --dataset     embedded dataset name or a CSV file (default: cps1988)\n"
    "  --epsilon     session ε (default 1)\n"
    "  --delta       session δ (default 1e-6)\n"
    "  --filter      basic: pure ε (Laplace; Laplace noise reduction)\n"
    "                zcdp: zCDP (Gaussian; Gaussian doubling) — the default\n"
    "                expost: ex-post filter (Laplace noise reduction; Brownian with a boundary)\n"
    "                unified: zCDP + ex-post sub-filters (Gaussian; Brownian NR on the side that\n"
    "                reaches less noise, recorded per event; Laplace NR ex-post)\n"
    "                brownian-zcdp: zCDP filter with Brownian noise reduction at ρ = Δ²/(2T)\n"
    "  --expost-share  unified filter: the ex-post side's share of ε (default 0.05; δ: 5 %)\n"
    "Each request may name its \"mechanism\": brownian, laplace-nr, doubling-laplace,\n"
    "doubling-gaussian, laplace or gaussian (default: the filter's noise reduction, or a single\n"
    "calibrated release for absolute count and sum targets).\n"
    "  --neighbours  add-remove (default) or replace\n"
    "  --seed        reproducible noise, for teaching and tests only (not for real releases)\n"
    "  --journal     append-only journal: each answer is written and fsync'd before it is\n"
    "                printed; rerunning with the same journal resumes where it stopped\n"
    "                (the journal's settings and dataset are used) instead of spending again\n"
    "  --plan-queries  per-query cap: a request without \"max_cost\" that uses doubling or noise\n"
    "                reduction may spend at most the remaining budget (in its unit) divided by N;\n"
    "                without this option N is the number of requests still to come in FILE,\n"
    "                this one included (a public number). The cap is recorded as max_cost.\n"
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
    std::optional<io::RecoveredJournal> recovered; ///< set when resuming a journal
};

bool sameSettings(const session::SessionSettings &a, const session::SessionSettings &b)
{
    return a.epsilon == b.epsilon && a.delta == b.delta && a.filter == b.filter && a.neighbours == b.neighbours
           && a.seed == b.seed && a.split.expostEpsilonShare == b.split.expostEpsilonShare
           && a.split.expostDeltaShare == b.split.expostDeltaShare;
}

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

    std::string datasetName = o.value("--dataset").value_or("cps1988");
    if (auto journalPath = o.value("--journal"); journalPath && std::filesystem::exists(*journalPath)) {
        auto recovered = io::readSessionJournal(*journalPath);
        if (!recovered)
            return makeError(recovered.error().code, "--journal: " + recovered.error().message);
        // Resuming: the journal's own settings and dataset rule; options that contradict them are refused.
        const auto &journaled = recovered->header;
        for (const char *name : {"--epsilon", "--delta", "--filter", "--neighbours", "--seed", "--expost-share"})
            if (o.has(name) && !sameSettings(p.settings, journaled.settings))
                return makeError(ErrorCode::InvalidArgument,
                                 "--journal: the journal was started with other settings; drop " + std::string(name)
                                     + " to resume it");
        if (o.has("--dataset") && datasetName != journaled.datasetName)
            return makeError(ErrorCode::InvalidArgument, "--journal: the journal was started on dataset '"
                                                             + journaled.datasetName + "'");
        p.settings = journaled.settings;
        datasetName = journaled.datasetName;
        p.recovered = std::move(recovered.value());
    }

    auto table = resources::loadDataset(datasetName);
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
                                         "--filter", "--neighbours", "--seed", "--expost-share", "--journal",
                                         "--plan-queries"});
    if (!options) {
        err << "pbx-cli run: " << options.error().message << '\n';
        return 2;
    }
    if (options->has("--help")) {
        out << kUsage;
        return 0;
    }
    auto planQueries = options->unsignedInteger("--plan-queries");
    if (!planQueries) {
        err << "pbx-cli run: " << planQueries.error().message << '\n';
        return 1;
    }
    if (*planQueries && **planQueries == 0) {
        err << "pbx-cli run: --plan-queries must be at least 1\n";
        return 1;
    }
    auto prepared = prepare(*options);
    if (!prepared) {
        err << "pbx-cli run: " << prepared.error().message << '\n';
        return 1;
    }
    // A resumed journal is audited and replayed; a new one starts with the session.
    std::unique_ptr<session::Session> owned;
    std::optional<io::JournalWriter> journal;
    std::size_t alreadyAnswered = 0;
    if (prepared->recovered) {
        const auto &recovered = *prepared->recovered;
        auto restored = session::auditLedger(prepared->table, prepared->settings, recovered.events);
        if (!restored) {
            err << "pbx-cli run: --journal: " << restored.error().message << '\n';
            return 1;
        }
        if (recovered.contents.tornTail)
            err << "pbx-cli run: note: " << recovered.contents.tornMessage << '\n';
        alreadyAnswered = recovered.events.size();
        if (alreadyAnswered > prepared->requests.size()) {
            err << "pbx-cli run: --journal: it holds " << alreadyAnswered << " answers but the file has only "
                << prepared->requests.size() << " requests\n";
            return 1;
        }
        for (std::size_t i = 0; i < alreadyAnswered; ++i)
            if (!prepared->requests[i].id.empty() && prepared->requests[i].id != recovered.events[i].request.id) {
                err << "pbx-cli run: --journal: request " << i + 1 << " is '" << prepared->requests[i].id
                    << "' but the journal answered '" << recovered.events[i].request.id << "': not the same run\n";
                return 1;
            }
        auto resumed = io::JournalWriter::resume(*options->value("--journal"), recovered.contents);
        if (!resumed) {
            err << "pbx-cli run: --journal: " << resumed.error().message << '\n';
            return 1;
        }
        journal.emplace(std::move(resumed.value()));
        owned = std::move(restored.value());
    } else {
        auto created = session::Session::create(prepared->table, prepared->settings);
        if (!created) {
            err << "pbx-cli run: " << created.error().message << '\n';
            return 1;
        }
        owned = std::move(created.value());
        if (auto path = options->value("--journal")) {
            auto started = io::createSessionJournal(*path, *owned);
            if (!started) {
                err << "pbx-cli run: --journal: " << started.error().message << '\n';
                return 1;
            }
            journal.emplace(std::move(started.value()));
        }
    }
    session::Session &s = *owned;
    if (alreadyAnswered > 0)
        out << "resuming: " << alreadyAnswered << " answers already in the journal\n";
    for (std::size_t i = alreadyAnswered; i < prepared->requests.size(); ++i) {
        // Workload-aware cap (issue 9): spread what remains over the requests still to come.
        const std::size_t toCome = *planQueries ? static_cast<std::size_t>(**planQueries)
                                                : prepared->requests.size() - i;
        auto event = s.ask(session::withPlannedCap(std::move(prepared->requests[i]), s.filter(), toCome));
        if (!event) { // cannot happen after prepare(); kept so a future check cannot lose events
            err << "pbx-cli run: " << event.error().message << '\n';
            break;
        }
        // The journal line is durable before the answer is printed: a crash can lose only an
        // answer nobody saw.
        if (journal) {
            if (auto logged = io::appendSessionEvent(*journal, *event, s.filter()); !logged) {
                err << "pbx-cli run: --journal: " << logged.error().message << '\n';
                return 1;
            }
        }
        printEvent(*event, out);
        out.flush();
    }
    const auto &f = s.filter();
    for (const auto &system : f.systems())
        out << "spent " << system.name << ": " << system.unitSymbol << " = " << formatNumber(system.spent) << " of "
            << formatNumber(system.budget) << '\n';
    // With adaptively chosen costs, ε(spent) is a gauge, not a guarantee: the guarantee is the
    // filter's budget (Whitehouse et al. 2023; Rogers et al. 2023).
    out << "the session is (" << formatNumber(f.epsilonBudget()) << ", " << formatNumber(f.deltaBudget())
        << ")-DP by the filter; what is spent so far corresponds to (ε, δ) ≈ (" << formatNumber(f.epsilonSpent())
        << ", " << formatNumber(f.deltaSpent()) << ") (a gauge, not a guarantee)\n";
    if (auto written = io::writeTextFileAtomically(prepared->outPath, io::writeTranscriptJson(s)); !written) {
        err << "pbx-cli run: " << written.error().message << '\n';
        return 1;
    }
    return 0;
}

} // namespace pbx::cli
