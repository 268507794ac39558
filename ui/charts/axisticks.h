// SPDX-License-Identifier: MIT
// Nice axis ranges and ticks shared by every chart (1, 2, 2.5, 5 × 10^k steps).
#pragma once

class QValueAxis;

namespace pbx::ui {

/// The smallest of 1, 2, 2.5, 5 × 10^k that is ≥ `raw` (raw > 0).
double niceStep(double raw);

/// 1, 2 or 5 × 10^k, at least 1, so that about `targetTicks` ticks cover `range` (integer axes:
/// steps, requests).
double niceIntegerInterval(double range, int targetTicks);

/// Qt 6.4 caches a value axis's label width across range changes, eliding new labels to "0.0…";
/// re-setting the label format makes it measure them again.
void refreshLabelWidth(QValueAxis *axis);

/// The axis from 0 to the first nice multiple ≥ `max`, with about `intervals` intervals
/// (applyNiceNumbers() tends to overshoot by half the range). A non-positive max becomes 1.
void setNiceRange(QValueAxis *axis, double max, int intervals = 5);

/// Dynamic ticks every nice step, anchored at 0, over [min, max] (a signed value axis).
void setNiceTicks(QValueAxis *axis, double min, double max, int targetTicks);

} // namespace pbx::ui
