// SPDX-License-Identifier: MIT
#include "app/cli/output_paths.h"

#include <filesystem>

namespace pbx::cli {

bool samePlace(const std::string &a, const std::string &b)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    if (fs::exists(a, ec) && fs::exists(b, ec))
        return fs::equivalent(a, b, ec);
    return fs::weakly_canonical(a, ec) == fs::weakly_canonical(b, ec);
}

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
