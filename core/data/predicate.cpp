// SPDX-License-Identifier: MIT
// Predicate compiler (an on-demand lexer feeding a recursive-descent parser that emits a postfix
// program) and the vectorised evaluator. Lexing on demand means the first error in reading
// order is the one reported.
#include "core/data/predicate.h"

#include "core/util/try.h"

#include <algorithm>
#include <cassert>
#include <charconv>
#include <cmath>
#include <optional>

namespace pbx::data {

namespace {

enum class TokenKind { End, Identifier, Number, String, Operator, LeftParen, RightParen, And, Or, Not };

struct Token
{
    TokenKind kind = TokenKind::End;
    std::size_t offset = 0; ///< byte offset of the first character
    std::size_t length = 0; ///< bytes of source text
    std::string value;      ///< identifier name or unescaped string
    double number = 0.0;
};

bool isIdentifierStart(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

bool isIdentifierChar(char c)
{
    return isIdentifierStart(c) || (c >= '0' && c <= '9');
}

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

bool equalsIgnoreCase(std::string_view a, std::string_view b)
{
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c; };
               return lower(x) == lower(y);
           });
}

std::string truncated(std::string_view text)
{
    constexpr std::size_t limit = 40;
    if (text.size() <= limit)
        return std::string(text);
    std::size_t cut = limit;
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80)
        --cut; // never split a UTF-8 sequence
    return std::string(text.substr(0, cut)) + "…";
}

// Edit distance for "did you mean" hints; column names are short, so O(n·m) is fine.
std::size_t editDistance(std::string_view a, std::string_view b)
{
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j)
        row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diagonal = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t above = row[j];
            const std::size_t substitution = diagonal + (a[i - 1] == b[j - 1] ? 0 : 1);
            row[j] = std::min({above + 1, row[j - 1] + 1, substitution});
            diagonal = above;
        }
    }
    return row[b.size()];
}

class Lexer
{
public:
    explicit Lexer(std::string_view text) : m_text(text) {}

    /// Reads the next token, or returns an error for text that cannot start any token.
    Result<Token> next()
    {
        while (m_pos < m_text.size()
               && (m_text[m_pos] == ' ' || m_text[m_pos] == '\t' || m_text[m_pos] == '\n'
                   || m_text[m_pos] == '\r'))
            ++m_pos;
        Token token;
        token.offset = m_pos;
        if (m_pos >= m_text.size())
            return token;

        const char c = m_text[m_pos];
        if (isIdentifierStart(c))
            return identifier(token);
        const char following = m_pos + 1 < m_text.size() ? m_text[m_pos + 1] : '\0';
        const bool sign = c == '-' || c == '+';
        if (isDigit(c) || c == '.' || (sign && (isDigit(following) || following == '.')))
            return number(token);
        if (sign && isIdentifierStart(following))
            return signedWord();
        if (c == '"' || c == '\'')
            return string(token);
        if (c == '(' || c == ')') {
            token.kind = c == '(' ? TokenKind::LeftParen : TokenKind::RightParen;
            token.length = 1;
            ++m_pos;
            return token;
        }
        return punctuation(token);
    }

    /// 1-based character (not byte) column of a byte offset; UTF-8 continuation bytes don't count.
    std::size_t column(std::size_t offset) const
    {
        std::size_t characters = 0;
        for (std::size_t i = 0; i < offset && i < m_text.size(); ++i) {
            if ((static_cast<unsigned char>(m_text[i]) & 0xC0) != 0x80)
                ++characters;
        }
        return characters + 1;
    }

    Error error(std::size_t offset, const std::string &message) const
    {
        return makeError(ErrorCode::Parse, "character " + std::to_string(column(offset)) + ": " + message);
    }

    std::string_view source(const Token &token) const { return m_text.substr(token.offset, token.length); }

private:
    // The whole UTF-8 character starting at `offset`, for messages (not just its first byte).
    std::string utf8CharacterAt(std::size_t offset) const
    {
        std::size_t end = offset + 1;
        while (end < m_text.size() && (static_cast<unsigned char>(m_text[end]) & 0xC0) == 0x80)
            ++end;
        return std::string(m_text.substr(offset, end - offset));
    }

