// SPDX-License-Identifier: MIT
#include "fuzz/fuzz_checks.h"

#include "core/accounting/evaluation.h"
#include "core/accounting/ledger_json.h"
#include "core/data/predicate.h"
#include "core/data/query.h"
#include "core/data/rows.h"
#include "core/io/csv_reader.h"
#include "core/io/dataset_metadata.h"
#include "core/io/gzip.h"
#include "core/io/journal.h"
#include "core/io/request_json.h"
#include "core/io/session_journal.h"
#include "core/io/transcript_json.h"
#include "core/session/ledger/cost_audit.h"
#include "core/session/session.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace pbx::fuzz {

void Outcome::refuse(std::string_view what, const std::string &message)
{
    if (error.empty())
        error = std::string(what) + ": " + message;
    if (message.empty())
        violate(std::string(what) + " refused the input with an empty message");
}

void Outcome::violate(const std::string &what)
{
    if (violation.empty())
        violation = what;
}

namespace {

data::Column numericColumn(const char *name, double lower, double upper)
{
    data::Column column;
    column.info.name = name;
    column.info.type = data::ColumnType::Numeric;
    column.info.declaredBounds = data::Bounds{lower, upper};
    return column;
}

data::Column categoricalColumn(const char *name, std::vector<std::string> categories)
{
    data::Column column;
    column.info.name = name;
    column.info.type = data::ColumnType::Categorical;
    column.info.categories = std::move(categories);
    return column;
}

std::vector<data::Column> fixtureColumns()
{
    std::vector<data::Column> columns{numericColumn("wage", 0, 5000),
                                      numericColumn("education", 0, 20),
                                      numericColumn("experience", -8, 64),
                                      categoricalColumn("ethnicity", {"cauc", "afam"}),
                                      categoricalColumn("smsa", {"no", "yes"}),
                                      categoricalColumn("region", {"northeast", "midwest", "south", "west"}),
                                      categoricalColumn("parttime", {"no", "yes"})};
    constexpr std::size_t rows = 64;
    for (std::size_t i = 0; i < rows; ++i) {
        columns[0].numeric.push_back(static_cast<double>(150 + (i * 37) % 1200));
        columns[1].numeric.push_back(static_cast<double>(8 + i % 11));
        columns[2].numeric.push_back(static_cast<double>(static_cast<int>(i % 45) - 3));
        columns[3].codes.push_back(i % 7 == 0 ? 1 : 0);
        columns[4].codes.push_back(i % 4 == 0 ? 0 : 1);
        columns[5].codes.push_back(static_cast<std::int32_t>(i % 4));
        columns[6].codes.push_back(i % 9 == 0 ? 1 : 0);
    }
    return columns;
}

// The fixture with its columns in reverse order and every dictionary reversed (codes re-mapped):
// a predicate compiled against the fixture must select the same rows here (it re-resolves by name
// and label).
std::shared_ptr<const data::Table> shuffledFixture()
{
    static const std::shared_ptr<const data::Table> table = [] {
        std::vector<data::Column> columns = fixtureColumns();
        for (data::Column &column : columns) {
            if (column.info.type != data::ColumnType::Categorical)
                continue;
            const auto n = static_cast<std::int32_t>(column.info.categories.size());
            std::reverse(column.info.categories.begin(), column.info.categories.end());
            for (std::int32_t &code : column.codes)
                code = n - 1 - code;
        }
        std::reverse(columns.begin(), columns.end());
        return std::make_shared<const data::Table>(
            data::Table::create("fixture", std::move(columns)).value().withPublic(true));
    }();
    return table;
}

std::string describeNumber(double x)
{
    char buffer[40];
    std::snprintf(buffer, sizeof buffer, "%.17g", x);
    return buffer;
}

// A filter never holds more than its budget, in any of its systems.
void checkNoOverspend(const filters::PrivacyFilter &filter, const char *what, Outcome &outcome)
{
    for (const filters::BudgetSystem &system : filter.systems()) {
        if (!(system.spent <= system.budget) || !(system.spent >= 0.0))
            outcome.violate(std::string(what) + ": the " + system.name + " system spent "
                            + describeNumber(system.spent) + " of a budget of "
                            + describeNumber(system.budget));
    }
    if (!(filter.deltaSpent() <= filter.deltaBudget()))
        outcome.violate(std::string(what) + ": δ spent " + describeNumber(filter.deltaSpent())
                        + " exceeds δ budget " + describeNumber(filter.deltaBudget()));
}

// Every accepted table is well-formed: equal lengths, codes inside their dictionaries, finite
// numbers, unique non-empty names.
void checkTable(const data::Table &loaded, Outcome &outcome)
{
    // The fuzzer checks the reader's storage: door (b) of core/data/rows.h on a public copy.
    const data::Table table = loaded.withPublic(true);
    const data::Rows rows = *data::publicRows(table, "the fuzzer");
    std::set<std::string> names;
    for (std::size_t c = 0; c < table.columnCount(); ++c) {
        const data::Column &column = rows.column(c);
        if (column.info.name.empty() || !names.insert(column.info.name).second)
            outcome.violate("readCsv: empty or duplicate column name '" + column.info.name + "'");
        if (column.info.type == data::ColumnType::Numeric) {
            if (column.numeric.size() != table.rowCount())
                outcome.violate("readCsv: numeric column '" + column.info.name + "' has the wrong length");
            for (double x : column.numeric)
                if (!std::isfinite(x))
                    outcome.violate("readCsv: non-finite value in column '" + column.info.name + "'");
        } else {
            if (column.codes.size() != table.rowCount())
                outcome.violate("readCsv: categorical column '" + column.info.name
                                + "' has the wrong length");
            for (std::int32_t code : column.codes)
                if (code < 0 || static_cast<std::size_t>(code) >= column.info.categories.size())
                    outcome.violate("readCsv: code outside the dictionary in column '" + column.info.name
                                    + "'");
        }
    }
    if (table.columnCount() == 0 || table.rowCount() == 0)
        outcome.violate("readCsv: accepted a table without columns or rows");
}

bool sameRequest(const session::QueryRequest &a, const session::QueryRequest &b)
{
    const auto sameBounds = [](const std::optional<data::Bounds> &x, const std::optional<data::Bounds> &y) {
        return x.has_value() == y.has_value() && (!x || (x->lower == y->lower && x->upper == y->upper));
    };
    return a.id == b.id && a.query.aggregate == b.query.aggregate && a.query.where == b.query.where
           && (a.query.aggregate == data::Aggregate::Count || a.query.column == b.query.column)
           && sameBounds(a.query.bounds, b.query.bounds) && a.target.kind == b.target.kind
           && a.target.error == b.target.error && a.target.confidence == b.target.confidence
           && a.maxCost == b.maxCost && a.mechanism == b.mechanism;
}

// What the program does with a parsed ledger of session events (transcript or journal): audit
// every cost and replay it into a fresh filter; neither may crash, and a replay never overspends.
// An accepted replay is written as a transcript and read back, and must restore the same spend.
void replaySession(const session::SessionSettings &settings, const std::vector<session::LedgerEvent> &events,
                   Outcome &outcome)
{
    const auto table = fixtureTable();
    auto restored = session::Session::restore(table, settings, events);
    if (!restored) {
        outcome.refuse("Session::restore", restored.error().message);
        return;
    }
    checkNoOverspend((*restored)->filter(), "Session::restore", outcome);

    auto audited = session::auditLedger(table, settings, events);
    if (!audited)
        outcome.refuse("auditLedger", audited.error().message);
    else if ((*audited)->filter().spent() != (*restored)->filter().spent())
        outcome.violate("auditLedger and Session::restore disagree on the spend");

    const std::string written = io::writeTranscriptJson(**restored);
    auto reread = io::readTranscriptJson(written);
    if (!reread) {
        outcome.violate("a restored session's transcript does not read back: " + reread.error().message);
        return;
    }
    auto again = session::Session::restore(table, reread->settings, reread->events);
    if (!again)
        outcome.violate("a restored session's transcript does not restore: " + again.error().message);
    else if ((*again)->filter().spent() != (*restored)->filter().spent())
        outcome.violate("a transcript round trip changed the spend from "
                        + describeNumber((*restored)->filter().spent()) + " to "
                        + describeNumber((*again)->filter().spent()));
}

// The largest ledger evaluateLedger() is run on, to keep each input fast. Counts are bounded too
// (advanced composition and RDP are closed forms in the count, so large counts are cheap).
constexpr std::size_t kMaxEvaluatedEvents = 8;

} // namespace

