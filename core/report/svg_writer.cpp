// SPDX-License-Identifier: MIT
#include "core/report/svg_writer.h"

#include <cmath>
#include <cstdio>

namespace pbx::report {

std::string xmlEscape(std::string_view text)
{
    std::string out;
    out.reserve(text.size());
    for (char c : text) {
        switch (c) {
        case '&':
            out += "&amp;";
            break;
        case '<':
            out += "&lt;";
            break;
        case '>':
            out += "&gt;";
            break;
        case '"':
            out += "&quot;";
            break;
        case '\'':
            out += "&#39;";
            break;
        default:
            out += c;
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
