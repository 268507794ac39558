// SPDX-License-Identifier: MIT
// Reads a CSV file into a data::Table, inferring each column's type unless metadata declares it.
//
// Rules (kept deliberately simple so results are predictable):
// - The first row is the header: non-empty, unique column names.
// - Fields are separated by `delimiter`; double quotes quote fields (which may then contain the
//   delimiter, newlines and "" for a quote). Spaces around unquoted fields are dropped. Blank
//   lines are skipped. A UTF-8 byte-order mark is ignored. LF and CRLF line ends both work.
// - A column is numeric when every cell parses completely as a finite number (12, -3.5, 1e3,
//   +4); otherwise it is categorical, with its distinct labels sorted bytewise as the dictionary
//   (so the codes do not depend on row order). Metadata can declare the type instead.
// - Empty cells are an error: dropping or imputing rows would silently change what the privacy
//   analysis is about, so the user decides how to clean the file. "NA" and the like are not
//   special; in a column declared numeric they are reported as errors, otherwise they make the
//   column categorical.
// Errors name the physical line and the field, e.g. "line 12, column 3 ('wage'): empty cell".
// A quoted field that spans lines is reported at the line where it ends.
#pragma once

#include "core/data/table.h"
#include "core/io/dataset_metadata.h"
#include "core/util/result.h"

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace pbx::io {

struct CsvReadOptions
{
    char delimiter = ',';             ///< field separator; must not be '"', CR or LF
    std::size_t maxRows = 10'000'000; ///< data rows (header excluded) beyond this are refused
    std::size_t maxColumns = 1000;    ///< header fields beyond this are refused
    /// Optional metadata (not owned; must outlive the call): declared types, bounds, categories,
    /// descriptions, name and provenance are applied, as by applyDatasetMetadata().
    const DatasetMetadata *metadata = nullptr;
};

/// Largest file readCsvFile() reads, and largest decompressed size of a `.gz` file: 512 MiB.
inline constexpr std::size_t maxCsvFileBytes = std::size_t{512} * 1024 * 1024;

/// Parses CSV text (UTF-8) into a table called `tableName` (metadata.name, if set, wins).
/// Valid: options.maxRows ≥ 1, 1 ≤ options.maxColumns, a delimiter other than '"', '\r', '\n'.
/// Errors: Parse for malformed CSV (bad quoting, ragged rows, empty or duplicate header names,
/// empty cells, no data rows, a cell that does not fit a declared type or declared categories,
/// more rows or columns than allowed); NotFound when the metadata describes a column the file
/// lacks; InvalidArgument for bad options or a metadata/row-count mismatch.
Result<data::Table> readCsv(std::string_view bytes, std::string tableName,
                            const CsvReadOptions &options = {});

/// Reads a CSV file (UTF-8 path), decompressing it first if it is gzip data (by its magic
/// bytes, whatever the extension). The table is named after the file stem ("data.csv.gz" →
/// "data") unless the metadata names it; the provenance records the file name.
/// Errors: Io when the file cannot be read or exceeds maxCsvFileBytes; InvalidArgument when
/// it decompresses to more than maxCsvFileBytes; otherwise as gunzip() and readCsv(), the
/// message prefixed with the path.
Result<data::Table> readCsvFile(const std::string &path, const CsvReadOptions &options = {});

/// Rows previewCsvFile() shows by default (File ▸ Import CSV).
inline constexpr std::size_t csvPreviewRows = 20;
/// Most bytes previewCsvFile() reads of a file by default: 1 MiB, whatever the file's size.
inline constexpr std::size_t maxCsvPreviewBytes = std::size_t{1} << 20;

/// The first records of a CSV file as text, split by the same parser and rules as readCsv(), to
/// be shown to the user who owns the file (never to a session: nothing here is typed or checked).
struct CsvPreview
{
    std::vector<std::string> header;            ///< the first record's fields
    std::vector<std::vector<std::string>> rows; ///< the following records, as many fields as each has
    std::vector<std::size_t> lines;             ///< the physical line on which each row ends
    bool whole = false;                         ///< true: the file has no records beyond these
};

/// Splits `bytes` (a UTF-8 byte-order mark is skipped) into a header and at most `maxRows` rows.
/// `moreFollows`: the bytes are a prefix of the file, cut after a line end; a record left open at
/// the end (a quoted field spanning the cut) is dropped. Rows are not checked against the header
/// (a ragged row is shown as it is; the loader refuses it). Errors: InvalidArgument for a quote or
/// line break as delimiter; Parse for malformed quoting before the preview is full (naming the
/// line) and for no header row.
Result<CsvPreview> previewCsv(std::string_view bytes, bool moreFollows, std::size_t maxRows = csvPreviewRows,
                              char delimiter = ',');

/// previewCsv() over at most `maxBytes` bytes of the file at `path` (UTF-8), read without looking
/// at the rest, so a file of any size costs at most `maxBytes` of memory and reading. Errors: Io
/// when it cannot be read; Unsupported for gzip data (a compressed prefix cannot be previewed);
/// otherwise as previewCsv(), prefixed with the path.
Result<CsvPreview> previewCsvFile(const std::string &path, std::size_t maxRows = csvPreviewRows,
                                  std::size_t maxBytes = maxCsvPreviewBytes, char delimiter = ',');

} // namespace pbx::io
