// SPDX-License-Identifier: MIT
#include "core/util/number_format.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace pbx {

std::string formatSignificant(double x, int significant)
{
    char buffer[48];
    std::snprintf(buffer, sizeof buffer, "%.*g", std::clamp(significant, 1, 17), x);
    return buffer;
}

std::string formatShortest(double x)
{
    char buffer[32];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, x);
    return std::string(buffer, result.ptr);
}

std::string formatDirected(double x, int significant, Rounding rounding)
{
    if (!std::isfinite(x) || x == 0.0 || rounding == Rounding::Nearest)
        return formatSignificant(x, significant);
    const bool up = rounding == Rounding::Up;
    const int exponent = static_cast<int>(std::floor(std::log10(std::fabs(x))));
    const double unit = std::pow(10.0, exponent - significant + 1);
    double rounded = (up ? std::ceil(x / unit) : std::floor(x / unit)) * unit;
    std::string text = formatSignificant(rounded, significant);
    const double back = std::strtod(text.c_str(), nullptr);
    if (up ? back < x : back > x) {
        rounded += up ? unit : -unit;
        text = formatSignificant(rounded, significant);
    }
    return text;
}

namespace {

/// Drops the trailing zeros of a decimal fraction ("2.500" → "2.5", "3.000" → "3").
std::string stripTrailingZeros(std::string text)
{
    if (text.find('.') == std::string::npos)
        return text;
    while (!text.empty() && text.back() == '0')
        text.pop_back();
    if (!text.empty() && text.back() == '.')
        text.pop_back();
    return text;
}

/// "1234567.5" → "1,234,567.5" (the integer part in groups of three).
std::string groupThousands(const std::string &text)
{
    const std::size_t sign = !text.empty() && text[0] == '-' ? 1 : 0;
    const std::size_t point = std::min(text.find('.'), text.size());
    std::string out = text.substr(0, sign);
    for (std::size_t i = sign; i < point; ++i) {
        out += text[i];
        const std::size_t left = point - i - 1;
        if (left > 0 && left % 3 == 0)
            out += ',';
    }
    return out + text.substr(point);
}

/// x on the grid of multiples of `unit`, in `rounding`'s direction (Up or Down); values within 1e-12 relative
/// of a grid point beyond them stay on it (formatDisplay's rule for the accountants' pads).
double toGrid(double x, double unit, Rounding rounding)
{
    const double tolerance = 1e-12 * std::fabs(x);
    if (rounding == Rounding::Up) {
        const double down = std::floor(x / unit) * unit;
        return x - down > tolerance ? std::max(down + unit, std::ceil(x / unit) * unit) : down;
    }
    const double up = std::ceil(x / unit) * unit;
    return up - x > tolerance ? std::min(up - unit, std::floor(x / unit) * unit) : up;
}

/// "1.500e-07" → "1.5e-7", "2.500e+10" → "2.5e10": mantissa without trailing zeros, exponent without
/// leading zeros.
std::string scientific(double x, int significant)
{
    char buffer[48];
    std::snprintf(buffer, sizeof buffer, "%.*e", std::max(0, significant - 1), x);
    std::string text = buffer;
    const auto e = text.find('e');
    std::string mantissa = stripTrailingZeros(text.substr(0, e));
    std::string exponent = text.substr(e + 1);
    const char sign = exponent[0];
    exponent.erase(0, 1);
    while (exponent.size() > 1 && exponent[0] == '0')
        exponent.erase(0, 1);
    return mantissa + 'e' + (sign == '-' ? "-" : "") + exponent;
}

} // namespace

std::string formatDisplay(double x, Rounding rounding, int significant, bool grouped)
{
    if (std::isnan(x))
        return "NaN";
    if (std::isinf(x))
        return x > 0 ? "∞" : "−∞";
    if (x == 0.0)
        return "0";
    significant = std::clamp(significant, 1, 17);
    const int exponent = static_cast<int>(std::floor(std::log10(std::fabs(x))));
    const bool plain = std::fabs(x) >= 1e-4 && std::fabs(x) < 1e9;
    // Plain notation keeps every digit of the integer part: its grid is at most 1 wide.
    const int lastDigit = plain ? std::min(0, exponent - significant + 1) : exponent - significant + 1;
    // Nearest: printf rounds the exact binary value itself (no second rounding on a grid).
    const double shown = rounding == Rounding::Nearest ? x : toGrid(x, std::pow(10.0, lastDigit), rounding);
    const double magnitude = std::fabs(shown);
    if (magnitude < 1e-4 || magnitude >= 1e9)
        return scientific(shown, significant);
    // Rounding may carry into the next power of ten (0.099996 → 0.1): count digits from the shown value.
    const int shownExponent = static_cast<int>(std::floor(std::log10(magnitude)));
    const int decimals = std::max(0, significant - 1 - shownExponent);
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.*f", decimals, shown);
    const std::string text = stripTrailingZeros(buffer);
    return grouped ? groupThousands(text) : text;
}

} // namespace pbx
