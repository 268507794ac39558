// SPDX-License-Identifier: MIT
#include "app/cli/verify_command.h"

#include "app/cli/options.h"
#include "core/io/session_journal.h"
#include "core/io/text_file.h"
#include "core/io/transcript_json.h"
#include "core/session/cost_audit.h"
#include "resources/dataset_catalog.h"

#include <cstdio>

namespace pbx::cli {

namespace {

constexpr const char *kUsage =
    "Usage: pbx-cli verify FILE [--dataset NAME-or-CSV-PATH]\n"
    "\n"
    "Checks a transcript or a journal: the journal's checksum chain, every event's cost recomputed\n"
    "from its mechanism, sensitivity and noise scales, and the whole ledger replayed into a fresh\n"
    "filter (it must fit the budget and reproduce the recorded spend exactly). Exit status 0 when\n"
    "consistent, 1 with a one-line message otherwise. The dataset named in the file is used unless\n"
    "--dataset gives another (e.g. the CSV file it was loaded from).\n";

std::string format(double x)
{
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.6g", x);
    return buffer;
}

struct Document
{
    std::string kind;
    io::SessionHeader header;
    std::vector<session::LedgerEvent> events;
    std::optional<double> recordedSpent; ///< transcripts: the native spend they state
    std::string note;
};

Result<Document> load(const std::string &path)
{
    auto text = io::readTextFile(path);
    if (!text)
        return text.error();
    Document d;
    if (io::looksLikeJournal(*text)) {
        auto journal = io::readSessionJournal(path);
        if (!journal)
            return journal.error();
        d.kind = "journal";
        d.header = journal->header;
        d.events = std::move(journal->events);
        if (journal->contents.tornTail)
            d.note = journal->contents.tornMessage;
        return d;
    }
    auto transcript = io::readTranscriptJson(*text);
    if (!transcript)
        return transcript.error();
    d.kind = "transcript";
    d.header = {transcript->datasetName, transcript->settings};
    d.events = std::move(transcript->events);
    auto doc = io::json::parse(*text, "the transcript").value();
    if (auto spent = doc.find("spent"); spent != doc.end() && spent->is_object()) {
        const std::string unit = doc["filter"].value("unit", std::string("epsilon"));
        if (spent->contains(unit) && (*spent)[unit].is_number())
            d.recordedSpent = (*spent)[unit].get<double>();
    }
    return d;
}

} // namespace

int runVerifyCommand(const std::vector<std::string> &args, std::ostream &out, std::ostream &err)
{
    if (args.empty() || args[0] == "--help") {
        out << kUsage;
        return args.empty() ? 2 : 0;
    }
    auto options = Options::parse({args.begin() + 1, args.end()}, {"--dataset"});
    if (!options) {
        err << "pbx-cli verify: " << options.error().message << '\n';
        return 2;
    }
    auto document = load(args[0]);
    if (!document) {
        err << "pbx-cli verify: " << document.error().message << '\n';
        return 1;
    }
    auto table = resources::loadDataset(options->value("--dataset").value_or(document->header.datasetName));
    if (!table) {
        err << "pbx-cli verify: dataset: " << table.error().message << '\n';
        return 1;
    }
    auto replayed = session::auditLedger(std::make_shared<const data::Table>(std::move(table.value())),
                                         document->header.settings, document->events);
    if (!replayed) {
        err << "pbx-cli verify: " << replayed.error().message << '\n';
        return 1;
    }
    const auto &filter = (*replayed)->filter();
    if (document->recordedSpent && *document->recordedSpent != filter.spent()) {
        err << "pbx-cli verify: the transcript states " << filter.unitSymbol() << " spent = "
            << format(*document->recordedSpent) << " but its events add up to " << format(filter.spent()) << '\n';
        return 1;
    }
    if (!document->note.empty())
        out << "note: " << document->note << '\n';
    std::size_t released = 0;
    for (const auto &e : document->events)
        released += e.status == session::EventStatus::Released;
    out << "ok: " << document->kind << " with " << document->events.size() << " requests (" << released
        << " released); every cost recomputed; spent (ε, δ) = (" << format(filter.epsilonSpent()) << ", "
        << format(filter.deltaSpent()) << ") of (" << format(filter.epsilonBudget()) << ", "
        << format(filter.deltaBudget()) << ")\n";
    return 0;
}

} // namespace pbx::cli
