// SPDX-License-Identifier: MIT
// libFuzzer target: Predicate::compile against the fixture table, then evaluate on it and on a reordered copy
// (fuzz_checks.h).
#include "fuzz/fuzz_checks.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    return pbx::fuzz::run(pbx::fuzz::checkPredicate, data, size);
}
