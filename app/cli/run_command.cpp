// SPDX-License-Identifier: MIT
#include "app/cli/run_command.h"

#include "app/cli/odp_run_output.h"
#include "app/cli/options.h"
#include "app/cli/output_paths.h"
#include "core/filters/guarantee_text.h"
#include "core/io/recordable_text.h"
#include "core/io/request_json.h"
#include "core/io/session_file.h"
#include "core/io/session_journal.h"
#include "core/io/text_file.h"
#include "core/io/transcript_json.h"
#include "core/report/event_description.h"
#include "core/session/growing/growing_release.h"
#include "core/session/odp/odp_release.h"
#include "core/session/planned_cap.h"
#include "core/session/session.h"
#include "core/session/source_support.h"
#include "core/session/strategies/strategy_release.h"
#include "core/sources/source_descriptor.h"
#include "core/util/number_format.h"
#include "core/util/plural.h"
#include "core/util/try.h"
#include "resources/dataset_catalog.h"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <sstream>

namespace pbx::cli {

namespace {

constexpr const char *kUsage
    = "Usage: pbx-cli run --queries FILE --out TRANSCRIPT [--dataset NAME-or-CSV-PATH-or-DESCRIPTOR]\n"
      "                   [--metadata FILE]\n"
      "                   [--epsilon E] [--delta D]\n"
      "                   [--filter basic|zcdp|expost|unified|brownian-zcdp|odp|rdp|advanced|odometer]\n"
      "                   [--expost-share F] [--neighbours add-remove|replace] [--seed N]\n"
      "                   [--journal FILE] [--plan-queries N]\n"
      "\n"
      "Answers each request of FILE (JSON Lines, one request per line) in one session and writes\n"
      "the session transcript (JSON) to TRANSCRIPT.\n"
      "  --dataset     embedded dataset name or a CSV file (default: cps1988), or a database\n"
      "                table: sqlite:PATH?table=NAME or postgresql://USER@HOST:PORT/DB?table=NAME\n"
      "                (counts, sums, means and histograms of a categorical column are computed\n"
      "                in the database; other request kinds need an in-memory table)\n"
      "  --metadata    the dataset metadata file of a database table (required for one): its\n"
      "                bounds, categories and row count are declared there, never read from data\n"
      "  --epsilon     session ε (default 1)\n"
      "  --delta       session δ (default 1e-6)\n"
      "  --filter      basic: pure ε (Laplace; Laplace noise reduction)\n"
      "                zcdp: zCDP (Gaussian; Gaussian doubling) — the default\n"
      "                expost: ex-post filter (Laplace noise reduction; Brownian with a boundary)\n"
      "                unified: zCDP + ex-post sub-filters (Gaussian; Brownian NR on the side that\n"
      "                reaches less noise, recorded per event; Laplace NR ex-post)\n"
      "                brownian-zcdp: zCDP filter with Brownian noise reduction at ρ = Δ²/(2T)\n"
      "                odp: output-DP filter (Hartmann et al. 2023, Theorem 7): admitted by the worst case, debited the\n"
      "                released cell's cost; runs the output-DP lines \"mechanism\": \"svt\"\n"
      "                (column, threshold, c, epsilon, svt_share, sensitivity), \"ptr-iqr\"\n"
      "                (column, epsilon, delta_f, mode, order, width, median_epsilon,\n"
      "                spend_savings), \"early-stop\" (column, step_epsilon, stops, composition,\n"
      "                delta, delta_split, tolerance) and \"recover\" (label_column,\n"
      "                label_threshold, features, lambda, epsilon_model, epsilon_test, tau);\n"
      "                all but svt need --neighbours replace: their sensitivities\n"
      "                need the row count public\n"
      "                rdp: Rényi filter on 24 orders, δ/24 each (Feldman & Zrnic 2021; Lécuyer\n"
      "                2021): Laplace, Gaussian, doubling and Brownian noise reduction, each charged\n"
      "                its Rényi curve; admitted while some order has room\n"
      "                advanced: advanced composition for adaptive ε (Whitehouse et al. 2023):\n"
      "                Laplace and Laplace doubling; √(2 ln(1/δ)·Σε²) + Σε²/2 ≤ ε\n"
      "                odometer: no ε budget (--epsilon refused), only δ: every single release and\n"
      "                doubling step is answered and the running ε that holds whenever the session\n"
      "                stops is printed (a privacy odometer); doubling needs max_cost\n"
      "A line {\"type\": \"growing\", \"algorithm\": \"bbscheduler\" | \"bbimprover\" | \"nsg\",\n"
      "\"stream\": {...}, \"budget\": {...}, \"schedule\": {...}, \"black_box\": {\"kind\":\n"
      "\"laplace-k\", \"queries\": [...]}} runs a growing-database stream over the dataset's rows\n"
      "(the fields of `pbx-cli simulate growing`, plus \"stream.seed\"): each epoch, run or round is\n"
      "charged to the filter when it starts. \"ermg\" (logistic regression, \"erm\": {\"lambda\",\n"
      "\"tol\"}, no black_box) and \"smalldb\" (\"black_box\": {\"m\": 8}, BBScheduler's schedule)\n"
      "run on CPS1988's columns. Needs --neighbours replace: the proofs need the size\n"
      "to equal the time (Cummings et al. 2018).\n"
      "  --expost-share  unified filter: the ex-post side's share of ε (default 0.05; δ: 5 %)\n"
      "Each request may name its \"mechanism\": brownian, laplace-nr, doubling-laplace,\n"
      "doubling-gaussian, laplace or gaussian (default: the filter's noise reduction, or a single\n"
      "calibrated release for absolute count and sum targets).\n"
      "  --neighbours  add-remove (default) or replace\n"
      "  --seed        reproducible noise, for teaching and tests only (not for real releases)\n"
      "  --journal     append-only journal: each answer is written and fsync'd before it is\n"
      "                printed; rerunning with the same journal resumes where it stopped\n"
      "                (the journal's settings and dataset are used) instead of spending again;\n"
      "                it is locked while a run uses it, so a second run on it is refused\n"
      "  --plan-queries  per-query cap: a request without \"max_cost\" that uses doubling or noise\n"
      "                reduction may spend at most the remaining budget (in its unit) divided by N;\n"
      "                without this option N is the number of requests still to come in FILE,\n"
      "                this one included (a public number). The cap is recorded as max_cost.\n"
      "Every line is checked before anything is spent: a bad line stops the run with nothing\n"
      "spent and no transcript written (exit status 1).\n";

struct Prepared
{
    std::shared_ptr<const data::Source> source;
    std::shared_ptr<const data::Table> table; ///< source->schema()
    session::SessionSettings settings;
    std::vector<session::QueryRequest> requests;
    std::string outPath;
    std::optional<io::OpenedSessionJournal> resumed; ///< set when resuming a journal (locked)
};

/// The first option given that contradicts the journal's settings, as "--seed is 5 but the
/// journal was started with 7", or empty when all agree. Options not given take the journal's.
std::string settingThatDiffers(const Options &o, const session::SessionSettings &given,
                               const session::SessionSettings &journaled)
{
    const auto seedText = [](const std::optional<std::uint64_t> &seed) {
        return seed ? std::to_string(*seed) : std::string("no seed (operating-system noise)");
    };
    const auto differs
        = [&](const char *name, bool same, const std::string &mine, const std::string &theirs) {
              return o.has(name) && !same
                         ? std::string(name) + " is " + mine + " but the journal was started with " + theirs
                         : std::string();
          };
    for (const std::string &problem :
         {differs("--epsilon", given.epsilon == journaled.epsilon, formatSignificant(given.epsilon),
                  formatSignificant(journaled.epsilon)),
          differs("--delta", given.delta == journaled.delta, formatSignificant(given.delta),
                  formatSignificant(journaled.delta)),
          differs("--filter", given.filter == journaled.filter,
                  std::string(filters::filterKindName(given.filter)),
                  std::string(filters::filterKindName(journaled.filter))),
          differs("--neighbours", given.neighbours == journaled.neighbours,
                  std::string(data::neighbouringName(given.neighbours)),
                  std::string(data::neighbouringName(journaled.neighbours))),
          differs("--seed", given.seed == journaled.seed, seedText(given.seed), seedText(journaled.seed)),
          differs("--expost-share", given.split.expostEpsilonShare == journaled.split.expostEpsilonShare,
                  formatSignificant(given.split.expostEpsilonShare),
                  formatSignificant(journaled.split.expostEpsilonShare))})
        if (!problem.empty())
            return problem;
    return {};
}

/// The files the run reads or keeps (by what names them), besides --out: --queries, the dataset
/// CSV and its metadata sidecar's places, the journal and its tail record.
std::vector<NamedPath> inputsOf(const Options &o, const data::Table &table)
{
    std::vector<NamedPath> inputs;
    if (auto queries = o.value("--queries"))
        inputs.emplace_back("--queries", *queries);
    if (const auto &files = table.files()) {
        if (!files->path.empty()) // a database source has no dataset file, only its metadata
            for (auto &input : datasetInputs(files->path))
                inputs.push_back(std::move(input));
        if (!files->metadataPath.empty())
            inputs.emplace_back("the dataset's metadata file", files->metadataPath);
    }
    return inputs;
}

/// --out is replaced at the end and the journal's tail record rewritten after each answer: neither
/// may be another input of the run (checked by file identity, sidecars included).
Result<void> checkOutputsAreNotInputs(const Options &o, const data::Table &table)
{
    auto inputs = inputsOf(o, table);
    if (auto journal = o.value("--journal")) {
        const std::string tail = io::journalTailPath(*journal);
        PBX_RETURN_IF_ERROR(checkNotAnInput("--journal", *journal, inputs));
        PBX_RETURN_IF_ERROR(checkNotAnInput("the journal's tail record (" + tail + ")", tail, inputs));
        inputs.emplace_back("--journal", *journal);
        inputs.emplace_back("the journal's tail record", tail);
    }
    return checkNotAnInput("--out", *o.value("--out"), inputs);
}

/// The request fields (without the id when the file gives none: the session numbers those) of a
/// request, for comparing a file's line with what the journal answered.
io::json::Json requestFields(const session::QueryRequest &request, bool withId)
{
    io::json::Json fields = io::json::Json::object();
    io::writeRequest(request, fields);
    if (!withId)
        fields.erase("id");
    return fields;
}

Result<Prepared> prepare(const Options &o)
{
    Prepared p;
    auto queries = o.value("--queries");
    auto outPath = o.value("--out");
    if (!queries || !outPath)
        return makeError(ErrorCode::InvalidArgument, "--queries and --out are required (see --help)");
    p.outPath = *outPath;
    // --out is replaced at the end: never a file the run reads or appends to.
    for (const char *other : {"--queries", "--journal", "--dataset", "--metadata"})
        if (auto path = o.value(other); path && samePlace(*outPath, *path))
            return makeError(ErrorCode::InvalidArgument, std::string("--out names the same file as ") + other
                                                             + ", which it would overwrite");
    PBX_TRY(epsilon, o.number("--epsilon"));
    PBX_TRY(delta, o.number("--delta"));
    PBX_TRY(seed, o.unsignedInteger("--seed"));
    p.settings.epsilon = epsilon.value_or(1.0);
    p.settings.delta = delta.value_or(1e-6);
    p.settings.seed = seed;
    if (auto text = o.value("--filter")) {
        auto kind = filters::parseFilterKind(*text);
        if (!kind)
            return makeError(kind.error().code, "--filter: " + kind.error().message);
        p.settings.filter = *kind;
    }
    if (p.settings.filter == filters::FilterKind::Odometer && epsilon)
        return makeError(ErrorCode::InvalidArgument,
                         "--epsilon: an odometer session has no ε budget (it reports a running ε); give only "
                         "--delta");
    PBX_TRY(share, o.number("--expost-share"));
    if (share)
        p.settings.split.expostEpsilonShare = *share;
    if (auto text = o.value("--neighbours")) {
        auto n = data::parseNeighbouring(*text);
        if (!n)
            return makeError(n.error().code, "--neighbours: " + n.error().message);
        p.settings.neighbours = *n;
    }
    PBX_RETURN_IF_ERROR(p.settings.validate());

    std::string datasetName = o.value("--dataset").value_or("cps1988");
    std::string metadataPath = o.value("--metadata").value_or("");
    if (sources::isSourceDescriptor(datasetName)) {
        if (auto descriptor = sources::parseSourceDescriptor(datasetName); !descriptor)
            return makeError(descriptor.error().code, "--dataset: " + descriptor.error().message);
        else
            datasetName = sources::sourceDescriptorText(*descriptor); // canonical, as recorded
    }
    std::optional<io::SessionHeader> journaledHeader;
    auto journalPath = o.value("--journal");
    const auto journalFile = journalPath ? io::requireRegularFile(*journalPath) : Result<void>();
    if (journalPath && (journalFile || journalFile.error().code != ErrorCode::NotFound)) {
        // Locked for the rest of the run: a second process resuming or starting it is refused.
        auto opened = io::openSessionJournal(*journalPath);
        if (!opened)
            return makeError(opened.error().code, "--journal: " + opened.error().message);
        // Resuming: the journal's own settings and dataset rule; options that contradict them are refused.
        const auto &journaled = opened->recovered.header;
        if (const std::string problem = settingThatDiffers(o, p.settings, journaled.settings);
            !problem.empty())
            return makeError(
                ErrorCode::InvalidArgument,
                "--journal: " + problem
                    + "; resuming uses the journal's settings, so drop the option or make it match");
        if (o.has("--dataset")
            && !(!journaled.source.empty() ? datasetName == journaled.source
                 : journaled.files         ? samePlace(datasetName, journaled.files->path)
                                           : datasetName == journaled.datasetName))
            return makeError(ErrorCode::InvalidArgument, "--journal: the journal was started on dataset '"
                                                             + io::datasetToLoad(journaled) + "', not '"
                                                             + datasetName + "'");
        p.settings = journaled.settings;
        datasetName = io::datasetToLoad(journaled);
        if (!journaled.source.empty() && !o.has("--metadata") && journaled.files)
            metadataPath = journaled.files->metadataPath; // checked against its recorded digest
        journaledHeader = journaled;
        p.resumed = std::move(opened.value());
    }
    // Journals and transcripts are UTF-8 JSON: a file name that is not UTF-8 could not be
    // recorded, so it is refused before anything is answered.
    if (!io::json::isUtf8(datasetName))
        return makeError(
            ErrorCode::InvalidArgument,
            "--dataset: the file name is not valid UTF-8, so it cannot be recorded in the journal or "
            "transcript; rename the file");

    if (sources::isSourceDescriptor(datasetName) && metadataPath.empty())
        return makeError(ErrorCode::InvalidArgument,
                         "--metadata: required for a database source (its bounds, categories and row count "
                         "are declared there, never read from the data)");
    if (!sources::isSourceDescriptor(datasetName) && o.has("--metadata"))
        return makeError(ErrorCode::InvalidArgument,
                         "--metadata: only for a database source (a CSV file's metadata is its sidecar "
                         "file next to it)");
    auto source = resources::openDataset(datasetName, metadataPath);
    if (!source) { // a metadata file's errors name the file (or start with "metadata: ")
        const std::string &message = source.error().message;
        if (message.rfind("metadata: ", 0) == 0)
            return makeError(source.error().code, "--" + message);
        const bool aboutMetadata = !metadataPath.empty() && message.find(metadataPath) != std::string::npos;
        return makeError(source.error().code, (aboutMetadata ? "--metadata: " : "--dataset: ") + message);
    }
    const data::Table &table = (*source)->schema();
    if (auto recordable = io::checkRecordableText(table); !recordable)
        return makeError(recordable.error().code, "--dataset: " + recordable.error().message);
    PBX_RETURN_IF_ERROR(checkOutputsAreNotInputs(o, table));
    if (journaledHeader)
        if (auto same = io::checkDataset(*journaledHeader, **source); !same)
            return makeError(same.error().code, "--journal: " + same.error().message);
    p.source = std::move(source).value();
    p.table = std::shared_ptr<const data::Table>(p.source, &p.source->schema());

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
        // A kind that reads rows a database source cannot push down is refused before anything
        // is answered (session/source_support.h).
        if (auto onSource = session::checkRequestOnSource(*request, *p.table, p.source->kind()); !onSource)
            return makeError(onSource.error().code,
                             *queries + ": line " + std::to_string(number) + ": " + onSource.error().message);
        if (request->growing()) { // growing-database streams (session/growing_release.h)
            if (auto ok = session::checkGrowingRequest(*request, *p.table, p.settings); !ok)
                return makeError(ok.error().code,
                                 *queries + ": line " + std::to_string(number) + ": " + ok.error().message);
            p.requests.push_back(std::move(request.value()));
            continue;
        }
        if (request->odp()) { // output-DP mechanisms: only under --filter odp (session/odp_release.h)
            if (auto ok = session::checkOdpRequest(*request, *p.table, p.settings); !ok)
                return makeError(ok.error().code,
                                 *queries + ": line " + std::to_string(number) + ": " + ok.error().message);
            p.requests.push_back(std::move(request.value()));
            continue;
        }
        if (auto compiled = data::CompiledQuery::compile(request->query, *p.table); !compiled)
            return makeError(compiled.error().code,
                             *queries + ": line " + std::to_string(number) + ": " + compiled.error().message);
        // Everything Ask would refuse before spending is refused here, before anything is answered:
        // a bad line must not stop a run half-way.
        auto lineError = [&](const Error &e) {
            return makeError(e.code, *queries + ": line " + std::to_string(number) + ": " + e.message);
        };
        if (request->strategy()) {
            if (auto ok = session::checkStrategyRequest(*request, *p.table, p.settings.neighbours); !ok)
                return lineError(ok.error());
        } else {
            if (auto ok = session::checkTargetAndCap(*request); !ok)
                return lineError(ok.error());
            if (auto method = session::releaseMethodFor(*request, p.settings); !method)
                return lineError(method.error());
            if (auto rows = session::releaseRowCount(*p.source);
                !rows) // as Session::ask, before anything is spent
                return lineError(rows.error());
        }
        p.requests.push_back(std::move(request.value()));
    }
    return p;
}

/// Room for the parts of a transcript that grow with spending but not with events (the spend
/// and remaining numbers, the unified filter's systems): far more than their digits can add.
constexpr std::size_t kTranscriptSlack = 16384;

/// The disk space reserved for the transcript: its document before this run's answers plus
/// kTranscriptSlack, grown by each answer's record (an upper bound, transcriptEventBytes) before
/// the answer is shown, and never past maxJournalBytes, the largest transcript verify, resume,
/// report and the GUI read.
class TranscriptSpace
{
public:
    TranscriptSpace(io::AtomicFile &file, std::size_t bytes) : m_file(file), m_bytes(bytes) {}

