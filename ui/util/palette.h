// SPDX-License-Identifier: MIT
// The app's named colours, in one place: text roles (muted, error, warning, …) and the series
// colours the charts share, so that the same thing has the same colour everywhere (the ε spend is
// the same blue in the path chart, the noise-reduction chart and the lab; budgets and refusals the
// same red). Style sheets take them through name() ("#rrggbb").
#pragma once

#include <QColor>
#include <QString>

namespace pbx::ui::palette {

// --- Text ---------------------------------------------------------------------------------------

/// Secondary text: hints, notes, previews, subtitles.
inline constexpr QColor mutedText(0x5f, 0x63, 0x68);
/// An input the app cannot use (a bad predicate, invalid settings).
inline constexpr QColor errorText(0xb3, 0x26, 0x1e);
/// Caution: seeded noise, an invalid request, a target not proven.
inline constexpr QColor warningText(0x8a, 0x53, 0x00);
/// Background of warning badges and banners.
inline constexpr QColor warningBackground(0xfd, 0xf0, 0xd5);
/// Text on a warning banner (darker than warningText, for long text on warningBackground).
inline constexpr QColor bannerText(0x6b, 0x41, 0x00);
/// A refused request.
inline constexpr QColor refusedText(0x9b, 0x1c, 0x1c);
/// A target met, a release made.
inline constexpr QColor successText(0x1f, 0x6b, 0x3f);
/// Placeholders and "nothing happens" references (random guessing, no change).
inline constexpr QColor neutralGrey(0x80, 0x86, 0x8b);

// --- Chart series -------------------------------------------------------------------------------

/// Budget lines, refused requests, a target not met, δ and ε markers.
inline constexpr QColor chartRed(0xc6, 0x3b, 0x34);
/// The ε spend and released estimates.
inline constexpr QColor chartBlue(0x25, 0x63, 0xc9);
/// Native ρ spend (zCDP).
inline constexpr QColor chartPurple(0x7b, 0x4f, 0xb3);
/// The ex-post side.
inline constexpr QColor chartTeal(0x0f, 0x8a, 0x7e);
/// A target met.
inline constexpr QColor chartGreen(0x1f, 0x8a, 0x4c);
/// Near-black reference curves (the PLD, ε at δ by order).
inline constexpr QColor chartInk(0x22, 0x22, 0x22);
/// Grey markers and the text of a chart's message.
inline constexpr QColor chartMarker(0x55, 0x55, 0x55);

/// A QLabel style sheet setting only the text colour.
inline QString labelColourStyle(const QColor &colour)
{
    return QStringLiteral("QLabel { color: %1; }").arg(colour.name());
}

} // namespace pbx::ui::palette
