// SPDX-License-Identifier: MIT
#include "core/data/rows.h"

#include <string>

namespace pbx::data {

Result<Rows> publicRows(const Table &table, std::string_view use)
{
    if (!table.isPublic())
        return makeError(ErrorCode::Unsupported,
                         std::string(use)
                             + " reads the rows of the dataset, which is not declared public, and has no "
                               "privacy budget to charge: ask it in a session (pbx-cli run, or the app), or "
                               "declare the data public in their metadata (\"public\": true)");
    return Rows(table);
}

} // namespace pbx::data
