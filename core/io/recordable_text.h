// SPDX-License-Identifier: MIT
// The text of a dataset that a session can write into its journal and transcript (the name, the
// file paths, column names, category labels), checked when the dataset is opened for a session:
// JSON holds only UTF-8 and the readers accept strings of at most json::maxStringBytes, so text
// that a CSV file may hold (arbitrary bytes, a 5 MB label) is refused before anything is spent,
// never found when an answer is to be recorded.
#pragma once

#include "core/data/table.h"
#include "core/util/result.h"

namespace pbx::io {

/// Succeeds when every text of `table` that a journal or transcript can record is valid UTF-8
/// and at most json::maxStringBytes (64 KiB) long: the table's name, its files' absolute paths
/// (which hold the current folder's name for a relative path), every column name and every
/// category label (categorical columns; a sparse vector or histogram releases labels).
/// The check reads every label whatever is asked later, so whether it refuses depends on the
/// file alone, never on a request; the message names the column (or the name or path) and the
/// rule, never a label's bytes or its row. Errors: InvalidArgument, one line.
Result<void> checkRecordableText(const data::Table &table);

} // namespace pbx::io
