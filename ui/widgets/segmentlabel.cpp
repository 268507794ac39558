// SPDX-License-Identifier: MIT
#include "ui/widgets/segmentlabel.h"

#include <QEvent>
#include <QFontMetrics>
#include <QStringList>

namespace pbx::ui {

SegmentLabel::SegmentLabel(QWidget *parent) : QLabel(parent)
{
    setTextFormat(Qt::PlainText);
    // The label never widens its row: it shows what its width holds.
    setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
}

void SegmentLabel::setFullText(const QString &text)
{
    m_full = text;
    setToolTip(text);
    refit();
}

void SegmentLabel::resizeEvent(QResizeEvent *event)
{
    QLabel::resizeEvent(event);
    refit();
}

void SegmentLabel::changeEvent(QEvent *event)
{
    QLabel::changeEvent(event);
    if (event->type() == QEvent::FontChange || event->type() == QEvent::StyleChange)
        refit();
}

void SegmentLabel::refit()
{
    const QString shown = fitted(m_full, fontMetrics(), contentsRect().width());
    if (shown != text())
        setText(shown);
}

QString SegmentLabel::fitted(const QString &text, const QFontMetrics &metrics, int width)
{
    if (metrics.horizontalAdvance(text) <= width)
        return text;
    const QString separator = QStringLiteral(" · ");
    const QString omitted = QStringLiteral("…");
    const QStringList parts = text.split(separator);
    const auto kept = [&](int i) { return i == 0 || parts[i].startsWith(QChar(0x26A0)); }; // ⚠
    // The kept parts first, then each other part in order where it still fits; one "…" stands
    // for each run of dropped parts.
    std::vector<bool> shown(static_cast<std::size_t>(parts.size()));
    for (int i = 0; i < parts.size(); ++i)
        shown[static_cast<std::size_t>(i)] = kept(i);
    const auto compose = [&] {
        QStringList out;
        for (int i = 0; i < parts.size(); ++i) {
            if (shown[static_cast<std::size_t>(i)])
                out << parts[i];
            else if (out.isEmpty() || out.back() != omitted)
                out << omitted;
        }
        return out.join(separator);
    };
    for (int i = 0; i < parts.size(); ++i) {
        if (kept(i))
            continue;
        shown[static_cast<std::size_t>(i)] = true;
        if (metrics.horizontalAdvance(compose()) > width)
            shown[static_cast<std::size_t>(i)] = false;
    }
    return metrics.elidedText(compose(), Qt::ElideRight, std::max(width, 0));
}

} // namespace pbx::ui
