// SPDX-License-Identifier: MIT
// A word-wrapping QLabel's minimum height kept at what its text needs at its width. Qt counts such
// a label as one line in its window's minimum size, and a layout short of room squeezes it below
// its text: the relative-error lab's texts took the chart's room, the lessons list's summary was
// cut after three lines. The label then has its height and the widgets with a stretch (a chart, a
// list) give up theirs.
#pragma once

class QLabel;

namespace pbx::ui {

/// Keeps `label`'s minimum height at heightForWidth(width) after each resize, font change and
/// show (only once laid out: a hidden label's width is not yet its real one). Lives as long as the label.
void keepWrappedHeight(QLabel *label);

/// Sets `label`'s minimum height at once, e.g. after a new text at the same width (no resize
/// follows a text change). Does nothing while the label is hidden.
void fitWrappedHeight(QLabel *label);

} // namespace pbx::ui