std::shared_ptr<const data::Table> fixtureTable()
{
    static const std::shared_ptr<const data::Table> table = std::make_shared<const data::Table>(
        data::Table::create("fixture", fixtureColumns()).value().withPublic(true));
    return table;
}

Outcome checkPredicate(std::string_view bytes)
{
    Outcome outcome;
    const auto table = fixtureTable();
    auto predicate = data::Predicate::compile(bytes, *table);
    if (!predicate) {
        outcome.refuse("Predicate::compile", predicate.error().message);
        // Errors name the character position, except the one about the text's length.
        const std::string &message = predicate.error().message;
        if (message.rfind("character ", 0) != 0 && bytes.size() <= data::Predicate::maxTextBytes)
            outcome.violate("Predicate::compile: the message does not name the character: " + message);
        return outcome;
    }
    outcome.accepted = true;
    if (predicate->text() != bytes)
        outcome.violate("Predicate::text() differs from the compiled text");
    std::vector<std::uint8_t> mask;
    predicate->evaluate(*data::publicRows(*table, "the fuzzer"), mask);
    if (mask.size() != table->rowCount())
        outcome.violate("Predicate::evaluate: the mask has the wrong size");
    std::size_t matches = 0;
    for (std::uint8_t bit : mask) {
        if (bit > 1)
            outcome.violate("Predicate::evaluate: a mask entry is neither 0 nor 1");
        matches += bit;
    }
    if (predicate->countMatches(*data::publicRows(*table, "the fuzzer")) != matches)
        outcome.violate("Predicate::countMatches disagrees with evaluate");
    // Columns and dictionaries in another order: the same rows are selected.
    std::vector<std::uint8_t> shuffled;
    predicate->evaluate(*data::publicRows(*shuffledFixture(), "the fuzzer"), shuffled);
    if (shuffled != mask)
        outcome.violate("Predicate::evaluate: a reordered table selects other rows");
    return outcome;
}

