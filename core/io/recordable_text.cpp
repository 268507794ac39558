// SPDX-License-Identifier: MIT
#include "core/io/recordable_text.h"

#include "core/io/json_fields.h"

namespace pbx::io {

namespace {

/// "" when `text` is recordable, else the rule it breaks (after "is" / "has").
std::string problemWith(std::string_view text)
{
    if (text.size() > json::maxStringBytes)
        return "longer than " + std::to_string(json::maxStringBytes)
               + " bytes (json::maxStringBytes, the longest text the journal and transcript readers accept)";
    if (!json::isUtf8(text))
        return "not valid UTF-8 (CSV files are read as UTF-8: save the file as UTF-8)";
    return {};
}

Error refused(const std::string &what, const std::string &problem)
{
    return makeError(ErrorCode::InvalidArgument,
                     what + " " + problem + ", so it cannot be recorded in a journal or transcript");
}

} // namespace

Result<void> checkRecordableText(const data::Table &table)
{
    if (auto p = problemWith(table.name()); !p.empty())
        return refused("the dataset's name is", p);
    if (const auto &files = table.files()) {
        if (auto p = problemWith(files->path); !p.empty())
            return refused("the dataset file's absolute path (the current folder's or the file's name) is",
                           p);
        if (auto p = problemWith(files->metadataPath); !p.empty())
            return refused("the metadata file's absolute path is", p);
    }
    for (std::size_t c = 0; c < table.columnCount(); ++c) {
        const auto &info = table.columnInfo(c);
        if (auto p = problemWith(info.name); !p.empty())
            return refused("the name of column " + std::to_string(c + 1) + " is", p);
        for (const auto &label : info.categories)
            if (auto p = problemWith(label); !p.empty())
                return refused("column '" + info.name + "': a category label is", p);
    }
    return {};
}

} // namespace pbx::io
