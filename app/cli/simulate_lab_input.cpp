// SPDX-License-Identifier: MIT
#include "app/cli/simulate_lab_input.h"

#include "app/cli/output_paths.h"
#include "core/io/text_file.h"
#include "resources/dataset_catalog.h"

#include <ostream>

namespace pbx::cli {

std::variant<int, LabInput> readLabInput(const std::vector<std::string> &args, const std::string &lab,
                                         const char *usage, const std::set<std::string> &extraFlags,
                                         std::string_view invalidConfigCode, std::ostream &out,
                                         std::ostream &err)
{
    std::set<std::string> flags = extraFlags;
    flags.insert("--help");
    auto options = Options::parse(args, {"--config", "--out", "--seed"}, flags);
    if (!options) {
        err << "pbx-cli simulate: " << options.error().message << '\n';
        return 2;
    }
    if (options->has("--help")) {
        out << usage;
        return 0;
    }
    const auto configPath = options->value("--config");
    const auto outPath = options->value("--out");
    if (!configPath || !outPath) {
        err << "pbx-cli simulate: " << lab << " needs --config LAB.json and --out FILE.json (see --help)\n";
        return 2;
    }
    // --out is replaced at the end: never the lab document it reads.
    if (auto clash = outNamesAnInput(*outPath, {*configPath}); !clash) {
        err << "pbx-cli simulate: " << clash.error().message << '\n';
        return 2;
    }
    auto seed = options->unsignedInteger("--seed");
    if (!seed) {
        err << "pbx-cli simulate: " << seed.error().message << '\n';
        return 1;
    }
    auto text = io::readTextFile(*configPath, 16u << 20);
    if (!text) {
        err << "pbx-cli simulate: " << text.error().message << '\n';
        return 1;
    }
    auto json = io::json::parse(*text, *configPath);
    if (!json) {
        err << "pbx-cli simulate: " << invalidConfigCode << ": " << json.error().message << '\n';
        return 1;
    }
    return LabInput{std::move(*options), std::move(*json), *outPath, seed->value_or(1)};
}

namespace {

/// A CSV dataset's metadata sidecars ("<path>.json", and the path with .csv or .csv.gz replaced
/// by .json: resources/dataset_catalog.h), besides the path itself.
std::vector<std::string> withSidecars(const std::string &path)
{
    std::vector<std::string> out{path};
    for (const std::string suffix : {".csv.gz", ".csv"})
        if (path.size() > suffix.size()
            && path.compare(path.size() - suffix.size(), suffix.size(), suffix) == 0) {
            out.push_back(path + ".json");
            out.push_back(path.substr(0, path.size() - suffix.size()) + ".json");
            break;
        }
    return out;
}

} // namespace

Result<void> outNamesAnInput(const std::string &outPath, const std::vector<std::string> &inputs)
{
    for (const std::string &input : inputs)
        for (const std::string &path : withSidecars(input))
            if (samePlace(outPath, path))
                return makeError(ErrorCode::InvalidArgument,
                                 "--out names " + path + ", an input of the lab, which it would overwrite");
    return {};
}

std::optional<io::json::Json>
runLabAndWrite(const std::string &dataset, bool needsTable, const std::string &outPath,
               const std::function<Result<io::json::Json>(const data::Table *)> &run, std::ostream &err)
{
    if (auto clash = outNamesAnInput(outPath, {dataset}); !clash) {
        err << "pbx-cli simulate: " << clash.error().message << '\n';
        return std::nullopt;
    }
    // The output's temporary file is created before the lab runs: a folder that is missing or
    // not writable stops it at once, not after the run.
    auto file = io::AtomicFile::open(outPath);
    if (!file) {
        err << "pbx-cli simulate: --out: " << file.error().message << '\n';
        return std::nullopt;
    }
    std::optional<data::Table> table;
    if (needsTable) {
        auto loaded = resources::loadDataset(dataset);
        if (!loaded) {
            err << "pbx-cli simulate: dataset: " << loaded.error().message << '\n';
            return std::nullopt;
        }
        table = std::move(*loaded);
    }
    auto result = run(table ? &*table : nullptr);
    if (!result) {
        err << "pbx-cli simulate: " << result.error().message << '\n';
        return std::nullopt;
    }
    if (auto written = file->commit(result->dump(2) + "\n"); !written) {
        err << "pbx-cli simulate: " << written.error().message << '\n';
        return std::nullopt;
    }
    return std::move(result.value());
}

} // namespace pbx::cli
