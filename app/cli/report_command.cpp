// SPDX-License-Identifier: MIT
#include "app/cli/report_command.h"

#include "app/cli/options.h"
#include "app/cli/output_paths.h"
#include "app/cli/verify_command.h"
#include "core/io/journal.h"
#include "core/io/session_file.h"
#include "core/report/session_report.h"
#include "core/util/plural.h"
#include "ui/report/reportwriter.h"

#include <chrono>
#include <ctime>

namespace pbx::cli {

namespace {

constexpr const char *kReportUsage
    = "Usage: pbx-cli report FILE --out REPORT.html|REPORT.pdf [--dataset NAME-or-CSV-PATH-or-DESCRIPTOR]\n"
      "                      [--metadata FILE]\n"
      "\n"
      "Writes a self-contained report of a saved session (a transcript or a journal): the dataset\n"
      "and its provenance (file path and SHA-256), the budget, neighbouring relation and filter,\n"
      "every request with its answer, error bar, mechanism, cost and reason, the budget path\n"
      "chart, the composition comparison of the session's ledger (or why it cannot be made, e.g.\n"
      "for histogram or output-DP events), and how the numbers were made for each mechanism used,\n"
      "with the papers. HTML embeds its charts as SVG; PDF is printed through Qt (no display is\n"
      "needed). A seeded session is marked 'not for real releases' on every page.\n"
      "\n"
      "The file is audited first, as by 'pbx-cli verify': the dataset recorded in it is used\n"
      "unless --dataset (--metadata) names another copy (whose digest must still match).\n"
      "  --out       the report; its extension chooses the format (.html, .htm or .pdf)\n"
      "  --dataset   another copy of the recorded dataset\n"
      "  --metadata  a database session's metadata file, when it is no longer at the place\n"
      "              recorded in the session (its SHA-256 must be the recorded one)\n"
      "Exit status: 0 written, 1 a file that cannot be read or audited or a report that cannot be\n"
      "written (one line naming the problem), 2 usage error.\n";

std::string utcNow()
{
    const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
    std::tm tm{};
    gmtime_r(&now, &tm);
    char buffer[32];
    std::strftime(buffer, sizeof buffer, "%Y-%m-%d %H:%M UTC", &tm);
    return buffer;
}

} // namespace

int runReportCommand(const std::vector<std::string> &args, std::ostream &out, std::ostream &err)
{
    if (args.empty() || args[0] == "--help") {
        out << kReportUsage;
        return args.empty() ? 2 : 0;
    }
    auto options = Options::parse({args.begin() + 1, args.end()}, {"--out", "--dataset", "--metadata"});
    if (!options) {
        err << "pbx-cli report: " << options.error().message << '\n';
        return 2;
    }
    const auto outPath = options->value("--out");
    if (!outPath) {
        err << "pbx-cli report: --out REPORT.html or REPORT.pdf is required\n";
        return 2;
    }
    const QString target = QString::fromStdString(*outPath);
    if (auto format = ui::reportFormatFor(target); !format) {
        err << "pbx-cli report: --out: " << format.error().message << '\n';
        return 2;
    }
    // The report replaces --out: never the session file, its journal tail record, the dataset
    // or its metadata sidecar (checked by file identity, before anything is written).
    std::vector<NamedPath> inputs{{"the session file", args[0]},
                                  {"the session file's tail record", io::journalTailPath(args[0])}};
    if (auto dataset = options->value("--dataset"))
        inputs.emplace_back("--dataset", *dataset);
    if (auto metadata = options->value("--metadata"))
        inputs.emplace_back("--metadata", *metadata);
    if (auto separate = checkNotAnInput("--out", *outPath, inputs); !separate) {
        err << "pbx-cli report: " << separate.error().message << '\n';
        return 1;
    }
    auto document = io::readSessionFile(args[0]);
    if (!document) {
        err << "pbx-cli report: " << document.error().message << '\n';
        return 1;
    }
    // A database session reopens its recorded descriptor with its recorded metadata file, or the
    // one --metadata names (as verify).
    auto dataSource
        = reopenRecordedDataset(document->header, options->value("--dataset"), options->value("--metadata"));
    if (!dataSource) {
        err << "pbx-cli report: dataset: " << dataSource.error().message << '\n';
        return 1;
    }
    if (const auto &files = (*dataSource)->schema().files()) {
        inputs = files->path.empty() ? std::vector<NamedPath>{} : datasetInputs(files->path);
        if (!files->metadataPath.empty())
            inputs.emplace_back("the dataset's metadata file", files->metadataPath);
        if (auto separate = checkNotAnInput("--out", *outPath, inputs); !separate) {
            err << "pbx-cli report: " << separate.error().message << '\n';
            return 1;
        }
    }
    auto replayed = io::auditSessionFile(*document, std::move(dataSource).value());
    if (!replayed) {
        err << "pbx-cli report: " << replayed.error().message << '\n';
        return 1;
    }
    report::ReportSource source;
    source.path = args[0];
    source.generator = std::string("pbx-cli ") + PBX_VERSION;
    source.created = utcNow();
    source.fileNotes = document->notes;
    const report::SessionReport facts = report::collectReport(**replayed, std::move(source));
    if (auto written = ui::writeReportFile(facts, target); !written) {
        err << "pbx-cli report: " << written.error().message << '\n';
        return 1;
    }
    out << "wrote " << *outPath << ": " << countNoun(facts.events.size(), "request", "requests")
        << (facts.seeded() ? " (seeded session: marked not for real releases)" : "") << '\n';
    return 0;
}

} // namespace pbx::cli