Outcome checkCsv(std::string_view bytes)
{
    Outcome outcome;
    io::CsvReadOptions options;
    options.maxRows = 100'000;
    auto table = io::readCsv(bytes, "fuzz", options);
    if (!table) {
        outcome.refuse("readCsv", table.error().message);
    } else {
        outcome.accepted = true;
        checkTable(*table, outcome);
    }

    // The same bytes with declared types, bounds and categories for columns "a" and "b"
    // (refused with NotFound unless the header has both).
    static const io::DatasetMetadata metadata = [] {
        io::DatasetMetadata m;
        io::ColumnMetadata a;
        a.name = "a";
        a.type = data::ColumnType::Numeric;
        a.bounds = data::Bounds{0, 10};
        io::ColumnMetadata b;
        b.name = "b";
        b.categories = {"x", "y", "z"};
        m.columns = {a, b};
        return m;
    }();
    options.metadata = &metadata;
    auto declared = io::readCsv(bytes, "fuzz", options);
    if (!declared) {
        if (declared.error().message.empty())
            outcome.violate("readCsv with metadata refused the input with an empty message");
    } else {
        checkTable(*declared, outcome);
        const data::Table &t = *declared;
        const auto a = t.columnIndex("a");
        const auto b = t.columnIndex("b");
        if (!a || !b || t.columnInfo(*a).type != data::ColumnType::Numeric
            || t.columnInfo(*b).categories != metadata.columns[1].categories)
            outcome.violate("readCsv with metadata: the declared schema was not applied");
    }
    return outcome;
}

Outcome checkGzip(std::string_view bytes)
{
    Outcome outcome;
    auto inflated = io::gunzip(bytes);
    constexpr std::size_t smallLimit = 1000;
    auto small = io::gunzip(bytes, smallLimit);
    if (!inflated) {
        outcome.refuse("gunzip", inflated.error().message);
        if (small)
            outcome.violate("gunzip accepted the input only under the smaller output limit");
        return outcome;
    }
    outcome.accepted = true;
    if (!io::looksGzipped(bytes))
        outcome.violate("gunzip accepted data without the gzip magic number");
    if (inflated->size() <= smallLimit) {
        if (!small || *small != *inflated)
            outcome.violate("gunzip under a limit it fits gives another result");
    } else if (small || small.error().code != ErrorCode::InvalidArgument) {
        outcome.violate("gunzip did not refuse output over its limit");
    }
    return outcome;
}

