// SPDX-License-Identifier: MIT
#include "core/sources/sql_statement.h"

#include "core/util/try.h"

#include <utility>

namespace pbx::sources {

namespace {

using data::Predicate;

class StatementBuilder
{
public:
    StatementBuilder(SqlDialect dialect, const QuoteIdentifier &quote, const data::Table &schema)
        : m_dialect(dialect), m_quote(quote), m_schema(schema)
    {}

    /// A placeholder for a new parameter.
    std::string bind(SqlParameter value)
    {
        m_statement.parameters.push_back(std::move(value));
        const std::string number = std::to_string(m_statement.parameters.size());
        return (m_dialect == SqlDialect::Sqlite ? "?" : "$") + number;
    }

    /// The quoted name of column `name`, checked to exist with type `type`.
    Result<std::string> column(std::string_view name, data::ColumnType type)
    {
        const auto index = m_schema.columnIndex(name);
        if (!index || m_schema.columnInfo(*index).type != type)
            return makeError(ErrorCode::NotFound,
                             "column: '" + std::string(name) + "' is not a "
                                 + (type == data::ColumnType::Numeric ? "numeric" : "categorical")
                                 + " column of this source");
        return m_quote(name);
    }

    /// A numeric column's value as a double, NULL when missing.
    std::string numericValue(const std::string &quoted) const
    {
        if (m_dialect == SqlDialect::Sqlite)
            return "(CASE WHEN typeof(" + quoted + ") IN ('integer', 'real') THEN " + quoted + " END)";
        return "CAST(" + quoted + " AS double precision)";
    }

    /// A categorical column's value as text, NULL when missing.
    std::string textValue(const std::string &quoted) const
    {
        if (m_dialect == SqlDialect::Sqlite)
            return quoted;
        return "CAST(" + quoted + " AS text)";
    }

    /// clip(x, L, U) of a numeric column, a missing value counting as L.
    std::string clipped(const std::string &value, const std::string &lower, const std::string &upper) const
    {
        if (m_dialect == SqlDialect::Sqlite)
            return "MIN(MAX(COALESCE(" + value + ", " + lower + "), " + lower + "), " + upper + ")";
        return "LEAST(GREATEST(COALESCE(" + value + ", " + lower + "), " + lower + "), " + upper + ")";
    }

    std::string sum(const std::string &term) const
    {
        if (m_dialect == SqlDialect::Sqlite)
            return "TOTAL(" + term + ")";
        return "COALESCE(SUM(" + term + "), 0)";
    }

    /// " WHERE …" for `predicate`, or "" when it matches every row.
    Result<std::string> where(const Predicate &predicate)
    {
        if (predicate.matchesAll())
            return std::string();
        std::vector<std::string> stack;
        for (const Predicate::Instruction &step : predicate.program()) {
            switch (step.op) {
            case Predicate::OpCode::Numeric:
            case Predicate::OpCode::Categorical: {
                PBX_TRY(condition, comparison(step));
                stack.push_back(std::move(condition));
                break;
            }
            case Predicate::OpCode::And:
            case Predicate::OpCode::Or: {
                if (stack.size() < 2)
                    return malformed();
                std::string right = std::move(stack.back());
                stack.pop_back();
                stack.back() = "(" + stack.back() + (step.op == Predicate::OpCode::And ? " AND " : " OR ")
                               + right + ")";
                break;
            }
            case Predicate::OpCode::Not:
                if (stack.empty())
                    return malformed();
                stack.back() = "(NOT " + stack.back() + ")";
                break;
            }
        }
        if (stack.size() != 1)
            return malformed();
        return " WHERE " + stack.front();
    }

    SqlStatement take(std::string text)
    {
        m_statement.text = std::move(text);
        return std::move(m_statement);
    }

private:
    static Error malformed()
    {
        return makeError(ErrorCode::InvalidArgument, "where: malformed predicate program");
    }

    Result<std::string> comparison(const Predicate::Instruction &step)
    {
        using Comparison = Predicate::Comparison;
        const bool numeric = step.op == Predicate::OpCode::Numeric;
        auto quoted
            = column(step.columnName, numeric ? data::ColumnType::Numeric : data::ColumnType::Categorical);
        if (!quoted)
            return makeError(quoted.error().code, "where: " + quoted.error().message);
        const bool notEqual = step.comparison == Comparison::NotEqual;
        if (!numeric && m_dialect == SqlDialect::Postgres && step.label.find('\0') != std::string::npos) {
            // PostgreSQL text holds no NUL byte, so no row carries this label: decided from the
            // literal alone, as `==` on a label outside the dictionary is in memory.
            return std::string(notEqual ? "(1 = 1)" : "(1 = 0)");
        }
        const std::string value = numeric ? numericValue(*quoted) : textValue(*quoted);
        const std::string placeholder = numeric ? bind(step.number) : bind(step.label);
        const char *op = "=";
        switch (step.comparison) {
        case Comparison::Equal:
        case Comparison::NotEqual:
            op = "=";
            break;
        case Comparison::Less:
            op = "<";
            break;
        case Comparison::LessEqual:
            op = "<=";
            break;
        case Comparison::Greater:
            op = ">";
            break;
        case Comparison::GreaterEqual:
            op = ">=";
            break;
        }
        return "((" + value + " " + op + " " + placeholder + ") IS " + (notEqual ? "NOT TRUE)" : "TRUE)");
    }

    SqlDialect m_dialect;
    const QuoteIdentifier &m_quote;
    const data::Table &m_schema;
    SqlStatement m_statement;
};

} // namespace

Result<SqlStatement> statisticsStatement(SqlDialect dialect, const QuoteIdentifier &quote,
                                         std::string_view quotedTable, const data::Table &schema,
                                         const data::CompiledQuery &query)
{
    StatementBuilder builder(dialect, quote, schema);
    std::string select = "SELECT COUNT(*)";
    if (query.spec().aggregate != data::Aggregate::Count) {
        PBX_TRY(quoted, builder.column(query.spec().column, data::ColumnType::Numeric));
        const data::Bounds bounds = query.bounds();
        const std::string lower = builder.bind(bounds.lower);
        const std::string upper = builder.bind(bounds.upper);
        // The midpoint as the in-memory code computes it, (L + U)/2 in doubles, bound as a value.
        const std::string mid = builder.bind((bounds.lower + bounds.upper) / 2.0);
        const std::string clip = builder.clipped(builder.numericValue(quoted), lower, upper);
        select += ", " + builder.sum(clip) + ", " + builder.sum(clip + " - " + mid);
    }
    PBX_TRY(where, builder.where(query.predicate()));
    return builder.take(select + " FROM " + std::string(quotedTable) + where);
}

Result<SqlStatement> categoryCountsStatement(SqlDialect dialect, const QuoteIdentifier &quote,
                                             std::string_view quotedTable, const data::Table &schema,
                                             std::size_t column, const data::Predicate &where)
{
    if (column >= schema.columnCount())
        return makeError(ErrorCode::NotFound,
                         "column: no column " + std::to_string(column) + " in this source");
    StatementBuilder builder(dialect, quote, schema);
    PBX_TRY(quoted, builder.column(schema.columnInfo(column).name, data::ColumnType::Categorical));
    PBX_TRY(condition, builder.where(where));
    return builder.take("SELECT " + builder.textValue(quoted) + ", COUNT(*) FROM " + std::string(quotedTable)
                        + condition + " GROUP BY 1");
}

} // namespace pbx::sources
