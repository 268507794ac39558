// SPDX-License-Identifier: MIT
#include "app/cli/simulate_lab_input.h"

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

std::optional<io::json::Json>
runLabAndWrite(const std::string &dataset, bool needsTable, const std::string &outPath,
               const std::function<Result<io::json::Json>(const data::Table *)> &run, std::ostream &err)
{
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
    if (auto written = io::writeTextFileAtomically(outPath, result->dump(2) + "\n"); !written) {
        err << "pbx-cli simulate: " << written.error().message << '\n';
        return std::nullopt;
    }
    return std::move(result.value());
}

} // namespace pbx::cli