Outcome checkMetadata(std::string_view bytes)
{
    Outcome outcome;
    auto metadata = io::parseDatasetMetadata(bytes);
    if (!metadata) {
        outcome.refuse("parseDatasetMetadata", metadata.error().message);
        return outcome;
    }
    outcome.accepted = true;
    std::set<std::string> names;
    for (const io::ColumnMetadata &column : metadata->columns) {
        if (column.name.empty() || !names.insert(column.name).second)
            outcome.violate("parseDatasetMetadata: empty or duplicate column name");
        if (column.bounds
            && (!std::isfinite(column.bounds->lower) || !std::isfinite(column.bounds->upper)
                || column.bounds->lower > column.bounds->upper))
            outcome.violate("parseDatasetMetadata: invalid bounds accepted for '" + column.name + "'");
    }
    // Written back, it reads the same.
    auto reread = io::parseDatasetMetadata(io::datasetMetadataToJson(*metadata));
    if (!reread) {
        outcome.violate("written metadata does not read back: " + reread.error().message);
    } else if (reread->columns.size() != metadata->columns.size() || reread->name != metadata->name
               || reread->rows != metadata->rows) {
        outcome.violate("metadata changed in a write/read round trip");
    } else {
        for (std::size_t i = 0; i < metadata->columns.size(); ++i) {
            const io::ColumnMetadata &x = metadata->columns[i];
            const io::ColumnMetadata &y = reread->columns[i];
            const bool sameBounds
                = x.bounds.has_value() == y.bounds.has_value()
                  && (!x.bounds
                      || (x.bounds->lower == y.bounds->lower && x.bounds->upper == y.bounds->upper));
            if (x.name != y.name || x.type != y.type || !sameBounds || x.categories != y.categories)
                outcome.violate("metadata column '" + x.name + "' changed in a write/read round trip");
        }
    }
    // Applied to the fixture table and to a small CSV: a table or a clear error.
    auto applied = io::applyDatasetMetadata(*fixtureTable(), *metadata);
    if (!applied && applied.error().message.empty())
        outcome.violate("applyDatasetMetadata refused with an empty message");
    io::CsvReadOptions options;
    options.metadata = &*metadata;
    auto table = io::readCsv("wage,region,a\n12,south,x\n7.5,west,y\n", "fuzz", options);
    if (!table && table.error().message.empty())
        outcome.violate("readCsv with fuzzed metadata refused with an empty message");
    else if (table)
        checkTable(*table, outcome);
    return outcome;
}

Outcome checkRequest(std::string_view bytes)
{
    Outcome outcome;
    constexpr std::size_t line = 7;
    auto request = io::readRequestLine(bytes, line);
    if (!request) {
        outcome.refuse("readRequestLine", request.error().message);
        if (request.error().message.rfind("line 7", 0) != 0)
            outcome.violate("readRequestLine: the message does not name the line: "
                            + request.error().message);
        return outcome;
    }
    outcome.accepted = true;
    const session::QueryRequest &r = *request;
    if (!r.target.validate())
        outcome.violate("readRequestLine accepted an invalid accuracy target");
    if (r.query.bounds && !r.query.bounds->validate())
        outcome.violate("readRequestLine accepted invalid bounds");
    if (r.maxCost && !(*r.maxCost > 0.0 && std::isfinite(*r.maxCost)))
        outcome.violate("readRequestLine accepted max_cost " + describeNumber(*r.maxCost));

    io::json::Json written = io::json::Json::object();
    io::writeRequest(r, written);
    auto reread = io::readRequest(written, "written");
    if (!reread)
        outcome.violate("a written request does not read back: " + reread.error().message);
    else if (!sameRequest(r, *reread))
        outcome.violate("a request changed in a write/read round trip");

    // Asked in a seeded session on the fixture: an answer or a clear error, never an overspend.
    session::SessionSettings settings;
    settings.seed = 1;
    auto created = session::Session::create(fixtureTable(), settings);
    if (!created) {
        outcome.violate("the fixture session cannot be created");
        return outcome;
    }
    session::Session &s = **created;
    auto answered = s.ask(r);
    if (!answered && answered.error().message.empty())
        outcome.violate("Session::ask refused with an empty message");
    checkNoOverspend(s.filter(), "Session::ask", outcome);
    return outcome;
}

Outcome checkTranscript(std::string_view bytes)
{
    Outcome outcome;
    auto document = io::readTranscriptJson(bytes);
    if (!document) {
        outcome.refuse("readTranscriptJson", document.error().message);
        return outcome;
    }
    outcome.accepted = true;
    if (!document->settings.validate())
        outcome.violate("readTranscriptJson accepted invalid settings");
    replaySession(document->settings, document->events, outcome);
    return outcome;
}

