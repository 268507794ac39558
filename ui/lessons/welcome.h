// SPDX-License-Identifier: MIT
// The first-run welcome: once per user (AppSettings::lessonsWelcomeShown), a short message that
// offers the guided lessons. The pbx application calls it after showing its window; tests, which
// construct MainWindow themselves, never see it, and it is skipped on platforms without a
// screen to answer it on (offscreen, minimal).
#pragma once

namespace pbx::ui {

class MainWindow;

/// Shows the welcome unless it was shown before or the platform has no screen; "Show lessons"
/// opens Help ▸ Lessons. Records that it was shown either way. True when it was shown.
bool offerLessonsOnFirstRun(MainWindow &window);

} // namespace pbx::ui
