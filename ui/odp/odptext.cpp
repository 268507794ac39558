// SPDX-License-Identifier: MIT
#include "ui/odp/odptext.h"

#include "core/report/event_description.h"
#include "ui/util/numberformat.h"

namespace pbx::ui {

QString describeOdpRequest(const session::QueryRequest &request)
{
    const auto *spec = request.odp();
    return spec ? toQString(report::describeOdpRequest(*spec)) : QString();
}

double odpReturnedEpsilon(const session::LedgerEvent &event)
{
    return report::odpReturnedEpsilon(event);
}

QString odpOutcomeText(const session::LedgerEvent &event)
{
    return toQString(report::odpOutcomeText(event));
}

QString odpHeadline(const session::LedgerEvent &event)
{
    return toQString(report::odpHeadline(event));
}

} // namespace pbx::ui
