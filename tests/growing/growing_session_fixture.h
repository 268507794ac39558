// SPDX-License-Identifier: MIT
// The set-up the growing-stream session tests share (growing.session, growing.improversession,
// growing.nsgsession, growing.pmwgsession): the embedded CPS1988 table, a request parsed from one
// run-file line, and a seeded replace-one session over the table with a given filter and ε.
#pragma once

#include "core/io/request_json.h"
#include "core/session/session.h"
#include "resources/dataset_catalog.h"

#include <QtGlobal>

#include <memory>
#include <string>

namespace pbx::growing_fixture {

/// The embedded CPS1988 table (28155 rows), loaded once.
inline std::shared_ptr<const data::Table> cps()
{
    static std::shared_ptr<const data::Table> table
        = std::make_shared<const data::Table>(std::move(*resources::loadDataset("cps1988")));
    return table;
}

/// One run-file line as a request; a parse error fails the test binary (the line is the test's own).
inline session::QueryRequest request(const std::string &text)
{
    auto r = io::readRequestLine(text, 1);
    if (!r)
        qFatal("%s", r.error().message.c_str());
    return *r;
}

/// A session over cps() with seed 11.
inline std::unique_ptr<session::Session> openSession(filters::FilterKind filter, double epsilon,
                                                     data::Neighbouring neighbours
                                                     = data::Neighbouring::Replace)
{
    session::SessionSettings s;
    s.epsilon = epsilon;
    s.filter = filter;
    s.neighbours = neighbours;
    s.seed = 11;
    auto created = session::Session::create(cps(), s);
    return std::move(created.value());
}

} // namespace pbx::growing_fixture
