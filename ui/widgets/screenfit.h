// SPDX-License-Identifier: MIT
// Windows open inside the screen they appear on: a preferred size is kept where there is room and
// shrunk to the available area on a small screen such as a 1024×700 projector.
#pragma once

#include <QSize>

class QWidget;

namespace pbx::ui {

/// Resizes the top-level `window` to `preferred` (pixels), bounded by its screen's available
/// geometry (the whole screen minus panels and docks) less the window manager's frame when a
/// window on screen shows it, and never below the window's minimum size. A window without a
/// screen (none attached yet) gets `preferred`.
void resizeWithinScreen(QWidget *window, QSize preferred);

/// Once `window` is shown and its frame (title bar, borders) is known: shrinks and moves it so the
/// frame lies inside its screen's available area (a window sized to the whole area is taller
/// than the screen by its title bar). A maximised or full-screen window is left alone.
void fitFrameInsideScreen(QWidget *window);

/// Calls fitFrameInsideScreen(window) each time the top-level `window` is shown, once the event
/// loop has placed it, and again once the window manager has put it into its frame (within 3 s):
/// a lab or a floating dock sized to a 1024×768 screen had its frame 4 px outside it, and under
/// Xvfb + openbox, whose frame is known only after the window is mapped, its 25-px title bar and
/// border pushed the bottom row (Close, the progress bar) off the screen.
void keepFrameInsideScreen(QWidget *window);

/// The same for the next Show only (or now, if `window` is shown): the main window's first size.
void fitFrameOnceShown(QWidget *window);

} // namespace pbx::ui