Outcome checkJournal(std::string_view bytes)
{
    Outcome outcome;
    auto contents = io::readJournalText(bytes);
    if (!contents) {
        outcome.refuse("readJournalText", contents.error().message);
    } else {
        outcome.accepted = true;
        if (contents->intactBytes > bytes.size()
            || (!contents->tornTail && contents->intactBytes != bytes.size()))
            outcome.violate("readJournalText: the intact prefix does not fit the text");
        if (contents->tornTail && contents->tornMessage.empty())
            outcome.violate("readJournalText: a torn tail without a message");
        // A crash leaves only a last line without its newline; a complete line is never torn.
        if (contents->tornTail && !bytes.empty() && bytes.back() == '\n')
            outcome.violate(
                "readJournalText: a complete (newline-terminated) bad line was taken for a torn tail");
    }

    // The fuzzer can hardly forge SHA-256 chains, so the lines are also re-chained (each payload
    // is what precedes the line's last tab) to reach the session journal reader behind the check.
    std::string chained;
    std::string previous;
    for (std::size_t position = 0; position < bytes.size();) {
        const std::size_t end = std::min(bytes.find('\n', position), bytes.size());
        std::string_view row = bytes.substr(position, end - position);
        if (const std::size_t tab = row.rfind('\t'); tab != std::string_view::npos)
            row = row.substr(0, tab);
        previous = io::sha256Hex(previous + std::string(row));
        chained.append(row).append("\t").append(previous).append("\n");
        position = end + 1;
    }
    for (std::string_view text : {bytes, std::string_view(chained)}) {
        auto journal = io::readSessionJournalText(text, "fuzz.journal");
        if (!journal) {
            if (journal.error().message.empty())
                outcome.violate("readSessionJournalText refused with an empty message");
            if (text.data() == chained.data())
                outcome.error += (outcome.error.empty() ? "" : "; re-chained: ") + journal.error().message;
            continue;
        }
        if (!journal->header.settings.validate())
            outcome.violate("readSessionJournalText accepted invalid settings");
        replaySession(journal->header.settings, journal->events, outcome);
    }
    return outcome;
}

Outcome checkLedger(std::string_view bytes)
{
    Outcome outcome;
    auto ledger = accounting::parseLedgerJson(std::string(bytes));
    if (!ledger) {
        outcome.refuse("parseLedgerJson", ledger.error().message);
        return outcome;
    }
    outcome.accepted = true;
    if (auto valid = accounting::validateLedger(*ledger); !valid)
        outcome.violate("parseLedgerJson accepted a ledger validateLedger refuses: " + valid.error().message);
    if (ledger->events.size() > kMaxEvaluatedEvents)
        return outcome;
    for (const accounting::AccountingQuery &query :
         {accounting::AccountingQuery{true, 1e-6}, accounting::AccountingQuery{false, 1.0}}) {
        // PLD at a coarse interval (fast; extreme parameters must still be refused
        // cleanly by the resource estimate, never crash, hang or allocate wildly).
        accounting::PldOptions pld;
        pld.interval = 1e-2;
        // A 2^16-bin cap keeps one input well under the fuzzer's hang limit under ASan (at the
        // full 2^22 a legitimate PLD takes seconds in a release build, minutes here); the
        // refusal path it exercises is the same.
        pld.maxBins = 65536.0;
        auto report
            = accounting::evaluateLedger(*ledger, query, {"basic", "advanced", "zcdp", "rdp", "pld"}, pld);
        if (!report) {
            if (report.error().message.empty())
                outcome.violate("evaluateLedger refused with an empty message");
            if (report.error().code == ErrorCode::InvalidArgument)
                outcome.violate("evaluateLedger refused a parsed ledger: " + report.error().message);
            continue;
        }
        for (const auto &[name, entry] : report->items()) {
            if (name == "query" || !entry.is_object())
                continue;
            if (!entry.value("applicable", false)) {
                const std::string reason = entry.value("reason", std::string());
                if (reason.empty() || reason.find('\n') != std::string::npos)
                    outcome.violate(name + ": a refusal must be one non-empty line");
                continue;
            }
            // A PLD bracket must be ordered: lower ≤ upper.
            if (query.epsilonAtDelta && entry.contains("optimisticEpsilon") && entry["epsilon"].is_number()
                && entry["optimisticEpsilon"].is_number()
                && entry["optimisticEpsilon"].get<double>() > entry["epsilon"].get<double>())
                outcome.violate(name + ": the optimistic ε lies above the pessimistic one");
        }
    }
    return outcome;
}

Check checkByName(std::string_view name)
{
    static constexpr std::pair<std::string_view, Check> checks[] = {
        {"predicate", checkPredicate}, {"csv", checkCsv},         {"gzip", checkGzip},
        {"metadata", checkMetadata},   {"request", checkRequest}, {"transcript", checkTranscript},
        {"journal", checkJournal},     {"ledger", checkLedger},
    };
    for (const auto &[known, check] : checks)
        if (known == name)
            return check;
    return nullptr;
}

} // namespace pbx::fuzz
