// SPDX-License-Identifier: MIT
#include "core/report/svg_writer.h"

#include <cmath>
#include <cstdio>

namespace pbx::report {

namespace {

/// Length of the well-formed UTF-8 sequence at text[i] (1–4), or 0 when the bytes there are not
/// one (a stray continuation byte, a truncated or overlong sequence, a surrogate, > U+10FFFF).
std::size_t utf8SequenceAt(std::string_view text, std::size_t i, char32_t &codePoint)
{
    const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
    const unsigned char lead = byte(i);
    std::size_t length = 0;
    char32_t minimum = 0;
    if (lead < 0x80) {
        codePoint = lead;
        return 1;
    } else if ((lead & 0xE0) == 0xC0) {
        length = 2, codePoint = lead & 0x1F, minimum = 0x80;
    } else if ((lead & 0xF0) == 0xE0) {
        length = 3, codePoint = lead & 0x0F, minimum = 0x800;
    } else if ((lead & 0xF8) == 0xF0) {
        length = 4, codePoint = lead & 0x07, minimum = 0x10000;
    } else {
        return 0;
    }
    if (i + length > text.size())
        return 0;
    for (std::size_t k = 1; k < length; ++k) {
        if ((byte(i + k) & 0xC0) != 0x80)
            return 0;
        codePoint = (codePoint << 6) | (byte(i + k) & 0x3F);
    }
    if (codePoint < minimum || codePoint > 0x10FFFF || (codePoint >= 0xD800 && codePoint <= 0xDFFF))
        return 0;
    return length;
}

constexpr std::string_view kReplacement = "\xEF\xBF\xBD"; // U+FFFD

} // namespace

std::string xmlEscape(std::string_view text)
{
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size();) {
        char32_t cp = 0;
        const std::size_t length = utf8SequenceAt(text, i, cp);
        if (length == 0) { // not UTF-8: one U+FFFD per byte
            out += kReplacement;
            ++i;
            continue;
        }
        const std::string_view sequence = text.substr(i, length);
        i += length;
        switch (cp) {
        case '&':
            out += "&amp;";
            continue;
        case '<':
            out += "&lt;";
            continue;
        case '>':
            out += "&gt;";
            continue;
        case '"':
            out += "&quot;";
            continue;
        case '\'':
            out += "&#39;";
            continue;
        case '\t':
        case '\n':
        case '\r':
            out += sequence;
            continue;
        default:
            break;
        }
        if (cp < 0x20 || cp == 0x7F) {
            // C0 controls and DEL are not allowed in XML 1.0 (not even as &#…;) and are parse
            // errors in HTML: shown as their Control Pictures symbol (U+2400 + c, U+2421).
            const char32_t picture = cp == 0x7F ? 0x2421 : 0x2400 + cp;
            out += static_cast<char>(0xE0 | (picture >> 12));
            out += static_cast<char>(0x80 | ((picture >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (picture & 0x3F));
        } else if ((cp >= 0x80 && cp <= 0x9F) || cp == 0xFFFE || cp == 0xFFFF) {
            out += kReplacement; // C1 controls and the two non-characters XML 1.0 excludes
        } else {
            out += sequence;
        }
    }
    return out;
}

std::string svgNumber(double x)
{
    if (!std::isfinite(x))
        x = 0.0;
    char buffer[48];
    std::snprintf(buffer, sizeof buffer, "%.2f", x);
    return buffer;
}

SvgWriter::SvgWriter(double width, double height, std::string_view title)
{
    const std::string w = svgNumber(width), h = svgNumber(height);
    m_out = "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"" + w + "\" height=\"" + h
            + "\" viewBox=\"0 0 " + w + " " + h
            + "\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\">" + "<title>" + xmlEscape(title)
            + "</title>";
    rect(0, 0, width, height, "#ffffff");
}

void SvgWriter::line(double x1, double y1, double x2, double y2, std::string_view colour, double width,
                     std::string_view dash)
{
    m_out += "<line x1=\"" + svgNumber(x1) + "\" y1=\"" + svgNumber(y1) + "\" x2=\"" + svgNumber(x2)
             + "\" y2=\"" + svgNumber(y2) + "\" stroke=\"" + xmlEscape(colour) + "\" stroke-width=\""
             + svgNumber(width) + "\"";
    if (!dash.empty())
        m_out += " stroke-dasharray=\"" + xmlEscape(dash) + "\"";
    m_out += "/>";
}

void SvgWriter::polyline(std::string_view points, std::string_view colour, double width)
{
    m_out += "<polyline fill=\"none\" points=\"" + xmlEscape(points) + "\" stroke=\"" + xmlEscape(colour)
             + "\" stroke-width=\"" + svgNumber(width) + "\"/>";
}

void SvgWriter::rect(double x, double y, double w, double h, std::string_view fill, std::string_view stroke)
{
    m_out += "<rect x=\"" + svgNumber(x) + "\" y=\"" + svgNumber(y) + "\" width=\"" + svgNumber(w)
             + "\" height=\"" + svgNumber(h) + "\" fill=\"" + xmlEscape(fill) + "\" stroke=\""
             + xmlEscape(stroke) + "\"/>";
}

void SvgWriter::circle(double cx, double cy, double r, std::string_view fill)
{
    m_out += "<circle cx=\"" + svgNumber(cx) + "\" cy=\"" + svgNumber(cy) + "\" r=\"" + svgNumber(r)
             + "\" fill=\"" + xmlEscape(fill) + "\"/>";
}

void SvgWriter::text(double x, double y, std::string_view content, std::string_view anchor, double size,
                     std::string_view colour, bool bold)
{
    m_out += "<text x=\"" + svgNumber(x) + "\" y=\"" + svgNumber(y) + "\" text-anchor=\"" + xmlEscape(anchor)
             + "\" font-size=\"" + svgNumber(size) + "\" fill=\"" + xmlEscape(colour) + "\"";
    if (bold)
        m_out += " font-weight=\"bold\"";
    m_out += ">" + xmlEscape(content) + "</text>";
}

std::string SvgWriter::finish()
{
    m_out += "</svg>";
    return std::move(m_out);
}

} // namespace pbx::report