    Result<Token> identifier(Token &token)
    {
        std::size_t end = m_pos;
        while (end < m_text.size() && isIdentifierChar(m_text[end]))
            ++end;
        // "région" must not read as the column "r" followed by junk.
        if (end < m_text.size() && static_cast<unsigned char>(m_text[end]) >= 0x80)
            return error(end, "unexpected character '" + utf8CharacterAt(end)
                                  + "'; column names in predicates may use only ASCII letters, "
                                    "digits and '_'");
        token.length = end - m_pos;
        token.value = std::string(m_text.substr(m_pos, token.length));
        m_pos = end;
        if (equalsIgnoreCase(token.value, "and"))
            token.kind = TokenKind::And;
        else if (equalsIgnoreCase(token.value, "or"))
            token.kind = TokenKind::Or;
        else if (equalsIgnoreCase(token.value, "not"))
            token.kind = TokenKind::Not;
        else
            token.kind = TokenKind::Identifier;
        return token;
    }

    Result<Token> number(Token &token)
    {
        std::size_t end = m_pos;
        if (m_text[end] == '-' || m_text[end] == '+')
            ++end;
        std::size_t digits = 0;
        while (end < m_text.size() && isDigit(m_text[end]))
            ++end, ++digits;
        if (end < m_text.size() && m_text[end] == '.') {
            ++end;
            while (end < m_text.size() && isDigit(m_text[end]))
                ++end, ++digits;
        }
        bool malformed = digits == 0;
        if (!malformed && end < m_text.size() && (m_text[end] == 'e' || m_text[end] == 'E')) {
            ++end;
            if (end < m_text.size() && (m_text[end] == '-' || m_text[end] == '+'))
                ++end;
            std::size_t exponentDigits = 0;
            while (end < m_text.size() && isDigit(m_text[end]))
                ++end, ++exponentDigits;
            malformed = exponentDigits == 0;
        }
        // "12abc" or "1.2.3" is one bad token, not a number followed by something else.
        while (end < m_text.size() && (isIdentifierChar(m_text[end]) || m_text[end] == '.'))
            ++end, malformed = true;
        token.length = end - m_pos;
        const std::string_view text = m_text.substr(m_pos, token.length);
        if (malformed)
            return error(m_pos, "malformed number '" + truncated(text) + "'");

        // from_chars rejects a leading '+', which the grammar allows.
        const std::string_view digitsText = text.front() == '+' ? text.substr(1) : text;
        const auto [ptr, ec]
            = std::from_chars(digitsText.data(), digitsText.data() + digitsText.size(), token.number);
        if (ec == std::errc::result_out_of_range || (ec == std::errc() && !std::isfinite(token.number)))
            return error(m_pos, "number '" + truncated(text) + "' is out of range");
        if (ec != std::errc() || ptr != digitsText.data() + digitsText.size())
            return error(m_pos, "malformed number '" + truncated(text) + "'");
        token.kind = TokenKind::Number;
        m_pos = end;
        return token;
    }

    // "-inf" deserves a better message than "unexpected character '-'".
    Result<Token> signedWord() const
    {
        std::size_t end = m_pos + 1;
        while (end < m_text.size() && isIdentifierChar(m_text[end]))
            ++end;
        const std::string_view word = m_text.substr(m_pos + 1, end - m_pos - 1);
        if (equalsIgnoreCase(word, "inf") || equalsIgnoreCase(word, "infinity")
            || equalsIgnoreCase(word, "nan"))
            return error(m_pos, "NaN and infinite values are not allowed");
        return error(m_pos, std::string("unexpected character '") + m_text[m_pos] + "'");
    }

    Result<Token> string(Token &token)
    {
        const char quote = m_text[m_pos];
        std::size_t i = m_pos + 1;
        while (i < m_text.size() && m_text[i] != quote) {
            if (m_text[i] == '\\') {
                if (i + 1 >= m_text.size())
                    break;
                const char escaped = m_text[i + 1];
                if (escaped != quote && escaped != '\\')
                    return error(i, std::string("unknown escape '\\") + escaped + "' in string (only \\"
                                        + quote + " and \\\\ are allowed)");
                token.value += escaped;
                i += 2;
                continue;
            }
            token.value += m_text[i];
            ++i;
        }
        if (i >= m_text.size())
            return error(m_pos, "unterminated string");
        token.kind = TokenKind::String;
        token.length = i + 1 - m_pos;
        m_pos = i + 1;
        return token;
    }

