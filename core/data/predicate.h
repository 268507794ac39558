// SPDX-License-Identifier: MIT
// Row filters such as `region == "south" and education >= 12`: parsed and checked against a
// table's schema once, then evaluated column by column into a 0/1 mask. Queries use the mask to
// choose the rows they aggregate.
//
// Grammar (keywords `and`, `or`, `not` are case-insensitive; `and` binds tighter than `or`):
//   expr       := or
//   or         := and ('or' and)*
//   and        := unary ('and' unary)*
//   unary      := 'not' unary | '(' expr ')' | comparison
//   comparison := IDENT op literal          op: == != < <= > >=
//   literal    := number (12, -3.5, 1e3) | "string" | 'string'   (\" \' \\ escapes)
//   IDENT      := [A-Za-z_][A-Za-z0-9_]*   (a column name)
#pragma once

#include "core/data/rows.h"
#include "core/data/table.h"
#include "core/util/result.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace pbx::data {

class PredicateCompiler;

class Predicate
{
public:
    /// Longest accepted predicate text, in bytes.
    static constexpr std::size_t maxTextBytes = 64 * 1024;
    /// Deepest accepted nesting of parentheses and `not`; deeper input is refused rather than
    /// risking the stack of the recursive-descent parser.
    static constexpr int maxNestingDepth = 200;

    /// The predicate that matches every row (what the empty text compiles to).
    Predicate() = default;

    /// Parses `text` and checks it against `table`'s schema. Empty or whitespace-only text
    /// matches every row. Numeric columns compare with number literals using any of the six
    /// operators; categorical columns compare with quoted strings using == or != only (a string
    /// outside the column's dictionary is allowed: `==` then matches no row, `!=` every row).
    /// Errors name the 1-based character position of the problem (characters, not bytes), e.g.
    /// "character 17: unknown column 'regon' (columns: wage, region)":
    /// Parse for malformed text (unexpected token, unterminated string, unbalanced parentheses,
    /// NaN/∞ or out-of-range numbers, type mismatches, text over maxTextBytes, nesting deeper
    /// than maxNestingDepth); NotFound for a column the table does not have.
    static Result<Predicate> compile(std::string_view text, const Table &table);

    /// Sets `mask` to table.rowCount() entries, mask[i] = 1 where row i matches and 0 elsewhere.
    /// Precondition: `table` has the columns the predicate was compiled against, with the same
    /// types (categorical labels are matched by text, so a reordered dictionary is fine). If a
    /// column is missing or changed type, no row matches (and debug builds assert).
    void evaluate(const Rows &table, std::vector<std::uint8_t> &mask) const;

    /// Number of rows of `table` that match. Same precondition as evaluate().
    std::size_t countMatches(const Rows &table) const;

    /// The text this predicate was compiled from (empty for the match-all predicate).
    const std::string &text() const { return m_text; }

    /// True when the predicate is the empty text, i.e. selects every row without evaluation.
    bool matchesAll() const { return m_program.empty(); }

    enum class OpCode : std::uint8_t { Numeric, Categorical, And, Or, Not };
    enum class Comparison : std::uint8_t { Equal, NotEqual, Less, LessEqual, Greater, GreaterEqual };

    /// One step of the compiled postfix program: a comparison pushes a truth value per row,
    /// And/Or pop two and push one, Not negates the top. Public (it holds only the predicate's own
    /// text, no row) so that other engines can run the same program: core/sources compiles it to a
    /// parameterised SQL WHERE (docs/data-sources.md).
    struct Instruction
    {
        OpCode op = OpCode::Numeric;
        Comparison comparison = Comparison::Equal;
        std::size_t column = 0; ///< Numeric/Categorical: index in the compile-time table
        std::string columnName; ///< to re-resolve if the evaluated table differs
        double number = 0.0;    ///< Numeric: the literal
        std::int32_t code = -1; ///< Categorical: the label's code, -1 if not in the dictionary
        std::string label;      ///< Categorical: the literal
    };

    /// The postfix program (empty for the match-all predicate).
    const std::vector<Instruction> &program() const { return m_program; }

private:
    friend class PredicateCompiler;

    bool pushComparison(const Rows &table, const Instruction &instruction,
                        std::vector<std::uint8_t> &out) const;

    std::string m_text;
    std::vector<Instruction> m_program;
};

} // namespace pbx::data
