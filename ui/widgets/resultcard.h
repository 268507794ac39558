// SPDX-License-Identifier: MIT
// The outcome of the last request: the released answer with its error bar, confidence, whether
// the accuracy target was met, the mechanism, the cost (in the unit it was charged in, with its δ
// and how it was accounted) and the attempts; or the refusal and its
// reason; or why the request was invalid (nothing recorded); or, while a request runs off the GUI
// thread (a database source), that it is being asked, with a busy bar and Cancel.
#pragma once

#include "core/filters/privacy_filter.h"
#include "core/session/ledger_event.h"

#include <QFrame>

QT_FORWARD_DECLARE_CLASS(QLabel)
QT_FORWARD_DECLARE_CLASS(QProgressBar)
QT_FORWARD_DECLARE_CLASS(QPushButton)

namespace pbx::ui {

class ResultCard final : public QFrame
{
    Q_OBJECT
public:
    enum class State { Empty, Released, Refused, Invalid, Asking, Cancelled };

    explicit ResultCard(QWidget *parent = nullptr);

    void showLedgerEvent(const session::LedgerEvent &event, const filters::PrivacyFilter &filter);
    /// `spent`: the request was charged but its answer withheld (its journal line failed).
    void showError(const QString &message, bool spent = false);
    void clear();
    /// A request is being asked of the database at `location` (data::Source::location()): a busy
    /// bar and Cancel (cancelRequested()), and that nothing is spent before the answer is computed.
    void showAsking(const QString &location);
    /// Cancel was pressed: the button says so and is disabled until the request ends.
    void showCancelling();
    /// The request was cancelled before anything was spent: `message` says what stopped.
    void showCancelled(const QString &message);
    /// The Cancel button (visible while asking).
    QPushButton *cancelButton() const { return m_cancel; }
    /// The busy bar (visible while asking).
    QProgressBar *busyBar() const { return m_busy; }

    State state() const { return m_state; }
    /// The headline as shown: "28,155 ± 12.3", "Refused", …
    QString headline() const;
    /// The details as plain text (the label's rich text links glossary terms).
    QString details() const;
    /// The note under the details: the reason or remark, and how the cost was accounted (plain).
    QString note() const;
    /// The note's tooltip: the exact noise parameters its accounting line shows rounded
    /// ("σ² = 1425840514581/2147483648"); empty when there are none.
    QString noteToolTip() const;

Q_SIGNALS:
    /// The Cancel button was pressed while asking.
    void cancelRequested();

private:
    /// Shows or hides the busy bar and Cancel (only while asking).
    void setAskingRow(bool visible);
    void setBadge(const QString &text, const QString &background, const QString &foreground);
    // showLedgerEvent by event kind (report::EventKind); `spent` is the filter's spend after it.
    void showRefused(const session::LedgerEvent &event, const QString &spent);
    /// Returns the notes it adds above the reason and accounting (the released counts).
    QStringList showOutputDp(const session::LedgerEvent &event, const QString &spent);
    void showPmwgStream(const session::LedgerEvent &event, const QString &spent);
    void showNsgStream(const session::LedgerEvent &event, const QString &spent);
    void showRunStream(const session::LedgerEvent &event, const QString &spent);
    void showRelease(const session::LedgerEvent &event, const filters::PrivacyFilter &filter,
                     const QString &spent);
    /// The note: `before`, then the event's reason and accounting (report::eventNotes).
    void showNotes(const session::LedgerEvent &event, const QStringList &before = {});
    static QString costText(const session::LedgerEvent &event, const filters::PrivacyFilter &filter);

    QLabel *m_badge = nullptr;
    QLabel *m_title = nullptr;
    QLabel *m_headline = nullptr;
    QLabel *m_details = nullptr;
    QLabel *m_note = nullptr;
    QProgressBar *m_busy = nullptr;
    QPushButton *m_cancel = nullptr;
    State m_state = State::Empty;
};

} // namespace pbx::ui