    Result<Token> punctuation(Token &token)
    {
        const char c = m_text[m_pos];
        const char following = m_pos + 1 < m_text.size() ? m_text[m_pos + 1] : '\0';
        token.kind = TokenKind::Operator;
        if ((c == '=' || c == '!' || c == '<' || c == '>') && following == '=') {
            token.length = 2;
        } else if (c == '<' || c == '>') {
            token.length = 1;
        } else if (c == '=') {
            return error(m_pos, "'=' is not an operator; use '==' to compare");
        } else if (c == '!') {
            return error(m_pos, "unexpected '!'; use '!=' to compare or 'not' to negate");
        } else if (c == '&' && following == '&') {
            return error(m_pos, "unexpected '&&'; use 'and'");
        } else if (c == '|' && following == '|') {
            return error(m_pos, "unexpected '||'; use 'or'");
        } else {
            return error(m_pos, "unexpected character '" + utf8CharacterAt(m_pos) + "'");
        }
        m_pos += token.length;
        return token;
    }

    std::string_view m_text;
    std::size_t m_pos = 0;
};

} // namespace

// Recursive descent over the lexer, one token of lookahead. Emits the postfix program directly.
class PredicateCompiler
{
public:
    PredicateCompiler(std::string_view text, const Table &table) : m_lexer(text), m_table(table) {}

    Result<std::vector<Predicate::Instruction>> run()
    {
        PBX_RETURN_IF_ERROR(advance());
        if (m_current.kind == TokenKind::End)
            return std::vector<Predicate::Instruction>{}; // empty text: match all
        PBX_RETURN_IF_ERROR(parseOr(0));
        if (m_current.kind == TokenKind::RightParen)
            return m_lexer.error(m_current.offset, "unexpected ')' without a matching '('");
        if (m_current.kind != TokenKind::End)
            return m_lexer.error(m_current.offset,
                                 "unexpected " + describe(m_current) + "; expected 'and', 'or' or the end");
        return std::move(m_program);
    }

private:
    using Instruction = Predicate::Instruction;
    using OpCode = Predicate::OpCode;
    using Comparison = Predicate::Comparison;

    static Instruction connective(OpCode op)
    {
        Instruction instruction;
        instruction.op = op;
        return instruction;
    }

    Result<void> advance()
    {
        PBX_TRY(token, m_lexer.next());
        m_current = std::move(token);
        return {};
    }

    std::string describe(const Token &token) const
    {
        switch (token.kind) {
        case TokenKind::End:
            return "end of text";
        case TokenKind::String:
            return "string " + truncated(m_lexer.source(token));
        case TokenKind::Number:
            return "number " + truncated(m_lexer.source(token));
        default:
            return "'" + truncated(m_lexer.source(token)) + "'";
        }
    }

    Result<void> parseOr(int depth)
    {
        if (auto left = parseAnd(depth); !left)
            return left;
        while (m_current.kind == TokenKind::Or) {
            if (auto moved = advance(); !moved)
                return moved;
            if (auto right = parseAnd(depth); !right)
                return right;
            m_program.push_back(connective(OpCode::Or));
        }
        return {};
    }

    Result<void> parseAnd(int depth)
    {
        if (auto left = parseUnary(depth); !left)
            return left;
        while (m_current.kind == TokenKind::And) {
            if (auto moved = advance(); !moved)
                return moved;
            if (auto right = parseUnary(depth); !right)
                return right;
            m_program.push_back(connective(OpCode::And));
        }
        return {};
    }