    /// Errors: Io "… past 1 GiB …" or the reservation's (no space, a file-size limit).
    Result<void> reserve()
    {
        if (m_bytes > io::maxJournalBytes)
            return makeError(ErrorCode::Io, "the transcript would grow past 1 GiB (" + std::to_string(m_bytes)
                                                + " bytes), the largest file pbx-cli verify, report and "
                                                  "the GUI read (maxJournalBytes)");
        return m_file.reserve(m_bytes);
    }
    /// Grows the reservation by `event`'s record. Errors: those of reserve(); the reservation
    /// made before stays.
    Result<void> add(const session::LedgerEvent &event, const filters::PrivacyFilter &filter)
    {
        const std::size_t before = m_bytes;
        m_bytes += io::transcriptEventBytes(event, filter);
        auto reserved = reserve();
        if (!reserved)
            m_bytes = before;
        return reserved;
    }

private:
    io::AtomicFile &m_file;
    std::size_t m_bytes;
};

void printEvent(const session::LedgerEvent &e, std::ostream &out)
{
    if (e.odpRecord() || e.request.odp()) {
        printOdpEvent(e, out);
        return;
    }
    if (e.request.growing()) {
        printGrowingEvent(e, out);
        return;
    }
    out << e.request.id << ": " << session::eventStatusName(e.status);
    if (const std::string picks = report::selectionText(e); !picks.empty()) {
        // A mode releases categories: each pick's count is within the bound of the largest left.
        out << ' ' << picks << " (count gap ≤ " << formatSignificant(e.errorBound) << " rows; "
            << e.mechanismName() << ", " << filters::chargeUnitSymbol(e.costKind) << " = "
            << formatSignificant(e.cost) << ')';
        if (!e.targetMet)
            out << " — " << e.reason;
    } else if (e.status == session::EventStatus::Released) {
        out << ' ' << formatSignificant(e.answer) << " ± " << formatSignificant(e.errorBound) << " ("
            << e.mechanismName() << ", " << e.attempts.size()
            << (e.attempts.size() == 1 ? " attempt" : " attempts") << ", "
            << filters::chargeUnitSymbol(e.costKind) << " = " << formatSignificant(e.cost);
        if (e.costDelta > 0.0)
            out << ", δ = " << formatSignificant(e.costDelta);
        out << ')';
        if (!e.targetMet)
            out << " — " << e.reason;
    } else {
        out << " — " << e.reason;
    }
    out << '\n';
}

/// Every request the journal answered is the file's request at that position, field by field
/// (not only its id): the same run. Errors: the first that differs, naming the field.
Result<void> checkSameRun(const Prepared &prepared, const std::vector<session::LedgerEvent> &answeredEvents)
{
    if (answeredEvents.size() > prepared.requests.size())
        return makeError(ErrorCode::InvalidArgument,
                         "--journal: it holds " + countNoun(answeredEvents.size(), "answer", "answers")
                             + " but the file has only "
                             + countNoun(prepared.requests.size(), "request", "requests"));
    for (std::size_t i = 0; i < answeredEvents.size(); ++i) {
        const auto &mine = prepared.requests[i];
        const auto &answered = answeredEvents[i].request;
        const bool withId = !mine.id.empty();
        const auto a = requestFields(mine, withId);
        auto b = requestFields(answered, withId);
        // A request without "max_cost" was answered under the planned cap (remaining budget /
        // requests to come, session/planned_cap.h), which the journal records as its max_cost.
        if (!mine.maxCost)
            b.erase("max_cost");
        if (a == b)
            continue;
        std::string field;
        for (const auto &item : a.items())
            if (!b.contains(item.key()) || b[item.key()] != item.value()) {
                field = item.key();
                break;
            }
        if (field.empty())
            for (const auto &item : b.items())
                if (!a.contains(item.key())) {
                    field = item.key();
                    break;
                }
        return makeError(ErrorCode::InvalidArgument, "--journal: request " + std::to_string(i + 1) + " ('"
                                                         + (withId ? mine.id : answered.id)
                                                         + "') differs from the one the journal answered ("
                                                         + field + "): not the same run");
    }
    return {};
}

/// The session a run answers in, with its journal (if any) and how many requests it answered.
struct RunSession
{
    std::unique_ptr<session::Session> session;
    std::optional<io::JournalWriter> journal;
    std::size_t alreadyAnswered = 0;
};

/// A resumed journal is audited as `verify` does and replayed; a new session starts otherwise
/// (its journal is created later, once the transcript's place is claimed). Notes about a torn
/// journal go to `err`. Errors: the audit's or checkSameRun's, or the session's creation.
Result<RunSession> openRunSession(Prepared &prepared, std::ostream &err)
{
    RunSession run;
    if (!prepared.resumed) {
        PBX_TRY(created, session::Session::create(prepared.source, prepared.settings));
        run.session = std::move(created);
        return run;
    }
    const auto &recovered = prepared.resumed->recovered;
    auto restored = io::auditSessionFile(io::sessionFileOf(recovered), prepared.source);
    if (!restored)
        return makeError(restored.error().code, "--journal: " + restored.error().message);
    for (const auto &note : {recovered.contents.tornMessage, recovered.contents.tailNote})
        if (!note.empty())
            err << "pbx-cli run: note: " << note << '\n';
    PBX_RETURN_IF_ERROR(checkSameRun(prepared, recovered.events));
    run.alreadyAnswered = recovered.events.size();
    run.journal.emplace(std::move(prepared.resumed->writer));
    run.session = std::move(restored.value());
    return run;
}

/// Asks the requests not yet answered, securing each answer's record before printing it.
struct AskOutcome
{
    bool askFailed = false;                ///< the session refused to run a request (an error)
    std::optional<std::size_t> unrecorded; ///< the request whose record could not be secured
};

AskOutcome askRemaining(Prepared &prepared, RunSession &run, TranscriptSpace &space,
                        std::optional<std::uint64_t> planQueries, std::ostream &out, std::ostream &err)
{
    session::Session &s = *run.session;
    AskOutcome outcome;
    for (std::size_t i = run.alreadyAnswered; i < prepared.requests.size(); ++i) {
        // Workload-aware cap: spread what remains over the requests still to come.
        const std::size_t toCome
            = planQueries ? static_cast<std::size_t>(*planQueries) : prepared.requests.size() - i;
        auto event = s.ask(session::withPlannedCap(std::move(prepared.requests[i]), s.filter(), toCome));
        if (!event) { // prepare() checks what it can; the transcript still keeps what came before
            err << "pbx-cli run: request " << (i + 1) << ": " << event.error().message << '\n';
            outcome.askFailed = true;
            break;
        }
        // The transcript's space and then the journal line are secured before the answer is
        // printed: a full disk or a crash can lose only an answer nobody saw.
        Result<void> recorded = space.add(*event, s.filter());
        if (!recorded)
            recorded = makeError(recorded.error().code, "--out: " + recorded.error().message);
        else if (run.journal)
            if (auto logged = io::appendSessionEvent(*run.journal, *event, s.filter()); !logged)
                recorded = makeError(logged.error().code, "--journal: " + logged.error().message);
        if (!recorded) {
            err << "pbx-cli run: request " << (i + 1) << ": " << recorded.error().message << '\n';
            outcome.unrecorded = i + 1;
            break;
        }
        printEvent(*event, out);
        out.flush();
    }
    return outcome;
}

/// The last answer was charged but never shown or recorded (as when a crash cuts its journal
/// line): the transcript keeps every answer shown, in the space reserved for them.
Result<void> commitShownAnswers(const Prepared &prepared, const session::Session &s,
                                io::AtomicFile &transcript)
{
    std::vector<session::LedgerEvent> shown(s.events().begin(), s.events().end() - 1);
    PBX_TRY(before, session::Session::restore(prepared.source, s.settings(), std::move(shown)));
    return transcript.commit(io::writeTranscriptJson(*before));
}

/// What each budget system spent, and the session's guarantee.
void printSpending(const filters::PrivacyFilter &f, std::ostream &out)
{
    for (const auto &system : f.systems())
        out << "spent " << system.name << ": " << system.unitSymbol << " = "
            << formatSignificant(system.spent)
            << (std::isfinite(system.budget) ? " of " + formatSignificant(system.budget)
                                             : std::string(" (no budget)"))
            << '\n';
    out << filters::guaranteeText(f) << '\n';
    out.flush();
}

/// --plan-queries N (N ≥ 1), or unset. Errors: the option's message.
Result<std::optional<std::uint64_t>> planQueriesOption(const Options &options)
{
    PBX_TRY(planQueries, options.unsignedInteger("--plan-queries"));
    if (planQueries && *planQueries == 0)
        return makeError(ErrorCode::InvalidArgument, "--plan-queries must be at least 1");
    return planQueries;
}

} // namespace

