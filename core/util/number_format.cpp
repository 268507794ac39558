// SPDX-License-Identifier: MIT
#include "core/util/number_format.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>

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

/// "1.000e-05" → "1e-05": trailing zeros of a mantissa say nothing.
std::string trimMantissa(std::string text)
{
    const auto e = text.find('e');
    auto end = e;
    while (end > 0 && text[end - 1] == '0')
        --end;
    if (end > 0 && text[end - 1] == '.')
        --end;
    return text.substr(0, end) + text.substr(e);
}

} // namespace

std::string formatDisplay(double x, Rounding rounding)
{
    if (std::isnan(x))
        return "n/a";
    if (std::isinf(x))
        return x > 0 ? "∞" : "−∞";
    char buffer[64];
    if (x == std::floor(x) && std::abs(x) < 1e15) {
        std::snprintf(buffer, sizeof buffer, "%.0f", x);
        return buffer;
    }
    const double magnitude = std::abs(x);
    const int exponent = static_cast<int>(std::floor(std::log10(magnitude)));
    int decimals = 3 - exponent; // four significant digits
    // Directed rounding at the last shown digit; nextafter keeps a value that is exactly on the
    // grid from moving a step (ceil(0.1·10⁴) must stay 1000).
    const double unit = std::pow(10.0, -decimals);
    const double inf = std::numeric_limits<double>::infinity();
    double rounded = std::round(x / unit) * unit;
    if (rounding == Rounding::Up)
        rounded = std::ceil(std::nextafter(x / unit, -inf)) * unit;
    else if (rounding == Rounding::Down)
        rounded = std::floor(std::nextafter(x / unit, inf)) * unit;
    if (std::abs(rounded) >= std::pow(10.0, exponent + 1)) // 0.099996 became 0.1000: still four digits
        --decimals;
    if (magnitude >= 1e-4 && magnitude < 1e7) {
        std::snprintf(buffer, sizeof buffer, "%.*f", std::max(0, decimals), rounded);
        return buffer;
    }
    std::snprintf(buffer, sizeof buffer, "%.3e", rounded);
    return trimMantissa(buffer);
}

} // namespace pbx