    Result<void> parseUnary(int depth)
    {
        // Refused at the '(' or 'not' that opens level maxNestingDepth + 1.
        const bool opensLevel = m_current.kind == TokenKind::Not || m_current.kind == TokenKind::LeftParen;
        if (opensLevel && depth >= Predicate::maxNestingDepth)
            return m_lexer.error(m_current.offset, "nested deeper than "
                                                       + std::to_string(Predicate::maxNestingDepth)
                                                       + " levels of parentheses and 'not'");
        switch (m_current.kind) {
        case TokenKind::Not: {
            if (auto moved = advance(); !moved)
                return moved;
            if (auto operand = parseUnary(depth + 1); !operand)
                return operand;
            m_program.push_back(connective(OpCode::Not));
            return {};
        }
        case TokenKind::LeftParen: {
            const std::size_t open = m_current.offset;
            if (auto moved = advance(); !moved)
                return moved;
            if (m_current.kind == TokenKind::RightParen)
                return m_lexer.error(m_current.offset, "empty parentheses");
            if (auto inner = parseOr(depth + 1); !inner)
                return inner;
            if (m_current.kind != TokenKind::RightParen)
                return m_lexer.error(m_current.offset, "expected ')' to close the '(' at character "
                                                           + std::to_string(m_lexer.column(open)) + ", found "
                                                           + describe(m_current));
            return advance();
        }
        case TokenKind::Identifier:
            return parseComparison();
        case TokenKind::End:
            return m_lexer.error(m_current.offset,
                                 "expected a condition (a column name, 'not' or '('), found end "
                                 "of text");
        default:
            return m_lexer.error(m_current.offset, "unexpected " + describe(m_current));
        }
    }

    Result<void> parseComparison()
    {
        const Token name = m_current;
        const std::optional<std::size_t> column = m_table.columnIndex(name.value);
        if (!column)
            return unknownColumn(name);
        const ColumnInfo &info = m_table.columnInfo(*column);

        if (auto moved = advance(); !moved)
            return moved;
        if (m_current.kind != TokenKind::Operator)
            return m_lexer.error(m_current.offset, "expected a comparison (== != < <= > >=) after '"
                                                       + name.value + "', found " + describe(m_current));
        const std::string_view opText = m_lexer.source(m_current);
        const Comparison comparison = parseOperator(opText);

        if (auto moved = advance(); !moved)
            return moved;
        const Token literal = m_current;
        if (literal.kind == TokenKind::Identifier
            && (equalsIgnoreCase(literal.value, "nan") || equalsIgnoreCase(literal.value, "inf")
                || equalsIgnoreCase(literal.value, "infinity")))
            return m_lexer.error(literal.offset, "NaN and infinite values are not allowed");
        if (literal.kind != TokenKind::Number && literal.kind != TokenKind::String) {
            std::string hint;
            if (literal.kind == TokenKind::Identifier && info.type == ColumnType::Categorical)
                hint = " (put text in quotes: \"" + truncated(literal.value) + "\")";
            return m_lexer.error(literal.offset, "expected a value after '" + std::string(opText)
                                                     + "', found " + describe(literal) + hint);
        }

        Instruction instruction;
        instruction.column = *column;
        instruction.columnName = info.name;
        instruction.comparison = comparison;
        if (info.type == ColumnType::Numeric) {
            if (literal.kind != TokenKind::Number)
                return m_lexer.error(name.offset,
                                     "column '" + info.name + "' is numeric; compare it with a number");
            instruction.op = OpCode::Numeric;
            instruction.number = literal.number;
        } else {
            if (literal.kind != TokenKind::String
                || (comparison != Comparison::Equal && comparison != Comparison::NotEqual))
                return m_lexer.error(name.offset, "column '" + info.name
                                                      + "' is categorical; compare it with a quoted string "
                                                        "using == or !=");
            instruction.op = OpCode::Categorical;
            instruction.label = literal.value;
            const auto &labels = info.categories;
            const auto found = std::find(labels.begin(), labels.end(), literal.value);
            // A declared (public) category list is a contract: a label outside it is a typo that
            // would otherwise be charged for rows that cannot exist. A list inferred from the data
            // is not checked, since refusing would disclose whether some row carries the label.
            if (found == labels.end() && !info.domainFromData)
                return unknownCategory(literal, info);
            instruction.code = found == labels.end() ? -1 : static_cast<std::int32_t>(found - labels.begin());
        }
        m_program.push_back(std::move(instruction));
        return advance();
    }

