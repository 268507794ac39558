// SPDX-License-Identifier: MIT
#include "app/cli/verify_command.h"

#include "app/cli/options.h"
#include "core/filters/guarantee_text.h"
#include "core/io/session_file.h"
#include "core/sources/source_descriptor.h"
#include "core/util/number_format.h"
#include "core/util/plural.h"
#include "resources/dataset_catalog.h"

#include <cstdio>
#include <filesystem>

namespace pbx::cli {

namespace {

constexpr const char *kVerifyUsage
    = "Usage: pbx-cli verify FILE [--dataset NAME-or-CSV-PATH-or-DESCRIPTOR] [--metadata FILE]\n"
      "\n"
      "Checks a transcript or a journal: the journal's checksum chain and tail record (FILE.tail),\n"
      "that the dataset is the one recorded (a CSV's path and SHA-256; a database table's\n"
      "descriptor, reopened, and its metadata file's SHA-256), every event's cost\n"
      "recomputed from its mechanism, sensitivity and noise scales (a quantile's epsilon from its\n"
      "target and grid), every derived answer derived again from its source, where each growing\n"
      "stream's rounds open, and the whole ledger replayed into a fresh filter (it must fit the\n"
      "budget and reproduce the recorded spend exactly; every recorded refusal of a growing stream's\n"
      "epoch or round and of an output-DP request must be one the filter makes). It cannot\n"
      "recompute what depends on the noise drawn or on private data (data-dependent stopping, an\n"
      "ex-post boundary's E(T)). Exit status 0 when consistent, 1 with a one-line message otherwise. The dataset\n"
      "recorded in the file is used unless --dataset (--metadata) names another copy (whose digest\n"
      "must still match): --metadata gives a database session's metadata file at a new place.\n"
      "Resuming a journal and opening a file in the GUI run the same checks.\n";

} // namespace

Result<std::shared_ptr<const data::Source>> reopenRecordedDataset(const io::SessionHeader &header,
                                                                  const std::optional<std::string> &dataset,
                                                                  const std::optional<std::string> &metadata)
{
    const std::string text = dataset.value_or(io::datasetToLoad(header));
    // The recorded metadata file goes with a database descriptor only (a CSV's is its sidecar).
    const bool recordedMetadata
        = !metadata && !header.source.empty() && header.files && sources::isSourceDescriptor(text);
    const std::string metadataPath = metadata           ? *metadata
                                     : recordedMetadata ? header.files->metadataPath
                                                        : "";
    auto source = resources::openDataset(text, metadataPath);
    if (!source && recordedMetadata && !std::filesystem::exists(metadataPath))
        return makeError(source.error().code,
                         source.error().message
                             + " (the metadata file recorded in the "
                               "session; if it moved, give its new place with --metadata FILE)");
    return source;
}

int runVerifyCommand(const std::vector<std::string> &args, std::ostream &out, std::ostream &err)
{
    if (args.empty() || args[0] == "--help") {
        out << kVerifyUsage;
        return args.empty() ? 2 : 0;
    }
    auto options = Options::parse({args.begin() + 1, args.end()}, {"--dataset", "--metadata"});
    if (!options) {
        err << "pbx-cli verify: " << options.error().message << '\n';
        return 2;
    }
    auto document = io::readSessionFile(args[0]);
    if (!document) {
        err << "pbx-cli verify: " << document.error().message << '\n';
        return 1;
    }
    // The recorded CSV path (or embedded name, or database descriptor with its metadata file)
    // unless --dataset (--metadata) names another copy; either way its digest must match the one
    // recorded.
    auto source
        = reopenRecordedDataset(document->header, options->value("--dataset"), options->value("--metadata"));
    if (!source) {
        err << "pbx-cli verify: dataset: " << source.error().message << '\n';
        return 1;
    }
    auto replayed = io::auditSessionFile(*document, std::move(source).value());
    if (!replayed) {
        err << "pbx-cli verify: " << replayed.error().message << '\n';
        return 1;
    }
    const auto &filter = (*replayed)->filter();
    for (const auto &note : document->notes)
        out << "note: " << note << '\n';
    std::size_t released = 0, expostBrownian = 0;
    for (const auto &e : document->events) {
        released += e.status == session::EventStatus::Released;
        // Their boundary's E(T) is recorded only as text: checked for consistency, not recomputed.
        expostBrownian += e.mechanism == session::EventMechanism::Brownian
                          && e.costKind == filters::ChargeKind::ExPost
                          && e.status == session::EventStatus::Released;
    }
    const std::string recomputed = expostBrownian == 0
                                       ? std::string("every cost recomputed")
                                       : "every cost recomputed but the ex-post boundary's E(T) of "
                                             + countNoun(expostBrownian, "Brownian run", "Brownian runs")
                                             + " (checked for consistency only)";
    out << "ok: " << (document->kind == io::SessionFile::Kind::Journal ? "journal" : "transcript") << " with "
        << countNoun(document->events.size(), "request", "requests") << " (" << released << " released); "
        << recomputed << "; " << filters::guaranteeText(filter) << '\n';
    return 0;
}

} // namespace pbx::cli