int runRunCommand(const std::vector<std::string> &args, std::ostream &out, std::ostream &err)
{
    auto options = Options::parse(args, {"--queries", "--out", "--dataset", "--metadata", "--epsilon",
                                         "--delta", "--filter", "--neighbours", "--seed", "--expost-share",
                                         "--journal", "--plan-queries"});
    if (!options) {
        err << "pbx-cli run: " << options.error().message << '\n';
        return 2;
    }
    if (options->has("--help")) {
        out << kUsage;
        return 0;
    }
    auto fail = [&](const Error &e) {
        err << "pbx-cli run: " << e.message << '\n';
        return 1;
    };
    auto planQueries = planQueriesOption(*options);
    if (!planQueries)
        return fail(planQueries.error());
    auto prepared = prepare(*options);
    if (!prepared)
        return fail(prepared.error());
    auto run = openRunSession(*prepared, err);
    if (!run)
        return fail(run.error());
    // The transcript's place is claimed (and disk space reserved) before anything is answered: a
    // bad folder or a full disk must not lose the record of what is spent. The reservation then
    // grows by each answer's record before the answer is shown (TranscriptSpace).
    auto transcript = io::AtomicFile::open(prepared->outPath);
    if (!transcript)
        return fail(Error{transcript.error().code, "--out: " + transcript.error().message});
    TranscriptSpace space{*transcript, io::writeTranscriptJson(*run->session).size() + kTranscriptSlack};
    if (auto reserved = space.reserve(); !reserved)
        return fail(Error{reserved.error().code, "--out: " + reserved.error().message});
    if (!run->journal)
        if (auto path = options->value("--journal")) {
            auto started = io::createSessionJournal(*path, *run->session);
            if (!started)
                return fail(Error{started.error().code, "--journal: " + started.error().message});
            run->journal.emplace(std::move(started.value()));
        }
    session::Session &s = *run->session;
    if (run->journal) // output-DP reservations are durable before any noise is drawn
        s.setReservationHook([&](const session::LedgerEvent &reservation) {
            return io::appendSessionReservation(*run->journal, reservation, s.filter());
        });
    if (run->alreadyAnswered > 0)
        out << "resuming: " << run->alreadyAnswered << " answers already in the journal\n";
    const AskOutcome outcome = askRemaining(*prepared, *run, space, *planQueries, out, err);
    if (outcome.unrecorded) {
        if (auto written = commitShownAnswers(*prepared, s, *transcript); !written)
            return fail(written.error());
        err << "pbx-cli run: request " << *outcome.unrecorded
            << " was not shown; the transcript holds the answers before it\n";
        return 1;
    }
    printSpending(s.filter(), out);
    if (auto written = transcript->commit(io::writeTranscriptJson(s)); !written)
        return fail(written.error());
    if (outcome.askFailed)
        return 1;
    // Standard output closed or gone (SIGPIPE is ignored, see cli_main.cpp): the record is safe
    // in the transcript, but the caller did not see every answer.
    if (!out.good()) {
        err << "pbx-cli run: the answers could not all be written to standard output; every one is in "
            << prepared->outPath << '\n';
        return 1;
    }
    return 0;
}

} // namespace pbx::cli