    static Comparison parseOperator(std::string_view op)
    {
        if (op == "==")
            return Comparison::Equal;
        if (op == "!=")
            return Comparison::NotEqual;
        if (op == "<")
            return Comparison::Less;
        if (op == "<=")
            return Comparison::LessEqual;
        if (op == ">")
            return Comparison::Greater;
        return Comparison::GreaterEqual; // the lexer emits no other operator
    }

    Error unknownColumn(const Token &name) const
    {
        std::vector<std::string> names;
        for (std::size_t i = 0; i < m_table.columnCount(); ++i)
            names.push_back(m_table.columnInfo(i).name);
        Error error = m_lexer.error(name.offset, "unknown column '" + truncated(name.value) + "'"
                                                     + suggestionAndList(name.value, names, "columns"));
        error.code = ErrorCode::NotFound;
        return error;
    }

    Error unknownCategory(const Token &literal, const ColumnInfo &info) const
    {
        Error error = m_lexer.error(
            literal.offset, "'" + truncated(literal.value) + "' is not a category of column '" + info.name
                                + "'" + suggestionAndList(literal.value, info.categories, "categories"));
        error.code = ErrorCode::NotFound;
        return error;
    }

    // "; did you mean 'x'? (names: a, b, …)": the closest candidate when it is plausibly a typo
    // (same text up to case, or at most two edits), then the first few candidates.
    static std::string suggestionAndList(const std::string &typed, const std::vector<std::string> &candidates,
                                         const std::string &what)
    {
        std::string best;
        std::size_t bestDistance = 3;
        for (const std::string &candidate : candidates) {
            if (typed.size() > 64 || candidate.size() > 64)
                continue;
            const std::size_t distance
                = equalsIgnoreCase(candidate, typed) ? 0 : editDistance(candidate, typed);
            if (distance < bestDistance) {
                bestDistance = distance;
                best = candidate;
            }
        }
        std::string message;
        if (!best.empty())
            message += "; did you mean '" + truncated(best) + "'?";
        message += " (" + what + ": ";
        constexpr std::size_t listed = 12;
        for (std::size_t i = 0; i < candidates.size() && i < listed; ++i)
            message += (i ? ", " : "") + truncated(candidates[i]);
        if (candidates.size() > listed)
            message += ", …";
        if (candidates.empty())
            message += "none";
        return message + ")";
    }

    Lexer m_lexer;
    const Table &m_table;
    Token m_current;
    std::vector<Instruction> m_program;
};

Result<Predicate> Predicate::compile(std::string_view text, const Table &table)
{
    if (text.size() > maxTextBytes)
        return makeError(ErrorCode::Parse, "predicate is " + std::to_string(text.size())
                                               + " bytes long; the limit is " + std::to_string(maxTextBytes));
    PBX_TRY(program, PredicateCompiler(text, table).run());
    Predicate predicate;
    predicate.m_text = std::string(text);
    predicate.m_program = std::move(program);
    return predicate;
}

namespace {

// The tight loops: one pass over a column writing 0/1 bytes, which compilers vectorise.
template<typename T, typename Compare>
void compareAll(std::span<const T> values, T literal, Compare compare, std::vector<std::uint8_t> &out)
{
    const std::size_t n = values.size();
    out.resize(n);
    const T *in = values.data();
    std::uint8_t *result = out.data();
    for (std::size_t i = 0; i < n; ++i)
        result[i] = static_cast<std::uint8_t>(compare(in[i], literal));
}

} // namespace

