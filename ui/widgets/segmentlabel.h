// SPDX-License-Identifier: MIT
// A one-line label for a text made of " · "-separated parts (the status bar's mode: filter,
// noise, budget, neighbouring, a seeded-noise warning) that never shows more than its width
// holds: where the whole text does not fit, the parts that do not fit are each replaced by "…"
// (the first part and warnings, marked "⚠", are kept), and what is still too long is elided at
// its end. The whole text is the tooltip. Before, the mode was cut at the label's left edge in
// presentation mode on a 1024-px projector ("ter · Gaussian noise · …").
#pragma once

#include <QLabel>
#include <QString>

QT_FORWARD_DECLARE_CLASS(QFontMetrics)

namespace pbx::ui {

class SegmentLabel final : public QLabel
{
    Q_OBJECT
public:
    explicit SegmentLabel(QWidget *parent = nullptr);

    /// Sets the whole text (also the tooltip); what is shown is fitted to the width.
    void setFullText(const QString &text);
    QString fullText() const { return m_full; }

    /// `text` fitted to `width` pixels of `metrics`: the whole text when it fits; else parts
    /// (split at " · ") dropped as above; the result's advance is at most `width`.
    static QString fitted(const QString &text, const QFontMetrics &metrics, int width);

protected:
    void resizeEvent(QResizeEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    void refit();
    QString m_full;
};

} // namespace pbx::ui
