// SPDX-License-Identifier: MIT
// A small SVG 1.1 writer for the session report's charts: SVG is plain XML text, so the report
// needs no drawing library and the same bytes go into the HTML file and, through QSvgRenderer,
// into the PDF.
#pragma once

#include <string>
#include <string_view>

namespace pbx::report {

/// Escapes &, <, >, " and ' for XML text and attribute values, so that the result is always
/// well-formed XML 1.0 and HTML text whatever the input: C0 control characters other than TAB,
/// LF and CR (and DEL) become their Control Pictures symbol (U+0001 → U+2401 "␁"); C1 controls,
/// U+FFFE, U+FFFF and bytes that are not UTF-8 become U+FFFD.
std::string xmlEscape(std::string_view text);

/// Builds one <svg> element. Coordinates are user units (pixels at 100 %), y pointing down.
class SvgWriter
{
public:
    /// `width`, `height` > 0: the viewBox and the nominal size. `title` becomes <title> (the
    /// chart's accessible name).
    SvgWriter(double width, double height, std::string_view title);

    /// A straight segment; `dash` non-empty sets stroke-dasharray (e.g. "6 4").
    void line(double x1, double y1, double x2, double y2, std::string_view colour, double width = 1.0,
              std::string_view dash = {});
    /// An open polyline through `points` ("x,y x,y …").
    void polyline(std::string_view points, std::string_view colour, double width = 2.0);
    void rect(double x, double y, double w, double h, std::string_view fill,
              std::string_view stroke = "none");
    void circle(double cx, double cy, double r, std::string_view fill);
    /// Text at (x, y) (baseline); `anchor` is "start", "middle" or "end"; `size` in px.
    void text(double x, double y, std::string_view content, std::string_view anchor = "start",
              double size = 12.0, std::string_view colour = "#222", bool bold = false);

    /// The finished document (closes the root element; call once).
    std::string finish();

private:
    std::string m_out;
};

/// A number for an SVG attribute: fixed, at most two decimals, no exponent.
std::string svgNumber(double x);

} // namespace pbx::report