bool Predicate::pushComparison(const Rows &table, const Instruction &instruction,
                               std::vector<std::uint8_t> &out) const
{
    // Re-resolve when the table is not laid out like the one we compiled against.
    std::size_t column = instruction.column;
    if (column >= table.columnCount() || table.columnInfo(column).name != instruction.columnName) {
        const std::optional<std::size_t> found = table.columnIndex(instruction.columnName);
        if (!found)
            return false;
        column = *found;
    }
    const ColumnInfo &info = table.columnInfo(column);

    if (instruction.op == OpCode::Numeric) {
        if (info.type != ColumnType::Numeric)
            return false;
        const std::span<const double> values = table.numeric(column);
        const double x = instruction.number;
        switch (instruction.comparison) {
        case Comparison::Equal:
            compareAll(
                values, x, [](double a, double b) { return a == b; }, out);
            break;
        case Comparison::NotEqual:
            compareAll(
                values, x, [](double a, double b) { return a != b; }, out);
            break;
        case Comparison::Less:
            compareAll(
                values, x, [](double a, double b) { return a < b; }, out);
            break;
        case Comparison::LessEqual:
            compareAll(
                values, x, [](double a, double b) { return a <= b; }, out);
            break;
        case Comparison::Greater:
            compareAll(
                values, x, [](double a, double b) { return a > b; }, out);
            break;
        case Comparison::GreaterEqual:
            compareAll(
                values, x, [](double a, double b) { return a >= b; }, out);
            break;
        }
        return true;
    }

    if (info.type != ColumnType::Categorical)
        return false;
    // The compile-time code stands unless this table's dictionary differs; then match by text.
    std::int32_t code = instruction.code;
    const auto &labels = info.categories;
    if (code < 0 || static_cast<std::size_t>(code) >= labels.size()
        || labels[static_cast<std::size_t>(code)] != instruction.label) {
        const auto found = std::find(labels.begin(), labels.end(), instruction.label);
        code = found == labels.end() ? -1 : static_cast<std::int32_t>(found - labels.begin());
    }
    // An absent label (code −1) matches no row for ==, since every stored code is ≥ 0.
    const std::span<const std::int32_t> codes = table.codes(column);
    if (instruction.comparison == Comparison::Equal)
        compareAll(
            codes, code, [](std::int32_t a, std::int32_t b) { return a == b; }, out);
    else
        compareAll(
            codes, code, [](std::int32_t a, std::int32_t b) { return a != b; }, out);
    return true;
}

void Predicate::evaluate(const Rows &table, std::vector<std::uint8_t> &mask) const
{
    const std::size_t n = table.rowCount();
    if (m_program.empty()) {
        mask.assign(n, 1);
        return;
    }

    // Stack of masks; depth is bounded by the nesting limit, so at most a few hundred buffers.
    std::vector<std::vector<std::uint8_t>> stack(1);
    stack[0].swap(mask); // the caller's buffer becomes the first entry: one allocation fewer
    std::size_t top = 0; // number of live entries; buffers above it are kept for reuse
    auto push = [&]() -> std::vector<std::uint8_t> & {
        if (top == stack.size())
            stack.emplace_back();
        return stack[top++];
    };

    for (const Instruction &instruction : m_program) {
        switch (instruction.op) {
        case OpCode::Numeric:
        case OpCode::Categorical:
            if (!pushComparison(table, instruction, push())) {
                assert(!"Predicate::evaluate: table does not match the compiled schema");
                mask.assign(n, 0);
                return;
            }
            break;
        case OpCode::And:
        case OpCode::Or: {
            std::vector<std::uint8_t> &right = stack[--top];
            std::vector<std::uint8_t> &left = stack[top - 1];
            std::uint8_t *l = left.data();
            const std::uint8_t *r = right.data();
            if (instruction.op == OpCode::And) {
                for (std::size_t i = 0; i < n; ++i)
                    l[i] &= r[i];
            } else {
                for (std::size_t i = 0; i < n; ++i)
                    l[i] |= r[i];
            }
            break;
        }
        case OpCode::Not: {
            std::uint8_t *v = stack[top - 1].data();
            for (std::size_t i = 0; i < n; ++i)
                v[i] ^= 1;
            break;
        }
        }
    }
    assert(top == 1);
    mask.swap(stack[0]);
}

std::size_t Predicate::countMatches(const Rows &table) const
{
    if (m_program.empty())
        return table.rowCount();
    std::vector<std::uint8_t> mask;
    evaluate(table, mask);
    std::size_t count = 0;
    for (const std::uint8_t bit : mask)
        count += bit;
    return count;
}

} // namespace pbx::data
