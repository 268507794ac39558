// SPDX-License-Identifier: MIT
// libFuzzer target: readRequestLine (one JSON Lines request), a write/read round trip, then Session::ask on
// the fixture (fuzz_checks.h).
#include "fuzz/fuzz_checks.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    return pbx::fuzz::run(pbx::fuzz::checkRequest, data, size);
}
