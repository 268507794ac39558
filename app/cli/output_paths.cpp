// SPDX-License-Identifier: MIT
#include "app/cli/output_paths.h"

#include <filesystem>

namespace pbx::cli {

std::vector<NamedPath> datasetInputs(const std::string &csvPath)
{
    namespace fs = std::filesystem;
    std::vector<NamedPath> inputs{{"the dataset", csvPath},
                                  {"the dataset's metadata file", csvPath + ".json"}};
    fs::path stem(csvPath);
    if (stem.extension() == ".gz")
        stem.replace_extension();
    if (stem.extension() == ".csv")
        inputs.emplace_back("the dataset's metadata file", stem.replace_extension(".json").string());
    return inputs;
}

Result<void> checkNotAnInput(const std::string &what, const std::string &path,
                             const std::vector<NamedPath> &inputs)
{
    for (const auto &[name, input] : inputs)
        if (samePlace(path, input))
            return makeError(ErrorCode::InvalidArgument, what + " names the same file as " + name + " ("
                                                             + input + "), which it would overwrite");
    return {};
}

} // namespace pbx::cli
