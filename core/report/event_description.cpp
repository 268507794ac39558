// SPDX-License-Identifier: MIT
#include "core/report/event_description.h"

#include "core/session/growing/growing_release.h"
#include "core/session/growing/growing_smalldb.h"

namespace pbx::report {

EventKind eventKind(const session::LedgerEvent &event)
{
    if (event.status == session::EventStatus::Refused)
        return EventKind::Refused;
    if (event.request.odp() && event.odpRecord())
        return EventKind::OutputDp;
    if (event.request.growing() && event.growingRecord()) {
        if (event.growingRecord()->pmwg)
            return EventKind::PmwgStream;
        return event.growingRecord()->nsg ? EventKind::NsgStream : EventKind::RunStream;
    }
    return EventKind::Release;
}

std::vector<std::string> eventNotes(const session::LedgerEvent &event)
{
    std::vector<std::string> notes;
    if (!event.reason.empty())
        notes.push_back(event.reason);
    if (!event.accounting.empty())
        notes.push_back("Accounting: " + event.accounting);
    return notes;
}

namespace {

RunLine runLine(const session::LedgerEvent &event, std::size_t i)
{
    RunLine line;
    line.label = session::growingEpochLabel(event, i);
    const auto &record = *event.growingRecord();
    if (record.nsg) {
        if (i < record.nsg->hard.size()) {
            line.values = {record.nsg->hard[i].answer};
            line.query = record.nsg->hard[i].query;
            line.scale = record.nsg->hard[i].scale;
        }
        return line;
    }
    const auto &epoch = record.epochs[i];
    line.values = epoch.answers;
    line.bound = epoch.bound;
    line.scale = epoch.scale;
    line.beta = epoch.beta;
    if (event.request.growing()->algorithm == session::GrowingAlgorithm::SmallDb)
        line.database = session::smallDbDatabaseText(epoch);
    return line;
}

} // namespace

RunLines streamRunLines(const session::LedgerEvent &event, std::size_t keepEachEnd)
{
    RunLines lines;
    if (!event.request.growing() || !event.growingRecord() || event.growingRecord()->pmwg)
        return lines;
    const auto &record = *event.growingRecord();
    const std::size_t count = record.nsg ? record.nsg->rounds.size() : record.epochs.size();
    const bool elide = keepEachEnd > 0 && count > 2 * keepEachEnd;
    for (std::size_t i = 0; i < count; ++i) {
        if (elide && i == keepEachEnd) {
            lines.elided = count - 2 * keepEachEnd;
            i = count - keepEachEnd - 1;
            continue;
        }
        (elide && i >= keepEachEnd ? lines.last : lines.first).push_back(runLine(event, i));
    }
    return lines;
}

} // namespace pbx::report
