// SPDX-License-Identifier: MIT
// Early-return macros for Result<T>: they replace the hand-written
// `if (auto r = f(); !r) return r.error();` pattern where it shortens the code.
#pragma once

#include "core/util/result.h"

/// Returns the error of a failed Result expression from the enclosing function (whose return
/// type is any Result<U>); evaluates `expr` once.
#define PBX_RETURN_IF_ERROR(expr)                                                                            \
    do {                                                                                                     \
        if (auto pbxReturnIfError_ = (expr); !pbxReturnIfError_.ok())                                        \
            return pbxReturnIfError_.error();                                                                \
    } while (false)

/// Declares `var` as a reference to the value of the Result<T> expression `expr`, or returns its
/// error from the enclosing function. The Result lives in the hidden variable var##PbxResult_.
#define PBX_TRY(var, expr)                                                                                   \
    auto var##PbxResult_ = (expr);                                                                           \
    if (!var##PbxResult_.ok())                                                                               \
        return var##PbxResult_.error();                                                                      \
    auto &var = var##PbxResult_.value()
