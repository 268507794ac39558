// SPDX-License-Identifier: MIT
// The types tests pass through QFETCH, declared to Qt's meta-type system once for all tests, in the
// tests' precompiled header (cmake/PbxTesting.cmake): in a test bundle's unity batch a second
// Q_DECLARE_METATYPE of one type would be a redefinition, and a declaration after another source
// of the batch used the type, a specialization after instantiation.
#pragma once

#include "core/data/query.h"
#include "core/data/sensitivity.h"
#include "core/filters/privacy_filter.h"
#include "core/mechanisms/noise_kind.h"
#include "core/session/mechanism_choice.h"
#include "core/util/result.h"

#include <QMetaType>
#include <string>
#include <vector>

Q_DECLARE_METATYPE(std::string)
Q_DECLARE_METATYPE(std::vector<double>)
Q_DECLARE_METATYPE(pbx::ErrorCode)
Q_DECLARE_METATYPE(pbx::data::Aggregate)
Q_DECLARE_METATYPE(pbx::data::Neighbouring)
Q_DECLARE_METATYPE(pbx::filters::FilterKind)
Q_DECLARE_METATYPE(pbx::mechanisms::NoiseKind)
Q_DECLARE_METATYPE(pbx::session::ReleaseMethod)
